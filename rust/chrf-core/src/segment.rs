//! The statistics of one hypothesis against its references.

use std::cell::RefCell;

use crate::float::{float_score_of_runs, selection_score};
use crate::ids::{CharIds, WordIds};
use crate::memory::{held, refill, reserve, resize_for_overwrite};
use crate::ngrams::{add_clipped_matches_below, MatchScratch};
use crate::pool::{poll, POLL_UNITS};
use crate::stats::{window_count, PairCounts};
use crate::{ChrfError, OrderCounts, Settings, Statistics};

thread_local! {
    /// One set of buffers per thread, reused from segment to segment and call to call: made
    /// (fallibly) by the thread's first segment, not when the thread starts.
    static BUFFERS: RefCell<Option<Buffers>> = const { RefCell::new(None) };
}

/// Buffers holding more than this after a segment are given back rather than kept for the next
/// one: a thread must not hold a large segment's peak for the life of the process, while the
/// small segments of a corpus reuse their buffers without allocating.
const KEPT_BYTES: usize = 1 << 20;

/// The statistics of `hypothesis` against the reference whose sacreBLEU sentence score is
/// highest, the first one on ties (spec §5). An empty reference is a reference; no reference
/// at all gives the statistics of nothing matched against nothing.
pub fn segment_statistics<'t>(
    hypothesis: &'t str,
    references: impl IntoIterator<Item = &'t str>,
    settings: &Settings,
) -> Result<Statistics, ChrfError> {
    with_buffers(|buffers| {
        buffers.best_counts(hypothesis, references, settings)?;
        buffers.best.statistics(settings)
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
        buffers.best_counts(hypothesis, references, settings)?;
        buffers.best.add_to(total, settings)
    })
}

/// The index of the reference whose statistics [`segment_statistics`] takes (spec §5); `None`
/// when there is no reference.
pub(crate) fn best_reference<'t>(
    hypothesis: &'t str,
    references: impl IntoIterator<Item = &'t str>,
    settings: &Settings,
) -> Result<Option<usize>, ChrfError> {
    with_buffers(|buffers| buffers.best_counts(hypothesis, references, settings))
}

/// The float score of one segment (see [`crate::float_score`]): sacreBLEU's sentence score.
pub fn segment_score<'t>(
    hypothesis: &'t str,
    references: impl IntoIterator<Item = &'t str>,
    settings: &Settings,
) -> Result<f64, ChrfError> {
    with_buffers(|buffers| {
        buffers.best_counts(hypothesis, references, settings)?;
        float_score_of_runs(buffers.best.runs(settings), settings)
    })
}

fn with_buffers<T>(f: impl FnOnce(&mut Buffers) -> Result<T, ChrfError>) -> Result<T, ChrfError> {
    BUFFERS.with(|cell| match cell.try_borrow_mut() {
        Ok(mut kept) => {
            let buffers = match kept.as_mut() {
                Some(buffers) => buffers,
                None => kept.insert(Buffers::new()?),
            };
            let result = f(buffers);
            if buffers.held_bytes() > KEPT_BYTES {
                *kept = None;
            }
            result
        }
        // Only reachable if a caller nests segment scoring inside itself; fresh buffers do.
        Err(_) => f(&mut Buffers::new()?),
    })
}

struct Buffers {
    char_ids: CharIds,
    hyp_chars: Vec<u32>,
    ref_chars: Vec<u32>,
    words: WordIds,
    hyp_words: Vec<u32>,
    ref_words: Vec<u32>,
    matches: Vec<u64>,
    pair: PairCounts,
    best: PairCounts,
    scratch: MatchScratch,
}

impl Buffers {
    fn new() -> Result<Self, ChrfError> {
        Ok(Self {
            char_ids: CharIds::new()?,
            hyp_chars: Vec::new(),
            ref_chars: Vec::new(),
            words: WordIds::default(),
            hyp_words: Vec::new(),
            ref_words: Vec::new(),
            matches: Vec::new(),
            pair: PairCounts::default(),
            best: PairCounts::default(),
            scratch: MatchScratch::default(),
        })
    }

    /// The heap bytes held, but for the fixed code point table.
    fn held_bytes(&self) -> usize {
        let units = [
            &self.hyp_chars,
            &self.ref_chars,
            &self.hyp_words,
            &self.ref_words,
        ];
        units.into_iter().map(held).sum::<usize>()
            + self.char_ids.held_bytes()
            + self.words.held_bytes()
            + held(&self.matches)
            + self.pair.held_bytes()
            + self.best.held_bytes()
            + self.scratch.held_bytes()
    }

    /// The counts against the best reference, in `self.best`; that reference's index.
    fn best_counts<'t>(
        &mut self,
        hypothesis: &'t str,
        references: impl IntoIterator<Item = &'t str>,
        settings: &Settings,
    ) -> Result<Option<usize>, ChrfError> {
        self.char_ids.clear();
        self.chars(hypothesis, settings, Side::Hypothesis)?;
        poll_if_long(hypothesis.len())?;
        let with_words = settings.word_order() > 0;
        self.best.clear();
        let mut best_f = -1.0;
        let mut best_index = None;
        let references = references.into_iter();
        let only_one = references.size_hint() == (1, Some(1));
        for (index, reference) in references.enumerate() {
            self.chars(reference, settings, Side::Reference)?;
            // Here, not in the loop over characters, where it would cost registers.
            self.char_ids.check_written()?;
            if with_words {
                self.words.ids(
                    [hypothesis, reference],
                    [&mut self.hyp_words, &mut self.ref_words],
                )?;
            }
            poll_if_long(hypothesis.len() + reference.len())?;
            self.pair_counts(settings)?;
            // With one reference there is nothing to choose, so no F to compute.
            let f = if only_one {
                0.0
            } else {
                selection_score(self.pair.runs(settings), settings)?
            };
            // sacreBLEU (and chrF++.py) start from -1.0 and replace only on a strictly greater F.
            if f > best_f {
                best_f = f;
                best_index = Some(index);
                std::mem::swap(&mut self.best, &mut self.pair);
            }
        }
        Ok(best_index)
    }

    /// The text's code points as small ids shared by the segment's texts: small ids pack more
    /// window units into one integer key.
    fn chars(&mut self, text: &str, settings: &Settings, side: Side) -> Result<(), ChrfError> {
        let units = match side {
            Side::Hypothesis => &mut self.hyp_chars,
            Side::Reference => &mut self.ref_chars,
        };
        if settings.char_order() == 0 {
            units.clear();
            return Ok(());
        }
        // At least one byte per code point: the ids are written into place, with no push.
        resize_for_overwrite(units, text.len(), 0)?;
        let written = if settings.include_whitespace {
            self.char_ids.write_ids::<true>(text, units)
        } else {
            self.char_ids.write_ids::<false>(text, units)
        };
        units.truncate(written);
        Ok(())
    }

    /// The counts of the current hypothesis against the current reference, in `self.pair`.
    fn pair_counts(&mut self, settings: &Settings) -> Result<(), ChrfError> {
        // Every unit is below the count of either kind of ids.
        let sides = [
            (
                &self.hyp_chars,
                &self.ref_chars,
                settings.char_order(),
                self.char_ids.count(),
            ),
            (
                &self.hyp_words,
                &self.ref_words,
                settings.word_order(),
                self.words.count() as u32,
            ),
        ];
        for ((hyp, reference, max_order, alphabet), out) in
            sides.into_iter().zip(&mut self.pair.kinds)
        {
            // Orders past both lengths are all zero; orders past either length match nothing.
            let kept = max_order.min(hyp.len().max(reference.len()));
            let matched = kept.min(hyp.len()).min(reference.len());
            refill(&mut self.matches, matched, 0)?;
            let alphabet = u64::from(alphabet);
            add_clipped_matches_below(
                hyp,
                reference,
                alphabet,
                &mut self.scratch,
                &mut self.matches,
            )?;
            out.clear();
            reserve(out, kept)?;
            out.extend((1..=kept).map(|n| {
                OrderCounts::of_pair(
                    window_count(hyp.len(), n),
                    window_count(reference.len(), n),
                    self.matches.get(n - 1).map_or(0, |&m| m.into()),
                    settings,
                )
            }));
        }
        Ok(())
    }
}

/// Between the passes over a long segment: an interrupt of the work it is part of (see
/// [`crate::pool::watching`]) stops it there. A short segment's passes end sooner than that
/// would matter.
fn poll_if_long(bytes: usize) -> Result<(), ChrfError> {
    if bytes > POLL_UNITS {
        poll()
    } else {
        Ok(())
    }
}

#[derive(Clone, Copy)]
enum Side {
    Hypothesis,
    Reference,
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::pool::{watching, Interrupt};
    use crate::{float_score, Averaging, Beta, Count};

    fn settings(char_order: usize, word_order: usize) -> Settings {
        Settings::new(char_order, word_order, Beta::integer(2).unwrap()).unwrap()
    }

    fn segment_statistics_of(settings: &Settings, hyp: &str, refs: &[&str]) -> Statistics {
        segment_statistics(hyp, refs.iter().copied(), settings).unwrap()
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
    #[test]
    fn per_order_f_picks_the_reference_as_chrfpp_does() {
        // "ba": per-order F 1 and 0 (mean 1/2); "b": 5/6 and no order 2 (mean 5/12). sacreBLEU's
        // precision/recall F prefers "b" (5/6 against 1/2); chrF++.py's mean F prefers "ba".
        let mut s = settings(2, 0);
        let refs = ["ba", "b"];
        assert_eq!(
            triples(&segment_statistics_of(&s, "ab", &refs)),
            vec![(2, 1, 1), (0, 0, 0)]
        );
        s.averaging = Averaging::PerOrderF;
        assert_eq!(
            triples(&segment_statistics_of(&s, "ab", &refs)),
            vec![(2, 2, 2), (1, 1, 0)]
        );
    }

    #[test]
    fn long_orders_cost_nothing_past_the_texts_and_score_as_the_full_layout() {
        let hyp = "the cat sat on the mat, the cat sat";
        let refs = ["a cat sat on a mat", "the cat", "the the the cat sat on"];
        let short = segment_statistics_of(&settings(6, 2), hyp, &refs[..1]);
        for (char_order, word_order) in [(6, 2), (40, 3), (65_536, 65_536)] {
            let mut s = settings(char_order, word_order);
            let long = segment_statistics_of(&s, hyp, &refs[..1]);
            assert_eq!(&long.orders()[..6], &short.orders()[..6]);
            assert_eq!(long.orders()[char_order], short.orders()[6]);
            let past_texts = &long.orders()[hyp.len().min(char_order)..char_order];
            assert!(past_texts.iter().all(|o| *o == OrderCounts::default()));
            for (eps_smoothing, averaging, count) in [
                (false, Averaging::PrecisionRecall, false),
                (true, Averaging::PrecisionRecall, true),
                (false, Averaging::PerOrderF, false),
            ] {
                (s.eps_smoothing, s.averaging, s.count_hyp_without_ref) =
                    (eps_smoothing, averaging, count);
                let stats = segment_statistics_of(&s, hyp, &refs);
                let score = segment_score(hyp, refs, &s).unwrap();
                assert_eq!(score, float_score(&stats, &s).unwrap());
            }
        }
    }

    #[test]
    fn a_long_segment_stops_at_the_interrupt_it_is_watched_by() {
        let raised = Interrupt::default();
        raised.raise();
        let long = "word ".repeat(100_000);
        let reversed: String = long.chars().rev().collect();
        for settings in [settings(6, 0), settings(6, 2), settings(30, 0)] {
            let stopped = watching(&raised, || {
                segment_statistics(&long, [reversed.as_str()], &settings)
            });
            assert_eq!(stopped, Err(ChrfError::Cancelled));
            let short = watching(&raised, || {
                segment_statistics("a short one", ["a short reference"], &settings)
            });
            assert!(short.is_ok()); // a short segment never polls
        }
    }

    #[test]
    fn a_large_segment_gives_its_buffers_back() {
        let held = || BUFFERS.with(|cell| cell.borrow().as_ref().map_or(0, Buffers::held_bytes));
        let small = settings(6, 2);
        segment_statistics_of(&small, "a small segment", &["a small reference"]);
        let kept = held();
        assert!(kept > 0);
        let long = "word ".repeat(200_000);
        segment_statistics_of(&small, &long, &[&long]);
        assert!(held() <= KEPT_BYTES);
        segment_statistics_of(&small, "a small segment", &["a small reference"]);
        assert_eq!(held(), kept);
    }
}
