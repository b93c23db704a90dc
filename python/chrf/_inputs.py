"""Argument shapes shared by every entry point: hypotheses, and references in either layout."""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple, TypeAlias

#: Segments: any iterable of str (a lone str is refused, not split into characters).
Texts: TypeAlias = Iterable[str]
#: One reference per hypothesis, or reference streams each with one reference per hypothesis.
References: TypeAlias = Iterable[str] | Iterable[Iterable[str]]


class Corpus(NamedTuple):
    """Hypotheses and reference streams as lists, checked for shape but not yet for item types.

    ``streams[k][i]`` is reference k of segment i (sacreBLEU's layout). ``nested`` records
    whether the caller wrote streams, so that errors can name ``references[k][i]`` or
    ``references[i]`` as the caller wrote it. The caller's objects are never modified. A named
    tuple rather than a frozen dataclass: building one costs a third as much, which is a
    quarter of a one-sentence call.
    """

    hypotheses: list[object]
    streams: list[list[object]]
    nested: bool


def as_list(value: object, name: str) -> list[object]:
    """The items of a sequence argument; a lone string is refused, not split into characters."""
    if type(value) is list:
        return value
    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        raise TypeError(f"{name} must be a sequence of str, not {type(value).__name__}")
    # A copy also for list subclasses: their __len__ or __getitem__ may say otherwise than
    # their items.
    return list(value)


def corpus(hypotheses: object, references: object) -> Corpus:
    """Checks the shapes of ``hypotheses`` and ``references``.

    ``references`` is one reference per hypothesis (a sequence of str) or reference streams
    (a sequence of sequences of str, each with one reference per hypothesis).
    """
    hyps = as_list(hypotheses, "hypotheses")
    if not hyps:
        raise ValueError("hypotheses must not be empty")
    refs = as_list(references, "references")
    if not refs:
        raise ValueError("references must not be empty")
    first = refs[0]
    nested = not isinstance(first, (str, bytes)) and isinstance(first, Iterable)
    if not nested:
        _check_length(refs, "references", len(hyps))
        return Corpus._make((hyps, [refs], False))  # _make: a quarter of the cost of Corpus()
    streams = [as_list(stream, f"references[{k}]") for k, stream in enumerate(refs)]
    for k, stream in enumerate(streams):
        _check_length(stream, f"references[{k}]", len(hyps))
    return Corpus._make((hyps, streams, True))


def _check_length(stream: list[object], name: str, expected: int) -> None:
    if len(stream) != expected:
        raise ValueError(
            f"{name} has {len(stream)} segments but hypotheses has {expected}; "
            "every reference stream needs one reference per hypothesis"
        )
