"""Out of memory is a MemoryError (the command line: `chrf: error: out of memory`) at every entry
point, on every input kind: never an abort, a hang, a panic or a PanicException.

`test_out_of_memory_sweep` runs a bounded sweep of `tests/support/oom_sweep.py` (every input kind
and lowercasing, the resampling tests, the command line); `python3 tests/support/oom_sweep.py` is
the long one. The test below it runs explain and compare on a larger corpus.

Each entry point runs in a fresh interpreter (an abort or a hang there fails the test instead of
the run) under address-space limits from a little above what the process already holds to well
beyond what the call needs, so that memory runs out in every phase of the call: reading the
texts, the core's counting, building the Python results, the statistics and the paired test.
RUST_BACKTRACE=1 is set: a panic's backtrace, printed without memory, used to deadlock.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from typing import Any

import oom_sweep
import pytest

from soak import moments

CHILD = textwrap.dedent(
    """
    import gc, json, random, resource, sys
    import chrf

    def address_space():
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmSize:"):
                    return int(line.split()[1]) * 1024

    rng = random.Random(7)
    letters = "abcdefghijklmnopqrstuvwxyzäöüßéèłżśćńąę"
    words = ["".join(rng.choices(letters, k=rng.randint(1, 9))) for _ in range(4000)]
    def texts(n):
        return [" ".join(rng.choices(words, k=rng.randint(5, 40))) for _ in range(n)]
    hyps, refs, other, system = texts(1500), texts(1500), texts(1500), texts(1500)

    def call(what):
        if what == "explain":
            e = chrf.explain(hyps, [refs, other], word_order=2)
            e.to_dict(segments=20)
            e.length_buckets()
        elif what == "compare_bs":
            chrf.compare([hyps, system], [refs, other], word_order=2, trials=100).to_dict()
        else:
            chrf.compare({"a": hyps, "b": system}, refs, test="ar", trials=100).to_dict()

    what, deltas = sys.argv[1], json.loads(sys.argv[2])
    # Warm: imports (NumPy's random module for the paired tests), thread pool, NumPy's C API.
    chrf.compare([hyps[:10], system[:10]], refs[:10], trials=2)
    chrf.compare([hyps[:10], system[:10]], refs[:10], test="ar", trials=2)
    outcomes = []
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    for delta in deltas:
        gc.collect()
        limit = address_space() + delta
        resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
        try:
            call(what)
            outcomes.append("ok")
        except MemoryError:
            outcomes.append("MemoryError")
        finally:
            resource.setrlimit(resource.RLIMIT_AS, (soft, hard))
    print(json.dumps(outcomes))
    """
)

MIB = 2**20


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="RLIMIT_AS and /proc are Linux's")
def test_out_of_memory_sweep() -> None:
    # Each case tries a few margins, each in a phase of its own, and every other case runs with
    # RUST_BACKTRACE=1 (a panic's backtrace, printed without memory, used to deadlock): the
    # cases together try many limits between 1 and 64 MiB within about a minute, two at a time.
    cases = oom_sweep.cases(QUICK_STEPS, backtrace=None, rows=QUICK_ROWS)
    reports = oom_sweep.sweep(cases, jobs=2, timeout=120)
    failures = {report.case.name: report.problems() for report in reports if report.problems()}
    # In full: an abort's first line, the size and where, is what pytest's repr would cut.
    assert not failures, json.dumps(failures, indent=1, ensure_ascii=False)
    # The limits spanned the calls: memory ran out, and was enough, in every case.
    for report in reports:
        assert {o for _, _, o in report.outcomes} == {"ok", "MemoryError"}, report.case.name


#: Margins per entry point and case, and rows of each text column, in the bounded sweep.
QUICK_STEPS = 3
QUICK_ROWS = 15_000

#: Limits above what the process holds: from 1 MiB, 1.4 times apart, to 600 MiB (ample). The long
#: run tries all 17 of the ladder; the test command the first, the last and 3 others drawn anew
#: each run (tests/support/soak.py), so that the runs add up.
DELTAS = [int(MIB * 1.4**k) for k in moments(17, 5)] + [600 * MIB]
ENTRY_POINTS = ("explain", "compare_bs", "compare_ar")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="RLIMIT_AS and /proc are Linux's")
def test_running_out_of_memory_is_a_memory_error() -> None:
    env = {**os.environ, "RUST_BACKTRACE": "1"}
    children = {
        what: subprocess.Popen(
            [sys.executable, "-c", CHILD, what, json.dumps(DELTAS)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        for what in ENTRY_POINTS
    }
    try:
        for what, child in children.items():
            try:
                stdout, stderr = child.communicate(timeout=600)
            except subprocess.TimeoutExpired:
                pytest.fail(f"{what}: the child hung")
            assert child.returncode == 0, (what, child.returncode, stderr[-3000:])
            assert "PanicException" not in stderr
            outcomes: list[Any] = json.loads(stdout)
            assert set(outcomes) <= {"ok", "MemoryError"}, what
            # Memory did run out, and the ample limit was enough: the limits spanned the call.
            assert outcomes[0] == "MemoryError", what
            assert outcomes[-1] == "ok", what
    finally:
        for child in children.values():
            if child.poll() is None:
                child.kill()
                child.wait()
