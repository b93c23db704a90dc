"""The command line's option values: argparse `type=` functions, so that every bad value is
argparse's one-line error naming the option, with exit status 2, before any input is read.

Each bound is where a larger value stops meaning anything, not a guess at what is "enough":
see the constants.
"""

from __future__ import annotations

import argparse
import math
import re
import sys
from fractions import Fraction

from chrf._messages import shown
from chrf._settings import MAX_BETA_BITS, MAX_ORDER, Beta

__all__ = [
    "MAX_NUM_REFS",
    "MAX_WIDTH",
    "beta",
    "count",
    "non_negative_int",
    "num_refs",
    "order",
    "positive_int",
    "width",
]

#: The most decimals a score can show: a double's exact decimal expansion ends within 1,074
#: fractional digits (the smallest subnormal is 2**-1074), so a wider width only adds zeros.
#: sacreBLEU has no bound; a format string of millions of digits fails in Python's formatting.
MAX_WIDTH = 1074
#: References per line of one tab-separated file (-nr): far beyond any multi-reference test set
#: (WMT's have 2 to 4), and few enough that the per-stream bookkeeping set up before the first
#: line is read stays small (sacreBLEU allocates a list per stream up front, and runs out of
#: memory on -nr 99999999999 as well).
MAX_NUM_REFS = 10_000
#: Counts that size NumPy arrays or index Python sequences (resamples, trials, --top) are C
#: integers.
MAX_COUNT = sys.maxsize

_INTEGER = re.compile(r"\s*[+-]?\d[\d_]*\s*")


def _integer(text: str, low: int, high: int, what: str) -> int:
    try:
        value = int(text)
    except ValueError:  # not an integer, or more digits than Python converts
        value = None
    if value is None or not low <= value <= high:
        raise argparse.ArgumentTypeError(f"must be {what}, not {shown(text)}")
    return value


def positive_int(text: str) -> int:
    """An integer of at least 1 (and at most a C integer)."""
    return _integer(text, 1, MAX_COUNT, f"an integer from 1 to {MAX_COUNT}")


def non_negative_int(text: str) -> int:
    """An integer of at least 0 (and at most a C integer)."""
    return _integer(text, 0, MAX_COUNT, f"an integer from 0 to {MAX_COUNT}")


def count(text: str) -> int:
    """Any integer up to a C integer (sacreBLEU's -cin: 1 or less means no resampling)."""
    return _integer(text, -MAX_COUNT, MAX_COUNT, f"an integer from {-MAX_COUNT} to {MAX_COUNT}")


def order(text: str) -> int:
    """-cc and -cw: the orders Settings takes."""
    return _integer(text, 0, MAX_ORDER, f"an integer from 0 to {MAX_ORDER}")


def width(text: str) -> int:
    """-w: decimals, up to the last one a double can have (see `MAX_WIDTH`)."""
    return _integer(text, 0, MAX_WIDTH, f"an integer from 0 to {MAX_WIDTH}")


def num_refs(text: str) -> int:
    """-nr: references per line (see `MAX_NUM_REFS`)."""
    return _integer(text, 1, MAX_NUM_REFS, f"an integer from 1 to {MAX_NUM_REFS}")


def beta(text: str) -> Beta:
    """--chrf-beta: an integer, a fraction p/q (read exactly) or a decimal (read as the nearest
    float), at least 0 (0 is chrF0, precision only), finite, and a ratio of integers of at most
    `MAX_BETA_BITS` bits as Settings requires."""
    value = _beta_value(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must not be negative, not {shown(text)}")
    exact = Fraction(value)
    if max(exact.numerator.bit_length(), exact.denominator.bit_length()) > MAX_BETA_BITS:
        raise _too_wide(text)
    return value if value != 0 else type(value)(0)  # -0.0 is 0.0


def _beta_value(text: str) -> Beta:
    if "/" in text:
        try:
            return Fraction(text)
        except (ValueError, ZeroDivisionError):  # also more digits than Python converts
            raise argparse.ArgumentTypeError(
                f"must be p/q with integers p and q, q not 0, not {shown(text)}"
            ) from None
    if _INTEGER.fullmatch(text):
        try:
            return int(text)
        except ValueError:  # more digits than Python converts: far wider than MAX_BETA_BITS
            raise _too_wide(text) from None
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"must be a number (an integer, p/q or a decimal), not {shown(text)}"
        ) from None
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(
            f"must be a finite number, not {shown(text)}"
            + ("" if re.search(r"(?i)nan|inf", text) else " (beyond the largest float)")
        )
    if value == 0 and re.search(r"[1-9]", text.lower().partition("e")[0]):
        raise argparse.ArgumentTypeError(
            f"{shown(text)} is too small for a float (it would be 0, chrF0): write it as p/q"
        )
    return value


def _too_wide(text: str) -> argparse.ArgumentTypeError:
    return argparse.ArgumentTypeError(
        f"must be a ratio of integers of at most {MAX_BETA_BITS} bits, not {shown(text)}"
    )
