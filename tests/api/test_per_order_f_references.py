"""`averaging="per_order_f"` with several references picks each segment's reference as Popović's
chrF++.py does (spec §5): by chrF++.py's own sentence F, the first reference on ties.

`chrfpp_best_counts` below restates chrF++.py's `computeChrF` (m-popovic/chrF, chrF++.py:
`ngram_counts`, `ngram_matches`, `ngram_precrecf`, and the reference loop with `maxF = -1.0` and
`if sentF > maxF`) for one segment. Its own preprocessing (characters: the line stripped, only
" " removed; words: `line.strip().split()` with one punctuation mark split off) equals sacreBLEU's
on the texts drawn here: single spaces between words, none at the ends.
"""

from __future__ import annotations

import string
from collections import defaultdict
from types import ModuleType

from hypothesis import given
from hypothesis import strategies as st
from sacrebleu.metrics import CHRF as SacreCHRF

Counts = list[tuple[int, int, int]]


def separate_characters(line: str) -> list[str]:
    return list(line.strip().replace(" ", ""))


def separate_punctuation(line: str) -> list[str]:
    tokens: list[str] = []
    for w in line.strip().split():
        if len(w) == 1:
            tokens.append(w)
        elif w[-1] in string.punctuation:
            tokens += [w[:-1], w[-1]]
        elif w[0] in string.punctuation:
            tokens += [w[0], w[1:]]
        else:
            tokens.append(w)
    return tokens


def ngram_counts(units: list[str], order: int) -> dict[int, dict[tuple[str, ...], float]]:
    counts: dict[int, dict[tuple[str, ...], float]] = defaultdict(lambda: defaultdict(float))
    for i in range(len(units)):
        for j in range(1, order + 1):
            if i + j <= len(units):
                counts[j - 1][tuple(units[i : i + j])] += 1
    return counts


def ngram_matches(
    ref: dict[int, dict[tuple[str, ...], float]], hyp: dict[int, dict[tuple[str, ...], float]]
) -> tuple[dict[int, float], dict[int, float], dict[int, float]]:
    matching: dict[int, float] = defaultdict(float)
    ref_total: dict[int, float] = defaultdict(float)
    hyp_total: dict[int, float] = defaultdict(float)
    for order in ref:  # orders the reference has: the hypothesis counts only there
        for ngram in hyp[order]:
            hyp_total[order] += hyp[order][ngram]
        for ngram in ref[order]:
            ref_total[order] += ref[order][ngram]
            if ngram in hyp[order]:
                matching[order] += min(ref[order][ngram], hyp[order][ngram])
    return matching, ref_total, hyp_total


def ngram_f(
    matching: dict[int, float],
    ref_total: dict[int, float],
    hyp_total: dict[int, float],
    beta: float,
) -> dict[int, float]:
    factor = beta**2
    f: dict[int, float] = defaultdict(float)
    for order in matching:  # orders with a match only
        prec = matching[order] / hyp_total[order] if hyp_total[order] > 0 else 1e-16
        rec = matching[order] / ref_total[order] if ref_total[order] > 0 else 1e-16
        denom = factor * prec + rec
        f[order] = (1 + factor) * prec * rec / denom if denom > 0 else 1e-16
    return f


def chrfpp_best_counts(hyp: str, refs: list[str], nc: int, nw: int, beta: float) -> Counts:
    """The segment counts chrF++.py adds to its corpus totals: character orders, then words."""
    norder = float(nw + nc)
    hyp_words = ngram_counts(separate_punctuation(hyp), nw)
    hyp_chars = ngram_counts(separate_characters(hyp), nc)
    max_f, best = -1.0, []
    for ref in refs:
        words = ngram_matches(ngram_counts(separate_punctuation(ref), nw), hyp_words)
        chars = ngram_matches(ngram_counts(separate_characters(ref), nc), hyp_chars)
        sent_f = (
            sum(ngram_f(*chars, beta).values()) + sum(ngram_f(*words, beta).values())
        ) / norder
        if sent_f > max_f:
            max_f = sent_f
            best = [
                (int(hyp_total[o]), int(ref_total[o]), int(matching[o]))
                for (matching, ref_total, hyp_total), orders in ((chars, nc), (words, nw))
                for o in range(orders)
            ]
    return best


def test_the_issues_example(impl: ModuleType) -> None:
    hyp, refs = "ab", ["ba", "b"]
    ours = impl.sentence_scores(
        [hyp], [[refs[0]], [refs[1]]], char_order=2, averaging="per_order_f"
    )
    assert ours[0] == 50.0  # chrF++.py's choice, "ba"; sacreBLEU's would give 41.67
    assert chrfpp_best_counts(hyp, refs, 2, 0, 2.0) == [(2, 2, 2), (1, 1, 0)]
    # precision_recall still picks as sacreBLEU does (its F prefers "b").
    sacre = SacreCHRF(char_order=2).sentence_score(hyp, refs).score
    assert impl.sentence_scores([hyp], [[refs[0]], [refs[1]]], char_order=2)[0] == sacre


words = st.text(alphabet="abc.,", min_size=1, max_size=4)
texts = st.lists(words, min_size=0, max_size=5).map(" ".join)


@given(
    hyp=texts,
    refs=st.lists(texts, min_size=2, max_size=4),
    nc=st.integers(0, 4),
    nw=st.integers(0, 2),
    beta=st.sampled_from([1, 2, 3]),
)
def test_per_order_f_picks_the_reference_chrfpp_picks(
    impl: ModuleType, hyp: str, refs: list[str], nc: int, nw: int, beta: int
) -> None:
    if nc + nw == 0:
        return
    options = {"char_order": nc, "word_order": nw, "beta": beta, "averaging": "per_order_f"}
    expected = chrfpp_best_counts(hyp, refs, nc, nw, float(beta))
    streams = [[ref] for ref in refs]
    assert list(impl.statistics([hyp], streams, **options).counts) == expected
    segment = impl.segment_statistics([hyp], streams, **options)[0].tolist()
    assert [tuple(order) for order in segment] == expected
