"""chrf.explain: missing and extra n-grams that sum exactly to the corpus statistics, and the
segment views (leave-one-out deltas, length buckets) against scores computed from scratch; over
both implementations (`impl`), the reference on fewer WMT lines."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from hypothesis import given, settings

import chrf
from chrf import _reference
from implementations import sized
from strategies import chrf_settings, corpora
from wmt import read_lines


def assert_same_explanation(e: chrf.Explanation, other: chrf.Explanation) -> None:
    """Every field of two explanations equal: the n-grams in the same order, the arrays."""
    assert e.orders == other.orders
    assert (e.score, e.settings, e.top) == (other.score, other.settings, other.top)
    for name in ("references", "segment_statistics", "sentence_scores", "leave_one_out"):
        ours, theirs = getattr(e, name), getattr(other, name)
        assert (ours.dtype, ours.tolist()) == (theirs.dtype, theirs.tolist()), name


def assert_sums_match_statistics(e: chrf.Explanation, stats: chrf.Statistics) -> None:
    for order, (h, r, m) in zip(e.orders, stats.counts, strict=True):
        assert (order.hypothesis_ngrams, order.reference_ngrams, order.matching_ngrams) == (h, r, m)
        assert sum(count for _, count in order.missing) == order.missing_total == r - m
        assert sum(count for _, count in order.extra) == order.extra_total == h - m


@settings(max_examples=min(500, settings.default.max_examples))  # a soak's 1,000: half a minute
@given(corpora(), chrf_settings(exact=False))
def test_generated_text_is_explained_as_the_reference_explains_it(
    corpus: Any, options: dict[str, Any]
) -> None:
    hyps, refs = corpus
    e = chrf.explain(hyps, refs, layout="streams", **options)
    assert_same_explanation(e, _reference.explain(hyps, refs, layout="streams", **options))
    for order in e.orders:  # the largest count first, then in code point order
        for listed in (order.missing, order.extra):
            assert list(listed) == sorted(listed, key=lambda item: (-item[1], item[0]))
    assert_sums_match_statistics(e, chrf.statistics(hyps, refs, layout="streams", **options))
    segment = e.segment(len(hyps) - 1)
    for order, (h, r, m) in zip(segment.orders, e.segment_statistics[-1].tolist(), strict=True):
        assert sum(c for _, c in order.missing) == r - m
        assert sum(c for _, c in order.extra) == h - m


def wmt_sets(wmt_dir: Path) -> list[tuple[list[str], list[list[str]]]]:
    found = []
    for folder in sorted(wmt_dir.iterdir()):
        hyp = sorted(folder.glob("hyp.*.txt"))[0]
        refs = sorted(folder.glob("ref.*.txt"))
        found.append((read_lines(hyp), [read_lines(r) for r in refs]))
    return found


def test_sums_are_exact_on_every_wmt_set(impl: ModuleType, wmt_dir: Path) -> None:
    # chrF++ (character and word orders) on every set; the other rule of spec §1.4 and chrF on one.
    other_rules: list[dict[str, Any]] = [{}, {"word_order": 2, "count_hyp_without_ref": True}]
    lines = sized(impl, 10**9, 150)
    for k, (hyps, refs) in enumerate(wmt_sets(wmt_dir)):
        hyps, refs = hyps[:lines], [r[:lines] for r in refs]
        for options in [{"word_order": 2}, *(other_rules if k == 0 else [])]:
            e = impl.explain(hyps, refs, **options)
            assert_sums_match_statistics(e, impl.statistics(hyps, refs, **options))
            assert e.score == impl.score(hyps, refs, **options)


def test_wmt_explanations_equal_the_reference_implementation(wmt_dir: Path) -> None:
    hyps, refs = wmt_sets(wmt_dir)[0]
    hyps, refs = hyps[:400], [r[:400] for r in refs]  # the reference is slow on purpose
    e = chrf.explain(hyps, refs, word_order=2)
    assert_same_explanation(e, _reference.explain(hyps, refs, word_order=2))
    assert set(e.references.tolist()) == {0, 1}  # both references chosen somewhere
    top = chrf.explain(hyps, refs, 7, count_hyp_without_ref=True, lowercase=True)
    assert_same_explanation(
        top, _reference.explain(hyps, refs, 7, count_hyp_without_ref=True, lowercase=True)
    )


def test_segment_views_equal_scores_of_subsets(impl: ModuleType, wmt_dir: Path) -> None:
    hyps, refs = wmt_sets(wmt_dir)[1]
    lines = sized(impl, 300, 120)
    hyps, refs = hyps[:lines], [r[:lines] for r in refs]
    e = impl.explain(hyps, refs, word_order=2, top=5)
    assert all(len(o.missing) <= 5 and len(o.extra) <= 5 for o in e.orders)
    assert e.sentence_scores.tolist() == impl.sentence_scores(hyps, refs, word_order=2).tolist()
    worst = e.costliest(3)
    assert [w.delta for w in worst] == sorted(e.leave_one_out.tolist())[:3]
    for i in [worst[0].index, 0, len(hyps) - 1]:
        kept = [k for k in range(len(hyps)) if k != i]
        without = impl.score(
            [hyps[k] for k in kept], [[r[k] for k in kept] for r in refs], word_order=2
        )
        assert e.leave_one_out[i] == e.score - without
    lengths = e.reference_lengths().tolist()
    for bucket in e.length_buckets():
        inside = [
            k
            for k, n in enumerate(lengths)
            if n >= bucket.low and (bucket.high is None or n < bucket.high)
        ]
        assert bucket.segments == len(inside)
        if inside:
            subset = ([hyps[k] for k in inside], [[r[k] for k in inside] for r in refs])
            assert bucket.score == impl.score(*subset, word_order=2)
    json.dumps(e.to_dict(segments=2))  # JSON-ready as it is


def test_bad_arguments_are_refused(impl: ModuleType) -> None:
    with pytest.raises(ValueError, match="top"):
        impl.explain(["a"], ["a"], top=-1)
    with pytest.raises(TypeError, match=r"top must be an int or None, not str"):
        impl.explain(["a"], ["a"], top="3")
    with pytest.raises(TypeError, match=r"hypotheses\[0\]"):
        impl.explain([None], ["a"])
    with pytest.raises(ValueError, match="segment 0 has no reference"):
        impl.explain(["a"], [[None], [None]])
    e = impl.explain(["a"], ["a"])
    assert not e.segment_statistics.flags.writeable  # a result, not a buffer to change
    with pytest.raises(IndexError):
        e.segment(1)
    with pytest.raises(ValueError, match="edges"):
        e.length_buckets((5, 3))


def test_import_chrf_loads_neither_the_explanations_nor_numpy() -> None:
    code = (
        "import sys, chrf; "
        "assert not {'numpy', 'chrf._explain', 'chrf._compare', 'plotly'} & set(sys.modules); "
        "assert chrf.explain(['a'], ['a']).score == 100.0"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
