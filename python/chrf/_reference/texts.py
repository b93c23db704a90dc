"""The texts the reference scores, read from the caller's arguments by the rules of the public
functions: the shapes by `chrf._inputs`, each text checked with the messages the compiled path
gives (a str, no lone surrogate; sacreBLEU's None placeholders dropped, one stream's None and a
segment without any reference refused). Reading is not arithmetic: it is shared, not twinned."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from chrf._inputs import Corpus, _valid_text

#: A segment: its hypothesis, and its references with the stream each comes from (placeholders
#: dropped).
Segment = tuple[str, list[tuple[int, str]]]


def segments_of(c: Corpus) -> list[Segment]:
    """The segments of a corpus whose shape `chrf._inputs.corpus` checked; errors name each
    text as the caller wrote it: `hypotheses[i]`, `references[k][i]`, or `references[i]` for a
    flat list of references."""
    hypotheses = strings(c.hypotheses, lambda i: f"hypotheses[{i}]")
    several = len(c.streams) > 1  # one stream has no other reference to stand in for a None
    streams = [
        texts_of(stream, _namer(k, c.nested), skip_none=several)
        for k, stream in enumerate(c.streams)
    ]
    segments = []
    for i, hypothesis in enumerate(hypotheses):
        present = [(k, text) for k, stream in enumerate(streams) if (text := stream[i]) is not None]
        if not present:
            raise ValueError(
                f"segment {i} has no reference: references[k][{i}] is None in every stream"
            )
        segments.append((hypothesis, present))
    return segments


def texts_of(
    items: Sequence[object], name: Callable[[int], str], *, skip_none: bool = False
) -> list[str | None]:
    """Each item checked as a text named `name(i)`; None kept as None under `skip_none`."""
    return [
        None if item is None and skip_none else _valid_text(item, name(i))
        for i, item in enumerate(items)
    ]


def strings(items: Sequence[object], name: Callable[[int], str]) -> list[str]:
    """Each item checked as a text named `name(i)`."""
    return [_valid_text(item, name(i)) for i, item in enumerate(items)]


def _namer(k: int, nested: bool) -> Callable[[int], str]:
    return (lambda i: f"references[{k}][{i}]") if nested else (lambda i: f"references[{i}]")
