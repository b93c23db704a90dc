"""The public functions: thin wrappers that validate arguments and call the compiled core."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chrf._components import Components
from chrf._core import components_of, corpus_counts, score_of
from chrf._inputs import References, Texts, corpus
from chrf._settings import ExactOptions, Options, Settings, exact_settings, with_options_doc
from chrf._statistics import Statistics

if TYPE_CHECKING:
    from typing_extensions import Unpack


@with_options_doc()
def score(hypotheses: Texts, references: References, **options: Unpack[Options]) -> float:
    """Corpus-level chrF (chrF++ with ``word_order=2``) on 0..100.

    Equal (``==``) to ``sacrebleu.metrics.CHRF(...).corpus_score(...).score`` under the same
    settings. ``references`` is one reference string per hypothesis, or a list of reference
    streams, each with one reference per hypothesis (sacreBLEU's layout). The keyword options
    and their defaults are below.
    """
    settings = Settings(**options)
    return score_of(settings, corpus_counts(settings, corpus(hypotheses, references)))


@with_options_doc(exact=True)
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


@with_options_doc()
def statistics(hypotheses: Texts, references: References, **options: Unpack[Options]) -> Statistics:
    """The corpus statistics behind :func:`score`: per-order n-gram counts that add up.

    Statistics of shards add (``a + b``, ``sum(parts)``) to those of the whole corpus, pickle,
    and give ``.score()`` and ``.components()`` as the corpus would.
    """
    settings = Settings(**options)
    c = corpus(hypotheses, references)
    return Statistics(settings, corpus_counts(settings, c), len(c.hypotheses))
