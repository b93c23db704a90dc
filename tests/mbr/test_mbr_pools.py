"""Pools as a sampling decoder makes them: samples of one sentence, which share most of their
n-grams. The pairwise core stores an n-gram held once by most references by the references
lacking it (batch/postings.rs), and lists the holders of the others: these pools hold both
kinds, with n-grams repeated within a sample (counts past 1), empty samples, and pools of 1, 2
and 3. chrf's `pairwise` and `expected_utility` against the pure-Python reference, bit for bit,
on 1 and 2 threads."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

import chrf
from chrf import _reference
from strategies import chrf_settings, texts

WORDS = ["the", "cat", "sat", "on", "mat", "la", "la la", "aa", "ça", "😀", "a", "Σ", "the the"]


@st.composite
def sample_pools(draw: st.DrawFn) -> list[str]:
    """A sentence, then samples of it, each with up to three edits: a word dropped, two swapped,
    one doubled (its n-grams held twice), or one replaced by a text of every corner."""
    sentence = draw(st.lists(st.sampled_from(WORDS), max_size=10))
    pool = []
    for _ in range(draw(st.sampled_from([1, 2, 3, draw(st.integers(4, 9))]))):
        words = list(sentence)
        for _ in range(draw(st.integers(0, 3)) if words else 0):
            i = draw(st.integers(0, len(words) - 1))
            edit = draw(st.sampled_from(["drop", "swap", "double", "replace"]))
            if edit == "drop":
                del words[i]
            elif edit == "swap":
                words[i : i + 2] = words[i : i + 2][::-1]
            elif edit == "double":
                words[i] *= 2
            else:
                words[i] = draw(texts)
            if not words:
                break
        pool.append("" if draw(st.integers(0, 9)) == 0 else " ".join(words))
    return pool


def on_threads(call: Any) -> list[Any]:
    try:
        results = []
        for threads in (1, 2):
            chrf.set_num_threads(threads)
            results.append(call().tolist())
        return results
    finally:
        chrf.set_num_threads(None)


@given(sample_pools(), chrf_settings(exact=False))
def test_pairwise_of_samples_of_one_sentence_is_the_reference(
    pool: list[str], settings: Any
) -> None:
    expected = _reference.pairwise(pool, pool, **settings).tolist()
    assert on_threads(lambda: chrf.pairwise(pool, pool, **settings)) == [expected, expected]
    # Hypotheses outside the references, and references fewer than the samples.
    hyps, refs = [*pool, "the cat", ""], pool[: max(1, len(pool) // 2)]
    expected = _reference.pairwise(hyps, refs, **settings).tolist()
    assert chrf.pairwise(hyps, refs, **settings).tolist() == expected


@given(sample_pools(), chrf_settings(exact=False))
def test_expected_utility_of_samples_of_one_sentence_is_the_reference(
    pool: list[str], settings: Any
) -> None:
    expected = _reference.expected_utility(pool, pool, **settings).tolist()
    got = on_threads(lambda: chrf.expected_utility(pool, pool, **settings))
    assert got == [expected, expected]
