"""The public functions: thin wrappers that validate arguments and call the compiled core."""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any

from chrf import _chrf
from chrf._components import Components, NgramType, OrderComponents
from chrf._inputs import Corpus, References, Texts, corpus
from chrf._settings import ExactOptions, Options, Settings, exact_settings
from chrf._statistics import Counts, Statistics

if TYPE_CHECKING:
    from typing_extensions import Unpack


def score(hypotheses: Texts, references: References, **options: Unpack[Options]) -> float:
    """Corpus-level chrF (chrF++ with ``word_order=2``) on 0..100.

    Equal (``==``) to ``sacrebleu.metrics.CHRF(...).corpus_score(...).score`` under the same
    settings. ``references`` is one reference string per hypothesis, or a list of reference
    streams, each with one reference per hypothesis (sacreBLEU's layout). The keyword options
    and their defaults are those of :class:`chrf.Settings`.
    """
    settings = Settings(**options)
    return score_of(settings, corpus_counts(settings, corpus(hypotheses, references)))


def components(
    hypotheses: Texts, references: References, **options: Unpack[ExactOptions]
) -> Components:
    """The corpus score with its per-order counts, precision, recall and F as exact fractions.

    Same arguments as :func:`score`, but for ``eps_smoothing``, which has no exact form.
    ``.to_dict()`` gives the ``chrf-components`` 1.0.0 output object.
    """
    settings = exact_settings(options)
    c = corpus(hypotheses, references)
    return components_of(settings, corpus_counts(settings, c), len(c.hypotheses))


def statistics(hypotheses: Texts, references: References, **options: Unpack[Options]) -> Statistics:
    """The corpus statistics behind :func:`score`: per-order n-gram counts that add up.

    Statistics of shards add (``a + b``, ``sum(parts)``) to those of the whole corpus, pickle,
    and give ``.score()`` and ``.components()`` as the corpus would.
    """
    settings = Settings(**options)
    c = corpus(hypotheses, references)
    return Statistics(settings, corpus_counts(settings, c), len(c.hypotheses))


def config(settings: Settings) -> _chrf.Config:
    """The compiled form of the settings."""
    return _compiled(tuple(sorted(compiled_values(settings).items())))


def compiled_values(settings: Settings) -> dict[str, Any]:
    """Every value the compiled settings are built from."""
    return {
        "char_order": settings.char_order,
        "word_order": settings.word_order,
        "beta_squared": settings.beta_fraction**2,
        "factor": settings.factor,
        "one_plus_factor": settings.one_plus_factor,
        "lowercase": settings.lowercase,
        "include_whitespace": settings.include_whitespace,
        "averaging": settings.averaging,
        "eps_smoothing": settings.eps_smoothing,
        "count_hyp_without_ref": settings.count_hyp_without_ref,
    }


@lru_cache(maxsize=64)
def _compiled(values: tuple[tuple[str, Any], ...]) -> _chrf.Config:
    # Keyed on the values, not on Settings: Settings(beta=0.1) == Settings(beta=Fraction(0.1)),
    # yet 1 + beta**2 rounds differently for them, and a result must not depend on which of
    # the two was compiled first.
    return _chrf.Config(**dict(values))


def corpus_counts(settings: Settings, c: Corpus) -> Counts:
    return tuple(_chrf.corpus_statistics(config(settings), c.hypotheses, c.streams, c.nested))


def score_of(settings: Settings, counts: Counts) -> float:
    return _chrf.score_of(config(settings), list(counts))


def components_of(settings: Settings, counts: Counts, segment_count: int) -> Components:
    raw = _chrf.components_of(config(settings), list(counts))
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
