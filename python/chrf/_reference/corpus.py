"""Reference twins of the corpus functions: score, components, statistics, sentence scores and
segment statistics, with the public functions' signatures and result types."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from chrf._components import Components
from chrf._inputs import Layout, References, Texts
from chrf._keywords import entry_point
from chrf._reference.metric import Stats, added, components_of, float_of, segment_counts
from chrf._reference.texts import corpus_of, segments_of
from chrf._settings import ExactOptions, Options, Settings, exact_settings, settings_of
from chrf._statistics import Statistics

if TYPE_CHECKING:
    from numpy.typing import NDArray
    from typing_extensions import Unpack

__all__ = ["components", "score", "segment_statistics", "sentence_scores", "statistics"]


@entry_point
def score(
    hypotheses: Texts,
    references: References,
    *,
    layout: Layout | None = None,
    **options: Unpack[Options],
) -> float:
    """Reference twin of `chrf.score`."""
    settings = settings_of(options)
    return float_of(
        corpus_counts(settings, per_segment(settings, hypotheses, references, layout)), settings
    )


@entry_point
def components(
    hypotheses: Texts,
    references: References,
    *,
    layout: Layout | None = None,
    **options: Unpack[ExactOptions],
) -> Components:
    """Reference twin of `chrf.components`."""
    settings = exact_settings(options)
    rows = per_segment(settings, hypotheses, references, layout)
    return components_of(corpus_counts(settings, rows), settings, len(rows))


@entry_point
def statistics(
    hypotheses: Texts,
    references: References,
    *,
    layout: Layout | None = None,
    **options: Unpack[Options],
) -> Statistics:
    """Reference twin of `chrf.statistics`."""
    settings = settings_of(options)
    rows = per_segment(settings, hypotheses, references, layout)
    return Statistics(settings, tuple(corpus_counts(settings, rows)), len(rows))


@entry_point
def sentence_scores(
    hypotheses: Texts,
    references: References,
    *,
    layout: Layout | None = None,
    **options: Unpack[Options],
) -> NDArray[np.float64]:
    """Reference twin of `chrf.sentence_scores`: each segment's statistics scored alone."""
    settings = settings_of(options)
    rows = per_segment(settings, hypotheses, references, layout)
    return np.array([float_of(row, settings) for row in rows], dtype=np.float64)


@entry_point
def segment_statistics(
    hypotheses: Texts,
    references: References,
    *,
    layout: Layout | None = None,
    **options: Unpack[Options],
) -> NDArray[np.uint64]:
    """Reference twin of `chrf.segment_statistics`."""
    settings = settings_of(options)
    rows = per_segment(settings, hypotheses, references, layout)
    return np.array(rows, dtype=np.uint64).reshape(len(rows), settings.order_count, 3)


def per_segment(
    settings: Settings, hypotheses: object, references: object, layout: object
) -> list[Stats]:
    """Each segment's statistics, against the reference spec §5 chooses."""
    segments = segments_of(corpus_of(hypotheses, references, layout))
    return [segment_counts(h, [text for _, text in refs], settings) for h, refs in segments]


def corpus_counts(settings: Settings, rows: list[Stats]) -> Stats:
    total: Stats = [(0, 0, 0)] * settings.order_count
    for row in rows:
        total = added(total, row)
    return total
