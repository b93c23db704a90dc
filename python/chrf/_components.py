"""Exact per-order results: what `chrf.components()` returns and the JSON contract prints."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Literal

from chrf import _core
from chrf._keywords import names_in
from chrf._settings import Settings

if TYPE_CHECKING:
    from chrf._chrf import _ExactComponents as ExactComponents
    from chrf._core import Counts

NgramType = Literal["char", "word"]

#: The settings the contract's output object holds (spec §6), in its order.
CONTRACT_OPTIONS = tuple(names_in("contract").values())


def fraction_text(value: Fraction | None) -> str | None:
    """A reduced fraction as the contract writes it: "p/q", "0/1" for zero, None if undefined."""
    return None if value is None else f"{value.numerator}/{value.denominator}"


def six_decimals(value: Fraction) -> str:
    """The exact value rounded to six decimals, ties to even ("25.000000")."""
    micros = round(abs(value) * 10**6)  # round() on a Fraction rounds half to even
    sign = "-" if value < 0 and micros else ""
    return f"{sign}{micros // 10**6}.{micros % 10**6:06d}"


@dataclass(frozen=True)
class OrderComponents:
    """One order: its counts and, exactly, its precision, recall and F-β (None if undefined)."""

    type: NgramType
    n: int
    hypothesis_ngrams: int
    reference_ngrams: int
    matching_ngrams: int
    effective: bool
    precision: Fraction | None
    recall: Fraction | None
    f_score: Fraction | None

    def to_dict(self) -> dict[str, Any]:
        """This order's object of the ``chrf-components`` 1.0.0 output (spec §6)."""
        return {
            "type": self.type,
            "n": self.n,
            "hypothesis_ngrams": self.hypothesis_ngrams,
            "reference_ngrams": self.reference_ngrams,
            "matching_ngrams": self.matching_ngrams,
            "effective": self.effective,
            "precision": fraction_text(self.precision),
            "recall": fraction_text(self.recall),
            "f_score": fraction_text(self.f_score),
        }


@dataclass(frozen=True)
class Components:
    """A corpus score with everything behind it, as exact fractions.

    ``cross_checked`` is True when every non-zero F-β value behind the score was re-derived
    through the harmonic form 1/F = (β²/R + 1/P)/(1 + β²) and matched. It is False when the
    score is 0: no order matched, the harmonic form is undefined, and no check ran. A mismatch
    is never a flag: it raises ArithmeticError.
    """

    settings: Settings
    segment_count: int
    orders: tuple[OrderComponents, ...]
    effective_order_count: int
    average_precision: Fraction
    average_recall: Fraction
    score_fraction: Fraction
    score: str
    cross_checked: bool

    def __float__(self) -> float:
        return float(self.score_fraction)

    def to_dict(self) -> dict[str, Any]:
        """The ``chrf-components`` 1.0.0 output object (spec §6), keys in the contract's order."""
        s = self.settings
        settings = {name: getattr(s, name) for name in CONTRACT_OPTIONS}
        settings["beta"] = s.beta if isinstance(s.beta, int) else fraction_text(s.beta_fraction)
        return {
            **settings,
            "segment_count": self.segment_count,
            "orders": [order.to_dict() for order in self.orders],
            "effective_order_count": self.effective_order_count,
            "average_precision": fraction_text(self.average_precision),
            "average_recall": fraction_text(self.average_recall),
            "score": self.score,
            "score_fraction": fraction_text(self.score_fraction),
        }


def components_of(settings: Settings, counts: Counts, segment_count: int) -> Components:
    """The exact components of corpus statistics, computed in the core."""
    return components_from(
        settings, _core.components_of(settings.compiled, list(counts)), segment_count
    )


def components_from(settings: Settings, exact: ExactComponents, segment_count: int) -> Components:
    """:class:`Components` of the core's exact components: its fields from ``orders`` on, each
    order the fields of :class:`OrderComponents` (``exact_components`` in chrf-py's counts.rs)."""
    orders = tuple(OrderComponents(*order) for order in exact[0])
    return Components(settings, segment_count, orders, *exact[1:])
