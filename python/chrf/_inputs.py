"""Argument shapes shared by every entry point: hypotheses, and references in either layout."""

from __future__ import annotations

import operator
from collections.abc import ItemsView, Iterable, KeysView, Mapping, Sequence, Sized
from collections.abc import Set as AbstractSet
from typing import Literal, NamedTuple, Protocol, TypeAlias

from chrf._arrow import ArrowColumn, ArrowLists, column, column_or_lists, exports_arrow
from chrf._messages import shown
from chrf._numbers import is_bool


class ArrowArray(Protocol):
    """An Arrow column exported as one array (pyarrow's Array)."""

    def __arrow_c_array__(self, requested_schema: object = None) -> tuple[object, object]: ...


class ArrowStream(Protocol):
    """An Arrow column exported as a stream of arrays (pyarrow's ChunkedArray, polars' Series)."""

    def __arrow_c_stream__(self, requested_schema: object = None) -> object: ...


#: A column of Arrow's PyCapsule interface, read in place (see ``chrf._arrow``).
ArrowColumnLike: TypeAlias = ArrowArray | ArrowStream
#: Segments: any iterable of str (a lone str is refused, not split into characters), or an
#: Arrow string column.
Texts: TypeAlias = Iterable[str] | ArrowColumnLike
#: One reference per hypothesis, reference streams (sacreBLEU), or the references of each
#: hypothesis (evaluate, torchmetrics); ``None`` marks a missing reference in either nesting.
#: Arrow: a string column, several (streams), or a list<string> column (per hypothesis).
References: TypeAlias = (
    Iterable[str] | Iterable[Iterable[str | None] | ArrowColumnLike] | ArrowColumnLike
)
#: How nested references are read: ``references[k][i]`` is reference k of hypothesis i
#: ("streams", sacreBLEU's layout) or reference k of hypothesis i is ``references[i][k]``
#: ("per_hypothesis", the layout of Hugging Face evaluate and torchmetrics).
Layout: TypeAlias = Literal["streams", "per_hypothesis"]
LAYOUTS = ("streams", "per_hypothesis")
#: The texts of one argument as read: a list, or an Arrow string column read in place.
Column: TypeAlias = Sequence[object]


class Corpus(NamedTuple):
    """Hypotheses and reference streams as lists, checked for shape but not yet for item types.

    ``streams[k][i]`` is reference k of segment i (sacreBLEU's layout). ``nested`` records
    whether the caller wrote streams, so that errors can name ``references[k][i]`` or
    ``references[i]`` as the caller wrote it. The caller's objects are never modified. A named
    tuple rather than a frozen dataclass: building one costs a third as much, which is a
    quarter of a one-sentence call.
    """

    hypotheses: Column
    streams: list[Column]
    nested: bool


#: Collections whose iteration order is no order of segments: a set of hypotheses would be
#: paired with the references in whatever order its hashes give.
UNORDERED = (AbstractSet, Mapping, KeysView, ItemsView)


def as_list(value: object, name: str) -> Column:
    """The items of a sequence argument; a lone string is refused, not split into characters,
    and so is an unordered collection (a set, a mapping, a dict's keys). An Arrow string
    column is read in place (see ``chrf._arrow``)."""
    if type(value) is list:
        return value
    if exports_arrow(value):
        return column(value, name)
    if (
        isinstance(value, (str, bytes))
        or not isinstance(value, Iterable)
        or isinstance(value, UNORDERED)
    ):
        unordered = " (an unordered collection)" if isinstance(value, UNORDERED) else ""
        raise TypeError(f"{name} must be a sequence of str, not {type(value).__name__}{unordered}")
    # A copy also for list subclasses: their __len__ or __getitem__ may say otherwise than
    # their items.
    return list(value)


def whole_number(value: object, name: str, *, minimum: int = 0, optional: bool = False) -> int:
    """An int argument (NumPy integers welcome, bools refused) of at least ``minimum``."""
    if not is_bool(value):
        try:
            number = operator.index(value)  # type: ignore[arg-type]
        except TypeError:
            pass
        else:
            if number < minimum:
                bound = "must not be negative" if minimum == 0 else f"must be at least {minimum}"
                raise ValueError(f"{name} {bound}, not {shown(number)}")
            return number
    kinds = "an int or None" if optional else "an int"
    raise TypeError(f"{name} must be {kinds}, not {type(value).__name__}")


def corpus(hypotheses: object, references: object, layout: object = None) -> Corpus:
    """Checks the shapes of ``hypotheses`` and ``references``.

    ``references`` is one reference per hypothesis (a sequence of str), or nested: reference
    streams (``layout="streams"``) or the references of each hypothesis
    (``layout="per_hypothesis"``). Without a layout, nested references are read as streams,
    except when their shape fits both layouts (n hypotheses with n lists of n references,
    n >= 2): that is a ValueError asking for the layout, never a silent guess.
    """
    if layout is not None and not (isinstance(layout, str) and layout in LAYOUTS):
        raise ValueError(f"layout must be 'streams', 'per_hypothesis' or None, not {shown(layout)}")
    hyps = as_list(hypotheses, "hypotheses")
    if not hyps:
        raise ValueError("hypotheses must not be empty")
    refs = (
        column_or_lists(references, "references")
        if exports_arrow(references)
        else as_list(references, "references")
    )
    if not refs:
        raise ValueError("references must not be empty")
    if isinstance(refs, ArrowLists | ArrowColumn):
        return _arrow_references(hyps, refs, layout)
    first = refs[0]
    if layout == "per_hypothesis":
        return _per_hypothesis(hyps, refs)
    if isinstance(first, (str, bytes)) or (
        not isinstance(first, Iterable) and not exports_arrow(first)
    ):
        _check_length(refs, "references", len(hyps))
        return Corpus._make((hyps, [refs], False))  # _make: a quarter of the cost of Corpus()
    streams = [as_list(stream, f"references[{k}]") for k, stream in enumerate(refs)]
    if layout is None:
        _refuse_ambiguous(streams, len(hyps))
    for k, stream in enumerate(streams):
        _check_length(stream, f"references[{k}]", len(hyps), hint=layout is None)
    return Corpus._make((hyps, streams, True))


def _arrow_references(hyps: Column, refs: ArrowLists | ArrowColumn, layout: object) -> Corpus:
    """An Arrow column of references: one per hypothesis (a string column), or the references
    of each hypothesis (a list<string> column, read into streams by the core)."""
    if isinstance(refs, ArrowColumn):
        if layout == "per_hypothesis":
            # One reference per hypothesis either way; the core names a row by the caller's index.
            _per_hypothesis_length(refs, hyps)
        else:
            _check_length(refs, "references", len(hyps))
        return Corpus._make((hyps, [refs], False))
    if layout == "streams":
        raise ValueError(
            "references is an Arrow column of lists, the references of each hypothesis: pass "
            "layout='per_hypothesis' or None, or reference streams as a list of string columns"
        )
    _per_hypothesis_length(refs, hyps)
    return Corpus(hyps, [*refs.streams], nested=True)


def _refuse_ambiguous(streams: list[Sequence[object]], segments: int) -> None:
    if segments >= 2 and len(streams) == segments and all(len(s) == segments for s in streams):
        raise ValueError(
            f"references is ambiguous: {segments} lists of {segments} references for "
            f"{segments} hypotheses read as {segments} reference streams (sacreBLEU) and as the "
            "references of each hypothesis (evaluate, torchmetrics) alike, with different "
            "scores; pass layout='streams' if references[k][i] is reference k of hypothesis i, "
            "or layout='per_hypothesis' if references[i] holds the references of hypothesis i"
        )


def _per_hypothesis(hyps: Sequence[object], refs: Sequence[object]) -> Corpus:
    """Transposes per-hypothesis references into streams, checking items in Python so that
    errors name ``references[i][k]`` as the caller wrote it."""
    _per_hypothesis_length(refs, hyps)
    rows = [_references_of(item, i) for i, item in enumerate(refs)]
    width = max(len(row) for row in rows)
    streams: list[Sequence[object]] = [
        [row[k] if k < len(row) else row[0] for row in rows] for k in range(width)
    ]
    return Corpus(hyps, streams, nested=True)


def _per_hypothesis_length(refs: Sized, hyps: Sized) -> None:
    if len(refs) != len(hyps):
        raise ValueError(
            f"references has {len(refs)} items but hypotheses has {len(hyps)}; with "
            "layout='per_hypothesis', references[i] holds the references of hypothesis i"
        )


def _references_of(item: object, i: int) -> Sequence[object]:
    """The references of hypothesis i, placeholders dropped: a str is one reference."""
    if isinstance(item, str):
        return [_valid_text(item, f"references[{i}]")]
    row: list[object] = [
        _valid_text(text, f"references[{i}][{k}]")
        for k, text in enumerate(as_list(item, f"references[{i}]"))
        if text is not None
    ]
    if not row:
        raise ValueError(f"references[{i}] has no reference: hypothesis {i} needs at least one")
    return row


def _valid_text(text: object, name: str) -> str:
    if not isinstance(text, str):
        raise TypeError(f"{name} must be str, not {type(text).__name__}")
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            raise ValueError(
                f"{name} is not valid Unicode text: it contains a lone surrogate"
            ) from None
    return text


def placeholders_filled(c: Corpus) -> Corpus | None:
    """``c`` with sacreBLEU's ``None`` placeholders (a segment with fewer references) replaced
    by the segment's first reference, or None if it has none to fill.

    A copy of a reference has that reference's statistics and sentence score, and the best
    reference is chosen by that score, so the copy changes nothing: the statistics are those
    of the segment's present references alone, as sacreBLEU computes them. The core reads
    ``None`` as a TypeError; callers fill only then, so that inputs without placeholders are
    never scanned for them.
    """
    streams = c.streams
    holes = [k for k, stream in enumerate(streams) if None in stream]
    if not holes or len(streams) == 1:
        # One stream has no other reference to stand in: its None is a TypeError naming it.
        return None
    copies = {k: list(streams[k]) for k in holes}
    for i in sorted({i for k in holes for i, text in enumerate(streams[k]) if text is None}):
        k = next((k for k, stream in enumerate(streams) if stream[i] is not None), None)
        if k is None:
            raise ValueError(
                f"segment {i} has no reference: references[k][{i}] is None in every stream"
            )
        # Checked here: the copy may land in an earlier stream, which is read first.
        present = _valid_text(streams[k][i], f"references[{k}][{i}]")
        for copy in copies.values():
            if copy[i] is None:
                copy[i] = present
    filled = [copies.get(k, stream) for k, stream in enumerate(streams)]
    return Corpus(c.hypotheses, filled, nested=True)


def present_references(references: Sequence[object]) -> list[object] | None:
    """One segment's references without sacreBLEU's ``None`` placeholders (each checked, and
    named by its index in ``references``), or None if there is no placeholder to drop."""
    if None not in references:
        return None
    present: list[object] = [
        _valid_text(text, f"references[{k}]")
        for k, text in enumerate(references)
        if text is not None
    ]
    if not present:
        raise ValueError("references has no reference: every item is None")
    return present


def reference_count(streams: list[Sequence[object]]) -> int:
    """sacreBLEU's ``num_refs``: the number of references every segment has, placeholders not
    counted, or -1 when it varies (the signature's ``nrefs:var``)."""
    if len(streams) == 1 or not any(None in stream for stream in streams):
        return len(streams)
    counts = {sum(text is not None for text in segment) for segment in zip(*streams, strict=False)}
    return counts.pop() if len(counts) == 1 else -1


def first_present(streams: list[Sequence[object]], i: int) -> int:
    """The first stream holding a reference for segment i (placeholders filled with it)."""
    return next((k for k, stream in enumerate(streams) if stream[i] is not None), 0)


def _check_length(
    stream: Sequence[object], name: str, expected: int, *, hint: bool = False
) -> None:
    if len(stream) != expected:
        advice = (
            "; if references[i] holds the references of hypothesis i, pass layout='per_hypothesis'"
            if hint
            else ""
        )
        raise ValueError(
            f"{name} has {len(stream)} segments but hypotheses has {expected}; "
            f"every reference stream needs one reference per hypothesis{advice}"
        )
