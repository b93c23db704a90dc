"""Memory: O(text) whatever the orders, given back after large calls, MemoryError not abort.

What is measured (resident memory, address-space limits) is measured in a fresh interpreter,
so that neither the test runner nor earlier tests skew it, and an abort there fails the test
instead of killing the run.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from sacrebleu.metrics import CHRF as SacreCHRF

import chrf
from chrf import _significance
from chrf._settings import Options

MIB = 2**20

PRELUDE = textwrap.dedent(
    """
    import json, os, random, resource
    import chrf

    def rss():
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")

    def peak():
        # VmHWM, not ru_maxrss: Linux carries ru_maxrss over exec from the parent, so under a
        # large test process ru_maxrss is the runner's memory, not this interpreter's.
        with open("/proc/self/status") as status:
            line = next(line for line in status if line.startswith("VmHWM:"))
        return int(line.split()[1]) * 1024

    def short_texts(n, seed):
        rng = random.Random(seed)
        words = ["the", "cat", "sat", "on", "mat", "dog", "ran", "a", "house", "tree."]
        return [" ".join(rng.choice(words) for _ in range(rng.randint(3, 12))) for _ in range(n)]

    def long_text(chars, seed):
        # 300,000 characters of random words, repeated: quick to build, as costly to score.
        rng = random.Random(seed)
        letters = "abcdefghijklmnopqrstuvwxyz"
        words = ["".join(rng.choices(letters, k=rng.randint(1, 9))) for _ in range(5000)]
        chunk = " ".join(rng.choices(words, k=60_000))[:300_000]
        return (chunk * (chars // len(chunk) + 1))[:chars]
    """
)


def run(code: str, timeout: float = 60) -> dict[str, Any]:
    """Runs `code` after PRELUDE in a fresh interpreter; it prints one JSON object."""
    try:
        done = subprocess.run(
            [sys.executable, "-c", PRELUDE + textwrap.dedent(code)],
            capture_output=True,
            text=True,
            timeout=timeout,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"still running after {timeout} s")
    assert done.returncode == 0, (done.returncode, done.stderr[-2000:])
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def test_peak_is_this_interpreters_own_not_its_parents() -> None:
    # Regression: peak() read ru_maxrss, which a child inherits from a large parent (CI's pytest
    # process near 600 MB made a 40 MB peak look like 540 MB).
    out = run(
        """
        import subprocess, sys
        held = bytearray(512 * 2**20)
        held[:: 4096] = b"x" * len(range(0, len(held), 4096))
        child = subprocess.run(
            [sys.executable, "-c", PRELUDE + "print(peak())"],
            capture_output=True, text=True, check=True,
        )
        print(json.dumps({"parent": peak(), "child": int(child.stdout)}))
        """.replace("PRELUDE", repr(PRELUDE))
    )
    assert int(out["parent"]) > 512 * MIB
    assert int(out["child"]) < 128 * MIB


def test_memory_is_given_back_after_a_30m_character_call() -> None:
    out = run(
        """
        hyp, ref = long_text(30_000_000, 1), long_text(30_000_000, 2)
        chrf.score(["warm up"], ["the pool"])
        before = rss()
        score = chrf.score([hyp], [ref])
        print(json.dumps({"before": before, "after": rss(), "score": score}))
        """
    )
    assert 0 < float(out["score"]) < 100
    assert int(out["after"]) - int(out["before"]) < 50 * MIB


def test_chrf_plus_plus_word_table_is_sized_by_distinct_tokens() -> None:
    out = run(
        """
        hyp, ref = long_text(10_000_000, 3), long_text(10_000_000, 4)
        chrf.score(["warm up"], ["the pool"], word_order=2)
        before = rss()
        chrf.score([hyp], [ref], word_order=2)
        print(json.dumps({"before": before, "after": rss(), "peak": peak()}))
        """
    )
    before, after, peak = (int(out[k]) for k in ("before", "after", "peak"))
    assert after - before < 50 * MIB
    # Units and windows of 10M characters need ~ 400 MB; a table of 4 slots per token would not
    # fit.
    assert peak - before < 600 * MIB


def test_an_output_too_large_for_the_address_space_is_a_memory_error() -> None:
    out = run(
        """
        texts = short_texts(25_000, 5)  # a 25,000 x 25,000 float64 matrix: 5 GB
        resource.setrlimit(resource.RLIMIT_AS, (4 * 2**30, 4 * 2**30))
        try:
            chrf.pairwise(texts, texts)
            error = None
        except MemoryError as e:
            error = str(e)
        after = chrf.pairwise(texts[:3], texts[:2]).shape
        print(json.dumps({"error": error, "after": list(after)}))
        """
    )
    assert out["error"] is not None
    assert "out of memory" in str(out["error"])
    assert out["after"] == [3, 2]  # the interpreter goes on


def test_long_orders_cost_what_the_texts_cost() -> None:
    # Without the address-space ceiling, the old O(texts x orders) layout took minutes and GBs.
    out = run(
        """
        hyps, refs = short_texts(4000, 6), short_texts(4000, 7)
        resource.setrlimit(resource.RLIMIT_AS, (3 * 2**30, 3 * 2**30))
        base = rss()
        long, short = {}, {}
        for order, scores in ((65_536, long), (6, short)):
            scores["score"] = chrf.score(hyps, refs, char_order=order, word_order=2)
            scores["sentence"] = chrf.sentence_scores(
                hyps, [refs, hyps[::-1]], char_order=order, eps_smoothing=True
            ).tolist()
            scores["pairwise"] = chrf.pairwise(hyps[:300], refs[:200], char_order=order).tolist()
            scores["aggregate"] = chrf.aggregate(hyps, refs, char_order=order).tolist()
        print(json.dumps({"long": long, "short": short, "grew": peak() - base}))
        """
    )
    # Typically tens of MB; the bound leaves room for a loaded run's peaks. Tables sized by the
    # orders asked for, not by the text, would take gigabytes for the aggregate alone.
    assert int(out["grew"]) < 512 * MIB
    long, short = out["long"], out["short"]
    assert isinstance(long, dict)
    assert isinstance(short, dict)
    # Orders 7 and up change the scores (their parity with sacreBLEU is checked below).
    assert long["score"] != short["score"]
    assert len(long["sentence"]) == 4000
    assert len(long["aggregate"]) == 4000


def closed_form(n: int, m: int, order: int, *, eps_smoothing: bool, beta: int = 2) -> float:
    """sacreBLEU's chrF of 'a' * n against 'a' * m (n >= m): order k has H = n-k+1, R = m-k+1
    and M = R up to m; past m the reference has none, so the hypothesis counts 0 too."""
    factor, eps = beta**2, 1e-16
    score, avg_prec, avg_rec, effective = 0.0, 0.0, 0.0, 0
    for k in range(1, order + 1):
        hyp, ref = (n - k + 1, m - k + 1) if k <= m else (0, 0)
        prec = ref / hyp if hyp > 0 else eps
        rec = ref / ref if ref > 0 else eps
        denom = factor * prec + rec
        score += (1 + factor) * prec * rec / denom if denom > 0 else eps
        if hyp > 0 and ref > 0:
            avg_prec += prec
            avg_rec += rec
            effective += 1
    if eps_smoothing:
        return 100 * score / order
    avg_prec, avg_rec = avg_prec / effective, avg_rec / effective
    score = (1 + factor) * avg_prec * avg_rec
    score /= factor * avg_prec + avg_rec
    return 100 * score


@pytest.mark.parametrize("eps_smoothing", [False, True])
def test_one_repeated_character_at_the_longest_order(eps_smoothing: bool) -> None:
    # The windows of 'a' * N all share their prefixes: sorting them as slices was quadratic.
    out = run(
        f"""
        a, b = "a" * 100_000, "a" * 70_000
        score = chrf.sentence_scores(
            [a], [b], char_order=65_536, eps_smoothing={eps_smoothing}
        ).tolist()[0]
        print(json.dumps({{"score": score, "same": chrf.score([a], [a], char_order=65_536)}}))
        """
    )
    assert out["same"] == 100.0
    assert out["score"] == closed_form(100_000, 70_000, 65_536, eps_smoothing=eps_smoothing)


@pytest.mark.parametrize("eps_smoothing", [False, True])
def test_orders_past_every_text_match_sacrebleu(eps_smoothing: bool) -> None:
    hyps = ["the cat sat on the mat", "a dog", "the the the", ""]
    refs = [
        ["the cat sat on a mat", "dogs", "the", "x"],
        ["a cat", "a dog ran", "the the", ""],
    ]
    metric = SacreCHRF(char_order=300, word_order=40, eps_smoothing=eps_smoothing)
    expected = [metric.sentence_score(h, [r[i] for r in refs]).score for i, h in enumerate(hyps)]
    options: Options = {"char_order": 300, "word_order": 40, "eps_smoothing": eps_smoothing}
    assert chrf.sentence_scores(hyps, refs, **options).tolist() == expected
    assert chrf.score(hyps, refs, **options) == metric.corpus_score(hyps, refs).score
    pairs = chrf.pairwise(hyps, refs[0], **options)
    for i, h in enumerate(hyps):
        for j, r in enumerate(refs[0]):
            assert pairs[i, j] == metric.sentence_score(h, [r]).score


def _twins(seed: int | None) -> tuple[np.random.Generator, np.random.Generator]:
    """Two generators in the same state: for seed None ("none", sacreBLEU's fresh entropy, and
    what a seed of 0 gives every system), the second copies the first's state."""
    first = np.random.default_rng(seed)
    second = np.random.default_rng(seed)
    second.bit_generator.state = first.bit_generator.state
    return first, second


@pytest.mark.parametrize("n", [0, 1, 3, 31, 32, 33, 1000, 4099])
@pytest.mark.parametrize("draw_bytes", [1, 7, 96, 32 << 20])
def test_draws_in_pieces_are_sacrebleus_whole_draws(
    n: int, draw_bytes: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # sacreBLEU draws every resample at once; the pieces must be the same numbers, and leave
    # the generator where the whole draw leaves it (the next draw continues the same stream).
    monkeypatch.setattr(_significance, "DRAW_BYTES", draw_bytes)
    for seed in (0, 1, 12345, 2**40, None):
        whole, pieces = _twins(seed)
        for rows in (1, 37, 150):
            expected = whole.choice(n, size=(rows, n), replace=True)
            got = list(_significance.resample_picks(pieces, n, rows))
            assert all(len(chunk) <= _significance.rows_per_draw(n) for chunk in got)
            assert np.array_equal(np.concatenate(got), expected), (seed, rows)
            expected_swaps = whole.integers(2, size=(rows, n), dtype=bool)
            swaps = np.concatenate(list(_significance.swap_draws(pieces, n, rows)))
            assert swaps.shape == expected_swaps.shape
            assert np.array_equal(swaps, expected_swaps), (seed, rows)


def test_boolean_draws_row_by_row_would_shift_the_stream() -> None:
    # Why swap_draws draws whole 32-bit words: NumPy drops a call's unused bits.
    whole = np.random.default_rng(12345).integers(2, size=(40, 33), dtype=bool)
    rng = np.random.default_rng(12345)
    row_by_row = np.concatenate([rng.integers(2, size=(1, 33), dtype=bool) for _ in range(40)])
    assert not np.array_equal(whole, row_by_row)


PEAK_OF_CHILD = """
import resource, subprocess, sys
subprocess.run(sys.argv[1:], check=True, stdout=subprocess.DEVNULL)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
"""


def test_resampling_memory_is_flat_in_segments_times_resamples(tmp_path: Path) -> None:
    # 25,000 segments x 1,000 resamples: drawn whole, as sacreBLEU draws them, the picks take
    # 200 MB a draw, well above the bound below, and the paired test holds two draws at once.
    rng = random.Random(3)
    words = ["".join(rng.choices("abcdefghij", k=rng.randint(2, 8))) for _ in range(2000)]
    lines = [" ".join(rng.choices(words, k=8)) for _ in range(25_000)]
    for name, shift in (("ref.txt", 0), ("a.txt", 1), ("b.txt", 2)):
        (tmp_path / name).write_text("\n".join(lines[shift:] + lines[:shift]) + "\n", "utf-8")

    def peak_kib(*args: str) -> int:
        command = [sys.executable, "-c", PEAK_OF_CHILD, sys.executable, "-m", "chrf.cli"]
        done = subprocess.run(
            [*command, "ref.txt", "-i", *args], cwd=tmp_path, capture_output=True, text=True
        )
        assert done.returncode == 0, done.stderr
        return int(done.stdout)

    plain = peak_kib("a.txt", "b.txt")
    for test in (["a.txt", "--confidence"], ["a.txt", "b.txt", "--paired-bs"]):
        assert peak_kib(*test, "-q") - plain < 128 * 1024, test


def test_long_texts_that_are_not_ascii_are_given_back_too() -> None:
    # Regression: the measurement, on text that is not ASCII (as real text is), kept
    # ~59 MiB after one call: reading a str's UTF-8 made CPython cache a copy inside the str,
    # for the str's life. The same sizes, chrF and chrF++, RSS from /proc/self/status.
    out = run(
        """
        import sys

        def vm_rss():
            with open("/proc/self/status") as status:
                line = next(line for line in status if line.startswith("VmRSS:"))
            return int(line.split()[1]) * 1024

        words = long_text(30_000_000, 8).replace("e", "é").replace("s", "ß")
        hyp, ref = words, words[::-1]
        sizes = [sys.getsizeof(hyp), sys.getsizeof(ref)]
        before, grew = vm_rss(), []
        for word_order in (0, 2):
            score = chrf.score([hyp], [ref], word_order=word_order)
            assert 0 < score < 100
            grew.append(vm_rss() - before)
        sizes_after = [sys.getsizeof(hyp), sys.getsizeof(ref)]
        print(json.dumps({"grew": grew, "sizes": [sizes, sizes_after]}))
        """,
        timeout=300,
    )
    sizes = out["sizes"]
    assert sizes[0] == sizes[1]  # the caller's strs hold no copy of their UTF-8 afterwards
    assert all(int(grew) < 50 * MIB for grew in out["grew"]), out["grew"]


def test_pairwise_of_one_long_pair_takes_the_memory_of_its_sort() -> None:
    # Regression: one pair went through the batch's shared bags, an id per shared window of
    # every order (~290 MB at 1M characters and order 40, against ~40 MB for its
    # sentence score); one pair is now scored as sentence_scores scores it.
    out = run(
        """
        text = long_text(1_000_000, 9)[:100_000]
        hyp, ref = text * 10, text[7:] * 10
        chrf.score(["warm up"], ["the pool"])
        base = rss()
        pair = float(chrf.pairwise([hyp], [ref], char_order=40)[0, 0])
        grew = peak() - base
        sentence = float(chrf.sentence_scores([hyp], [ref], char_order=40)[0])
        print(json.dumps({"grew": grew, "pair": pair, "sentence": sentence}))
        """,
        timeout=120,
    )
    assert out["pair"] == out["sentence"]
    assert int(out["grew"]) < 150 * MIB


def test_explaining_again_and_again_keeps_no_memory_of_earlier_calls() -> None:
    # A long `explain` again and again grew the process (297 to 366 MiB over repeats at 30M
    # characters). What grows is CPython's small-object arenas: each call makes and frees many
    # small objects, and a handful of survivors (free-listed tuples) keep some arenas alive, up
    # to the arenas of one call's peak. The memory the calls hold must not grow: Python's
    # (tracemalloc) nor the core's (malloc's blocks in use).
    out = run(
        """
        import ctypes, tracemalloc

        class MallInfo2(ctypes.Structure):
            _fields_ = [(name, ctypes.c_size_t) for name in (
                "arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks",
                "uordblks", "fordblks", "keepcost")]

        libc = ctypes.CDLL(None)
        libc.mallinfo2.restype = MallInfo2

        def in_use():
            info = libc.mallinfo2()
            return info.uordblks + info.hblkhd

        hyp = long_text(20_000, 9)
        ref = long_text(20_000, 10)
        chrf.set_num_threads(1)
        for _ in range(2):
            chrf.explain([hyp], [ref])
        tracemalloc.start()
        python_before, native_before = tracemalloc.get_traced_memory()[0], in_use()
        for _ in range(8):
            chrf.explain([hyp], [ref])
        python_after, native_after = tracemalloc.get_traced_memory()[0], in_use()
        kept = chrf.explain([hyp], [ref])  # what one leaked explanation would hold
        one = tracemalloc.get_traced_memory()[0] - python_after
        print(json.dumps({"python": python_after - python_before,
                          "native": native_after - native_before, "one": one}))
        """,
        timeout=300,
    )
    assert out["python"] < out["one"] // 2, out  # less than half of one explanation kept
    assert out["native"] < MIB, out
