"""Each allocation that grows with the input, refused in turn, is a `MemoryError`: never an abort.

The address-space sweep (`test_out_of_memory.py`) runs out of memory wherever its limits fall,
so an allocation made only briefly, or on a worker thread, is hit by chance. Here every large
allocation of a call can be refused deterministically, one per call:
`tests/support/failing_malloc.c`, preloaded into a child interpreter, refuses the k-th
allocation of 64 KiB or more. The child counts a call's n such allocations, then calls each
entry point again for k drawn from 1 to n (`tests/support/failing_child.py`: the first, the
last and others drawn anew each run; every k with `CHRF_SOAK=1`). Rust's, Python's and NumPy's
allocations all go through it; the allocator is compiled by the test with the C compiler that
links Rust. RUST_BACKTRACE=1 is set, as an abort then prints where it happened.

The test command runs every input kind and lowercasing with the scoring entry points, `explain`
on two kinds, the resampling tests and the command line; `CHRF_SOAK=1` adds `explain` on every
kind.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from oom_sweep import CLI_ENTRIES, KINDS, RESAMPLING_ENTRIES

from soak import SOAK

SUPPORT = Path(__file__).parents[1] / "support"
SCORING = ("score", "sentence_scores", "segment_statistics", "pairwise")

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="LD_PRELOAD of a glibc allocator is Linux's"
)


def plans() -> list[tuple[str, bool, tuple[str, ...]]]:
    """(input kind, lowercase, entry points) of each child."""
    found = []
    for kind in KINDS:
        for lowercase in (False, True):
            explained = SOAK or (kind, lowercase) in {("list", True), ("dictionary", True)}
            found.append((kind, lowercase, SCORING + (("explain",) if explained else ())))
    found += [("list", False, RESAMPLING_ENTRIES), ("list", False, CLI_ENTRIES)]
    return found


@pytest.fixture(scope="module")
def failing_malloc(tmp_path_factory: pytest.TempPathFactory) -> Path:
    compiler = shutil.which("cc")
    assert compiler, "cc (the C compiler that links Rust) is needed to build the allocator"
    library = tmp_path_factory.mktemp("allocator") / "failing_malloc.so"
    source = SUPPORT / "failing_malloc.c"
    subprocess.run(
        [compiler, "-O2", "-shared", "-fPIC", "-o", str(library), str(source)], check=True
    )
    return library


def run_child(plan: tuple[str, bool, tuple[str, ...]], library: Path, folder: Path) -> dict:
    kind, lowercase, entries = plan
    # The resampling tests and the command line make many large allocations a call: on fewer
    # rows, as in the address-space sweep.
    rows = 15_000 if set(entries).isdisjoint(RESAMPLING_ENTRIES + CLI_ENTRIES) else 5_000
    spec = {"kind": kind, "lowercase": lowercase, "entries": list(entries), "rows": rows}
    env = {**os.environ, "LD_PRELOAD": str(library), "RUST_BACKTRACE": "1"}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(SUPPORT), env.get("PYTHONPATH")]))
    folder.mkdir()
    child = subprocess.run(
        [sys.executable, str(SUPPORT / "failing_child.py"), json.dumps(spec)],
        capture_output=True,
        text=True,
        env=env,
        cwd=folder,
        # Every k of the resampling tests is thousands of calls in the long run.
        timeout=3600 if SOAK else 600,
    )
    outcomes = [json.loads(line) for line in child.stdout.splitlines()]
    return {"status": child.returncode, "stderr": child.stderr[-4000:], "outcomes": outcomes}


def test_every_large_allocation_refused_in_turn_is_a_memory_error(
    failing_malloc: Path, tmp_path: Path
) -> None:
    all_plans = plans()
    with ThreadPoolExecutor(2) as pool:
        runs = list(
            pool.map(
                lambda i: run_child(all_plans[i], failing_malloc, tmp_path / str(i)),
                range(len(all_plans)),
            )
        )
    for (kind, lowercase, entries), run in zip(all_plans, runs, strict=True):
        case = f"{kind}/{'lowercase' if lowercase else 'cased'}"
        # Exit 0 with nothing on stderr: no abort, no panic, no backtrace.
        assert (run["status"], run["stderr"]) == (0, ""), (case, run)
        for entry in entries:
            calls = [(k, said, refused) for e, k, said, refused, _ in run["outcomes"] if e == entry]
            # The call that refused nothing gave its result, and made large allocations.
            assert calls[0] == (0, "ok", 0), (case, entry, calls[:1])
            refusals = [said for _, said, refused in calls if refused]
            assert refusals, (case, entry, calls)
            # Each refused allocation was a MemoryError; a call past the last large allocation
            # (their number can differ by a few from call to call) gave its result.
            assert set(refusals) == {"MemoryError"}, (case, entry, calls)
            assert all(said == "ok" for _, said, refused in calls if not refused), (case, calls)
