"""The pure-Python reference: SPEC.md written as directly as Python allows, with no Rust.

It is slow on purpose: Counters of n-gram strings, `fractions.Fraction` arithmetic, and
sacreBLEU's float formula copied expression for expression (`metric`). Its functions are the
public functions' twins, with their signatures and result types (`corpus`, `batch`, `explain`),
so that the test suite runs the same tests over both (tests/conftest.py's `impl` fixture). The
arguments are read as the public functions read them (`texts`): only the arithmetic is twinned.
The compiled path must agree with it exactly on every field; hypothesis property tests and
`chrf.selftest()` check that it does.
"""

from __future__ import annotations

from chrf._reference.batch import (
    aggregate,
    aggregate_batched,
    expected_utility,
    expected_utility_batched,
    pairwise,
    pairwise_batched,
)
from chrf._reference.corpus import (
    components,
    score,
    segment_statistics,
    sentence_scores,
    statistics,
)
from chrf._reference.explain import explain
from chrf._reference.metric import sentence_score

__all__ = [
    "aggregate",
    "aggregate_batched",
    "components",
    "expected_utility",
    "expected_utility_batched",
    "explain",
    "pairwise",
    "pairwise_batched",
    "score",
    "segment_statistics",
    "sentence_score",
    "sentence_scores",
    "statistics",
]
