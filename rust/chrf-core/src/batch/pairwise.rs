//! Pairwise scores. A row inverts the references' bags: for each n-gram of the hypothesis, the
//! references holding it add their clipped matches to per-order counters of the whole row,
//! so that a row costs the n-grams its hypothesis shares with each reference, read in
//! sequence, rather than a random lookup per n-gram of every reference.

use rayon::prelude::*;

use super::bags::{dedup, position_in, Bags, Distinct};
use super::postings::{Complement, Postings};
use crate::float::float_score_of_runs;
use crate::memory::{filled, out_of_memory, push, reserve};
use crate::pool::{self, Interrupt};
use crate::segment::segment_score;
use crate::stats::{window_count, Run};
use crate::{ChrfError, Count, OrderCounts, Settings};

/// Pairwise scores, row-major: `scores[i * references.len() + j]` is hypothesis i against
/// reference j, equal to sacreBLEU's sentence score of that pair.
pub fn pairwise_scores<S: AsRef<str> + Sync>(
    hypotheses: &[S],
    references: &[S],
    settings: &Settings,
    interrupt: &Interrupt,
) -> Result<Vec<f64>, ChrfError> {
    // The whole output first, so that a matrix too large for memory fails before any work.
    let size = hypotheses
        .len()
        .checked_mul(references.len())
        .ok_or_else(|| out_of_memory::<f64>(usize::MAX))?;
    let mut out = filled(size, 0.0)?;
    pairwise_scores_into(hypotheses, references, settings, interrupt, &mut out)?;
    Ok(out)
}

/// [`pairwise_scores`] written into `out` (`hypotheses.len() * references.len()` cells), so
/// that a caller holding the final array, a NumPy array say, needs no second copy of it.
pub fn pairwise_scores_into<S: AsRef<str> + Sync>(
    hypotheses: &[S],
    references: &[S],
    settings: &Settings,
    interrupt: &Interrupt,
    out: &mut [f64],
) -> Result<(), ChrfError> {
    if hypotheses.len().checked_mul(references.len()) != Some(out.len()) {
        return Err(ChrfError::OutputShape {
            cells: out.len(),
            expected: (hypotheses.len(), references.len()),
        });
    }
    if !out.is_empty() {
        pool::run(|| pairwise_in_pool(hypotheses, references, settings, interrupt, out))??;
    }
    Ok(())
}

fn pairwise_in_pool<S: AsRef<str> + Sync>(
    hypotheses: &[S],
    references: &[S],
    settings: &Settings,
    interrupt: &Interrupt,
    out: &mut [f64],
) -> Result<(), ChrfError> {
    let distinct = Distinct::new(hypotheses, references)?;
    if pairs_cost_less(&distinct) {
        return pairs_one_by_one(&distinct, settings, interrupt, out);
    }
    let bags = Bags::new(&distinct.texts, settings, interrupt)?;
    let unique_refs = dedup(&distinct.references, distinct.texts.len())?;
    interrupt.check()?;
    let postings = Postings::new(&bags, &unique_refs, Complement::WhereShorter, interrupt)?;
    interrupt.check()?;
    let column_of = position_in(&unique_refs, distinct.texts.len())?;
    let first_row = position_in(&distinct.hypotheses, distinct.texts.len())?;
    let is_first = |row: usize| first_row[distinct.hypotheses[row] as usize] == row;
    let columns = references.len();
    let batch = Batch {
        bags: &bags,
        references: &unique_refs,
        postings: &postings,
        settings,
    };
    out.par_chunks_mut(columns).enumerate().try_for_each_init(
        || Row::new(&batch),
        |row, (i, scores)| {
            if !is_first(i) {
                return Ok::<(), ChrfError>(());
            }
            interrupt.check()?;
            let row = row.as_mut().map_err(|e| e.clone())?;
            row.score(distinct.hypotheses[i] as usize, &batch)?;
            for (score, &r) in scores.iter_mut().zip(&distinct.references) {
                *score = row.scores[column_of[r as usize]];
            }
            Ok(())
        },
    )?;
    // A repeated hypothesis copies the row of its first occurrence.
    for i in (0..hypotheses.len()).filter(|&i| !is_first(i)) {
        let first = first_row[distinct.hypotheses[i] as usize];
        out.copy_within(first * columns..(first + 1) * columns, i * columns);
    }
    Ok(())
}

/// Whether scoring each cell as its own pair (as `sentence_scores` scores a segment) reads
/// the texts at most twice as often as the shared bags read each distinct text once: then
/// the pairs cost less, as one pair's sort costs a fraction of interning its texts' shared
/// n-grams order by order. One pair, or a few long ones, take that path; a matrix of many
/// cells takes the bags, whose cost does not grow with the cells.
fn pairs_cost_less(distinct: &Distinct<'_>) -> bool {
    let bytes = |ids: &[u32]| -> u128 {
        ids.iter()
            .map(|&t| distinct.texts[t as usize].len() as u128)
            .sum()
    };
    let (hypotheses, references) = (&distinct.hypotheses, &distinct.references);
    let pairs =
        bytes(hypotheses) * references.len() as u128 + bytes(references) * hypotheses.len() as u128;
    let texts: u128 = distinct.texts.iter().map(|t| t.len() as u128).sum();
    pairs <= 2 * texts
}

/// Every cell scored as its pair alone: the segment path of `sentence_scores`, whose score is
/// the pair's sentence score as the bags compute it.
fn pairs_one_by_one(
    distinct: &Distinct<'_>,
    settings: &Settings,
    interrupt: &Interrupt,
    out: &mut [f64],
) -> Result<(), ChrfError> {
    let columns = distinct.references.len();
    out.par_iter_mut()
        .enumerate()
        .try_for_each(|(cell, score)| {
            interrupt.check()?;
            let text = |id: u32| distinct.texts[id as usize];
            let hypothesis = text(distinct.hypotheses[cell / columns]);
            let reference = text(distinct.references[cell % columns]);
            let pair = || segment_score(hypothesis, [reference], settings);
            // A long pair's passes over its windows poll the interrupt (see pool::watching).
            *score = if hypothesis.len() + reference.len() > pool::POLL_UNITS {
                pool::watching(interrupt, pair)
            } else {
                pair()
            }?;
            Ok(())
        })
}

/// The pairwise machinery without the matrix, for callers that reduce each row as it is
/// scored (MBR's expected utility, utility.rs): the batch's distinct texts counted and the
/// references' postings built once, as [`pairwise_scores_into`] does, then any row scored on
/// demand into a worker's [`RowScores`].
pub(crate) struct PairwiseRows<'t> {
    distinct: Distinct<'t>,
    bags: Bags,
    unique_refs: Vec<u32>,
    postings: Postings,
    settings: &'t Settings,
}

/// A worker's buffers for [`PairwiseRows::score`].
pub(crate) struct RowScores(Row);

impl<'t> PairwiseRows<'t> {
    pub(crate) fn new<S: AsRef<str> + Sync>(
        hypotheses: &'t [S],
        references: &'t [S],
        settings: &'t Settings,
        interrupt: &Interrupt,
    ) -> Result<Self, ChrfError> {
        let distinct = Distinct::new(hypotheses, references)?;
        let bags = Bags::new(&distinct.texts, settings, interrupt)?;
        let unique_refs = dedup(&distinct.references, distinct.texts.len())?;
        interrupt.check()?;
        let postings = Postings::new(&bags, &unique_refs, Complement::WhereShorter, interrupt)?;
        interrupt.check()?;
        Ok(Self {
            distinct,
            bags,
            unique_refs,
            postings,
            settings,
        })
    }

    fn batch(&self) -> Batch<'_> {
        Batch {
            bags: &self.bags,
            references: &self.unique_refs,
            postings: &self.postings,
            settings: self.settings,
        }
    }

    /// The number of scores of a row: one per distinct reference text.
    pub(crate) fn columns(&self) -> usize {
        self.unique_refs.len()
    }

    /// Per reference: its column in a row.
    pub(crate) fn reference_columns(&self) -> Result<Vec<usize>, ChrfError> {
        let column_of = position_in(&self.unique_refs, self.distinct.texts.len())?;
        let mut columns = Vec::new();
        reserve(&mut columns, self.distinct.references.len())?;
        columns.extend(
            self.distinct
                .references
                .iter()
                .map(|&r| column_of[r as usize]),
        );
        Ok(columns)
    }

    /// The distinct hypothesis texts (each a row to score once), and per hypothesis the
    /// position of its text among them.
    pub(crate) fn hypothesis_rows(&self) -> Result<(Vec<u32>, Vec<usize>), ChrfError> {
        let rows = dedup(&self.distinct.hypotheses, self.distinct.texts.len())?;
        let position = position_in(&rows, self.distinct.texts.len())?;
        let mut of_hypothesis = Vec::new();
        reserve(&mut of_hypothesis, self.distinct.hypotheses.len())?;
        of_hypothesis.extend(
            self.distinct
                .hypotheses
                .iter()
                .map(|&h| position[h as usize]),
        );
        Ok((rows, of_hypothesis))
    }

    pub(crate) fn row_scores(&self) -> Result<RowScores, ChrfError> {
        Row::new(&self.batch()).map(RowScores)
    }

    /// The scores of distinct hypothesis text `text` (from [`Self::hypothesis_rows`]) against
    /// every column, as `pairwise_scores` has them.
    pub(crate) fn score<'r>(
        &self,
        row: &'r mut RowScores,
        text: u32,
    ) -> Result<&'r [f64], ChrfError> {
        row.0.score(text as usize, &self.batch())?;
        Ok(&row.0.scores)
    }
}

/// What every row of a pairwise matrix reads.
struct Batch<'b> {
    bags: &'b Bags,
    /// The distinct references, as distinct texts: column j of a row is `references[j]`.
    references: &'b [u32],
    postings: &'b Postings,
    settings: &'b Settings,
}

/// One hypothesis against every distinct reference: the buffers of a worker.
struct Row {
    /// Per interned order k, per column: the clipped matches of the order's shared n-grams
    /// (`matches[k * columns + column]`), which `count_matches` leaves as `base[k]` plus the
    /// column's counter, in wrapping arithmetic (postings.rs's `Holders` says why that sum is
    /// exact). A match count is at most the hypothesis's number of windows of the
    /// order, below 2^32 (`SharedNgramIds::orders` checks the lengths), so u32 holds it.
    /// The interned orders end with the longest n-gram two texts share, so under the usual
    /// orders (6, or 6 + 2) this is a few times a row of scores.
    matches: Vec<u32>,
    /// Per interned order: the matches of the complemented ids, counted for every column.
    base: Vec<u32>,
    /// The counts of the pair being scored, every order of the settings.
    runs: Vec<Run>,
    scores: Vec<f64>,
}

impl Row {
    fn new(batch: &Batch<'_>) -> Result<Self, ChrfError> {
        let columns = batch.references.len();
        let orders = batch.bags.order_starts.len() - 1;
        let cells = orders
            .checked_mul(columns)
            .ok_or_else(|| out_of_memory::<u32>(usize::MAX))?;
        Ok(Self {
            matches: filled(cells, 0)?,
            base: filled(orders, 0)?,
            runs: Vec::new(),
            scores: filled(columns, 0.0)?,
        })
    }

    fn score(&mut self, hyp: usize, batch: &Batch<'_>) -> Result<(), ChrfError> {
        self.count_matches(hyp, batch);
        let columns = batch.references.len();
        for (column, (score, &reference)) in
            self.scores.iter_mut().zip(batch.references).enumerate()
        {
            let matches = |k: usize| self.matches[k * columns + column];
            pair_runs((hyp, reference as usize), matches, batch, &mut self.runs)?;
            *score = float_score_of_runs(self.runs.iter().copied(), batch.settings)?;
        }
        self.matches.fill(0);
        Ok(())
    }

    /// Every reference's clipped matches with the hypothesis, order by order, from the
    /// postings of the hypothesis's shared n-grams. The counters wrap: a column lacking a
    /// complemented id takes 1 off a counter that may be 0, and the base makes it up, added
    /// to the order's counters at the end (in one pass over the row, and none where no id
    /// was complemented, as on unrelated texts).
    fn count_matches(&mut self, hyp: usize, batch: &Batch<'_>) {
        let columns = batch.references.len();
        let text = &batch.bags.texts[hyp];
        let mut start = 0;
        for &(k, end) in &text.orders {
            let matches = &mut self.matches[k * columns..(k + 1) * columns];
            let base = &mut self.base[k];
            for (id, own) in text.counts(start..end) {
                let holders = batch.postings.of(id);
                let repeated = holders.repeated.iter().zip(holders.counts);
                if holders.complemented {
                    *base = base.wrapping_add(1);
                    for &column in holders.plain {
                        let counter = &mut matches[column as usize];
                        *counter = counter.wrapping_sub(1);
                    }
                    // A repeated column's count is at least 2: with own at least 2, its
                    // clipped match is at least 2 too (with own 1, it is the 1 counted).
                    for (&column, &count) in repeated.filter(|_| own > 1) {
                        let counter = &mut matches[column as usize];
                        *counter = counter.wrapping_add(count.min(own) - 1);
                    }
                } else {
                    for &column in holders.plain {
                        let counter = &mut matches[column as usize];
                        *counter = counter.wrapping_add(1);
                    }
                    for (&column, &count) in repeated {
                        let counter = &mut matches[column as usize];
                        *counter = counter.wrapping_add(count.min(own));
                    }
                }
            }
            start = end;
        }
        for (k, base) in self.base.iter_mut().enumerate() {
            if *base != 0 {
                for counter in &mut self.matches[k * columns..(k + 1) * columns] {
                    *counter = counter.wrapping_add(*base);
                }
                *base = 0;
            }
        }
    }
}

/// The counts of hypothesis `h` against reference `r`, every order of the settings, given
/// the pair's clipped matches of each interned order; the orders past both texts' lengths,
/// which all count (0, 0, 0), as one run.
fn pair_runs(
    (h, r): (usize, usize),
    matches: impl Fn(usize) -> u32,
    batch: &Batch<'_>,
    runs: &mut Vec<Run>,
) -> Result<(), ChrfError> {
    let (bags, settings) = (batch.bags, batch.settings);
    let orders = [settings.char_order(), settings.word_order()];
    runs.clear();
    let mut first_order = 0; // the interned order k of the kind's order 1
    for (kind, order) in orders.into_iter().enumerate() {
        let (hyp_len, ref_len) = (bags.lengths[h][kind], bags.lengths[r][kind]);
        let kept = order.min(hyp_len.max(ref_len));
        let interned = bags.interned[kind];
        for n in 1..=kept {
            let reference = window_count(ref_len, n);
            let matching = if h == r {
                reference // a text against itself: every n-gram matches, shared or not
            } else if n <= interned {
                // Only shared n-grams can match between distinct texts.
                Count::from(matches(first_order + n - 1))
            } else {
                0
            };
            let counts =
                OrderCounts::of_pair(window_count(hyp_len, n), reference, matching, settings);
            push(runs, (counts, 1))?;
        }
        push(runs, (OrderCounts::default(), order - kept))?;
        first_order += interned;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::Beta;
    use std::collections::HashMap;

    /// Samples of one sentence (seeded word drops, swaps and misspellings: most n-grams held
    /// by most samples), texts repeating their n-grams, an empty text, duplicates.
    fn pool(size: usize, seed: u64) -> Vec<String> {
        let sentence = "the cat sat on the mat and the dog sat on the log by the door";
        let mut next = crate::seeded::below(seed);
        let mut texts: Vec<String> = (0..size)
            .map(|_| {
                let mut words: Vec<String> = sentence.split(' ').map(String::from).collect();
                for _ in 0..next(4) {
                    let i = next(words.len() - 1);
                    match next(3) {
                        0 => drop(words.remove(i)),
                        1 => words.swap(i, i + 1),
                        _ => words[i].push(['a', 'e', 't'][next(3)]),
                    }
                }
                words.join(" ")
            })
            .collect();
        texts.extend([
            "the the the cat cat".into(),
            "aaaa aaaa".into(),
            String::new(),
        ]);
        texts.push(texts[0].clone());
        texts
    }

    /// Per distinct hypothesis text, per interned order, per column: the clipped matches as
    /// `Row` counts them under `rule`, and the scores of the row.
    fn rows(texts: &[String], refs: &[String], settings: &Settings, rule: Complement) -> Rows {
        let interrupt = Interrupt::default();
        let distinct = Distinct::new(texts, refs).unwrap();
        let bags = Bags::new(&distinct.texts, settings, &interrupt).unwrap();
        let unique_refs = dedup(&distinct.references, distinct.texts.len()).unwrap();
        let postings = Postings::new(&bags, &unique_refs, rule, &interrupt).unwrap();
        let batch = Batch {
            bags: &bags,
            references: &unique_refs,
            postings: &postings,
            settings,
        };
        let mut row = Row::new(&batch).unwrap();
        let (mut matches, mut scores) = (Vec::new(), Vec::new());
        for hyp in 0..distinct.texts.len() {
            row.count_matches(hyp, &batch);
            matches.push(row.matches.clone());
            row.matches.fill(0);
            row.score(hyp, &batch).unwrap();
            scores.push(row.scores.clone());
        }
        let expected = (0..distinct.texts.len())
            .map(|hyp| clipped_matches(&bags, hyp, &unique_refs))
            .collect();
        (matches, scores, expected)
    }

    type Rows = (Vec<Vec<u32>>, Vec<Vec<f64>>, Vec<Vec<u32>>);

    /// The clipped matches of text `hyp` against each reference, counted n-gram by n-gram
    /// from the bags: Σ min(hypothesis's count, reference's count) per interned order.
    fn clipped_matches(bags: &Bags, hyp: usize, references: &[u32]) -> Vec<u32> {
        let orders = bags.order_starts.len() - 1;
        let mut out = vec![0u32; orders * references.len()];
        for (column, &r) in references.iter().enumerate() {
            let held: HashMap<u32, u32> = bags.texts[r as usize].all_counts().collect();
            for (id, own) in bags.texts[hyp].all_counts() {
                let k = bags.order_starts.partition_point(|&start| start <= id) - 1;
                out[k * references.len() + column] += own.min(held.get(&id).copied().unwrap_or(0));
            }
        }
        out
    }

    #[test]
    fn complemented_postings_count_the_same_matches() {
        for (size, seed) in [(40, 1), (3, 2), (2, 3), (1, 4), (0, 5)] {
            let texts = pool(size, seed);
            for (char_order, word_order) in [(6, 2), (6, 0), (0, 3), (12, 1)] {
                let settings =
                    Settings::new(char_order, word_order, Beta::integer(2).unwrap()).unwrap();
                for refs in [&texts[..], &texts[texts.len() / 2..], &texts[..1]] {
                    let (never, never_scores, expected) =
                        rows(&texts, refs, &settings, Complement::Never);
                    assert_eq!(never, expected);
                    for rule in [Complement::Always, Complement::WhereShorter] {
                        let (matches, scores, _) = rows(&texts, refs, &settings, rule);
                        assert_eq!(matches, expected, "{rule:?} {size} {settings:?}");
                        assert_eq!(scores, never_scores, "{rule:?} {size} {settings:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn samples_of_one_sentence_complement_most_of_their_postings() {
        let texts = pool(40, 6);
        let settings = Settings::new(6, 2, Beta::integer(2).unwrap()).unwrap();
        let interrupt = Interrupt::default();
        let bags = Bags::new(
            &texts.iter().map(String::as_str).collect::<Vec<_>>(),
            &settings,
            &interrupt,
        )
        .unwrap();
        let columns: Vec<u32> = (0..texts.len() as u32).collect();
        let listed = |rule| {
            let postings = Postings::new(&bags, &columns, rule, &interrupt).unwrap();
            let ids = 0..bags.id_count() as u32;
            let held = ids
                .clone()
                .filter(|&id| postings.of(id).complemented)
                .count();
            (
                ids.map(|id| postings.of(id).plain.len()).sum::<usize>(),
                held,
            )
        };
        let (never, none) = listed(Complement::Never);
        let (shorter, complemented) = listed(Complement::WhereShorter);
        assert_eq!(none, 0);
        assert!(
            complemented > 0 && shorter * 2 < never,
            "{shorter} of {never}"
        );
    }

    #[test]
    fn the_postings_stop_at_a_raised_interrupt() {
        let texts = pool(8, 7);
        let settings = Settings::new(6, 2, Beta::integer(2).unwrap()).unwrap();
        let texts: Vec<&str> = texts.iter().map(String::as_str).collect();
        let bags = Bags::new(&texts, &settings, &Interrupt::default()).unwrap();
        let raised = Interrupt::default();
        raised.raise();
        let columns = [0, 1, 2];
        let postings = Postings::new(&bags, &columns, Complement::WhereShorter, &raised);
        assert!(matches!(postings, Err(ChrfError::Cancelled)));
    }
}
