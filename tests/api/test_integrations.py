"""chrf inside torchmetrics (with a real 2-process gloo DDP group), Hugging Face evaluate and
dask.dataframe: the frameworks of the 'integrations' extra, run by the README's separate
command (pytest -m integrations); the main command deselects them."""

from __future__ import annotations

import json
import os
import socket
from pathlib import Path
from typing import Any

import pytest

import chrf

pytestmark = pytest.mark.integrations


def en_de(wmt_dir: Path, count: int) -> tuple[list[str], list[str], list[str]]:
    folder = wmt_dir / "generaltest2022.en-de"
    hyps, ref_a, ref_b = (
        (folder / name).read_text("utf-8").split("\n")[:count]
        for name in ("hyp.Online-B.txt", "ref.A.txt", "ref.B.txt")
    )
    return hyps, ref_a, ref_b


def test_torchmetrics_defaults_and_scores_are_sacrebleus(wmt_dir: Path) -> None:
    import inspect

    import torch
    from sacrebleu.metrics import CHRF
    from torchmetrics.text import CHRFScore as Theirs

    from chrf.torchmetrics import CHRFScore

    ours_signature = inspect.signature(CHRFScore.__init__).parameters
    theirs_signature = inspect.signature(Theirs.__init__).parameters
    assert [(p.name, p.default) for p in ours_signature.values()] == [
        (p.name, p.default) for p in theirs_signature.values()
    ]
    hyps, ref_a, ref_b = en_de(wmt_dir, 300)
    metric = CHRFScore(return_sentence_level_score=True)
    for start in range(0, 300, 64):
        batch = slice(start, start + 64)
        metric.update(hyps[batch], [list(r) for r in zip(ref_a[batch], ref_b[batch], strict=True)])
    value, sentences = metric.compute()
    sacre = CHRF(word_order=2)
    assert value.dtype == torch.float64
    assert value.item() == sacre.corpus_score(hyps, [ref_a, ref_b]).score / 100
    assert sentences.tolist() == [
        sacre.sentence_score(h, [a, b]).score / 100
        for h, a, b in zip(hyps, ref_a, ref_b, strict=True)
    ]
    # torchmetrics' own input forms: a lone prediction as str with its references as a list.
    lone = CHRFScore(n_word_order=0, beta=3.0)
    assert lone(hyps[0], [ref_a[0], ref_b[0]]).item() == (
        chrf.score([hyps[0]], [[ref_a[0]], [ref_b[0]]], beta=3) / 100
    )


def test_torchmetrics_forward_gives_the_batch_and_accumulates_the_corpus(wmt_dir: Path) -> None:
    from chrf.torchmetrics import CHRFScore

    hyps, ref_a, _ = en_de(wmt_dir, 200)
    metric = CHRFScore(n_word_order=0, lowercase=True)
    first = metric(hyps[:120], ref_a[:120])  # one str per prediction: one reference each
    second = metric(hyps[120:], ref_a[120:])
    assert first.item() == chrf.score(hyps[:120], ref_a[:120], lowercase=True) / 100
    assert second.item() == chrf.score(hyps[120:], ref_a[120:], lowercase=True) / 100
    assert metric.compute().item() == chrf.score(hyps, ref_a, lowercase=True) / 100
    metric.reset()
    metric.update(hyps[:5], ref_a[:5])
    assert metric.compute().item() == chrf.score(hyps[:5], ref_a[:5], lowercase=True) / 100


def test_torchmetrics_states_are_exact_beyond_int64() -> None:
    import torch

    from chrf.torchmetrics import CHRFScore, _integers, _limbs

    counts = [[2**127 + 5, 2**64 + 1, 2**63], [0, 1, 2**32 - 1]]
    limbs = _limbs(counts, device=None)
    assert limbs.dtype == torch.int64
    assert _integers(limbs) == counts
    assert _integers(limbs + limbs) == [[2 * c for c in row] for row in counts]  # a DDP sum
    metric = CHRFScore(n_char_order=1, n_word_order=0)
    huge = 2**100
    metric.counts = _limbs([[huge, huge, huge]], device=None)  # as after exabytes of text
    metric.segments = _limbs(huge, device=None)
    metric.update(["ab"], [["ac"]])
    assert _integers(metric.counts) == [[huge + 2, huge + 2, huge + 1]]
    assert _integers(metric.segments) == huge + 1


def _ddp_rank(rank: int, world: int, port: int, shards: list[Any], out: str) -> None:
    import torch.distributed as dist

    from chrf.torchmetrics import CHRFScore

    os.environ["MASTER_ADDR"] = "127.0.0.1"
    os.environ["MASTER_PORT"] = str(port)
    dist.init_process_group("gloo", rank=rank, world_size=world)
    try:
        metric = CHRFScore(return_sentence_level_score=True)
        hyps, refs = shards[rank]
        for start in range(0, len(hyps), 50):
            metric.update(hyps[start : start + 50], refs[start : start + 50])
        value, sentences = metric.compute()
        Path(out, f"{rank}.json").write_text(json.dumps([value.item(), sentences.tolist()]))
    finally:
        dist.destroy_process_group()


def test_ddp_over_two_gloo_processes_gives_the_single_process_result(
    wmt_dir: Path, tmp_path: Path
) -> None:
    import torch.multiprocessing as mp

    from chrf.torchmetrics import CHRFScore

    hyps, ref_a, ref_b = en_de(wmt_dir, 600)
    refs = [[a, b] for a, b in zip(ref_a, ref_b, strict=True)]
    cut = 230  # uneven shards: the sentence scores are gathered across ranks of unequal size
    shards = [(hyps[:cut], refs[:cut]), (hyps[cut:], refs[cut:])]
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    mp.spawn(_ddp_rank, args=(2, port, shards, str(tmp_path)), nprocs=2, join=True)
    single = CHRFScore(return_sentence_level_score=True)
    single.update(hyps, refs)
    value, sentences = single.compute()
    for rank in (0, 1):
        ddp_value, ddp_sentences = json.loads((tmp_path / f"{rank}.json").read_text())
        assert ddp_value == value.item()
        assert ddp_sentences == sentences.tolist()
    assert value.item() == chrf.score(hyps, [ref_a, ref_b], word_order=2) / 100


def test_evaluate_load_of_the_shipped_metric_reproduces_evaluates_examples() -> None:
    import evaluate

    metric = evaluate.load(chrf.evaluate_module())
    predictions = [
        "The relationship between cats and dogs is not exactly friendly.",
        "a good bookshop is just a genteel black hole that knows how to read.",
    ]
    references = [
        ["The relationship between dogs and cats is not exactly friendly."],
        ["A good bookshop is just a genteel Black Hole that knows how to read."],
    ]
    # The docstring examples of evaluate's metrics/chrf/chrf.py (huggingface/evaluate).
    assert metric.compute(predictions=predictions, references=references) == {
        "score": 84.64214891738334,
        "char_order": 6,
        "word_order": 0,
        "beta": 2,
    }
    assert metric.compute(
        predictions=predictions, references=references, word_order=2, lowercase=True
    ) == {"score": 92.12853119829202, "char_order": 6, "word_order": 2, "beta": 2}
    flat = [refs[0] for refs in references]  # evaluate's second feature set: one str each
    assert metric.compute(predictions=predictions, references=flat)["score"] == 84.64214891738334


def test_dask_dataframe_statistics_and_sentence_scores_equal_the_single_call(
    wmt_dir: Path,
) -> None:
    import dask
    import dask.dataframe as dd
    import pandas as pd

    import chrf.dask

    hyps, ref_a, ref_b = en_de(wmt_dir, 700)
    ref_b = [None if i % 5 == 0 else r for i, r in enumerate(ref_b)]
    frame = pd.DataFrame({"hypothesis": hyps, "reference": ref_a, "reference_b": ref_b})
    ddf = dd.from_pandas(frame, npartitions=6)
    columns = ["reference", "reference_b"]
    with dask.config.set(scheduler="processes", num_workers=2):
        stats = chrf.dask.statistics(ddf, references=columns, beta=3).compute()
        scores = chrf.dask.sentence_scores(ddf, references=columns, beta=3).compute()
    streams = [ref_a, ref_b]
    assert stats == chrf.statistics(hyps, streams, layout="streams", beta=3)
    assert scores.tolist() == chrf.sentence_scores(hyps, streams, layout="streams", beta=3).tolist()
    assert scores.index.equals(frame.index)
