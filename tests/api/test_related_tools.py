"""The contract's related tools (`chrf.tools`): chrf-compute and chrf-plus-plus-compute score
as sacreBLEU 2.6.0 does, the corpus and each segment; `chrf.words` is sacreBLEU's chrF++
tokenisation."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from sacrebleu.metrics import CHRF

import chrf
from chrf import tools

WORDY = st.text(alphabet=st.sampled_from("ab .,!(-)\t\u00a0é'\"?"), max_size=20)


@given(text=WORDY | st.text(max_size=20))
def test_words_are_sacrebleus_chrf_plus_plus_tokens(text: str) -> None:
    assert chrf.words(text) == CHRF(word_order=2)._remove_punctuation(text)


def test_words_examples_and_bad_input() -> None:
    assert chrf.words("Hello, world!") == ["Hello", ",", "world", "!"]
    assert chrf.words("(hi)") == ["(hi", ")"]
    assert chrf.words("") == []
    with pytest.raises(TypeError, match="text must be a str, not bytes"):
        chrf.words(b"hi")  # type: ignore[arg-type]


def run(tool_id: str, request: dict[str, Any]) -> dict[str, Any]:
    response = tools.execute(tool_id, "1.0.0", request)
    assert set(response) == {"result"}, response
    result: dict[str, Any] = response["result"]
    return result


def sacrebleu_of(tool_id: str, settings: dict[str, Any]) -> CHRF:
    return CHRF(
        char_order=settings["char_order"],
        word_order=settings.get("word_order", 0),
        beta=settings["beta"],
        lowercase=settings["lowercase"],
        whitespace=settings["include_whitespace"],
    )


def close(fraction: str, sacrebleu_score: float) -> bool:
    """The exact score is the value sacreBLEU's float formula rounds (spec §2)."""
    return abs(Fraction(fraction) - Fraction(sacrebleu_score)) < Fraction(1, 10**9)


SETTINGS = st.fixed_dictionaries(
    {},
    optional={
        "char_order": st.integers(1, 10),
        "beta": st.integers(1, 16),
        "lowercase": st.booleans(),
        "include_whitespace": st.booleans(),
    },
)


@pytest.mark.parametrize("tool_id", ["chrf-compute", "chrf-plus-plus-compute"])
@given(
    pairs=st.lists(st.tuples(WORDY, WORDY), min_size=1, max_size=5),
    settings=SETTINGS,
    word_order=st.integers(1, 4),
)
def test_scores_are_sacrebleus_for_the_corpus_and_each_segment(
    tool_id: str, pairs: list[tuple[str, str]], settings: dict[str, Any], word_order: int
) -> None:
    if tool_id == "chrf-plus-plus-compute":
        settings = {**settings, "word_order": word_order}
    hyps, refs = [h for h, _ in pairs], [r for _, r in pairs]
    result = run(tool_id, {"hypotheses": hyps, "references": refs, **settings})
    metric = sacrebleu_of(tool_id, result)
    assert close(result["score_fraction"], metric.corpus_score(hyps, [refs]).score)
    for segment, hyp, ref in zip(result["segments"], hyps, refs, strict=True):
        assert close(segment["score_fraction"], metric.sentence_score(hyp, [ref]).score)
        if tool_id == "chrf-plus-plus-compute":
            lower = result["lowercase"]
            assert segment["hypothesis_words"] == chrf.words(hyp.lower() if lower else hyp)
            assert segment["reference_words"] == chrf.words(ref.lower() if lower else ref)
        else:
            assert "hypothesis_words" not in segment


def test_defaults_and_settings_are_echoed() -> None:
    plain = run("chrf-compute", {"hypotheses": ["aa"], "references": ["ab"], "beta": 3})
    assert plain == {
        "char_order": 6,
        "beta": 3,
        "lowercase": False,
        "include_whitespace": False,
        "segment_count": 1,
        "score": "25.000000",
        "score_fraction": "25/1",
        "segments": [{"score": "25.000000", "score_fraction": "25/1"}],
    }
    plus = run("chrf-plus-plus-compute", {"hypotheses": ["A b."], "references": ["a b"]})
    assert plus["word_order"] == 2
    assert plus["segments"][0]["hypothesis_words"] == ["A", "b", "."]


@pytest.mark.parametrize(
    ("tool_id", "request_", "message"),
    [
        (
            "chrf-compute",
            {"hypotheses": ["a"], "references": ["a"], "word_order": 2},
            "unknown key 'word_order'",
        ),
        (
            "chrf-compute",
            {"hypotheses": ["a"], "references": ["a"], "char_order": 0},
            "char_order must be an integer from 1 to 10",
        ),
        (
            "chrf-plus-plus-compute",
            {"hypotheses": ["a"], "references": ["a"], "word_order": 0},
            "word_order must be an integer from 1 to 4",
        ),
        (
            "chrf-plus-plus-compute",
            {"hypotheses": ["a"], "references": ["a"], "averaging": "per_order_f"},
            "unknown key 'averaging'",
        ),
        (
            "chrf-compute",
            {"hypotheses": ["a"], "references": ["a"], "beta": True},
            "beta must be an integer from 1 to 16",
        ),
        (
            "chrf-compute",
            {"hypotheses": ["a"], "references": ["a"], "lowercase": 1},
            "lowercase must be a boolean",
        ),
        (
            "chrf-compute",
            {"hypotheses": ["\ud800"], "references": ["a"], "beta": 0},
            "hypotheses[0] contains a lone surrogate",
        ),
        (
            "chrf-compute",
            {"hypotheses": ["a"] * 257, "references": ["a"]},
            "hypotheses must have at most 256 segments",
        ),
        ("chrf-compute", {"references": ["a"]}, "missing key 'hypotheses'"),
        ("chrf-compute", [], "input must be a JSON object"),
    ],
)
def test_bad_input_is_one_error_naming_the_field(
    tool_id: str, request_: object, message: str
) -> None:
    response = tools.execute(tool_id, "1.0.0", request_)
    assert response == {"error": {"code": "invalid_input", "message": response["error"]["message"]}}
    assert message in response["error"]["message"]


def test_json_text_is_read_as_the_contract_reads_it() -> None:
    dup = tools.execute_json("chrf-compute", "1.0.0", b'{"hypotheses": ["a"], "hypotheses": ["a"]}')
    assert dup["error"]["message"] == "duplicate key 'hypotheses'"
    deep = tools.execute_json("chrf-plus-plus-compute", "1.0.0", b"[" * 100_000)
    assert deep["error"]["code"] == "invalid_input"
    with pytest.raises(tools.UnknownTool, match=r"no tool 'chrf-components' of version '2\.0\.0'"):
        tools.execute("chrf-components", "2.0.0", {})
