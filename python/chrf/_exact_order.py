"""MBR's choice by the exact expected utilities: the rounded utilities (doubles) order the
hypotheses but for those that round to the same double, whose exact weighted means are then
compared, exactly, on their pairwise scores."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chrf import _service
from chrf._inputs import as_list

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

    from chrf._settings import Settings

#: Every finite double is an integer number of units of 2**-UNIT_BITS (the least subnormal).
UNIT_BITS = 1074
#: Tied hypotheses scored against the references at a time: bounds the rows held at once.
CHUNK = 64


def rereadable(texts: object, name: str) -> object:
    """``texts`` in a form read twice alike (an iterator would be empty the second time): an
    Arrow column as it is, anything else as a list."""
    if hasattr(texts, "__arrow_c_array__") or hasattr(texts, "__arrow_c_stream__"):
        return texts
    return as_list(texts, name)


class ExactOrder:
    """The exact order of the expected utilities of hypotheses against ``references`` weighed by
    ``weights`` (already checked by the expected utility that was computed with them)."""

    def __init__(self, settings: Settings, references: object, weights: object) -> None:
        self.settings = settings
        self.references = references
        self.weights = weights

    def first_of_highest(
        self, hypotheses: list[str], utilities: NDArray[np.float64], index: int
    ) -> int:
        """The first hypothesis of the highest exact utility, among those whose rounded
        utility is that of ``index`` (the first of the highest rounded one)."""
        # The same text has the same utility: only its first index can be chosen.
        firsts: dict[str, int] = {}
        for i in (utilities == utilities[index]).nonzero()[0].tolist():
            firsts.setdefault(hypotheses[i], i)
        if len(firsts) == 1:
            return index
        # Σ w_j · s_ij decides, Σ w_j being common: in integers of units of 2**-UNIT_BITS.
        candidates = list(firsts.items())
        best, best_sum = index, -1
        for start in range(0, len(candidates), CHUNK):
            chunk = candidates[start : start + CHUNK]
            rows = _service.pairwise(self.settings, [text for text, _ in chunk], self.references)
            count = rows.shape[1]
            weights = (
                [1] * count
                if self.weights is None
                else _service.smallest_integers(self.weights, count)
            )
            for (_, i), row in zip(chunk, rows.tolist(), strict=True):
                total = sum(w * _units(score) for w, score in zip(weights, row, strict=True))
                if total > best_sum:  # candidates are in index order: ties keep the first
                    best, best_sum = i, total
        return best


def _units(score: float) -> int:
    """A non-negative double as an integer number of units of 2**-UNIT_BITS."""
    numerator, denominator = score.as_integer_ratio()  # the denominator a power of two
    return numerator << (UNIT_BITS - denominator.bit_length() + 1)
