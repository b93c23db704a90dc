"""MBR decoding with chrF: chrf against fastchrf, sacreBLEU, mbrs (naist-nlp, fastchrf and
sacreBLEU backends) and ZurichNLP's mbr, on self-MBR pools.

    python3 -m pip install -e '.[bench,mbr]' && python3 benches/bench_mbr.py    # about 40 minutes
    python3 benches/bench_mbr.py --quick    # realistic pools of 64 to 1,024; unrelated 256, 1,024
    python3 benches/bench_mbr.py --pools realistic --sizes 256 4096
    python3 benches/bench_mbr.py --builds ../before/python python --sizes 1024    # two builds

Two kinds of pool. The headline, "realistic": n samples of one translation, as a sampling
decoder gives them, made by seeded perturbation of a real WMT22 en-de line (`realistic_pool`):
each sample starts from one of the line's five human and system translations and takes a few
word drops, swaps, substitutions (from the line's own vocabulary or its neighbours') and
misspellings, so that the samples share most of their n-grams. Second, "unrelated": the first
n lines of WMT22 (below), which share few. The methods' costs differ between them: with shared
n-grams every pair has more matches to count. Without mbrs or mbr installed, their rows are
left out; fastchrf and sacreBLEU are also timed directly.

Each measurement runs in a fresh child process (the best of up to 5 runs while they take under
2 s in all): CPU time (user + system, of every thread and of the worker processes mbrs starts),
wall time and peak resident memory (the larger of the process's VmHWM and its reaped children's
ru_maxrss, so it includes the interpreter and the imported frameworks: the "before" column is
the resident memory just before the call). An unrelated pool of n
texts is the first n lines of WMT22 en-de's system outputs and references (5 files of 2,037
lines, one after the other), then en-cs's past 10,185. Every method scores the pool against
itself. A baseline that would take more than a few minutes is run on its first rows only (the
hypotheses, against the whole pool) and its times are scaled by n / rows: the table says so.
Before the table, each method's first utilities are checked against chrf's (exact against
exact, float32 methods within float32's precision).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import resource
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from importlib.metadata import version
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
#: Pool sizes of each kind of pool, in a full run and with --quick.
SIZES = {"realistic": (16, 64, 256, 1024, 4096, 16384), "unrelated": (256, 1024, 4096, 16384)}
QUICK_SIZES = {"realistic": (64, 256, 1024), "unrelated": (256, 1024)}
#: The realistic pools' sentence: the first en-de line whose reference A has 25 to 35 words.
WORDS = (25, 35)
#: Utilities each child returns, to check the methods against each other.
CHECKED = 8
#: Runs of a measurement at most (see `child`).
REPEATS = 5


def data_dir() -> Path:
    for parent in ROOT.parents:
        if (parent / "shared" / "data" / "wmt").is_dir():
            return parent / "shared" / "data" / "wmt"
    sys.exit("benches/bench_mbr.py needs ../shared/data/wmt")


def pool(size: int, kind: str = "unrelated") -> list[str]:
    return realistic_pool(size) if kind == "realistic" else unrelated_pool(size)


def realistic_pool(size: int, seed: int = 0) -> list[str]:
    """`size` samples of one en-de line: each one of the line's five translations (references A
    and B, three systems) with 0 to 5 edits drawn from word drops, swaps of neighbours,
    substitutions (a word of the line's translations, or of the two lines either side) and
    misspellings (a character deleted, replaced, doubled or swapped with the next)."""
    folder = data_dir() / "generaltest2022.en-de"
    files = [_lines(path) for path in sorted(folder.glob("*.txt"))]
    reference = _lines(folder / "ref.A.txt")
    line = next(i for i, text in enumerate(reference) if WORDS[0] <= len(text.split()) <= WORDS[1])
    bases = [lines[line].split() for lines in files]
    own = sorted({word for words in bases for word in words})
    nearby = sorted({word for j in (-2, -1, 1, 2) for word in reference[line + j].split()})
    rng = random.Random(seed)
    samples = []
    for _ in range(size):
        words = list(rng.choice(bases))
        for _ in range(rng.randint(0, 5)):
            i, edit = rng.randrange(len(words)), rng.random()
            if edit < 0.2 and len(words) > 5:
                del words[i]
            elif edit < 0.4 and i + 1 < len(words):
                words[i], words[i + 1] = words[i + 1], words[i]
            elif edit < 0.6:
                words[i] = rng.choice(own)
            elif edit < 0.7:
                words[i] = rng.choice(nearby)
            else:
                words[i] = _misspelt(words[i], rng)
        samples.append(" ".join(words))
    return samples


def _misspelt(word: str, rng: random.Random) -> str:
    k, edit = rng.randrange(len(word)), rng.randrange(4)
    if edit == 0 and len(word) > 1:
        return word[:k] + word[k + 1 :]
    if edit == 1:
        return word[:k] + rng.choice("aeinrstuhlmcdg") + word[k + 1 :]
    if edit == 2:
        return word[: k + 1] + word[k:]
    return word[:k] + word[k + 1 : k + 2] + word[k] + word[k + 2 :]


def _lines(path: Path) -> list[str]:
    text = path.read_text("utf-8")
    return (text[:-1] if text.endswith("\n") else text).split("\n")


def unrelated_pool(size: int) -> list[str]:
    lines: list[str] = []
    for name in ("generaltest2022.en-de", "generaltest2022.en-cs"):
        for path in sorted((data_dir() / name).glob("*.txt")):
            text = path.read_text("utf-8")
            lines += (text[:-1] if text.endswith("\n") else text).split("\n")
    if size > len(lines):
        sys.exit(f"only {len(lines)} lines for a pool of {size}")
    return lines[:size]


# Each method: utilities of pool[:rows] against the whole pool (rows == len(pool) but where a
# baseline is sampled).


def chrf_expected_utility(texts: list[str], rows: int) -> list[float]:
    import chrf

    return chrf.expected_utility(texts[:rows], texts).tolist()


def chrf_pairwise_mean(texts: list[str], rows: int) -> list[float]:
    import chrf

    return chrf.pairwise(texts[:rows], texts).mean(axis=1).tolist()


def chrf_aggregate(texts: list[str], rows: int) -> list[float]:
    import chrf

    return chrf.aggregate(texts[:rows], texts).tolist()


def chrf_in_mbrs(texts: list[str], rows: int) -> list[float]:
    from chrf.mbrs import MetricChrF

    metric = MetricChrF(MetricChrF.Config())
    return metric.expected_scores(texts[:rows], texts).tolist()


def fastchrf_pairwise_mean(texts: list[str], rows: int) -> list[float]:
    import fastchrf

    matrix = fastchrf.pairwise_chrf([texts[:rows]], [texts])[0]
    return [sum(row) / len(row) for row in matrix]


def fastchrf_aggregate(texts: list[str], rows: int) -> list[float]:
    import fastchrf

    return list(fastchrf.aggregate_chrf([texts[:rows]], [texts])[0])


def sacrebleu_pairs(texts: list[str], rows: int) -> list[float]:
    """sacreBLEU's sentence score of every pair, one pair at a time, and each row's mean."""
    from sacrebleu.metrics import CHRF

    metric = CHRF()
    return [
        sum(metric.sentence_score(hyp, [ref]).score for ref in texts) / len(texts)
        for hyp in texts[:rows]
    ]


def mbrs_metric(**config: Any) -> Any:
    from mbrs.metrics import MetricChrF

    return MetricChrF(MetricChrF.Config(**config))


def mbrs_fastchrf(texts: list[str], rows: int) -> list[float]:
    return mbrs_metric(fastchrf=True).expected_scores(texts[:rows], texts).tolist()


def mbrs_sacrebleu(texts: list[str], rows: int) -> list[float]:
    # mbrs' default: sacreBLEU per pair in a pool of 8 worker processes.
    return mbrs_metric().expected_scores(texts[:rows], texts).tolist()


def mbrs_fastchrf_aggregate(texts: list[str], rows: int) -> list[float]:
    metric = mbrs_metric(fastchrf=True)
    return metric.expected_scores_reference_aggregation(texts[:rows], texts).tolist()


def mbrs_python_aggregate(texts: list[str], rows: int) -> list[float]:
    metric = mbrs_metric()
    return metric.expected_scores_reference_aggregation(texts[:rows], texts).tolist()


def zurich_mbr(texts: list[str], rows: int) -> list[float]:
    """mbr 0.2.0's default MetricRunner on the decoded texts (its per-pair scoring, the cost
    of a generate call's metric step), with evaluate's chrF metric as a local module."""
    from mbr import MBRConfig, MetricRunner

    config = MBRConfig(num_samples=rows, num_references=len(texts), metric=sacrebleu_metric())
    runner = MetricRunner(config, tokenizer=None)
    samples = [[text] for text in texts[:rows]]  # num_samples x batch of 1
    references = [[text] for text in texts]
    scores = runner._compute_str_metric(samples, references)
    return scores.mean(dim=-1)[0].tolist()  # type: ignore[no-any-return]


def sacrebleu_metric() -> Any:
    """evaluate's "chrf" metric, as ``evaluate.load("chrf")`` gives it (a new sacreBLEU CHRF
    and its corpus score per call), defined here: loading it from the Hub needs the network."""
    import datasets
    import evaluate
    from sacrebleu.metrics import CHRF

    class SacreBLEUChrF(evaluate.Metric):  # type: ignore[misc]
        def _info(self) -> Any:
            return evaluate.MetricInfo(
                description="sacreBLEU's chrF",
                citation="",
                features=datasets.Features(
                    {
                        "predictions": datasets.Value("string"),
                        "references": datasets.Sequence(datasets.Value("string")),
                    }
                ),
            )

        def _compute(self, predictions: Any, references: Any, **options: Any) -> Any:
            if isinstance(references[0], str):
                references = [[reference] for reference in references]
            streams = [[refs[i] for refs in references] for i in range(len(references[0]))]
            return {"score": CHRF(**options).corpus_score(list(predictions), streams).score}

    return SacreBLEUChrF()


METHODS: dict[str, tuple[Callable[[list[str], int], list[float]], str]] = {
    "chrf expected_utility": (chrf_expected_utility, "pairwise"),
    "chrf pairwise + mean": (chrf_pairwise_mean, "pairwise"),
    "chrf aggregate": (chrf_aggregate, "aggregate"),
    "fastchrf pairwise + mean": (fastchrf_pairwise_mean, "pairwise"),
    "fastchrf aggregate": (fastchrf_aggregate, "aggregate"),
    "sacreBLEU pair by pair + mean": (sacrebleu_pairs, "pairwise"),
    "mbrs with chrf.mbrs.MetricChrF": (chrf_in_mbrs, "pairwise"),
    "mbrs fastchrf": (mbrs_fastchrf, "pairwise"),
    "mbrs default (sacreBLEU, 8 processes)": (mbrs_sacrebleu, "pairwise"),
    "mbr default (evaluate chrf)": (zurich_mbr, "pairwise"),
    "mbrs fastchrf aggregate": (mbrs_fastchrf_aggregate, "aggregate"),
    "mbrs Python aggregate": (mbrs_python_aggregate, "aggregate"),
}

#: The package each method needs beyond chrf: without it, the method is left out.
NEEDS = {"mbrs": "mbrs", "mbr default": "mbr", "fastchrf": "fastchrf", "sacreBLEU": "sacrebleu"}

#: Per method and pool size: the rows measured when not the whole pool (None: not measured).
#: The sacreBLEU-based baselines score a pair in about 0.1 ms: a pool of 1,024 takes minutes.
SAMPLED: dict[str, dict[int, int | None]] = {
    "fastchrf pairwise + mean": {1024: 256, 4096: 64, 16384: 16},
    "sacreBLEU pair by pair + mean": {256: 16, 1024: 4, 4096: 1, 16384: None},
    "mbrs fastchrf": {4096: 1024, 16384: None},
    "mbrs default (sacreBLEU, 8 processes)": {1024: 128, 4096: 32, 16384: None},
    "mbr default (evaluate chrf)": {1024: 128, 4096: 32, 16384: None},
    "mbrs Python aggregate": {16384: None},
    "mbrs fastchrf aggregate": {16384: None},
    "mbrs with chrf.mbrs.MetricChrF": {16384: None},
}


def child(method: str, size: int, rows: int, kind: str) -> None:
    """Runs one measurement; prints it as JSON."""
    texts = pool(size, kind)
    function = METHODS[method][0]
    function(texts[:8], 2)  # imports and thread pools, outside the measurement
    before = _resident()
    # The best of up to 5 runs, while they take less than 2 s in all: short runs are noisy.
    wall, cpu, spent = float("inf"), float("inf"), 0.0
    for _ in range(REPEATS):
        usage = _cpu()
        start = time.perf_counter()
        utilities = function(texts, rows)
        elapsed = time.perf_counter() - start
        wall, cpu, spent = min(wall, elapsed), min(cpu, _cpu() - usage), spent + elapsed
        if spent > 2.0:
            break
    # The process's own peak (VmHWM: Linux keeps ru_maxrss across exec, from the parent), and
    # that of its reaped worker processes.
    peak = max(_own_peak(), resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
    print(
        json.dumps(
            {
                "wall": wall,
                "cpu": cpu,
                "peak": peak * 1024,
                "before": before,
                "utilities": utilities[:CHECKED],
                "best": max(range(len(utilities)), key=utilities.__getitem__),
            }
        )
    )


def interleaved(size: int, rounds: int, kind: str) -> None:
    """expected_utility and pairwise + mean, alternating in one process: each one's best wall
    and CPU time of `rounds` runs (the load of a shared machine moves between separate runs)."""
    texts = pool(size, kind)
    functions = {"expected_utility": chrf_expected_utility, "pairwise + mean": chrf_pairwise_mean}
    best = {name: [float("inf"), float("inf")] for name in functions}
    for function in functions.values():
        function(texts[:8], 8)
    for _ in range(rounds):
        for name, function in functions.items():
            usage, start = _cpu(), time.perf_counter()
            function(texts, size)
            wall, cpu = time.perf_counter() - start, _cpu() - usage
            best[name] = [min(best[name][0], wall), min(best[name][1], cpu)]
    print(json.dumps(best))


def _cpu() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def _own_peak() -> int:
    """The process's peak resident memory, in KiB."""
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmHWM:"))


def _resident() -> int:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def measure(
    method: str, size: int, rows: int, kind: str, package: str | None = None
) -> dict[str, Any]:
    """One child's measurement; with `package`, a folder holding a build of chrf, that build."""
    command = [sys.executable, __file__, "--child", method, str(size), str(rows), kind]
    env = {**os.environ, "PYTHONPATH": package} if package else None
    done = subprocess.run(command, capture_output=True, text=True, check=False, env=env)
    if done.returncode != 0:
        sys.exit(f"{method} at {size}: {done.stderr[-3000:]}")
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def builds(packages: list[str], sizes: Sequence[int], kinds: list[str], rounds: int) -> None:
    """Two builds of chrf (each a folder to put first on PYTHONPATH, as a checkout's `python/`
    with its extension built), alternating child by child: each method's least CPU time of
    `rounds` runs per build, after checking that both builds' utilities are the same bits."""
    print("| pool | size | method | CPU s, first build | CPU s, second build | ratio |")
    print("|---|---|---|---|---|---|")
    for kind in kinds:
        for size in sizes:
            for method in ("chrf expected_utility", "chrf pairwise + mean"):
                best = [float("inf")] * len(packages)
                utilities = []
                for _ in range(rounds):
                    for b, package in enumerate(packages):
                        result = measure(method, size, size, kind, package)
                        best[b] = min(best[b], result["cpu"])
                        utilities.append(result["utilities"])
                if any(u != utilities[0] for u in utilities):
                    sys.exit(f"{method} at {size}: the builds' utilities differ")
                print(
                    f"| {kind} | {size:,} | {method} | {best[0]:.3g} | {best[1]:.3g} "
                    f"| {best[0] / best[1]:.2f}x |",
                    flush=True,
                )


def versions() -> str:
    names = ["mbrs", "mbr", "fastchrf", "sacrebleu", "torch", "numpy"]
    found = []
    for name in names:
        try:
            found.append(f"{name} {version(name)}")
        except Exception:
            found.append(f"{name} missing")
    import chrf

    return (
        f"chrf {chrf.__version__} ({chrf.get_num_threads()} threads), {', '.join(found)}, "
        f"Python {platform.python_version()}, {os.cpu_count()} CPUs, load average "
        f"{os.getloadavg()[0]:.1f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer and smaller pools")
    parser.add_argument("--pools", nargs="*", default=list(SIZES), choices=list(SIZES))
    parser.add_argument("--sizes", nargs="*", type=int, help="these pool sizes, of every kind")
    parser.add_argument("--child", nargs=4, metavar=("METHOD", "SIZE", "ROWS", "POOL"))
    parser.add_argument("--methods", nargs="*", default=list(METHODS), choices=list(METHODS))
    parser.add_argument("--interleaved", nargs=3, metavar=("SIZE", "ROUNDS", "POOL"))
    parser.add_argument(
        "--builds", nargs=2, metavar=("FIRST", "SECOND"), help="two builds' package folders"
    )
    parser.add_argument("--rounds", type=int, default=3, help="runs of each build, with --builds")
    args = parser.parse_args()
    if args.builds:
        sizes = args.sizes or QUICK_SIZES["realistic"]
        builds(args.builds, sizes, args.pools, args.rounds)
        return
    if args.child:
        method, size, rows, kind = args.child
        child(method, int(size), int(rows), kind)
        return
    if args.interleaved:
        size, rounds, kind = args.interleaved
        interleaved(int(size), int(rounds), kind)
        return
    print(versions())
    methods = [method for method in args.methods if _installed(method)]
    for kind in args.pools:
        sizes = args.sizes or (QUICK_SIZES if args.quick else SIZES)[kind]
        print()
        print(f"{kind} pools:", flush=True)
        table(sizes, methods, kind)
        print()
        print(
            f"{kind} pools: expected_utility against pairwise + mean, alternating in one "
            "process (best of N):"
        )
        print()
        print("| pool | N | expected_utility wall s / CPU s | pairwise + mean wall s / CPU s |")
        print("|---|---|---|---|")
        for size in sizes:
            rounds = 5 if size <= 1024 else 2
            command = [sys.executable, __file__, "--interleaved", str(size), str(rounds), kind]
            done = subprocess.run(command, capture_output=True, text=True, check=True)
            best = json.loads(done.stdout.strip().splitlines()[-1])
            cells = [f"{wall:.3g} / {cpu:.3g}" for wall, cpu in best.values()]
            print(f"| {size:,} | {rounds} | {cells[0]} | {cells[1]} |", flush=True)


def _installed(method: str) -> bool:
    """Whether the packages a method needs import (mbrs and mbr need the mbr extra)."""
    import importlib.util

    needed = [package for prefix, package in NEEDS.items() if method.startswith(prefix)]
    missing = [package for package in needed if importlib.util.find_spec(package) is None]
    if missing:
        print(f"  left out: {method} ({', '.join(missing)} not installed)")
    return not missing


def table(sizes: tuple[int, ...], methods: list[str], kind: str) -> None:
    """Every method at every pool size, each in a child process."""
    rows_out = []
    references: dict[tuple[str, int], list[float]] = {}
    for size in sizes:
        for method in methods:
            rows = SAMPLED.get(method, {}).get(size, size)
            if rows is None:
                continue
            load = os.getloadavg()[0]
            result = measure(method, size, rows, kind)
            scale = size / rows
            exact = references.setdefault(
                (METHODS[method][1], size),
                result["utilities"] if method.startswith("chrf ") else [],
            )
            difference = max(
                (abs(a - b) for a, b in zip(result["utilities"], exact, strict=False)),
                default=0.0,
            )
            note = f"{rows:,} rows measured, times x {scale:g}" if rows != size else ""
            rows_out.append(
                (
                    method,
                    size,
                    result["cpu"] * scale,
                    result["wall"] * scale,
                    result["peak"] / 2**20,
                    result["before"] / 2**20,
                    difference,
                    load,
                    note,
                )
            )
            print(
                f"  {method} {size}: cpu {result['cpu'] * scale:.3f} s, wall "
                f"{result['wall'] * scale:.3f} s, peak {result['peak'] / 2**20:.0f} MiB, "
                f"max |utility - chrf's| {difference:.2g} {note}",
                flush=True,
            )
    print()
    print("| method | pool | CPU s | wall s | peak MiB | before MiB | max diff | load | note |")
    print("|---|---|---|---|---|---|---|---|---|")
    for method, size, cpu, wall, peak, before, difference, load, note in rows_out:
        print(
            f"| {method} | {size:,} | {cpu:.3g} | {wall:.3g} | {peak:.0f} | {before:.0f} "
            f"| {difference:.2g} | {load:.1f} | {note} |"
        )


if __name__ == "__main__":
    main()
