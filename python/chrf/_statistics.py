"""Corpus statistics as a value: add shards, pickle them, score the sum."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeAlias

from chrf._settings import Settings

if TYPE_CHECKING:
    from chrf._components import Components

#: Per order (character orders first): hypothesis n-grams, reference n-grams, matches.
Counts: TypeAlias = tuple[tuple[int, int, int], ...]


@dataclass(frozen=True)
class Statistics:
    """The per-order counts of a set of segments, with the settings that produced them.

    Statistics of disjoint shards add up to those of their union, so a corpus can be scored in
    pieces, anywhere, and merged: ``sum(shards).score() == chrf.score(whole corpus)``. Only
    statistics computed with equal settings add (β and eps smoothing choose among several
    references, so every setting counts).
    """

    settings: Settings
    counts: Counts
    segment_count: int

    def __add__(self, other: Statistics) -> Statistics:
        if not isinstance(other, Statistics):
            return NotImplemented
        # Settings(beta=0.1) == Settings(beta=Fraction(0.1)), but they score differently.
        if other.settings != self.settings or type(other.settings.beta) is not type(
            self.settings.beta
        ):
            raise ValueError(
                f"cannot add statistics of different settings: {self.settings} and {other.settings}"
            )
        counts = tuple(
            (h1 + h2, r1 + r2, m1 + m2)
            for (h1, r1, m1), (h2, r2, m2) in zip(self.counts, other.counts, strict=True)
        )
        return Statistics(self.settings, counts, self.segment_count + other.segment_count)

    def __radd__(self, other: object) -> Statistics:
        # Lets the built-in sum() start from its default 0.
        if other == 0:
            return self
        return NotImplemented

    @staticmethod
    def total(parts: Iterable[Statistics]) -> Statistics:
        """The sum of one or more statistics."""
        items = iter(parts)
        try:
            first = next(items)
        except StopIteration:
            raise ValueError("total() needs at least one Statistics") from None
        return sum(items, first)

    def score(self) -> float:
        """The float score, as :func:`chrf.score` gives it for these segments."""
        from chrf._api import score_of

        return score_of(self.settings, self.counts)

    def components(self) -> Components:
        """The exact components, as :func:`chrf.components` gives them for these segments."""
        from chrf._api import components_of

        if self.settings.eps_smoothing:
            raise ValueError("statistics with eps_smoothing=True have a float score only")
        return components_of(self.settings, self.counts, self.segment_count)
