"""Input crafted to break things: tampered statistics and pickles, huge integers everywhere."""

from __future__ import annotations

import pickle
from typing import Any

import numpy as np
import pytest
from hypothesis import given

import chrf
from strategies import chrf_settings, corpora

SETTINGS = chrf.Settings(char_order=2, word_order=1)
GOOD = ((5, 4, 3), (4, 3, 2), (2, 2, 1))


@given(corpora(), chrf_settings(exact=False))
def test_real_statistics_pass_the_checks(corpus: Any, settings: Any) -> None:
    # The checks below hold for every real statistics, under either rule of SPEC §1.4:
    # matches never outnumber hypothesis or reference n-grams.
    hyps, refs = corpus
    stats = chrf.statistics(hyps, refs, **settings)
    assert chrf.Statistics(stats.settings, stats.counts, stats.segment_count) == stats
    for hypothesis, reference, matching in stats.counts:
        assert 0 <= matching <= min(hypothesis, reference)


def test_numpy_counts_are_taken_exactly() -> None:
    counts = np.array(GOOD, dtype=np.uint64)
    stats = chrf.Statistics(SETTINGS, counts, np.int64(2))  # type: ignore[arg-type]
    assert stats.counts == GOOD
    assert all(type(value) is int for order in stats.counts for value in order)
    assert type(stats.segment_count) is int
    assert stats.score() == chrf.Statistics(SETTINGS, GOOD, 2).score()


@pytest.mark.parametrize(
    ("counts", "segment_count", "error", "message"),
    [
        (((5, 4, 3), (2, 3, 4), (2, 2, 1)), 2, ValueError, r"counts\[1\] has 4 matching"),
        (((5, 4, 3), (4, 1, 2), (2, 2, 1)), 2, ValueError, r"counts\[1\] has 2 matching"),
        (((5, 4, 3), (4, 3, 2), (2, -1, 0)), 2, ValueError, r"counts\[2\] .*must not be negative"),
        (((5, 4, 3), (4, 3, 2)), 2, ValueError, "2 orders but the settings have 3"),
        (((5, 4, 3), (4, 3), (2, 2, 1)), 2, ValueError, r"counts\[1\] must be 3 counts"),
        (((5, 4, 3), (4, 3, 2.0), (2, 2, 1)), 2, TypeError, r"counts\[1\] .*int, not float"),
        (((5, 4, 3), (4, 3, True), (2, 2, 1)), 2, TypeError, r"counts\[1\] .*int, not bool"),
        (((5, 4, 3), (4, 3, "2"), (2, 2, 1)), 2, TypeError, r"counts\[1\] .*int, not str"),
        (((5, 4, 3), None, (2, 2, 1)), 2, TypeError, r"counts\[1\] must be 3 counts"),
        ("abc", 2, TypeError, "counts must be a sequence"),
        (((2**128, 1, 1), (4, 3, 2), (2, 2, 1)), 2, ValueError, r"counts\[0\] .*2\*\*128 - 1"),
        (GOOD, -1, ValueError, "segment_count must not be negative"),
        (GOOD, 2.0, TypeError, "segment_count must be an int, not float"),
        (GOOD, True, TypeError, "segment_count must be an int, not bool"),
        (GOOD, 0, ValueError, "0 segments cannot have n-grams"),
    ],
)
def test_tampered_statistics_are_refused(
    counts: Any, segment_count: Any, error: type, message: str
) -> None:
    with pytest.raises(error, match=message):
        chrf.Statistics(SETTINGS, counts, segment_count)


def test_statistics_need_settings() -> None:
    with pytest.raises(TypeError, match=r"settings must be a chrf\.Settings, not dict"):
        chrf.Statistics({"char_order": 2}, GOOD, 2)  # type: ignore[arg-type]


def test_sums_beyond_128_bits_are_refused() -> None:
    big = chrf.Statistics(SETTINGS, ((2**127, 2**127, 2**127), *GOOD[1:]), 2)
    with pytest.raises(ValueError, match=r"2\*\*128 - 1"):
        big + big


def tampered(stats: chrf.Statistics, **changes: Any) -> chrf.Statistics:
    """The statistics with fields overwritten behind the frozen dataclass's back."""
    for name, value in changes.items():
        object.__setattr__(stats, name, value)
    return stats


class Forged:
    """Pickles as an object of `cls` rebuilt from `state`, as a hand-edited pickle would."""

    def __init__(self, cls: type, state: object) -> None:
        self.cls, self.state = cls, state

    def __reduce__(self) -> tuple[Any, ...]:
        return object.__new__, (self.cls,), self.state


def test_tampered_statistics_are_refused_when_unpickled() -> None:
    good = chrf.Statistics(SETTINGS, GOOD, 2)
    assert pickle.loads(pickle.dumps(good)) == good
    bad_counts = ((5, 4, 3), (4, 3, 9), (2, 2, 1))
    with pytest.raises(ValueError, match=r"counts\[1\] has 9 matching"):
        pickle.loads(pickle.dumps(tampered(chrf.Statistics(SETTINGS, GOOD, 2), counts=bad_counts)))
    with pytest.raises(ValueError, match="segment_count must not be negative"):
        pickle.loads(pickle.dumps(tampered(chrf.Statistics(SETTINGS, GOOD, 2), segment_count=-5)))
    forged = {"settings": SETTINGS, "counts": bad_counts, "segment_count": 2}
    with pytest.raises(ValueError, match=r"counts\[1\] has 9 matching"):
        pickle.loads(pickle.dumps(Forged(chrf.Statistics, forged)))


def test_tampered_settings_are_refused_when_unpickled() -> None:
    state = {**vars(chrf.Settings()), "beta": -1}
    with pytest.raises(ValueError, match="beta must be positive"):
        pickle.loads(pickle.dumps(Forged(chrf.Settings, state)))
    inside = {"settings": Forged(chrf.Settings, state), "counts": GOOD, "segment_count": 2}
    with pytest.raises(ValueError, match="beta must be positive"):
        pickle.loads(pickle.dumps(Forged(chrf.Statistics, inside)))
    assert pickle.loads(pickle.dumps(SETTINGS)) == SETTINGS
