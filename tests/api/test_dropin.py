"""chrf.CHRF as a drop-in for sacrebleu.metrics.CHRF: same behaviour, safer on bad input."""

from __future__ import annotations

import copy
import pickle
import subprocess
import sys
from fractions import Fraction

import pytest
from sacrebleu.metrics import CHRF as SacreCHRF

import chrf

HYPS = ["The cat sat on the mat.", "A dog barked loudly.", ""]
REFS_A = ["The cat sat on a mat.", "The dog barked.", "Nothing."]
REFS_B = ["A cat was sitting on the mat.", "A dog was barking.", ""]


def test_the_readme_before_and_after() -> None:
    before = SacreCHRF(word_order=2).corpus_score(HYPS, [REFS_A, REFS_B])
    after = chrf.CHRF(word_order=2).corpus_score(HYPS, [REFS_A, REFS_B])
    assert after.score == before.score
    assert str(after) == str(before)
    assert (after.char_order, after.word_order, after.beta) == (6, 2, 2)
    assert after.name == "chrF2++"


def test_signature_matches_sacrebleu_but_for_the_version() -> None:
    ours, theirs = (
        chrf.CHRF(lowercase=True, whitespace=True),
        SacreCHRF(lowercase=True, whitespace=True),
    )
    ours.corpus_score(HYPS, [REFS_A, REFS_B])
    theirs.corpus_score(HYPS, [REFS_A, REFS_B])
    assert str(ours.get_signature()) == str(theirs.get_signature()).replace(
        "version:2.6.0", f"version:chrf-{chrf._sacrebleu.VERSION}"
    )
    short_ours = ours.get_signature().format(short=True)
    short_theirs = theirs.get_signature().format(short=True)
    assert short_ours.rsplit("|v:", 1)[0] == short_theirs.rsplit("|v:", 1)[0]


def test_settings_beyond_sacrebleu_show_in_the_signature() -> None:
    metric = chrf.CHRF(averaging="per_order_f", count_hyp_without_ref=True)
    metric.corpus_score(HYPS, [REFS_A])
    signature = str(metric.get_signature())
    assert "|avg:per_order_f|hypnoref:count|" in signature
    default = chrf.CHRF()
    default.corpus_score(HYPS, [REFS_A])
    assert "avg" not in str(default.get_signature())


def test_the_options_sacrebleu_lacks_are_keyword_arguments_and_nothing_else_is() -> None:
    # CHRF takes them from the option table (`chrf._options`), and refuses any other keyword as
    # Python refuses one it does not know.
    from chrf._options import OPTIONS

    own = {o.name: o for o in OPTIONS if "sacrebleu" not in o.names}
    assert set(own) == {"averaging", "count_hyp_without_ref"}
    for name, option in own.items():
        assert getattr(chrf.CHRF(**{name: option.default}).settings, name) == option.default
    for wrong in ("include_whitespace", "eps", "averagin"):
        with pytest.raises(
            TypeError, match=rf"^CHRF.__init__\(\) got an unexpected keyword argument '{wrong}'$"
        ):
            chrf.CHRF(**{wrong: True})


def test_signature_needs_a_scored_corpus_as_in_sacrebleu() -> None:
    with pytest.raises(ValueError, match="Number of references unknown"):
        chrf.CHRF().get_signature()
    cached = chrf.CHRF(references=[REFS_A, REFS_B])
    assert "nrefs:2" in str(cached.get_signature())


def test_cached_references_are_used_when_none_are_given() -> None:
    cached = chrf.CHRF(references=[REFS_A])
    assert cached.corpus_score(HYPS, None).score == chrf.score(HYPS, REFS_A)
    with pytest.raises(RuntimeError, match="cache is empty"):
        chrf.CHRF().corpus_score(HYPS, None)


def test_streams_of_the_wrong_length_are_refused_not_truncated() -> None:
    # sacreBLEU zips the streams and silently scores the first two segments only.
    truncated = SacreCHRF().corpus_score(HYPS, [REFS_A[:2]])
    assert truncated.score == SacreCHRF().corpus_score(HYPS[:2], [REFS_A[:2]]).score
    with pytest.raises(ValueError, match=r"references\[0\] has 2 segments but hypotheses has 3"):
        chrf.CHRF().corpus_score(HYPS, [REFS_A[:2]])


def test_a_flat_reference_list_means_one_reference_per_hypothesis() -> None:
    assert (
        chrf.CHRF().corpus_score(HYPS, REFS_A).score
        == chrf.CHRF().corpus_score(HYPS, [REFS_A]).score
    )


def test_sentence_score_takes_several_references() -> None:
    ours = chrf.CHRF().sentence_score(HYPS[0], [REFS_A[0], REFS_B[0]])
    assert ours.score == SacreCHRF().sentence_score(HYPS[0], [REFS_A[0], REFS_B[0]]).score
    with pytest.raises(TypeError, match="hypothesis must be str"):
        chrf.CHRF().sentence_score(None, ["a"])  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"references\[1\] must be str, not int"):
        chrf.CHRF().sentence_score("a", ["a", 3])  # type: ignore[list-item]


def test_fraction_beta_names_the_score() -> None:
    result = chrf.CHRF(beta=Fraction(3, 2)).corpus_score(HYPS, [REFS_A])
    assert result.name == "chrF3/2"
    assert result.score == chrf.score(HYPS, REFS_A, beta=Fraction(3, 2))


def test_statistics_add_pickle_and_score_like_the_whole_corpus() -> None:
    whole = chrf.statistics(HYPS, [REFS_A, REFS_B], word_order=2)
    parts = [
        chrf.statistics([h], [[a], [b]], word_order=2)
        for h, a, b in zip(HYPS, REFS_A, REFS_B, strict=True)
    ]
    merged = sum(parts)
    assert merged == whole
    assert chrf.Statistics.total(pickle.loads(pickle.dumps(parts))) == whole
    assert whole.score() == chrf.score(HYPS, [REFS_A, REFS_B], word_order=2)
    assert whole.components() == chrf.components(HYPS, [REFS_A, REFS_B], word_order=2)
    with pytest.raises(ValueError, match="different settings"):
        whole + chrf.statistics(HYPS, [REFS_A])


def test_a_used_metric_pickles_copies_and_follows_new_settings() -> None:
    metric = chrf.CHRF(word_order=2)
    first = metric.sentence_score(HYPS[0], [REFS_A[0]])
    for copied in (pickle.loads(pickle.dumps(metric)), copy.deepcopy(metric)):
        assert vars(copied.sentence_score(HYPS[0], [REFS_A[0]])) == vars(first)
    # The compiled settings are the current ones', not those of the first call.
    metric.settings = chrf.Settings(beta=1)
    assert (
        metric.sentence_score(HYPS[0], [REFS_A[0]]).score
        == chrf.sentence_scores([HYPS[0]], [REFS_A[0]], beta=1)[0]
        != first.score
    )


def test_settings_pickle_as_their_fields_once_used() -> None:
    # Settings keep their compiled form once used; a pickle must not hold it.
    metric = chrf.CHRF(word_order=2)
    metric.sentence_score(HYPS[0], [REFS_A[0]])
    restored = pickle.loads(pickle.dumps(metric.settings))
    assert restored == metric.settings
    assert restored.__getstate__() == metric.settings.options()
    assert (
        metric.sentence_score(HYPS[0], [REFS_A[0]]).score
        == chrf.sentence_scores([HYPS[0]], [REFS_A[0]], word_order=2)[0]
    )


def test_import_loads_only_what_the_first_call_needs() -> None:
    # `import chrf` defers NumPy, fractions, json and the worked examples to the calls that use
    # them; the public names still resolve, and `from chrf import X` works for every one.
    probe = (
        "import sys; import chrf; "
        "heavy = [m for m in ('numpy', 'fractions', 'json', 'dataclasses', 'chrf._selftest') "
        "if m in sys.modules]; "
        "assert not heavy, heavy; "
        "assert all(callable(getattr(chrf, name)) for name in chrf.__all__); "
        "assert set(chrf.__all__) <= set(dir(chrf))"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    with pytest.raises(AttributeError, match="no attribute 'nonexistent'"):
        chrf.nonexistent  # type: ignore[attr-defined]  # noqa: B018


def test_objects_of_the_wrong_type_are_refused_by_name() -> None:
    # Regression: each raised AttributeError (a str has no `num_refs`, no `char_order`) or
    # IndexError (no scores to take the interval of), naming nothing the caller passed.
    with pytest.raises(TypeError, match=r"^metric must be a chrf\.CHRF, not str$"):
        chrf.CHRFSignature("x")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"^settings must be a chrf\.Settings, not str$"):
        chrf.CHRF.from_settings("x")  # type: ignore[arg-type]
    score = chrf.CHRF().corpus_score(HYPS, [REFS_A])
    with pytest.raises(ValueError, match=r"^scores must not be empty$"):
        score.estimate_ci([])
    with pytest.raises(TypeError, match=r"^scores must be an iterable of scores, not int$"):
        score.estimate_ci(3)  # type: ignore[arg-type]
    # What sacreBLEU takes still works: scores or floats.
    score.estimate_ci([score, 50.0, 40.0])
    assert score._mean == pytest.approx((score.score + 90.0) / 3)


def test_a_bootstrap_resample_that_scores_0_is_answered_where_sacrebleu_crashes() -> None:
    # A resample of segments without a match scores Python's 0.0 among float32 scores:
    # sacreBLEU's statistics.mean cannot coerce the two and raises. chrf answers with the mean
    # and interval sacreBLEU's own estimate gives once the 0.0 is a float32 too.
    import numpy as np
    from sacrebleu.significance import _bootstrap_resample

    hyps, refs = ["a", "zz", "zz", "zz", "zz"], ["a", "qq", "qq", "qq", "qq"]
    metric = SacreCHRF()
    with pytest.raises(TypeError, match="coerce"):
        metric.corpus_score(hyps, [refs], n_bootstrap=100)
    _, resamples = _bootstrap_resample(metric._extract_corpus_statistics(hyps, [refs]), metric, 100)
    assert any(type(r.score) is float and r.score == 0 for r in resamples)
    expected = metric.corpus_score(hyps, [refs])
    for r in resamples:
        r.score = np.float32(r.score)
    expected.estimate_ci(resamples)
    ours = chrf.CHRF().corpus_score(hyps, [refs], n_bootstrap=100)
    assert (ours.score, ours._mean, ours._ci) == (expected.score, expected._mean, expected._ci)
    assert str(ours) == str(expected)
