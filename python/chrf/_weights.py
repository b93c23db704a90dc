"""Weights of references, validated as exact numbers and scaled to the smallest integers in the
same proportions, as the core takes them."""

from __future__ import annotations

import math
import operator
from collections.abc import Sequence
from fractions import Fraction
from numbers import Rational
from typing import TypeAlias

from chrf._inputs import as_list
from chrf._messages import shown
from chrf._numbers import is_bool, is_float

#: One weight per reference: ints, Fractions, or floats (taken at their exact values), NumPy
#: scalars or arrays of them included.
Weights: TypeAlias = Sequence[int | Fraction | float]
#: Weights must fit 64 bits once scaled to integers with a common denominator.
MAX_WEIGHT = 2**64 - 1


def item_weights(
    weights: object, reference_counts: list[int], batched: bool
) -> list[list[int] | None] | None:
    """Weights per batch item as the core takes them: None for equal weights everywhere; a
    batched call's weights hold one list (or None) per item, an unbatched call's one list."""
    if weights is None:
        return None
    if batched:
        return batch_weights(weights, reference_counts)
    return [integer_weights(weights, reference_counts[0], "weights")]


def batch_weights(weights: object, reference_counts: list[int]) -> list[list[int] | None]:
    """One weight list (or None, equal weights) per batch item, each scaled for its references."""
    per_item = as_list(weights, "weights")
    if len(per_item) != len(reference_counts):
        raise ValueError(
            f"weights has {len(per_item)} items but the batch has {len(reference_counts)}"
        )
    return [
        None if w is None else integer_weights(w, reference_counts[b], f"weights[{b}]")
        for b, w in enumerate(per_item)
    ]


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
