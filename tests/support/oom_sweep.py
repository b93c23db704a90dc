"""The out-of-memory sweep: every entry point, on every input kind, under address-space limits
from a little above what the process holds to more than the call needs, must give its result or
a `MemoryError` (the command line: `chrf: error: out of memory`), never a signal, a panic or a
hang.

Each case (an input kind, lowercasing on or off, and the entry points) runs in a fresh
interpreter, which calls each entry point once per margin: the limit is set to the interpreter's
address space at that moment plus the margin (RLIMIT_AS), and lifted after the call. An abort
or a hang there fails its case, not the run. The margins of each case are a geometric ladder
whose phase differs from case to case, so that the cases together try many distinct limits.

`tests/reliability/test_out_of_memory.py` runs a bounded sweep; the long one is this script:

    python3 tests/support/oom_sweep.py        # every case, with and without RUST_BACKTRACE=1
    python3 tests/support/oom_sweep.py --steps 40 --rows 100000 --jobs 4
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import zlib
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

MIB = 2**20

#: Input kinds a column of texts can come in.
KINDS = ("list", "string", "large_string", "string_view", "dictionary", "polars")

#: Entry points on columns of texts, and those on the resampling tests and the command line.
TEXT_ENTRIES = ("score", "sentence_scores", "segment_statistics", "explain", "pairwise")
RESAMPLING_ENTRIES = ("bootstrap", "compare_bs", "compare_ar")
CLI_ENTRIES = ("cli_confidence", "cli_paired_bs", "cli_paired_ar")

#: What a call may end in.
OUTCOMES = {"ok", "MemoryError"}


def margins(steps: int, phase_of: str, low: float = 1 * MIB, high: float = 64 * MIB) -> list[int]:
    """`steps` limits from `low` to `high`, geometric, shifted by a phase taken from `phase_of`
    (a fraction of one step), so that two cases do not try the same limits."""
    phase = (zlib.crc32(phase_of.encode()) % 1000) / 1000
    ratio = (high / low) ** (1 / max(steps - 1, 1))
    shifted = [int(low * ratio ** (k + phase)) for k in range(steps - 1)]
    return [int(low), *shifted[1:], int(high)]


@dataclass
class Case:
    """One child: an input kind, lowercasing, the entry points, the margins."""

    kind: str
    lowercase: bool
    entries: tuple[str, ...]
    margins: list[int]
    backtrace: bool
    rows: int = 60_000

    @property
    def name(self) -> str:
        case = "lowercase" if self.lowercase else "cased"
        trace = " RUST_BACKTRACE=1" if self.backtrace else ""
        return f"{self.kind}/{case}/{'+'.join(self.entries)}{trace}"


@dataclass
class Report:
    """What one child did: each (entry, margin, outcome) it reached, its exit, its stderr."""

    case: Case
    outcomes: list[tuple[str, int, str]] = field(default_factory=list)
    returncode: int | None = None
    stderr: str = ""
    hung: bool = False

    def problems(self) -> list[str]:
        """Why this case failed: an outcome other than a result or MemoryError, a signal, a
        non-zero exit, a hang, or anything on stderr but the CLI's out-of-memory line."""
        found = [
            f"{e} at +{m / MIB:.1f} MiB: {o}" for e, m, o in self.outcomes if o not in OUTCOMES
        ]
        if self.hung:
            found.append("hung (killed after the timeout)")
        elif self.returncode != 0:
            found.append(f"exit status {self.returncode}")
        noise = [line for line in self.stderr.splitlines() if line.strip()]
        if noise:
            found.append("stderr: " + "\n".join(noise[-30:]))
        expected = len(self.case.entries) * len(self.case.margins)
        if not self.hung and self.returncode == 0 and len(self.outcomes) != expected:
            found.append(f"{len(self.outcomes)} outcomes of {expected}")
        return found


def run_case(case: Case, timeout: float) -> Report:
    """Runs `case` in a fresh interpreter."""
    env = {k: v for k, v in os.environ.items() if k != "RUST_BACKTRACE"}
    if case.backtrace:
        env["RUST_BACKTRACE"] = "1"
    spec = {
        "kind": case.kind,
        "lowercase": case.lowercase,
        "entries": list(case.entries),
        "margins": case.margins,
        "rows": case.rows,
    }
    report = Report(case)
    with tempfile.TemporaryDirectory() as folder:
        child = subprocess.Popen(
            [sys.executable, str(Path(__file__).with_name("oom_child.py")), json.dumps(spec)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
            cwd=folder,
        )
        try:
            stdout, report.stderr = child.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            child.kill()
            stdout, report.stderr = child.communicate()
            report.hung = True
    report.returncode = child.returncode
    for line in stdout.splitlines():
        entry, margin, outcome = json.loads(line)
        report.outcomes.append((entry, margin, outcome))
    return report


def cases(steps: int, backtrace: Sequence[bool] | None, rows: int = 40_000) -> list[Case]:
    """Every input kind and lowercasing with the text entry points, then the resampling tests
    (on lists and one Arrow kind) and the command line: with each `backtrace` setting, or
    (None) with RUST_BACKTRACE=1 for every other case."""
    plans: list[tuple[str, bool, tuple[str, ...], int]] = [
        (kind, lowercase, TEXT_ENTRIES, rows) for kind in KINDS for lowercase in (False, True)
    ]
    plans += [(kind, False, RESAMPLING_ENTRIES, rows // 3) for kind in ("list", "string")]
    plans.append(("list", False, CLI_ENTRIES, rows))
    found = []
    for i, (kind, lowercase, entries, n) in enumerate(plans):
        for trace in (bool(i % 2),) if backtrace is None else backtrace:
            name = f"{kind}{lowercase}{entries[0]}{trace}"
            found.append(Case(kind, lowercase, entries, margins(steps, name), trace, n))
    return found


def sweep(all_cases: list[Case], jobs: int, timeout: float) -> list[Report]:
    """Runs the cases, `jobs` at a time."""
    with ThreadPoolExecutor(jobs) as pool:
        return list(pool.map(lambda case: run_case(case, timeout), all_cases))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=16, help="margins per entry point and case")
    parser.add_argument("--jobs", type=int, default=2, help="children at a time")
    parser.add_argument("--rows", type=int, default=40_000, help="rows of each text column")
    parser.add_argument("--timeout", type=float, default=900, help="seconds a child may take")
    args = parser.parse_args()
    reports = sweep(cases(args.steps, (False, True), args.rows), args.jobs, args.timeout)
    counts: Counter[str] = Counter()
    failed = 0
    for report in reports:
        counts.update(outcome for _, _, outcome in report.outcomes)
        problems = report.problems()
        failed += bool(problems)
        print(f"{report.case.name}: {'; '.join(problems) or 'ok'}", flush=True)
    calls = sum(counts.values())
    print(f"{len(reports)} children, {calls} calls: {dict(counts)}; {failed} children failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
