"""Scoring from Arrow columns against ``to_pylist()`` + lists: CPU time and peak memory.

    python3 -m pip install -e '.[arrow]' && python3 benches/bench_arrow.py   # about 20 minutes
    python3 benches/bench_arrow.py --sizes 1000000                       # 1M pairs only

The pairs are WMT22's system outputs against their test set's first reference (every set in
the full WMT22 sets, or the bundled excerpts without them: see ``wmt_data.py``), repeated and
shuffled (a fixed seed) to 1M and 10M pairs, written to a Parquet file in a temporary folder.
Each measurement runs in a child process of its own, which reads the Parquet file into a
pyarrow Table and then, measured: scores the pyarrow columns (ChunkedArray) as they are
("pyarrow"), or a polars DataFrame's Series made from the table before the measurement
("polars"), or calls ``to_pylist()`` on each column and scores the lists ("to_pylist +
lists", what a user without an Arrow path does). CPU time is
user + system of the child's threads over the measured part (``time.process_time``); memory
is the child's VmHWM (peak resident set, from /proc/self/status, which a child does not inherit
across exec as it does ru_maxrss; reset just before the measured part by writing 5 to
/proc/self/clear_refs, since reading the Parquet file peaks higher than holding its table) and
its VmRSS just before the measured part, so that ``peak - before`` is what the measured part
added at its peak.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

from wmt_data import wmt_dir

SIZES = (1_000_000, 10_000_000)
FUNCTIONS = ("sentence_scores", "score", "statistics")
SOURCES = ("pyarrow", "polars", "to_pylist + lists")
SEED = 31

CHILD = r"""
import json, sys, time
import pyarrow.parquet as pq

def status(field):
    for line in open("/proc/self/status"):
        if line.startswith(field + ":"):
            return int(line.split()[1]) * 1024
    raise RuntimeError(field)

path, function, source = sys.argv[1:]
import chrf
table = pq.read_table(path)
if source == "polars":
    import polars as pl
    frame = pl.from_arrow(table)
    hyp, ref = frame["hyp"], frame["ref"]
else:
    hyp, ref = table["hyp"], table["ref"]
score = getattr(chrf, function)
score(["warm up"], ["warm up"])
# The peak of the measured part alone: reading the file peaks higher than holding the table.
with open("/proc/self/clear_refs", "w") as clear:
    clear.write("5")  # resets VmHWM to the current resident set
before = status("VmRSS")
start = time.process_time()
if source == "to_pylist + lists":
    hyp, ref = hyp.to_pylist(), ref.to_pylist()
result = score(hyp, ref)
cpu = time.process_time() - start
if function == "sentence_scores":
    result = float(result.sum())
elif function == "statistics":
    result = result.score()
print(json.dumps({"cpu": cpu, "before": before, "peak": status("VmHWM"), "result": result}))
"""


def pairs() -> tuple[list[str], list[str]]:
    """Every system output line of the full WMT22 sets with its set's reference A."""
    hyps: list[str] = []
    refs: list[str] = []
    for test_set in sorted(wmt_dir().iterdir()):
        ref = lines(test_set / "ref.A.txt")
        for system in sorted(test_set.glob("hyp.*.txt")):
            hyp = lines(system)
            if len(hyp) == len(ref):
                hyps += hyp
                refs += ref
    return hyps, refs


def lines(path: Path) -> list[str]:
    text = path.read_text("utf-8")
    return (text[:-1] if text.endswith("\n") else text).split("\n")


def write_parquet(size: int, path: Path) -> int:
    """``size`` pairs drawn from the WMT pairs (each used about as often, shuffled); returns
    the Arrow data's size in bytes."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.parquet as pq

    hyps, refs = pairs()
    rng = np.random.default_rng(SEED)
    picks = rng.permutation(np.resize(np.arange(len(hyps)), size))
    table = pa.table({"hyp": pa.array(hyps), "ref": pa.array(refs)}).take(picks)
    pq.write_table(table, path, row_group_size=1 << 16)
    return int(table.nbytes)


def measure(path: Path, function: str, source: str) -> dict[str, float]:
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(path), function, source],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        sys.exit(f"{function} from {source} failed:\n{done.stderr}")
    result: dict[str, float] = json.loads(done.stdout)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=list(SIZES))
    args = parser.parse_args()
    import chrf

    print(f"chrf {chrf.__version__}, {chrf.get_num_threads()} threads")
    print("| pairs | function | from | CPU s | speed vs lists | peak MB | added MB |")
    print("|---:|---|---|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as folder:
        for size in args.sizes:
            path = Path(folder) / f"pairs-{size}.parquet"
            arrow_bytes = write_parquet(size, path)
            print(f"<!-- {size:,} pairs: {arrow_bytes / 1e6:,.0f} MB of Arrow data -->")
            for function in FUNCTIONS:
                rows = {source: measure(path, function, source) for source in SOURCES}
                results = {row["result"] for row in rows.values()}
                if len(results) != 1:
                    sys.exit(f"{function}: the sources disagree: {rows}")
                lists = rows["to_pylist + lists"]["cpu"]
                for source, row in rows.items():
                    print(
                        f"| {size:,} | {function} | {source} | {row['cpu']:.2f} "
                        f"| {lists / row['cpu']:.2f}x | {row['peak'] / 1e6:,.0f} "
                        f"| {(row['peak'] - row['before']) / 1e6:,.0f} |",
                        flush=True,
                    )
            path.unlink()


if __name__ == "__main__":
    main()
