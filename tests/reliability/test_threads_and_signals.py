"""Threads, fork and Ctrl-C: nothing hangs, nothing panics, a long call stops when asked."""

from __future__ import annotations

import functools
import json
import os
import random
import re
import select
import signal
import subprocess
import sys
import time
from collections.abc import Iterable
from pathlib import Path

import pytest

import chrf
from cli_program import HANG_BOUND, cpu_at_the_end, cpu_seconds, start
from soak import SOAK, moments

ROOT = Path(__file__).resolve().parents[2]
POSIX_ONLY = pytest.mark.skipif(sys.platform == "win32", reason="fork and SIGINT are POSIX")

LONG_CALLS = """
import random, sys, time, chrf
random.seed(1)
words = ["".join(random.choice("abcdefghij") for _ in range(random.randint(2, 8)))
         for _ in range(3000)]
texts = [" ".join(random.choice(words) for _ in range(25)) for _ in range(4000)]
# pairwise needs long texts to take seconds: on sentences of 25 words it finished within one.
long_texts = [" ".join(random.choice(words) for _ in range(200)) for _ in range(4000)]
chunk = " ".join(long_texts)[:1_000_000]
segment = chunk * 50
call = {
    "pairwise": lambda: chrf.pairwise(long_texts, long_texts, word_order=2),
    "score": lambda: chrf.score(texts * 2000, texts[::-1] * 2000),
    "sentence_scores": lambda: chrf.sentence_scores(texts * 2000, texts[::-1] * 2000),
    # Lowercasing 16M short texts while reading them takes longer than scoring them.
    "reading": lambda: chrf.score(["Ab"] * 8_000_000, ["aB"] * 8_000_000, lowercase=True),
    # One segment of 50M characters a side: its passes over the windows poll.
    "one_segment": lambda: chrf.score([segment], [segment[::-1]], word_order=2),
    # One segment of 10M characters repeating itself, at order 40: its suffix sort polls.
    "long_order": lambda: chrf.sentence_scores([chunk * 10], [chunk[7:] * 10], char_order=40),
    # The resamples of a confidence interval, drawn and scored in pieces.
    "bootstrap": lambda: chrf.CHRF().corpus_score(texts[:2000] * 50, [texts[1:2001] * 50],
                                                 n_bootstrap=2000),
}[sys.argv[1]]
print("started", flush=True)
try:
    call()
except KeyboardInterrupt:
    # The process's CPU time, all threads: the parent compares it with what /proc said as it
    # signalled.
    print(f"interrupted after {time.process_time()!r}", flush=True)
    sys.exit(0)
print("finished", flush=True)
"""


#: How long a test lets Ctrl-C take, in the CPU seconds the process uses after the signal (all
#: its threads): a machine's load does not stretch it as it stretches wall time. Generous: each
#: call would use many times more to its end (benches/bench_interrupt.py measures the latency).
LATENCY_BOUND = 5.0

LONG_CALL_NAMES = [
    "pairwise",
    "score",
    "sentence_scores",
    "reading",
    "one_segment",
    "long_order",
    "bootstrap",
]


@POSIX_ONLY
@pytest.mark.parametrize("call", LONG_CALL_NAMES)
def test_ctrl_c_stops_a_long_call_within_seconds(call: str) -> None:
    child = subprocess.Popen(
        [sys.executable, "-c", LONG_CALLS, call], stdout=subprocess.PIPE, text=True
    )
    assert child.stdout is not None
    assert child.stdout.readline() == "started\n"
    time.sleep(1.0)  # well inside the call: each takes many seconds to the end
    sent = cpu_seconds(child.pid)
    child.send_signal(signal.SIGINT)
    out, _ = child.communicate(timeout=HANG_BOUND)
    assert out.startswith("interrupted after "), out
    waited = float(out.split()[-1]) - sent
    assert waited < LATENCY_BOUND, f"KeyboardInterrupt came {waited:.2f} CPU-s after SIGINT"


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
    forks = "300" if SOAK else "100"
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "stress_fork.py"), forks, "--timeout", "60"],
        capture_output=True,
        text=True,
        timeout=3 * HANG_BOUND,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert '"hung": 0' in done.stdout


@functools.cache
def _threads_in_child(value: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "CHRF_NUM_THREADS": value}
    code = "import chrf; print(chrf.get_num_threads(), chrf.score(['ab'], ['ab']))"
    return subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=HANG_BOUND
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


#: The `chrf` command, which tells the test when its resampling has begun: as the first piece of
#: resamples or trials is scored (the progress bar's first step, drawn or not). The test then
#: signals it at moments inside the resampling, whatever the machine's load made reading take.
RESAMPLING_BEGUN = """
import os, sys
from chrf import _significance

advance = _significance.Progress.advance
told = []

def tell(self, amount):
    if not told:
        told.append(True)
        os.write(int(os.environ["READY_FD"]), b".")
    advance(self, amount)

_significance.Progress.advance = tell
from chrf.cli import main
sys.exit(main())
"""


@POSIX_ONLY
@pytest.mark.parametrize(
    "test",
    [
        ["--confidence", "-cin", "100000"],
        ["--paired-bs", "-pbsn", "100000"],
        ["--paired-ar", "-parn", "1000000"],
    ],
)
def test_ctrl_c_during_a_statistical_test_exits_130(test: list[str], tmp_path: Path) -> None:
    # So many resamples that no machine finishes before the signal; drawn whole, as sacreBLEU
    # draws them, they would not fit in memory. Drawn in pieces, a Ctrl-C ends the command in
    # whatever piece it lands.
    rng = random.Random(4)
    words = ["".join(rng.choices("abcdefghij", k=rng.randint(2, 8))) for _ in range(2000)]
    lines = [" ".join(rng.choices(words, k=10)) for _ in range(20_000)]
    for name, shift in (("ref.txt", 0), ("a.txt", 1), ("b.txt", 2)):
        (tmp_path / name).write_text("\n".join(lines[shift:] + lines[:shift]) + "\n", "utf-8")
    systems = ["a.txt"] if "--confidence" in test else ["a.txt", "b.txt"]
    for delay in (0.0, 1.0):  # from the first piece of resamples on: as it ends, and well past
        child = start(["ref.txt", "-i", *systems, *test], tmp_path, program=RESAMPLING_BEGUN)
        time.sleep(delay)
        sent = cpu_seconds(child.pid)
        child.send_signal(signal.SIGINT)
        waited = cpu_at_the_end(child) - sent
        out, error = child.communicate()
        assert (child.returncode, out, error) == (130, b"", b"chrf: interrupted\n")
        assert waited < LATENCY_BOUND, f"the command ended {waited:.2f} CPU-s after SIGINT"


#: The start of the fork programs below: a child that hangs can be asked for its stacks.
THE_CHILD_TELLS = """
import faulthandler, signal
faulthandler.register(signal.SIGUSR1)  # inherited by the forked child: its Python stack
"""

#: The end of the fork programs below, which start a `worker` thread and define
#: `child_checks()`: forks, and the child runs the checks; the parent waits for the child, then
#: for the worker, and prints "ok", "failed STATUS" (a check false: 2, or raising: 3) or, past
#: the bound, "hung", with the child's Python stack and, where gdb is installed, its native
#: stacks on stderr.
THE_FORK = """
pid = os.fork()
if pid == 0:
    try:
        ok = child_checks()
    except BaseException:
        os._exit(3)
    os._exit(0 if ok else 2)
deadline = time.monotonic() + 120  # a hang's bound: a busy machine may give the child little CPU
while time.monotonic() < deadline:
    done, status = os.waitpid(pid, os.WNOHANG)
    if done:
        worker.join()
        print("ok" if os.waitstatus_to_exitcode(status) == 0 else f"failed {status}")
        sys.exit(0)
    time.sleep(0.01)
import shutil, subprocess
if shutil.which("gdb"):
    subprocess.run(["gdb", "-p", str(pid), "-batch", "-ex", "thread apply all bt"],
                   stdout=sys.stderr, stderr=subprocess.DEVNULL, timeout=60)
os.kill(pid, signal.SIGUSR1)  # after gdb's: the end of stderr, which a failure shows
time.sleep(1)
os.kill(pid, 9)
os.waitpid(pid, 0)
worker.join()
print("hung")
"""


def assert_every_child_ends(program: str, arguments: Iterable[float]) -> None:
    """Runs the fork `program` (its start `THE_CHILD_TELLS`, its end `THE_FORK`) once
    per argument, in a fresh process each time: only a process's first calls import and fill
    once-cells. Every forked child must end well."""
    for argument in arguments:
        done = subprocess.run(
            [sys.executable, "-c", program, str(argument)],
            capture_output=True,
            text=True,
            timeout=HANG_BOUND,
        )
        assert done.stdout == "ok\n", (argument, done.stdout, done.stderr[-6000:])


FORK_DURING_A_FIRST_ARRAY_CALL = (
    THE_CHILD_TELLS
    + """
import os, sys, threading, time
import chrf
def child_checks():
    return chrf.pairwise(["a"], ["a"]).tolist() == [[100.0]]
worker = threading.Thread(target=lambda: chrf.pairwise(["a b c"] * 20, ["a c d"] * 20))
worker.start()
# The fork comes while the worker imports chrf's modules and NumPy, or makes NumPy ready.
time.sleep(float(sys.argv[1]))
"""
    + THE_FORK
)


@POSIX_ONLY
def test_a_fork_during_another_threads_first_array_call_never_hangs() -> None:
    # The child used to copy NumPy's import lock (and chrf's own modules') held by the thread
    # making its first array call, and waited forever on its own first call. 0 to 42 ms
    # after the thread starts:
    delays = [0.003 * trial for trial in moments(15, 6)]
    assert_every_child_ends(FORK_DURING_A_FIRST_ARRAY_CALL, delays)


FORK_DURING_FIRST_CALLS_IN_A_ROW = (
    THE_CHILD_TELLS
    + """
import os, sys, threading, time
import chrf
def first_calls():
    chrf.pairwise(["a b c"] * 20, ["a c d"] * 20)  # imports chrf._batch, makes NumPy ready
    chrf.components(["a b"], ["a c"])  # then imports chrf._api, chrf._components
    chrf.CHRF().corpus_score(["a b"], [["a c"]])  # then chrf._sacrebleu
def child_checks():
    return (
        chrf.pairwise(["a"], ["a"]).tolist() == [[100.0]]
        and chrf.components(["a"], ["a"]).score == "100.000000"
        and chrf.CHRF().corpus_score(["a"], [["a"]]).score == 100.0
    )
worker = threading.Thread(target=first_calls)
worker.start()
time.sleep(float(sys.argv[1]))  # the fork comes maybe as one import ends and the next begins
"""
    + THE_FORK
)


@POSIX_ONLY
def test_a_fork_between_another_threads_first_calls_never_hangs() -> None:
    # The before-fork hook waits for the imports under way, giving up the GIL: the other thread
    # may meanwhile end one import and begin the next, which the fork would copy half done (the
    # hook looks again once it holds the import lock), or begin to look up Python's Fraction
    # class, which PyO3 does in a once-cell it marks as being filled before it waits for the GIL
    # (children hung in `components`, waiting on that cell: the hook now lets the lookup end).
    # 0 to 345 ms: through NumPy's preparation and the imports after it.
    delays = [0.015 * trial for trial in moments(24, 8)]
    assert_every_child_ends(FORK_DURING_FIRST_CALLS_IN_A_ROW, delays)


#: A thread imports chrf's modules one after another (as first calls do: `chrf._api`, then
#: `chrf._sacrebleu`...), each import giving up the GIL partway (stand-in modules, served by a
#: finder of the test's own), while the main thread forks. The switch interval is so long that
#: the main thread runs only when the worker gives up the GIL: each time the fork hook has waited
#: for one import to end, the worker has begun the next.
FORK_DURING_IMPORTS_IN_A_ROW = (
    THE_CHILD_TELLS
    + """
import importlib, importlib.abc, importlib.util, os, sys, threading, time
import chrf
sys.setswitchinterval(1000)

class StandIns(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def find_spec(self, name, path, target=None):
        if name.startswith("chrf._stand_in_"):
            return importlib.util.spec_from_loader(name, self)
    def create_module(self, spec):
        return None
    def exec_module(self, module):
        time.sleep(0.02)

sys.meta_path.insert(0, StandIns())
names = [f"chrf._stand_in_{k}" for k in range(8)]
def child_checks():
    return all(importlib.import_module(name) for name in names)
worker = threading.Thread(target=lambda: [importlib.import_module(name) for name in names])
worker.start()
time.sleep(float(sys.argv[1]))
"""
    + THE_FORK
)


@POSIX_ONLY
def test_a_fork_while_another_thread_imports_chrfs_modules_in_a_row_never_hangs() -> None:
    # The fork hook waited for the imports under way three times, then forked anyway: the child
    # copied the fourth module's import half done and waited for it forever.
    assert_every_child_ends(FORK_DURING_IMPORTS_IN_A_ROW, [0.0, 0.01, 0.05])


#: A thread makes its first Arrow, sentence-level, aggregate (NumPy weights) and explain calls
#: while the main thread forks at the worker's Nth giving up of the GIL (argv[1]): the switch
#: interval is so long that the worker lets go of the GIL only where it chooses to, and each of
#: the main thread's sleeps lets it run to its next such place. A place where a once-cell is
#: first filled (an interned name, a class looked up, NumPy's borrow flags) is one: the cell is
#: marked as being filled while the worker waits to get the GIL back.
FORK_AT_EACH_GIL_RELEASE_OF_FIRST_CALLS = (
    THE_CHILD_TELLS
    + """
import os, sys, threading, time
import numpy as np
import pyarrow as pa
import chrf
sys.setswitchinterval(1000)
# Done before: NumPy's preparation and Fraction's lookup, which the fork hook settles itself.
chrf.pairwise(["a"], ["a"])
chrf.components(["a"], ["a"])
hyps, refs, weights = pa.array(["a b"]), pa.array(["a c"]), np.array([1.0])
def first_calls():
    chrf.score(hyps, [refs])
    chrf.sentence_scores(["a b"], ["a c"], lowercase=True)
    chrf.aggregate(["a b"], ["a c"], weights=weights)
    chrf.explain(["a b"], ["a c"])
def child_checks():
    return (
        chrf.score(hyps, [refs]) == chrf.score(["a b"], [["a c"]])
        and chrf.sentence_scores(["a"], ["A"], lowercase=True).tolist() == [100.0]
        and chrf.aggregate(["a"], ["a"], weights=weights).tolist() == [100.0]
        and chrf.explain(["a"], ["a"]).score == 100.0
    )
worker = threading.Thread(target=first_calls)
worker.start()
for _ in range(int(sys.argv[1])):
    if not worker.is_alive():
        break
    time.sleep(0.001)
"""
    + THE_FORK
)


@POSIX_ONLY
def test_a_fork_at_any_gil_release_of_another_threads_first_calls_never_hangs() -> None:
    # A fork as the worker first looked up `__arrow_c_array__` (an interned name) left the
    # child's first Arrow call waiting forever on the cell copied as being filled.
    assert_every_child_ends(FORK_AT_EACH_GIL_RELEASE_OF_FIRST_CALLS, moments(30, 10))


CTRL_C_AT_THE_FIRST_NUMPY_USE = """
import json, sys
import chrf
calls = {
    "pairwise": lambda: chrf.pairwise(["a b"], ["a c"]),
    "bootstrap": lambda: chrf.CHRF().corpus_score(["a b"], [["a c"]], n_bootstrap=10),
}
first = []
try:
    try:
        print("ready", flush=True)  # in the try: the Ctrl-C can come as soon as it is written
        calls[sys.argv[1]]()  # imports NumPy: the Ctrl-C lands somewhere in it, or after it
        first.append("returned")
        # Where the Ctrl-C lands if the call had ended before it came; the parent closes standard
        # input once CPython reports it dropped, so that the child need not wait for a timer.
        sys.stdin.readline()
    except KeyboardInterrupt:
        first.append("KeyboardInterrupt")
except BaseException as error:
    first.append(f"{type(error).__name__}: {error}")
try:
    later = chrf.sentence_scores(["a"], ["a"]).tolist()
except BaseException as error:
    later = f"{type(error).__name__}: {error}"
print(json.dumps({"first": first, "later": later}))
"""

#: What CPython prints when a KeyboardInterrupt is raised where it cannot propagate (a weakref
#: callback, a `__del__`): "Exception ignored in ...", sometimes a traceback, then the error.
DROPPED_INTERRUPT = re.compile(
    r"Exception ignored (?:in|on)[^\n]*\n"
    r"(?:Traceback[^\n]*\n(?:  [^\n]*\n)*)?"
    r"KeyboardInterrupt[^\n]*\n"
)


def dropped_interrupts(stderr: str) -> int:
    """How many KeyboardInterrupts CPython reported as ignored; fails on any other error. Other
    output may be CPython's own: a C module whose import the Ctrl-C cut short, such as
    `_decimal`, can warn when it is initialised again."""
    rest = DROPPED_INTERRUPT.sub("", stderr)
    for sign in ("Traceback", "Error", "panicked", "Fatal", "KeyboardInterrupt"):
        assert sign not in rest, stderr[-2000:]
    return len(DROPPED_INTERRUPT.findall(stderr))


def stderr_until_a_dropped_interrupt(child: subprocess.Popen[str]) -> str:
    """The child's stderr, read until it ends or until CPython reports a dropped interrupt
    there: the moment to stop waiting for it, known from the child itself, not from a timer
    that a busy machine could outlast."""
    assert child.stderr is not None
    fd, read = child.stderr.fileno(), b""
    deadline = time.monotonic() + HANG_BOUND
    while time.monotonic() < deadline and not DROPPED_INTERRUPT.search(
        read.decode("utf-8", "replace")
    ):
        if select.select([fd], [], [], 0.05)[0]:
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                break
            read += chunk
    return read.decode("utf-8", "replace")


@POSIX_ONLY
@pytest.mark.parametrize("call", ["pairwise", "bootstrap"])
def test_ctrl_c_during_the_first_numpy_use_is_a_keyboard_interrupt(call: str) -> None:
    # Landing in NumPy's import, a Ctrl-C used to raise ImportError ("PyCapsule_Import could not
    # import module datetime") or RuntimeError, and could leave NumPy half imported: every later
    # call of the process failed ("cannot load module more than once per process"). A Ctrl-C
    # that lands in a callback of importlib's (its module locks' weakref callbacks) is reported
    # by CPython as "Exception ignored" and dropped: no library can deliver it, so the test tells
    # that outcome apart by what CPython printed, and asserts what chrf controls in every case.
    # The trials stop once the call has returned before its Ctrl-C twice in a row: later ones,
    # later still, would only repeat that outcome.
    returned_first = 0
    for trial in moments(40, 14):
        child = subprocess.Popen(
            [sys.executable, "-c", CTRL_C_AT_THE_FIRST_NUMPY_USE, call],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        assert child.stdout is not None
        assert child.stdout.readline() == "ready\n"
        time.sleep(0.005 * trial)  # 0 to 0.2 s: into chrf's imports, NumPy's, or past them
        child.send_signal(signal.SIGINT)
        dropped = stderr_until_a_dropped_interrupt(child)
        # Waiting for an interrupt that will not come, it then reads the end of its input.
        out, error = child.communicate(input="", timeout=HANG_BOUND)
        error = dropped + error
        outcome = json.loads(out)
        context = (trial, outcome, error[-2000:])
        if dropped_interrupts(error):
            assert outcome["first"] == ["returned"], context
        else:
            assert outcome["first"] in (
                ["KeyboardInterrupt"],
                ["returned", "KeyboardInterrupt"],
            ), context
        assert outcome["later"] == [100.0], context
        after = outcome["first"] == ["returned", "KeyboardInterrupt"]
        returned_first = returned_first + 1 if after else 0
        if returned_first == 2:
            break


IMPORT_LOCK_LEFT_HELD = """
import _imp, sys
import chrf
# What a Ctrl-C landing in importlib's `_get_module_lock` leaves: Python's import lock held by
# this thread. The first call then imported NumPy on a thread of its own, which waited for the
# lock forever (seen in CI, in the test above).
_imp.acquire_lock()
calls = {
    "pairwise": lambda: chrf.pairwise(["a b"], ["a c"]).round(4).tolist(),
    "bootstrap": lambda: chrf.CHRF().corpus_score(["a b"], [["a c"]], n_bootstrap=10).score,
}
print(calls[sys.argv[1]](), chrf.sentence_scores(["a"], ["a"]).tolist())
"""


@pytest.mark.parametrize("call", ["pairwise", "bootstrap"])
def test_the_first_numpy_use_never_waits_for_an_import_lock_its_thread_holds(call: str) -> None:
    done = subprocess.run(
        [sys.executable, "-c", IMPORT_LOCK_LEFT_HELD, call],
        capture_output=True,
        text=True,
        timeout=HANG_BOUND,
    )
    expected = {"pairwise": "[[25.0]]", "bootstrap": "25.0"}[call]
    assert done.stdout == f"{expected} [100.0]\n", done.stderr[-2000:]


@POSIX_ONLY
def test_the_ctrl_c_tests_pass_when_started_with_ctrl_c_ignored() -> None:
    # A shell's background job (`scripts/stress_signals &`, nohup) starts with SIGINT ignored,
    # and its children inherit that: Python then installs no handler, and the Ctrl-C tests' own
    # children never saw their Ctrl-C (they ran on, and the tests timed out).
    test = "test_ctrl_c_stops_a_long_call_within_seconds[score]"
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", f"{__file__}::{test}"],
        # The one test needs none of the installed plugins, which pytest would import first.
        env={**os.environ, "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"},
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN),
        capture_output=True,
        text=True,
        timeout=2 * HANG_BOUND,
    )
    assert done.returncode == 0, done.stdout[-3000:]
