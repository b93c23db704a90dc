//! Slow, obviously right versions of what the core computes fast, written from SPEC §1-5 and
//! sharing no code with the core but its types and `sacrebleu_score` (the float formula,
//! which the targets check against the exact fractions instead).

use std::collections::HashMap;

use chrf_core::{sacrebleu_score, Averaging, Count, OrderCounts, Settings, Statistics};

/// Python's `str.split()` whitespace (SPEC §3), listed rather than tested by range.
const PYTHON_WHITESPACE: &[char] = &[
    '\u{09}', '\u{0A}', '\u{0B}', '\u{0C}', '\u{0D}', '\u{1C}', '\u{1D}', '\u{1E}', '\u{1F}',
    '\u{20}', '\u{85}', '\u{A0}', '\u{1680}', '\u{2000}', '\u{2001}', '\u{2002}', '\u{2003}',
    '\u{2004}', '\u{2005}', '\u{2006}', '\u{2007}', '\u{2008}', '\u{2009}', '\u{200A}', '\u{2028}',
    '\u{2029}', '\u{202F}', '\u{205F}', '\u{3000}',
];

/// Python's `string.punctuation`.
const PUNCTUATION: &str = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~";

pub fn is_whitespace(c: char) -> bool {
    PYTHON_WHITESPACE.contains(&c)
}

/// The code points character n-grams are taken from (SPEC §1.1).
pub fn char_units(text: &str, include_whitespace: bool) -> Vec<u32> {
    text.chars()
        .filter(|&c| include_whitespace || !is_whitespace(c))
        .map(u32::from)
        .collect()
}

/// chrF++ word tokens (SPEC §4).
pub fn word_tokens(text: &str) -> Vec<&str> {
    let mut tokens = Vec::new();
    for word in text.split(is_whitespace).filter(|w| !w.is_empty()) {
        let mut chars = word.char_indices();
        let (_, first) = chars.next().unwrap_or((0, ' '));
        let (last_at, last) = chars.next_back().unwrap_or((0, first));
        if word.chars().count() == 1 {
            tokens.push(word);
        } else if PUNCTUATION.contains(last) {
            tokens.extend([&word[..last_at], &word[last_at..]]);
        } else if PUNCTUATION.contains(first) {
            let split = first.len_utf8();
            tokens.extend([&word[..split], &word[split..]]);
        } else {
            tokens.push(word);
        }
    }
    tokens
}

/// Word ids for two texts, equal ids for equal tokens.
fn word_ids(hypothesis: &str, reference: &str) -> (Vec<u32>, Vec<u32>) {
    let mut ids: HashMap<&str, u32> = HashMap::new();
    let mut of = |text| {
        word_tokens(text)
            .into_iter()
            .map(|token| {
                let next = ids.len() as u32;
                *ids.entry(token).or_insert(next)
            })
            .collect::<Vec<_>>()
    };
    let hyp = of(hypothesis);
    (hyp, of(reference))
}

/// Σ over distinct n-grams of min(hyp count, ref count), for n = 1..=max_order, by counting
/// every window in a hash map.
pub fn clipped_matches(hyp: &[u32], reference: &[u32], max_order: usize) -> Vec<u64> {
    let mut matches = vec![0u64; max_order];
    for n in 1..=max_order.min(hyp.len()).min(reference.len()) {
        let mut counts: HashMap<&[u32], (u64, u64)> = HashMap::new();
        for window in hyp.windows(n) {
            counts.entry(window).or_default().0 += 1;
        }
        for window in reference.windows(n) {
            if let Some(entry) = counts.get_mut(window) {
                entry.1 += 1;
            }
        }
        matches[n - 1] = counts.values().map(|&(h, r)| h.min(r)).sum();
        // An n-gram matches only if its (n-1)-gram prefix does.
        if matches[n - 1] == 0 {
            break;
        }
    }
    matches
}

pub fn window_count(len: usize, n: usize) -> Count {
    (len + 1).saturating_sub(n) as Count
}

/// The statistics of one hypothesis against one reference (SPEC §1.3-1.4).
pub fn pair_statistics(hypothesis: &str, reference: &str, settings: &Settings) -> Statistics {
    let whitespace = settings.include_whitespace;
    let chars = (
        char_units(hypothesis, whitespace),
        char_units(reference, whitespace),
    );
    let words = if settings.word_order() > 0 {
        word_ids(hypothesis, reference)
    } else {
        Default::default()
    };
    let mut orders = Vec::with_capacity(settings.order_count());
    for ((hyp, reference), max_order) in [
        (chars, settings.char_order()),
        (words, settings.word_order()),
    ] {
        let matches = clipped_matches(&hyp, &reference, max_order);
        for (i, &matching) in matches.iter().enumerate() {
            let reference_count = window_count(reference.len(), i + 1);
            let counted = reference_count > 0 || settings.count_hyp_without_ref;
            orders.push(OrderCounts {
                hypothesis: if counted {
                    window_count(hyp.len(), i + 1)
                } else {
                    0
                },
                reference: reference_count,
                matching: matching.into(),
            });
        }
    }
    Statistics::from_orders(orders)
}

/// The statistics of a segment with several references: the first reference of highest
/// sentence score wins (SPEC §5); no reference gives zeros.
pub fn segment_statistics(
    hypothesis: &str,
    references: &[&str],
    settings: &Settings,
) -> Statistics {
    let mut best = Statistics::from_orders(vec![OrderCounts::default(); settings.order_count()]);
    let mut best_score = f64::NEG_INFINITY;
    for reference in references {
        let candidate = pair_statistics(hypothesis, reference, settings);
        let score = match settings.averaging {
            Averaging::PerOrderF if !settings.eps_smoothing => {
                chrfpp_sentence_f(candidate.orders(), settings)
            }
            _ => sacrebleu_score(candidate.orders(), settings),
        };
        if score > best_score || references.len() == 1 {
            best_score = score;
            best = candidate;
        }
    }
    best
}

/// chrF++.py's `sentF`, which picks the reference under per-order-F averaging (SPEC §5): the
/// F of each order with a match, character and word orders summed apart, then added and divided
/// by the number of orders. (Fuzzed counts are small: `as f64` is exact.)
fn chrfpp_sentence_f(orders: &[OrderCounts], settings: &Settings) -> f64 {
    let (factor, one_plus) = (settings.beta.factor(), settings.beta.one_plus_factor());
    let (mut chars, mut words) = (0.0, 0.0);
    for (index, counts) in orders.iter().enumerate() {
        if counts.matching == 0 {
            continue;
        }
        let precision = counts.matching as f64 / counts.hypothesis as f64;
        let recall = counts.matching as f64 / counts.reference as f64;
        let f = one_plus * precision * recall / (factor * precision + recall);
        if index < settings.char_order() {
            chars += f;
        } else {
            words += f;
        }
    }
    (chars + words) / orders.len() as f64
}

/// The order-by-order sum, with u128 arithmetic that must not overflow here.
pub fn sum<'s>(parts: impl IntoIterator<Item = &'s Statistics>, order_count: usize) -> Statistics {
    let mut orders = vec![OrderCounts::default(); order_count];
    for part in parts {
        assert_eq!(part.orders().len(), order_count);
        for (total, counts) in orders.iter_mut().zip(part.orders()) {
            total.hypothesis += counts.hypothesis;
            total.reference += counts.reference;
            total.matching += counts.matching;
        }
    }
    Statistics::from_orders(orders)
}

/// Float equality that treats NaN as equal to itself and tells 0.0 from -0.0.
pub fn same_float(a: f64, b: f64) -> bool {
    a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan())
}
