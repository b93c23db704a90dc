//! The statistics of one hypothesis against its references.

use rustc_hash::FxHashMap;

use crate::ngrams::{add_clipped_matches, MatchScratch};
use crate::text::{char_units, word_tokens};
use crate::{sacrebleu_score, OrderCounts, Settings, Statistics};

/// Computes segment statistics, reusing its buffers from one segment to the next.
pub struct SegmentScorer<'s> {
    settings: &'s Settings,
    hyp_chars: Vec<u32>,
    ref_chars: Vec<u32>,
    hyp_words: Vec<u32>,
    ref_words: Vec<u32>,
    matches: Vec<u64>,
    scratch: MatchScratch,
}

impl<'s> SegmentScorer<'s> {
    pub fn new(settings: &'s Settings) -> Self {
        Self {
            settings,
            hyp_chars: Vec::new(),
            ref_chars: Vec::new(),
            hyp_words: Vec::new(),
            ref_words: Vec::new(),
            matches: Vec::new(),
            scratch: MatchScratch::default(),
        }
    }

    /// The statistics against the reference whose sacreBLEU sentence score is highest, the
    /// first one on ties (SPEC §5). An empty reference is a reference; no reference at all
    /// gives the statistics of nothing matched against nothing.
    pub fn statistics<'t>(&mut self, hypothesis: &'t str, references: &[&'t str]) -> Statistics {
        let settings = self.settings;
        char_units(hypothesis, settings.include_whitespace, &mut self.hyp_chars);
        let mut words = WordIds::default();
        if settings.word_order() > 0 {
            words.intern(hypothesis, &mut self.hyp_words);
        }
        let mut best: Option<(f64, Statistics)> = None;
        for &reference in references {
            char_units(reference, settings.include_whitespace, &mut self.ref_chars);
            if settings.word_order() > 0 {
                words.intern(reference, &mut self.ref_words);
            }
            let stats = self.pair_statistics();
            let f = sacrebleu_score(&stats, settings);
            // sacreBLEU starts from -1.0 and replaces only on a strictly greater F.
            if best.as_ref().is_none_or(|(best_f, _)| f > *best_f) {
                best = Some((f, stats));
            }
        }
        best.map_or_else(|| Statistics::zeros(settings.order_count()), |(_, s)| s)
    }

    fn pair_statistics(&mut self) -> Statistics {
        let mut orders = Vec::with_capacity(self.settings.order_count());
        for (hyp, reference, max_order) in [
            (&self.hyp_chars, &self.ref_chars, self.settings.char_order()),
            (&self.hyp_words, &self.ref_words, self.settings.word_order()),
        ] {
            self.matches.clear();
            self.matches.resize(max_order, 0);
            add_clipped_matches(hyp, reference, &mut self.scratch, &mut self.matches);
            orders.extend(self.matches.iter().enumerate().map(|(i, &matching)| {
                let n = i + 1;
                let reference = window_count(reference.len(), n);
                let hypothesis = window_count(hyp.len(), n);
                OrderCounts {
                    // sacreBLEU: "don't count hits if no reference exists" (SPEC §1.4).
                    hypothesis: if reference == 0 && !self.settings.count_hyp_without_ref {
                        0
                    } else {
                        hypothesis
                    },
                    reference,
                    matching,
                }
            }));
        }
        Statistics::from_orders(orders)
    }
}

/// Number of n-grams in a sequence of `len` units.
fn window_count(len: usize, n: usize) -> u64 {
    (len + 1).saturating_sub(n) as u64
}

/// Word tokens as small integers, equal tokens getting equal ids within one segment.
#[derive(Default)]
struct WordIds<'t> {
    ids: FxHashMap<&'t str, u32>,
    tokens: Vec<&'t str>,
}

impl<'t> WordIds<'t> {
    fn intern(&mut self, text: &'t str, out: &mut Vec<u32>) {
        self.tokens.clear();
        word_tokens(text, &mut self.tokens);
        out.clear();
        for token in &self.tokens {
            let next = self.ids.len() as u32;
            out.push(*self.ids.entry(token).or_insert(next));
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::Beta;

    fn settings(char_order: usize, word_order: usize) -> Settings {
        Settings::new(char_order, word_order, Beta::integer(2).unwrap()).unwrap()
    }

    fn triples(stats: &Statistics) -> Vec<(u64, u64, u64)> {
        stats
            .orders()
            .iter()
            .map(|o| (o.hypothesis, o.reference, o.matching))
            .collect()
    }

    #[test]
    fn char_and_word_orders_of_one_pair() {
        let s = settings(2, 2);
        let stats = SegmentScorer::new(&s).statistics("the cat sat.", &["the cat"]);
        // chars "thecatsat." vs "thecat"; words [the, cat, sat, .] vs [the, cat].
        assert_eq!(
            triples(&stats),
            vec![(10, 6, 6), (9, 5, 5), (4, 2, 2), (3, 1, 1)]
        );
    }

    #[test]
    fn hypothesis_counts_drop_where_the_reference_has_no_ngrams() {
        let mut s = settings(3, 0);
        assert_eq!(
            triples(&SegmentScorer::new(&s).statistics("abc", &["ab"])),
            vec![(3, 2, 2), (2, 1, 1), (0, 0, 0)]
        );
        s.count_hyp_without_ref = true;
        assert_eq!(
            triples(&SegmentScorer::new(&s).statistics("abc", &["ab"])),
            vec![(3, 2, 2), (2, 1, 1), (1, 0, 0)]
        );
    }

    #[test]
    fn the_best_reference_wins() {
        let s = settings(2, 0);
        let mut scorer = SegmentScorer::new(&s);
        assert_eq!(
            triples(&scorer.statistics("abcd", &["xy", "abcd", "abcd"])),
            vec![(4, 4, 4), (3, 3, 3)]
        );
        assert_eq!(
            triples(&scorer.statistics("ab", &[])),
            vec![(0, 0, 0), (0, 0, 0)]
        );
    }
}
