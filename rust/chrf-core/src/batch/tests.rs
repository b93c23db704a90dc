//! The batch computations against scoring each pair, or counting each n-gram, alone.

#![allow(clippy::unwrap_used)]

use super::bags::Bags;
use super::{aggregate_scores, pairwise_scores};
use crate::pool::Interrupt;
use crate::stats::{Count, OrderCounts};
use crate::text::{for_each_char_unit, for_each_word_token};
use crate::{float_score, segment_statistics, Averaging, Beta, ChrfError, Settings};
use num_rational::BigRational;
use std::collections::HashMap;

fn texts() -> Vec<String> {
    let words = ["a", "ab", "b.", "(ba", "abc", "c", "a b", "ça", "😀a", ""];
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    (0..24)
        .map(|_| {
            let n = (next() % 6) as usize;
            (0..n)
                .map(|_| words[(next() % words.len() as u64) as usize])
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect()
}

#[test]
fn the_preparation_of_a_batch_stops_at_a_raised_interrupt() {
    let texts = texts();
    let texts: Vec<&str> = texts.iter().map(String::as_str).collect();
    let settings = Settings::new(6, 2, Beta::integer(2).unwrap()).unwrap();
    let raised = Interrupt::default();
    raised.raise();
    assert!(matches!(
        Bags::new(&texts, &settings, &raised),
        Err(ChrfError::Cancelled)
    ));
    assert!(Bags::new(&texts, &settings, &Interrupt::default()).is_ok());
}

#[test]
fn aggregation_with_one_reference_is_the_pair_score() {
    let texts = texts();
    let settings = Settings::new(6, 2, Beta::integer(2).unwrap()).unwrap();
    for reference in &texts[..6] {
        let refs = [reference.clone()];
        let aggregated =
            aggregate_scores(&texts, &refs, Some(&[3]), &settings, &Interrupt::default()).unwrap();
        assert_eq!(
            aggregated,
            pairwise_scores(&texts, &refs, &settings, &Interrupt::default()).unwrap()
        );
    }
}

#[test]
fn integer_weights_are_repeated_references() {
    let texts = texts();
    let settings = Settings::new(4, 1, Beta::integer(2).unwrap()).unwrap();
    let refs = &texts[..3];
    let repeated = [
        refs[0].clone(),
        refs[1].clone(),
        refs[1].clone(),
        refs[2].clone(),
    ];
    assert_eq!(
        aggregate_scores(
            &texts,
            refs,
            Some(&[1, 2, 1]),
            &settings,
            &Interrupt::default()
        )
        .unwrap(),
        aggregate_scores(&texts, &repeated, None, &settings, &Interrupt::default()).unwrap()
    );
    assert_eq!(
        aggregate_scores(&texts, refs, Some(&[1]), &settings, &Interrupt::default()),
        Err(ChrfError::WeightCount {
            weights: 1,
            references: 3
        })
    );
}

#[test]
fn pairwise_equals_scoring_each_pair_alone() {
    let texts = texts();
    let (hyps, refs) = texts.split_at(10);
    for (char_order, word_order, count) in
        [(6, 0, false), (2, 2, true), (0, 3, false), (9, 1, false)]
    {
        let mut settings =
            Settings::new(char_order, word_order, Beta::integer(2).unwrap()).unwrap();
        settings.count_hyp_without_ref = count;
        for averaging in [Averaging::PrecisionRecall, Averaging::PerOrderF] {
            settings.averaging = averaging;
            let scores = pairwise_scores(hyps, refs, &settings, &Interrupt::default()).unwrap();
            for (i, hyp) in hyps.iter().enumerate() {
                for (j, reference) in refs.iter().enumerate() {
                    let alone = segment_statistics(hyp, [reference.as_str()], &settings).unwrap();
                    let expected = float_score(&alone, &settings).unwrap();
                    assert_eq!(
                        scores[i * refs.len() + j],
                        expected,
                        "{hyp:?} / {reference:?}"
                    );
                }
            }
        }
    }
}
/// Texts sharing long stretches, repeated, and empty: what the pruning of private n-grams
/// and the long orders have to get right.
fn overlapping_texts() -> Vec<String> {
    let base = "the cat sat on the mat and the dog sat on the log";
    let mut texts: Vec<String> = (0..8)
        .map(|i| format!("{} {}", &base[i * 3..], &base[..i * 5]))
        .collect();
    texts.push(base.repeat(2));
    texts.push(base.to_string());
    texts.push(base.to_string());
    texts.push(String::new());
    texts.push("zzz".into());
    texts
}

#[test]
fn long_orders_pairwise_equals_each_pair_alone() {
    let texts = overlapping_texts();
    for (char_order, word_order) in [(300, 0), (40, 300), (7, 3)] {
        let mut settings =
            Settings::new(char_order, word_order, Beta::integer(2).unwrap()).unwrap();
        for (eps, averaging, count) in [
            (false, Averaging::PrecisionRecall, false),
            (true, Averaging::PrecisionRecall, true),
            (false, Averaging::PerOrderF, true),
        ] {
            settings.eps_smoothing = eps;
            settings.averaging = averaging;
            settings.count_hyp_without_ref = count;
            let scores = pairwise_scores(&texts, &texts, &settings, &Interrupt::default()).unwrap();
            for (i, hyp) in texts.iter().enumerate() {
                for (j, reference) in texts.iter().enumerate() {
                    let alone = segment_statistics(hyp, [reference.as_str()], &settings).unwrap();
                    let expected = float_score(&alone, &settings).unwrap();
                    assert_eq!(
                        scores[i * texts.len() + j],
                        expected,
                        "{i} / {j} {settings:?}"
                    );
                }
            }
        }
    }
}

/// Texts of few letters with repeated stretches: n-grams held many times by a hypothesis,
/// a reference or both, at every order (what the postings' counts are for); duplicates,
/// empty and blank texts included.
fn repetitive_texts(count: usize, seed: u64) -> Vec<String> {
    let pieces = ["ab", "aab", "ba ", "abab", "a", " ", "bb a", "ab ab"];
    let mut next = crate::seeded::below(seed);
    let mut texts: Vec<String> = (0..count)
        .map(|_| (0..next(7)).map(|_| pieces[next(pieces.len())]).collect())
        .collect();
    texts.extend([
        String::new(),
        " ".into(),
        texts[1].clone(),
        texts[2].repeat(3),
    ]);
    texts
}

#[test]
fn pairwise_of_repetitive_texts_equals_each_pair_alone() {
    let texts = repetitive_texts(26, 0x9E37_79B9_7F4A_7C15);
    // Hypotheses among the references and not, references repeated.
    let (hyps, refs) = (&texts[..20], &texts[8..]);
    for (char_order, word_order, eps) in [(6, 0, false), (6, 2, true), (3, 4, false)] {
        let mut settings =
            Settings::new(char_order, word_order, Beta::integer(2).unwrap()).unwrap();
        settings.eps_smoothing = eps;
        for (h, r) in [(hyps, refs), (&texts[..], &texts[..])] {
            let scores = pairwise_scores(h, r, &settings, &Interrupt::default()).unwrap();
            for (i, hyp) in h.iter().enumerate() {
                for (j, reference) in r.iter().enumerate() {
                    let alone = segment_statistics(hyp, [reference.as_str()], &settings).unwrap();
                    let expected = float_score(&alone, &settings).unwrap();
                    assert_eq!(scores[i * r.len() + j], expected, "{hyp:?} / {reference:?}");
                }
            }
        }
    }
}

/// The aggregate score by its definition: every n-gram of every order counted in maps.
fn aggregate_by_counting(hyp: &str, refs: &[String], weights: &[u64], s: &Settings) -> f64 {
    type Bag = HashMap<Vec<String>, Count>;
    let units = |text: &str, kind: usize| -> Vec<String> {
        let mut out = Vec::new();
        if kind == 0 {
            for_each_char_unit(text, s.include_whitespace, |u| {
                out.push(char::from_u32(u).unwrap().to_string())
            });
        } else {
            for_each_word_token(text, |t| out.push(t.to_string()));
        }
        out
    };
    let bag = |text: &str, kind: usize, n: usize, weight: Count| -> Bag {
        let mut bag = Bag::new();
        for window in units(text, kind).windows(n) {
            *bag.entry(window.to_vec()).or_default() += weight;
        }
        bag
    };
    let total_weight: Count = weights.iter().map(|&w| Count::from(w)).sum();
    let mut orders = Vec::new();
    for (kind, max_order) in [(0, s.char_order()), (1, s.word_order())] {
        for n in 1..=max_order {
            let mut mean = Bag::new();
            for (r, &w) in refs.iter().zip(weights) {
                for (g, c) in bag(r, kind, n, Count::from(w)) {
                    *mean.entry(g).or_default() += c;
                }
            }
            let hyp_bag = bag(hyp, kind, n, total_weight);
            let reference: Count = mean.values().sum();
            let matching = hyp_bag
                .iter()
                .map(|(g, &c)| c.min(*mean.get(g).unwrap_or(&0)))
                .sum();
            let hypothesis = hyp_bag.values().sum();
            orders.push(OrderCounts::of_pair(hypothesis, reference, matching, s));
        }
    }
    crate::float::float_score_of_orders(&orders, s).unwrap()
}

#[test]
fn aggregation_equals_counting_every_ngram() {
    let texts = overlapping_texts();
    let refs = &texts[3..];
    let weights: Vec<u64> = (0..refs.len() as u64).map(|k| k % 3).collect();
    for (char_order, word_order) in [(6, 2), (70, 0), (3, 20)] {
        let mut settings =
            Settings::new(char_order, word_order, Beta::integer(2).unwrap()).unwrap();
        for (eps, count) in [(false, false), (true, false), (false, true)] {
            settings.eps_smoothing = eps;
            settings.count_hyp_without_ref = count;
            let scores = aggregate_scores(
                &texts,
                refs,
                Some(&weights),
                &settings,
                &Interrupt::default(),
            )
            .unwrap();
            for (hyp, score) in texts.iter().zip(scores) {
                let expected = aggregate_by_counting(hyp, refs, &weights, &settings);
                assert_eq!(score, expected, "{hyp:?} {settings:?}");
            }
        }
    }
}

/// A text that costs no memory, to ask for outputs larger than any memory.
#[derive(Clone, Copy)]
struct Empty;

impl AsRef<str> for Empty {
    fn as_ref(&self) -> &str {
        ""
    }
}

#[test]
fn an_output_too_large_for_memory_is_an_error() {
    let settings = Settings::new(6, 0, Beta::integer(2).unwrap()).unwrap();
    let many = vec![Empty; 1 << 31];
    assert!(matches!(
        pairwise_scores(&many, &many, &settings, &Interrupt::default()),
        Err(ChrfError::OutOfMemory { .. })
    ));
}

/// A double's exact value.
pub(super) fn exact(value: f64) -> BigRational {
    BigRational::from_float(value).unwrap()
}

/// xorshift64: random bits without a dependency.
pub(super) struct Bits(pub(super) u64);

impl Bits {
    pub(super) fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// Doubles of every kind: any bit pattern (subnormals, huge, negative), scores, 0, 100.
    pub(super) fn double(&mut self) -> f64 {
        let bits = self.next();
        match bits % 6 {
            0 => 0.0,
            1 => 100.0,
            2 => f64::from_bits(self.next() >> 12), // subnormal or zero, positive
            3 => (self.next() % 100_000) as f64 / 997.0,
            _ => loop {
                let value = f64::from_bits(self.next());
                if value.is_finite() {
                    break value;
                }
            },
        }
    }

    pub(super) fn weight(&mut self) -> u128 {
        match self.next() % 5 {
            0 => 0,
            1 => 1,
            2 => u128::from(u64::MAX),
            3 => u128::from(self.next()),
            _ => u128::from(self.next()) << 32 | u128::from(self.next()),
        }
    }
}

#[test]
fn wide_aggregation_equals_the_narrow_one_on_weights_both_take() {
    use super::aggregate_scores_wide;
    use num_bigint::BigUint;
    let texts = texts();
    let (hyps, refs) = (&texts[..14], &texts[8..]); // overlapping: hypotheses among references
    let weights: Vec<u64> = (0..refs.len() as u64).map(|j| (j * 7919) % 13).collect();
    let wide: Vec<BigUint> = weights.iter().map(|&w| BigUint::from(w)).collect();
    for (char_order, word_order, eps, without_ref) in [
        (6, 0, false, false),
        (6, 2, true, false),
        (2, 3, false, true),
        (0, 2, false, false),
    ] {
        let mut settings =
            Settings::new(char_order, word_order, Beta::integer(2).unwrap()).unwrap();
        settings.eps_smoothing = eps;
        settings.count_hyp_without_ref = without_ref;
        let interrupt = Interrupt::default();
        let narrow = aggregate_scores(hyps, refs, Some(&weights), &settings, &interrupt).unwrap();
        let got = aggregate_scores_wide(hyps, refs, &wide, &settings, &interrupt).unwrap();
        assert_eq!(got, narrow, "{settings:?}");
        // Scaled by 2^200, the same proportions: the same scores.
        let scaled: Vec<BigUint> = wide.iter().map(|w| w << 200u32).collect();
        let got = aggregate_scores_wide(hyps, refs, &scaled, &settings, &interrupt).unwrap();
        assert_eq!(got, narrow, "{settings:?}");
    }
    let mut per_order_f = Settings::new(6, 2, Beta::integer(2).unwrap()).unwrap();
    per_order_f.averaging = Averaging::PerOrderF;
    let refused = aggregate_scores_wide(hyps, refs, &wide, &per_order_f, &Interrupt::default());
    assert_eq!(
        refused,
        Err(ChrfError::InvalidSettings(
            crate::SettingsRule::WideWeightsPerOrderF
        ))
    );
    assert_eq!(
        aggregate_scores_wide(hyps, refs, &wide[1..], &per_order_f, &Interrupt::default()),
        Err(ChrfError::WeightCount {
            weights: refs.len() - 1,
            references: refs.len()
        })
    );
}
