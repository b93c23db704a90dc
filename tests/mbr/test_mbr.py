"""MBR: expected utility exact against a Fraction oracle built on chrf.pairwise (random pools,
weights of every kind, 1 and 2 threads, held-out WMT sentences), the argmax, the batched forms,
errors, and a self-MBR pool of 6,000 sentences in bounded memory. The expected utility's tests
run over both implementations (`impl`)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import textwrap
from fractions import Fraction
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import chrf
from chrf import _reference, _service
from chrf._reference.weights import binary_weights, smallest_integers
from implementations import error_of, sized
from strategies import chrf_settings, texts

pools = st.lists(texts, min_size=1, max_size=6)

#: Weights of every kind that scale together to 64-bit integers: ints, Fractions, floats,
#: NumPy integers and floats (the largest scaled: 2**20 * 2**27 * lcm(1..10) < 2**64).
small_weights = st.one_of(
    st.integers(0, 2**20),
    st.fractions(min_value=0, max_value=2**10, max_denominator=10),
    st.integers(0, 2**20).map(lambda k: k / 2**20),
    st.integers(0, 2**20).map(np.int64),
    st.sampled_from([np.float32(0.1), np.float16(0.5), np.float64(0.75), np.uint8(3)]),
)
weight_lists = st.one_of(
    st.lists(small_weights, min_size=1, max_size=7),
    st.lists(st.integers(0, 2**64 - 1), min_size=1, max_size=7),
)
#: Weights of any range, as model probabilities are: doubles from the least subnormal to the
#: largest, powers of two far past them, 64-bit integers beside them, and integers and Fractions
#: whose proportions need hundreds of bits: both the expected utility and reference aggregation
#: take them all.
wide_weights = st.one_of(
    st.floats(min_value=0, max_value=1e300, allow_subnormal=True),
    st.floats(min_value=0, max_value=1e-30),
    st.integers(-3000, 3000).map(lambda k: Fraction(2) ** k),
    st.integers(0, 2**64 - 1),
    st.sampled_from([np.float32(1e-30), np.float16(6e-8)]),
    # Past 64 bits as integers in proportion: wide ints, Fractions of large odd denominators.
    st.integers(0, 2**300),
    st.fractions(min_value=0, max_value=10, max_denominator=10**15),
)
wide_weight_lists = st.lists(wide_weights, min_size=1, max_size=7)


def exact(weight: Any) -> Fraction:
    """A weight's exact value, by its own arithmetic (not chrf's)."""
    if isinstance(weight, Fraction):
        return weight
    if isinstance(weight, (int, np.integer)):
        return Fraction(int(weight))
    return Fraction(*weight.as_integer_ratio())


def oracle(
    hyps: list[str],
    refs: list[str],
    weights: list[Any] | None,
    impl: ModuleType = chrf,
    **options: Any,
) -> list[float]:
    """Σ_j w_j · pairwise[i, j] / Σ_j w_j in Fractions, rounded once (float(Fraction) rounds
    correctly, ties to even), of `impl`'s pairwise scores."""
    matrix = impl.pairwise(hyps, refs, **options).tolist()
    ws = [exact(w) for w in weights] if weights is not None else [Fraction(1)] * len(refs)
    total = sum(ws, Fraction(0))
    return [
        float(sum((w * Fraction(s) for w, s in zip(ws, row, strict=True)), Fraction(0)) / total)
        for row in matrix
    ]


def one_per_reference(weights: list[Any] | None, refs: list[str]) -> list[Any] | None:
    if weights is None:
        return None
    weights = (weights * len(refs))[: len(refs)]
    if not any(exact(w) for w in weights):
        weights[0] = 1
    return weights


@given(pools, pools, st.none() | weight_lists | wide_weight_lists, chrf_settings(exact=False))
def test_expected_utility_is_the_exact_weighted_mean(
    hyps: list[str], refs: list[str], weights: list[Any] | None, settings: Any
) -> None:
    refs = refs + refs[:1]  # a reference twice: its weights add up in one column
    weights = one_per_reference(weights, refs)
    expected = oracle(hyps, refs, weights, **settings)
    try:
        for threads in (1, 2):
            chrf.set_num_threads(threads)
            got = chrf.expected_utility(hyps, refs, weights, **settings)
            assert got.dtype == np.float64
            assert got.tolist() == expected
    finally:
        chrf.set_num_threads(None)
    assert _reference.expected_utility(hyps, refs, weights, **settings).tolist() == expected


@given(pools, st.none() | weight_lists, st.sampled_from(["pairwise", "aggregate"]))
def test_mbr_chooses_the_first_of_highest_utility(
    pool: list[str], weights: list[Any] | None, method: str
) -> None:
    pool = pool + pool[::-1]  # ties: each text twice
    weights = one_per_reference(weights, pool)
    result = chrf.mbr(pool, weights=weights, method=method, word_order=2)  # type: ignore[arg-type]
    if method == "pairwise":
        utilities = oracle(pool, pool, weights, word_order=2)
        # The choice is by the exact utilities, which the rounded ones order but for ties.
        matrix = chrf.pairwise(pool, pool, word_order=2).tolist()
        ws = [exact(w) for w in weights] if weights is not None else [Fraction(1)] * len(pool)
        order = [
            sum((w * Fraction(s) for w, s in zip(ws, row, strict=True)), Fraction(0))
            for row in matrix
        ]
    else:
        utilities = order = chrf.aggregate(pool, pool, weights=weights, word_order=2).tolist()
    assert result.utilities.tolist() == utilities
    assert result.index == order.index(max(order))
    assert result.hypothesis == pool[result.index]


def held_out(wmt_dir: Path, count: int) -> list[str]:
    """Sentences of a test set no other test here reads: en-uk's two systems, interleaved."""
    folder = wmt_dir / "generaltest2022.en-uk"
    systems = sorted(folder.glob("hyp.*.txt"))
    lines = [path.read_text("utf-8").split("\n") for path in systems[:2]]
    return [text for pair in zip(*lines, strict=False) for text in pair][:count]


def test_exact_on_held_out_sentences(impl: ModuleType, wmt_dir: Path) -> None:
    pool = held_out(wmt_dir, sized(impl, 300, 30))
    refs = pool[sized(impl, 100, 10) :]
    rng = np.random.default_rng(5)
    # Model probabilities, float32 (torch's) and float64, and a softmax of log-probabilities
    # tens of nats apart: together they span far more than 64 bits.
    probabilities = rng.dirichlet(np.ones(len(refs)))
    lprobs = rng.normal(-40, 15, len(refs))
    ints = rng.integers(0, 2**63, len(refs), dtype=np.uint64)
    for weights, options in [
        (None, {}),
        (probabilities.astype(np.float32), {"word_order": 2}),
        (probabilities, {}),
        (np.exp(lprobs - lprobs.max()), {"char_order": 4, "word_order": 1}),
        (ints, {"eps_smoothing": True}),
        ([Fraction(k % 7, 3) for k in range(len(refs))], {"lowercase": True, "beta": 1}),
    ]:
        expected = oracle(pool, refs, None if weights is None else list(weights), impl, **options)
        got = impl.expected_utility(pool, refs, weights, **options)
        assert got.tolist() == expected, options


def test_mbr_on_held_out_sentences(wmt_dir: Path) -> None:
    pool = held_out(wmt_dir, 120)
    result = chrf.mbr(pool)
    expected = oracle(pool, pool, None)
    assert result.utilities.tolist() == expected
    assert result.index == int(np.argmax(expected))
    aggregated = chrf.mbr(pool, pool[:60], weights=range(1, 61), method="aggregate", word_order=2)
    scores = chrf.aggregate(pool, pool[:60], weights=range(1, 61), word_order=2)
    assert aggregated.utilities.tolist() == scores.tolist()
    assert aggregated.hypothesis == pool[int(np.argmax(scores))]


BATCH_HYPS = [["a cat", "the cat", "a cat"], ["a dog", "dogs", "the dog"]]
BATCH_REFS = [["the cat", "cats"], ["dog", "a dog", "", "dogs"]]
BATCH_WEIGHTS = [[1, 2], None]


def test_batched_forms_are_the_items_one_by_one(impl: ModuleType) -> None:
    hyps, refs, weights = BATCH_HYPS, BATCH_REFS, BATCH_WEIGHTS
    got = impl.expected_utility_batched(hyps, refs, weights, word_order=2)
    assert got.shape == (2, 3)
    assert got.dtype == np.float64
    for b in range(2):
        assert (
            got[b].tolist()
            == impl.expected_utility(hyps[b], refs[b], weights[b], word_order=2).tolist()
        )
    assert impl.expected_utility_batched([], []).shape == (0, 0)
    assert impl.expected_utility_batched([[]], [["a"]]).shape == (1, 0)


def test_mbr_batched_is_the_items_one_by_one() -> None:
    hyps, refs, weights = BATCH_HYPS, BATCH_REFS, BATCH_WEIGHTS
    results = chrf.mbr_batched(hyps, refs, weights, word_order=2)
    for b, result in enumerate(results):
        alone = chrf.mbr(hyps[b], refs[b], weights[b], word_order=2)
        assert (result.index, result.hypothesis) == (alone.index, alone.hypothesis)
        assert result.utilities.tolist() == alone.utilities.tolist()
    self_mbr = chrf.mbr_batched(hyps, method="aggregate")
    assert [r.index for r in self_mbr] == [chrf.mbr(h, method="aggregate").index for h in hyps]
    assert chrf.mbr_batched([]) == []


def test_empty_hypotheses(impl: ModuleType) -> None:
    assert impl.expected_utility([], ["a"]).shape == (0,)


def test_the_result_type() -> None:
    result = chrf.mbr(["b a", "a b", "a"], lowercase=True)
    assert isinstance(result, chrf.MBRResult)
    assert result.hypothesis in {"b a", "a b"}
    with pytest.raises(AttributeError):
        result.index = 2  # type: ignore[misc]


@pytest.mark.parametrize(
    ("entry", "args", "kwargs", "error", "message"),
    [
        ("expected_utility", (["a"], []), {}, ValueError, "references must not be empty"),
        ("expected_utility", (["a"], "ab"), {}, TypeError, "references must be a sequence"),
        ("expected_utility", (["a", 3], ["a"]), {}, TypeError, r"hypotheses\[1\] must be str"),
        ("expected_utility", (["a"], ["a", None]), {}, TypeError, r"references\[1\] must be str"),
        ("expected_utility", (["a"], ["a"], [1, 2]), {}, ValueError, "weights has 2 values"),
        (
            "expected_utility",
            (["a"], ["a"], [-1]),
            {},
            ValueError,
            r"weights\[0\] must not be negative",
        ),
        ("expected_utility", (["a"], ["a", "b"], [0, 0]), {}, ValueError, "must not all be zero"),
        (
            "expected_utility",
            (["a"], ["a"], ["1"]),
            {},
            TypeError,
            r"weights\[0\] must be a number",
        ),
        ("expected_utility", (["a"], ["a"]), {"beta": -1}, ValueError, "beta"),
        ("expected_utility", (["a"], ["a"]), {"colour": 1}, TypeError, "colour"),
        ("expected_utility_batched", ([["a"]], [[]]), {}, ValueError, r"references\[0\] must not"),
        (
            "expected_utility_batched",
            ([["a"]], [["a"]], [None, None]),
            {},
            ValueError,
            "weights has 2 items",
        ),
        (
            "expected_utility_batched",
            ([["a", 1]], [["a"]]),
            {},
            TypeError,
            r"hypotheses\[0\]\[1\] must be str",
        ),
        (
            "expected_utility_batched",
            ([["a"], ["b"]], [["a"], ["b"]], [[1], [np.float32("nan")]]),
            {},
            ValueError,
            r"weights\[1\]\[0\] must be finite",
        ),
    ],
)
def test_bad_arguments_are_named(
    impl: ModuleType,
    entry: str,
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
    error: type,
    message: str,
) -> None:
    with pytest.raises(error, match=message):
        getattr(impl, entry)(*args, **kwargs)
    compiled = error_of(getattr(chrf, entry), *args, **kwargs)
    assert error_of(getattr(_reference, entry), *args, **kwargs) == compiled


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda: chrf.mbr([]), ValueError, "hypotheses must not be empty"),
        (
            lambda: chrf.mbr(["a"], method="mean"),
            ValueError,
            "method must be 'pairwise' or 'aggregate'",
        ),
        (lambda: chrf.mbr(["a"], []), ValueError, "references must not be empty"),
        (
            lambda: chrf.mbr(["a", "b"], weights=[1]),
            ValueError,
            "weights has 1 values but there are 2",
        ),
        (lambda: chrf.mbr_batched([["a"], []]), ValueError, r"hypotheses\[1\] must not be empty"),
        (lambda: chrf.mbr_batched([["a"], ["b", "c"]]), ValueError, r"hypotheses\[1\] has 2 texts"),
    ],
)
def test_bad_mbr_arguments_are_named(call: Any, error: type, message: str) -> None:
    with pytest.raises(error, match=message):
        call()


def test_inputs_are_not_mutated(impl: ModuleType) -> None:
    hyps, refs, weights = ["a b", "b c"], ["a b", "c"], [Fraction(1, 3), 2.5]
    copies = (list(hyps), list(refs), list(weights))
    impl.expected_utility(hyps, refs, weights)
    impl.expected_utility_batched([hyps], [refs], [weights])
    assert (hyps, refs, weights) == copies
    chrf.mbr(hyps, refs, weights)
    assert (hyps, refs, weights) == copies


#: A self-MBR pool of 6,000 WMT sentences in a fresh interpreter: its peak resident memory,
#: and three rows checked against the oracle. The pairwise matrix alone would be 275 MiB in
#: doubles (137 MiB in single floats): a matrix kept whole, or a copy of one, goes past the
#: bound, which the pool's own peak stays well under. The bundled excerpts hold fewer lines than
#: that: the pool then goes on with pairs of their lines joined, as long as real sentences and
#: as varied.
POOL = 6_000
CHILD = textwrap.dedent(
    """
    import json, sys
    from fractions import Fraction
    from pathlib import Path
    import chrf

    wmt = Path(sys.argv[1])
    lines = []
    for name in ("generaltest2022.en-de", "generaltest2022.en-cs"):
        for path in sorted((wmt / name).glob("*.txt")):
            lines += path.read_text("utf-8").rstrip("\\n").split("\\n")
    joined = (f"{a} {b}" for a, b in zip(lines, lines[1:] + lines[:1]))
    size = int(sys.argv[2])
    pool = (lines + [text for text in joined])[:size]
    while len(pool) < size:
        pool += [f"{text} {len(pool)}" for text in pool[: size - len(pool)]]
    utilities = chrf.expected_utility(pool, pool)
    # VmHWM, not ru_maxrss: Linux keeps ru_maxrss across exec, so a child of a large test
    # process would report its parent's resident memory.
    with open("/proc/self/status") as status:
        peak = next(int(line.split()[1]) for line in status if line.startswith("VmHWM:")) * 1024
    rows = chrf.pairwise(pool[:3], pool).tolist()
    exact = [float(sum(map(Fraction, row), Fraction(0)) / len(pool)) for row in rows]
    print(json.dumps({"peak": peak, "size": len(pool), "rows": utilities[:3].tolist(),
                      "exact": exact}))
    """
)


@pytest.mark.skipif(sys.platform != "linux", reason="reads /proc/self/status")
def test_a_pool_of_6000_stays_within_150_mib(wmt_dir: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(wmt_dir), str(POOL)],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    out = json.loads(done.stdout)
    assert out["size"] == POOL
    assert out["rows"] == out["exact"]
    assert out["peak"] < 150 * 2**20, out["peak"] / 2**20


@given(pools, pools, wide_weight_lists, chrf_settings(exact=False))
def test_aggregate_with_weights_of_any_range_is_the_reference_s(
    hyps: list[str], refs: list[str], weights: list[Any], settings: Any
) -> None:
    weights = one_per_reference(weights, refs)
    try:
        expected = _reference.aggregate(hyps, refs, weights=weights, **settings).tolist()
    except ValueError as error:  # per_order_f with weights past 64 bits: refused alike
        with pytest.raises(ValueError, match=re.escape(str(error))):
            chrf.aggregate(hyps, refs, weights=weights, **settings)
        return
    assert chrf.aggregate(hyps, refs, weights=weights, **settings).tolist() == expected


def test_aggregate_takes_weights_of_a_wider_range(impl: ModuleType) -> None:
    # Once refused: reference aggregation counted in 64-bit integers only.
    pool = ["the cat sat", "a cat sat down", "the dog"]
    for weights in ([1.0, 1e-4, 0.5], [1e300, 1e-300, 1.0]):
        expected = _reference.aggregate(pool, pool, weights=weights).tolist()
        assert impl.aggregate(pool, pool, weights=weights).tolist() == expected
        assert chrf.mbr(pool, weights=weights, method="aggregate").utilities.tolist() == expected
        assert impl.expected_utility(pool, pool, weights).tolist() == oracle(pool, pool, weights)


@pytest.mark.parametrize(
    ("weights", "message"),
    [
        # Weights of any width are taken (tests/mbr/test_mbr_exact.py), but not of any span.
        ([Fraction(1, 2**70_000), 1, 1], r"weights span more than 2\*\*65536"),
        ([10**20_000, 1, 1], r"weights span more than 2\*\*65536"),
    ],
)
def test_expected_utility_refuses_what_it_cannot_hold(
    impl: ModuleType, weights: list[Any], message: str
) -> None:
    pool = ["the cat sat", "a cat sat down", "the dog"]
    with pytest.raises(ValueError, match=message):
        impl.expected_utility(pool, pool, weights)


@pytest.mark.parametrize("method", ["expected_utility_batched", "aggregate_batched"])
def test_a_batch_items_span_is_refused_naming_its_list(method: str) -> None:
    # The core scales the weights (chrf-core's batch/scaling.rs); the message names the item's
    # list as the Python scaling did, with the error family's argument and reason.
    pools = [["the cat sat", "a cat", "the dog"]] * 2
    weights = [None, [Fraction(1, 2**70_000), 1, 1]]
    with pytest.raises(chrf.InputError, match=r"^weights\[1\] span more than 2\*\*65536 ") as e:
        getattr(chrf, method)(pools, pools, weights=weights)
    assert (e.value.argument, e.value.reason) == ("weights", "out_of_range")


def test_wide_weights_in_batches_are_the_items_one_by_one(impl: ModuleType) -> None:
    pools = [["the cat sat", "a cat", "the dog"], ["cats", "a cat sat", "dogs sat"]]
    weights = [[1.0, 1e-200, 2.0**-1074], None]
    batched = impl.expected_utility_batched(pools, pools, weights)
    for b, pool in enumerate(pools):
        assert batched[b].tolist() == impl.expected_utility(pool, pool, weights[b]).tolist()


@given(weights=st.one_of(weight_lists, wide_weight_lists))
def test_the_cores_smallest_integers_are_the_references(weights: list[Any]) -> None:
    # The exact MBR choice sums its weights as the core scales them: no scaling of its own.
    if not any(weights):
        with pytest.raises(chrf.InputError, match="weights must not all be zero"):
            _service.smallest_integers(weights, len(weights))
        return
    expected = smallest_integers(weights, len(weights), "weights")
    assert _service.smallest_integers(weights, len(weights)) == expected


def test_weights_below_2_64_reach_the_core_unshifted() -> None:
    # Regression: even integer weights went as (w >> k, k) pairs, off the core's fast path.
    assert binary_weights([2, 4, 6, 2**63], 4, "weights") == [
        (0, 1, 0),
        (1, 2, 0),
        (2, 3, 0),
        (3, 2**62, 0),
    ]
    assert binary_weights([2.0**70, 1.0], 2, "weights") == [(0, 1, 70), (1, 1, 0)]
    assert binary_weights([3 * 2**80, 1], 2, "weights") == [(0, 3, 80), (1, 1, 0)]
    # Past 64 significant bits: one piece per non-zero 64-bit digit.
    assert binary_weights([2**64 + 1, 1], 2, "weights") == [(0, 1, 0), (0, 1, 64), (1, 1, 0)]
    assert binary_weights([(2**64 + 1) << 3, 1, 0], 3, "weights") == [
        (0, 1, 3),
        (0, 1, 67),
        (1, 1, 0),
        (2, 0, 0),
    ]


def test_weights_of_the_wrong_kind_are_told_what_weights_are() -> None:
    # Regression: `weights=3` said "must be a sequence of str", and a float Arrow array "must
    # be an Arrow column of strings": the messages of texts, for an argument of numbers.
    import pyarrow as pa

    hyps, refs = ["a b", "b c"], ["a", "b"]
    cases: list[tuple[object, str]] = [
        (3, "weights must be a sequence of numbers, not int"),
        ("12", "weights must be a sequence of numbers, not str"),
        ({1.0, 2.0}, r"weights must be a sequence of numbers, not set \(an unordered collection\)"),
        (pa.array([1.0, 2.0]), r"weights must be a sequence of numbers, not an Arrow column"),
    ]
    for weights, message in cases:
        for call in (chrf.aggregate, chrf.expected_utility):
            with pytest.raises(TypeError, match=message):
                call(hyps, refs, weights=weights)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"^weights must be a sequence of weight lists, not int$"):
        chrf.expected_utility_batched([hyps], [refs], weights=3)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"^systems must be a sequence of system outputs, not int"):
        chrf.compare(3, refs)  # type: ignore[arg-type]
