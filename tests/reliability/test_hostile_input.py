"""Input crafted to break things: tampered statistics and pickles, huge integers everywhere."""

from __future__ import annotations

import json
import pickle
from fractions import Fraction
from types import ModuleType
from typing import Any

import numpy as np
import pytest
from hypothesis import given

import chrf
from chrf import _reference, contract
from strategies import chrf_settings, corpora

SETTINGS = chrf.Settings(char_order=2, word_order=1)
GOOD = ((5, 4, 3), (4, 3, 2), (2, 2, 1))


@given(corpora(), chrf_settings(exact=False))
def test_real_statistics_pass_the_checks(corpus: Any, settings: Any) -> None:
    # The checks below hold for every real statistics, under either rule of spec §1.4:
    # matches never outnumber hypothesis or reference n-grams.
    hyps, refs = corpus
    stats = chrf.statistics(hyps, refs, layout="streams", **settings)
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
    with pytest.raises(ValueError, match="beta must not be negative"):
        pickle.loads(pickle.dumps(Forged(chrf.Settings, state)))
    inside = {"settings": Forged(chrf.Settings, state), "counts": GOOD, "segment_count": 2}
    with pytest.raises(ValueError, match="beta must not be negative"):
        pickle.loads(pickle.dumps(Forged(chrf.Statistics, inside)))
    assert pickle.loads(pickle.dumps(SETTINGS)) == SETTINGS


#: Beyond Python's default int-to-str limit of 4,300 digits: f"{HUGE}" raises ValueError.
HUGE = 10**5000
HUGE_VALUES = [HUGE, -HUGE, Fraction(HUGE, 3), Fraction(HUGE + 1, HUGE), Fraction(1, HUGE), [HUGE]]
HUGE_IDS = ["int", "-int", "big/3", "1+1/big", "1/big", "list"]
OPTIONS = [
    "char_order",
    "word_order",
    "beta",
    "lowercase",
    "include_whitespace",
    "averaging",
    "eps_smoothing",
    "count_hyp_without_ref",
]


def assert_names(error: BaseException, name: str) -> None:
    message = str(error)  # must not raise
    assert message.startswith(name), message
    assert "digits" not in message or "int of" in message, message
    assert len(message) < 300, message


@pytest.mark.parametrize(
    "value", HUGE_VALUES, ids=["int", "-int", "big/3", "1+1/big", "1/big", "list"]
)
@pytest.mark.parametrize("name", OPTIONS)
def test_huge_numbers_in_options_are_refused_naming_the_option(
    impl: ModuleType, name: str, value: Any
) -> None:
    calls = [
        lambda: chrf.Settings(**{name: value}),
        lambda: impl.score(["abc"], ["abd"], **{name: value}),
        lambda: impl.statistics(["abc"], ["abd"], **{name: value}),
        lambda: impl.sentence_scores(["abc"], ["abd"], **{name: value}),
        lambda: impl.segment_statistics(["abc"], ["abd"], **{name: value}),
        lambda: impl.pairwise(["abc"], ["abd"], **{name: value}),
        lambda: impl.aggregate(["abc"], ["abd"], **{name: value}),
        lambda: impl.expected_utility(["abc"], ["abd"], **{name: value}),
        lambda: impl.explain(["abc"], ["abd"], **{name: value}),
        lambda: chrf.CHRF(**{"whitespace" if name == "include_whitespace" else name: value}),
    ]
    if name != "eps_smoothing":
        calls.append(lambda: impl.components(["abc"], ["abd"], **{name: value}))
    for call in calls:
        with pytest.raises((TypeError, ValueError)) as raised:
            call()
        assert_names(raised.value, name)


@pytest.mark.parametrize("value", [HUGE, Fraction(HUGE, 3)], ids=["int", "big/3"])
def test_huge_weights_within_the_span_are_taken_exactly(impl: ModuleType, value: Any) -> None:
    # Weights of any width: 10**5000 beside 1 spans less than 2**65536.
    hyps, refs = ["abc"], ["abd", "abc"]
    scaled = [3, 3 * value] if isinstance(value, int) else [3, HUGE]
    expected = _reference.aggregate(hyps, refs, weights=scaled).tolist()
    assert impl.aggregate(hyps, refs, weights=[1, value]).tolist() == expected
    utility = impl.expected_utility(hyps, refs, [1, value]).tolist()
    assert utility == _reference.expected_utility(hyps, refs, scaled).tolist()


@pytest.mark.parametrize(
    "value", [-HUGE, 10**20_000, Fraction(1, 10**20_000)], ids=["-int", "past the span", "1/past"]
)
def test_huge_weights_are_refused_naming_the_weight(impl: ModuleType, value: Any) -> None:
    with pytest.raises((TypeError, ValueError)) as raised:
        impl.aggregate(["abc"], ["abd", "abc"], weights=[1, value])
    assert_names(raised.value, "weights")
    with pytest.raises((TypeError, ValueError)) as raised:
        impl.expected_utility(["abc"], ["abd", "abc"], [1, value])
    assert_names(raised.value, "weights")


@pytest.mark.parametrize(
    "value", [HUGE, 1.5, "3", None, True], ids=["int", "1.5", "3", "None", "True"]
)
def test_bad_bootstrap_counts_are_refused_naming_n_bootstrap(value: Any) -> None:
    with pytest.raises((TypeError, ValueError)) as raised:
        chrf.CHRF().corpus_score(["abc"], [["abd"]], n_bootstrap=value)
    assert_names(raised.value, "n_bootstrap")
    # As in sacreBLEU, 1 or less means no resampling.
    plain = chrf.CHRF().corpus_score(["abc"], [["abd"]])
    assert chrf.CHRF().corpus_score(["abc"], [["abd"]], n_bootstrap=-HUGE).score == plain.score


def test_huge_numbers_in_statistics_are_refused_naming_the_field() -> None:
    with pytest.raises(ValueError, match="at most") as raised:
        chrf.Statistics(SETTINGS, ((HUGE, 1, 1), *GOOD[1:]), 2)
    assert_names(raised.value, "counts[0] hypothesis count")
    with pytest.raises(ValueError, match="negative") as raised:
        chrf.Statistics(SETTINGS, GOOD, -HUGE)
    assert_names(raised.value, "segment_count")


@pytest.mark.parametrize("value", HUGE_VALUES, ids=HUGE_IDS)
@pytest.mark.parametrize(
    "name", ["hypotheses", "references", "char_order", "word_order", "beta", "lowercase"]
)
def test_huge_numbers_in_contract_fields_name_the_field(name: str, value: Any) -> None:
    request = {"hypotheses": ["abc"], "references": ["abd"], name: value}
    message = contract.evaluate(request)["error"]["message"]
    assert message.startswith(name), message
    message = contract.evaluate({**request, value if isinstance(value, int) else 1: 1})
    assert message["error"]["message"].startswith("unknown key")


@pytest.mark.parametrize(
    ("name", "value"),
    [("hypotheses", ["HUGE"]), ("references", ["HUGE"]), ("beta", "HUGE"), ("averaging", "HUGE")],
)
def test_huge_json_integers_name_the_field(name: str, value: Any) -> None:
    request = {"hypotheses": ["abc"], "references": ["abd"], name: value}
    for digits in ("9" * 5000, "-" + "9" * 100_000):
        text = json.dumps(request).replace('"HUGE"', digits)
        message = contract.evaluate_json(text)["error"]["message"]
        assert message.startswith(name), message


@pytest.mark.parametrize("depth", [1_000, 100_000])
def test_deeply_nested_json_is_invalid_input(depth: int) -> None:
    for text in ("[" * depth + "]" * depth, '{"beta": ' + "[" * depth + "]" * depth + "}"):
        response = contract.evaluate_json(text)
        assert response["error"]["code"] == "invalid_input"
        assert "nested" in response["error"]["message"]


# Found by the fuzz harnesses (fuzz/README.md, findings 4-6).


class _LyingList(list):  # type: ignore[type-arg]
    def __len__(self) -> int:
        return 1


def test_a_list_subclass_is_read_by_its_items_not_its_len(impl: ModuleType) -> None:
    assert impl.score(_LyingList(["ab"]), _LyingList(["ab"])) == impl.score(["ab"], ["ab"])
    with pytest.raises(ValueError, match="hypotheses must not be empty"):
        impl.score(_LyingList(), _LyingList())
    assert impl.pairwise(_LyingList(["ab", "b"]), ["ab"]).shape == (2, 1)


@pytest.mark.parametrize("parts", [[1, 2], [False], ["x"]])
def test_statistics_total_refuses_what_is_not_statistics(parts: list[object]) -> None:
    with pytest.raises(TypeError, match=r"parts\[0\] must be a Statistics"):
        chrf.Statistics.total(parts)  # type: ignore[arg-type]


def test_statistics_total_names_the_bad_part() -> None:
    stats = chrf.statistics(["ab"], ["ab"])
    assert chrf.Statistics.total([stats, stats]) == stats + stats
    with pytest.raises(TypeError, match=r"parts\[1\] must be a Statistics, not int"):
        chrf.Statistics.total([stats, 1])  # type: ignore[list-item]


def test_numpy_arrays_do_not_broadcast_over_statistics() -> None:
    stats = chrf.statistics(["ab"], ["ab"])
    with pytest.raises(TypeError):
        stats + np.array([])  # type: ignore[operator]
    with pytest.raises(TypeError):
        np.array([]) + stats
