"""What a user's first call costs, and what one short pair costs through each entry point.

    python3 benches/bench_startup.py            # about 1 minute; needs valgrind (callgrind)
    python3 benches/bench_startup.py --runs 5   # fewer timed runs

1. ``import chrf`` followed by the first ``chrf.score`` of one short pair, as one figure, over
   the interpreter's own start (the same interpreter running ``pass``): instructions (callgrind,
   one run each, exact) and wall time (the best of ``--runs`` runs of each). Two interpreters:
   ``python3 -S`` with the package's folder on ``sys.path`` (the standard library alone starts:
   what chrf itself imports, whatever the installation), and ``python3`` as installed (its
   ``site`` may import modules, such as ``typing``, that chrf then finds already there).
2. The standard-library modules the first score imports beyond ``-S``'s start, as a check that
   ``typing``, ``dataclasses``, ``inspect``, ``fractions`` and ``decimal`` stay off that path.
3. One short pair through ``chrf.score([h], [r])`` and ``chrf.sentence_scores([h], [r])``:
   instructions a call (callgrind: 11,000 calls less 1,000, over 10,000, in a function as
   ``timeit`` runs them) and microseconds a call (``timeit``, best of 7).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import time
import timeit
from pathlib import Path

HYP, REF = "The cat sat on the mat.", "The cat sat on a mat."
CALLGRIND = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"]
FIRST_CALL = f"import chrf; chrf.score([{HYP!r}], [{REF!r}])"
#: Modules whose import the first score should not pay for.
HEAVY = ("typing", "dataclasses", "inspect", "fractions", "decimal", "dis", "numpy")
CALLS_CHILD = """
import sys
import chrf
calls, path = int(sys.argv[1]), sys.argv[2]
def run():  # in a function, as timeit runs its statement: module-level names cost lookups
    function = chrf.score if path == "score" else chrf.sentence_scores
    hyps, refs = [sys.argv[3]], [sys.argv[4]]
    for _ in range(calls):
        function(hyps, refs)
run()
"""


def package_parent() -> str:
    import chrf

    return str(Path(chrf.__file__).resolve().parent.parent)


def interpreters() -> dict[str, tuple[list[str], str]]:
    """Each interpreter's command and the code that makes chrf importable in it."""
    prefix = f"import sys; sys.path.insert(0, {package_parent()!r}); "
    return {
        "python3 -S": ([sys.executable, "-S", "-c"], prefix),
        "python3": ([sys.executable, "-c"], ""),
    }


def instructions(command: list[str], *arguments: str) -> int:
    done = subprocess.run(
        [*CALLGRIND, *command, *arguments],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "OPENBLAS_NUM_THREADS": "1"},
    )
    return int(re.search(r"Collected : (\d+)", done.stderr).group(1))  # type: ignore[union-attr]


def best_wall(command: list[str], runs: int) -> float:
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(command, check=True)
        best = min(best, time.perf_counter() - start)
    return best


def first_call(runs: int) -> list[str]:
    rows = []
    for name, (command, prefix) in interpreters().items():
        bare = [*command, prefix + "pass"]
        imported = [*command, prefix + "import chrf"]
        scored = [*command, prefix + FIRST_CALL]
        counts = [instructions(c) for c in (bare, imported, scored)]
        walls = [best_wall(c, runs) for c in (bare, imported, scored)]
        rows.append(
            f"| `import chrf` + first `score`, {name} | {(counts[2] - counts[0]) / 1e6:.1f}M "
            f"(import {(counts[1] - counts[0]) / 1e6:.1f}M) | {(walls[2] - walls[0]) * 1e3:.1f} ms "
            f"(import {(walls[1] - walls[0]) * 1e3:.1f} ms) |"
        )
    command, prefix = interpreters()["python3 -S"]
    probe = "import sys; before = set(sys.modules); " + FIRST_CALL + "; "
    probe += f"print(' '.join(sorted(m for m in set(sys.modules) - before if m in {HEAVY!r})))"
    found = subprocess.run([*command, prefix + probe], capture_output=True, text=True, check=True)
    rows.append(
        f"| first `score` imports, of {', '.join(HEAVY)} | {found.stdout.strip() or 'none'} | |"
    )
    return rows


def one_pair() -> list[str]:
    import chrf

    assert chrf.score([HYP], [REF]) == chrf.sentence_scores([HYP], [REF])[0]
    rows = []
    for path in ("score", "sentence_scores"):
        command = [sys.executable, "-c", CALLS_CHILD]
        count = instructions(command, "11000", path, HYP, REF)
        count -= instructions(command, "1000", path, HYP, REF)
        function = chrf.score if path == "score" else chrf.sentence_scores
        call = f"function([{HYP!r}], [{REF!r}])"
        timer = timeit.Timer(call, globals={"function": function})
        seconds = min(timer.repeat(number=20_000, repeat=7))
        rows.append(
            f"| one short pair, `{path}([h], [r])` | {count / 10_000:,.0f} a call "
            f"| {seconds / 20_000 * 1e6:.2f} µs a call |"
        )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20, help="timed runs of each interpreter")
    args = parser.parse_args()
    if not shutil.which("valgrind"):
        sys.exit("benches/bench_startup.py needs valgrind (callgrind)")
    print("| what | instructions (callgrind) | wall time |")
    print("|---|---|---|")
    for section in (lambda: first_call(args.runs), one_pair):
        for row in section():
            print(row, flush=True)


if __name__ == "__main__":
    main()
