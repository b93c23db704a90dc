"""chrf.rewards inside the trainers (the integrations marker): one real GRPOTrainer step of TRL
on CPU, with a tiny model made from a config and a tokenizer trained here on the bundled WMT
text (no download), and verl's own loader of custom reward functions."""

from __future__ import annotations

import math
import os
from pathlib import Path
from typing import Any

import pytest

from chrf.rewards import ChrfReward, ConsensusReward, chrf_reward, compute_score, consensus_reward

pytestmark = pytest.mark.integrations

DATA = Path(__file__).resolve().parents[1] / "data" / "wmt" / "generaltest2022.en-de"


class Recorded(ChrfReward):
    """A chrF reward that keeps what each call was given and returned."""

    calls: list[tuple[dict[str, Any], list[float]]]

    def __call__(self, **kwargs: Any) -> list[float]:  # type: ignore[override]
        values = super().__call__(**kwargs)
        self.calls.append((kwargs, values))
        return values


def recorded(**options: Any) -> Recorded:
    made = chrf_reward(**options)
    reward = Recorded(made.settings, made.references, made.scale, made.__name__)
    reward.calls = []
    return reward


def tiny_model_and_tokenizer(lines: list[str]) -> tuple[Any, Any]:
    from tokenizers import Tokenizer, models, pre_tokenizers, trainers
    from transformers import LlamaConfig, LlamaForCausalLM, PreTrainedTokenizerFast

    specials = ["[UNK]", "[PAD]", "[BOS]", "[EOS]"]
    words = Tokenizer(models.WordLevel(unk_token="[UNK]"))
    words.pre_tokenizer = pre_tokenizers.Whitespace()
    words.train_from_iterator(
        lines, trainers.WordLevelTrainer(vocab_size=400, special_tokens=specials)
    )
    tokenizer = PreTrainedTokenizerFast(
        tokenizer_object=words,
        unk_token="[UNK]",
        pad_token="[PAD]",
        bos_token="[BOS]",
        eos_token="[EOS]",
    )
    config = LlamaConfig(
        vocab_size=len(tokenizer),
        hidden_size=16,
        intermediate_size=32,
        num_hidden_layers=2,
        num_attention_heads=2,
        num_key_value_heads=2,
        max_position_embeddings=256,
        pad_token_id=tokenizer.pad_token_id,
        bos_token_id=tokenizer.bos_token_id,
        eos_token_id=tokenizer.eos_token_id,
    )
    return LlamaForCausalLM(config), tokenizer


def test_one_grpo_step_calls_and_logs_the_rewards(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    monkeypatch.setenv("WANDB_DISABLED", "true")
    from datasets import Dataset
    from trl import GRPOConfig, GRPOTrainer

    sources = (DATA / "ref.B.txt").read_text(encoding="utf-8").splitlines()[:20]
    targets = (DATA / "ref.A.txt").read_text(encoding="utf-8").splitlines()[:20]
    model, tokenizer = tiny_model_and_tokenizer(sources + targets)
    dataset = Dataset.from_dict(
        {
            "prompt": [" ".join(s.split()[:6]) for s in sources[:4]],
            # one reference, or several: a column of lists
            "reference": [[t, s] for t, s in zip(targets[:4], sources[:4], strict=True)],
        }
    )
    reference = recorded()
    group = consensus_reward(reference_weight=0.5)
    args = GRPOConfig(
        output_dir=str(tmp_path),
        per_device_train_batch_size=8,
        num_generations=4,
        max_completion_length=6,
        max_steps=1,
        logging_steps=1,
        learning_rate=1e-3,
        beta=0.0,
        report_to="none",
        save_strategy="no",
        use_cpu=True,
        bf16=False,
        seed=0,
        dataloader_num_workers=0,
    )
    trainer = GRPOTrainer(
        model=model,
        reward_funcs=[reference, group],
        args=args,
        train_dataset=dataset,
        processing_class=tokenizer,
    )
    trainer.train()

    assert len(reference.calls) == 1
    kwargs, values = reference.calls[0]
    completions = kwargs["completions"]
    assert len(completions) == len(values) == 8
    assert all(isinstance(text, str) for text in completions)
    # Each prompt four times in a row: the groups of the consensus reward.
    prompts = kwargs["prompts"]
    assert [prompts[i] for i in range(0, 8, 4)] == [prompts[i + 3] for i in range(0, 8, 4)]
    assert values == chrf_reward()(completions=completions, reference=kwargs["reference"])
    expected_group = group(prompts=prompts, completions=completions, reference=kwargs["reference"])

    logged = next(entry for entry in trainer.state.log_history if "rewards/chrF2/mean" in entry)
    assert math.isclose(logged["rewards/chrF2/mean"], sum(values) / 8, abs_tol=1e-6)
    assert math.isclose(
        logged["rewards/chrF2_consensus/mean"], sum(expected_group) / 8, abs_tol=1e-6
    )
    assert isinstance(group, ConsensusReward)
    assert os.environ["HF_HUB_OFFLINE"] == "1"


def test_verl_loads_compute_score_with_its_reward_kwargs() -> None:
    from omegaconf import OmegaConf
    from sacrebleu.metrics import CHRF as SacreCHRF
    from verl.trainer.ppo.reward import get_custom_reward_fn

    config = OmegaConf.create(
        {
            "reward": {
                "custom_reward_function": {
                    "path": "pkg://chrf.rewards",
                    "name": "compute_score",
                    "reward_kwargs": {"word_order": 2},
                }
            }
        }
    )
    score = get_custom_reward_fn(config)
    assert score is not None
    refs = ["Der Hund bellt.", "Ein Hund bellt."]
    # As verl's naive reward manager calls it.
    got = score(
        data_source="wmt22",
        solution_str="Ein Hund bellte.",
        ground_truth=refs,
        extra_info={"num_turns": None, "rollout_reward_scores": {}},
    )
    assert got == SacreCHRF(word_order=2).sentence_score("Ein Hund bellte.", refs).score / 100
    assert compute_score("wmt22", "ab", "ab") == 1.0
