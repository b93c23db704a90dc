"""The short cuts for one sentence pair agree with the general path they skip.

``CHRF.sentence_score`` hands a list of references to the core as it is, and
``sentence_scores`` hands lists of hypotheses and of one reference each to the core directly;
everything else (a tuple, here) goes through the argument checks in Python first. Scores,
exceptions and their messages must not depend on which way a call went.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import chrf
from chrf import _chrf
from strategies import chrf_settings, corpora, long_texts, texts

# Every item the core reads or refuses: text (a lone surrogate among it), sacreBLEU's None
# placeholder, and other types.
items = st.one_of(
    texts,
    texts,
    st.just(""),
    st.just("\ud800"),
    st.none(),
    st.integers(),
    st.binary(max_size=2),
)
# References: flat, nested (streams or per hypothesis), or not a sequence at all.
references = st.one_of(
    st.lists(items, max_size=3),
    st.lists(st.lists(items, max_size=3), max_size=3),
    items,
)


def outcome(call: Callable[[], Any]) -> tuple[Any, ...]:
    try:
        result = call()
    except (TypeError, ValueError) as error:
        return type(error), str(error)
    if isinstance(result, chrf.CHRFScore):
        return "score", result.score, vars(result)
    return "scores", result.tolist()


def as_tuples(value: Any) -> Any:
    return tuple(as_tuples(v) for v in value) if isinstance(value, list) else value


@given(st.lists(items, max_size=3), references, chrf_settings(exact=False))
def test_sentence_scores_of_lists_equal_those_of_tuples(
    hyps: Any, refs: Any, options: dict[str, Any]
) -> None:
    before = copy.deepcopy((hyps, refs))
    fast = outcome(lambda: chrf.sentence_scores(hyps, refs, **options))
    general = outcome(lambda: chrf.sentence_scores(as_tuples(hyps), as_tuples(refs), **options))
    assert fast == general
    assert (hyps, refs) == before


@given(items, st.one_of(st.lists(items, max_size=3), items), chrf_settings(exact=False))
def test_sentence_score_of_a_list_equals_that_of_a_tuple(
    hyp: Any, refs: Any, options: dict[str, Any]
) -> None:
    metric = chrf.CHRF.from_settings(chrf.Settings(**options))
    before = copy.deepcopy(refs)
    fast = outcome(lambda: metric.sentence_score(hyp, refs))
    general = outcome(lambda: metric.sentence_score(hyp, as_tuples(refs)))
    assert fast == general
    assert refs == before
    if fast[0] == "score":
        # sacreBLEU's count: its None placeholders are not references.
        assert metric.num_refs == sum(ref is not None for ref in refs)
        s = metric.settings
        built = vars(chrf.CHRFScore(fast[1], s.char_order, s.word_order, s.beta))
        # The fast path builds the score without calling CHRFScore: the same attributes, in order.
        assert list(fast[2].items()) == list(built.items())


def test_sentence_scores_of_one_pair_is_sentence_score() -> None:
    hyp, ref = "The cat sat on the mat.", "The cat sat on a mat."
    scores = chrf.sentence_scores([hyp], [ref])
    assert scores.dtype.name == "float64"
    assert scores.shape == (1,)
    assert scores.flags.writeable
    assert scores.tolist() == [chrf.CHRF().sentence_score(hyp, [ref]).score]


@pytest.mark.parametrize(
    ("hyp", "refs", "error", "message"),
    [
        ("a", [], ValueError, "references must not be empty"),
        ("a", (), ValueError, "references must not be empty"),
        ("a", "abc", TypeError, "references must be a sequence of str, not str"),
        (None, [], ValueError, "references must not be empty"),
        (None, ["a"], TypeError, "hypothesis must be str, not NoneType"),
        ("a", ["a", 3], TypeError, "references[1] must be str, not int"),
    ],
)
def test_sentence_score_names_the_bad_argument(
    hyp: Any, refs: Any, error: type, message: str
) -> None:
    metric = chrf.CHRF()
    with pytest.raises(error) as raised:
        metric.sentence_score(hyp, refs)
    assert str(raised.value) == message
    assert metric.num_refs is None


@settings(deadline=None)
@given(corpora(max_streams=2, text=st.one_of(texts, long_texts)), chrf_settings())
def test_both_instruction_set_copies_count_the_same(
    corpus: tuple[list[str], Any], options: dict[str, Any]
) -> None:
    # The core's segment path is compiled twice, for the x86-64 baseline and for x86-64-v3,
    # which runs where the processor has it: the same counts and scores, bit for bit.
    hyps, refs = corpus

    def results() -> tuple[Any, ...]:
        return (
            chrf.components(hyps, refs, layout="streams", **options),
            chrf.score(hyps, refs, layout="streams", **options),
            chrf.sentence_scores(hyps, refs, layout="streams", **options).tolist(),
        )

    _chrf.force_baseline_isa(True)
    try:
        baseline = results()
    finally:
        _chrf.force_baseline_isa(False)
    assert results() == baseline
