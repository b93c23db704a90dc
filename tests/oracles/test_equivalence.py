"""The compiled path and the pure-Python reference agree exactly, field by field."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given

import chrf
from chrf import _reference
from strategies import chrf_settings, corpora, long_texts


@given(corpora(), chrf_settings())
def test_components_equal_the_reference_on_every_field(corpus: Any, settings: Any) -> None:
    hyps, refs = corpus
    compiled = chrf.components(hyps, refs, layout="streams", **settings)
    reference = _reference.components(hyps, refs, layout="streams", **settings)
    assert compiled == reference
    assert compiled.to_dict() == reference.to_dict()
    assert compiled.cross_checked == (compiled.score_fraction != 0)


@given(corpora(max_streams=2, text=long_texts), chrf_settings())
def test_components_of_long_and_repetitive_texts_equal_the_reference(
    corpus: Any, settings: Any
) -> None:
    # Short texts are matched bit-parallel, long ones by sorting: both against the reference.
    hyps, refs = corpus
    compiled = chrf.components(hyps, refs, layout="streams", **settings)
    assert compiled == _reference.components(hyps, refs, layout="streams", **settings)


@given(corpora(), chrf_settings(exact=False))
def test_float_scores_equal_the_reference_bit_for_bit(corpus: Any, settings: Any) -> None:
    hyps, refs = corpus
    assert chrf.score(hyps, refs, layout="streams", **settings) == _reference.score(
        hyps, refs, layout="streams", **settings
    )


@given(corpora(), chrf_settings())
def test_inputs_are_not_mutated(corpus: Any, settings: Any) -> None:
    hyps, refs = corpus
    before = copy.deepcopy((hyps, refs))
    chrf.components(hyps, refs, layout="streams", **settings)
    chrf.score(hyps, refs, layout="streams", **settings)
    assert (hyps, refs) == before


@given(corpora(max_streams=1), chrf_settings())
def test_statistics_of_a_corpus_are_the_sum_of_its_halves(corpus: Any, settings: Any) -> None:
    hyps, refs = corpus
    whole = chrf.components(hyps, refs, layout="streams", **settings)
    if len(hyps) < 2:
        return
    streams = refs if isinstance(refs[0], list) else [refs]
    cut = len(hyps) // 2
    parts = [
        chrf.components(hyps[s], [stream[s] for stream in streams], layout="streams", **settings)
        for s in (slice(None, cut), slice(cut, None))
    ]
    for order, a, b in zip(whole.orders, *(p.orders for p in parts), strict=True):
        assert order.hypothesis_ngrams == a.hypothesis_ngrams + b.hypothesis_ngrams
        assert order.reference_ngrams == a.reference_ngrams + b.reference_ngrams
        assert order.matching_ngrams == a.matching_ngrams + b.matching_ngrams


HISTORY_CHILD = """
import json, sys
from fractions import Fraction
import chrf
hyps = ["the cat sat on the mat", "a dog barked twice", "rain again"]
refs = ["the cat is on the mat", "the dog barked", "it rains again"]
scores = {}
for beta in json.loads(sys.argv[1]):
    kinds = [beta, Fraction(beta)] if sys.argv[2] == "float first" else [Fraction(beta), beta]
    for b in kinds:
        key = f"{type(b).__name__} {beta.hex()}"
        scores[key] = [chrf.score(hyps, refs, beta=b).hex(),
                       chrf.sentence_scores(hyps, refs, beta=b, word_order=2).sum().hex()]
print(json.dumps(scores, sort_keys=True))
"""


def test_results_do_not_depend_on_earlier_calls() -> None:
    # β and Fraction(β) are equal, but 1 + β² rounds once or twice: their float scores may
    # differ in the last bits. Each must be its own, whichever was computed first.
    candidates = [k / 97 for k in range(1, 1000)]
    betas = [b for b in candidates if 1 + b**2 != float(1 + Fraction(b) ** 2)] + [0.1, 2.0]
    assert len(betas) > 20
    outputs = [
        subprocess.run(
            [sys.executable, "-c", HISTORY_CHILD, json.dumps(betas), order],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for order in ("float first", "fraction first")
    ]
    assert outputs[0] == outputs[1]
    scores = json.loads(outputs[0])
    hyps = ["the cat sat on the mat", "a dog barked twice", "rain again"]
    refs = ["the cat is on the mat", "the dog barked", "it rains again"]
    for beta in betas:
        for b in (beta, Fraction(beta)):
            expected = _reference.score(hyps, refs, beta=b)
            assert scores[f"{type(b).__name__} {beta.hex()}"][0] == expected.hex()


def test_statistics_of_beta_and_of_its_fraction_do_not_add() -> None:
    # Equal as numbers, but scored differently (1 + β² rounds differently): a sum would take
    # whichever came first.
    beta = next(
        k / 97 for k in range(1, 1000) if 1 + (k / 97) ** 2 != float(1 + Fraction(k / 97) ** 2)
    )
    as_float = chrf.statistics(["abc"], ["abd"], beta=beta)
    as_fraction = chrf.statistics(["abc"], ["abd"], beta=Fraction(beta))
    assert as_float.score() != as_fraction.score()
    with pytest.raises(ValueError, match="cannot add statistics of different settings"):
        as_float + as_fraction
    assert (as_float + as_float).score() == chrf.score(["abc", "abc"], ["abd", "abd"], beta=beta)
