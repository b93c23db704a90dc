"""The compiled path and the pure-Python reference agree exactly, field by field."""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import given

import chrf
from chrf import _reference
from strategies import chrf_settings, corpora


@given(corpora(), chrf_settings())
def test_components_equal_the_reference_on_every_field(corpus: Any, settings: Any) -> None:
    hyps, refs = corpus
    compiled = chrf.components(hyps, refs, **settings)
    reference = _reference.components(hyps, refs, **settings)
    assert compiled == reference
    assert compiled.to_dict() == reference.to_dict()
    assert compiled.cross_checked == (compiled.score_fraction != 0)


@given(corpora(), chrf_settings(exact=False))
def test_float_scores_equal_the_reference_bit_for_bit(corpus: Any, settings: Any) -> None:
    hyps, refs = corpus
    assert chrf.score(hyps, refs, **settings) == _reference.score(hyps, refs, **settings)


@given(corpora(), chrf_settings())
def test_inputs_are_not_mutated(corpus: Any, settings: Any) -> None:
    hyps, refs = corpus
    before = copy.deepcopy((hyps, refs))
    chrf.components(hyps, refs, **settings)
    chrf.score(hyps, refs, **settings)
    assert (hyps, refs) == before


@given(corpora(max_streams=1), chrf_settings())
def test_statistics_of_a_corpus_are_the_sum_of_its_halves(corpus: Any, settings: Any) -> None:
    hyps, refs = corpus
    whole = chrf.components(hyps, refs, **settings)
    if len(hyps) < 2:
        return
    streams = refs if isinstance(refs[0], list) else [refs]
    cut = len(hyps) // 2
    parts = [
        chrf.components(hyps[s], [stream[s] for stream in streams], **settings)
        for s in (slice(None, cut), slice(cut, None))
    ]
    for order, a, b in zip(whole.orders, *(p.orders for p in parts), strict=True):
        assert order.hypothesis_ngrams == a.hypothesis_ngrams + b.hypothesis_ngrams
        assert order.reference_ngrams == a.reference_ngrams + b.reference_ngrams
        assert order.matching_ngrams == a.matching_ngrams + b.matching_ngrams
