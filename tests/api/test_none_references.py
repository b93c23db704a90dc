"""sacreBLEU's ``None`` placeholders (a segment with fewer references) in every entry point that
takes references, against sacreBLEU 2.6.0: scores, statistics, sentence scores, explanations,
comparisons and the signature's ``nrefs``. The Python API's entry points run over both
implementations (`impl`)."""

from __future__ import annotations

from types import ModuleType
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sacrebleu.metrics import CHRF as SacreCHRF

import chrf
from chrf import _reference
from strategies import texts

HYPS = ["ab", "b", "c"]
STREAMS: list[list[str | None]] = [["ab", None, "c"], ["x", "b", None]]


def signature(metric: Any) -> str:
    """A signature without its version, which names the package."""
    return "|".join(p for p in str(metric.get_signature()).split("|") if "version" not in p)


def present(streams: list[list[str | None]], i: int) -> list[str]:
    return [text for s in streams if (text := s[i]) is not None]


@st.composite
def corpora_with_placeholders(draw: st.DrawFn) -> tuple[list[str], list[list[str | None]]]:
    """Reference streams with None anywhere, each segment keeping at least one reference."""
    n = draw(st.integers(1, 5))
    width = draw(st.integers(2, 4))
    hyps = draw(st.lists(texts, min_size=n, max_size=n))
    rows: list[list[str | None]] = []
    for _ in range(n):
        row: list[str | None] = draw(
            st.lists(st.one_of(st.none(), texts), min_size=width, max_size=width)
        )
        if all(text is None for text in row):
            row[draw(st.integers(0, width - 1))] = draw(texts)
        rows.append(row)
    return hyps, [[row[k] for row in rows] for k in range(width)]


def test_sentence_score_drops_placeholders_as_sacrebleu_does() -> None:
    for refs in (["b", None], [None, "b"], [None, "ab", None, "b"]):
        ours, theirs = chrf.CHRF(), SacreCHRF()
        assert ours.sentence_score("ab", refs).score == theirs.sentence_score("ab", refs).score  # type: ignore[arg-type]
        assert signature(ours) == signature(theirs)
    assert chrf.CHRF().sentence_score("ab", ["b", None]).score == 83.33333333333334  # type: ignore[list-item]
    assert chrf.CHRF().sentence_score("ab", ("b", None)).score == 83.33333333333334  # type: ignore[arg-type]


def test_sentence_score_errors_name_the_caller_s_index() -> None:
    with pytest.raises(ValueError, match="references has no reference"):
        chrf.CHRF().sentence_score("ab", [None, None])  # type: ignore[list-item]
    with pytest.raises(TypeError, match=r"references\[2\] must be str, not int"):
        chrf.CHRF().sentence_score("ab", ["b", None, 3])  # type: ignore[list-item]
    with pytest.raises(TypeError, match="hypothesis must be str"):
        chrf.CHRF().sentence_score(None, ["b", None])  # type: ignore[arg-type,list-item]


def test_explain_takes_placeholders(impl: ModuleType) -> None:
    e = impl.explain(HYPS, STREAMS)
    assert e.score == SacreCHRF().corpus_score(HYPS, STREAMS).score
    # Each segment names a stream that holds a reference, never a placeholder.
    assert e.references.tolist() == [0, 1, 0]
    assert e.segment(1).reference == 1
    assert e.segment(2).reference == 0
    e.to_dict()
    assert STREAMS == [["ab", None, "c"], ["x", "b", None]]  # not modified


def test_compare_takes_placeholders() -> None:
    e = chrf.explain(HYPS, STREAMS)
    c = chrf.compare([HYPS, ["ab", "b", "x"]], STREAMS, trials=50)
    theirs = SacreCHRF().corpus_score(["ab", "b", "x"], STREAMS).score
    assert c.differences[0].score_delta == theirs - e.score
    assert STREAMS == [["ab", None, "c"], ["x", "b", None]]  # not modified


@pytest.mark.parametrize(
    "streams",
    [[["a"], [None]], [["a", None], [None, "b"]], [[None, "b"], ["a", None], ["c", "d"]]],
)
def test_nrefs_is_sacrebleus_count_of_present_references(streams: list[list[str | None]]) -> None:
    hyps = ["a", "b", "c"][: len(streams[0])]
    ours, theirs = chrf.CHRF(), SacreCHRF()
    assert ours.corpus_score(hyps, streams).score == theirs.corpus_score(hyps, streams).score  # type: ignore[arg-type]
    assert signature(ours) == signature(theirs)
    cached, cached_theirs = chrf.CHRF(references=streams), SacreCHRF(references=streams)  # type: ignore[arg-type]
    assert signature(cached) == signature(cached_theirs)
    cached.corpus_score(hyps, None)
    cached_theirs.corpus_score(hyps, None)
    assert signature(cached) == signature(cached_theirs)


@given(corpora_with_placeholders())
def test_signature_counts_references_as_sacrebleu(corpus: Any) -> None:
    hyps, streams = corpus
    ours, theirs = chrf.CHRF(), SacreCHRF()
    assert ours.corpus_score(hyps, streams).score == theirs.corpus_score(hyps, streams).score
    assert signature(ours) == signature(theirs)


PLACEHOLDER_OPTIONS = st.sampled_from([{}, {"word_order": 2}, {"beta": 3}])


@settings(max_examples=min(300, settings.default.max_examples))
@given(corpora_with_placeholders(), PLACEHOLDER_OPTIONS)
def test_every_entry_point_reads_placeholders_as_sacrebleu(
    impl: ModuleType, corpus: Any, options: dict[str, Any]
) -> None:
    hyps, streams = corpus
    metric = SacreCHRF(**options)
    expected = metric.corpus_score(hyps, streams).score
    rows = metric._extract_corpus_statistics(hyps, streams)
    ours = dict(layout="streams", **options)
    assert impl.score(hyps, streams, **ours) == expected
    totals = [sum(column) for column in zip(*rows, strict=True)]
    stats = impl.statistics(hyps, streams, **ours)
    assert stats.score() == expected
    assert [n for order in stats.counts for n in order] == totals
    exact = impl.components(hyps, streams, **ours)
    counted = [(o.hypothesis_ngrams, o.reference_ngrams, o.matching_ngrams) for o in exact.orders]
    assert [n for order in counted for n in order] == totals
    assert impl.segment_statistics(hyps, streams, **ours).reshape(len(hyps), -1).tolist() == rows
    sentences = [metric.sentence_score(h, present(streams, i)).score for i, h in enumerate(hyps)]
    assert impl.sentence_scores(hyps, streams, **ours).tolist() == sentences
    e = impl.explain(hyps, streams, **ours)
    assert e.score == expected
    assert e.segment_statistics.reshape(len(hyps), -1).tolist() == rows
    for i, k in enumerate(e.references.tolist()):
        reference = streams[k][i]
        assert reference is not None
        alone = metric._extract_corpus_statistics([hyps[i]], [[reference]])
        assert alone[0] == rows[i]


@settings(max_examples=min(300, settings.default.max_examples))
@given(corpora_with_placeholders(), PLACEHOLDER_OPTIONS)
def test_the_facades_read_placeholders_as_sacrebleu(corpus: Any, options: dict[str, Any]) -> None:
    hyps, streams = corpus
    metric = SacreCHRF(**options)
    expected = metric.corpus_score(hyps, streams).score
    assert chrf.CHRF(**options).corpus_score(hyps, streams).score == expected
    sentences = [metric.sentence_score(h, present(streams, i)).score for i, h in enumerate(hyps)]
    assert [chrf.CHRF(**options).sentence_score(h, [s[i] for s in streams]).score
            for i, h in enumerate(hyps)] == sentences  # fmt: skip
    evaluate_refs = [present(streams, i) for i in range(len(hyps))]
    assert chrf.compute(hyps, evaluate_refs, **options)["score"] == expected  # type: ignore[arg-type]
    ours = dict(layout="streams", **options)
    assert chrf.components(hyps, streams, **ours) == _reference.components(hyps, streams, **ours)
    e, theirs = chrf.explain(hyps, streams, **ours), _reference.explain(hyps, streams, **ours)
    assert (e.orders, e.references.tolist()) == (theirs.orders, theirs.references.tolist())


def test_compare_with_placeholders_tests_as_on_filled_references() -> None:
    systems = {"a": HYPS, "b": ["ab", "b", "x"]}
    filled = [["ab", "b", "c"], ["x", "b", "c"]]
    for test in ("bs", "ar"):
        ours = chrf.compare(systems, STREAMS, test=test, trials=100)
        same = chrf.compare(systems, filled, test=test, trials=100)
        assert [r.p_value for r in ours.results] == [r.p_value for r in same.results]
        assert ours.to_dict()["differences"] == same.to_dict()["differences"]


@pytest.mark.integrations
def test_torchmetrics_takes_placeholders() -> None:
    from chrf.torchmetrics import CHRFScore

    metric = CHRFScore(n_word_order=0)
    metric.update(HYPS, [["ab", "x"], [None, "b"], ["c", None]])
    expected = SacreCHRF().corpus_score(HYPS, STREAMS).score / 100
    assert float(metric.compute()) == expected
    lone = CHRFScore(n_word_order=0)
    lone.update("ab", ["b", None])  # a lone prediction with its references, one missing
    assert float(lone.compute()) == SacreCHRF().sentence_score("ab", ["b"]).score / 100


def test_a_segment_without_any_reference_is_refused(impl: ModuleType) -> None:
    assert impl.score(HYPS, STREAMS) == SacreCHRF().corpus_score(HYPS, STREAMS).score
    for entry in (impl.score, impl.sentence_scores, impl.explain, impl.segment_statistics):
        with pytest.raises(ValueError, match="segment 1 has no reference"):
            entry(HYPS, [["a", None, "c"], ["b", None, "d"]])


def test_one_stream_with_a_placeholder_is_refused_as_several_are(impl: ModuleType) -> None:
    # Regression: one stream's None was a TypeError (`references[0][1] must be str`), several
    # streams' a ValueError. sacreBLEU crashes on both (IndexError): spec §5 refuses both alike.
    for entry in (impl.score, impl.sentence_scores, impl.explain, impl.segment_statistics):
        for streams in ([["a", None, "c"]], [["a", None, "c"], ["b", None, "d"]]):
            with pytest.raises(ValueError, match="segment 1 has no reference"):
                entry(HYPS, streams)
    with pytest.raises(ValueError, match="segment 1 has no reference"):
        chrf.CHRF().corpus_score(HYPS, [["a", None, "c"]])
