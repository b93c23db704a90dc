"""Corpus chrF and chrF++ on one thread: chrf's CPU time against sacreBLEU's, runs interleaved.

    CHRF_NUM_THREADS=1 python3 benches/bench_one_thread.py       # about 3 minutes
    python3 benches/bench_one_thread.py --sets en-de,en-zh --rounds 3

What a user on one core sees: chrf runs on one thread (``CHRF_NUM_THREADS=1`` is set if unset),
and both sides are timed by CPU time (``time.process_time``) in one process, a sacreBLEU run then
several chrf runs, round after round, so that both see the same machine state. Every chrf score is
checked equal to sacreBLEU's before it is timed. Prints, per WMT22 set (one system against
reference A) and configuration, the least and the median CPU time of each side and both ratios,
and chrf's CPU time per character (whitespace excluded).
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from pathlib import Path

os.environ.setdefault("CHRF_NUM_THREADS", "1")

from sacrebleu.metrics import CHRF as SacreCHRF
from wmt_data import wmt_dir

import chrf


def read_lines(path: Path) -> list[str]:
    text = path.read_text("utf-8")
    return (text[:-1] if text.endswith("\n") else text).split("\n")


def cpu_seconds(work: object, *args: object, **kwargs: object) -> tuple[float, object]:
    start = time.process_time()
    result = work(*args, **kwargs)  # type: ignore[operator]
    return time.process_time() - start, result


def measure(folder: Path, rounds: int, per_round: int) -> list[str]:
    refs = read_lines(folder / "ref.A.txt")
    hyp_file = sorted(folder.glob("hyp.*.txt"))[0]
    hyps = read_lines(hyp_file)
    chars = sum(len("".join(text.split())) for text in hyps + refs)
    rows = []
    for config, word_order in (("chrF", 0), ("chrF++", 2)):
        metric = SacreCHRF(word_order=word_order)
        ours, theirs = [], []
        chrf.score(hyps, refs, word_order=word_order)  # warm-up
        for _ in range(rounds):
            took, result = cpu_seconds(metric.corpus_score, hyps, [refs])
            expected = result.score  # type: ignore[attr-defined]
            theirs.append(took)
            for _ in range(per_round):
                took, got = cpu_seconds(chrf.score, hyps, refs, word_order=word_order)
                ours.append(took)
                assert got == expected, (got, expected)
        best, median = min(ours), statistics.median(ours)
        their_best, their_median = min(theirs), statistics.median(theirs)
        rows.append(
            f"| {folder.name.split('.')[-1]} {hyp_file.stem[4:]} | {config} | "
            f"{best * 1e3:.2f} / {median * 1e3:.2f} ms | "
            f"{their_best * 1e3:.0f} / {their_median * 1e3:.0f} ms | "
            f"{their_best / best:.0f}x / {their_median / median:.0f}x | "
            f"{best * 1e9 / chars:.1f} ns |"
        )
        print(rows[-1], flush=True)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", help="comma-separated language pairs (default: all seven)")
    parser.add_argument("--rounds", type=int, default=5, help="sacreBLEU runs (default 5)")
    parser.add_argument("--per-round", type=int, default=10, help="chrf runs after each")
    args = parser.parse_args()
    wmt = wmt_dir()
    folders = sorted(p for p in wmt.iterdir() if p.is_dir())
    if args.sets:
        wanted = set(args.sets.split(","))
        folders = [p for p in folders if p.name.split(".")[-1] in wanted]
    print(f"chrf {chrf.__version__} on {chrf.get_num_threads()} thread(s), {os.cpu_count()} CPUs")
    print("| set | config | chrf CPU, least / median | sacreBLEU CPU | ratio | chrf a character |")
    print("|---|---|---:|---:|---:|---:|")
    for folder in folders:
        measure(folder, args.rounds, args.per_round)


if __name__ == "__main__":
    main()
