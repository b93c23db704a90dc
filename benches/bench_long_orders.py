"""Long segments at long orders: `sentence_scores`, `score` and `pairwise` of one segment pair.

    python3 benches/bench_long_orders.py                      # 0.5M to 8M characters, ~10 minutes
    python3 benches/bench_long_orders.py --sizes 500000 2000000 --orders 40

The pair is the WMT22 en-de hypothesis and reference, each joined into one line and repeated to the
size (a text that repeats itself is the hard case of a sort of long windows). The three calls give
the same float for the same pair (checked: the script exits otherwise), by one algorithm: each sorts
the windows of the pair (a matrix of one cell is scored pair by pair, as a segment is). Each call's
wall and CPU time (best of `--repeats`), its microseconds per character, the slowest call over the
fastest, and per order how the time per character of each call grows from the smallest size to the
largest (1.0: linear in the text).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable
from functools import partial

from wmt_data import wmt_dir

import chrf

CALLS: dict[str, Callable[[str, str, int], float]] = {
    "sentence_scores": lambda h, r, n: float(chrf.sentence_scores([h], [r], char_order=n)[0]),
    "score": lambda h, r, n: chrf.score([h], [r], char_order=n),
    "pairwise": lambda h, r, n: float(chrf.pairwise([h], [r], char_order=n)[0, 0]),
}


def texts() -> tuple[str, str]:
    folder = wmt_dir() / "generaltest2022.en-de"
    hyp = sorted(folder.glob("hyp.*.txt"))[0]
    ref = folder / "ref.A.txt"
    return tuple(p.read_text("utf-8").replace("\n", " ") for p in (hyp, ref))  # type: ignore[return-value]


def repeated(text: str, size: int) -> str:
    return (text * (size // len(text) + 1))[:size]


def timed(call: Callable[[], float], repeats: int) -> tuple[float, float, float]:
    """(value, best wall time, best CPU time) of `repeats` calls."""
    walls, cpus, value = [], [], 0.0
    for _ in range(repeats):
        wall, cpu = time.perf_counter(), time.process_time()
        value = call()
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return value, min(walls), min(cpus)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--sizes",
        type=int,
        nargs="+",
        default=[500_000, 1_000_000, 2_000_000, 4_000_000, 8_000_000],
    )
    parser.add_argument("--orders", type=int, nargs="+", default=[6, 40])
    parser.add_argument("--repeats", type=int, default=1)
    args = parser.parse_args()
    hyp, ref = texts()
    for call in CALLS.values():
        call("warm-up", "warm up", 6)  # NumPy's import and the pool's start are not measured
    load = os.getloadavg()[0]
    print(f"threads: {chrf.get_num_threads()} (of {os.cpu_count()} CPUs), load {load:.1f}")
    for order in args.orders:
        print(f"\nchar_order={order}\n")
        print(
            "| characters | "
            + " | ".join(f"{c} wall, CPU (s)" for c in CALLS)
            + " | µs/char (CPU) | slowest/fastest (CPU) |"
        )
        print("|---:|" + "---:|" * (len(CALLS) + 2))
        per_char: dict[str, list[float]] = {name: [] for name in CALLS}
        for size in args.sizes:
            h, r = repeated(hyp, size), repeated(ref, size)
            results = {
                name: timed(partial(call, h, r, order), args.repeats)
                for name, call in CALLS.items()
            }
            if len({value for value, _, _ in results.values()}) != 1:
                sys.exit(f"the calls disagree at {size} characters, order {order}: {results}")
            cpus = [cpu for _, _, cpu in results.values()]
            for name, (_, _, cpu) in results.items():
                per_char[name].append(cpu / size * 1e6)
            cells = " | ".join(f"{wall:.2f}, {cpu:.2f}" for _, wall, cpu in results.values())
            micros = ", ".join(f"{cpu / size * 1e6:.2f}" for cpu in cpus)
            print(
                f"| {size:,} | {cells} | {micros} | {max(cpus) / max(min(cpus), 1e-9):.2f} |",
                flush=True,
            )
        growth = ", ".join(
            f"{name} {values[-1] / max(values[0], 1e-12):.2f}" for name, values in per_char.items()
        )
        print(f"\nCPU time per character at {args.sizes[-1]:,} over {args.sizes[0]:,}: {growth}")


if __name__ == "__main__":
    main()
