"""MBR's exactness at the edges: weights of any range and width (ints and Fractions whose
proportional integers need more than 64 bits), the choice by the exact order of the utilities
where two round to the same double, and reference aggregation with model weights tens of nats
apart (chrf.mbrs' weights of log-probabilities, NumPy arrays as well as torch tensors)."""

from __future__ import annotations

from fractions import Fraction
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import chrf

POOL = ["the cat sat", "a cat sat down", "the dog"]


def exact_utilities(hyps: list[str], refs: list[str], weights: list[Any] | None) -> list[Fraction]:
    """Σ_j w_j · pairwise[i, j] / Σ_j w_j in Fractions, not rounded."""
    matrix = chrf.pairwise(hyps, refs).tolist()
    ws = [Fraction(w) for w in weights] if weights is not None else [Fraction(1)] * len(refs)
    total = sum(ws, Fraction(0))
    return [
        sum((w * Fraction(s) for w, s in zip(ws, row, strict=True)), Fraction(0)) / total
        for row in matrix
    ]


@pytest.mark.parametrize(
    "weights",
    [
        [10**30, 1, 1],
        [2**64 + 1, 1, 1],
        [Fraction(1, 3**50), 1, 1],
        [3**200, 2**64 - 1, 5**100 + 1],
        [Fraction(7, 3**40), Fraction(1, 11**30), 2**3000 + 1],
    ],
    ids=["10**30", "2**64+1", "1/3**50", "wide odd ints", "wide Fractions"],
)
def test_expected_utility_takes_weights_of_any_width(impl: ModuleType, weights: list[Any]) -> None:
    # Regression: the proportional integers past 64 significant bits were refused.
    expected = [float(u) for u in exact_utilities(POOL, POOL, weights)]
    assert impl.expected_utility(POOL, POOL, weights).tolist() == expected
    assert chrf.mbr(POOL, weights=weights).utilities.tolist() == expected
    batched = impl.expected_utility_batched([POOL, POOL], [POOL, POOL], [weights, None])
    assert batched[0].tolist() == expected


def test_fifty_harmonic_weights() -> None:
    pool = [f"sample {k} of the cat" for k in range(50)]
    weights = [Fraction(1, k) for k in range(1, 51)]
    expected = [float(u) for u in exact_utilities(pool[:5], pool, weights)]
    assert chrf.expected_utility(pool[:5], pool, weights).tolist() == expected


#: Two exact utilities that round to the same double, 56.25: hypothesis 2's is larger by about
#: 1.8e-15 (found by a brute-force search over short pools of "abc d").
CLOSE_POOL = ["cada ", " bda  b", "d c", "d"]


def test_mbr_chooses_by_the_exact_utilities() -> None:
    # Regression: the first of the highest rounded utility won (index 0).
    exact = exact_utilities(CLOSE_POOL, CLOSE_POOL, None)
    result = chrf.mbr(CLOSE_POOL)
    assert result.utilities[0] == result.utilities[2] == 56.25
    assert exact[2] > exact[0]
    assert result.index == exact.index(max(exact)) == 2
    assert result.hypothesis == CLOSE_POOL[2]
    batched = chrf.mbr_batched([CLOSE_POOL, CLOSE_POOL[::-1]])
    assert [r.index for r in batched] == [2, 1]
    # Weighed, the same: equal weights scaled alike change no order.
    assert chrf.mbr(CLOSE_POOL, weights=[3] * 4).index == 2
    # Exact ties still go to the first: the same text twice, and equal sums.
    assert chrf.mbr([*CLOSE_POOL, "d c"]).index == 2
    assert chrf.mbr(["ab", "ab", "cd"], references=["x"]).index == 0


def test_reference_aggregation_takes_weights_tens_of_nats_apart(impl: ModuleType) -> None:
    # Regression: chrf.mbrs rounded weights below 2**-54 of the largest to 0 (59.375 here), and
    # chrf.aggregate refused weights whose proportions need more than 64 bits.
    from chrf._lprobs import weights_of_lprobs

    pool = ["abcdefg", "ab"]
    weights = weights_of_lprobs(np.array([-40.0, 0.0]), 2)
    assert weights == [np.exp(-40.0), 1.0]
    # sacreBLEU's float formula on the exact counts; the small weight as 0 drops orders 3 to 6.
    assert impl.aggregate(pool, pool, weights=weights).tolist() == [28.96341463414634, 100.0]
    assert impl.aggregate(pool, pool, weights=[0, 1]).tolist() == [59.375, 100.0]
    assert chrf.mbr(pool, weights=weights, method="aggregate").utilities[0] == 28.96341463414634
    # Weights as far apart as doubles go, and wide ints and Fractions: equal to the reference
    # implementation, whose counts are Python ints.
    for wide in ([1.0, 2.0**-1074], [3**100, 1], [Fraction(1, 3**50), 1]):
        expected = chrf._reference.aggregate(pool, pool, weights=wide).tolist()
        assert impl.aggregate(pool, pool, weights=wide).tolist() == expected
        batched = impl.aggregate_batched([pool, pool], [pool, pool], weights=[wide, None])
        assert batched[0].tolist() == expected
    with pytest.raises(ValueError, match="per_order_f averaging takes"):
        impl.aggregate(pool, pool, weights=[3**100, 1], averaging="per_order_f")


def test_weights_of_lprobs_read_numpy_arrays_and_lists() -> None:
    # Regression: a NumPy array raised AttributeError: 'numpy.ndarray' has no attribute 'detach'.
    from chrf._lprobs import weights_of_lprobs

    assert weights_of_lprobs(np.array([-1.0, 0.0]), 2) == [np.exp(-1.0), 1.0]
    assert weights_of_lprobs([[-745.2, 0.0]], 2) == [np.exp(-745.2), 1.0]
    assert weights_of_lprobs(None, 3) is None
    with pytest.raises(ValueError, match="reference_lprobs has 2 values but there are 3"):
        weights_of_lprobs(np.zeros(2), 3)
    with pytest.raises(ValueError, match="finite largest"):
        weights_of_lprobs([float("inf"), 0.0], 2)
    with pytest.raises(TypeError, match="reference_lprobs must be"):
        weights_of_lprobs(["a", "b"], 2)
