"""The command line's option values: argparse `type=` functions, so that every bad value is
argparse's one-line error naming the option, with exit status 2, before any input is read. The
chrF settings' values are read by their kinds, in the option table (`chrf._options`).

Each bound is where a larger value stops meaning anything, not a guess at what is "enough":
see the constants.
"""

from __future__ import annotations

import argparse
import sys

from chrf._messages import shown

__all__ = [
    "MAX_NUM_REFS",
    "MAX_WIDTH",
    "count",
    "non_negative_int",
    "num_refs",
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


def width(text: str) -> int:
    """-w: decimals, up to the last one a double can have (see `MAX_WIDTH`)."""
    return _integer(text, 0, MAX_WIDTH, f"an integer from 0 to {MAX_WIDTH}")


def num_refs(text: str) -> int:
    """-nr: references per line (see `MAX_NUM_REFS`)."""
    return _integer(text, 1, MAX_NUM_REFS, f"an integer from 1 to {MAX_NUM_REFS}")
