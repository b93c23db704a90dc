"""Whatever the input, a clear TypeError or ValueError, or an answer: never a panic or a crash."""

from __future__ import annotations

import contextlib
from types import ModuleType
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

import chrf
from chrf import contract
from strategies import texts

anything = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(),
        st.floats(),
        st.binary(max_size=8),
        st.text(max_size=8),  # lone surrogates included
        texts,
    ),
    lambda inner: st.lists(inner, max_size=4) | st.tuples(inner, inner),
    max_leaves=12,
)
options = st.fixed_dictionaries(
    {},
    optional={
        "char_order": st.one_of(st.integers(-2, 12), st.floats(), st.booleans()),
        "word_order": st.one_of(st.integers(-1, 4), st.none()),
        "beta": st.one_of(st.integers(-2, 20), st.floats(), st.fractions(), st.text(max_size=2)),
        "lowercase": st.one_of(st.booleans(), st.integers(0, 1)),
        "averaging": st.sampled_from(["precision_recall", "per_order_f", "mean"]),
    },
)


def only_clear_errors(call: Any) -> None:
    with contextlib.suppress(TypeError, ValueError):
        call()


@given(anything, anything, options)
def test_the_api_raises_only_type_and_value_errors(
    impl: ModuleType, hyps: Any, refs: Any, opts: Any
) -> None:
    for entry in (
        impl.score,
        impl.components,
        impl.sentence_scores,
        impl.statistics,
        impl.segment_statistics,
        impl.explain,
        impl.pairwise,
        impl.aggregate,
        impl.expected_utility,
    ):
        only_clear_errors(lambda entry=entry: entry(hyps, refs, **opts))


requests = st.dictionaries(
    st.sampled_from(
        [
            "hypotheses",
            "references",
            "char_order",
            "word_order",
            "beta",
            "lowercase",
            "include_whitespace",
            "averaging",
            "extra",
        ]
    ),
    anything,
    max_size=8,
)


@given(st.one_of(requests, anything))
def test_the_contract_answers_every_request(request: Any) -> None:
    response = contract.evaluate(request)
    assert set(response) in ({"result"}, {"error"})
    if "error" in response:
        assert response["error"]["code"] == "invalid_input"
        assert response["error"]["message"]
    else:
        args = contract.validate(request)
        assert response["result"] == chrf.components(**args, count_hyp_without_ref=True).to_dict()
