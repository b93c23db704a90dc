"""β = 0 (chrF0: precision only), which sacreBLEU 2.6.0 computes: float scores bit for bit,
exact components with F = P, and every entry point in between. Negative β stays refused."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from fractions import Fraction
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from hypothesis import given
from sacrebleu.metrics import CHRF as SacreCHRF

import chrf
from chrf import _reference
from chrf._sacrebleu import SIGNATURE_VERSION
from strategies import chrf_settings, corpora

ZEROS = [0, 0.0, Fraction(0)]
HYPS = ["the cat sat on the mat", "a dog ran", "xyz", "", "the mat"]
REFS = ["the cat is on a mat", "the dog ran home", "", "abc", "mat the"]
OTHER = ["cat on the mat", "a dog ran home", "xy", "q", "the mat"]


@pytest.mark.parametrize("beta", ZEROS)
@pytest.mark.parametrize(
    "options",
    [{}, {"word_order": 2}, {"eps_smoothing": True}, {"word_order": 2, "eps_smoothing": True}],
)
def test_float_scores_are_sacrebleus(impl: ModuleType, beta: Any, options: dict[str, Any]) -> None:
    metric = SacreCHRF(beta=beta, **options)
    streams = [REFS, OTHER]
    expected = metric.corpus_score(HYPS, streams).score
    assert impl.score(HYPS, streams, beta=beta, **options) == expected
    assert impl.statistics(HYPS, streams, beta=beta, **options).score() == expected
    sentences = [
        metric.sentence_score(h, [r, o]).score for h, r, o in zip(HYPS, REFS, OTHER, strict=True)
    ]
    assert impl.sentence_scores(HYPS, streams, beta=beta, **options).tolist() == sentences
    pairs = impl.pairwise(HYPS, REFS, beta=beta, **options).tolist()
    assert pairs == [[metric.sentence_score(h, [r]).score for r in REFS] for h in HYPS]
    aggregated = impl.aggregate(HYPS, REFS, beta=beta, **options).tolist()
    assert aggregated == chrf.aggregate(HYPS, REFS, beta=beta, **options).tolist()
    utilities = impl.expected_utility(HYPS, REFS, beta=beta, **options).tolist()
    assert utilities == [float(sum(map(Fraction, row), Fraction(0)) / len(REFS)) for row in pairs]


@pytest.mark.parametrize("beta", ZEROS)
@pytest.mark.parametrize("options", [{}, {"word_order": 2}])
def test_the_facade_scores_as_sacrebleu(beta: Any, options: dict[str, Any]) -> None:
    metric = SacreCHRF(beta=beta, **options)
    streams = [REFS, OTHER]
    ours = chrf.CHRF(beta=beta, **options).corpus_score(HYPS, streams)
    assert str(ours) == str(metric.corpus_score(HYPS, streams))  # "chrF0 = ..", "chrF0++ = .."


def test_names_and_signature_are_sacrebleus() -> None:
    for beta, word_order, name in [(0, 0, "chrF0"), (0, 2, "chrF0++"), (0.0, 0, "chrF0.0")]:
        ours = chrf.CHRF(beta=beta, word_order=word_order).corpus_score(HYPS, [REFS])
        assert ours.name == name
        theirs = SacreCHRF(beta=beta, word_order=word_order).corpus_score(HYPS, [REFS])
        assert ours.format() == theirs.format()


@pytest.mark.parametrize("beta", ZEROS)
def test_bootstrap_is_sacrebleus(beta: Any) -> None:
    rng = random.Random(5)
    words = ["ab", "cd", "ef", "gh", "ijk", "gx"]
    hyps = [" ".join(rng.choices(words, k=5)) for _ in range(25)]
    refs = [" ".join(rng.choices(words, k=5)) for _ in range(25)]
    theirs = SacreCHRF(beta=beta).corpus_score(hyps, [refs], n_bootstrap=200)
    ours = chrf.CHRF(beta=beta).corpus_score(hyps, [refs], n_bootstrap=200)
    assert (ours.score, ours._mean, ours._ci) == (theirs.score, theirs._mean, theirs._ci)


def test_components_give_f_equal_to_precision(impl: ModuleType) -> None:
    c = impl.components(HYPS, REFS, beta=0, word_order=2)
    assert c == chrf.components(HYPS, REFS, beta=0, word_order=2)
    for order in c.orders:
        if order.effective:
            assert order.f_score == order.precision
        else:
            assert order.f_score is None
    assert c.score_fraction == 100 * c.average_precision
    assert c.cross_checked  # the harmonic form 1/F = 1/P holds wherever P, R > 0
    assert c.to_dict()["beta"] == 0
    per_order = impl.components(HYPS, REFS, beta=0, averaging="per_order_f")
    f_sum = sum((o.precision or 0 for o in per_order.orders if o.effective), Fraction(0))
    assert per_order.score_fraction == 100 * f_sum / len(per_order.orders)
    nothing = impl.components(["ab"], ["cd"], beta=0)
    assert nothing.score_fraction == 0
    assert not nothing.cross_checked


@given(corpora(), chrf_settings(exact=False))
def test_generated_corpora_score_as_the_reference_and_sacrebleu(
    corpus: Any, options: dict[str, Any]
) -> None:
    hyps, refs = corpus
    options = {**options, "beta": 0, "layout": "streams"}
    streams = refs if isinstance(refs[0], list) else [refs]
    assert chrf.score(hyps, streams, **options) == _reference.score(hyps, streams, **options)
    if options["averaging"] == "precision_recall" and not options["count_hyp_without_ref"]:
        ours_only = ("averaging", "count_hyp_without_ref", "layout")
        sacre = {k: v for k, v in options.items() if k not in ours_only}
        sacre["whitespace"] = sacre.pop("include_whitespace")
        metric = SacreCHRF(**sacre)
        assert chrf.score(hyps, streams, **options) == metric.corpus_score(hyps, streams).score
        sentences = [metric.sentence_score(h, [s[i] for s in streams]).score
                     for i, h in enumerate(hyps)]  # fmt: skip
        assert chrf.sentence_scores(hyps, streams, **options).tolist() == sentences
    pairwise_options = {k: v for k, v in options.items() if k != "layout"}
    assert (
        chrf.pairwise(hyps, streams[0], **pairwise_options).tolist()
        == _reference.pairwise(hyps, streams[0], **pairwise_options).tolist()
    )
    if not options.get("eps_smoothing"):
        exact = {k: v for k, v in options.items() if k != "eps_smoothing"}
        assert chrf.components(hyps, streams, **exact) == _reference.components(
            hyps, streams, **exact
        )


def test_explain_takes_beta_zero(impl: ModuleType) -> None:
    e = impl.explain(HYPS, [REFS, OTHER], beta=0)
    assert e.score == SacreCHRF(beta=0).corpus_score(HYPS, [REFS, OTHER]).score
    assert e.to_dict()["settings"]["beta"] == "0"


def test_compare_takes_beta_zero() -> None:
    comparison = chrf.compare([HYPS, OTHER], [REFS], beta=0, trials=50)
    assert comparison.differences[0].score_delta == (
        chrf.score(OTHER, REFS, beta=0) - chrf.score(HYPS, REFS, beta=0)
    )


@pytest.mark.parametrize("beta", [-1, -0.5, Fraction(-1, 2), -(10**30)])
def test_negative_beta_is_refused(impl: ModuleType, beta: Any) -> None:
    for entry in (impl.score, impl.pairwise, impl.components, impl.explain):
        with pytest.raises(ValueError, match="beta must not be negative"):
            entry(HYPS, REFS, beta=beta)
    with pytest.raises(ValueError, match="beta must not be negative"):
        chrf.CHRF(beta=beta)


def test_the_command_line_scores_chrf0_as_sacrebleu(tmp_path: Path) -> None:
    (tmp_path / "hyp.txt").write_text("\n".join(HYPS) + "\n")
    (tmp_path / "ref.txt").write_text("\n".join(REFS) + "\n")
    args = ["ref.txt", "-i", "hyp.txt", "--chrf-beta", "0"]
    ours = subprocess.run(
        [sys.executable, "-m", "chrf.cli", *args], cwd=tmp_path, capture_output=True, env=os.environ
    )
    theirs = subprocess.run(
        [sys.executable, "-m", "sacrebleu", *args, "-m", "chrf"], cwd=tmp_path, capture_output=True
    )
    assert ours.returncode == theirs.returncode == 0, ours.stderr + theirs.stderr
    assert ours.stdout.decode().replace(SIGNATURE_VERSION, "2.6.0") == theirs.stdout.decode()
    assert b'"name": "chrF0"' in ours.stdout
