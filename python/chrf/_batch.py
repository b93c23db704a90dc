"""Scores as NumPy arrays: per segment, pairwise (MBR), and against aggregated references."""

from __future__ import annotations

import math
import operator
from collections.abc import Iterable, Sequence
from fractions import Fraction
from numbers import Rational
from typing import TYPE_CHECKING, TypeAlias

from chrf import _core
from chrf._inputs import Layout, References, Texts, as_list, corpus
from chrf._messages import shown
from chrf._numbers import is_bool, is_float
from chrf._settings import DEFAULT_SETTINGS, Options, settings_of, with_options_doc

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray
    from typing_extensions import Unpack

#: One weight per reference: ints, Fractions, or floats (taken at their exact values), NumPy
#: scalars or arrays of them included.
Weights: TypeAlias = Sequence[int | Fraction | float]
#: Weights must fit 64 bits once scaled to integers with a common denominator.
MAX_WEIGHT = 2**64 - 1
DEFAULT_CONFIG = _core.config(DEFAULT_SETTINGS)


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
    # Without options, the calls of settings_of and config are a tenth of one short pair's time.
    settings = settings_of(options) if options else DEFAULT_SETTINGS
    if layout is None:
        # Lists of hypotheses and of one reference each are read by the core directly.
        compiled = _core.config(settings) if options else DEFAULT_CONFIG
        flat = _core.flat_sentence_scores(compiled, hypotheses, references)
        if flat is not None:
            return flat
    c = corpus(hypotheses, references, layout)
    result: NDArray[np.float64] = _core.sentence_scores(settings, c)
    return result


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
    result: NDArray[np.uint64] = _core.segment_statistics(
        settings, corpus(hypotheses, references, layout)
    )
    return result


@with_options_doc()
def pairwise(
    hypotheses: Texts, references: Texts, **options: Unpack[Options]
) -> NDArray[np.float64]:
    """The score of every hypothesis against every reference: shape (len(h), len(r)).

    ``scores[i, j]`` is sacreBLEU's sentence score of hypothesis i against reference j alone;
    for MBR decoding, pass the same samples as both. Each distinct text is counted once.
    """
    hyps = as_list(hypotheses, "hypotheses")
    refs = as_list(references, "references")
    matrix: NDArray[np.float64] = _core.pairwise(settings_of(options), [hyps], [refs])[0]
    return matrix


@with_options_doc()
def pairwise_batched(
    hypotheses: Iterable[Texts], references: Iterable[Texts], **options: Unpack[Options]
) -> NDArray[np.float64]:
    """:func:`pairwise` for a batch: shape (batch, hypotheses, references), as
    ``fastchrf.pairwise_chrf`` returns it. Every batch item needs the same numbers of
    hypotheses and of references."""
    hyps, refs = _batches(hypotheses, references)
    result: NDArray[np.float64] = _core.pairwise(settings_of(options), hyps, refs)
    return result


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
    (one non-negative number per reference) weighs the mean, e.g. by how often a sample occurs.
    """
    hyps = as_list(hypotheses, "hypotheses")
    refs = as_list(references, "references")
    if not refs:
        raise ValueError("references must not be empty")
    scaled: list[list[int] | None] | None = None
    if weights is not None:
        scaled = [integer_weights(weights, len(refs), "weights")]
    scores: NDArray[np.float64] = _core.aggregate(settings_of(options), [hyps], [refs], scaled)[0]
    return scores


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
    hyps, refs = _batches(hypotheses, references, check_references=False)
    for b, item in enumerate(refs):
        if not item:
            raise ValueError(f"references[{b}] must not be empty")
    scaled: list[list[int] | None] | None = None
    if weights is not None:
        per_item = as_list(weights, "weights")
        if len(per_item) != len(hyps):
            raise ValueError(f"weights has {len(per_item)} items but the batch has {len(hyps)}")
        scaled = [
            None if w is None else integer_weights(w, len(refs[b]), f"weights[{b}]")
            for b, w in enumerate(per_item)
        ]
    result: NDArray[np.float64] = _core.aggregate(settings_of(options), hyps, refs, scaled)
    return result


def _batches(
    hypotheses: Iterable[Texts], references: Iterable[Texts], *, check_references: bool = True
) -> tuple[list[Sequence[object]], list[Sequence[object]]]:
    hyps = [
        as_list(item, f"hypotheses[{b}]")
        for b, item in enumerate(as_list(hypotheses, "hypotheses"))
    ]
    refs = [
        as_list(item, f"references[{b}]")
        for b, item in enumerate(as_list(references, "references"))
    ]
    if len(hyps) != len(refs):
        raise ValueError(f"hypotheses has {len(hyps)} batch items but references has {len(refs)}")
    _check_uniform(hyps, "hypotheses")
    if check_references:
        _check_uniform(refs, "references")
    return hyps, refs


def _check_uniform(batch: list[Sequence[object]], name: str) -> None:
    for b, item in enumerate(batch):
        if len(item) != len(batch[0]):
            raise ValueError(
                f"{name}[{b}] has {len(item)} texts but {name}[0] has {len(batch[0])}; "
                "a batch array needs the same number in every item (score items of different "
                "sizes one by one)"
            )


def integer_weights(weights: object, count: int, name: str) -> list[int]:
    """Weights as the smallest integers in the same proportions (exact: floats are taken at
    their binary value); ValueError if they cannot be, TypeError for non-numbers."""
    values = as_list(weights, name)
    if len(values) != count:
        raise ValueError(f"{name} has {len(values)} values but there are {count} references")
    exact = [exact_weight(w, f"{name}[{i}]") for i, w in enumerate(values)]
    if not any(exact):
        raise ValueError(f"{name} must not all be zero")
    denominator = math.lcm(*(w.denominator for w in exact))
    integers = [int(w * denominator) for w in exact]
    divisor = math.gcd(*integers)
    integers = [w // divisor for w in integers]
    if max(integers) > MAX_WEIGHT:
        raise ValueError(f"{name} span too wide a range to be scaled to 64-bit integers exactly")
    return integers


def exact_weight(weight: object, name: str) -> Fraction:
    """A non-negative weight as an exact Fraction of Python ints.

    NumPy scalars are converted first: arithmetic on them wraps around silently at their width.
    """
    if is_bool(weight):
        raise TypeError(f"{name} must be a number, not bool")
    try:
        value = Fraction(operator.index(weight))  # type: ignore[arg-type]
    except TypeError:
        value = _exact_non_integer(weight, name)
    if value < 0:
        raise ValueError(f"{name} must not be negative, not {shown(weight)}")
    return value


def _exact_non_integer(weight: object, name: str) -> Fraction:
    if isinstance(weight, Rational):
        try:
            return Fraction(operator.index(weight.numerator), operator.index(weight.denominator))
        except TypeError:
            pass
    elif is_float(weight):
        try:  # not math.isfinite(): a long double beyond the float range is finite
            return Fraction(*weight.as_integer_ratio())
        except (OverflowError, ValueError):
            raise ValueError(f"{name} must be finite, not {float(weight)}") from None
    raise TypeError(f"{name} must be a number, not {type(weight).__name__}")
