"""Explaining a score: which n-grams cost it, which segments, and how systems differ.

Missing and extra n-grams are counted in the compiled core (``chrf-core``'s explain.rs) against
the reference each segment's statistics take (spec §5) and under spec §1.4, so that per order
``sum(missing) == R - M`` and ``sum(extra) == H - M`` of the corpus statistics. Leave-one-out
and swap deltas are corpus scores of statistics with one segment's counts subtracted (and
another's added): exact counts, each scored as :func:`chrf.score` scores a corpus.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from numbers import Integral
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np

from chrf import _core
from chrf._core import Corpus, Counts, NgramLists
from chrf._errors import SettingsError, SettingsTypeError
from chrf._explained import explained
from chrf._inputs import whole_number
from chrf._messages import shown
from chrf._numbers import is_bool
from chrf._settings import Settings, score_name

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from chrf._components import NgramType

__all__ = [
    "Explanation",
    "LengthBucket",
    "NgramCount",
    "OrderExplanation",
    "SegmentCost",
    "SegmentExplanation",
]

#: An n-gram and its count: character n-grams as their characters, word n-grams as their tokens
#: joined by one space.
NgramCount = tuple[str, int]

#: Default reference-length bucket edges, in characters (spec §1.1 units) and in word tokens.
CHAR_EDGES = (50, 100, 150, 200, 300)
WORD_EDGES = (10, 20, 30, 40, 60)


@dataclass(frozen=True)
class OrderExplanation:
    """One order's n-gram counts and the n-grams that cost it matches.

    ``missing`` are reference n-grams the hypotheses did not produce (they cost recall),
    ``extra`` hypothesis n-grams without a match (they cost precision), each with its number of
    unmatched occurrences, the largest first (then in code point order), at most ``top`` of
    them. ``missing_total`` (= R - M) and ``extra_total`` (= H - M) count all of them.
    """

    type: NgramType
    n: int
    hypothesis_ngrams: int
    reference_ngrams: int
    matching_ngrams: int
    missing_total: int
    extra_total: int
    missing: tuple[NgramCount, ...]
    extra: tuple[NgramCount, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "type": self.type,
            "n": self.n,
            "hypothesis_ngrams": self.hypothesis_ngrams,
            "reference_ngrams": self.reference_ngrams,
            "matching_ngrams": self.matching_ngrams,
            "missing_total": self.missing_total,
            "extra_total": self.extra_total,
            "missing": [list(item) for item in self.missing],
            "extra": [list(item) for item in self.extra],
        }


@dataclass(frozen=True)
class SegmentExplanation:
    """One segment: the reference stream it was scored against, its sentence score and its
    per-order n-grams (``orders``, as in :class:`OrderExplanation`)."""

    index: int
    reference: int
    sentence_score: float
    orders: tuple[OrderExplanation, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "reference": self.reference,
            "sentence_score": self.sentence_score,
            "orders": [order.to_dict() for order in self.orders],
        }


@dataclass(frozen=True)
class SegmentCost:
    """``delta`` is the corpus score minus the corpus score without segment ``index``: negative
    when the segment pulls the corpus score down."""

    index: int
    delta: float
    sentence_score: float

    def to_dict(self) -> dict[str, Any]:
        return {"index": self.index, "delta": self.delta, "sentence_score": self.sentence_score}


@dataclass(frozen=True)
class LengthBucket:
    """Segments whose reference length (in ``unit``) is in ``[low, high)`` (``high`` None: no
    upper bound): their count, the corpus score of their summed statistics, and the mean of
    their sentence scores."""

    low: int
    high: int | None
    unit: str
    segments: int
    score: float | None
    mean_sentence_score: float | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "low": self.low,
            "high": self.high,
            "unit": self.unit,
            "segments": self.segments,
            "score": self.score,
            "mean_sentence_score": self.mean_sentence_score,
        }


@dataclass(frozen=True, eq=False)
class Explanation:
    """Why a corpus scores what it scores (see :func:`explain`).

    Arrays, one row per segment: ``references`` (the stream each segment was scored against),
    ``segment_statistics`` (shape (segments, orders, 3): hypothesis, reference and matching
    n-grams), ``sentence_scores`` (sacreBLEU's sentence scores) and ``leave_one_out`` (the corpus
    score minus the corpus score without the segment).
    """

    settings: Settings
    score: float
    orders: tuple[OrderExplanation, ...]
    references: NDArray[np.int64]
    segment_statistics: NDArray[np.uint64]
    sentence_scores: NDArray[np.float64]
    leave_one_out: NDArray[np.float64]
    top: int | None
    _corpus: Corpus = field(repr=False)

    @property
    def segment_count(self) -> int:
        """The number of segments explained."""
        return len(self.sentence_scores)

    def __eq__(self, other: object) -> bool:
        """Equal explanations: the same values, of the same texts (the arrays element by
        element)."""
        if not isinstance(other, Explanation):
            return NotImplemented
        mine, theirs = self._state(), other._state()
        return all(_same(a, b) for a, b in zip(mine, theirs, strict=True))

    def __hash__(self) -> int:
        return hash((self.settings, self.score, self.top, self.segment_count))

    def __reduce__(self) -> tuple[Callable[..., Explanation], tuple[object, ...]]:
        # The compiled corpus pickles as its texts, segment by segment with the caller's
        # positions of the references, as `segment` names them; read again on load.
        return _restored, self._state()

    def _state(self) -> tuple[object, ...]:
        rows = [self._corpus.segment_texts(i) for i in range(len(self._corpus))]
        arrays = (self.references, self.segment_statistics)
        loose = (self.sentence_scores, self.leave_one_out, self.top, rows)
        return (self.settings, self.score, self.orders, *arrays, *loose)

    def costliest(self, k: int = 10) -> tuple[SegmentCost, ...]:
        """The ``k`` segments whose removal would raise the corpus score most, costliest first
        (ties by index)."""
        k = min(whole_number(k, "k"), self.segment_count)
        order = np.argsort(self.leave_one_out, kind="stable")[:k]
        return tuple(self._cost(int(i)) for i in order)

    def _cost(self, i: int) -> SegmentCost:
        return SegmentCost(i, float(self.leave_one_out[i]), float(self.sentence_scores[i]))

    def reference_lengths(self) -> NDArray[np.uint64]:
        """Each segment's reference length: characters (spec §1.1 units, the reference count of
        character order 1), or word tokens when ``char_order`` is 0."""
        return self.segment_statistics[:, 0, 1]

    def length_buckets(self, edges: tuple[int, ...] | None = None) -> tuple[LengthBucket, ...]:
        """Scores by reference length: buckets [0, e1), [e1, e2), ..., [e_last, ∞)."""
        chars = self.settings.char_order > 0
        edges = _edges(edges) if edges is not None else (CHAR_EDGES if chars else WORD_EDGES)
        lengths = self.reference_lengths()
        lows, highs = (0, *edges), (*edges, None)
        unit = "characters" if chars else "words"
        return tuple(
            self._bucket(low, high, lengths, unit) for low, high in zip(lows, highs, strict=True)
        )

    def _bucket(
        self, low: int, high: int | None, lengths: NDArray[np.uint64], unit: str
    ) -> LengthBucket:
        inside = (lengths >= low) & (lengths < high if high is not None else True)
        picked = self.segment_statistics[inside]
        if not len(picked):
            return LengthBucket(low, high, unit, 0, None, None)
        score = _core.score_of(self.settings.compiled, list(counts_of(picked)))
        mean = float(self.sentence_scores[inside].mean())
        return LengthBucket(low, high, unit, len(picked), score, mean)

    def segment(self, i: int) -> SegmentExplanation:
        """Segment ``i``'s n-grams, explained as the corpus explains them."""
        if is_bool(i) or not isinstance(i, Integral):
            raise SettingsTypeError(
                f"i must be an int, not {type(i).__name__}", argument="i", reason="wrong_type"
            )
        i = int(i)
        if not 0 <= i < self.segment_count:
            raise IndexError(f"segment index {shown(i)} out of range 0..{self.segment_count - 1}")
        references, lists = explained(self.settings, self._corpus.segment(i), None)
        orders = orders_of(self.settings, self.segment_statistics[i : i + 1], lists, None)
        return SegmentExplanation(i, references[0], float(self.sentence_scores[i]), orders)

    def to_dict(self, segments: int = 10) -> dict[str, Any]:
        """A JSON-ready summary: the metric's name as sacreBLEU names it (``chrF2++``), the
        orders, the ``segments`` costliest segments with their n-grams, the length buckets, and
        the per-segment arrays."""
        return {
            "metric": score_name(self.settings.beta, self.settings.word_order),
            "settings": dict(self.settings.options()) | {"beta": str(self.settings.beta)},
            "segment_count": self.segment_count,
            "score": self.score,
            "orders": [order.to_dict() for order in self.orders],
            "costliest_segments": [
                self.segment(cost.index).to_dict() | cost.to_dict()
                for cost in self.costliest(whole_number(segments, "segments"))
            ],
            "length_buckets": [bucket.to_dict() for bucket in self.length_buckets()],
            "references": self.references.tolist(),
            "sentence_scores": self.sentence_scores.tolist(),
            "leave_one_out": self.leave_one_out.tolist(),
        }


def _edges(edges: object) -> tuple[int, ...]:
    """Bucket edges: increasing positive ints."""
    if isinstance(edges, (str, bytes)) or not isinstance(edges, Iterable):
        raise SettingsTypeError(
            f"edges must be a sequence of ints, not {type(edges).__name__}",
            argument="edges",
            reason="not_a_sequence",
        )
    items = []
    for k, edge in enumerate(edges):
        if is_bool(edge) or not isinstance(edge, Integral):
            raise SettingsTypeError(
                f"edges[{k}] must be an int, not {type(edge).__name__}",
                argument="edges",
                reason="wrong_type",
            )
        items.append(int(edge))  # NumPy integers too
    if items != sorted(set(items)) or any(e <= 0 for e in items):
        raise SettingsError(
            f"edges must be increasing positive integers, not {shown(tuple(items))}",
            argument="edges",
            reason="out_of_range",
        )
    return tuple(items)


Item = TypeVar("Item", bound=np.generic)


def frozen(array: NDArray[Item]) -> NDArray[Item]:
    """The array, made read-only: an explanation is a value, its arrays too."""
    array.flags.writeable = False
    return array


def counts_of(stats: NDArray[np.uint64]) -> Counts:
    """The summed (hypothesis, reference, matching) counts of rows of segment statistics."""
    summed = stats.sum(axis=0, dtype=object)
    return tuple((int(h), int(r), int(m)) for h, r, m in summed)


def orders_of(
    settings: Settings, stats: NDArray[np.uint64], lists: NgramLists, top: int | None
) -> tuple[OrderExplanation, ...]:
    orders = []
    for index, ((h, r, m), (missing, extra)) in enumerate(
        zip(counts_of(stats), lists, strict=True)
    ):
        kind: NgramType = "char" if index < settings.char_order else "word"
        n = index + 1 if kind == "char" else index - settings.char_order + 1
        orders.append(
            OrderExplanation(
                kind, n, h, r, m, r - m, h - m, tuple(missing[:top]), tuple(extra[:top])
            )
        )
    return tuple(orders)


def _same(a: object, b: object) -> bool:
    if isinstance(a, np.ndarray) and isinstance(b, np.ndarray):
        floats = a.dtype.kind == "f"
        return a.dtype == b.dtype and bool(np.array_equal(a, b, equal_nan=floats))
    return bool(a == b)


def _restored(
    settings: Settings,
    score: float,
    orders: tuple[OrderExplanation, ...],
    references: NDArray[np.int64],
    segment_statistics: NDArray[np.uint64],
    sentence_scores: NDArray[np.float64],
    leave_one_out: NDArray[np.float64],
    top: int | None,
    rows: list[tuple[str, list[str | None]]],
) -> Explanation:
    """An unpickled explanation: its texts read (and checked) again, its arrays read-only."""
    hypotheses, rows_of_references = [h for h, _ in rows], [refs for _, refs in rows]
    corpus = _core.read(hypotheses, rows_of_references, "per_hypothesis", settings.lowercase)
    return Explanation(
        settings,
        score,
        orders,
        frozen(np.array(references, dtype=np.int64)),
        frozen(np.array(segment_statistics, dtype=np.uint64)),
        frozen(np.array(sentence_scores, dtype=np.float64)),
        frozen(np.array(leave_one_out, dtype=np.float64)),
        top,
        corpus,
    )
