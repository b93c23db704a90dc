"""SPEC.md's arithmetic, as directly as Python writes it: n-grams as Counters of strings,
statistics as tuples of ints, exact values as `fractions.Fraction`, and sacreBLEU's float formula
copied expression for expression. Slow on purpose."""

from __future__ import annotations

import string
from collections import Counter
from collections.abc import Sequence
from fractions import Fraction

from chrf._components import Components, NgramType, OrderComponents, six_decimals
from chrf._settings import Settings

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


def segment_counts(hypothesis: str, references: Sequence[str], settings: Settings) -> Stats:
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


def sentence_score(hypothesis: str, references: list[str], settings: Settings) -> float:
    return float_of(segment_counts(hypothesis, references, settings), settings)


def float_of(stats: Stats, settings: Settings) -> float:
    """The float score of statistics, as `chrf.score` gives it."""
    settings.check_float()
    if settings.averaging == "per_order_f" and not settings.eps_smoothing:
        return float(components_of(stats, settings, 1).score_fraction)
    return sacrebleu_f(stats, settings)


def added(a: Stats, b: Stats) -> Stats:
    """Statistics of two sets of segments together: the counts of each order summed."""
    return [(h1 + h2, r1 + r2, m1 + m2) for (h1, r1, m1), (h2, r2, m2) in zip(a, b, strict=True)]


def subtracted(a: Stats, b: Stats) -> Stats:
    """Statistics of a set of segments without some of them (`b`, a part of `a`)."""
    return [(h1 - h2, r1 - r2, m1 - m2) for (h1, r1, m1), (h2, r2, m2) in zip(a, b, strict=True)]


def aggregate_scores(
    hypotheses: list[str], references: list[str], weights: list[int], settings: Settings
) -> list[float]:
    """Each hypothesis against the weighted mean n-gram bag of the references (Vamvas & Sennrich
    2024). With W the total weight, the mean bag times W is Σ w_j · bag_j, and the hypothesis's
    counts times W: the same ratios, in integers."""
    if max(weights) >= 2**64 and settings.averaging == "per_order_f" and not settings.eps_smoothing:
        raise ValueError(
            "per_order_f averaging takes reference aggregation's weights only as integers below "
            "2**64 in the same proportions"
        )
    total = sum(weights)
    ref_bags = [
        ngram_bags(ref.lower() if settings.lowercase else ref, settings) for ref in references
    ]
    scaled_mean: list[Counter[object]] = [Counter() for _ in range(settings.order_count)]
    for w, bags in zip(weights, ref_bags, strict=True):
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
