"""Weights of references, validated as exact numbers: the core takes them as exact ratios
(`exact_ratios`) and scales them to integers in the same proportions itself, so that reference
aggregation's counts and the expected utility's sums are exact at any range and width. The
reference implementation scales them on its own (`chrf._reference.weights`), to hold the core
to it."""

from __future__ import annotations

import operator
from numbers import Rational

from chrf._errors import InputError, InputTypeError, argument_of
from chrf._inputs import as_list
from chrf._messages import shown
from chrf._numbers import is_bool, is_float

# Not typing's own: the first score would import typing (see chrf/__init__.py).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from fractions import Fraction
    from typing import TypeAlias, TypeVar

    #: One weight per reference: ints, Fractions, or floats (taken at their exact values), NumPy
    #: scalars or arrays of them included.
    Weights: TypeAlias = Sequence[int | Fraction | float]
    Scaled = TypeVar("Scaled")
    #: Turns one weight list into the core's form (name: the argument, for messages).
    Scaling: TypeAlias = Callable[[object, int, str], list[Scaled]]
else:
    # Annotations only: the names exist for the modules that import them.
    Weights = Scaling = object


def item_weights(
    weights: object, reference_counts: list[int], batched: bool, scaling: Scaling[Scaled]
) -> list[list[Scaled] | None] | None:
    """Weights per batch item as the core takes them: None for equal weights everywhere; a
    batched call's weights hold one list (or None) per item, an unbatched call's one list."""
    if weights is None:
        return None
    if not batched:
        return [scaling(weights, reference_counts[0], "weights")]
    per_item = as_list(weights, "weights", "weight lists")
    if len(per_item) != len(reference_counts):
        raise InputError(
            f"weights has {len(per_item)} items but the batch has {len(reference_counts)}",
            argument="weights",
            reason="length_mismatch",
        )
    return [
        None if w is None else scaling(w, reference_counts[b], f"weights[{b}]")
        for b, w in enumerate(per_item)
    ]


def exact_ratios(weights: object, count: int, name: str) -> list[tuple[int, int]]:
    """Weights as exact (numerator, denominator) pairs of Python ints, as the core scales them;
    ValueError for a wrong count, a negative or non-finite weight or all zero, TypeError for
    non-numbers."""
    values = as_list(weights, name, "numbers")
    if len(values) != count:
        raise InputError(
            f"{name} has {len(values)} values but there are {count} references",
            argument=argument_of(name),
            reason="length_mismatch",
        )
    # Integer pairs, not Fractions: a Fraction's arithmetic reduces at every step.
    ratios = [exact_ratio(w, name, i) for i, w in enumerate(values)]
    if not any(numerator for numerator, _ in ratios):
        raise InputError(
            f"{name} must not all be zero", argument=argument_of(name), reason="all_zero"
        )
    return ratios


def exact_ratio(weight: object, name: str, index: int) -> tuple[int, int]:
    """A non-negative weight ``name[index]`` as its exact (numerator, denominator) of Python
    ints, the denominator positive.

    NumPy scalars are converted first: arithmetic on them wraps around silently at their width.
    """
    if is_float(weight):
        try:  # not math.isfinite(): a long double beyond the float range is finite
            numerator, denominator = weight.as_integer_ratio()
        except (OverflowError, ValueError):
            raise InputError(
                f"{name}[{index}] must be finite, not {float(weight)}",
                argument=argument_of(name),
                reason="not_finite",
            ) from None
    elif is_bool(weight):
        raise InputTypeError(
            f"{name}[{index}] must be a number, not bool",
            argument=argument_of(name),
            reason="wrong_type",
        )
    else:
        numerator, denominator = _integer_ratio(weight, f"{name}[{index}]")
    if numerator < 0:
        raise InputError(
            f"{name}[{index}] must not be negative, not {shown(weight)}",
            argument=argument_of(name),
            reason="negative",
        )
    return numerator, denominator


def _integer_ratio(weight: object, name: str) -> tuple[int, int]:
    """An integer or a Rational as (numerator, denominator), reduced."""
    try:
        return operator.index(weight), 1  # type: ignore[arg-type]
    except TypeError:
        pass
    if isinstance(weight, Rational):
        from fractions import Fraction  # only for a rational weight: fractions is loaded already

        try:
            exact = Fraction(operator.index(weight.numerator), operator.index(weight.denominator))
            return exact.numerator, exact.denominator
        except (TypeError, ZeroDivisionError):
            pass
    raise InputTypeError(
        f"{name} must be a number, not {type(weight).__name__}",
        argument=argument_of(name),
        reason="wrong_type",
    )
