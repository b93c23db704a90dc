"""chrf.rewards: TRL's reward functions and verl's compute_score, against chrf.sentence_scores,
sacreBLEU 2.6.0 and, for the group reward, a brute-force oracle of exact fractions. No trainer
is imported here: tests/api/test_rewards_trl.py runs a real GRPOTrainer step (integrations)."""

from __future__ import annotations

import inspect
import pickle
import subprocess
import sys
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from sacrebleu.metrics import CHRF as SacreCHRF

import chrf
from chrf.rewards import _mean_without, chrf_reward, compute_score, consensus_reward
from strategies import chrf_settings, texts

# What GRPOTrainer passes besides the dataset's columns (trl 1.x's _calculate_rewards).
TRL_EXTRAS: dict[str, Any] = {
    "trainer_state": object(),
    "log_extra": lambda *a, **k: None,
    "log_metric": lambda *a, **k: None,
}


def assistant(text: str) -> list[dict[str, str]]:
    return [{"role": "assistant", "content": text}]


# ---------------------------------------------------------------------------------------------
# The reference reward


@given(
    st.lists(st.tuples(texts, texts), min_size=1, max_size=6),
    chrf_settings(exact=False),
)
def test_the_reward_is_sentence_scores_over_100(pairs: list[tuple[str, str]], options: Any) -> None:
    hyps = [h for h, _ in pairs]
    refs = [r for _, r in pairs]
    expected = chrf.sentence_scores(hyps, refs, **options)
    reward = chrf_reward(**options)
    got = reward(prompts=["p"] * len(hyps), completions=hyps, reference=refs, **TRL_EXTRAS)
    assert got == (expected / 100).tolist()
    assert all(type(value) is float for value in got)
    hundred = chrf_reward(scale=100, **options)(completions=hyps, reference=refs)
    assert hundred == expected.tolist()


@given(st.lists(st.tuples(texts, st.lists(st.one_of(texts, st.none()), max_size=3)), max_size=5))
def test_several_references_the_best_counts_as_in_sacrebleu(
    rows: list[tuple[str, list[str | None]]],
) -> None:
    rows = [(h, refs) for h, refs in rows if any(r is not None for r in refs)]
    hyps = [h for h, _ in rows]
    column = [refs for _, refs in rows]
    got = chrf_reward("refs")(completions=hyps, refs=column)
    sacre = SacreCHRF()
    assert got == [sacre.sentence_score(h, refs).score / 100 for h, refs in rows]  # type: ignore[arg-type]


def test_a_column_may_mix_one_reference_and_several() -> None:
    column: list[Any] = ["The cat sat.", ("A cat sat.", "The cat sat."), np.array(["The cat"])]
    got = chrf_reward()(completions=["The cat sat."] * 3, reference=column)
    assert got[0] == got[1] == 1.0
    assert got[2] == SacreCHRF().sentence_score("The cat sat.", ["The cat"]).score / 100
    assert column[1] == ("A cat sat.", "The cat sat.")  # not modified


def test_conversational_completions_score_the_last_assistant_message() -> None:
    refs = ["Der Hund bellt.", "Die Katze schläft.", "Ja."]
    plain = chrf_reward()(
        completions=["Der Hund bellte.", "Die Katze schlief.", ""], reference=refs
    )
    chats = [
        assistant("Der Hund bellte."),
        [
            {"role": "assistant", "content": "draft"},
            {"role": "tool", "content": "Die Katze"},
            {"role": "assistant", "content": [{"type": "text", "text": "Die Katze schlief."}]},
        ],
        [{"role": "assistant", "content": None, "tool_calls": []}],
    ]
    assert chrf_reward()(completions=chats, reference=refs) == plain


def test_an_empty_completion_scores_as_sacrebleu_scores_it() -> None:
    refs = ["Der Hund bellt.", ""]
    got = chrf_reward(scale=100)(completions=["", ""], reference=refs)
    assert got == [SacreCHRF().sentence_score("", [ref]).score for ref in refs]
    assert got == [0.0, 0.0]


def test_an_empty_batch_has_no_rewards() -> None:
    assert chrf_reward()(prompts=[], completions=[], reference=[]) == []
    assert consensus_reward(reference_weight=0.5)(prompts=[], completions=[], reference=[]) == []


def test_the_reward_is_named_for_the_logs() -> None:
    assert chrf_reward().__name__ == "chrF2"
    assert chrf_reward(word_order=2).__name__ == "chrF2++"
    assert chrf_reward(name="chrf_de").__name__ == "chrf_de"
    assert consensus_reward().__name__ == "chrF2_consensus"
    assert "references='reference'" in repr(chrf_reward())


def test_a_missing_reference_is_an_error_naming_the_column_and_the_completion() -> None:
    reward = chrf_reward("target")
    hyps = ["a", "b"]
    with pytest.raises(ValueError, match=r"no column 'target' .*\['reference'\]"):
        reward(completions=hyps, reference=["a", "b"], **TRL_EXTRAS)
    for row in (None, [], [None, None]):
        with pytest.raises(ValueError, match=r"target\[1\] has no reference"):
            reward(completions=hyps, target=["a", row])
    with pytest.raises(TypeError, match=r"target\[0\] must be a str or a list of str, not 3"):
        reward(completions=hyps, target=[3, "b"])
    with pytest.raises(ValueError, match="the column 'target' has 1 rows for 2 completions"):
        reward(completions=hyps, target=["a"])


def test_bad_completions_are_named_by_index() -> None:
    reward = chrf_reward()
    with pytest.raises(TypeError, match="needs completions="):
        reward(reference=["a"])
    with pytest.raises(TypeError, match=r"completions\[1\] must be a str or a list of messages"):
        reward(completions=["a", 3], reference=["a", "b"])
    with pytest.raises(ValueError, match=r"completions\[0\] has no assistant message"):
        reward(completions=[[{"role": "user", "content": "a"}]], reference=["a"])
    with pytest.raises(TypeError, match=r"completions\[0\]: the assistant message's content"):
        reward(completions=[assistant(3)], reference=["a"])  # type: ignore[arg-type]


def test_bad_settings_are_refused_when_the_reward_is_made() -> None:
    with pytest.raises(TypeError, match=r"chrf\.rewards\.chrf_reward\(\).*'word_order'"):
        chrf_reward(n_word_order=2)  # type: ignore[call-arg]
    with pytest.raises(ValueError, match="scale must be 1"):
        chrf_reward(scale=50)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="scale must be 1"):
        chrf_reward(scale=True)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="references must be a column name"):
        chrf_reward(["reference"])  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="reference_weight must be from 0 to 1"):
        consensus_reward(reference_weight=1.5)
    with pytest.raises(TypeError, match="reference_weight must be a number"):
        consensus_reward(reference_weight="0.5")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="name must be a non-empty str"):
        chrf_reward(name="")


def test_a_reward_function_pickles() -> None:
    for reward in (chrf_reward(word_order=2, scale=100), consensus_reward(reference_weight=0.5)):
        again = pickle.loads(pickle.dumps(reward))
        assert again.__name__ == reward.__name__
        args = {"prompts": ["p", "p"], "completions": ["ab", "abc"], "reference": ["ab", "b"]}
        assert again(**args) == reward(**args)


def test_chrf_rewards_is_reached_from_the_package() -> None:
    code = "import chrf; print(chrf.rewards.chrf_reward().__name__)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout == "chrF2\n"


# ---------------------------------------------------------------------------------------------
# The group reward


def oracle_consensus(completions: list[str], prompts: list[str], options: Any) -> list[float]:
    """U_i = Σ_{j ≠ i, same prompt} s(c_i, c_j) / (G - 1), in exact fractions of the pairwise
    doubles, rounded once; 0.0 for a completion alone with its prompt."""
    s = chrf.pairwise(completions, completions, **options)
    found = []
    for i, prompt in enumerate(prompts):
        others = [j for j, p in enumerate(prompts) if p == prompt and j != i]
        total = sum((Fraction(float(s[i, j])) for j in others), Fraction(0))
        found.append(float(total / len(others)) if others else 0.0)
    return found


@given(
    st.lists(st.tuples(st.sampled_from(["p", "q", "r"]), texts), min_size=1, max_size=9),
    chrf_settings(exact=False),
)
def test_the_group_reward_is_the_exact_mean_over_the_other_completions(
    drawn: list[tuple[str, str]], options: Any
) -> None:
    prompts = [p for p, _ in drawn]
    completions = [c for _, c in drawn]
    expected = oracle_consensus(completions, prompts, options)
    got = consensus_reward(scale=100, **options)(prompts=prompts, completions=completions)
    assert got == expected
    for i, prompt in enumerate(prompts):
        others = [c for j, (p, c) in enumerate(drawn) if p == prompt and j != i]
        if others:  # the core's own exact mean agrees
            assert got[i] == chrf.expected_utility([completions[i]], others, **options)[0]
    scaled = consensus_reward(**options)(prompts=prompts, completions=completions, **TRL_EXTRAS)
    assert scaled == [u / 100 for u in expected]


@given(st.lists(st.floats(0, 100), min_size=2, max_size=16), st.data())
def test_the_mean_without_one_item_is_exact_and_rounded_once(row: list[float], data: Any) -> None:
    skip = data.draw(st.integers(0, len(row) - 1))
    rest = row[:skip] + row[skip + 1 :]
    assert _mean_without(row, skip) == float(sum(map(Fraction, rest)) / len(rest))


def test_the_mean_is_not_a_float_sum() -> None:
    # The float sum drops both small terms; the exact mean keeps them.
    row = [7.0, 1.0, 2.0**-53, 2.0**-53]
    assert _mean_without(row, 0) == float((1 + Fraction(2, 2**53)) / 3) != sum(row[1:]) / 3


def test_the_group_reward_excludes_the_self_pair_not_equal_texts() -> None:
    got = consensus_reward(scale=100)(prompts=["p"] * 3, completions=["ab", "ab", "xy"])
    # "ab" against the other "ab" scores 100 and against "xy" 0: a mean of 50.
    assert got == [50.0, 50.0, 0.0]


def test_groups_are_prompts_compared_by_value_wherever_they_are() -> None:
    chat = [{"role": "user", "content": "Übersetze: dog"}]
    same_chat = [{"content": "Übersetze: dog", "role": "user"}]
    prompts = [chat, "cat", same_chat, "cat", "alone"]
    completions = ["Hund", "Katze", "Hunde", "Katzen", "allein"]
    got = consensus_reward(scale=100)(prompts=prompts, completions=completions)
    pairs = chrf.pairwise(completions, completions)
    assert got == [pairs[0, 2], pairs[1, 3], pairs[2, 0], pairs[3, 1], 0.0]


def test_the_group_reward_mixes_in_the_reference_reward() -> None:
    prompts = ["p", "p", "p", "q", "q"]
    completions = ["Der Hund bellt.", "Der Hund bellte.", "Ein Hund.", "Katze", "Die Katze"]
    refs = ["Der Hund bellt laut.", "Der Hund bellt laut.", "Der Hund bellt laut.", "Katze", "K"]
    u = consensus_reward(scale=100)(prompts=prompts, completions=completions)
    r = chrf_reward(scale=100)(completions=completions, reference=refs)
    mixed = consensus_reward(reference_weight=0.25)(
        prompts=prompts, completions=completions, reference=refs
    )
    assert mixed == [(0.75 * a + 0.25 * b) / 100 for a, b in zip(u, r, strict=True)]
    assert consensus_reward(reference_weight=0.25, word_order=2).__name__ == "chrF2++_consensus"
    with pytest.raises(ValueError, match="no column 'reference'"):
        consensus_reward(reference_weight=0.5)(prompts=prompts, completions=completions)


def test_the_group_reward_needs_prompts_that_compare() -> None:
    reward = consensus_reward()
    with pytest.raises(TypeError, match="needs prompts="):
        reward(completions=["a"])
    with pytest.raises(ValueError, match="1 prompts for 2 completions"):
        reward(prompts=["p"], completions=["a", "b"])
    with pytest.raises(TypeError, match=r"prompts\[1\] holds a set"):
        reward(prompts=["p", [{"a"}]], completions=["a", "b"])


# ---------------------------------------------------------------------------------------------
# verl


def test_compute_score_takes_verl_s_arguments() -> None:
    bound = inspect.signature(compute_score).bind(
        data_source="wmt22", solution_str="x", ground_truth="y", extra_info={"split": "train"}
    )
    assert set(bound.arguments) == {"data_source", "solution_str", "ground_truth", "extra_info"}
    got = compute_score(
        data_source="wmt22",
        solution_str="Der Hund bellte.",
        ground_truth="Der Hund bellt.",
        extra_info={"index": 3, "num_turns": None},
    )
    assert got == SacreCHRF().sentence_score("Der Hund bellte.", ["Der Hund bellt."]).score / 100
    assert compute_score("wmt22", "ab", "ab") == 1.0


def test_compute_score_takes_several_references_and_options_as_reward_kwargs() -> None:
    refs = ["Der Hund bellt.", "Ein Hund bellt."]
    hyp = "Ein Hund bellte."
    expected = SacreCHRF(word_order=2).sentence_score(hyp, refs).score
    # verl merges its reward_kwargs into the call, and its reward loop may add two of its own.
    got = compute_score(
        "wmt22",
        hyp,
        refs,
        None,
        word_order=2,
        scale=100,
        reward_router_address=None,
        reward_model_tokenizer=None,
    )
    assert got == expected
    assert compute_score("wmt22", hyp, np.array(refs), None, word_order=2) == expected / 100


def test_compute_score_refuses_a_missing_reference_and_unknown_options() -> None:
    with pytest.raises(ValueError, match="ground_truth has no reference"):
        compute_score("wmt22", "ab", None)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="ground_truth has no reference"):
        compute_score("wmt22", "ab", [])
    with pytest.raises(TypeError, match=r"chrf\.rewards\.compute_score\(\).*'word_order'"):
        compute_score("wmt22", "ab", "ab", n_word_order=2)
    with pytest.raises(TypeError, match="solution_str must be str"):
        compute_score("wmt22", None, "ab")  # type: ignore[arg-type]
