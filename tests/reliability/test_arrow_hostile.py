"""Hostile Arrow input (issues 40 and 44): a producer can hand over any buffers pyarrow lets
through, and chrf answers with a result or a TypeError/ValueError naming the argument (and the
row): never a crash, a PanicException or panic text on stderr."""

from __future__ import annotations

import os
import struct
import subprocess
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any

import hostile_arrow
import numpy as np
import polars as pl
import pyarrow as pa
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

import chrf

KEY_TYPES = [pa.int8(), pa.int16(), pa.int32(), pa.int64()]
UNSIGNED_KEY_TYPES = [pa.uint8(), pa.uint16(), pa.uint32(), pa.uint64()]


def in_child(code: str) -> str:
    """Runs `code` in a fresh interpreter (a crash must not take pytest down) and returns what
    it printed, having checked that it ended normally and printed no panic."""
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=Path(__file__).resolve().parents[2],
    )
    assert done.returncode == 0, (done.returncode, done.stderr[-2000:])
    assert "panicked" not in done.stderr, done.stderr[-2000:]
    return done.stdout


def no_panic_text(capfd: pytest.CaptureFixture[str]) -> None:
    """A panic caught inside chrf must not print `thread '...' panicked at` either."""
    err = capfd.readouterr().err
    assert "panicked" not in err, err


def string_array(offsets: list[int], values: bytes, kind: pa.DataType | None = None) -> pa.Array:
    kind = kind or pa.string()
    width = "<q" if kind == pa.large_string() else "<i"
    raw = b"".join(struct.pack(width, offset) for offset in offsets)
    return pa.Array.from_buffers(
        kind, len(offsets) - 1, [None, pa.py_buffer(raw), pa.py_buffer(values)]
    )


def test_dictionary_values_with_inconsistent_offsets_are_refused() -> None:
    """Regression (issue 40): the dictionary's values were decoded unchecked, SIGSEGV."""
    out = in_child(
        """
        import struct, pyarrow as pa, chrf
        values = pa.Array.from_buffers(pa.string(), 2, [None,
            pa.py_buffer(struct.pack("<3i", 0, 3, 1)), pa.py_buffer(b"abc")])
        array = pa.DictionaryArray.from_arrays(pa.array([0, 1], pa.int32()), values)
        lists = pa.ListArray.from_arrays(pa.array([0, 2], pa.int32()), array)
        for call in (lambda: chrf.score(array, ["a", "b"]),
                     lambda: chrf.sentence_scores(["a", "b"], array),
                     lambda: chrf.pairwise(array, ["x"]),
                     lambda: chrf.score(["a"], lists)):
            try:
                call()
            except ValueError as error:
                print(error)
        """
    )
    lines = out.splitlines()
    assert len(lines) == 4, out
    names = ["hypotheses", "references", "hypotheses", "references"]
    for line, name in zip(lines, names, strict=True):
        assert line.startswith(f"{name} is not valid Arrow data: offsets out of order"), line


@pytest.mark.parametrize(
    "values",
    [
        pytest.param(lambda: string_array([0, 2, 4], b"ab\xff\xfe"), id="invalid UTF-8"),
        pytest.param(lambda: string_array([0, 1, 3], "éa".encode()), id="inside a character"),
        pytest.param(
            lambda: string_array([0, 2, 4], b"ab\xffd", pa.large_string()), id="large_string"
        ),
    ],
)
def test_dictionary_values_are_checked_as_plain_strings(
    values: Callable[[], pa.Array], capfd: pytest.CaptureFixture[str]
) -> None:
    array = pa.DictionaryArray.from_arrays(pa.array([1, 0], pa.int32()), values())
    with pytest.raises(ValueError, match=r"^hypotheses is not valid Arrow data: "):
        chrf.score(array, ["a", "b"])
    no_panic_text(capfd)


@pytest.mark.parametrize("key_type", KEY_TYPES + UNSIGNED_KEY_TYPES, ids=str)
def test_a_dictionary_index_out_of_range_names_the_row(
    key_type: pa.DataType, capfd: pytest.CaptureFixture[str]
) -> None:
    """Regression (issue 40): a PanicException (a BaseException) from arrow's decoding."""
    keys = pa.array([0, 5], key_type)
    array = pa.DictionaryArray.from_arrays(keys, pa.array(["a", "b"]), safe=False)
    with pytest.raises(ValueError, match=r"^hypotheses\[1\] is not valid Arrow data: .*5"):
        chrf.score(array, ["a", "b"])
    refs = pa.chunked_array([pa.DictionaryArray.from_arrays(keys[:1], ["a"]), array])
    with pytest.raises(ValueError, match=r"^references\[2\] is not valid Arrow data: .*5"):
        chrf.sentence_scores(["a", "b", "c"], refs)
    no_panic_text(capfd)


@pytest.mark.parametrize("key_type", KEY_TYPES, ids=str)
def test_a_negative_dictionary_index_names_the_row(
    key_type: pa.DataType, capfd: pytest.CaptureFixture[str]
) -> None:
    array = pa.DictionaryArray.from_arrays(
        pa.array([1, -1], key_type), pa.array(["a", "b"]), safe=False
    )
    with pytest.raises(ValueError, match=r"^hypotheses\[1\] is not valid Arrow data: .*-1"):
        chrf.score(array, ["a", "b"])
    no_panic_text(capfd)


@pytest.mark.parametrize("key_type", KEY_TYPES + UNSIGNED_KEY_TYPES, ids=str)
def test_dictionaries_of_every_index_type_read_their_strings(key_type: pa.DataType) -> None:
    hyps, refs = ["ab", "cd", "ab", "x"], ["ab c", "c d", "b", "y"]
    keys = pa.array([0, 1, 0, 2], key_type)
    array = pa.DictionaryArray.from_arrays(keys, ["ab", "cd", "x"])
    assert chrf.score(array, refs) == chrf.score(hyps, refs)
    with pytest.raises(ValueError, match=r"^hypotheses\[2\] is null$"):
        chrf.score(
            pa.DictionaryArray.from_arrays(pa.array([0, 1, None], key_type), ["a", "b"]), refs[:3]
        )
    # A null among the dictionary's values, pointed at by a valid index, is a null row too.
    with pytest.raises(ValueError, match=r"^hypotheses\[1\] is null$"):
        chrf.score(
            pa.DictionaryArray.from_arrays(pa.array([0, 1], key_type), ["a", None]), refs[:2]
        )


def test_an_empty_dictionary_with_no_rows_is_an_empty_column() -> None:
    empty = pa.DictionaryArray.from_arrays(pa.array([], pa.int32()), pa.array([], pa.string()))
    assert chrf.pairwise(empty, ["x"]).shape == (0, 1)
    with pytest.raises(ValueError, match=r"^hypotheses\[0\] is not valid Arrow data: "):
        chrf.score(
            pa.DictionaryArray.from_arrays(
                pa.array([0], pa.int32()), pa.array([], pa.string()), safe=False
            ),
            ["x"],
        )


def empty_slices() -> dict[str, Any]:
    made: dict[str, Any] = {}
    for kind in (pa.string(), pa.large_string(), pa.string_view()):
        made[f"{kind} slice"] = pa.array(["ab", "cd"], kind).slice(1, 0)
        made[f"{kind} slice at the end"] = pa.array(["ab", "cd"], kind).slice(2, 0)
    made["polars slice"] = pl.Series(["ab", "cd"]).slice(1, 0)
    made["dictionary slice"] = pa.array(["ab", "cd"]).dictionary_encode().slice(1, 0)
    return made


@pytest.mark.parametrize("name", list(empty_slices()))
def test_an_empty_slice_at_an_offset_is_an_empty_column(name: str) -> None:
    """Regression (issue 40): refused as "offsets outside the values"."""
    column = empty_slices()[name]
    assert chrf.pairwise(column, ["x"]).shape == (0, 1)
    assert chrf.pairwise(["x"], column).shape == (1, 0)


@pytest.mark.parametrize("kind", [pa.string(), pa.large_string(), pa.string_view()], ids=str)
def test_a_chunked_column_with_an_empty_chunk_at_an_offset(kind: pa.DataType) -> None:
    """Regression (issue 40): common after filtering a table, refused as invalid data."""
    hyps, refs = ["ab", "cd", "ef"], ["ab", "c d", "f"]
    batch = pa.record_batch({"h": pa.array(hyps, kind), "r": pa.array(refs, kind)})
    table = pa.Table.from_batches([batch.slice(1, 0), batch.slice(1, 2), batch.slice(3, 0)])
    got = chrf.sentence_scores(table["h"], table["r"])
    np.testing.assert_array_equal(got, chrf.sentence_scores(hyps[1:], refs[1:]))
    assert chrf.score(table["h"], table["r"]) == chrf.score(hyps[1:], refs[1:])
    lists = pa.chunked_array(
        [pa.array([["q"], ["ab", "c d"]]).slice(1, 0), pa.array([["x"], ["c"]])]
    )
    expected = chrf.score(["a", "cd"], [["x"], ["c"]], layout="per_hypothesis")
    assert chrf.score(["a", "cd"], lists) == expected


def test_list_of_dictionary_references_are_read_as_their_strings(
    capfd: pytest.CaptureFixture[str],
) -> None:
    """Regression (issue 40): list<dictionary<string>> references were refused."""
    hyps = ["the cat", "a dog", "fish"]
    refs = [["the cat sat", "a cat"], ["dogs", None, "a dog"], ["fishes"]]
    listed = [[r for r in row if r is not None] for row in refs]
    expected = chrf.score(hyps, listed, layout="per_hypothesis")
    for list_type in (pa.list_, pa.large_list):
        for key_type in (pa.int8(), pa.uint32(), pa.int64()):
            column = pa.array(refs, list_type(pa.dictionary(key_type, pa.string())))
            assert chrf.score(hyps, column) == expected
    bad = pa.ListArray.from_arrays(
        pa.array([0, 2], pa.int32()),
        pa.DictionaryArray.from_arrays(pa.array([0, 7], pa.int32()), ["a"], safe=False),
    )
    with pytest.raises(ValueError, match=r"^references\[0\]\[1\] is not valid Arrow data: .*7"):
        chrf.score(["a"], bad)
    no_panic_text(capfd)


class OneTuple:
    def __arrow_c_array__(self, requested_schema: object = None) -> tuple[object, ...]:
        return (pa.array(["a"]).__arrow_c_array__()[0],)


class NotATuple:
    def __arrow_c_array__(self, requested_schema: object = None) -> object:
        return [*pa.array(["a"]).__arrow_c_array__()]


class SwappedCapsules:
    def __arrow_c_array__(self, requested_schema: object = None) -> tuple[object, ...]:
        schema, array = pa.array(["a"]).__arrow_c_array__()
        return (array, schema)


class NotCapsules:
    def __arrow_c_array__(self, requested_schema: object = None) -> tuple[object, ...]:
        return ("schema", "array")


class ThreeTuple:
    def __arrow_c_array__(self, requested_schema: object = None) -> tuple[object, ...]:
        return (*pa.array(["a"]).__arrow_c_array__(), None)


class StreamOfArrayCapsule:
    def __arrow_c_stream__(self, requested_schema: object = None) -> object:
        return pa.array(["a"]).__arrow_c_array__()[1]


class StreamOfTuple:
    def __arrow_c_stream__(self, requested_schema: object = None) -> object:
        return pa.array(["a"]).__arrow_c_array__()


class StreamOfNone:
    def __arrow_c_stream__(self, requested_schema: object = None) -> object:
        return None


class RaisingStream:
    def __arrow_c_stream__(self, requested_schema: object = None) -> object:
        raise RuntimeError("the producer's own failure")


class NotCallable:
    __arrow_c_array__ = 3


@pytest.mark.parametrize(
    "exporter",
    [
        OneTuple,
        NotATuple,
        SwappedCapsules,
        NotCapsules,
        ThreeTuple,
        StreamOfArrayCapsule,
        StreamOfTuple,
        StreamOfNone,
        NotCallable,
    ],
)
def test_malformed_exporters_are_named(exporter: type, capfd: pytest.CaptureFixture[str]) -> None:
    """Regression (issue 44): a 1-tuple from __arrow_c_array__ gave an IndexError."""
    with pytest.raises((TypeError, ValueError), match=r"^hypotheses\b"):
        chrf.score(exporter(), ["a"])
    with pytest.raises((TypeError, ValueError), match=r"^references\b"):
        chrf.sentence_scores(["a"], exporter())
    no_panic_text(capfd)


def test_a_producer_s_own_exception_is_raised_as_it_is() -> None:
    with pytest.raises(RuntimeError, match="the producer's own failure"):
        chrf.score(RaisingStream(), ["a"])


#: Batches of cases the fuzzer runs (a child process each); CHRF_ARROW_FUZZ_EXAMPLES raises it
#: for a long run (fuzz/README.md).
FUZZ_BATCHES = int(os.environ.get("CHRF_ARROW_FUZZ_EXAMPLES", "8"))
FUZZ_BATCH = 20


@settings(
    max_examples=FUZZ_BATCHES,
    deadline=None,
    # No shrinking: each try costs a child process; the failing case is printed whole instead.
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(specs=st.lists(hostile_arrow.cases(), min_size=FUZZ_BATCH, max_size=FUZZ_BATCH))
def test_hostile_arrow_gets_an_answer_or_an_error(specs: list[hostile_arrow.Spec]) -> None:
    """Issue 40: every column pyarrow lets through, at every entry point, gives a result or a
    TypeError/ValueError/MemoryError: never a signal, a PanicException or panic text; and a
    valid column gives what the same rows as Python lists give."""
    reports, problems = hostile_arrow.run_in_children(specs)
    hostile_arrow.log(reports)
    assert problems == []
    bad = [(specs[r["case"]], r["bad"]) for r in reports if r.get("bad")]
    assert bad == []


def test_the_bytes_of_a_null_are_not_read() -> None:
    """Found by the fuzzer: a null's bytes mean nothing (pyarrow's full validation skips them),
    so a null dictionary value or list item over invalid UTF-8 is no reason to refuse."""
    validity = pa.py_buffer(bytes([0b01]))
    values = pa.Array.from_buffers(
        pa.string(),
        2,
        [validity, pa.py_buffer(struct.pack("<3i", 0, 1, 2)), pa.py_buffer(b"a\xff")],
    )
    values.validate(full=True)
    hyps = ["a", "a"]
    assert chrf.score(pa.DictionaryArray.from_arrays([0, 0], values), hyps) == chrf.score(
        hyps, hyps
    )
    lists = pa.ListArray.from_arrays(pa.array([0, 2], pa.int32()), values)
    assert chrf.score(["a"], lists) == chrf.score(["a"], [["a"]], layout="per_hypothesis")


class MixedCapsules:
    """A producer that lies: the schema of one array with the data of another."""

    def __init__(self, schema_of: pa.Array, array_of: pa.Array) -> None:
        self.schema_of, self.array_of = schema_of, array_of

    def __arrow_c_array__(self, requested_schema: object = None) -> tuple[object, object]:
        return (self.schema_of.__arrow_c_array__()[0], self.array_of.__arrow_c_array__()[1])


@pytest.mark.parametrize(
    ("schema_of", "array_of"),
    [
        (pa.array(["a"]), pa.array([1, 2], pa.int64())),
        (pa.array(["a"]), pa.array([["a"], ["b"]])),
        (pa.array(["a"]).dictionary_encode(), pa.array(["a", "b"])),
    ],
    ids=["string over int64", "string over list", "dictionary over string"],
)
def test_a_failed_import_is_one_quiet_value_error(
    schema_of: pa.Array, array_of: pa.Array, capfd: pytest.CaptureFixture[str]
) -> None:
    """Regression (issue 44): arrow-rs' assertions on such data were caught, but their panic
    text (and a backtrace, with RUST_BACKTRACE set) was printed, up to three times a call."""
    with pytest.raises(ValueError, match=r"^hypotheses is not valid Arrow data: ") as caught:
        chrf.sentence_scores(MixedCapsules(schema_of, array_of), ["a", "b"])
    assert "\n" not in str(caught.value)
    no_panic_text(capfd)
