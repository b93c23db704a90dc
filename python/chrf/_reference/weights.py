"""The reference's scaling of weights: exact ratios (`chrf._weights.exact_ratios`) to the
smallest integers in the same proportions, and those to the pieces the compiled core takes,
written in Python on their own so that the core's scaling (rust/chrf-core's batch/scaling.rs)
is held to them."""

from __future__ import annotations

import math

from chrf._errors import InputError, argument_of
from chrf._weights import exact_ratios

#: The largest integer weight of the core, and the largest mantissa of a piece of a weight.
MAX_WEIGHT = 2**64 - 1
#: The largest shift of a piece of a weight: weights spanning more than 2**65536, far beyond the
#: 2**2098 of floats, would size the exact sums by their span.
MAX_SHIFT = 2**16


def binary_weights(weights: object, count: int, name: str) -> list[tuple[int, int, int]]:
    """Weights as pieces (reference, mantissa, shift) in the same proportions, reference j's
    weight the sum of its pieces' mantissa * 2**shift, each mantissa below 2**64: the
    expected utility takes any int, Fraction or float exactly. A weight below 2**64 is one
    piece of shift 0 (the core's fast path is for unshifted weights); a wider one is shifted
    by its trailing zero bits and split into its non-zero 64-bit digits (the core sums them
    back for reference aggregation; the expected utility adds them one by one). ValueError if the
    weights span more than 2**MAX_SHIFT, whose exact sums would be sized by the span."""
    pieces = []
    for j, integer in enumerate(smallest_integers(weights, count, name)):
        if integer <= MAX_WEIGHT:
            pieces.append((j, integer, 0))
            continue
        if integer.bit_length() > MAX_SHIFT + 64:
            raise InputError(
                f"{name} span more than 2**{MAX_SHIFT} from the least to the most",
                argument=argument_of(name),
                reason="out_of_range",
            )
        shift = (integer & -integer).bit_length() - 1
        mantissa = integer >> shift
        while mantissa:
            if digit := mantissa & MAX_WEIGHT:
                pieces.append((j, digit, shift))
            mantissa >>= 64
            shift += 64
    return pieces


def smallest_integers(weights: object, count: int, name: str) -> list[int]:
    """Weights as the smallest integers in the same proportions (exact: floats are taken at
    their binary value); errors as `exact_ratios`."""
    ratios = exact_ratios(weights, count, name)
    denominator = math.lcm(*{d for _, d in ratios})
    integers = [n * (denominator // d) for n, d in ratios]
    divisor = math.gcd(*integers)
    return [w // divisor for w in integers]
