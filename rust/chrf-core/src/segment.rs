//! The statistics of one hypothesis against its references.

use std::cell::RefCell;

use std::hash::Hasher;

use rustc_hash::{FxHashMap, FxHasher};

use crate::float::float_score_of_orders;
use crate::ngrams::{add_clipped_matches, MatchScratch};
use crate::text::{for_each_char_unit, for_each_word_token};
use crate::{sacrebleu_score, ChrfError, Count, OrderCounts, Settings, Statistics};

thread_local! {
    /// One set of buffers per thread, reused from segment to segment and call to call.
    static BUFFERS: RefCell<Buffers> = RefCell::new(Buffers::default());
}

/// The statistics of `hypothesis` against the reference whose sacreBLEU sentence score is
/// highest, the first one on ties (SPEC §5). An empty reference is a reference; no reference
/// at all gives the statistics of nothing matched against nothing.
pub fn segment_statistics<'t>(
    hypothesis: &'t str,
    references: impl IntoIterator<Item = &'t str>,
    settings: &Settings,
) -> Statistics {
    with_buffers(|buffers| {
        let best = buffers.best_counts(hypothesis, references, settings);
        Statistics::from_orders(best.to_vec())
    })
}

/// Adds the statistics of one segment (see [`segment_statistics`]) to `total`, without
/// allocating: the corpus path.
pub fn add_segment_statistics<'t>(
    hypothesis: &'t str,
    references: impl IntoIterator<Item = &'t str>,
    settings: &Settings,
    total: &mut Statistics,
) -> Result<(), ChrfError> {
    with_buffers(|buffers| {
        let best = buffers.best_counts(hypothesis, references, settings);
        total.checked_add_orders(best)
    })
}

/// The float score of one segment (see [`crate::float_score`]): sacreBLEU's sentence score.
pub fn segment_score<'t>(
    hypothesis: &'t str,
    references: impl IntoIterator<Item = &'t str>,
    settings: &Settings,
) -> Result<f64, ChrfError> {
    with_buffers(|buffers| {
        let best = buffers.best_counts(hypothesis, references, settings);
        float_score_of_orders(best, settings)
    })
}

fn with_buffers<T>(f: impl FnOnce(&mut Buffers) -> T) -> T {
    BUFFERS.with(|cell| match cell.try_borrow_mut() {
        Ok(mut buffers) => f(&mut buffers),
        // Only reachable if a caller nests segment scoring inside itself; fresh buffers do.
        Err(_) => f(&mut Buffers::default()),
    })
}

#[derive(Default)]
struct Buffers {
    char_ids: CharIds,
    hyp_chars: Vec<u32>,
    ref_chars: Vec<u32>,
    words: WordIds,
    hyp_words: Vec<u32>,
    ref_words: Vec<u32>,
    matches: Vec<u64>,
    pair: Vec<OrderCounts>,
    best: Vec<OrderCounts>,
    scratch: MatchScratch,
}

impl Buffers {
    /// The counts against the best reference, in `self.best`.
    fn best_counts<'t>(
        &mut self,
        hypothesis: &'t str,
        references: impl IntoIterator<Item = &'t str>,
        settings: &Settings,
    ) -> &[OrderCounts] {
        self.char_ids.clear();
        self.chars(hypothesis, settings, Side::Hypothesis);
        let with_words = settings.word_order() > 0;
        self.best.clear();
        self.best
            .resize(settings.order_count(), OrderCounts::default());
        let mut best_f = -1.0;
        let references = references.into_iter();
        let only_one = references.size_hint() == (1, Some(1));
        for reference in references {
            self.chars(reference, settings, Side::Reference);
            if with_words {
                self.words.ids(
                    [hypothesis, reference],
                    [&mut self.hyp_words, &mut self.ref_words],
                );
            }
            self.pair_counts(settings);
            // With one reference there is nothing to choose, so no F to compute.
            let f = if only_one {
                0.0
            } else {
                sacrebleu_score(&self.pair, settings)
            };
            // sacreBLEU starts from -1.0 and replaces only on a strictly greater F.
            if f > best_f {
                best_f = f;
                std::mem::swap(&mut self.best, &mut self.pair);
            }
        }
        &self.best
    }

    /// The text's code points as dense ids shared by the segment's texts: small ids pack more
    /// window units into one integer key.
    fn chars(&mut self, text: &str, settings: &Settings, side: Side) {
        let units = match side {
            Side::Hypothesis => &mut self.hyp_chars,
            Side::Reference => &mut self.ref_chars,
        };
        units.clear();
        units.reserve(text.len());
        let ids = &mut self.char_ids;
        for_each_char_unit(text, settings.include_whitespace, |unit| {
            units.push(ids.id(unit))
        });
    }

    /// The counts of the current hypothesis against the current reference, in `self.pair`.
    fn pair_counts(&mut self, settings: &Settings) {
        self.pair.clear();
        for (hyp, reference, max_order) in [
            (&self.hyp_chars, &self.ref_chars, settings.char_order()),
            (&self.hyp_words, &self.ref_words, settings.word_order()),
        ] {
            self.matches.clear();
            self.matches.resize(max_order, 0);
            add_clipped_matches(hyp, reference, &mut self.scratch, &mut self.matches);
            self.pair
                .extend(self.matches.iter().enumerate().map(|(i, &matching)| {
                    let n = i + 1;
                    let reference = window_count(reference.len(), n);
                    let hypothesis = window_count(hyp.len(), n);
                    OrderCounts {
                        // sacreBLEU: "don't count hits if no reference exists" (SPEC §1.4).
                        hypothesis: if reference == 0 && !settings.count_hyp_without_ref {
                            0
                        } else {
                            hypothesis
                        },
                        reference,
                        matching: matching.into(),
                    }
                }));
        }
    }
}

#[derive(Clone, Copy)]
enum Side {
    Hypothesis,
    Reference,
}

/// Dense ids for the code points of one segment, in order of first appearance.
struct CharIds {
    /// Id plus one of every BMP code point seen since the last clear; 0 for unseen.
    bmp: Vec<u32>,
    seen: Vec<u32>,
    astral: FxHashMap<u32, u32>,
    next: u32,
}

impl Default for CharIds {
    fn default() -> Self {
        Self {
            bmp: vec![0; 0x10000],
            seen: Vec::new(),
            astral: FxHashMap::default(),
            next: 0,
        }
    }
}

impl CharIds {
    #[inline(always)]
    fn id(&mut self, code_point: u32) -> u32 {
        match self.bmp.get(code_point as usize) {
            Some(&slot) if slot != 0 => slot - 1,
            _ => self.new_id(code_point),
        }
    }

    /// The first sight of a code point in the segment, or any astral code point.
    #[cold]
    #[inline(never)]
    fn new_id(&mut self, code_point: u32) -> u32 {
        let next = self.next;
        let id = match self.bmp.get_mut(code_point as usize) {
            Some(slot) => {
                *slot = next + 1;
                self.seen.push(code_point);
                next
            }
            None => *self.astral.entry(code_point).or_insert(next),
        };
        if id == next {
            self.next += 1;
        }
        id
    }

    fn clear(&mut self) {
        for code_point in self.seen.drain(..) {
            self.bmp[code_point as usize] = 0;
        }
        self.astral.clear();
        self.next = 0;
    }
}

/// Number of n-grams in a sequence of `len` units.
fn window_count(len: usize, n: usize) -> Count {
    (len + 1).saturating_sub(n) as Count
}

/// Word tokens as small integers, equal tokens getting equal ids within a hypothesis and a
/// reference. An open-addressing table kept from pair to pair (entries of earlier pairs are
/// told apart by a generation number), so that no pair allocates or clears a table.
#[derive(Default)]
struct WordIds {
    tokens: [Vec<(u32, u32)>; 2],
    slots: Vec<WordSlot>,
    generation: u32,
}

#[derive(Clone, Copy, Default)]
struct WordSlot {
    generation: u32,
    id: u32,
    hash: u64,
    text: u32,
    start: u32,
    end: u32,
}

impl WordIds {
    /// The token ids of both texts, written into `ids`.
    fn ids(&mut self, texts: [&str; 2], ids: [&mut Vec<u32>; 2]) {
        for (tokens, text) in self.tokens.iter_mut().zip(texts) {
            tokens.clear();
            let base = text.as_ptr() as usize;
            for_each_word_token(text, |token| {
                let start = token.as_ptr() as usize - base;
                tokens.push((start as u32, (start + token.len()) as u32));
            });
        }
        self.begin(self.tokens[0].len() + self.tokens[1].len());
        let mut next_id = 0;
        for (side, out) in ids.into_iter().enumerate() {
            out.clear();
            for k in 0..self.tokens[side].len() {
                let (start, end) = self.tokens[side][k];
                out.push(self.id(texts, side as u32, start, end, &mut next_id));
            }
        }
    }

    /// A fresh generation, with at least four slots per token (so probes stay short).
    fn begin(&mut self, tokens: usize) {
        let wanted = (4 * tokens).next_power_of_two().max(64);
        self.generation = self.generation.wrapping_add(1);
        if self.slots.len() < wanted || self.generation == 0 {
            self.slots = vec![WordSlot::default(); wanted.max(self.slots.len())];
            self.generation = 1;
        }
    }

    fn id(&mut self, texts: [&str; 2], text: u32, start: u32, end: u32, next_id: &mut u32) -> u32 {
        let token = &texts[text as usize].as_bytes()[start as usize..end as usize];
        let mut hasher = FxHasher::default();
        hasher.write(token);
        let hash = hasher.finish();
        let mask = self.slots.len() - 1;
        let mut index = hash as usize & mask;
        loop {
            let slot = &mut self.slots[index];
            if slot.generation != self.generation {
                *slot = WordSlot {
                    generation: self.generation,
                    id: *next_id,
                    hash,
                    text,
                    start,
                    end,
                };
                *next_id += 1;
                return slot.id;
            }
            let stored =
                &texts[slot.text as usize].as_bytes()[slot.start as usize..slot.end as usize];
            if slot.hash == hash && stored == token {
                return slot.id;
            }
            index = (index + 1) & mask;
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

    fn segment_statistics_of(settings: &Settings, hyp: &str, refs: &[&str]) -> Statistics {
        segment_statistics(hyp, refs.iter().copied(), settings)
    }

    fn triples(stats: &Statistics) -> Vec<(Count, Count, Count)> {
        stats
            .orders()
            .iter()
            .map(|o| (o.hypothesis, o.reference, o.matching))
            .collect()
    }

    #[test]
    fn char_and_word_orders_of_one_pair() {
        let s = settings(2, 2);
        let stats = segment_statistics_of(&s, "the cat sat.", &["the cat"]);
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
            triples(&segment_statistics_of(&s, "abc", &["ab"])),
            vec![(3, 2, 2), (2, 1, 1), (0, 0, 0)]
        );
        s.count_hyp_without_ref = true;
        assert_eq!(
            triples(&segment_statistics_of(&s, "abc", &["ab"])),
            vec![(3, 2, 2), (2, 1, 1), (1, 0, 0)]
        );
    }

    #[test]
    fn the_best_reference_wins() {
        let s = settings(2, 0);
        assert_eq!(
            triples(&segment_statistics_of(&s, "abcd", &["xy", "abcd", "abcd"])),
            vec![(4, 4, 4), (3, 3, 3)]
        );
        assert_eq!(
            triples(&segment_statistics_of(&s, "ab", &[])),
            vec![(0, 0, 0), (0, 0, 0)]
        );
    }
}
