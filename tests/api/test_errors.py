"""Bad input raises TypeError/ValueError naming the argument and segment; nothing is mutated.
Every test runs over both implementations (`impl`), and both raise the same error, word for
word."""

from __future__ import annotations

import copy
from fractions import Fraction
from types import ModuleType
from typing import Any

import hypothesis
import pytest
from hypothesis import given
from hypothesis import strategies as st

import chrf
from chrf import _reference
from implementations import error_of, outcome
from strategies import chrf_settings, corpora

ENTRY_POINTS = ["score", "components", "statistics", "sentence_scores", "segment_statistics"]

BAD_TEXTS = [
    (["a", None], ["a", "b"], TypeError, "hypotheses[1] must be str, not NoneType"),
    (["a", 3], ["a", "b"], TypeError, "hypotheses[1] must be str, not int"),
    ([b"a"], ["a"], TypeError, "hypotheses[0] must be str, not bytes"),
    (["a"], [b"a"], TypeError, "references[0] must be str, not bytes"),
    (["a", "b"], ["a", None], TypeError, "references[1] must be str, not NoneType"),
    (["a"], [["a"], ["b"], [3]], TypeError, "references[2][0] must be str, not int"),
    (["a"], [["a"], "b"], TypeError, "references[1] must be a sequence of str, not str"),
    ("abc", ["a"], TypeError, "hypotheses must be a sequence of str, not str"),
    (None, ["a"], TypeError, "hypotheses must be a sequence of str, not NoneType"),
    (["a"], "a", TypeError, "references must be a sequence of str, not str"),
    (b"ab", ["a"], TypeError, "hypotheses must be a sequence of str, not bytes"),
    ([], [], ValueError, "hypotheses must not be empty"),
    (["a"], [], ValueError, "references must not be empty"),
    (["a", "b"], ["a"], ValueError, "references has 1 segments but hypotheses has 2"),
    (
        ["a"],
        [["a"], ["a", "b"]],
        ValueError,
        "references[1] has 2 segments but hypotheses has 1",
    ),
    (
        ["ok", "\ud800"],
        ["a", "b"],
        ValueError,
        "hypotheses[1] is not valid Unicode text: it contains a lone surrogate",
    ),
    (["a"], [["a"], ["\udc00"]], ValueError, "references[1][0] is not valid Unicode text"),
]


@pytest.mark.parametrize("entry", ENTRY_POINTS)
@pytest.mark.parametrize(("hyps", "refs", "error", "message"), BAD_TEXTS)
def test_bad_texts(
    impl: ModuleType, entry: str, hyps: Any, refs: Any, error: type, message: str
) -> None:
    with pytest.raises(error) as raised:
        getattr(impl, entry)(hyps, refs)
    assert message in str(raised.value)


BAD_SETTINGS = [
    ({"char_order": -1}, ValueError, "char_order must be from 0 to"),
    ({"char_order": 2.0}, TypeError, "char_order must be an int, not float"),
    ({"word_order": True}, TypeError, "word_order must be an int, not bool"),
    ({"char_order": 0}, ValueError, "char_order and word_order must not both be 0"),
    ({"char_order": 10**6}, ValueError, "char_order must be from 0 to 65536"),
    ({"beta": True}, TypeError, "beta must be an int, a Fraction or a float, not bool"),
    ({"beta": "2"}, TypeError, "beta must be an int, a Fraction or a float, not str"),
    ({"beta": -1}, ValueError, "beta must not be negative"),
    ({"beta": Fraction(-1, 2)}, ValueError, "beta must not be negative"),
    ({"beta": float("inf")}, ValueError, "beta must be finite"),
    ({"lowercase": 1}, TypeError, "lowercase must be a bool, not int"),
    ({"include_whitespace": None}, TypeError, "include_whitespace must be a bool"),
    ({"averaging": "mean"}, ValueError, "averaging must be 'precision_recall' or"),
    ({"count_hyp_without_ref": "yes"}, TypeError, "count_hyp_without_ref must be a bool"),
]


@pytest.mark.parametrize("entry", ENTRY_POINTS)
@pytest.mark.parametrize(("settings", "error", "message"), BAD_SETTINGS)
def test_bad_settings(
    impl: ModuleType, entry: str, settings: Any, error: type, message: str
) -> None:
    with pytest.raises(error) as raised:
        getattr(impl, entry)(["abc"], ["abd"], **settings)
    assert message in str(raised.value)


@pytest.mark.parametrize("entry", ENTRY_POINTS)
def test_both_implementations_refuse_alike_word_for_word(entry: str) -> None:
    cases = [(hyps, refs, {}) for hyps, refs, _, _ in BAD_TEXTS] + [
        (["abc"], ["abd"], settings) for settings, _, _ in BAD_SETTINGS
    ]
    for hyps, refs, settings in cases:
        compiled = error_of(getattr(chrf, entry), hyps, refs, **settings)
        reference = error_of(getattr(_reference, entry), hyps, refs, **settings)
        assert compiled is not None
        assert reference == compiled, (hyps, refs, settings)


def test_eps_smoothing_is_float_only_and_not_per_order_f(impl: ModuleType) -> None:
    with pytest.raises(TypeError, match="eps_smoothing"):
        impl.components(["a"], ["a"], eps_smoothing=True)
    with pytest.raises(ValueError, match="cannot be combined with averaging='per_order_f'"):
        impl.score(["a"], ["a"], eps_smoothing=True, averaging="per_order_f")


def test_any_iterable_of_str_is_accepted_and_left_alone(impl: ModuleType) -> None:
    hyps = ("abc", "def")
    refs = [iter(["abd", "deg"])]  # an iterator as a reference stream
    assert impl.score(hyps, refs) == impl.score(list(hyps), ["abd", "deg"])
    stream = (x for x in ["abd", "deg"])
    assert impl.score(hyps, stream) == impl.score(list(hyps), ["abd", "deg"])


def test_str_subclasses_are_text(impl: ModuleType) -> None:
    class Text(str):
        pass

    assert impl.score([Text("abc")], [Text("abd")]) == impl.score(["abc"], ["abd"])


@pytest.mark.parametrize("lowercase", [False, True])
def test_inputs_are_not_mutated(impl: ModuleType, lowercase: bool) -> None:
    hyps = ["The CAT", "sat ."]
    refs = [["the cat", "Sat."], ["A CAT", "sat"]]
    before = copy.deepcopy((hyps, refs))
    for layout in ("streams", "per_hypothesis"):
        impl.score(hyps, refs, lowercase=lowercase, word_order=2, layout=layout)
        impl.components(hyps, refs, lowercase=lowercase, word_order=2, layout=layout)
        impl.explain(hyps, refs, lowercase=lowercase, word_order=2, layout=layout)
    with_none = [["the cat", None], ["A CAT", "sat"]]
    impl.score(hyps, with_none, lowercase=lowercase, layout="streams")
    impl.segment_statistics(hyps, with_none, lowercase=lowercase, layout="streams")
    assert with_none == [["the cat", None], ["A CAT", "sat"]]
    assert (hyps, refs) == before


#: Items no text is (but None among several streams, sacreBLEU's placeholder): each refused
#: with its own message, naming where it is.
BAD_ITEMS = st.sampled_from([None, 3, 2.5, b"ab", True, "a\ud800b", "\udfff"])


@st.composite
def corpora_with_one_fault(draw: st.DrawFn) -> tuple[list[Any], Any, str | None]:
    """A corpus (flat references, streams, or per hypothesis, sacreBLEU's None placeholders
    among several streams) with one bad item put anywhere, and its layout."""
    hyps, refs = draw(corpora())
    layout = "streams" if isinstance(refs[0], list) else None
    if layout and len(refs) > 1:
        for stream in refs[1:]:  # placeholders: segment i keeps its first stream's reference
            for i in draw(st.sets(st.integers(0, len(hyps) - 1))):
                stream[i] = None
        if draw(st.booleans()):
            refs, layout = [list(row) for row in zip(*refs, strict=True)], "per_hypothesis"
    lists = [hyps, *(refs if isinstance(refs[0], list) else [refs])]
    where = draw(st.sampled_from(lists))
    where[draw(st.integers(0, len(where) - 1))] = draw(BAD_ITEMS)
    return hyps, refs, layout


@hypothesis.settings(max_examples=min(300, hypothesis.settings.default.max_examples))
@given(corpora_with_one_fault(), chrf_settings(exact=False))
def test_one_bad_item_anywhere_ends_alike(corpus: Any, options: dict[str, Any]) -> None:
    # Alike: the same error, word for word, or (a None that is a placeholder) the same result.
    hyps, refs, layout = corpus
    exact = {k: v for k, v in options.items() if k != "eps_smoothing"}
    for entry in [*ENTRY_POINTS, "explain"]:
        kwargs = exact if entry == "components" else options
        compiled = outcome(getattr(chrf, entry), hyps, refs, layout=layout, **kwargs)
        reference = outcome(getattr(_reference, entry), hyps, refs, layout=layout, **kwargs)
        if entry == "explain" and compiled[0] == "result":  # no == between explanations
            compiled, reference = compiled[:1], reference[:1]
        assert reference == compiled
