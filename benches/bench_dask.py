"""chrf.dask on a LocalCluster against one chrf.score call, on a TSV of repeated WMT22 lines.

    python3 -m pip install -e '.[test]' && python3 benches/bench_dask.py [REPEATS] [DATA]

Writes REPEATS copies (default 250) of en-de Online-B with reference A as
``hypothesis<TAB>reference`` lines to a temporary file, scores it with
``chrf.dask.statistics`` on 2 worker processes (one thread each) reading 16 MiB blocks, and
with one ``chrf.score`` call; prints both times and checks that the scores are equal.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

import dask.bag as db
from distributed import Client, LocalCluster
from wmt_data import wmt_dir

import chrf
import chrf.dask


def split(line: str) -> list[str]:
    return line.rstrip("\n").split("\t", 1)


def main() -> None:
    repeats = int(sys.argv[1]) if len(sys.argv) > 1 else 250
    folder = wmt_dir(sys.argv[2] if len(sys.argv) > 2 else None) / "generaltest2022.en-de"
    hyps = (folder / "hyp.Online-B.txt").read_text("utf-8").split("\n")[:-1] * repeats
    refs = (folder / "ref.A.txt").read_text("utf-8").split("\n")[:-1] * repeats
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp, "corpus.tsv")
        path.write_text("".join(f"{h}\t{r}\n" for h, r in zip(hyps, refs, strict=True)), "utf-8")
        size = path.stat().st_size / 2**20
        with (
            LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None) as cluster,
            Client(cluster),
        ):
            start = time.perf_counter()
            pairs = db.read_text(str(path), blocksize="16MiB").map(split)
            distributed = chrf.dask.statistics(pairs, word_order=2).compute().score()
            took = time.perf_counter() - start
        start = time.perf_counter()
        single = chrf.score(hyps, refs, word_order=2)
        single_took = time.perf_counter() - start
    print(f"{len(hyps):,} lines ({size:.0f} MiB), chrF++")
    print(f"chrf.dask, 2 worker processes: {took:.2f} s  {distributed!r}")
    print(f"chrf.score, one call:          {single_took:.2f} s  {single!r}")
    assert distributed == single


if __name__ == "__main__":
    main()
