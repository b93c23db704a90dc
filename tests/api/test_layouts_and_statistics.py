"""Reference layouts (streams, per hypothesis, None placeholders), chrf.compute as evaluate's
"chrf" metric, and the public statistics used for sharding. The layouts and the statistics run
over both implementations (`impl`)."""

from __future__ import annotations

import pickle
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest
from sacrebleu.metrics import CHRF as SacreCHRF

import chrf

PREDICTIONS = [
    "The relationship between cats and dogs is not exactly friendly.",
    "a good bookshop is just a genteel black hole that knows how to read.",
]
REFERENCES = [
    ["The relationship between dogs and cats is not exactly friendly."],
    ["A good bookshop is just a genteel Black Hole that knows how to read."],
]
# Two references per prediction: a square input, read differently by the two layouts.
SQUARE = [
    [REFERENCES[0][0], "Cats and dogs do not get along."],
    [REFERENCES[1][0], "Bookshops are black holes."],
]


def sacrebleu_score(hyps: list[str], streams: list[list[str | None]], **options: object) -> float:
    return float(SacreCHRF(**options).corpus_score(hyps, streams).score)  # type: ignore[arg-type]


def transposed(per_hypothesis: list[list[str]]) -> list[list[str | None]]:
    width = max(len(refs) for refs in per_hypothesis)
    return [[refs[k] if k < len(refs) else None for refs in per_hypothesis] for k in range(width)]


def test_a_square_input_without_a_layout_is_refused_naming_both_layouts(impl: ModuleType) -> None:
    for entry in (impl.score, impl.statistics, impl.sentence_scores, impl.segment_statistics):
        with pytest.raises(ValueError, match="ambiguous") as raised:
            entry(PREDICTIONS, SQUARE)
        assert "layout='streams'" in str(raised.value)
        assert "layout='per_hypothesis'" in str(raised.value)


def test_each_layout_gives_sacrebleus_number_for_what_it_means(impl: ModuleType) -> None:
    per_hypothesis = impl.score(PREDICTIONS, SQUARE, layout="per_hypothesis")
    streams = impl.score(PREDICTIONS, SQUARE, layout="streams")
    assert per_hypothesis == sacrebleu_score(PREDICTIONS, transposed(SQUARE))
    assert streams == sacrebleu_score(PREDICTIONS, SQUARE)  # type: ignore[arg-type]
    assert per_hypothesis != streams  # the square case is not a formality


def test_shapes_that_fit_one_layout_only_need_no_layout_or_get_a_hint(impl: ModuleType) -> None:
    streams = [[r[0] for r in REFERENCES]]  # one stream of two: unambiguous
    assert impl.score(PREDICTIONS, streams) == sacrebleu_score(PREDICTIONS, streams)  # type: ignore[arg-type]
    three = [*PREDICTIONS, "x"]
    per_hypothesis = [*SQUARE, ["y", "x"]]  # 3 lists of 2 for 3 hypotheses
    with pytest.raises(ValueError, match="pass layout='per_hypothesis'"):
        impl.score(three, per_hypothesis)
    assert impl.score(three, per_hypothesis, layout="per_hypothesis") == sacrebleu_score(
        three, transposed(per_hypothesis)
    )
    with pytest.raises(ValueError, match="layout must be"):
        impl.score(PREDICTIONS, SQUARE, layout="rows")  # type: ignore[arg-type]


PLACEHOLDER_HYPS = ["abcd efg", "hij klm", "nop"]
PLACEHOLDER_STREAMS: list[list[str | None]] = [["abcd eg", None, "nop q"], [None, "hij kl", "no p"]]


def test_none_placeholders_give_sacrebleus_variable_reference_scores(impl: ModuleType) -> None:
    hyps, streams = PLACEHOLDER_HYPS, [list(s) for s in PLACEHOLDER_STREAMS]
    for options in ({}, {"word_order": 2}, {"beta": 3, "eps_smoothing": True}):
        expected = SacreCHRF(**options)  # type: ignore[arg-type]
        assert impl.score(hyps, streams, **options) == expected.corpus_score(hyps, streams).score  # type: ignore[arg-type]
        sentences = impl.sentence_scores(hyps, streams, **options)
        for i, hyp in enumerate(hyps):
            refs = [s[i] for s in streams if s[i] is not None]
            assert sentences[i] == expected.sentence_score(hyp, refs).score  # type: ignore[arg-type]
    assert streams == PLACEHOLDER_STREAMS  # not modified


def test_none_placeholders_give_sacrebleus_variable_reference_signature() -> None:
    hyps, streams = PLACEHOLDER_HYPS, PLACEHOLDER_STREAMS
    ours, theirs = chrf.CHRF(), SacreCHRF()
    ours.corpus_score(hyps, streams)  # type: ignore[arg-type]
    theirs.corpus_score(hyps, streams)
    assert "nrefs:var" in str(ours.get_signature())
    assert "nrefs:var" in str(theirs.get_signature())


def test_per_hypothesis_references_may_vary_in_number_and_use_none(impl: ModuleType) -> None:
    hyps = ["abcd efg", "hij klm", "nop"]
    refs = [["abcd eg"], "hij kl", ["no p", None, "nop q"]]
    expected = sacrebleu_score(hyps, [["abcd eg", "hij kl", "no p"], [None, None, None]])
    # sacreBLEU reads None as missing; the third segment's second reference is "nop q".
    expected = sacrebleu_score(hyps, [["abcd eg", "hij kl", "no p"], [None, None, "nop q"]])
    assert impl.score(hyps, refs, layout="per_hypothesis") == expected


@pytest.mark.parametrize(
    ("references", "layout", "error", "message"),
    [
        (
            [["a"], ["b", 3]],
            "per_hypothesis",
            TypeError,
            r"references\[1\]\[1\] must be str, not int",
        ),
        ([["a"], [None]], "per_hypothesis", ValueError, r"references\[1\] has no reference"),
        ([["a"], []], "per_hypothesis", ValueError, r"references\[1\] has no reference"),
        ([["a"]], "per_hypothesis", ValueError, "references has 1 items but hypotheses has 2"),
        ([["a"], ["b\ud800"]], "per_hypothesis", ValueError, r"references\[1\]\[0\] is not valid"),
        ([["a", None], [None, None]], "streams", ValueError, "segment 1 has no reference"),
        ([["a", None], [3, "b"], ["c", "d"]], None, TypeError, r"references\[1\]\[0\] must be str"),
        # One stream's None is a placeholder too, and segment 1 has none left (spec §5).
        ([["a", None]], None, ValueError, r"segment 1 has no reference: references\[0\]\[1\]"),
    ],
)
def test_bad_references_are_named_as_the_caller_wrote_them(
    impl: ModuleType, references: object, layout: object, error: type, message: str
) -> None:
    for entry in (impl.score, impl.segment_statistics, impl.explain):
        with pytest.raises(error, match=message):
            entry(["a", "b"], references, layout=layout)


# The three examples of the docstring of evaluate's metric, metrics/chrf/chrf.py of
# huggingface/evaluate (read at commit 2250e6752374c7dff55696d145cbcb73886bed2a).
@pytest.mark.parametrize(
    ("options", "expected"),
    [
        ({}, {"score": 84.64214891738334, "char_order": 6, "word_order": 0, "beta": 2}),
        (
            {"word_order": 2},
            {"score": 82.87263732906315, "char_order": 6, "word_order": 2, "beta": 2},
        ),
        (
            {"word_order": 2, "lowercase": True},
            {"score": 92.12853119829202, "char_order": 6, "word_order": 2, "beta": 2},
        ),
    ],
)
def test_compute_reproduces_evaluates_documented_examples(
    options: dict[str, object], expected: dict[str, object]
) -> None:
    result = chrf.compute(predictions=PREDICTIONS, references=REFERENCES, **options)  # type: ignore[arg-type]
    assert result == expected
    assert repr(result) == repr(expected)  # the same printed dict, key order included


def test_compute_is_evaluates_sacrebleu_call_on_wmt_data(wmt_dir: Path) -> None:
    folder = wmt_dir / "generaltest2022.en-de"
    hyps = (folder / "hyp.Online-B.txt").read_text("utf-8").split("\n")[:300]
    streams = [(folder / f"ref.{k}.txt").read_text("utf-8").split("\n")[:300] for k in "AB"]
    per_prediction = [list(refs) for refs in zip(*streams, strict=True)]
    options = {"char_order": 5, "word_order": 2, "beta": 1, "whitespace": True}
    # What evaluate's _compute does: transpose to streams and call sacreBLEU's CHRF.
    expected = SacreCHRF(5, 2, 1, False, True, False).corpus_score(hyps, streams).score
    assert chrf.compute(hyps, per_prediction, **options)["score"] == expected  # type: ignore[arg-type]


def test_segment_statistics_sum_to_the_corpus_statistics(impl: ModuleType, wmt_dir: Path) -> None:
    folder = wmt_dir / "generaltest2022.en-de"
    hyps = (folder / "hyp.Online-B.txt").read_text("utf-8").split("\n")[:500]
    streams = [(folder / f"ref.{k}.txt").read_text("utf-8").split("\n")[:500] for k in "AB"]
    per_segment = impl.segment_statistics(hyps, streams, word_order=2)
    assert per_segment.shape == (len(hyps), 8, 3)
    assert per_segment.dtype == np.uint64
    total = impl.statistics(hyps, streams, word_order=2)
    assert per_segment.sum(axis=0).tolist() == [list(t) for t in total.counts]
    assert np.array_equal(total.to_array(), per_segment.sum(axis=0))
    rows = [chrf.Statistics.from_counts(row, segment_count=1, word_order=2) for row in per_segment]
    assert sum(rows) == total


def test_statistics_from_counts_round_trip_and_refuse_impossible_counts(impl: ModuleType) -> None:
    stats = impl.statistics(PREDICTIONS, [r[0] for r in REFERENCES], word_order=2, beta=3)
    rebuilt = chrf.Statistics.from_counts(stats.to_array(), segment_count=2, word_order=2, beta=3)
    assert rebuilt == stats
    assert rebuilt.score() == stats.score()
    assert pickle.loads(pickle.dumps(rebuilt)) == stats
    impossible = stats.to_array()
    impossible[0, 2] = impossible[0, 0] + 1  # more matches than hypothesis n-grams
    with pytest.raises(ValueError, match="matches cannot outnumber"):
        chrf.Statistics.from_counts(impossible, segment_count=2, word_order=2, beta=3)
    with pytest.raises(ValueError, match="counts hold 8 orders but the settings have 6"):
        chrf.Statistics.from_counts(stats.to_array(), segment_count=2)
    huge = chrf.Statistics(stats.settings, [(2**70, 2**70, 2**70)] * 8, 1)
    with pytest.raises(OverflowError, match=r"use \.counts"):
        huge.to_array()


def test_subtraction_leaves_one_out(impl: ModuleType, wmt_dir: Path) -> None:
    folder = wmt_dir / "generaltest2022.cs-en"
    hyps = (folder / "hyp.Online-W.txt").read_text("utf-8").split("\n")[:200]
    refs = (folder / "ref.A.txt").read_text("utf-8").split("\n")[:200]
    total = impl.statistics(hyps, refs)
    per_segment = impl.segment_statistics(hyps, refs)
    for i in (0, 57, 199):
        left_out = total - chrf.Statistics.from_counts(per_segment[i], segment_count=1)
        rest = impl.statistics(hyps[:i] + hyps[i + 1 :], refs[:i] + refs[i + 1 :])
        assert left_out == rest
        assert left_out.score() == rest.score()
    with pytest.raises(ValueError, match="not part of these"):
        impl.statistics(hyps[:1], refs[:1]) - total
    with pytest.raises(ValueError, match="cannot subtract statistics of different settings"):
        total - impl.statistics(hyps[:1], refs[:1], beta=3)
