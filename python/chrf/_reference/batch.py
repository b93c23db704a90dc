"""Reference twins of the batch functions (pairwise, aggregate, expected utility, and their
batched forms): every pair scored alone, the mean bag in integers, the weighted mean in
Fractions. Arguments are read as the public functions read them (`chrf._reference.texts`)."""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction
from typing import TYPE_CHECKING

import numpy as np

from chrf._inputs import Texts
from chrf._keywords import entry_point
from chrf._reference.metric import aggregate_scores, sentence_score
from chrf._reference.texts import Items, batch_items
from chrf._reference.weights import binary_weights
from chrf._settings import Options, Settings, settings_of
from chrf._weights import Weights

if TYPE_CHECKING:
    from numpy.typing import NDArray
    from typing_extensions import Unpack

__all__ = [
    "aggregate",
    "aggregate_batched",
    "expected_utility",
    "expected_utility_batched",
    "pairwise",
    "pairwise_batched",
]


@entry_point
def pairwise(
    hypotheses: Texts, references: Texts, **options: Unpack[Options]
) -> NDArray[np.float64]:
    """Reference twin of `chrf.pairwise`: each pair scored alone."""
    settings = settings_of(options)
    scores: NDArray[np.float64] = _pairwise(
        settings, batch_items(hypotheses, references, "pairwise", False, None, _integers)
    )[0]
    return scores


@entry_point
def pairwise_batched(
    hypotheses: Iterable[Texts], references: Iterable[Texts], **options: Unpack[Options]
) -> NDArray[np.float64]:
    """Reference twin of `chrf.pairwise_batched`."""
    settings = settings_of(options)
    return _pairwise(
        settings, batch_items(hypotheses, references, "pairwise", True, None, _integers)
    )


def _pairwise(settings: Settings, items: Items) -> NDArray[np.float64]:
    hyps, refs, _ = items
    shape = (len(hyps), len(hyps[0]) if hyps else 0, len(refs[0]) if refs else 0)
    scores = np.zeros(shape, dtype=np.float64)
    for b, (item_hyps, item_refs) in enumerate(zip(hyps, refs, strict=True)):
        for i, hyp in enumerate(item_hyps):
            for j, ref in enumerate(item_refs):
                scores[b, i, j] = sentence_score(hyp, [ref], settings)
    return scores


@entry_point
def aggregate(
    hypotheses: Texts,
    references: Texts,
    *,
    weights: Weights | None = None,
    **options: Unpack[Options],
) -> NDArray[np.float64]:
    """Reference twin of `chrf.aggregate`."""
    settings = settings_of(options)
    items = batch_items(hypotheses, references, "aggregate", False, weights, _integers)
    scores: NDArray[np.float64] = _aggregate(settings, items)[0]
    return scores


@entry_point
def aggregate_batched(
    hypotheses: Iterable[Texts],
    references: Iterable[Texts],
    *,
    weights: Iterable[Weights | None] | None = None,
    **options: Unpack[Options],
) -> NDArray[np.float64]:
    """Reference twin of `chrf.aggregate_batched`."""
    settings = settings_of(options)
    items = batch_items(hypotheses, references, "aggregate", True, weights, _integers)
    return _aggregate(settings, items)


def _aggregate(settings: Settings, items: Items) -> NDArray[np.float64]:
    hyps, refs, weights = items
    scores = np.zeros((len(hyps), len(hyps[0]) if hyps else 0), dtype=np.float64)
    for b, (item_hyps, item_refs, w) in enumerate(zip(hyps, refs, weights, strict=True)):
        ws = w if w is not None else [1] * len(item_refs)
        scores[b, :] = aggregate_scores(item_hyps, item_refs, ws, settings)
    return scores


@entry_point
def expected_utility(
    hypotheses: Texts,
    references: Texts,
    weights: Weights | None = None,
    **options: Unpack[Options],
) -> NDArray[np.float64]:
    """Reference twin of `chrf.expected_utility`: each row of `pairwise`, its weighted mean taken
    in Fractions (a float weight at its exact value), rounded once."""
    settings = settings_of(options)
    items = batch_items(hypotheses, references, "expected_utility", False, weights, _integers)
    utilities: NDArray[np.float64] = _expected(settings, items)[0]
    return utilities


@entry_point
def expected_utility_batched(
    hypotheses: Iterable[Texts],
    references: Iterable[Texts],
    weights: Iterable[Weights | None] | None = None,
    **options: Unpack[Options],
) -> NDArray[np.float64]:
    """Reference twin of `chrf.expected_utility_batched`."""
    settings = settings_of(options)
    items = batch_items(hypotheses, references, "expected_utility", True, weights, _integers)
    return _expected(settings, items)


def _integers(weights: object, count: int, name: str) -> list[int]:
    """The compiled function's pieces of weights, refused alike, summed as integers."""
    integers = [0] * count
    for reference, mantissa, shift in binary_weights(weights, count, name):
        integers[reference] += mantissa << shift
    return integers


def _expected(settings: Settings, items: Items) -> NDArray[np.float64]:
    hyps, refs, weights = items
    utilities = np.zeros((len(hyps), len(hyps[0]) if hyps else 0), dtype=np.float64)
    for b, (item_hyps, item_refs, w) in enumerate(zip(hyps, refs, weights, strict=True)):
        ws = [Fraction(x) for x in (w if w is not None else [1] * len(item_refs))]
        total = sum(ws, Fraction(0))
        for i, hyp in enumerate(item_hyps):
            row = [Fraction(sentence_score(hyp, [ref], settings)) for ref in item_refs]
            utilities[b, i] = float(
                sum((w * s for w, s in zip(ws, row, strict=True)), Fraction(0)) / total
            )
    return utilities
