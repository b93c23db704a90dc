"""β at its extremes, against sacreBLEU 2.6.0: a β² that underflows still scores (as sacreBLEU's
does), a β² beyond the floats still has exact components (where sacreBLEU fails), and a
`Fraction` β gives sacreBLEU's bootstrap interval, whose arithmetic differs for a `Fraction`."""

from __future__ import annotations

import random
from fractions import Fraction
from types import ModuleType

import pytest
from sacrebleu.metrics import CHRF as SacreCHRF

import chrf

TINY = [1e-170, 5e-324, Fraction(1, 10**200)]  # β² rounds to 0.0: F = precision


@pytest.mark.parametrize("beta", TINY)
def test_a_beta_squared_of_zero_scores_as_sacrebleu(
    impl: ModuleType, beta: float | Fraction
) -> None:
    hyps, refs = ["ab c", "x yz", "q"], ["ab d", "x yw", ""]
    theirs = SacreCHRF(beta=beta).corpus_score(hyps, [refs]).score
    assert chrf.Settings(beta=beta).factor == 0.0
    assert impl.score(hyps, refs, beta=beta) == theirs
    assert chrf.CHRF(beta=beta).corpus_score(hyps, [refs]).score == theirs
    sentences = impl.sentence_scores(hyps, refs, beta=beta)
    metric = SacreCHRF(beta=beta)
    assert list(sentences) == [
        metric.sentence_score(h, [r]).score for h, r in zip(hyps, refs, strict=True)
    ]
    if beta == 1e-170:
        assert theirs == 38.88888888888888  # issue 12's example
        assert impl.score(["ab c"], ["ab d"], beta=beta) == 38.88888888888888


@pytest.mark.parametrize("beta", [10**200, Fraction(10**200), Fraction(10**201, 3)])
def test_a_beta_squared_beyond_floats_is_exact_only(impl: ModuleType, beta: int | Fraction) -> None:
    hyps, refs = ["ab c", "xyz"], ["ab d", "xy"]
    exact = impl.components(hyps, refs, beta=beta)
    assert exact == chrf.components(hyps, refs, beta=beta)
    # β² this large leaves F within 1e-390 of the recall: the score is the mean recall's.
    assert abs(exact.score_fraction - 100 * exact.average_recall) < Fraction(1, 10**300)
    with pytest.raises(OverflowError):  # sacreBLEU's float formula cannot take it
        SacreCHRF(beta=beta).corpus_score(hyps, [refs])
    for float_path in (impl.score, impl.sentence_scores, impl.pairwise, impl.aggregate):
        with pytest.raises(ValueError, match=r"beta \*\* 2 is too large for a float score"):
            float_path(hyps, refs, beta=beta)
    # Choosing among several references needs the float sentence score: refused, not guessed.
    with pytest.raises(ValueError, match="too large for a float score"):
        impl.components(hyps, [refs, refs], layout="streams", beta=beta)


def corpus(seed: int) -> tuple[list[str], list[str]]:
    rng = random.Random(seed)

    def line() -> str:
        return " ".join(rng.choice(["ab", "cd", "ef", "gh", "ijk", "gx"]) for _ in range(5))

    n = rng.randint(2, 30)
    return [line() for _ in range(n)], [line() for _ in range(n)]


@pytest.mark.parametrize(
    ("seed", "beta"),
    [(3, Fraction(1, 3)), (10, Fraction(1000, 7)), (37, Fraction(7, 5)), (4, Fraction(2))],
)
def test_a_fraction_beta_gives_sacrebleus_bootstrap(seed: int, beta: Fraction) -> None:
    # A Fraction meeting sacreBLEU's float32 sums computes in double precision (NumPy hands the
    # operation to Fraction), unlike an int or a float: these corpora differed in the last bits.
    hyps, refs = corpus(seed)
    theirs = SacreCHRF(beta=beta).corpus_score(hyps, [refs], n_bootstrap=100)
    ours = chrf.CHRF(beta=beta).corpus_score(hyps, [refs], n_bootstrap=100)
    assert (ours.score, ours._mean, ours._ci) == (theirs.score, theirs._mean, theirs._ci)
    assert type(ours._mean) is type(theirs._mean)
