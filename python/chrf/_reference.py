"""The pure-Python reference: SPEC.md written as directly as Python allows, with no Rust.

It is slow on purpose: Counters of n-gram strings, `fractions.Fraction` arithmetic, and
sacreBLEU's float formula copied expression for expression. The compiled path must agree with it
exactly on every field; hypothesis property tests and `chrf.selftest()` check that it does.
"""

from __future__ import annotations

import string
from collections import Counter
from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING

from chrf import _core
from chrf._components import Components, NgramType, OrderComponents, six_decimals
from chrf._inputs import Layout, References, Texts, check_layout
from chrf._settings import ExactOptions, Options, Settings, exact_settings

if TYPE_CHECKING:
    from typing_extensions import Unpack

__all__ = [
    "aggregate",
    "components",
    "expected_utility",
    "explain",
    "pairwise",
    "score",
    "segment_statistics",
]

PUNCTUATION = frozenset(string.punctuation)
EPS = 1e-16

Stats = list[tuple[int, int, int]]


def word_tokens(text: str) -> list[str]:
    """sacreBLEU's `_remove_punctuation`: split on whitespace, split one mark off each word."""
    tokens: list[str] = []
    for word in text.split():
        if len(word) == 1:
            tokens.append(word)
        elif word[-1] in PUNCTUATION:
            tokens += [word[:-1], word[-1]]
        elif word[0] in PUNCTUATION:
            tokens += [word[0], word[1:]]
        else:
            tokens.append(word)
    return tokens


def ngram_bags(text: str, settings: Settings) -> list[Counter[object]]:
    """Counters of character n-grams (orders 1..char_order), then of word n-grams."""
    chars = text if settings.include_whitespace else "".join(text.split())
    bags: list[Counter[object]] = [
        Counter(chars[i : i + n] for i in range(len(chars) - n + 1))
        for n in range(1, settings.char_order + 1)
    ]
    words = word_tokens(text)
    bags += [
        Counter(tuple(words[i : i + n]) for i in range(len(words) - n + 1))
        for n in range(1, settings.word_order + 1)
    ]
    return bags


def pair_statistics(
    hyp: list[Counter[object]], ref: list[Counter[object]], settings: Settings
) -> Stats:
    stats = []
    for h, r in zip(hyp, ref, strict=True):
        hyp_count = sum(h.values())
        if not r and not settings.count_hyp_without_ref:
            hyp_count = 0  # sacreBLEU: "don't count hits if no reference exists"
        stats.append((hyp_count, sum(r.values()), sum((h & r).values())))
    return stats


def segment_statistics(hypothesis: str, references: Sequence[str], settings: Settings) -> Stats:
    """Statistics against the reference with the best sentence F, the first on ties (spec §5):
    sacreBLEU's F, or chrF++.py's under ``per_order_f`` averaging."""
    return best_reference(hypothesis, references, settings)[1]


def best_reference(
    hypothesis: str, references: Sequence[str], settings: Settings
) -> tuple[int, Stats]:
    """The index of the reference spec §5 chooses, and the statistics against it."""
    if len(references) > 1:
        settings.check_float()
    if settings.lowercase:
        hypothesis = hypothesis.lower()
    hyp = ngram_bags(hypothesis, settings)
    best: tuple[int, Stats] = (0, [(0, 0, 0)] * settings.order_count)
    best_f = -1.0
    per_order_f = settings.averaging == "per_order_f" and not settings.eps_smoothing
    for k, reference in enumerate(references):
        if settings.lowercase:
            reference = reference.lower()
        stats = pair_statistics(hyp, ngram_bags(reference, settings), settings)
        if len(references) == 1:  # nothing to choose: no F (which a huge β could not have)
            return 0, stats
        f = chrfpp_sentence_f(stats, settings) if per_order_f else sacrebleu_f(stats, settings)
        if f > best_f:
            best_f, best = f, (k, stats)
    return best


def chrfpp_sentence_f(stats: Stats, settings: Settings) -> float:
    """chrF++.py's ``sentF``, expression for expression: the F of each order with a match,
    character and word orders summed apart, then added and divided by the number of orders."""
    factor = settings.beta**2
    sums = [0.0, 0.0]
    for order, (n_hyp, n_ref, n_match) in enumerate(stats):
        if n_match > 0:
            prec, rec = n_match / n_hyp, n_match / n_ref
            sums[order >= settings.char_order] += (1 + factor) * prec * rec / (factor * prec + rec)
    return (sums[0] + sums[1]) / settings.order_count


def sacrebleu_f(stats: Stats, settings: Settings) -> float:
    """sacreBLEU 2.6's `CHRF._compute_f_score`, expression for expression."""
    score = 0.0
    effective_order = 0
    factor = settings.beta**2
    avg_prec, avg_rec = 0.0, 0.0
    for n_hyp, n_ref, n_match in stats:
        prec = n_match / n_hyp if n_hyp > 0 else EPS
        rec = n_match / n_ref if n_ref > 0 else EPS
        denom = factor * prec + rec
        score += ((1 + factor) * prec * rec / denom) if denom > 0 else EPS
        if n_hyp > 0 and n_ref > 0:
            avg_prec += prec
            avg_rec += rec
            effective_order += 1
    if settings.eps_smoothing:
        return 100 * score / settings.order_count
    if effective_order == 0:
        avg_prec = avg_rec = 0.0
    else:
        avg_prec /= effective_order
        avg_rec /= effective_order
    if avg_prec + avg_rec:
        score = (1 + factor) * avg_prec * avg_rec
        score /= (factor * avg_prec) + avg_rec
        return 100 * score
    return 0.0


#: Hypotheses, and reference streams with ``None`` where a segment lacks a reference.
Corpus = tuple[list[str], list[list[str | None]]]


def read(hypotheses: object, references: object, layout: object = None) -> Corpus:
    """The texts as every entry point reads them: checked by the compiled core's reader (texts
    are validated, not computed on), not lowercased (this module lowercases as it computes)."""
    check_layout(layout)
    return _core.read(hypotheses, references, layout, False).texts()  # type: ignore[arg-type]


def corpus_statistics(
    hypotheses: object, references: object, settings: Settings, layout: Layout | None = None
) -> tuple[int, Stats]:
    c = read(hypotheses, references, layout)
    totals = [(0, 0, 0)] * settings.order_count
    for i, hyp in enumerate(c[0]):
        refs = [text for _, text in present(c, i)]
        seg = segment_statistics(hyp, refs, settings)
        totals = [(a + x, b + y, m + z) for (a, b, m), (x, y, z) in zip(totals, seg, strict=True)]
    return len(c[0]), totals


def present(c: Corpus, i: int) -> list[tuple[int, str]]:
    """Segment i's references with their streams, sacreBLEU's None placeholders dropped."""
    return [(k, text) for k, stream in enumerate(c[1]) if (text := stream[i]) is not None]


def f_beta(p: Fraction, r: Fraction, beta_squared: Fraction) -> Fraction:
    if p == 0 and r == 0:
        return Fraction(0)
    return (1 + beta_squared) * p * r / (beta_squared * p + r)


def harmonic_f_beta(p: Fraction, r: Fraction, beta_squared: Fraction) -> Fraction | None:
    if p <= 0 or r <= 0:
        return None
    return 1 / ((beta_squared / r + 1 / p) / (1 + beta_squared))


def components_of(stats: Stats, settings: Settings, segment_count: int) -> Components:
    beta_squared = settings.beta_fraction**2
    checked = False

    def checked_f(p: Fraction, r: Fraction) -> Fraction:
        nonlocal checked
        direct = f_beta(p, r, beta_squared)
        harmonic = harmonic_f_beta(p, r, beta_squared)
        if harmonic is not None:
            if harmonic != direct:
                raise ArithmeticError("harmonic and direct F-beta disagree")
            checked = True
        return direct

    orders = []
    for index, (h, r, m) in enumerate(stats):
        kind: NgramType
        kind, n = (
            ("char", index + 1)
            if index < settings.char_order
            else ("word", index - settings.char_order + 1)
        )
        precision = Fraction(m, h) if h > 0 else None
        recall = Fraction(m, r) if r > 0 else None
        f = checked_f(precision, recall) if precision is not None and recall is not None else None
        orders.append(OrderComponents(kind, n, h, r, m, f is not None, precision, recall, f))

    effective = [o for o in orders if o.effective]
    k = len(effective)
    avg_p = (
        sum((o.precision or Fraction(0) for o in effective), Fraction(0)) / k if k else Fraction(0)
    )
    avg_r = sum((o.recall or Fraction(0) for o in effective), Fraction(0)) / k if k else Fraction(0)
    if settings.averaging == "precision_recall":
        fraction = checked_f(avg_p, avg_r)
    else:
        fraction = sum((o.f_score or Fraction(0) for o in orders), Fraction(0)) / len(orders)
    value = 100 * fraction
    return Components(
        settings=settings,
        segment_count=segment_count,
        orders=tuple(orders),
        effective_order_count=k,
        average_precision=avg_p,
        average_recall=avg_r,
        score_fraction=value,
        score=six_decimals(value),
        cross_checked=checked,
    )


def components(
    hypotheses: Texts,
    references: References,
    *,
    layout: Layout | None = None,
    **options: Unpack[ExactOptions],
) -> Components:
    """Reference twin of `chrf.components`."""
    settings = exact_settings(options)
    count, stats = corpus_statistics(hypotheses, references, settings, layout)
    return components_of(stats, settings, count)


def score(
    hypotheses: Texts,
    references: References,
    *,
    layout: Layout | None = None,
    **options: Unpack[Options],
) -> float:
    """Reference twin of `chrf.score`."""
    settings = Settings(**options)
    _, stats = corpus_statistics(hypotheses, references, settings, layout)
    return float_of(stats, settings)


def pairwise(
    hypotheses: list[str], references: list[str], **options: Unpack[Options]
) -> list[list[float]]:
    """Reference twin of `chrf.pairwise`: each pair scored alone."""
    settings = Settings(**options)
    return [[sentence_score(hyp, [ref], settings) for ref in references] for hyp in hypotheses]


def expected_utility(
    hypotheses: list[str],
    references: list[str],
    weights: Sequence[int | float | Fraction] | None = None,
    **options: Unpack[Options],
) -> list[float]:
    """Reference twin of `chrf.expected_utility`: each row of this module's `pairwise`, its
    weighted mean taken in Fractions (a float weight at its exact value), rounded once."""
    ws = [Fraction(w) for w in weights] if weights is not None else [Fraction(1)] * len(references)
    total = sum(ws, Fraction(0))
    return [
        float(sum((w * Fraction(s) for w, s in zip(ws, row, strict=True)), Fraction(0)) / total)
        for row in pairwise(hypotheses, references, **options)
    ]


def sentence_score(hypothesis: str, references: list[str], settings: Settings) -> float:
    return float_of(segment_statistics(hypothesis, references, settings), settings)


def aggregate(
    hypotheses: list[str],
    references: list[str],
    weights: list[int] | None = None,
    **options: Unpack[Options],
) -> list[float]:
    """Reference twin of `chrf.aggregate`: each hypothesis against the weighted mean n-gram bag
    of the references (Vamvas & Sennrich 2024). With W the total weight, the mean bag times W is
    Σ w_j · bag_j, and the hypothesis's counts times W: the same ratios, in integers."""
    settings = Settings(**options)
    ws = weights if weights is not None else [1] * len(references)
    total = sum(ws)
    ref_bags = [
        ngram_bags(ref.lower() if settings.lowercase else ref, settings) for ref in references
    ]
    scaled_mean: list[Counter[object]] = [Counter() for _ in range(settings.order_count)]
    for w, bags in zip(ws, ref_bags, strict=True):
        for mean, bag in zip(scaled_mean, bags, strict=True):
            for gram, count in bag.items():
                mean[gram] += w * count
    scores = []
    for hyp in hypotheses:
        hyp_bags = ngram_bags(hyp.lower() if settings.lowercase else hyp, settings)
        stats = []
        for mean, counts in zip(scaled_mean, hyp_bags, strict=True):
            matched = sum(min(total * c, mean[gram]) for gram, c in counts.items())
            ref_total = sum(mean.values())
            hyp_total = total * sum(counts.values())
            if ref_total == 0 and not settings.count_hyp_without_ref:
                hyp_total = 0
            stats.append((hyp_total, ref_total, matched))
        scores.append(float_of(stats, settings))
    return scores


def float_of(stats: Stats, settings: Settings) -> float:
    """The float score of statistics, as `chrf.score` gives it."""
    settings.check_float()
    if settings.averaging == "per_order_f" and not settings.eps_smoothing:
        return float(components_of(stats, settings, 1).score_fraction)
    return sacrebleu_f(stats, settings)


def explain(
    hypotheses: Texts,
    references: References,
    layout: Layout | None = None,
    **options: Unpack[Options],
) -> list[tuple[Counter[str], Counter[str]]]:
    """Reference twin of `chrf.explain`'s n-grams: per order, Counters of the missing and the
    extra n-grams over the corpus, each segment against the reference spec §5 chooses,
    word n-grams as their tokens joined by a space."""
    settings = Settings(**options)
    c = read(hypotheses, references, layout)
    orders: list[tuple[Counter[str], Counter[str]]] = [
        (Counter(), Counter()) for _ in range(settings.order_count)
    ]
    for i, hyp in enumerate(c[0]):
        refs = [text for _, text in present(c, i)]
        best = refs[best_reference(hyp, refs, settings)[0]]
        text, best = (hyp.lower(), best.lower()) if settings.lowercase else (hyp, best)
        hyp_bags, ref_bags = ngram_bags(text, settings), ngram_bags(best, settings)
        for (missing, extra), h, r in zip(orders, hyp_bags, ref_bags, strict=True):
            if not r and not settings.count_hyp_without_ref:
                continue  # spec §1.4: the hypothesis's n-grams are not counted
            missing.update({_gram_text(g): n for g, n in (r - h).items()})
            extra.update({_gram_text(g): n for g, n in (h - r).items()})
    return orders


def _gram_text(gram: object) -> str:
    return " ".join(gram) if isinstance(gram, tuple) else str(gram)
