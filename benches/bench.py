"""chrf against sacreBLEU and fastchrf, side by side, in one run, on the same inputs.

    python3 -m pip install -e '.[bench]' && python3 benches/bench.py

Inputs: the WMT22 test sets (benches/wmt_data.py finds them: $CHRF_DATA/wmt, ../shared/data/wmt,
else the excerpts bundled in tests/data/wmt) (system outputs against their references) and
MBR sample pools of 64, 256 and 1024 variants of a WMT reference, generated with a fixed seed.
Every timing is the best of several runs (after a warm-up); every comparison also checks that the
numbers agree, so a speed-up can never come from computing something else. Prints a Markdown
table of wall and CPU times and their ratios: docs/performance.md's tables come from it.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from importlib.metadata import version
from pathlib import Path
from typing import Any

import fastchrf
import numpy as np
import sacrebleu
from sacrebleu.metrics import CHRF as SacreCHRF
from wmt_data import wmt_dir

import chrf

ROOT = Path(__file__).resolve().parent.parent


def versions() -> str:
    """The first line of the output: what was measured, on how many threads."""
    return (
        f"chrf {chrf.__version__}, sacreBLEU {sacrebleu.__version__}, "
        f"fastchrf {version('fastchrf')}, NumPy {np.__version__}, "
        f"Python {platform.python_version()}, {os.cpu_count()} CPUs, "
        f"chrf threads {chrf.get_num_threads()}"
    )


def read_lines(path: Path) -> list[str]:
    text = path.read_text("utf-8")
    return (text[:-1] if text.endswith("\n") else text).split("\n")


@dataclass(frozen=True)
class Time:
    """Seconds of one call: wall time, and CPU time summed over every thread of the process
    (chrf's pool included), so that a ratio can be read per core as well as per second."""

    wall: float
    cpu: float

    def scaled(self, factor: float) -> Time:
        return Time(self.wall * factor, self.cpu * factor)


def best_of(repeat: int, work: Callable[..., Any], *args: Any, **kwargs: Any) -> tuple[Time, Any]:
    """The best wall and the best CPU time of `repeat` calls of work(*args, **kwargs) after a
    warm-up, and its result."""
    work(*args, **kwargs)  # warm-up: caches, the thread pool, lazily imported modules
    wall, cpu, result = float("inf"), float("inf"), None
    for _ in range(repeat):
        start, start_cpu = time.perf_counter(), time.process_time()
        result = work(*args, **kwargs)
        cpu = min(cpu, time.process_time() - start_cpu)
        wall = min(wall, time.perf_counter() - start)
    return Time(wall, cpu), result


def sacrebleu_corpus(hyps: list[str], refs: list[list[str]], **options: Any) -> float:
    return float(SacreCHRF(**options).corpus_score(hyps, refs).score)


def sacrebleu_sentences(pairs: list[tuple[str, list[str]]], **options: Any) -> list[float]:
    metric = SacreCHRF(**options)
    return [metric.sentence_score(h, refs).score for h, refs in pairs]


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
    """Wall time and its ratio, then CPU time and its ratio: with several threads chrf's CPU time
    exceeds its wall time, while sacreBLEU and fastchrf run on one thread."""

    HEADER = "| task | data | chrf | other | ratio | chrf CPU | other CPU | CPU ratio |"

    def __init__(self) -> None:
        self.rows: list[tuple[str, ...]] = []

    def add(self, task: str, data: str, ours: Time, theirs: Time, who: str) -> None:
        row = (
            task,
            data,
            f"{ours.wall * 1e3:.1f} ms",
            f"{theirs.wall * 1e3:.1f} ms ({who})",
            f"{theirs.wall / ours.wall:.0f}x",
            f"{ours.cpu * 1e3:.1f} ms",
            f"{theirs.cpu * 1e3:.1f} ms",
            f"{theirs.cpu / max(ours.cpu, 1e-9):.0f}x",
        )
        self.rows.append(row)
        wall_and_cpu = f"{row[2]:>10} {row[3]:>34} {row[4]:>7} {row[7]:>7}"
        print(f"{task:<38} {data:<30} {wall_and_cpu}", flush=True)

    def ratio(self, task: str, data: str, ours: Time, base: Time) -> None:
        row = (
            task,
            data,
            f"{ours.wall * 1e3:.1f} ms",
            f"{base.wall * 1e3:.1f} ms (score())",
            f"{ours.wall / base.wall:.2f}",
            f"{ours.cpu * 1e3:.1f} ms",
            f"{base.cpu * 1e3:.1f} ms",
            f"{ours.cpu / max(base.cpu, 1e-9):.2f}",
        )
        self.rows.append(row)
        print(f"{task:<38} {data:<30} {row[4]:>10} {row[7]:>10}", flush=True)

    def markdown(self) -> str:
        lines = [self.HEADER, "|---|---|---:|---:|---:|---:|---:|---:|"]
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
            theirs, expected = best_of(3, sacrebleu_corpus, hyps, [refs], word_order=word_order)
            ours, got = best_of(repeat, chrf.score, hyps, refs, word_order=word_order)
            assert got == expected
            table.add(f"corpus score() {config}", label, ours, theirs, "sacreBLEU")
        exact, components = best_of(repeat, chrf.components, hyps, refs)
        score_time, _ = best_of(repeat, chrf.score, hyps, refs)
        assert float(components.score_fraction) > 0
        table.ratio("components() (exact) / score()", label, exact, score_time)


def sentence_benchmarks(table: Table, wmt: Path, repeat: int) -> None:
    folder = wmt / "generaltest2022.en-de"
    refs = read_lines(folder / "ref.A.txt")
    hyps = read_lines(sorted(folder.glob("hyp.*.txt"))[0])
    label = f"en-de ({len(hyps)} seg.)"
    ours, got = best_of(repeat, chrf.sentence_scores, hyps, refs)
    batch = ([[h] for h in hyps], [[r] for r in refs])
    theirs, expected = best_of(5, fastchrf.pairwise_chrf, *batch)
    assert got.tolist() == [row[0][0] for row in expected]
    table.add("sentence_scores()", label, ours, theirs, "fastchrf")
    pairs = [(h, [r]) for h, r in zip(hyps, refs, strict=True)]
    slow, sacre = best_of(1, sacrebleu_sentences, pairs)
    assert got.tolist() == sacre
    table.add("sentence_scores()", label, ours, slow, "sacreBLEU")


def mbr_benchmarks(table: Table, wmt: Path, repeat: int, sizes: list[int]) -> None:
    refs = read_lines(wmt / "generaltest2022.en-de" / "ref.A.txt")
    source = max((r for r in refs if 20 <= len(r.split()) <= 30), key=len)
    for size in sizes:
        pool = mbr_pool(source, size, seed=size)
        theirs, expected = best_of(
            {64: 5, 256: 3}.get(size, 1), fastchrf.pairwise_chrf, [pool], [pool]
        )
        ours, got = best_of(max(3, repeat * 64 // size), chrf.pairwise, pool, pool)
        assert np.array_equal(got, np.array(expected[0]))
        table.add("pairwise() chrF", f"MBR pool {size}x{size}", ours, theirs, "fastchrf")
        theirs, expected = best_of(5, fastchrf.aggregate_chrf, [pool], [pool])
        ours, got = best_of(repeat, chrf.aggregate, pool, pool)
        assert np.array_equal(got, np.array(expected[0]))
        table.add("aggregate() chrF", f"MBR pool {size}", ours, theirs, "fastchrf")
    pool = mbr_pool(source, 256, seed=7)
    ours, _ = best_of(repeat, chrf.pairwise, pool, pool, word_order=2)
    few = pool[:32]
    pairs = [(h, [r]) for h in few for r in few]
    slow, expected = best_of(1, sacrebleu_sentences, pairs, word_order=2)
    assert chrf.pairwise(few, few, word_order=2).ravel().tolist() == expected
    # sacreBLEU scores pairs one by one: its 256x256 time is 64 times its 32x32 time.
    sacre_256 = slow.scaled(64)
    table.add("pairwise() chrF++", "MBR pool 256x256", ours, sacre_256, "sacreBLEU, 64 x 32x32")


def bootstrap(metric: Any, hyps: list[str], refs: list[list[str]]) -> Any:
    return metric.corpus_score(hyps, refs, n_bootstrap=1000)


def bootstrap_benchmark(table: Table, wmt: Path, repeat: int) -> None:
    folder = wmt / "generaltest2022.en-de"
    refs = [read_lines(folder / "ref.A.txt")]
    hyps = read_lines(sorted(folder.glob("hyp.*.txt"))[0])
    theirs, expected = best_of(1, bootstrap, SacreCHRF(), hyps, refs)
    ours, got = best_of(repeat, bootstrap, chrf.CHRF(), hyps, refs)
    assert (got._mean, got._ci) == (expected._mean, expected._ci)
    label = f"en-de ({len(hyps)} seg.)"
    table.add("CHRF.corpus_score(n_bootstrap=1000)", label, ours, theirs, "sacreBLEU")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--repeat", type=int, default=30, help="runs per timing of chrf (best is kept)"
    )
    parser.add_argument("--quick", action="store_true", help="fewer sets and pool sizes")
    args = parser.parse_args()
    wmt = wmt_dir()
    sets = (
        ["generaltest2022.en-de", "generaltest2022.en-zh"]
        if args.quick
        else sorted(p.name for p in wmt.iterdir() if p.is_dir())
    )
    sizes = [64, 256] if args.quick else [64, 256, 1024]
    print(versions())
    table = Table()
    corpus_benchmarks(table, wmt, args.repeat, sets)
    sentence_benchmarks(table, wmt, args.repeat)
    mbr_benchmarks(table, wmt, args.repeat, sizes)
    bootstrap_benchmark(table, wmt, 5)
    print()
    print(table.markdown())


if __name__ == "__main__":
    main()
