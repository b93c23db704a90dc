"""The service layer: every score of ``(Settings, corpus)``, called by the public functions, the
sacreBLEU facade, the command line and the integrations alike.

A corpus is what :func:`read` returns: the texts read and checked once by the compiled core's
reader (the one home of their validation), with the settings' lowercasing. Internal layers pass
``Settings`` objects; keyword options become settings only at the public edge (``settings_of``).
Explanations, comparisons and the statistical tests are this layer's too, in ``chrf._analysis``.

Arguments that are not texts (weights, layouts) are checked here, each by its one function.
"""

from __future__ import annotations

from chrf import _core
from chrf._core import AlignedFiles, Corpus, Counts
from chrf._inputs import Layout, check_layout
from chrf._weights import Weights, exact_ratios, item_weights

# Not typing's own: the first score would import typing (see chrf/__init__.py).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    import numpy as np
    from numpy.typing import NDArray

    from chrf._components import Components
    from chrf._settings import Settings
    from chrf._statistics import Statistics

__all__ = [
    "AlignedFiles",
    "Corpus",
    "aggregate",
    "aggregate_batched",
    "aligned_files",
    "bootstrap",
    "compiled_score",
    "compiled_sentence_score",
    "compiled_sentence_scores",
    "components",
    "expected_utility",
    "expected_utility_batched",
    "files_sentence_scores",
    "files_statistics",
    "pairwise",
    "pairwise_batched",
    "read",
    "reference_streams",
    "score",
    "segment_statistics",
    "sentence_score_list",
    "sentence_scores",
    "sentence_scores_of",
    "smallest_integers",
    "statistics",
]


def read(
    settings: Settings, hypotheses: object, references: object, layout: Layout | None = None
) -> Corpus:
    """The corpus of ``hypotheses`` and ``references`` (shapes and layouts as :func:`chrf.score`
    reads them), every text checked, lowercased if the settings say so."""
    if layout is not None:
        check_layout(layout)
    return _core.read(hypotheses, references, layout, settings.lowercase)


def reference_streams(references: object) -> tuple[list[list[object]], int]:
    """sacreBLEU's reference streams of ``references`` (its texts read later, with the
    hypotheses) and its ``num_refs``: the references every segment has (``None`` not counted),
    or -1 when it varies."""
    return _core.reference_streams(references)


def score(settings: Settings, corpus: Corpus) -> float:
    """sacreBLEU's corpus score."""
    return corpus.score(settings.compiled)


def statistics(settings: Settings, corpus: Corpus) -> Statistics:
    """The corpus statistics, as a value that adds and scores."""
    from chrf._statistics import Statistics  # a dataclass: not needed for a score

    counts: Counts = tuple(corpus.statistics(settings.compiled))
    return Statistics(settings, counts, len(corpus))


def components(settings: Settings, corpus: Corpus) -> Components:
    """The corpus score's exact components."""
    from chrf._components import components_from  # fractions: not needed for a float score

    return components_from(settings, corpus.components(settings.compiled), len(corpus))


def segment_statistics(settings: Settings, corpus: Corpus) -> NDArray[np.uint64]:
    """Every segment's statistics: shape (segments, orders, 3)."""
    return corpus.segment_statistics(settings.compiled)


def sentence_scores(
    settings: Settings, hypotheses: object, references: object, layout: Layout | None = None
) -> NDArray[np.float64]:
    """sacreBLEU's sentence score of every segment of texts not yet read: read and scored in
    one call into the core, which scores one pair as it reads it."""
    if layout is not None:
        check_layout(layout)
    return _core.sentence_scores(settings.compiled, hypotheses, references, layout)


def sentence_scores_of(settings: Settings, corpus: Corpus) -> NDArray[np.float64]:
    """sacreBLEU's sentence score of every segment of a corpus."""
    return corpus.sentence_scores(settings.compiled)


def sentence_score_list(settings: Settings, corpus: Corpus) -> list[float]:
    """:func:`sentence_scores_of` as a list of floats, without NumPy."""
    return corpus.sentence_score_list(settings.compiled)


# The one-pair paths of the public entry points, the core's own functions called with
# ``settings.compiled``: for one short pair, a Python frame around the call would be a visible
# share of its time. `compiled_score` is :func:`score` of texts not yet read (a layout
# `check_layout` accepted), one pair scored as it is read; `compiled_sentence_scores` is
# :func:`sentence_scores`, likewise; `compiled_sentence_score(config, hypothesis, references,
# metric)` is sacreBLEU's sentence score of one hypothesis against its references, which sets
# ``metric.num_refs`` to the number of references read (``None`` placeholders not counted).
compiled_score = _core.corpus_score
compiled_sentence_scores = _core.sentence_scores
compiled_sentence_score = _core.sentence_score


def pairwise(settings: Settings, hypotheses: object, references: object) -> NDArray[np.float64]:
    """Every hypothesis against every reference: shape (hypotheses, references)."""
    batch = _core.read_batch(hypotheses, references, "pairwise", False, settings.lowercase)
    matrix: NDArray[np.float64] = batch.pairwise(settings.compiled)[0]
    return matrix


def pairwise_batched(
    settings: Settings, hypotheses: object, references: object
) -> NDArray[np.float64]:
    """:func:`pairwise` per batch item: shape (batch, hypotheses, references)."""
    batch = _core.read_batch(hypotheses, references, "pairwise", True, settings.lowercase)
    return batch.pairwise(settings.compiled)


def aggregate(
    settings: Settings, hypotheses: object, references: object, weights: Weights | None = None
) -> NDArray[np.float64]:
    """Each hypothesis against the (weighted) mean n-gram bag of the references."""
    batch = _core.read_batch(hypotheses, references, "aggregate", False, settings.lowercase)
    scores: NDArray[np.float64] = batch.aggregate(
        settings.compiled, item_weights(weights, batch.reference_counts, False, exact_ratios)
    )[0]
    return scores


def aggregate_batched(
    settings: Settings, hypotheses: object, references: object, weights: object = None
) -> NDArray[np.float64]:
    """:func:`aggregate` per batch item: shape (batch, hypotheses)."""
    batch = _core.read_batch(hypotheses, references, "aggregate", True, settings.lowercase)
    return batch.aggregate(
        settings.compiled, item_weights(weights, batch.reference_counts, True, exact_ratios)
    )


def expected_utility(
    settings: Settings, hypotheses: object, references: object, weights: Weights | None = None
) -> NDArray[np.float64]:
    """Each hypothesis's exact (weighted) mean score against the references."""
    batch = _core.read_batch(hypotheses, references, "expected_utility", False, settings.lowercase)
    utilities: NDArray[np.float64] = batch.expected_utility(
        settings.compiled, item_weights(weights, batch.reference_counts, False, exact_ratios)
    )[0]
    return utilities


def expected_utility_batched(
    settings: Settings, hypotheses: object, references: object, weights: object = None
) -> NDArray[np.float64]:
    """:func:`expected_utility` per batch item: shape (batch, hypotheses)."""
    batch = _core.read_batch(hypotheses, references, "expected_utility", True, settings.lowercase)
    return batch.expected_utility(
        settings.compiled, item_weights(weights, batch.reference_counts, True, exact_ratios)
    )


def smallest_integers(weights: object, count: int) -> list[int]:
    """``weights`` (one per reference, ``count`` of them) as the smallest integers in the same
    proportions: the core's scaling, as reference aggregation and the expected utility use it."""
    return _core.smallest_integers(exact_ratios(weights, count, "weights"))


def bootstrap(
    settings: Settings, corpus: Corpus, n_samples: int, progress: bool = False
) -> tuple[str, list[Any]]:
    """sacreBLEU's seed and the scores of its ``n_samples`` bootstrap resamples of a corpus."""
    # Imported here: its import makes NumPy ready as a Ctrl-C during it must find it.
    from chrf._significance import bootstrap_scores

    return bootstrap_scores(settings, corpus, n_samples, progress)


def aligned_files(paths: list[str], chunk_lines: int) -> AlignedFiles:
    """UTF-8 files read, split into lines and scored in the core, a chunk of lines at a time
    (the command line's fast path)."""
    return AlignedFiles(paths, chunk_lines)


def files_statistics(settings: Settings, files: AlignedFiles) -> Statistics | None:
    """The next chunk's statistics; None after the last chunk."""
    from chrf._statistics import Statistics

    chunk = files.statistics(settings.compiled)
    return None if chunk is None else Statistics(settings, tuple(chunk[1]), chunk[0])


def files_sentence_scores(settings: Settings, files: AlignedFiles) -> list[float] | None:
    """The next chunk's sentence scores; None after the last chunk."""
    return files.sentence_scores(settings.compiled)
