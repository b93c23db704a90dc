"""A fuzzer of hostile Arrow input (issue 40): hypothesis strategies of raw Arrow buffers for
every type chrf reads, built with `pa.Array.from_buffers`, and the child process that feeds
each built column to every entry point.

A case is plain data (a `Spec`: nested dicts, lists, ints and bytes), so that a batch of them
crosses to a child process by pickle and a failing one can be printed and replayed. Arrays
are made from mostly-valid pieces (offsets, views and dictionary indices of real texts) with
some of them broken: offsets out of order or past the values, bytes that are not UTF-8,
views past their buffer or of a missing one, indices out of range or negative, validity
bitmaps at random, slices at an offset. pyarrow's own structural check (`validate()`, what
`from_buffers` runs) is the line: what it refuses is not built, since no consumer of the C
Data Interface can tell a buffer's true size. Everything it lets through chrf must answer
with a result or a TypeError/ValueError/MemoryError.

Run as a script, it reads a pickled list of specs from the file named by its argument and
prints one JSON line per case (`{"case": i, ...}`), having printed `{"start": i}` before the
case: a child killed by a signal is then pinned to its case.
"""

from __future__ import annotations

import json
import os
import pickle
import struct
import subprocess
import sys
import tempfile
from collections.abc import Callable
from itertools import pairwise
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

Spec = dict[str, Any]

KEY_TYPES = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]
STRING_TYPES = ["string", "large_string", "string_view"]
_KEY_FORMATS = {"int8": "b", "int16": "h", "int32": "i", "int64": "q"}
_KEY_FORMATS.update({f"u{k}": v.upper() for k, v in _KEY_FORMATS.items()})

TEXTS = st.text(st.sampled_from("ab é€😀\u00a0 xyΣ"), max_size=16)
BYTES_NOISE = st.sampled_from([b"\xff", b"\xc3", b"\xe2\x82", b"\x80", b"\x00", b"\xed\xa0\x80"])


@st.composite
def broken_ints(draw: st.DrawFn, values: list[int], low: int, high: int) -> list[int]:
    """`values`, or `values` with a few of them replaced or shifted: mostly valid."""
    if not values or draw(st.integers(0, 2)) == 0:
        return values
    out = list(values)
    if len(out) > 3 and draw(st.booleans()):
        # Two inner values swapped: out of order, yet with the ends pyarrow checks intact.
        i = draw(st.integers(1, len(out) - 3))
        out[i], out[i + 1] = out[i + 1], out[i]
        return out
    for _ in range(draw(st.integers(1, 3))):
        i = draw(st.integers(0, len(out) - 1))
        out[i] = draw(
            st.one_of(
                st.integers(low, high),
                st.integers(out[i] - 3, out[i] + 3).filter(lambda v: low <= v <= high),
            )
        )
    return out


@st.composite
def data_bytes(draw: st.DrawFn, texts: list[str]) -> tuple[bytes, list[int]]:
    """The UTF-8 of `texts` back to back, sometimes with a byte that is not UTF-8 put in one
    of them, and the offsets of their bounds."""
    parts = [t.encode() for t in texts]
    if parts and draw(st.integers(0, 3)) == 0:
        i = draw(st.integers(0, len(parts) - 1))
        at = draw(st.integers(0, len(parts[i])))
        parts[i] = parts[i][:at] + draw(BYTES_NOISE) + parts[i][at:]
    offsets = [0]
    for part in parts:
        offsets.append(offsets[-1] + len(part))
    return b"".join(parts), offsets


@st.composite
def validity(draw: st.DrawFn, bits: int) -> bytes | None:
    if draw(st.integers(0, 2)) != 0:
        return None
    return draw(st.binary(min_size=(bits + 7) // 8, max_size=(bits + 7) // 8 + 2))


@st.composite
def window(draw: st.DrawFn, rows: int) -> tuple[int, int]:
    """A slice (offset, length) of `rows` rows: often all of them, sometimes an empty one."""
    if draw(st.booleans()):
        return 0, rows
    offset = draw(st.integers(0, rows))
    return offset, draw(st.integers(0, rows - offset))


@st.composite
def strings(draw: st.DrawFn, kind: str | None = None) -> Spec:
    """A spec of a string, large_string or string_view array."""
    kind = kind or draw(st.sampled_from(STRING_TYPES))
    texts = draw(st.lists(TEXTS, max_size=6))
    data, offsets = draw(data_bytes(texts))
    offset, length = draw(window(len(texts)))
    spec: Spec = {"kind": kind, "offset": offset, "length": length}
    spec["validity"] = draw(validity(offset + length))
    if kind != "string_view":
        top = len(data) + 4
        spec["offsets"] = draw(broken_ints(offsets, -2, top))
        spec["data"] = data
        return spec
    views = []
    for start, end in pairwise(offsets):
        size = end - start
        views.append([size, data[start:end], 0, start])
    for view in views:
        if draw(st.integers(0, 5)) == 0:
            field = draw(st.integers(0, 3))
            view[field if field != 1 else 0] = draw(st.integers(-2, len(data) + 20))
            if field == 3:
                view[2] = draw(st.integers(-1, 3))
    spec["views"] = views
    spec["buffers"] = [data] if data or draw(st.booleans()) else []
    return spec


@st.composite
def dictionaries(draw: st.DrawFn, key_type: str, kind: str) -> Spec:
    values = draw(strings(kind))
    count = values["length"]
    keys = draw(st.lists(st.integers(0, max(count - 1, 0)), max_size=6))
    bits = 8 * struct.calcsize(_KEY_FORMATS[key_type])
    signed = key_type[0] != "u"
    low, high = (-(2 ** (bits - 1)), 2 ** (bits - 1) - 1) if signed else (0, 2**bits - 1)
    keys = draw(broken_ints(keys, max(low, -3), min(high, count + 3)))
    if keys and draw(st.integers(0, 5)) == 0:
        keys[draw(st.integers(0, len(keys) - 1))] = draw(st.sampled_from([low, high]))
    offset, length = draw(window(len(keys)))
    return {
        "kind": "dictionary",
        "key_type": key_type,
        "keys": keys,
        "offset": offset,
        "length": length,
        "validity": draw(validity(offset + length)),
        "values": values,
    }


@st.composite
def lists(draw: st.DrawFn, list_kind: str, key_type: str | None, kind: str) -> Spec:
    values = draw(texts(key_type, kind))
    items = values["length"]
    rows = draw(st.lists(st.integers(0, 3), max_size=5))
    offsets = [0]
    for size in rows:
        offsets.append(min(offsets[-1] + size, items))
    offset, length = draw(window(len(rows)))
    return {
        "kind": list_kind,
        "offsets": draw(broken_ints(offsets, -1, items + 2)),
        "offset": offset,
        "length": length,
        "validity": draw(validity(offset + length)),
        "values": values,
    }


def texts(key_type: str | None, kind: str) -> st.SearchStrategy[Spec]:
    return dictionaries(key_type, kind) if key_type else strings(kind)


@st.composite
def cases(draw: st.DrawFn) -> Spec:
    """One column: of texts (hypotheses, a reference stream) or of lists (the references of
    each hypothesis), plain or dictionary-encoded, single or chunked (chunks of one type)."""
    kind = draw(st.sampled_from(STRING_TYPES))
    key_type = draw(st.one_of(st.none(), st.sampled_from(KEY_TYPES)))
    list_kind = draw(st.sampled_from([None, None, "list", "large_list"]))
    one = lists(list_kind, key_type, kind) if list_kind else texts(key_type, kind)
    if draw(st.integers(0, 2)) != 0:
        return draw(one)
    return {"kind": "chunked", "chunks": draw(st.lists(one, min_size=1, max_size=3))}


# The child's side: building and calling. pyarrow and chrf are imported only here, so that the
# strategies above cost the parent nothing.


def build(spec: Spec) -> Any:
    """The array (or chunked array) of `spec`, or None where pyarrow refuses its structure."""
    import pyarrow as pa

    try:
        made = _build(spec)
        made.validate()
    except (pa.ArrowException, ValueError, TypeError, OverflowError, IndexError):
        return None
    return made


def _buffer(data: bytes | None) -> Any:
    import pyarrow as pa

    return None if data is None else pa.py_buffer(data)


def _build(spec: Spec) -> Any:
    import pyarrow as pa

    kind = spec["kind"]
    if kind == "chunked":
        return pa.chunked_array([_build(chunk) for chunk in spec["chunks"]])
    size = spec["offset"] + spec["length"]
    where = {"offset": spec["offset"]}
    if kind in ("string", "large_string"):
        width = "<q" if kind == "large_string" else "<i"
        offsets = b"".join(struct.pack(width, o) for o in spec["offsets"][: size + 1])
        buffers = [_buffer(spec["validity"]), pa.py_buffer(offsets), pa.py_buffer(spec["data"])]
        return pa.Array.from_buffers(getattr(pa, kind)(), spec["length"], buffers, **where)
    if kind == "string_view":
        views = b"".join(_view(*view) for view in spec["views"][:size])
        buffers = [_buffer(spec["validity"]), pa.py_buffer(views)]
        buffers += [pa.py_buffer(b) for b in spec["buffers"]]
        return pa.Array.from_buffers(pa.string_view(), spec["length"], buffers, **where)
    values = _build(spec["values"])
    if kind == "dictionary":
        fmt = "<" + _KEY_FORMATS[spec["key_type"]]
        raw = b"".join(struct.pack(fmt, k) for k in spec["keys"][:size])
        key_type = getattr(pa, spec["key_type"])()
        keys = pa.Array.from_buffers(
            key_type, spec["length"], [_buffer(spec["validity"]), pa.py_buffer(raw)], **where
        )
        return pa.DictionaryArray.from_arrays(keys, values, safe=False)
    width = "<q" if kind == "large_list" else "<i"
    offsets = b"".join(struct.pack(width, o) for o in spec["offsets"][: size + 1])
    list_type = getattr(pa, "large_list" if kind == "large_list" else "list_")(values.type)
    buffers = [_buffer(spec["validity"]), pa.py_buffer(offsets)]
    return pa.Array.from_buffers(list_type, spec["length"], buffers, children=[values], **where)


def _view(length: int, text: bytes, buffer: int, offset: int) -> bytes:
    length = max(min(length, 2**31 - 1), -(2**31))
    if 0 <= length <= 12:
        return struct.pack("<i", length) + text[:12].ljust(12, b"\0")
    buffer = max(min(buffer, 2**31 - 1), -(2**31))
    offset = max(min(offset, 2**31 - 1), -(2**31))
    return struct.pack("<i4sii", length, text[:4].ljust(4, b"\0"), buffer, offset)


def calls(column: Any, rows: int, is_lists: bool) -> dict[str, Callable[[], Any]]:
    """Every entry point that reads an Arrow column, given `column` where it fits."""
    import chrf

    refs, hyps = ["x ab"] * rows, ["ab é"] * rows
    metric = chrf.CHRF(word_order=2)
    if is_lists:
        # Lists of lists could be streams too: the layout is said, for the lists' sake.
        per = "per_hypothesis"
        made = {
            "score": lambda: chrf.score(hyps, column, layout=per),
            "sentence_scores": lambda: chrf.sentence_scores(hyps, column, layout=per),
            "segment_statistics": lambda: chrf.segment_statistics(hyps, column, layout=per),
            "components": lambda: chrf.components(hyps, column, layout=per).score,
            "explain": lambda: chrf.explain(hyps, column, top=2, layout=per).score,
        }
        if hasattr(column, "__arrow_c_stream__"):  # an Arrow list column needs no layout
            made["guessed layout"] = lambda: chrf.score(hyps, column)
        return made
    return {
        "score": lambda: chrf.score(column, refs),
        "score references": lambda: chrf.score(hyps, column, lowercase=True),
        "sentence_scores": lambda: chrf.sentence_scores(column, refs, word_order=2),
        "statistics": lambda: chrf.statistics(column, refs),
        "segment_statistics": lambda: chrf.segment_statistics(hyps, column),
        "components": lambda: chrf.components(column, refs).score,
        "pairwise": lambda: chrf.pairwise(column, ["ab", "é x"]),
        "pairwise references": lambda: chrf.pairwise(["ab"], column, char_order=2),
        "pairwise_batched": lambda: chrf.pairwise_batched([column], [["ab"]]),
        "aggregate": lambda: chrf.aggregate(column, ["ab", "x"]),
        "expected_utility": lambda: chrf.expected_utility(["ab", "x"], column),
        "expected_utility_batched": lambda: chrf.expected_utility_batched([column], [["ab"]]),
        "mbr": lambda: chrf.mbr(column).index,
        "compare": lambda: chrf.compare([column, hyps], refs, top=2, test=None).components,
        "explain": lambda: chrf.explain(column, refs, top=2).score,
        "CHRF.corpus_score": lambda: metric.corpus_score(column, [refs]).score,
        "CHRF.corpus_score references": lambda: metric.corpus_score(hyps, [column]).score,
        "CHRF.sentence_score": lambda: metric.sentence_score("ab", column).score,
    }


def listed(column: Any, is_lists: bool) -> Any:
    """`column` as Python lists, as the list path reads it (a null item is a placeholder)."""
    rows = column.to_pylist()
    if not is_lists:
        return rows
    return [None if row is None else [t for t in row if t is not None] for row in rows]


def run_case(spec: Spec) -> dict[str, Any]:
    """Every call on the column of `spec`: the kinds of outcome, and what went wrong."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.compute as pc

    column = build(spec)
    if column is None:
        return {"built": False}
    is_lists = pa.types.is_list(column.type) or pa.types.is_large_list(column.type)
    try:
        column.validate(full=True)
        valid = True
    except pa.ArrowException:
        valid = False
    outcomes, bad = {}, []
    arrow_calls = calls(column, len(column), is_lists)
    # A null row is an error in an Arrow column, and a placeholder in some lists (sacreBLEU's
    # sentence_score): where the paths differ by design, only the absence of crashes is checked.
    compared = valid and (is_lists or not pc.any(pc.is_null(column)).as_py())
    list_calls = calls(listed(column, is_lists), len(column), is_lists) if compared else {}
    for name, call in arrow_calls.items():
        got = _outcome(call)
        outcomes[got[0]] = outcomes.get(got[0], 0) + 1
        if got[0] not in ("result", "TypeError", "ValueError", "MemoryError"):
            bad.append(f"{name}: {got[0]}: {got[1]}")
        elif name in list_calls:
            expected = _outcome(list_calls[name])
            both_failed = got[0] != "result" and expected[0] != "result"
            if not both_failed and not _same(got[1], expected[1], np):
                bad.append(f"{name}: Arrow gives {got}, lists give {expected}")
    return {"built": True, "valid": valid, "compared": compared, "outcomes": outcomes, "bad": bad}


def _outcome(call: Callable[[], Any]) -> tuple[str, Any]:
    try:
        return "result", call()
    except BaseException as error:  # a PanicException is a BaseException
        # chrf's errors by their built-in class (chrf.InputError: ValueError); a PanicException
        # comes out as BaseException, refused as any class outside the list.
        builtin = next(cls for cls in type(error).__mro__ if cls.__module__ == "builtins")
        return builtin.__name__, str(error)[:300]


def _same(a: Any, b: Any, np: Any) -> bool:
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return bool(np.array_equal(np.asarray(a), np.asarray(b)))
    return bool(a == b)


# The parent's side: batches of cases in child processes.


def run_in_children(specs: list[Spec]) -> tuple[list[dict[str, Any]], list[str]]:
    """Runs `specs` in child processes: each case's report, and what went wrong outside the
    cases (a child killed by a signal, with the case it was running; panic text on stderr)."""
    reports: list[dict[str, Any]] = []
    problems: list[str] = []
    while len(reports) < len(specs):
        rest = specs[len(reports) :]
        with tempfile.NamedTemporaryFile(suffix=".pickle", delete=False) as file:
            pickle.dump(rest, file)
        try:
            done = subprocess.run(
                [sys.executable, "-m", "hostile_arrow", file.name],
                capture_output=True,
                text=True,
                timeout=600,
                cwd=Path(__file__).parent,
            )
        finally:
            os.unlink(file.name)
        lines = [json.loads(line) for line in done.stdout.splitlines()]
        reports += [line for line in lines if "case" in line]
        if "panicked" in done.stderr:
            problems.append(f"panic text on stderr: {done.stderr[-1500:]}")
        if done.returncode != 0:
            started = [line["start"] for line in lines if "start" in line]
            case = rest[started[-1]] if started else None
            problems.append(
                f"child ended with {done.returncode} in case {case!r}: {done.stderr[-1500:]}"
            )
            reports.append({"case": -1, "built": True, "bad": ["crashed"], "spec": case})
    return reports, problems


def log(reports: list[dict[str, Any]]) -> None:
    """Adds the batch's counts to $CHRF_ARROW_FUZZ_LOG, for a long run's report."""
    path = os.environ.get("CHRF_ARROW_FUZZ_LOG")
    if not path:
        return
    with open(path, "a", encoding="utf-8") as log:
        for report in reports:
            log.write(json.dumps({k: v for k, v in report.items() if k != "spec"}) + "\n")


def main(path: str) -> None:
    with open(path, "rb") as file:
        specs = pickle.load(file)
    for i, spec in enumerate(specs):
        print(json.dumps({"start": i}), flush=True)
        print(json.dumps({"case": i, **run_case(spec)}, default=str), flush=True)


if __name__ == "__main__":
    main(sys.argv[1])
