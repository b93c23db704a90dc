"""Minimum Bayes risk (MBR) decoding: exact expected utility without the matrix, and selection."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, cast

from chrf import _service
from chrf._errors import InputError, SettingsError
from chrf._exact_order import ExactOrder, rereadable
from chrf._inputs import Texts, as_list
from chrf._keywords import with_options_doc
from chrf._messages import shown
from chrf._settings import Options, settings_of

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray
    from typing_extensions import Unpack

    from chrf._weights import Weights

#: How :func:`mbr` estimates each hypothesis's utility.
Method = Literal["pairwise", "aggregate"]
METHODS = ("pairwise", "aggregate")


@dataclass(frozen=True, eq=False)  # no ==: an array of utilities has no one truth value
class MBRResult:
    """What :func:`mbr` chose: the ``index`` of the chosen hypothesis (the first of highest
    utility, compared exactly: see :func:`mbr`), the ``hypothesis`` itself, and every
    hypothesis's ``utilities`` (float64)."""

    index: int
    hypothesis: str
    utilities: NDArray[np.float64]


@with_options_doc()
def expected_utility(
    hypotheses: Texts,
    references: Texts,
    weights: Weights | None = None,
    **options: Unpack[Options],
) -> NDArray[np.float64]:
    """Each hypothesis's expected utility against the references: shape (len(h),).

    ``utilities[i]`` is the weighted mean of sacreBLEU's sentence score of hypothesis i against
    each reference alone, Σ_j w_j · ``pairwise(h, r)[i, j]`` / Σ_j w_j, computed exactly: the
    exact value of those doubles and weights, rounded once to the nearest double (ties to even),
    so that it depends neither on the references' order nor on the thread count. The pairwise
    matrix is never built: rows are scored and summed one at a time, so memory grows with the
    number of texts, not with their pairs. ``weights`` (one non-negative number per reference:
    ints, floats at their exact binary value, Fractions, NumPy scalars or arrays) weighs the
    mean, e.g. by the model's probability of each sample, whatever their range (1 and 1e-300
    side by side) and width (ints past 64 bits, Fractions of any denominator); None weighs
    every reference alike.
    """
    return _service.expected_utility(settings_of(options), hypotheses, references, weights)


@with_options_doc()
def expected_utility_batched(
    hypotheses: Iterable[Texts],
    references: Iterable[Texts],
    weights: Iterable[Weights | None] | None = None,
    **options: Unpack[Options],
) -> NDArray[np.float64]:
    """:func:`expected_utility` for a batch: shape (batch, hypotheses), as
    :func:`aggregate_batched`. Every batch item needs the same number of hypotheses; each has
    its own references, and ``weights`` is None or one weight list (or None) per batch item."""
    return _service.expected_utility_batched(settings_of(options), hypotheses, references, weights)


@with_options_doc()
def mbr(
    hypotheses: Texts,
    references: Texts | None = None,
    weights: Weights | None = None,
    method: Method = "pairwise",
    **options: Unpack[Options],
) -> MBRResult:
    """MBR selection: the hypothesis of highest expected chrF against the references.

    ``references`` (pseudo-references, e.g. samples of the model) default to the hypotheses
    themselves. ``method="pairwise"`` estimates each utility with :func:`expected_utility` (every
    pair scored, exact weighted mean); ``method="aggregate"`` with :func:`aggregate`, each
    hypothesis scored once against the references' weighted mean n-gram bag (reference
    aggregation, Vamvas & Sennrich 2024: faster, an approximation of the former). ``weights``
    weighs the references for both. Returns an :class:`MBRResult`: the chosen ``index`` (the
    first of highest utility), the ``hypothesis``, and the ``utilities`` array. With
    ``method="pairwise"`` the highest is that of the exact utilities: where two round to the
    same double, the one whose exact weighted mean is larger wins, and only exactly equal
    utilities go to the first.
    """
    _check_method(method)
    hyps = as_list(hypotheses, "hypotheses")
    if not hyps:
        raise InputError("hypotheses must not be empty", argument="hypotheses", reason="empty")
    texts = cast("list[str]", hyps)  # the core checks that they are
    refs = texts if references is None else rereadable(references, "references")
    listed = None if weights is None else cast("Weights", as_list(weights, "weights"))
    settings = settings_of(options)
    if method == "aggregate":
        return _chosen(texts, _service.aggregate(settings, texts, refs, listed))
    utilities = _service.expected_utility(settings, texts, refs, listed)
    return _chosen(texts, utilities, ExactOrder(settings, refs, listed))


@with_options_doc()
def mbr_batched(
    hypotheses: Iterable[Texts],
    references: Iterable[Texts] | None = None,
    weights: Iterable[Weights | None] | None = None,
    method: Method = "pairwise",
    **options: Unpack[Options],
) -> list[MBRResult]:
    """:func:`mbr` for a batch of pools: one :class:`MBRResult` per batch item (their
    ``utilities`` are the rows of one (batch, hypotheses) array). Every item needs the same
    number of hypotheses; ``references`` (default: each item's hypotheses) and ``weights`` are
    per item, as for :func:`expected_utility_batched`."""
    _check_method(method)
    hyps = [
        as_list(item, f"hypotheses[{b}]")
        for b, item in enumerate(as_list(hypotheses, "hypotheses"))
    ]
    for b, item in enumerate(hyps):
        if not item:
            raise InputError(
                f"hypotheses[{b}] must not be empty", argument="hypotheses", index=b, reason="empty"
            )
    texts = cast("list[list[str]]", hyps)  # the core checks that they are
    refs = (
        texts
        if references is None
        else [
            rereadable(item, f"references[{b}]")
            for b, item in enumerate(as_list(references, "references"))
        ]
    )
    listed = None if weights is None else as_list(weights, "weights")
    settings = settings_of(options)
    if method == "aggregate":
        utilities = _service.aggregate_batched(settings, texts, refs, listed)
        return [_chosen(item, row) for item, row in zip(texts, utilities, strict=True)]
    utilities = _service.expected_utility_batched(settings, texts, refs, listed)
    return [
        _chosen(item, row, ExactOrder(settings, refs[b], None if listed is None else listed[b]))
        for b, (item, row) in enumerate(zip(texts, utilities, strict=True))
    ]


def _check_method(method: object) -> None:
    if not (isinstance(method, str) and method in METHODS):
        raise SettingsError(
            f"method must be 'pairwise' or 'aggregate', not {shown(method)}",
            argument="method",
            reason="invalid_choice",
        )


def _chosen(
    hypotheses: list[str], utilities: NDArray[np.float64], exact: ExactOrder | None = None
) -> MBRResult:
    """The first hypothesis of the highest utility; with ``exact``, of the highest exact
    utility, which the rounded utilities order but for those that round to the same double."""
    index = int(utilities.argmax())  # the first of the highest
    if exact is not None:
        index = exact.first_of_highest(hypotheses, utilities, index)
    return MBRResult(index, hypotheses[index], utilities)
