"""chrf against sacreBLEU and fastchrf, side by side, in one run, on the same inputs.

    python3 -m pip install -e '.[bench]' && python3 benches/bench.py

Inputs: the WMT22 test sets of ../shared/data/wmt (system outputs against their references) and
MBR sample pools of 64, 256 and 1024 variants of a WMT reference, generated with a fixed seed.
Every timing is the best of several runs (after a warm-up); every comparison also checks that the
numbers agree, so a speed-up can never come from computing something else. Prints a Markdown
table: the README's is a copy of it.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import fastchrf
import numpy as np
import sacrebleu
from sacrebleu.metrics import CHRF as SacreCHRF

import chrf

ROOT = Path(__file__).resolve().parent.parent


def data_dir() -> Path:
    for parent in ROOT.parents:
        if (parent / "shared" / "data" / "wmt").is_dir():
            return parent / "shared" / "data" / "wmt"
    sys.exit("benches/bench.py needs ../shared/data/wmt")


def read_lines(path: Path) -> list[str]:
    text = path.read_text("utf-8")
    return (text[:-1] if text.endswith("\n") else text).split("\n")


def best_of(repeat: int, work: Callable[[], Any]) -> tuple[float, Any]:
    work()  # warm-up: caches, the thread pool, lazily imported modules
    best, result = float("inf"), None
    for _ in range(repeat):
        start = time.perf_counter()
        result = work()
        best = min(best, time.perf_counter() - start)
    return best, result


def mbr_pool(reference: str, size: int, seed: int) -> list[str]:
    """`size` noisy variants of a sentence: dropped, swapped, repeated and misspelt words."""
    rng = random.Random(seed)
    words = reference.split()
    pool = []
    for _ in range(size):
        sample = list(words)
        for _ in range(rng.randint(0, 4)):
            i = rng.randrange(len(sample))
            edit = rng.random()
            if edit < 0.3 and len(sample) > 3:
                del sample[i]
            elif edit < 0.5:
                j = rng.randrange(len(sample))
                sample[i], sample[j] = sample[j], sample[i]
            elif edit < 0.7:
                sample.insert(i, sample[i])
            else:
                w = sample[i]
                k = rng.randrange(len(w))
                sample[i] = w[:k] + rng.choice("aeiounrst") + w[k + 1 :]
        pool.append(" ".join(sample))
    return pool


class Table:
    def __init__(self) -> None:
        self.rows: list[tuple[str, str, str, str, str]] = []

    def add(self, task: str, data: str, ours: float, theirs: float, who: str) -> None:
        self.rows.append(
            (
                task,
                data,
                f"{ours * 1e3:.1f} ms",
                f"{theirs * 1e3:.1f} ms ({who})",
                f"{theirs / ours:.0f}x",
            )
        )
        print(
            f"{task:<38} {data:<30} chrf {ours * 1e3:9.2f} ms   {who} {theirs * 1e3:9.2f} ms   {theirs / ours:6.1f}x",
            flush=True,
        )

    def markdown(self) -> str:
        lines = ["| task | data | chrf | other | speed-up |", "|---|---|---:|---:|---:|"]
        lines += [f"| {' | '.join(row)} |" for row in self.rows]
        return "\n".join(lines)


def corpus_benchmarks(table: Table, wmt: Path, repeat: int, sets: list[str]) -> None:
    for name in sets:
        folder = wmt / name
        refs = read_lines(folder / "ref.A.txt")
        hyp_file = sorted(folder.glob("hyp.*.txt"))[0]
        hyps = read_lines(hyp_file)
        label = f"{name.split('.')[-1]} {hyp_file.stem[4:]} ({len(hyps)} seg.)"
        for config, word_order in (("chrF", 0), ("chrF++", 2)):
            theirs, expected = best_of(
                max(1, repeat // 3),
                lambda: SacreCHRF(word_order=word_order).corpus_score(hyps, [refs]).score,
            )
            ours, got = best_of(repeat, lambda: chrf.score(hyps, refs, word_order=word_order))
            assert got == expected
            table.add(f"corpus score() {config}", label, ours, theirs, "sacreBLEU")
        exact, components = best_of(repeat, lambda: chrf.components(hyps, refs))
        score_time, _ = best_of(repeat, lambda: chrf.score(hyps, refs))
        assert float(components.score_fraction) > 0
        print(
            f"{'components() / score()':<38} {label:<30} {exact / score_time:.2f}x the time of score()"
        )
        table.rows.append(
            (
                "components() (exact) vs score()",
                label,
                f"{exact * 1e3:.1f} ms",
                f"{score_time * 1e3:.1f} ms (score())",
                f"{exact / score_time:.2f}x the time",
            )
        )


def sentence_benchmarks(table: Table, wmt: Path, repeat: int) -> None:
    folder = wmt / "generaltest2022.en-de"
    refs = read_lines(folder / "ref.A.txt")
    hyps = read_lines(sorted(folder.glob("hyp.*.txt"))[0])
    ours, got = best_of(repeat, lambda: chrf.sentence_scores(hyps, refs))
    theirs, expected = best_of(
        max(1, repeat // 3),
        lambda: fastchrf.pairwise_chrf([[h] for h in hyps], [[r] for r in refs]),
    )
    assert got.tolist() == [row[0][0] for row in expected]
    table.add("sentence_scores()", f"en-de ({len(hyps)} seg.)", ours, theirs, "fastchrf")
    metric = SacreCHRF()
    slow, sacre = best_of(
        1, lambda: [metric.sentence_score(h, [r]).score for h, r in zip(hyps, refs)]
    )
    assert got.tolist() == sacre
    table.add("sentence_scores()", f"en-de ({len(hyps)} seg.)", ours, slow, "sacreBLEU")


def mbr_benchmarks(table: Table, wmt: Path, repeat: int, sizes: list[int]) -> None:
    refs = read_lines(wmt / "generaltest2022.en-de" / "ref.A.txt")
    source = max((r for r in refs if 20 <= len(r.split()) <= 30), key=len)
    for size in sizes:
        pool = mbr_pool(source, size, seed=size)
        rounds = max(1, repeat if size <= 256 else repeat // 3)
        theirs, expected = best_of(rounds, lambda: fastchrf.pairwise_chrf([pool], [pool]))
        ours, got = best_of(rounds, lambda: chrf.pairwise(pool, pool))
        assert np.array_equal(got, np.array(expected[0]))
        table.add("pairwise() chrF", f"MBR pool {size}x{size}", ours, theirs, "fastchrf")
        theirs, expected = best_of(repeat, lambda: fastchrf.aggregate_chrf([pool], [pool]))
        ours, got = best_of(repeat, lambda: chrf.aggregate(pool, pool))
        assert np.array_equal(got, np.array(expected[0]))
        table.add("aggregate() chrF", f"MBR pool {size}", ours, theirs, "fastchrf")
    pool = mbr_pool(source, 256, seed=7)
    ours, _ = best_of(repeat, lambda: chrf.pairwise(pool, pool, word_order=2))
    sacre_metric = SacreCHRF(word_order=2)
    few = pool[:32]
    slow, expected = best_of(
        1, lambda: [[sacre_metric.sentence_score(h, [r]).score for r in few] for h in few]
    )
    assert chrf.pairwise(few, few, word_order=2).tolist() == expected
    # sacreBLEU scores pairs one by one: its 256x256 time is 64 times its 32x32 time.
    table.add("pairwise() chrF++", "MBR pool 256x256", ours, slow * 64, "sacreBLEU, from 32x32")


def bootstrap_benchmark(table: Table, wmt: Path, repeat: int) -> None:
    folder = wmt / "generaltest2022.en-de"
    refs = read_lines(folder / "ref.A.txt")
    hyps = read_lines(sorted(folder.glob("hyp.*.txt"))[0])
    theirs, expected = best_of(1, lambda: SacreCHRF().corpus_score(hyps, [refs], n_bootstrap=1000))
    ours, got = best_of(repeat, lambda: chrf.CHRF().corpus_score(hyps, [refs], n_bootstrap=1000))
    assert (got._mean, got._ci) == (expected._mean, expected._ci)
    table.add(
        "CHRF.corpus_score(n_bootstrap=1000)",
        f"en-de ({len(hyps)} seg.)",
        ours,
        theirs,
        "sacreBLEU",
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=9, help="runs per timing (best is kept)")
    parser.add_argument("--quick", action="store_true", help="fewer sets and pool sizes")
    args = parser.parse_args()
    wmt = data_dir()
    sets = (
        ["generaltest2022.en-de", "generaltest2022.en-zh"]
        if args.quick
        else sorted(p.name for p in wmt.iterdir() if p.is_dir())
    )
    sizes = [64, 256] if args.quick else [64, 256, 1024]
    print(
        f"chrf {chrf._sacrebleu.VERSION}, sacreBLEU {sacrebleu.__version__}, fastchrf "
        f"{getattr(fastchrf, '__version__', '0.2.1')}, NumPy {np.__version__}, Python {platform.python_version()}, "
        f"{os.cpu_count()} CPUs, chrf threads {chrf._chrf.thread_count()}"
    )
    table = Table()
    corpus_benchmarks(table, wmt, args.repeat, sets)
    sentence_benchmarks(table, wmt, args.repeat)
    mbr_benchmarks(table, wmt, args.repeat, sizes)
    bootstrap_benchmark(table, wmt, max(1, args.repeat // 3))
    print()
    print(table.markdown())


if __name__ == "__main__":
    main()
