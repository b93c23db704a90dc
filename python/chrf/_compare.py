"""Two or more systems on the same references: what differs, where, and whether it is significant.

Every system is compared with the first (the baseline), as sacreBLEU's paired tests do.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal

from chrf import _core
from chrf._components import Components, NgramType, components_of, fraction_text
from chrf._explain import Explanation, counts_of
from chrf._settings import Settings, score_name
from chrf._significance import Result

__all__ = ["Comparison", "NgramShift", "OrderDelta", "SegmentSwap", "SystemDifference"]

#: An n-gram with its count for the baseline, then for the system.
NgramShift = tuple[str, int, int]

Test = Literal["bs", "ar"]


@dataclass(frozen=True)
class OrderDelta:
    """One order's precision, recall and F of the system minus the baseline's, exactly (None
    where either is undefined)."""

    type: NgramType
    n: int
    precision: Fraction | None
    recall: Fraction | None
    f_score: Fraction | None

    def to_dict(self) -> dict[str, Any]:
        def both(value: Fraction | None) -> dict[str, Any] | None:
            return (
                None if value is None else {"fraction": fraction_text(value), "value": float(value)}
            )

        return {
            "type": self.type,
            "n": self.n,
            "precision": both(self.precision),
            "recall": both(self.recall),
            "f_score": both(self.f_score),
        }


@dataclass(frozen=True)
class SegmentSwap:
    """``delta``: the baseline's corpus score had it output the system's segment ``index``,
    minus its corpus score; with both sentence scores."""

    index: int
    delta: float
    baseline_sentence_score: float
    system_sentence_score: float

    def to_dict(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "delta": self.delta,
            "baseline_sentence_score": self.baseline_sentence_score,
            "system_sentence_score": self.system_sentence_score,
        }


@dataclass(frozen=True)
class SystemDifference:
    """One system against the baseline: the score difference (system - baseline), per order
    P/R/F differences, the segments whose swap moves the baseline's score most, the n-grams
    whose missing or extra counts differ most (per order, as (n-gram, baseline count, system
    count)), and the paired test's p-value."""

    system: str
    score_delta: float
    orders: tuple[OrderDelta, ...]
    segments: tuple[SegmentSwap, ...]
    missing: tuple[tuple[NgramShift, ...], ...]
    extra: tuple[tuple[NgramShift, ...], ...]
    p_value: float | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "system": self.system,
            "score_delta": self.score_delta,
            "orders": [order.to_dict() for order in self.orders],
            "segments": [segment.to_dict() for segment in self.segments],
            "missing": [[list(shift) for shift in order] for order in self.missing],
            "extra": [[list(shift) for shift in order] for order in self.extra],
            "p_value": self.p_value,
        }


@dataclass(frozen=True)
class Comparison:
    """Systems on the same references (see :func:`compare`): each one's explanation and exact
    per-order components (under eps smoothing, which has no exact score, those of the same
    counts without it), the paired test's rows (sacreBLEU's: score, and for
    bootstrap the mean and 95% half-interval; p-values against the baseline), and one
    :class:`SystemDifference` per system after the baseline."""

    settings: Settings
    names: tuple[str, ...]
    explanations: tuple[Explanation, ...]
    components: tuple[Components, ...]
    test: Test | None
    seed: str | None
    results: tuple[Result, ...]
    differences: tuple[SystemDifference, ...]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready values; ``chrf explain -f json`` prints them for several systems."""

        def row(name: str, result: Result) -> dict[str, Any]:
            return {
                "system": name,
                "score": result.score,
                "mean": None if result.mean is None else float(result.mean),
                "ci": None if result.ci is None else float(result.ci),
                "p_value": result.p_value,
            }

        return {
            "metric": score_name(self.settings.beta, self.settings.word_order),
            "systems": [row(n, r) for n, r in zip(self.names, self.results, strict=True)],
            "test": self.test,
            "seed": self.seed,
            "differences": [d.to_dict() for d in self.differences],
        }


def order_components(settings: Settings, e: Explanation) -> Components:
    """The exact per-order precision, recall and F of an explanation's statistics (under eps
    smoothing, which has no exact score, those of the same counts without it)."""
    exact = settings.__replace__(eps_smoothing=False)
    return components_of(exact, counts_of(e.segment_statistics), e.segment_count)


def difference(
    name: str,
    base: Explanation,
    other: Explanation,
    components: tuple[Components, Components],
    p_value: float | None,
    top: int,
) -> SystemDifference:
    settings = base.settings
    swapped = _core.swapped_scores(
        settings.compiled, base.segment_statistics, other.segment_statistics
    )
    deltas = swapped - base.score
    order = sorted(range(len(deltas)), key=lambda i: (-abs(float(deltas[i])), i))[:top]
    segments = tuple(
        SegmentSwap(
            i, float(deltas[i]), float(base.sentence_scores[i]), float(other.sentence_scores[i])
        )
        for i in order
    )
    pairs = list(zip(base.orders, other.orders, strict=True))
    return SystemDifference(
        system=name,
        score_delta=other.score - base.score,
        orders=_order_deltas(*components),
        segments=segments,
        missing=tuple(_shifts(b.missing, o.missing, top) for b, o in pairs),
        extra=tuple(_shifts(b.extra, o.extra, top) for b, o in pairs),
        p_value=p_value,
    )


def _order_deltas(base: Components, other: Components) -> tuple[OrderDelta, ...]:
    def minus(a: Fraction | None, b: Fraction | None) -> Fraction | None:
        return None if a is None or b is None else a - b

    return tuple(
        OrderDelta(
            b.type,
            b.n,
            minus(o.precision, b.precision),
            minus(o.recall, b.recall),
            minus(o.f_score, b.f_score),
        )
        for b, o in zip(base.orders, other.orders, strict=True)
    )


def _shifts(
    base: tuple[tuple[str, int], ...], other: tuple[tuple[str, int], ...], top: int
) -> tuple[NgramShift, ...]:
    """The n-grams whose counts differ most between the two lists, largest difference first."""
    counts: dict[str, list[int]] = {}
    for side, items in enumerate((base, other)):
        for gram, count in items:
            counts.setdefault(gram, [0, 0])[side] = count
    ranked = sorted(counts.items(), key=lambda kv: (-abs(kv[1][1] - kv[1][0]), kv[0]))
    return tuple((gram, b, o) for gram, (b, o) in ranked[:top] if b != o)
