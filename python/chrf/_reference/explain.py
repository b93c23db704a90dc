"""Reference twin of `chrf.explain`: per order, the missing and the extra n-grams over the
corpus as Counter differences, each segment against the reference spec §5 chooses, and the
per-segment arrays (statistics, sentence scores, leave-one-out deltas) from the reference's
own statistics."""

from __future__ import annotations

import sys
from collections import Counter
from typing import TYPE_CHECKING

import numpy as np

from chrf._explain import Explanation, frozen, orders_of
from chrf._inputs import Layout, References, Texts, whole_number
from chrf._keywords import entry_point
from chrf._reference.corpus import corpus_counts
from chrf._reference.metric import Stats, best_reference, float_of, ngram_bags, subtracted
from chrf._reference.texts import Segment, corpus_of, segments_of
from chrf._settings import Options, Settings, settings_of

if TYPE_CHECKING:
    from typing_extensions import Unpack

__all__ = ["explain"]

#: Per order: Counters of the missing and of the extra n-grams.
Differences = list[tuple[Counter[str], Counter[str]]]


@entry_point
def explain(
    hypotheses: Texts,
    references: References,
    top: int | None = None,
    *,
    layout: Layout | None = None,
    **options: Unpack[Options],
) -> Explanation:
    """Reference twin of `chrf.explain`."""
    if top is not None:
        top = whole_number(top, "top", optional=True)
        top = None if top > sys.maxsize else top
    settings = settings_of(options)
    c = corpus_of(hypotheses, references, layout, settings.lowercase)
    chosen = [chosen_reference(segment, settings) for segment in segments_of(c)]
    rows = [stats for _, stats, _ in chosen]
    total = corpus_counts(settings, rows)
    score = float_of(total, settings)
    without = [float_of(subtracted(total, row), settings) for row in rows]
    stats = np.array(rows, dtype=np.uint64).reshape(len(rows), settings.order_count, 3)
    return Explanation(
        settings=settings,
        score=score,
        orders=orders_of(settings, stats, ngram_lists(summed([d for _, _, d in chosen])), top),
        references=frozen(np.array([k for k, _, _ in chosen], dtype=np.int64)),
        segment_statistics=frozen(stats),
        sentence_scores=frozen(
            np.array([float_of(row, settings) for row in rows], dtype=np.float64)
        ),
        leave_one_out=frozen(np.array([score - w for w in without], dtype=np.float64)),
        top=top,
        _corpus=c,
    )


def chosen_reference(segment: Segment, settings: Settings) -> tuple[int, Stats, Differences]:
    """The stream of the reference spec §5 chooses, the statistics against it, and per order
    the n-grams it misses and adds (spec §1.4: none where the reference has no n-gram of the
    order, unless hypothesis n-grams count there)."""
    hypothesis, present = segment
    best, stats = best_reference(hypothesis, [text for _, text in present], settings)
    reference = present[best][1]
    if settings.lowercase:
        hypothesis, reference = hypothesis.lower(), reference.lower()
    differences: Differences = []
    for h, r in zip(ngram_bags(hypothesis, settings), ngram_bags(reference, settings), strict=True):
        if not r and not settings.count_hyp_without_ref:
            differences.append((Counter(), Counter()))
            continue
        differences.append((_texts(r - h), _texts(h - r)))
    return present[best][0], stats, differences


def summed(per_segment: list[Differences]) -> Differences:
    total: Differences = [(Counter(), Counter()) for _ in per_segment[0]]
    for differences in per_segment:
        for (missing, extra), (m, e) in zip(total, differences, strict=True):
            missing.update(m)
            extra.update(e)
    return total


def ngram_lists(
    differences: Differences,
) -> list[tuple[list[tuple[str, int]], list[tuple[str, int]]]]:
    """Each order's n-grams, the largest count first, then in code point order."""
    return [(_ranked(missing), _ranked(extra)) for missing, extra in differences]


def _ranked(counts: Counter[str]) -> list[tuple[str, int]]:
    return sorted(
        ((g, n) for g, n in counts.items() if n > 0), key=lambda item: (-item[1], item[0])
    )


def _texts(grams: Counter[object]) -> Counter[str]:
    """N-grams as text: word n-grams as their tokens joined by one space."""
    return Counter({" ".join(g) if isinstance(g, tuple) else str(g): n for g, n in grams.items()})
