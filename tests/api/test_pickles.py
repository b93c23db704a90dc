"""Pickles of `chrf.Settings` and `chrf.Statistics`: every protocol gives the value back, and a
pickle that would make one without running its checks (no state, a bad state, unknown fields,
arguments no constructor takes) is refused on load."""

from __future__ import annotations

import copy
import pickle
from fractions import Fraction

import pytest

import chrf

SETTINGS = [
    chrf.Settings(),
    chrf.Settings(word_order=2, beta=Fraction(3, 2), lowercase=True),
    chrf.Settings(char_order=3, beta=0.5, eps_smoothing=True),
    chrf.Settings(beta=0, averaging="per_order_f", count_hyp_without_ref=True),
]
STATISTICS = chrf.Statistics(chrf.Settings(char_order=2), ((5, 4, 3), (4, 3, 2)), 2)

MODULES = {"Settings": b"chrf._settings", "Statistics": b"chrf._statistics"}


def global_of(name: str) -> bytes:
    return b"c" + MODULES[name] + b"\n" + name.encode() + b"\n"


def stateless(name: str) -> list[bytes]:
    """Hand-made pickles that make an object of the class without calling its constructor and
    give it no state: NEWOBJ (protocols 2 and up), NEWOBJ_EX (4 and up), and protocol 0's call
    of copyreg.__newobj__."""
    cls = global_of(name)
    return [
        b"\x80\x02" + cls + b")\x81.",  # the reproducer
        b"\x80\x03" + cls + b")\x81.",
        b"\x80\x04" + cls + b")}\x92.",
        b"\x80\x05" + cls + b")\x81.",
        b"ccopy_reg\n__newobj__\n(" + cls + b"tR.",
    ]


@pytest.mark.parametrize("protocol", range(pickle.HIGHEST_PROTOCOL + 1))
def test_every_protocol_gives_the_value_back(protocol: int) -> None:
    for settings in SETTINGS:
        chrf.score(["ab"], ["ac"], **settings.options())  # compiles the settings onto the object
        restored = pickle.loads(pickle.dumps(settings, protocol=protocol))
        assert restored == settings
        assert type(restored.beta) is type(settings.beta)
        assert "compiled" not in vars(restored)
    restored_stats = pickle.loads(pickle.dumps(STATISTICS, protocol=protocol))
    assert restored_stats == STATISTICS
    assert restored_stats.score() == STATISTICS.score()
    assert copy.deepcopy(STATISTICS) == copy.copy(STATISTICS) == STATISTICS


def test_a_statistics_pickle_without_state_is_refused_on_load() -> None:
    for data in stateless("Statistics"):
        with pytest.raises(TypeError, match="missing 3 required positional arguments"):
            pickle.loads(data)


def test_a_settings_pickle_without_state_is_the_checked_default() -> None:
    # Settings() takes no argument: an object without state is the default settings, made (and
    # checked) by the constructor, and scores as they do.
    for data in stateless("Settings"):
        loaded = pickle.loads(data)
        assert loaded == chrf.Settings()
        assert vars(loaded) == vars(chrf.Settings())
        assert chrf.Statistics(loaded, ((1, 1, 1),) * 6, 1).score() == 100.0


def test_arguments_no_constructor_takes_are_refused_on_load() -> None:
    # NEWOBJ hands its arguments to __new__ alone; they are checked as a constructor's are.
    with pytest.raises(ValueError, match="char_order must be from 0"):
        pickle.loads(b"\x80\x02" + global_of("Settings") + b"J\xff\xff\xff\xff\x85\x81.")
    with pytest.raises(TypeError, match=r"settings must be a chrf\.Settings, not int"):
        pickle.loads(b"\x80\x02" + global_of("Statistics") + b"K\x01K\x02K\x03\x87\x81.")


class Forged:
    """Pickles as object.__new__(cls) with `state` (Python's default form of an object), as
    older versions wrote them or as a hand-edited pickle would."""

    def __init__(self, cls: type, state: object) -> None:
        self.cls, self.state = cls, state

    def __reduce__(self) -> tuple[object, ...]:
        return object.__new__, (self.cls,), self.state


def test_bad_states_and_unknown_fields_are_refused_on_load() -> None:
    good = vars(chrf.Settings())
    assert pickle.loads(pickle.dumps(Forged(chrf.Settings, good))) == chrf.Settings()
    cases: list[tuple[type, object, type, str]] = [
        (chrf.Settings, {**good, "beta": -2}, ValueError, "beta must not be negative"),
        (chrf.Settings, {**good, "extra": 1}, TypeError, "unexpected keyword argument 'extra'"),
        (chrf.Settings, ["char_order"], TypeError, "must be a dict of its fields"),
        (chrf.Settings, {1: 2}, TypeError, "must be a dict of its fields"),
        (
            chrf.Statistics,
            {"settings": chrf.Settings(), "counts": ((1, 1, 1),) * 6},
            TypeError,
            "missing 1 required positional argument: 'segment_count'",
        ),
        (
            chrf.Statistics,
            {**vars(STATISTICS), "segment_count": 2, "more": 0},
            TypeError,
            "unexpected keyword argument 'more'",
        ),
        (chrf.Statistics, (), TypeError, "must be a dict of its fields"),
    ]
    for cls, state, error, message in cases:
        with pytest.raises(error, match=message):
            pickle.loads(pickle.dumps(Forged(cls, state)))


def test_explanations_and_comparisons_pickle_and_copy_as_equal_values() -> None:
    # Regression: both held the compiled corpus, which neither pickles nor copies. The layouts
    # of references that name their caller's positions (placeholders, rows of references)
    # must name the same positions after the round trip.
    hyps = ["the cat sat on the mat", "a dog barked", "Ein Hund bellte"]
    streams = [["the cat sat", None, "ein Hund bellt"], ["a cat sat on a mat", "a dog barks", ""]]
    rows = [["the cat", "on the mat"], ["dogs bark"], [None, "Ein Hund"]]
    explanations = [
        chrf.explain(hyps, streams, top=5, word_order=2),
        chrf.explain(hyps, rows, layout="per_hypothesis", lowercase=True),
        chrf.explain(hyps, streams[1], char_order=3, eps_smoothing=True),
    ]
    comparison = chrf.compare([hyps, hyps[::-1]], streams, test="ar", trials=50, word_order=2)
    for value in [*explanations, comparison]:
        for protocol in range(2, pickle.HIGHEST_PROTOCOL + 1):
            restored = pickle.loads(pickle.dumps(value, protocol=protocol))
            assert restored == value
            assert restored.to_dict() == value.to_dict()
        assert copy.deepcopy(value) == copy.copy(value) == value
    for explanation in explanations:
        restored = pickle.loads(pickle.dumps(explanation))
        assert restored != explanations[0] or explanation is explanations[0]
        assert hash(restored) == hash(explanation)
        for i in range(explanation.segment_count):
            assert restored.segment(i) == explanation.segment(i)
        assert not restored.sentence_scores.flags.writeable
