"""The benchmark scripts' own code, run without the benchmarks (which take minutes)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import chrf

BENCHES = Path(__file__).resolve().parents[2] / "benches"


def test_bench_names_what_it_measures() -> None:
    # Regression: `import chrf` became lazy and bench.py's first line read chrf._sacrebleu, which
    # a fresh interpreter no longer loads: the benchmark died before measuring anything. A child
    # process, because this test session has loaded every module already.
    path = str(BENCHES)
    code = f"import sys; sys.path.insert(0, {path!r}); import bench; print(bench.versions())"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"chrf {chrf.__version__}, sacreBLEU 2.6.0, fastchrf 0.2.1")
    assert f"chrf threads {chrf.get_num_threads()}" in done.stdout


def test_bench_arrow_measures_every_source_alike() -> None:
    """bench_arrow.py on a few thousand pairs: every source gives the same result (the script
    exits otherwise) and each row of its table is printed."""
    done = subprocess.run(
        [sys.executable, str(BENCHES / "bench_arrow.py"), "--sizes", "3000"],
        capture_output=True,
        text=True,
        cwd=BENCHES,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    rows = [line for line in done.stdout.splitlines() if line.startswith("| 3,000 |")]
    assert len(rows) == 9
    assert all("x |" in row for row in rows)


def test_bench_service_checks_every_answer_and_prints_its_rows() -> None:
    """bench_service.py on a few requests against one worker: it starts and ends its server,
    every answer equals the local result (the script exits non-zero otherwise), and each row
    is printed."""
    pytest.importorskip("uvicorn")
    done = subprocess.run(
        [
            sys.executable,
            str(BENCHES / "bench_service.py"),
            "--requests",
            "20",
            "--seconds",
            "10",
            "--concurrency",
            "1",
            "4",
            "--workers",
            "1",
        ],
        capture_output=True,
        text=True,
        cwd=BENCHES,
        check=False,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    rows = [line for line in done.stdout.splitlines() if line.startswith("| 1 |")]
    assert len(rows) == 2
    assert all(row.endswith(" |") and "| 0 | 0 |" in row for row in rows)


def test_bench_long_orders_agrees_and_prints_every_row() -> None:
    """bench_long_orders.py on short segments: the three calls give the same float (the script
    exits otherwise) and each size of each order has its row."""
    done = subprocess.run(
        [sys.executable, str(BENCHES / "bench_long_orders.py"), "--sizes", "3000", "9000"],
        capture_output=True,
        text=True,
        cwd=BENCHES,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    rows = [
        line for line in done.stdout.splitlines() if line.startswith(("| 3,000 |", "| 9,000 |"))
    ]
    assert len(rows) == 4
    assert done.stdout.count("CPU time per character at 9,000 over 3,000") == 2


def test_bench_rewards_agrees_with_sacrebleu_and_prints_every_row() -> None:
    """bench_rewards.py on a small batch: chrf's rewards equal the sacreBLEU-based ones (the
    script fails otherwise) and each reward has its row."""
    done = subprocess.run(
        [
            sys.executable,
            str(BENCHES / "bench_rewards.py"),
            *("--prompts", "3", "--completions", "4", "--repeats", "1"),
        ],
        capture_output=True,
        text=True,
        cwd=BENCHES,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    rows = [line for line in done.stdout.splitlines() if line.startswith("| ") and "x |" in line]
    assert len(rows) == 4
    assert "3 prompts x 4 completions" in done.stdout
