"""Sentence scores, pairwise matrices and reference aggregation: exact against the definitions,
sacreBLEU and fastchrf; shapes, weights, thread counts and fork. All but the threads and fork
run over both implementations (`impl`)."""

from __future__ import annotations

import multiprocessing
import os
import subprocess
import sys
from fractions import Fraction
from numbers import Rational
from pathlib import Path
from types import ModuleType
from typing import Any

import fastchrf
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from sacrebleu.metrics import CHRF as SacreCHRF

import chrf
from chrf import _reference
from implementations import error_of, is_reference, sized
from strategies import chrf_settings, corpora, texts
from wmt import cases

pools = st.lists(texts, min_size=1, max_size=6)


@given(corpora(), chrf_settings(exact=False))
def test_sentence_scores_are_the_reference_sentence_scores(corpus: Any, settings: Any) -> None:
    hyps, refs = corpus
    streams = refs if isinstance(refs[0], list) else [refs]
    got = chrf.sentence_scores(hyps, refs, layout="streams", **settings)
    assert got.dtype == np.float64
    assert got.shape == (len(hyps),)
    expected = [
        _reference.sentence_score(h, [s[i] for s in streams], chrf.Settings(**settings))
        for i, h in enumerate(hyps)
    ]
    assert got.tolist() == expected
    assert _reference.sentence_scores(hyps, refs, layout="streams", **settings).tolist() == expected


@given(pools, pools, chrf_settings(exact=False))
def test_pairwise_is_every_pair_scored_alone(
    hyps: list[str], refs: list[str], settings: Any
) -> None:
    got = chrf.pairwise(hyps, refs, **settings)
    assert got.shape == (len(hyps), len(refs))
    assert got.tolist() == _reference.pairwise(hyps, refs, **settings).tolist()


@given(pools, chrf_settings(exact=False))
def test_pairwise_of_a_pool_with_itself_handles_duplicates(pool: list[str], settings: Any) -> None:
    doubled = pool + pool[::-1]
    got = chrf.pairwise(doubled, doubled, **settings)
    assert got.tolist() == _reference.pairwise(doubled, doubled, **settings).tolist()


@given(
    pools,
    pools,
    st.none() | st.lists(st.integers(0, 5), min_size=6, max_size=6),
    chrf_settings(exact=False),
)
def test_aggregate_is_the_weighted_mean_bag(
    hyps: list[str], refs: list[str], weights: list[int] | None, settings: Any
) -> None:
    if weights is not None:
        weights = weights[: len(refs)]
        if not any(weights):
            weights[0] = 1
    got = chrf.aggregate(hyps, refs, weights=weights, **settings)
    assert got.tolist() == _reference.aggregate(hyps, refs, weights=weights, **settings).tolist()


def test_sentence_scores_equal_sacrebleu_on_wmt(impl: ModuleType, wmt_dir: Path) -> None:
    for case in cases(wmt_dir):
        hyps, refs = case.hypotheses(), case.references()
        edges = case.expected["sentence_scores_edge_segments"]
        if is_reference(impl):  # the segments with expected values only: the whole is slow
            picked = [*range(50), *map(int, edges)]
            hyps, refs = [hyps[i] for i in picked], [[r[i] for i in picked] for r in refs]
            edges = {50 + k: value for k, value in enumerate(edges.values())}
        got = impl.sentence_scores(hyps, refs, **case.options)
        assert got[:50].tolist() == case.expected["sentence_scores_first_50"], case.id
        for index, value in edges.items():
            assert got[int(index)] == value, case.id


def wmt_pool(wmt_dir: Path, size: int) -> list[str]:
    case = next(iter(cases(wmt_dir)))
    return case.hypotheses()[:size]


def test_pairwise_and_aggregate_equal_fastchrf_on_wmt(impl: ModuleType, wmt_dir: Path) -> None:
    pool = wmt_pool(wmt_dir, sized(impl, 96, 24))
    assert impl.pairwise(pool, pool).tolist() == fastchrf.pairwise_chrf([pool], [pool])[0]
    assert impl.aggregate(pool, pool).tolist() == fastchrf.aggregate_chrf([pool], [pool])[0]
    rows, columns = sized(impl, 20, 10), sized(impl, 30, 15)
    eps = fastchrf.pairwise_chrf(
        [pool[:rows]], [pool[:columns]], char_order=4, beta=1.0, eps_smoothing=True
    )
    assert (
        impl.pairwise(
            pool[:rows], pool[:columns], char_order=4, beta=1, eps_smoothing=True
        ).tolist()
        == eps[0]
    )


def test_pairwise_equals_sacrebleu_sentence_scores_on_wmt(impl: ModuleType, wmt_dir: Path) -> None:
    pool = wmt_pool(wmt_dir, 12)
    metric = SacreCHRF(word_order=2)
    expected = [[metric.sentence_score(h, [r]).score for r in pool] for h in pool]
    assert impl.pairwise(pool, pool, word_order=2).tolist() == expected


def test_batched_shapes_match_fastchrf(impl: ModuleType) -> None:
    hyps = [["a cat", "the cat"], ["a dog", "dogs"], ["x", "y"]]
    refs = [["the cat", "cats", "a cat"], ["dog", "a dog", ""], ["y", "x", "z"]]
    got = impl.pairwise_batched(hyps, refs)
    assert got.shape == (3, 2, 3)
    assert got.dtype == np.float64
    assert got.tolist() == fastchrf.pairwise_chrf(hyps, refs)
    agg = impl.aggregate_batched(hyps, refs)
    assert agg.shape == (3, 2)
    assert agg.tolist() == fastchrf.aggregate_chrf(hyps, refs)
    for b in range(3):
        assert agg[b].tolist() == impl.aggregate(hyps[b], refs[b]).tolist()
        assert got[b].tolist() == impl.pairwise(hyps[b], refs[b]).tolist()
    assert impl.pairwise_batched([], []).shape == (0, 0, 0)
    assert impl.pairwise_batched([["a"]], [[]]).shape == (1, 1, 0)
    assert impl.aggregate_batched([[]], [["a"]]).shape == (1, 0)
    assert impl.pairwise([], []).shape == (0, 0)
    assert impl.aggregate([], ["a"]).shape == (0,)


def test_ragged_batches_are_refused_with_the_item_named(impl: ModuleType) -> None:
    with pytest.raises(ValueError, match=r"hypotheses\[1\] has 1 texts but hypotheses\[0\] has 2"):
        impl.pairwise_batched([["a", "b"], ["c"]], [["a"], ["b"]])
    with pytest.raises(ValueError, match="batch items"):
        impl.pairwise_batched([["a"]], [["a"], ["b"]])
    with pytest.raises(TypeError, match=r"hypotheses\[0\]\[1\] must be str, not int"):
        impl.pairwise_batched([["a", 1]], [["a"]])
    with pytest.raises(ValueError, match=r"references\[1\] must not be empty"):
        impl.aggregate_batched([["a"], ["b"]], [["a"], []])


#: Bad texts and shapes of the batch functions, and how each is named (batched: `[b][i]`).
BAD_BATCH_CALLS = [
    (
        "pairwise_batched",
        ([["a", "b"], ["c", 2]], [["a"], ["b"]]),
        TypeError,
        "hypotheses[1][1] must be str, not int",
    ),
    (
        "pairwise_batched",
        ([["a"]], [["a\ud800"]]),
        ValueError,
        "references[0][0] is not valid Unicode text",
    ),
    (
        "aggregate_batched",
        ([["a"]], [["a", None]]),
        TypeError,
        "references[0][1] must be str, not NoneType",
    ),
    (
        "aggregate_batched",
        ([["a"]], "ab"),
        TypeError,
        "references must be a sequence of str, not str",
    ),
    ("aggregate", (["a"], []), ValueError, "references must not be empty"),
    ("aggregate", ({"a"}, ["a"]), TypeError, "hypotheses must be a sequence of str, not set"),
    ("pairwise", (["a"], b"ab"), TypeError, "references must be a sequence of str, not bytes"),
    ("expected_utility", (["a", 3], ["a"]), TypeError, "hypotheses[1] must be str, not int"),
    ("expected_utility_batched", ([["a"]], [["a", 3]]), TypeError, "references[0][1] must be str"),
]


@pytest.mark.parametrize(("entry", "args", "error", "message"), BAD_BATCH_CALLS)
def test_batch_functions_name_bad_texts(
    impl: ModuleType, entry: str, args: tuple[Any, Any], error: type, message: str
) -> None:
    with pytest.raises(error) as raised:
        getattr(impl, entry)(*args)
    assert message in str(raised.value)
    assert error_of(getattr(_reference, entry), *args) == error_of(getattr(chrf, entry), *args)


@pytest.mark.parametrize(
    ("entry", "args", "message"),
    [
        ("pairwise", (["a", 1], ["a"]), "hypotheses[1] must be str, not int"),
        ("pairwise", (["a"], ["a", 1]), "references[1] must be str, not int"),
        ("aggregate", (["a", 1], ["a"]), "hypotheses[1] must be str, not int"),
        ("aggregate", (["a"], ["a", None]), "references[1] must be str, not NoneType"),
    ],
)
def test_unbatched_calls_name_texts_without_a_batch_index(
    impl: ModuleType, entry: str, args: tuple[Any, Any], message: str
) -> None:
    # As expected_utility names them: `hypotheses[1]`, the caller's argument, not the lone
    # batch item the core makes of it (`hypotheses[0][1]`).
    with pytest.raises(TypeError) as raised:
        getattr(impl, entry)(*args)
    assert str(raised.value) == message


def test_weights_are_exact_proportions(impl: ModuleType) -> None:
    pool = ["the cat sat", "a cat sat down", "the dog", "cats"]
    refs = pool[:3]
    by_float = impl.aggregate(pool, refs, weights=[0.5, 0.25, 0.25])
    by_int = impl.aggregate(pool, refs, weights=[2, 1, 1])
    by_fraction = impl.aggregate(
        pool, refs, weights=[Fraction(2, 3), Fraction(1, 3), Fraction(1, 3)]
    )
    repeated = impl.aggregate(pool, [refs[0], refs[0], refs[1], refs[2]])
    assert by_float.tolist() == by_int.tolist() == by_fraction.tolist() == repeated.tolist()
    assert (
        impl.aggregate(pool, refs, weights=[0, 1, 0]).tolist()
        == impl.pairwise(pool, [refs[1]])[:, 0].tolist()
    )


class ZeroDenominator:
    """A Rational (registered as one) that is no number: its denominator is 0."""

    numerator, denominator = 1, 0


Rational.register(ZeroDenominator)


@pytest.mark.parametrize(
    ("weights", "error", "message"),
    [
        ([1, 2], ValueError, "weights has 2 values but there are 3 references"),
        # Regression: a ZeroDivisionError escaped.
        ([1, ZeroDenominator(), 1], TypeError, r"weights\[1\] must be a number, not ZeroDen"),
        ([1, -1, 1], ValueError, r"weights\[1\] must not be negative"),
        ([0, 0, 0], ValueError, "must not all be zero"),
        ([1, "2", 1], TypeError, r"weights\[1\] must be a number, not str"),
        ([1, True, 1], TypeError, r"weights\[1\] must be a number, not bool"),
        ([1.0, float("nan"), 1.0], ValueError, r"weights\[1\] must be finite"),
    ],
)
def test_bad_weights(impl: ModuleType, weights: list[Any], error: type, message: str) -> None:
    with pytest.raises(error, match=message):
        impl.aggregate(["a"], ["a", "b", "c"], weights=weights)
    with pytest.raises(error, match=message):
        impl.expected_utility(["a"], ["a", "b", "c"], weights)


POOL = ["the cat sat", "a cat sat down", "the dog", "cats"]


@pytest.mark.parametrize(
    ("weights", "exact"),
    [
        # Scaling these by the denominator 8 overflowed int32 (2**33) and gave [0, 0].
        ([np.int32(2**30), Fraction(1, 8)], [2**33, 1]),
        ([np.int64(2**62 + 1), 1], [2**62 + 1, 1]),
        ([np.uint64(2**64 - 1), np.uint8(1)], [2**64 - 1, 1]),
        ([np.int8(3), Fraction(np.int16(1), np.int16(3))], [9, 1]),
        (
            [np.float16(0.1), np.float32(0.1)],
            [
                Fraction(*np.float16(0.1).as_integer_ratio()),
                Fraction(*np.float32(0.1).as_integer_ratio()),
            ],
        ),
        ([np.longdouble(0.5), np.float64(0.25)], [2, 1]),
        (np.array([2, 1], dtype=np.int32), [2, 1]),
        (np.array([2**63, 1], dtype=np.uint64), [2**63, 1]),
        (np.array([0.5, 0.25], dtype=np.float16), [2, 1]),
        (np.array([0.5, 0.25], dtype=np.longdouble), [2, 1]),
        pytest.param(
            [np.longdouble(2) ** 1100, np.longdouble(2) ** 1090],
            [1024, 1],
            marks=pytest.mark.skipif(
                np.finfo(np.longdouble).maxexp <= 1024, reason="long double is a double here"
            ),
        ),
        (np.array([Fraction(1, 3), 1], dtype=object), [1, 3]),
    ],
)
def test_numpy_weights_are_taken_at_their_exact_values(
    impl: ModuleType, weights: Any, exact: list[Any]
) -> None:
    refs = POOL[:2]
    assert impl.aggregate(POOL, refs, weights=weights).tolist() == (
        impl.aggregate(POOL, refs, weights=exact).tolist()
    )


def test_numpy_weights_too_wide_for_64_bits_are_not_wrapped_around(impl: ModuleType) -> None:
    # 8 * (2**62 + 1) does not fit 64 bits: counted in wide integers, not wrapped around.
    got = impl.aggregate(POOL, POOL[:2], weights=[np.int64(2**62 + 1), Fraction(1, 8)])
    exact = _reference.aggregate(POOL, POOL[:2], weights=[8 * (2**62 + 1), 1])
    assert got.tolist() == exact.tolist()


@pytest.mark.parametrize(
    ("weights", "error", "message"),
    [
        ([1, np.bool_(True)], TypeError, r"weights\[1\] must be a number, not bool"),
        (np.array([True, False]), TypeError, r"weights\[0\] must be a number, not bool"),
        ([1, np.complex64(1)], TypeError, r"weights\[1\] must be a number, not complex64"),
        ([1, 1j], TypeError, r"weights\[1\] must be a number, not complex"),
        ([1, np.timedelta64(1, "s")], TypeError, r"weights\[1\] must be a number, not timedelta"),
        (np.array(["1", "2"]), TypeError, r"weights\[0\] must be a number, not str"),
        ([1, np.float32("nan")], ValueError, r"weights\[1\] must be finite, not nan"),
        ([np.float16("inf"), 1], ValueError, r"weights\[0\] must be finite, not inf"),
        (np.array([1, -np.inf]), ValueError, r"weights\[1\] must be finite, not -inf"),
        ([np.int8(-1), 1], ValueError, r"weights\[0\] must not be negative, not np.int8\(-1\)"),
        (np.array([1.0, -0.5], dtype=np.float32), ValueError, r"weights\[1\] must not be negative"),
        (np.array([[1, 2], [3, 4]]), TypeError, r"weights\[0\] must be a number, not ndarray"),
        (np.float64(1.0), TypeError, "weights must be a sequence"),
    ],
)
def test_bad_numpy_weights(impl: ModuleType, weights: Any, error: type, message: str) -> None:
    with pytest.raises(error, match=message):
        impl.aggregate(POOL, POOL[:2], weights=weights)


CHILD = """
import json, sys, chrf
pool = [f"sample {i} of the pool, {'abc' * (i % 7)}" for i in range(300)]
print(json.dumps([chrf._chrf.thread_count(), chrf.pairwise(pool, pool, word_order=2).sum().hex(),
                  chrf.aggregate(pool, pool).tolist(), chrf.score(pool, pool[::-1])]))
"""


def test_results_do_not_depend_on_the_thread_count() -> None:
    outputs = []
    for threads in ("1", "2", "3"):
        env = {**os.environ, "CHRF_NUM_THREADS": threads}
        done = subprocess.run(
            [sys.executable, "-c", CHILD], env=env, capture_output=True, text=True, check=True
        )
        outputs.append(done.stdout)
    counts = [out.split(",", 1)[0] for out in outputs]
    assert counts == ["[1", "[2", "[3"]
    assert len({out.split(",", 1)[1] for out in outputs}) == 1


def _score_in_child(pool: list[str]) -> list[float]:
    return chrf.pairwise(pool, pool).sum(axis=1).tolist()


@pytest.mark.skipif(sys.platform == "win32", reason="fork is POSIX")
def test_the_pool_works_in_a_forked_child() -> None:
    pool = [f"text number {i} {'xyz' * i}" for i in range(200)]
    expected = _score_in_child(pool)  # starts the pool in the parent
    context = multiprocessing.get_context("fork")
    with context.Pool(2) as workers:
        # A pool inherited across fork would wait forever: bound the wait instead.
        results = workers.map_async(_score_in_child, [pool, pool], chunksize=1).get(timeout=60)
    assert results == [expected, expected]
