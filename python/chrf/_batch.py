"""Scores as NumPy arrays: per segment, pairwise (MBR), and against aggregated references; keyword
options become settings here, the service layer (``chrf._service``) reads and scores."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from chrf import _service
from chrf._inputs import Layout, References, Texts, check_layout
from chrf._keywords import with_options_doc
from chrf._settings import DEFAULT_SETTINGS, Options, settings_of

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray
    from typing_extensions import Unpack

    from chrf._weights import Weights


@with_options_doc()
def sentence_scores(
    hypotheses: Texts,
    references: References,
    *,
    layout: Layout | None = None,
    **options: Unpack[Options],
) -> NDArray[np.float64]:
    """sacreBLEU's sentence-level score of every segment, as a float64 array.

    ``scores[i] == sacrebleu.metrics.CHRF(...).sentence_score(hypotheses[i], refs_i).score``,
    where ``refs_i`` are segment i's references (``layout`` as for :func:`chrf.score`).
    """
    # Without options, no call: for one short pair, a call is a visible share of the time.
    settings = settings_of(options) if options else DEFAULT_SETTINGS
    if layout is not None:
        check_layout(layout)
    return _service.compiled_sentence_scores(settings.compiled, hypotheses, references, layout)


@with_options_doc()
def segment_statistics(
    hypotheses: Texts,
    references: References,
    *,
    layout: Layout | None = None,
    **options: Unpack[Options],
) -> NDArray[np.uint64]:
    """The statistics of every segment: a uint64 array of shape (segments, orders, 3).

    ``[i, n]`` holds segment i's (hypothesis, reference, matching) n-gram counts of order n
    (character orders first), those of its best reference; summed over axis 0 they are
    ``chrf.statistics(...).counts``. A segment count above 2**64 - 1 is an OverflowError.
    """
    settings = settings_of(options)
    corpus = _service.read(settings, hypotheses, references, layout)
    return _service.segment_statistics(settings, corpus)


@with_options_doc()
def pairwise(
    hypotheses: Texts, references: Texts, **options: Unpack[Options]
) -> NDArray[np.float64]:
    """The score of every hypothesis against every reference: shape (len(h), len(r)).

    ``scores[i, j]`` is sacreBLEU's sentence score of hypothesis i against reference j alone;
    for MBR decoding, pass the same samples as both. Each distinct text is counted once.
    """
    return _service.pairwise(settings_of(options), hypotheses, references)


@with_options_doc()
def pairwise_batched(
    hypotheses: Iterable[Texts], references: Iterable[Texts], **options: Unpack[Options]
) -> NDArray[np.float64]:
    """:func:`pairwise` for a batch: shape (batch, hypotheses, references), as
    ``fastchrf.pairwise_chrf`` returns it. Every batch item needs the same numbers of
    hypotheses and of references."""
    return _service.pairwise_batched(settings_of(options), hypotheses, references)


@with_options_doc()
def aggregate(
    hypotheses: Texts,
    references: Texts,
    *,
    weights: Weights | None = None,
    **options: Unpack[Options],
) -> NDArray[np.float64]:
    """Each hypothesis against the mean n-gram bag of all references: shape (len(h),).

    The reference aggregation of Vamvas & Sennrich (2024), as ``fastchrf.aggregate_chrf`` computes
    it, for chrF and chrF++ alike: one pass per hypothesis instead of one per pair. ``weights``
    (one non-negative number per reference) weighs the mean, e.g. by how often a sample occurs;
    the n-grams are counted with the weights as the smallest integers in the same proportions,
    exactly at any range and width (with ``averaging="per_order_f"`` and no eps smoothing, they
    must fit 64 bits).
    """
    return _service.aggregate(settings_of(options), hypotheses, references, weights)


@with_options_doc()
def aggregate_batched(
    hypotheses: Iterable[Texts],
    references: Iterable[Texts],
    *,
    weights: Iterable[Weights | None] | None = None,
    **options: Unpack[Options],
) -> NDArray[np.float64]:
    """:func:`aggregate` for a batch: shape (batch, hypotheses), as ``fastchrf.aggregate_chrf``.
    ``weights`` is None or one weight list (or None) per batch item."""
    return _service.aggregate_batched(settings_of(options), hypotheses, references, weights)
