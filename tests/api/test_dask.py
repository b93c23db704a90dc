"""chrf.dask on a real dask.distributed cluster of worker processes: statistics of shards sum
to the single call's, sentence scores come back in order, and workers run chrf on their own
thread count."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import chrf
import chrf.dask


@pytest.fixture(scope="module")
def client() -> Iterator[object]:
    from distributed import Client, LocalCluster

    # The scheduler's HTTP server (no dashboard) on loopback, at a port the system picks (see the
    # first test).
    with (
        LocalCluster(
            n_workers=2,
            processes=True,
            threads_per_worker=1,
            dashboard_address="127.0.0.1:0",
            scheduler_kwargs={"dashboard": False},
        ) as cluster,
        Client(cluster) as client,
    ):
        yield client


def test_the_cluster_serves_http_on_a_loopback_port_the_system_chose(client: object) -> None:
    # The scheduler serves HTTP (health, metrics) even without its dashboard, by default on
    # port 8787: two test runs side by side met there. A port the system chose never meets one.
    server = client.cluster.scheduler.http_server  # type: ignore[attr-defined]
    assert server.address == "127.0.0.1"
    assert server.port != 8787


def corpus(wmt_dir: Path) -> tuple[list[str], list[str], list[str]]:
    folder = wmt_dir / "generaltest2022.en-de"
    hyps, ref_a, ref_b = (
        (folder / name).read_text("utf-8").split("\n")[:400]
        for name in ("hyp.Online-B.txt", "ref.A.txt", "ref.B.txt")
    )
    return hyps, ref_a, ref_b


def test_worker_processes_use_the_workers_threads(client: object) -> None:
    import dask.bag as db

    def chrf_loaded() -> bool:
        return "chrf" in sys.modules

    if any(client.run(chrf_loaded).values()):  # type: ignore[attr-defined]
        client.restart()  # type: ignore[attr-defined]

    def threads_at_import(_: object) -> int:
        return chrf.get_num_threads()  # pickled by value: unpickling it imports chrf

    def threads_after_a_task(_: object) -> int:
        chrf.dask.statistics(db.from_sequence([("a", "a")])).compute(scheduler="sync")
        return chrf.get_num_threads()

    for task in (threads_at_import, threads_after_a_task):
        counts = client.gather(client.map(task, range(4), pure=False))  # type: ignore[attr-defined]
        assert counts == [1, 1, 1, 1]


def test_bag_statistics_and_sentence_scores_equal_the_single_call(
    client: object, wmt_dir: Path
) -> None:
    import dask.bag as db

    hyps, ref_a, ref_b = corpus(wmt_dir)
    # Every 7th segment has its second reference missing: sacreBLEU's variable references.
    refs = [
        [a, None if i % 7 == 0 else b] for i, (a, b) in enumerate(zip(ref_a, ref_b, strict=True))
    ]
    bag = db.from_sequence(list(zip(hyps, refs, strict=True)), npartitions=5)
    stats = chrf.dask.statistics(bag, word_order=2, split_every=3).compute()
    single = chrf.statistics(hyps, refs, layout="per_hypothesis", word_order=2)
    assert stats == single
    assert stats.score() == single.score()
    scores = chrf.dask.sentence_scores(bag, word_order=2).compute()
    assert (
        scores == chrf.sentence_scores(hyps, refs, layout="per_hypothesis", word_order=2).tolist()
    )


def test_a_chosen_thread_count_wins_over_a_workers_default() -> None:
    from chrf import _threads

    try:
        chrf.set_num_threads(2)
        _threads.default_to(1)
        assert chrf.get_num_threads() == 2
        chrf.set_num_threads(None)
        _threads.default_to(1)
        assert chrf.get_num_threads() == 1
    finally:
        chrf.set_num_threads(None)


def test_a_collection_of_another_kind_and_bad_options_are_refused_at_once() -> None:
    import dask.bag as db

    with pytest.raises(TypeError, match=r"dask\.bag\.Bag or a dask\.dataframe\.DataFrame"):
        chrf.dask.statistics([("a", "a")])
    bag = db.from_sequence([("a", "a")])
    with pytest.raises(ValueError, match="split_every must be an int of at least 2"):
        chrf.dask.statistics(bag, split_every=1)

    class Unprintable:
        def __repr__(self) -> str:
            raise RuntimeError("no repr")

    with pytest.raises(ValueError, match="split_every must be an int of at least 2, not "):
        chrf.dask.statistics(bag, split_every=Unprintable())  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="beta must be"):
        chrf.dask.sentence_scores(bag, beta="2")  # type: ignore[arg-type]


def test_import_chrf_imports_no_framework() -> None:
    import subprocess

    code = (
        "import sys, chrf; chrf.score(['a'], ['a']); chrf.compute(['a'], [['a']]); "
        "print(sorted({m.split('.')[0] for m in sys.modules} & "
        "{'dask', 'distributed', 'torch', 'torchmetrics', 'evaluate', 'datasets', 'pandas'}))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"
