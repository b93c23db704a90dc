"""The public functions: thin wrappers that validate arguments and call the compiled core."""

from __future__ import annotations

from functools import lru_cache

from chrf import _chrf
from chrf._components import Components, NgramType, OrderComponents
from chrf._inputs import corpus
from chrf._settings import Averaging, Beta, Settings


@lru_cache(maxsize=64)
def config(settings: Settings) -> _chrf.Config:
    """The compiled form of the settings, built once per distinct settings."""
    return _chrf.Config(
        char_order=settings.char_order,
        word_order=settings.word_order,
        beta_squared=settings.beta_fraction**2,
        factor=settings.factor,
        one_plus_factor=settings.one_plus_factor,
        lowercase=settings.lowercase,
        include_whitespace=settings.include_whitespace,
        averaging=settings.averaging,
        eps_smoothing=settings.eps_smoothing,
        count_hyp_without_ref=settings.count_hyp_without_ref,
    )


def score(
    hypotheses: object,
    references: object,
    *,
    char_order: int = 6,
    word_order: int = 0,
    beta: Beta = 2,
    lowercase: bool = False,
    include_whitespace: bool = False,
    averaging: Averaging = "precision_recall",
    eps_smoothing: bool = False,
    count_hyp_without_ref: bool = False,
) -> float:
    """Corpus-level chrF (chrF++ with ``word_order=2``) on 0..100.

    Equal (``==``) to ``sacrebleu.metrics.CHRF(...).corpus_score(...).score`` under the same
    settings. ``references`` is one reference string per hypothesis, or a list of reference
    streams, each with one reference per hypothesis (sacreBLEU's layout).
    """
    settings = Settings(
        char_order=char_order,
        word_order=word_order,
        beta=beta,
        lowercase=lowercase,
        include_whitespace=include_whitespace,
        averaging=averaging,
        eps_smoothing=eps_smoothing,
        count_hyp_without_ref=count_hyp_without_ref,
    )
    c = corpus(hypotheses, references)
    return _chrf.corpus_score(config(settings), c.hypotheses, c.streams, c.nested)


def components(
    hypotheses: object,
    references: object,
    *,
    char_order: int = 6,
    word_order: int = 0,
    beta: Beta = 2,
    lowercase: bool = False,
    include_whitespace: bool = False,
    averaging: Averaging = "precision_recall",
    count_hyp_without_ref: bool = False,
) -> Components:
    """The corpus score with its per-order counts, precision, recall and F as exact fractions.

    Same arguments as :func:`score` (no ``eps_smoothing``: it has no exact form).
    ``.to_dict()`` gives the ``chrf-components`` 1.0.0 output object.
    """
    settings = Settings(
        char_order=char_order,
        word_order=word_order,
        beta=beta,
        lowercase=lowercase,
        include_whitespace=include_whitespace,
        averaging=averaging,
        count_hyp_without_ref=count_hyp_without_ref,
    )
    c = corpus(hypotheses, references)
    raw = _chrf.corpus_components(config(settings), c.hypotheses, c.streams, c.nested)
    return components_from_raw(settings, len(c.hypotheses), raw)


def components_from_raw(
    settings: Settings, segment_count: int, raw: _chrf.RawComponents
) -> Components:
    orders, effective_count, avg_p, avg_r, fraction, text, cross_checked = raw
    return Components(
        settings=settings,
        segment_count=segment_count,
        orders=tuple(_order(order) for order in orders),
        effective_order_count=effective_count,
        average_precision=avg_p,
        average_recall=avg_r,
        score_fraction=fraction,
        score=text,
        cross_checked=cross_checked,
    )


def _order(raw: _chrf.RawOrder) -> OrderComponents:
    kind, n, hyp, ref, matching, effective, precision, recall, f_score = raw
    ngram_type: NgramType = "char" if kind == "char" else "word"
    return OrderComponents(ngram_type, n, hyp, ref, matching, effective, precision, recall, f_score)
