"""The README's statements about NLTK's chrF, a different definition, checked on real data."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from nltk.translate.chrf_score import corpus_chrf, sentence_chrf

import chrf
from wmt import read_lines


def test_nltk_is_per_order_f_with_beta_3_on_0_to_1(wmt_dir: Path) -> None:
    folder = wmt_dir / "generaltest2022.en-de"
    hyps = read_lines(folder / "hyp.Online-B.txt")[:200]
    refs = read_lines(folder / "ref.A.txt")[:200]
    ours = chrf.sentence_scores(hyps, refs, beta=3, averaging="per_order_f") / 100
    nltk = np.array([sentence_chrf(r, h) for h, r in zip(hyps, refs, strict=True)])
    assert np.abs(ours - nltk).max() < 1e-13
    # NLTK's corpus score is the mean of its sentence scores, not a score of corpus statistics.
    assert abs(corpus_chrf(refs, hyps) - nltk.mean()) < 1e-12
    # ...so the README's counterpart of corpus_chrf is the mean of ours.
    mean = chrf.sentence_scores(hyps, refs, beta=3, averaging="per_order_f").mean() / 100
    assert abs(corpus_chrf(refs, hyps) - mean) < 1e-12
    corpus = chrf.score(hyps, refs, beta=3, averaging="per_order_f") / 100
    assert abs(corpus - nltk.mean()) > 1e-3
