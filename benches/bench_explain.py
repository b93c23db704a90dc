"""How long chrf.explain takes on each WMT22 test set, beside chrf.score of the same.

    python3 benches/bench_explain.py

Best of five runs after a warm-up: wall time on the thread pool, and CPU time on one thread.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path

from wmt_data import wmt_dir

import chrf

ROOT = Path(__file__).resolve().parent.parent


def best(run: Callable[[], object], clock: Callable[[], float]) -> float:
    run()
    times = []
    for _ in range(5):
        start = clock()
        run()
        times.append(clock() - start)
    return min(times)


def lines(path: Path) -> list[str]:
    return path.read_text("utf-8").rstrip("\n").split("\n")


HEADER = "| test set | segments | score | explain top=10 | explain all | CPU, 1 thread |"


def main() -> None:
    wmt = wmt_dir()
    print(f"threads: {chrf.get_num_threads()} (of {os.cpu_count()} CPUs); times in seconds")
    print(HEADER)
    print("|---|---|---|---|---|---|")
    for folder in sorted(wmt.iterdir()):
        hyps = lines(sorted(folder.glob("hyp.*.txt"))[0])
        refs = [lines(p) for p in sorted(folder.glob("ref.*.txt"))]
        print("| " + " | ".join([folder.name, str(len(hyps)), *timings(hyps, refs)]) + " |")


def timings(hyps: list[str], refs: list[list[str]]) -> list[str]:
    wall = time.perf_counter
    score = best(lambda: chrf.score(hyps, refs, word_order=2), wall)
    top = best(lambda: chrf.explain(hyps, refs, top=10, word_order=2), wall)
    every = best(lambda: chrf.explain(hyps, refs, word_order=2), wall)
    threads = chrf.get_num_threads()
    chrf.set_num_threads(1)
    cpu = best(lambda: chrf.explain(hyps, refs, top=10, word_order=2), time.process_time)
    chrf.set_num_threads(threads)
    return [f"{value:.3f}" for value in (score, top, every, cpu)]


if __name__ == "__main__":
    main()
