"""Threads, fork and Ctrl-C: nothing hangs, nothing panics, a long call stops when asked."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import chrf

ROOT = Path(__file__).resolve().parent.parent
POSIX_ONLY = pytest.mark.skipif(sys.platform == "win32", reason="fork and SIGINT are POSIX")

LONG_CALLS = """
import random, sys, time, chrf
random.seed(1)
words = ["".join(random.choice("abcdefghij") for _ in range(random.randint(2, 8)))
         for _ in range(3000)]
texts = [" ".join(random.choice(words) for _ in range(25)) for _ in range(4000)]
# pairwise needs long texts to take seconds: on sentences of 25 words it finished within one.
long_texts = [" ".join(random.choice(words) for _ in range(200)) for _ in range(4000)]
call = {
    "pairwise": lambda: chrf.pairwise(long_texts, long_texts, word_order=2),
    "score": lambda: chrf.score(texts * 2000, texts[::-1] * 2000),
    "sentence_scores": lambda: chrf.sentence_scores(texts * 2000, texts[::-1] * 2000),
    # Lowercasing 16M short texts while reading them takes longer than scoring them.
    "reading": lambda: chrf.score(["Ab"] * 8_000_000, ["aB"] * 8_000_000, lowercase=True),
}[sys.argv[1]]
print("started", flush=True)
try:
    call()
except KeyboardInterrupt:
    # The monotonic clock is the system's: the parent compares it with the time it signalled.
    print(f"interrupted at {time.monotonic()!r}", flush=True)
    sys.exit(0)
print("finished", flush=True)
"""


@POSIX_ONLY
@pytest.mark.parametrize("call", ["pairwise", "score", "sentence_scores", "reading"])
def test_ctrl_c_stops_a_long_call_within_a_second(call: str) -> None:
    child = subprocess.Popen(
        [sys.executable, "-c", LONG_CALLS, call], stdout=subprocess.PIPE, text=True
    )
    assert child.stdout is not None
    assert child.stdout.readline() == "started\n"
    time.sleep(1.0)  # well inside the call: each takes many seconds to the end
    child.send_signal(signal.SIGINT)
    sent = time.monotonic()
    out, _ = child.communicate(timeout=60)
    assert out.startswith("interrupted at "), out
    waited = float(out.split()[-1]) - sent
    assert waited < 1.0, f"KeyboardInterrupt came {waited:.2f} s after SIGINT"


NUMPY_IMPORT_INTERRUPTED = """
import builtins, chrf
real_import = builtins.__import__
def interrupted(name, *args, **kwargs):
    if name.startswith("numpy"):
        raise KeyboardInterrupt
    return real_import(name, *args, **kwargs)
builtins.__import__ = interrupted
for call in (lambda: chrf.sentence_scores(["a"], ["a"]), lambda: chrf.pairwise(["a"], ["a"])):
    try:
        call()
    except KeyboardInterrupt:
        print("KeyboardInterrupt")
builtins.__import__ = real_import
print(chrf.sentence_scores(["a"], ["a"]).tolist())
"""


def test_ctrl_c_while_numpy_is_first_imported_is_a_keyboard_interrupt() -> None:
    # rust-numpy imports NumPy on first use and panicked when that import was interrupted.
    done = subprocess.run(
        [sys.executable, "-c", NUMPY_IMPORT_INTERRUPTED], capture_output=True, text=True
    )
    assert done.stdout.split("\n") == ["KeyboardInterrupt", "KeyboardInterrupt", "[100.0]", ""]
    assert "Panic" not in done.stderr


NUMPY_API_LOOKUP_ON_MAIN_THREAD_INTERRUPTED = """
import threading
import numpy.lib
import chrf
real = numpy.lib.NumpyVersion
def version(*args):
    # What Ctrl-C landing here raises. Python runs signal handlers on the main thread only.
    if threading.current_thread() is threading.main_thread():
        raise KeyboardInterrupt
    return real(*args)
numpy.lib.NumpyVersion = version  # rust-numpy calls it when it first looks up NumPy's C API
print(chrf.pairwise(["a"], ["a"]).tolist(), chrf.sentence_scores(["a"], ["a"]).tolist())
"""


def test_ctrl_c_cannot_land_in_the_lookup_of_numpys_c_api() -> None:
    # rust-numpy runs Python code when it first looks up NumPy's C API, and panicked when a
    # Ctrl-C that arrived as a call was finishing raised there (seen in CI, as pairwise got
    # faster): the lookup now runs before the work, on a thread no signal handler runs on.
    done = subprocess.run(
        [sys.executable, "-c", NUMPY_API_LOOKUP_ON_MAIN_THREAD_INTERRUPTED],
        capture_output=True,
        text=True,
    )
    assert done.stdout == "[[100.0]] [100.0]\n", done.stderr
    assert "Panic" not in done.stderr


@POSIX_ONLY
def test_forks_while_other_threads_score_never_hang() -> None:
    # A lock held by a scoring thread at fork time used to be copied held into the child, where
    # about 1 child in 1,000-2,000 hung; scripts/stress_fork.py runs thousands of forks.
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "stress_fork.py"), "300", "--timeout", "20"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert '"hung": 0' in done.stdout


def _threads_in_child(value: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "CHRF_NUM_THREADS": value}
    code = "import chrf; print(chrf.get_num_threads(), chrf.score(['ab'], ['ab']))"
    return subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60
    )


@pytest.mark.parametrize("value", ["999999", "0", "-1", "abc", "2.5"])
def test_a_bad_thread_count_in_the_environment_is_reported_and_ignored(value: str) -> None:
    done = _threads_in_child(value)
    default = _threads_in_child("").stdout
    assert done.returncode == 0
    assert done.stdout == default
    assert f"ignoring CHRF_NUM_THREADS={value!r}" in done.stderr


def test_a_good_thread_count_in_the_environment_is_used_silently() -> None:
    done = _threads_in_child(" 1 ")
    assert (done.stdout, done.stderr) == ("1 100.0\n", "")


def test_set_num_threads_changes_the_pool_not_the_results() -> None:
    texts = [f"text {i} {'ab' * (i % 5)}" for i in range(500)]
    before = chrf.get_num_threads()
    results = []
    try:
        chrf.set_num_threads(None)
        one_per_cpu = chrf.get_num_threads()
        for threads, expected in ((1, 1), (3, 3), (None, one_per_cpu)):
            chrf.set_num_threads(threads)
            assert chrf.get_num_threads() == expected
            results.append(chrf.pairwise(texts, texts).tobytes())
    finally:
        chrf.set_num_threads(before)
    assert len(set(results)) == 1


@pytest.mark.parametrize(
    ("threads", "error"),
    [(0, ValueError), (-1, ValueError), (10**6, ValueError), (2.0, TypeError), (True, TypeError)],
)
def test_set_num_threads_refuses_counts_out_of_range(threads: object, error: type) -> None:
    before = chrf.get_num_threads()
    with pytest.raises(error, match="threads must be"):
        chrf.set_num_threads(threads)  # type: ignore[arg-type]
    assert chrf.get_num_threads() == before
