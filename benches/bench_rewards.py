"""chrf.rewards against the reward functions people write around sacreBLEU, by CPU time.

    python3 benches/bench_rewards.py [--prompts 64] [--completions 16] [--repeats 5] [--data DIR]

A GRPO batch: PROMPTS WMT22 en-de reference sentences, each with COMPLETIONS completions made from
it by seeded perturbations (words dropped, swapped, repeated, characters changed; one in 16
empty). Each row scores the whole batch, after checking that both sides give the same floats:

- the reference reward: `chrf.rewards.chrf_reward()` (one call into the core) against
  `sacrebleu.sentence_chrf(c, [r]).score / 100` per completion;
- verl's `compute_score`, one call per completion, against `sacrebleu.sentence_chrf` the same way;
- the group reward: `chrf.rewards.consensus_reward()` (exact mean chrF against the other
  completions of the prompt) against sacreBLEU per pair with `statistics.fmean` per completion
  (equal within 1e-12; exact only for chrf), and against `chrf.pairwise` per group plus a mean.

Times are CPU seconds (`time.process_time`: every thread of the process) and wall seconds, the
best of REPEATS runs of each side, the sides alternating. The first line gives chrf's thread count
(`CHRF_NUM_THREADS` sets it).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

import sacrebleu
from wmt_data import wmt_dir

import chrf
from chrf.rewards import chrf_reward, compute_score, consensus_reward


def perturbed(sentence: str, rng: random.Random) -> str:
    """A sampled translation's stand-in: the sentence with a few seeded edits."""
    if rng.random() < 1 / 16:
        return ""
    words = sentence.split()
    for _ in range(rng.randint(0, 4)):
        if not words:
            break
        i = rng.randrange(len(words))
        edit = rng.random()
        if edit < 0.3:
            del words[i]
        elif edit < 0.5:
            j = rng.randrange(len(words))
            words[i], words[j] = words[j], words[i]
        elif edit < 0.7:
            words.insert(i, words[i])
        else:
            word = list(words[i])
            word[rng.randrange(len(word))] = rng.choice("aeinrstäöüß")
            words[i] = "".join(word)
    return " ".join(words)


def batch(folder: Any, prompts: int, completions: int) -> dict[str, list[str]]:
    lines = (folder / "ref.A.txt").read_text("utf-8").split("\n")
    refs = [line for line in lines if line.strip()][:prompts]
    rng = random.Random(2026)
    out: dict[str, list[str]] = {"prompts": [], "completions": [], "reference": []}
    for k, ref in enumerate(refs):
        for _ in range(completions):
            out["prompts"].append(f"Translate into German (sentence {k}).")
            out["completions"].append(perturbed(ref, rng))
            out["reference"].append(ref)
    return out


def sacrebleu_reward(
    prompts: list[str], completions: list[str], reference: list[str]
) -> list[float]:
    """The reward function as it is written with sacreBLEU."""
    return [
        sacrebleu.sentence_chrf(c, [r]).score / 100
        for c, r in zip(completions, reference, strict=True)
    ]


def prompt_groups(prompts: list[str]) -> list[list[int]]:
    """The indices of each prompt's completions, as the two group rewards below read them."""
    groups: dict[str, list[int]] = {}
    for i, prompt in enumerate(prompts):
        groups.setdefault(prompt, []).append(i)
    return list(groups.values())


def sacrebleu_consensus(
    prompts: list[str], completions: list[str], reference: list[str]
) -> list[float]:
    """The group reward written with sacreBLEU: the mean chrF against the prompt's others."""
    out = [0.0] * len(completions)
    for group in prompt_groups(prompts):
        for i in group:
            others = [completions[j] for j in group if j != i]
            scores = [sacrebleu.sentence_chrf(completions[i], [o]).score for o in others]
            out[i] = statistics.fmean(scores) / 100
    return out


def pairwise_consensus(
    prompts: list[str], completions: list[str], reference: list[str]
) -> list[float]:
    """The group reward from chrf.pairwise per group, the diagonal left out of a float mean."""
    out = [0.0] * len(completions)
    for group in prompt_groups(prompts):
        texts = [completions[i] for i in group]
        matrix = chrf.pairwise(texts, texts)
        sums = matrix.sum(axis=1) - matrix.diagonal()
        for i, total in zip(group, sums.tolist(), strict=True):
            out[i] = total / (len(group) - 1) / 100
    return out


def per_call_compute_score(
    prompts: list[str], completions: list[str], reference: list[str]
) -> list[float]:
    return [compute_score("wmt22", c, r, {}) for c, r in zip(completions, reference, strict=True)]


def per_call_sacrebleu(
    prompts: list[str], completions: list[str], reference: list[str]
) -> list[float]:
    return [
        sacrebleu.sentence_chrf(c, [r]).score / 100
        for c, r in zip(completions, reference, strict=True)
    ]


Reward = Callable[..., list[float]]


def timed(reward: Reward, data: dict[str, list[str]]) -> tuple[float, float, list[float]]:
    cpu, wall = time.process_time(), time.perf_counter()
    values = reward(**data)
    return time.process_time() - cpu, time.perf_counter() - wall, values


def compare(
    label: str,
    ours: Reward,
    theirs: Reward,
    data: dict[str, list[str]],
    repeats: int,
    exact: bool = True,
) -> None:
    best = {"ours": (float("inf"), float("inf")), "theirs": (float("inf"), float("inf"))}
    for _ in range(repeats):
        for side, reward in (("ours", ours), ("theirs", theirs)):
            cpu, wall, values = timed(reward, data)
            best[side] = (min(best[side][0], cpu), min(best[side][1], wall))
            if side == "ours":
                mine = values
            elif exact:
                assert mine == values, label
            else:
                assert max(abs(a - b) for a, b in zip(mine, values, strict=True)) < 1e-12, label
    (cpu, wall), (cpu2, wall2) = best["ours"], best["theirs"]
    n = len(data["completions"])
    print(
        f"| {label} | {cpu * 1e3:,.1f} | {cpu2 * 1e3:,.1f} | {cpu2 / cpu:,.1f}x | "
        f"{wall * 1e3:,.1f} | {wall2 * 1e3:,.1f} | {cpu * 1e6 / n:,.2f} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--prompts", type=int, default=64)
    parser.add_argument("--completions", type=int, default=16)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--data", help="the folder holding wmt/ (default: wmt_data's choice)")
    args = parser.parse_args()
    data = batch(wmt_dir(args.data) / "generaltest2022.en-de", args.prompts, args.completions)
    chars = sum(map(len, data["completions"])) / len(data["completions"])
    print(
        f"chrf {chrf.__version__}, sacreBLEU {sacrebleu.__version__}, chrf threads "
        f"{chrf.get_num_threads()}; {args.prompts} prompts x {args.completions} completions, "
        f"{chars:.0f} characters a completion; best of {args.repeats}"
    )
    print()
    print(
        "| reward (whole batch) | chrf CPU ms | other CPU ms | CPU ratio | chrf wall ms "
        "| other wall ms | chrf CPU µs a completion |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|")
    compare(
        "chrf_reward vs sacrebleu.sentence_chrf",
        chrf_reward(),
        sacrebleu_reward,
        data,
        args.repeats,
    )
    compare(
        "compute_score per call vs sentence_chrf per call",
        per_call_compute_score,
        per_call_sacrebleu,
        data,
        args.repeats,
    )
    group = consensus_reward()
    compare(
        "consensus_reward vs sacreBLEU per pair",
        group,
        sacrebleu_consensus,
        data,
        max(1, args.repeats // 2),
        exact=False,
    )
    compare(
        "consensus_reward vs chrf.pairwise per group",
        group,
        pairwise_consensus,
        data,
        args.repeats,
        exact=False,
    )


if __name__ == "__main__":
    main()
