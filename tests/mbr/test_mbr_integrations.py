"""chrf inside the MBR frameworks of the 'mbr' extra: mbrs (naist-nlp) and ZurichNLP's mbr,
against their own chrF on real WMT sentences. Their pins (numpy<2, torchmetrics<0.11, an old
transformers) conflict with the 'integrations' extra, so they have their own extra and marker:

    pip install -e '.[test,mbr]' && pytest -m mbr_integrations
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import chrf

pytestmark = pytest.mark.mbr_integrations

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benches"))


def sentences(wmt_dir: Path, count: int) -> list[str]:
    """en-de Online-B's outputs and reference A's lines, interleaved (pairs of the same source)."""
    folder = wmt_dir / "generaltest2022.en-de"
    hyps, refs = (
        (folder / name).read_text("utf-8").split("\n") for name in ("hyp.Online-B.txt", "ref.A.txt")
    )
    return [text for pair in zip(hyps, refs, strict=False) for text in pair][:count]


def mbrs_metric(**config: Any) -> Any:
    from mbrs.metrics import MetricChrF

    return MetricChrF(MetricChrF.Config(num_workers=2, **config))


def ours(**config: Any) -> Any:
    from chrf.mbrs import MetricChrF

    return MetricChrF(MetricChrF.Config(**config))


def test_mbrs_registry_and_interface() -> None:
    from mbrs.metrics import MetricAggregatable, get_metric

    from chrf.mbrs import NAME, MetricChrF

    assert get_metric(NAME) is MetricChrF
    assert get_metric("chrf") is not MetricChrF  # mbrs' own stays under its name
    assert issubclass(MetricChrF, MetricAggregatable)
    with pytest.raises(ValueError, match="beta"):
        ours(beta=-1)
    # β = 0 is chrF0, the precision alone, as mbrs' own metric computes it.
    pool = ["The cat sat on the mat.", "A cat sat.", "Cats sit."]
    zero = ours(beta=0).pairwise_scores(pool, pool)
    assert zero.float().tolist() == mbrs_metric(beta=0).pairwise_scores(pool, pool).tolist()


@pytest.mark.parametrize("word_order", [0, 2])
def test_mbrs_scores_equal_mbrs_own_chrf(wmt_dir: Path, word_order: int) -> None:
    import torch

    pool = sentences(wmt_dir, 24)
    theirs, mine = mbrs_metric(word_order=word_order), ours(word_order=word_order)
    # mbrs' tensors are float32 of sacreBLEU's doubles; chrf's are the doubles.
    pairwise = mine.pairwise_scores(pool, pool)
    assert pairwise.dtype == torch.float64
    assert torch.equal(pairwise.float(), theirs.pairwise_scores(pool, pool))
    assert torch.equal(mine.scores(pool, pool[::-1]).float(), theirs.scores(pool, pool[::-1]))
    assert mine.score(pool[0], pool[1]) == theirs.score(pool[0], pool[1])
    streams = [pool[12:], pool[:12]]
    assert mine.corpus_score(pool[:12], streams) == theirs.corpus_score(pool[:12], streams)
    # Expected scores: chrf's exact means; mbrs' float32 means of float32 scores.
    expected = mine.expected_scores(pool, pool)
    assert expected.tolist() == chrf.expected_utility(pool, pool, word_order=word_order).tolist()
    assert torch.allclose(expected, theirs.expected_scores(pool, pool).double(), atol=1e-4)
    lprobs = torch.linspace(-3.0, 0.0, len(pool))
    weighted = mine.expected_scores(pool, pool, reference_lprobs=lprobs)
    their_weighted = theirs.expected_scores(pool, pool, reference_lprobs=lprobs)
    assert torch.allclose(weighted, their_weighted.double(), atol=1e-4)
    assert int(weighted.argmax()) == int(their_weighted.argmax())


def test_mbrs_fastchrf_backend_gives_the_same_numbers(wmt_dir: Path) -> None:
    import torch

    pool = sentences(wmt_dir, 40)
    fast, mine = mbrs_metric(fastchrf=True), ours()
    assert torch.equal(mine.pairwise_scores(pool, pool).float(), fast.pairwise_scores(pool, pool))
    assert torch.equal(
        mine.expected_scores_reference_aggregation(pool, pool).float(),
        fast.expected_scores_reference_aggregation(pool, pool),
    )
    # What mbrs' fastchrf backend refuses, chrf's metric does.
    with pytest.raises(ValueError, match="word_order"):
        mbrs_metric(fastchrf=True, word_order=2)
    assert (
        ours(word_order=2)
        .expected_scores_reference_aggregation(pool, pool, reference_lprobs=torch.zeros(len(pool)))
        .tolist()
        == chrf.aggregate(pool, pool, word_order=2).tolist()
    )


def test_mbrs_model_weights(wmt_dir: Path) -> None:
    import torch

    from chrf.mbrs import weights_of_lprobs

    pool = sentences(wmt_dir, 30)
    lprobs = torch.tensor([-0.5 * k for k in range(len(pool))], dtype=torch.float32)
    weights = weights_of_lprobs(lprobs, len(pool))
    # exp(l - max l) in float64, taken exactly: the largest is 1, none is rounded to 0.
    assert weights == np.exp(lprobs.double().numpy() - float(lprobs.max())).tolist()
    assert weights[0] == 1.0
    assert weights_of_lprobs(lprobs.numpy(), len(pool)) == weights
    mine, theirs = ours(word_order=2), mbrs_metric(word_order=2)
    expected = mine.expected_scores(pool, pool, reference_lprobs=lprobs)
    assert expected.tolist() == chrf.expected_utility(pool, pool, weights, word_order=2).tolist()
    aggregated = mine.expected_scores_reference_aggregation(pool, pool, reference_lprobs=lprobs)
    their_aggregated = theirs.expected_scores_reference_aggregation(
        pool, pool, reference_lprobs=lprobs
    )
    assert torch.allclose(aggregated, their_aggregated.double(), atol=1e-4)
    assert weights_of_lprobs(torch.tensor([0.0, -float("inf")]), 2) == [1.0, 0.0]
    with pytest.raises(ValueError, match="reference_lprobs has 2 values but there are 3"):
        weights_of_lprobs(torch.zeros(2), 3)
    with pytest.raises(ValueError, match="finite"):
        weights_of_lprobs(torch.tensor([0.0, float("nan")]), 2)


def test_mbrs_reference_aggregation_keeps_weights_tens_of_nats_apart() -> None:
    import torch

    # Regression: a weight below 2**-54 of the largest was rounded to 0, which here drops the
    # character orders 3 to 6 from the bag: 59.375 where mbrs has 28.9634.
    pool = ["abcdefg", "ab"]
    lprobs = torch.tensor([-40.0, 0.0])
    mine = ours().expected_scores_reference_aggregation(pool, pool, reference_lprobs=lprobs)
    assert mine.tolist() == [28.96341463414634, 100.0]
    theirs = mbrs_metric().expected_scores_reference_aggregation(
        pool, pool, reference_lprobs=lprobs
    )
    assert torch.allclose(mine, theirs.double(), atol=1e-4)
    # A NumPy array as well as a tensor.
    numpy_lprobs = lprobs.numpy()
    again = ours().expected_scores_reference_aggregation(pool, pool, reference_lprobs=numpy_lprobs)
    assert again.tolist() == mine.tolist()


def test_mbrs_decoders_choose_as_with_mbrs_own_metric(wmt_dir: Path) -> None:
    from mbrs.decoders import DecoderAggregateMBR, DecoderMBR

    pool = sentences(wmt_dir, 32)
    for decoder in (DecoderMBR, DecoderAggregateMBR):
        mine = decoder(decoder.Config(), ours()).decode(pool, pool, nbest=3)
        theirs = decoder(decoder.Config(), mbrs_metric(fastchrf=True)).decode(pool, pool, nbest=3)
        assert mine.idx == theirs.idx
        assert mine.sentence == [pool[i] for i in mine.idx]


class Frozen(dict):  # type: ignore[type-arg]
    """metric_kwargs for mbr's own runner, which caches on them: they must be hashable."""

    def __hash__(self) -> int:  # type: ignore[override]
        return hash(tuple(sorted(self.items())))


class Lines:
    """A tokenizer stand-in for mbr's runners: a sequence's first id is a line's index."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines

    def batch_decode(self, ids: Any, skip_special_tokens: bool = True) -> list[str]:
        return [self.lines[int(row[0])] for row in ids]


def test_zurich_runner_equals_mbrs_default_runner(wmt_dir: Path) -> None:
    import torch
    from bench_mbr import sacrebleu_metric
    from mbr import MBRConfig
    from mbr import MetricRunner as Theirs

    from chrf.zurich_mbr import MetricRunner

    lines = sentences(wmt_dir, 60)
    batch, samples, references = 3, 7, 5
    sample_ids = tuple(
        torch.tensor([[20 * b + j, 0] for b in range(batch)]) for j in range(samples)
    )
    reference_ids = tuple(
        torch.tensor([[20 * b + 10 + k, 0] for b in range(batch)]) for k in range(references)
    )
    options = Frozen(word_order=2, beta=3)
    config = {"num_samples": samples, "num_references": references, "metric_kwargs": options}
    theirs = Theirs(
        MBRConfig(metric=sacrebleu_metric(), output_metric_scores=True, **config), Lines(lines)
    )(None, sample_ids, reference_ids)
    runner = MetricRunner(MBRConfig(output_metric_scores=True, **config), Lines(lines))
    mine = runner(None, sample_ids, reference_ids)
    assert mine.scores.shape == theirs.scores.shape == (batch, samples)
    assert torch.equal(mine.scores_per_reference.float(), theirs.scores_per_reference)
    assert torch.allclose(mine.scores, theirs.scores.double(), atol=1e-4)
    for b in range(batch):
        hyps = lines[20 * b : 20 * b + samples]
        refs = lines[20 * b + 10 : 20 * b + 10 + references]
        utilities = chrf.expected_utility(hyps, refs, word_order=2, beta=3)
        assert mine.scores[b].tolist() == utilities.tolist()
    # Without output_metric_scores, no matrix.
    quiet = MetricRunner(MBRConfig(**config), Lines(lines))(None, sample_ids, reference_ids)
    assert quiet.scores_per_reference is None
    assert quiet.scores.tolist() == mine.scores.tolist()


def test_zurich_runner_refuses_what_it_cannot_score() -> None:
    from mbr import MBRConfig

    from chrf.zurich_mbr import MetricRunner

    with pytest.raises(TypeError, match="'n_gram'; evaluate's chrF takes char_order"):
        MetricRunner(MBRConfig(metric_kwargs={"n_gram": 2}), None)
    with pytest.raises(ValueError, match=r"scores chrF; mbr_config\.metric is 'comet'"):
        MetricRunner(MBRConfig(metric="comet"), None)
    with pytest.raises(ValueError, match="char_order"):
        MetricRunner(MBRConfig(metric_kwargs={"char_order": -1}), None)


def test_zurich_runner_inside_generate() -> None:
    """The runner plugged into mbr's generate, on a tiny random Marian model (no download)."""
    import torch
    from mbr import MBR, MBRConfig
    from transformers import GenerationConfig, MarianConfig, MarianMTModel

    from chrf.zurich_mbr import MetricRunner

    class Words:
        def batch_decode(self, ids: Any, skip_special_tokens: bool = True) -> list[str]:
            return [" ".join(f"w{int(i) % 7}" for i in row if int(i) > 1) for row in ids]

    torch.manual_seed(0)
    size = {"d_model": 16, "encoder_ffn_dim": 16, "decoder_ffn_dim": 16}
    model_config = MarianConfig(
        vocab_size=40,
        encoder_layers=1,
        decoder_layers=1,
        encoder_attention_heads=2,
        decoder_attention_heads=2,
        max_position_embeddings=32,
        pad_token_id=0,
        eos_token_id=1,
        decoder_start_token_id=0,
        **size,
    )
    model = MBR(MarianMTModel)(model_config).eval()
    mbr_config = MBRConfig(
        num_samples=8, num_references=6, output_all_samples=True, return_dict_in_generate=True
    )
    sampling = GenerationConfig(
        do_sample=True, max_new_tokens=8, pad_token_id=0, eos_token_id=1, decoder_start_token_id=0
    )
    out = model.generate(
        torch.tensor([[5, 6, 7, 1], [8, 9, 10, 1]]),
        mbr_config=mbr_config,
        generation_config=sampling,
        references_config=sampling,
        tokenizer=Words(),
        metric_runner=MetricRunner(mbr_config, Words()),
    )
    decode = Words().batch_decode
    samples = [decode(getattr(s, "sequences", s)) for s in out.all_samples]
    references = [decode(getattr(r, "sequences", r)) for r in out.references]
    for b in range(2):
        utilities = chrf.expected_utility([s[b] for s in samples], [r[b] for r in references])
        chosen = int(out.selected_samples_indices[b])
        assert utilities[chosen] == utilities.max()
        assert decode(out.sequences[b : b + 1]) == [samples[chosen][b]]
