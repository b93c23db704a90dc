"""Reference twins of the batch functions (pairwise, aggregate, expected utility, and their
batched forms): every pair scored alone, the mean bag in integers, the weighted mean in
Fractions. Arguments are read as the public functions read them (`chrf._batch`'s helpers)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING

import numpy as np

from chrf._batch import Weights, _batches, integer_weights
from chrf._inputs import Texts, as_list
from chrf._reference.metric import aggregate_scores, sentence_score
from chrf._reference.texts import strings
from chrf._settings import Options, Settings, settings_of

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

#: How a text of batch item b is named in errors: `hypotheses[i]` in an unbatched call.
Namer = Callable[[str, int], Callable[[int], str]]


def _unbatched(name: str, b: int) -> Callable[[int], str]:
    return lambda i: f"{name}[{i}]"


def _batched(name: str, b: int) -> Callable[[int], str]:
    return lambda i: f"{name}[{b}][{i}]"


def pairwise(
    hypotheses: Texts, references: Texts, **options: Unpack[Options]
) -> NDArray[np.float64]:
    """Reference twin of `chrf.pairwise`: each pair scored alone."""
    hyps = as_list(hypotheses, "hypotheses")
    refs = as_list(references, "references")
    scores: NDArray[np.float64] = _pairwise(settings_of(options), [hyps], [refs], _unbatched)[0]
    return scores


def pairwise_batched(
    hypotheses: Iterable[Texts], references: Iterable[Texts], **options: Unpack[Options]
) -> NDArray[np.float64]:
    """Reference twin of `chrf.pairwise_batched`."""
    hyps, refs = _batches(hypotheses, references)
    return _pairwise(settings_of(options), hyps, refs, _batched)


def _pairwise(
    settings: Settings, hyps: list[Sequence[object]], refs: list[Sequence[object]], names: Namer
) -> NDArray[np.float64]:
    hyp_texts, ref_texts = _texts(hyps, refs, names)
    shape = (len(hyps), len(hyps[0]) if hyps else 0, len(refs[0]) if refs else 0)
    scores = np.zeros(shape, dtype=np.float64)
    for b, (item_hyps, item_refs) in enumerate(zip(hyp_texts, ref_texts, strict=True)):
        for i, hyp in enumerate(item_hyps):
            for j, ref in enumerate(item_refs):
                scores[b, i, j] = sentence_score(hyp, [ref], settings)
    return scores


def aggregate(
    hypotheses: Texts,
    references: Texts,
    *,
    weights: Weights | None = None,
    **options: Unpack[Options],
) -> NDArray[np.float64]:
    """Reference twin of `chrf.aggregate`."""
    hyps, refs, scaled = _pool(hypotheses, references, weights)
    scores: NDArray[np.float64] = _aggregate(
        settings_of(options), [hyps], [refs], [scaled], _unbatched
    )[0]
    return scores


def aggregate_batched(
    hypotheses: Iterable[Texts],
    references: Iterable[Texts],
    *,
    weights: Iterable[Weights | None] | None = None,
    **options: Unpack[Options],
) -> NDArray[np.float64]:
    """Reference twin of `chrf.aggregate_batched`."""
    hyps, refs, scaled = _pools(hypotheses, references, weights)
    return _aggregate(settings_of(options), hyps, refs, scaled, _batched)


def _aggregate(
    settings: Settings,
    hyps: list[Sequence[object]],
    refs: list[Sequence[object]],
    weights: list[list[int] | None],
    names: Namer,
) -> NDArray[np.float64]:
    hyp_texts, ref_texts = _texts(hyps, refs, names)
    scores = np.zeros((len(hyps), len(hyps[0]) if hyps else 0), dtype=np.float64)
    for b, (item_hyps, item_refs, w) in enumerate(zip(hyp_texts, ref_texts, weights, strict=True)):
        ws = w if w is not None else [1] * len(item_refs)
        scores[b, :] = aggregate_scores(item_hyps, item_refs, ws, settings)
    return scores


def expected_utility(
    hypotheses: Texts,
    references: Texts,
    weights: Weights | None = None,
    **options: Unpack[Options],
) -> NDArray[np.float64]:
    """Reference twin of `chrf.expected_utility`: each row of `pairwise`, its weighted mean taken
    in Fractions (a float weight at its exact value), rounded once."""
    hyps, refs, scaled = _pool(hypotheses, references, weights)
    utilities: NDArray[np.float64] = _expected(
        settings_of(options), [hyps], [refs], [scaled], _unbatched
    )[0]
    return utilities


def expected_utility_batched(
    hypotheses: Iterable[Texts],
    references: Iterable[Texts],
    weights: Iterable[Weights | None] | None = None,
    **options: Unpack[Options],
) -> NDArray[np.float64]:
    """Reference twin of `chrf.expected_utility_batched`."""
    hyps, refs, scaled = _pools(hypotheses, references, weights)
    return _expected(settings_of(options), hyps, refs, scaled, _batched)


def _expected(
    settings: Settings,
    hyps: list[Sequence[object]],
    refs: list[Sequence[object]],
    weights: list[list[int] | None],
    names: Namer,
) -> NDArray[np.float64]:
    hyp_texts, ref_texts = _texts(hyps, refs, names)
    utilities = np.zeros((len(hyps), len(hyps[0]) if hyps else 0), dtype=np.float64)
    for b, (item_hyps, item_refs, w) in enumerate(zip(hyp_texts, ref_texts, weights, strict=True)):
        ws = [Fraction(x) for x in (w if w is not None else [1] * len(item_refs))]
        total = sum(ws, Fraction(0))
        for i, hyp in enumerate(item_hyps):
            row = [Fraction(sentence_score(hyp, [ref], settings)) for ref in item_refs]
            utilities[b, i] = float(
                sum((w * s for w, s in zip(ws, row, strict=True)), Fraction(0)) / total
            )
    return utilities


def _pool(
    hypotheses: object, references: object, weights: object
) -> tuple[Sequence[object], Sequence[object], list[int] | None]:
    """An unbatched call's arguments: hypotheses, references (not empty) and scaled weights."""
    hyps = as_list(hypotheses, "hypotheses")
    refs = as_list(references, "references")
    if not refs:
        raise ValueError("references must not be empty")
    scaled = None if weights is None else integer_weights(weights, len(refs), "weights")
    return hyps, refs, scaled


def _pools(
    hypotheses: Iterable[Texts], references: Iterable[Texts], weights: object
) -> tuple[list[Sequence[object]], list[Sequence[object]], list[list[int] | None]]:
    """A batched call's arguments: per item, hypotheses, references (not empty) and weights."""
    hyps, refs = _batches(hypotheses, references, check_references=False)
    for b, item in enumerate(refs):
        if not item:
            raise ValueError(f"references[{b}] must not be empty")
    if weights is None:
        return hyps, refs, [None] * len(hyps)
    per_item = as_list(weights, "weights")
    if len(per_item) != len(hyps):
        raise ValueError(f"weights has {len(per_item)} items but the batch has {len(hyps)}")
    scaled = [
        None if w is None else integer_weights(w, len(refs[b]), f"weights[{b}]")
        for b, w in enumerate(per_item)
    ]
    return hyps, refs, scaled


def _texts(
    hyps: list[Sequence[object]], refs: list[Sequence[object]], names: Namer
) -> tuple[list[list[str]], list[list[str]]]:
    """Every batch item's texts checked, the hypotheses of every item first."""
    return (
        [strings(item, names("hypotheses", b)) for b, item in enumerate(hyps)],
        [strings(item, names("references", b)) for b, item in enumerate(refs)],
    )
