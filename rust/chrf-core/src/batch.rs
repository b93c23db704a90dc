//! Many hypotheses against many references (MBR): n-grams interned once per batch.
//!
//! Every distinct text of the batch is counted once: its n-grams get batch-wide ids, order by
//! order (order n's id is interned from order n-1's id and the next unit, so the ids are exact,
//! with no hash collisions). An n-gram found in only one distinct text can match only when
//! hypothesis and reference are that same text, where every n-gram matches: it needs no id,
//! and neither do its extensions, so a window grows to the next order only while it is shared.
//! The work thus ends with the longest text two texts share, whatever the orders. A text's bag
//! of shared n-grams is the sorted list of its shared windows' ids.
//!
//! A pairwise row inverts the references' bags: for each n-gram of the hypothesis, the
//! references holding it add their clipped matches to per-order counters of the whole row,
//! so that a row costs the n-grams its hypothesis shares with each reference, read in
//! sequence, rather than a random lookup per n-gram of every reference.

use rayon::prelude::*;
use rustc_hash::FxHashMap;

use crate::float::float_score_of_runs;
use crate::ids::{SharedNgramIds, Units, WordIds};
use crate::memory::{filled, out_of_memory, push, reserve, reserve_map};
use crate::pool::{self, Interrupt};
use crate::stats::{window_count, PairCounts, Run};
use crate::text::for_each_char_unit;
use crate::{ChrfError, Count, OrderCounts, Settings};

/// Character n-grams, then word n-grams: the index of a kind in per-kind arrays.
const KINDS: usize = 2;

/// The shared n-gram bags of the distinct texts of a batch.
struct Bags {
    /// Per distinct text: its bag of shared n-grams.
    texts: Vec<TextBag>,
    /// Per distinct text: its number of units of each kind.
    lengths: Vec<[usize; KINDS]>,
    /// First id of each order that has shared n-grams (character orders 1..=interned[0], then
    /// word orders 1..=interned[1]), and the number of ids in all (last element).
    order_starts: Vec<u32>,
    interned: [usize; KINDS],
}

/// The shared n-grams of one text.
struct TextBag {
    /// The id of each shared window, sorted (an id as often as the text has the n-gram): ids
    /// of order n come before the ids of order n + 1, character orders before word orders.
    /// Counts are mostly 1, so this takes half the memory of (id, count) pairs.
    ids: Vec<u32>,
    /// Per order with ids: (k, end) where the order's ids start at `order_starts[k]` and end
    /// at `ids[end]`.
    orders: Vec<(usize, usize)>,
}

impl TextBag {
    /// The (id, count) of each n-gram among `ids[range]`. A count is at most the text's number
    /// of windows of one order, below 2^32 (`SharedNgramIds::orders` checks the lengths).
    fn counts(&self, range: std::ops::Range<usize>) -> impl Iterator<Item = (u32, u32)> + '_ {
        self.ids[range]
            .chunk_by(|a, b| a == b)
            .map(|run| (run[0], run.len() as u32))
    }

    /// Every (id, count) of the text.
    fn all_counts(&self) -> impl Iterator<Item = (u32, u32)> + '_ {
        self.counts(0..self.ids.len())
    }
}

/// The orders of sorted ids, as [`TextBag::orders`] holds them.
fn order_spans(ids: &[u32], order_starts: &[u32]) -> Result<Vec<(usize, usize)>, ChrfError> {
    let mut spans = Vec::new();
    let mut start = 0;
    while let Some(&first) = ids.get(start) {
        let k = order_starts.partition_point(|&id| id <= first) - 1;
        let end_id = order_starts.get(k + 1).copied().unwrap_or(u32::MAX);
        let end = start + ids[start..].partition_point(|&id| id < end_id);
        push(&mut spans, (k, end))?;
        start = end;
    }
    Ok(spans)
}

/// The distinct texts of a batch, and which one each input is.
struct Distinct<'t> {
    texts: Vec<&'t str>,
    hypotheses: Vec<u32>,
    references: Vec<u32>,
}

impl<'t> Distinct<'t> {
    fn new<S: AsRef<str>>(hypotheses: &'t [S], references: &'t [S]) -> Result<Self, ChrfError> {
        let inputs = hypotheses.len() + references.len();
        if u32::try_from(inputs).is_err() {
            return Err(out_of_memory::<&str>(inputs));
        }
        let mut index: FxHashMap<&'t str, u32> = FxHashMap::default();
        reserve_map(&mut index, inputs)?;
        let mut texts = Vec::new();
        reserve(&mut texts, inputs)?;
        let mut ids = |inputs: &'t [S]| -> Result<Vec<u32>, ChrfError> {
            let mut ids = Vec::new();
            reserve(&mut ids, inputs.len())?;
            for text in inputs {
                let text = text.as_ref();
                ids.push(*index.entry(text).or_insert_with(|| {
                    texts.push(text);
                    texts.len() as u32 - 1
                }));
            }
            Ok(ids)
        };
        let hypotheses = ids(hypotheses)?;
        let references = ids(references)?;
        Ok(Self {
            texts,
            hypotheses,
            references,
        })
    }
}

impl Bags {
    /// The bags of the texts. The preparation of a whole batch takes seconds on large ones:
    /// it checks `interrupt` text by text and order by order.
    fn new(texts: &[&str], settings: &Settings, interrupt: &Interrupt) -> Result<Self, ChrfError> {
        let units = units_of(texts, settings, interrupt)?;
        let mut lengths = Vec::new();
        reserve(&mut lengths, texts.len())?;
        lengths.extend((0..texts.len()).map(|t| units.each_ref().map(|kind| kind.span(t).len())));
        let mut ids_per_text: Vec<Vec<u32>> = filled(texts.len(), Vec::new())?;
        let mut interner = SharedNgramIds::default();
        let mut order_starts = vec![0u32];
        let mut interned = [0; KINDS];
        for (kind, max_order) in [settings.char_order(), settings.word_order()]
            .into_iter()
            .enumerate()
        {
            interned[kind] = interner.orders(
                &units[kind],
                max_order,
                (&mut ids_per_text, &mut order_starts),
                interrupt,
            )?;
        }
        drop(units);
        drop(interner); // its per-window tables would otherwise add to the peak below
        let texts = ids_per_text
            .into_par_iter()
            .map(|mut ids| {
                interrupt.check()?;
                ids.sort_unstable();
                let orders = order_spans(&ids, &order_starts)?;
                Ok(TextBag { ids, orders })
            })
            .collect::<Result<_, _>>()?;
        Ok(Self {
            texts,
            lengths,
            order_starts,
            interned,
        })
    }

    fn id_count(&self) -> usize {
        self.order_starts.last().map_or(0, |&n| n as usize)
    }

    /// The (kind, order index from 0) of the order whose ids start at `order_starts[k]`.
    fn order_of_start(&self, k: usize) -> (usize, usize) {
        if k < self.interned[0] {
            (0, k)
        } else {
            (1, k - self.interned[0])
        }
    }
}

/// The units of the texts: code points for character n-grams, token ids for word n-grams.
fn units_of(
    texts: &[&str],
    settings: &Settings,
    interrupt: &Interrupt,
) -> Result<[Units; KINDS], ChrfError> {
    let mut kinds: [Units; KINDS] = Default::default();
    let [chars, tokens] = &mut kinds;
    reserve(&mut chars.ends, texts.len())?;
    reserve(&mut tokens.ends, texts.len())?;
    if settings.char_order() > 0 {
        // At least one byte per code point.
        reserve(&mut chars.units, texts.iter().map(|text| text.len()).sum())?;
    }
    // One generation for the whole batch: a token has one id in every text.
    let mut words = WordIds::default();
    words.begin()?;
    for (t, text) in texts.iter().enumerate() {
        interrupt.check()?;
        if settings.char_order() > 0 {
            for_each_char_unit(text, settings.include_whitespace, |unit| {
                chars.units.push(unit)
            });
        }
        if settings.word_order() > 0 {
            words.push_ids(texts, t, &mut tokens.units)?;
        }
        chars.ends.push(chars.units.len());
        tokens.ends.push(tokens.units.len());
    }
    Ok(kinds)
}

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
    let bags = Bags::new(&distinct.texts, settings, interrupt)?;
    let unique_refs = dedup(&distinct.references, distinct.texts.len())?;
    interrupt.check()?;
    let postings = Postings::new(&bags, &unique_refs)?;
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
                return Ok(());
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
        let postings = Postings::new(&bags, &unique_refs)?;
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

/// The references' bags inverted: per shared n-gram id, the columns (distinct references)
/// holding it. A row then costs the n-grams its hypothesis shares with each reference, read
/// in sequence, instead of a lookup for every n-gram of every reference. An id's columns hold
/// it once first, then more than once, with those counts alone kept (in `counts`): a count
/// is mostly 1, and a count of 1 clips any match to 1.
struct Postings {
    /// Per id: its columns end at `ends[id]` (and start where the previous id's end).
    ends: Vec<usize>,
    columns: Vec<u32>,
    /// Per id: the counts of its last columns, those holding it more than once, end at
    /// `repeated_ends[id]` (and start where the previous id's end).
    repeated_ends: Vec<usize>,
    counts: Vec<u32>,
}

/// An id's postings: the columns holding it once, the columns holding it more often and
/// how often.
struct Holders<'p> {
    once: &'p [u32],
    repeated: &'p [u32],
    counts: &'p [u32],
}

impl Postings {
    fn new(bags: &Bags, references: &[u32]) -> Result<Self, ChrfError> {
        let mut ends = filled(bags.id_count(), 0usize)?;
        let mut repeated_ends = filled(bags.id_count(), 0usize)?;
        for &r in references {
            for (id, count) in bags.texts[r as usize].all_counts() {
                ends[id as usize] += 1;
                repeated_ends[id as usize] += usize::from(count > 1);
            }
        }
        // Each id's start, for now: the cursors of the filling below.
        let columns_total = starts_of(&mut ends);
        let counts_total = starts_of(&mut repeated_ends);
        let mut columns = filled(columns_total, 0u32)?;
        let mut counts = filled(counts_total, 0u32)?;
        // Columns ascending, those holding an id once first: a pass for each.
        for repeated in [false, true] {
            for (column, &r) in references.iter().enumerate() {
                let runs = bags.texts[r as usize].all_counts();
                for (id, count) in runs.filter(|&(_, count)| (count > 1) == repeated) {
                    let at = &mut ends[id as usize];
                    // references.len() fits u32: Distinct counts its inputs in u32.
                    columns[*at] = column as u32;
                    *at += 1;
                    if repeated {
                        let at = &mut repeated_ends[id as usize];
                        counts[*at] = count;
                        *at += 1;
                    }
                }
            }
        }
        Ok(Self {
            ends,
            columns,
            repeated_ends,
            counts,
        })
    }

    fn of(&self, id: u32) -> Holders<'_> {
        let span = |ends: &[usize]| {
            let id = id as usize;
            id.checked_sub(1).map_or(0, |previous| ends[previous])..ends[id]
        };
        let (columns, counts) = (span(&self.ends), span(&self.repeated_ends));
        let once = columns.len() - counts.len();
        let (once, repeated) = self.columns[columns].split_at(once);
        Holders {
            once,
            repeated,
            counts: &self.counts[counts],
        }
    }
}

/// Turns counts per id into the start of each id's span; returns their total.
fn starts_of(counts: &mut [usize]) -> usize {
    let mut total = 0;
    for count in counts {
        (*count, total) = (total, total + *count);
    }
    total
}

/// One hypothesis against every distinct reference: the buffers of a worker.
struct Row {
    /// Per interned order k, per column: the clipped matches of the order's shared n-grams
    /// (`matches[k * columns + column]`). A match count is at most the hypothesis's number of
    /// windows of the order, below 2^32 (`SharedNgramIds::orders` checks the lengths), so u32 holds it.
    /// The interned orders end with the longest n-gram two texts share, so under the usual
    /// orders (6, or 6 + 2) this is a few times a row of scores.
    matches: Vec<u32>,
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
    /// postings of the hypothesis's shared n-grams.
    fn count_matches(&mut self, hyp: usize, batch: &Batch<'_>) {
        let columns = batch.references.len();
        let text = &batch.bags.texts[hyp];
        let mut start = 0;
        for &(k, end) in &text.orders {
            let matches = &mut self.matches[k * columns..(k + 1) * columns];
            for (id, own) in text.counts(start..end) {
                let holders = batch.postings.of(id);
                for &column in holders.once {
                    matches[column as usize] += 1;
                }
                for (&column, &count) in holders.repeated.iter().zip(holders.counts) {
                    matches[column as usize] += count.min(own);
                }
            }
            start = end;
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

/// Reference aggregation (Vamvas & Sennrich 2024, as `fastchrf.aggregate_chrf`): each
/// hypothesis scored against the mean n-gram bag of all the references, weighted by
/// `weights` (one integer per reference; all 1 when absent). Counts stay exact integers: the
/// hypothesis's counts are multiplied by the total weight instead of dividing the bag by it.
pub fn aggregate_scores<S: AsRef<str> + Sync>(
    hypotheses: &[S],
    references: &[S],
    weights: Option<&[u64]>,
    settings: &Settings,
    interrupt: &Interrupt,
) -> Result<Vec<f64>, ChrfError> {
    if references.is_empty() {
        return Err(ChrfError::NoReferences);
    }
    let ones;
    let weights = match weights {
        Some(weights) => weights,
        None => {
            ones = filled(references.len(), 1u64)?;
            &ones
        }
    };
    if weights.len() != references.len() {
        return Err(ChrfError::WeightCount {
            weights: weights.len(),
            references: references.len(),
        });
    }
    let mut out = filled(hypotheses.len(), 0.0)?;
    pool::run(|| {
        let distinct = Distinct::new(hypotheses, references)?;
        let bags = Bags::new(&distinct.texts, settings, interrupt)?;
        aggregate_in_pool(&distinct, &bags, weights, (settings, interrupt), &mut out)
    })??;
    Ok(out)
}

fn aggregate_in_pool(
    distinct: &Distinct<'_>,
    bags: &Bags,
    weights: &[u64],
    (settings, interrupt): (&Settings, &Interrupt),
    out: &mut [f64],
) -> Result<(), ChrfError> {
    let mean = MeanBag::new(bags, &distinct.references, weights, settings)?;
    interrupt.check()?;
    let unique_hyps = dedup(&distinct.hypotheses, distinct.texts.len())?;
    let mut scores = filled(unique_hyps.len(), 0.0)?;
    scores.par_iter_mut().zip(&unique_hyps).try_for_each_init(
        PairCounts::default,
        |pair, (score, &hyp)| {
            interrupt.check()?;
            *score = mean.score(hyp as usize, bags, settings, pair)?;
            Ok::<_, ChrfError>(())
        },
    )?;
    let position = position_in(&unique_hyps, distinct.texts.len())?;
    for (score, &h) in out.iter_mut().zip(&distinct.hypotheses) {
        *score = scores[position[h as usize]];
    }
    Ok(())
}

/// The references' n-gram counts, summed with their weights.
struct MeanBag {
    /// Per shared n-gram id.
    counts: Vec<Count>,
    /// Per kind, per order: the weighted number of reference n-grams, up to the longest
    /// reference of non-zero weight (so every one of them is positive).
    totals: [Vec<Count>; KINDS],
    total_weight: Count,
    /// Per distinct text: the weight of the references that are that text.
    own_weight: Vec<Count>,
}

fn checked_add(sum: &mut Count, value: Count) -> Result<(), ChrfError> {
    *sum = sum.checked_add(value).ok_or(ChrfError::CountOverflow)?;
    Ok(())
}

fn checked_mul(a: Count, b: Count) -> Result<Count, ChrfError> {
    a.checked_mul(b).ok_or(ChrfError::CountOverflow)
}

impl MeanBag {
    fn new(
        bags: &Bags,
        references: &[u32],
        weights: &[u64],
        settings: &Settings,
    ) -> Result<Self, ChrfError> {
        let mut counts: Vec<Count> = filled(bags.id_count(), 0)?;
        let mut own_weight: Vec<Count> = filled(bags.texts.len(), 0)?;
        let mut totals: [Vec<Count>; KINDS] = Default::default();
        let mut total_weight: Count = 0;
        let orders = [settings.char_order(), settings.word_order()];
        for (&text, &weight) in references.iter().zip(weights) {
            let (text, weight) = (text as usize, Count::from(weight));
            checked_add(&mut total_weight, weight)?;
            checked_add(&mut own_weight[text], weight)?;
            if weight == 0 {
                continue;
            }
            for (id, count) in bags.texts[text].all_counts() {
                checked_add(&mut counts[id as usize], weight * Count::from(count))?;
            }
            for (kind, totals) in totals.iter_mut().enumerate() {
                let len = bags.lengths[text][kind];
                let kept = orders[kind].min(len);
                if totals.len() < kept {
                    reserve(totals, kept - totals.len())?;
                    totals.resize(kept, 0);
                }
                for (n, total) in (1..=kept).zip(totals.iter_mut()) {
                    checked_add(total, checked_mul(weight, window_count(len, n))?)?;
                }
            }
        }
        Ok(Self {
            counts,
            totals,
            total_weight,
            own_weight,
        })
    }

    /// The score of distinct text `hyp` against the bag.
    fn score(
        &self,
        hyp: usize,
        bags: &Bags,
        settings: &Settings,
        pair: &mut PairCounts,
    ) -> Result<f64, ChrfError> {
        let scale = |count: Count| checked_mul(count, self.total_weight);
        // The n-grams found in the hypothesis alone are in the bag only as often as the
        // hypothesis is a reference: min(scaled count, bag count) is that many.
        let own_weight = self.own_weight[hyp];
        let orders = [settings.char_order(), settings.word_order()];
        for (kind, out) in pair.kinds.iter_mut().enumerate() {
            let len = bags.lengths[hyp][kind];
            let kept = orders[kind].min(len);
            out.clear();
            reserve(out, kept)?;
            for n in 1..=kept {
                let reference = self.totals[kind].get(n - 1).copied().unwrap_or(0);
                let windows = window_count(len, n);
                let matching = checked_mul(own_weight, windows)?;
                // Scaled after the rule: a count the rule drops is never scaled (nor overflows).
                let mut counts = OrderCounts::of_pair(windows, reference, matching, settings);
                counts.hypothesis = scale(counts.hypothesis)?;
                out.push(counts);
            }
        }
        let text = &bags.texts[hyp];
        let mut start = 0;
        for &(k, end) in &text.orders {
            let (kind, index) = bags.order_of_start(k);
            let (mut matched, mut counted) = (0, 0u64);
            for (id, count) in text.counts(start..end) {
                checked_add(
                    &mut matched,
                    scale(Count::from(count))?.min(self.counts[id as usize]),
                )?;
                counted += u64::from(count); // at most 2^32 entries of at most 2^32 each
            }
            // The order's matching so far counts these n-grams as the hypothesis's own: what
            // they match is `matched` instead, and never less (the bag holds the hypothesis's
            // own references, and the total weight is at least their weight).
            let order = &mut pair.kinds[kind][index];
            let own = checked_mul(own_weight, Count::from(counted))?;
            let rest = order
                .matching
                .checked_sub(own)
                .ok_or_else(|| ChrfError::CrossCheckFailed("an aggregated match count".into()))?;
            order.matching = rest.checked_add(matched).ok_or(ChrfError::CountOverflow)?;
            start = end;
        }
        float_score_of_runs(self.runs(pair, settings), settings)
    }

    /// Every order of the settings: the hypothesis's orders as counted, then the orders only
    /// references have, then orders no text has. Past the hypothesis's length an order counts
    /// (0, R, 0) with R > 0, and every such order scores alike (precision undefined, recall 0),
    /// so they pass as one run of (0, 1, 0).
    fn runs<'p>(
        &'p self,
        pair: &'p PairCounts,
        settings: &Settings,
    ) -> impl Iterator<Item = Run> + 'p {
        let orders = [settings.char_order(), settings.word_order()];
        pair.kinds
            .iter()
            .zip(&self.totals)
            .zip(orders)
            .flat_map(|((kept, totals), order)| {
                let reference_only = OrderCounts {
                    reference: 1,
                    ..OrderCounts::default()
                };
                let reference_orders = totals.len().saturating_sub(kept.len());
                let zeros = order - kept.len() - reference_orders;
                kept.iter().map(|&counts| (counts, 1)).chain([
                    (reference_only, reference_orders),
                    (OrderCounts::default(), zeros),
                ])
            })
    }
}

/// The distinct values, in order of first appearance (values below `size`).
fn dedup(ids: &[u32], size: usize) -> Result<Vec<u32>, ChrfError> {
    let mut seen = filled(size, false)?;
    let mut out = Vec::new();
    for &id in ids {
        if !std::mem::replace(&mut seen[id as usize], true) {
            push(&mut out, id)?;
        }
    }
    Ok(out)
}

/// Per value below `size`: the first position where it occurs in `values`.
fn position_in(values: &[u32], size: usize) -> Result<Vec<usize>, ChrfError> {
    let mut positions = filled(size, usize::MAX)?;
    for (position, &value) in values.iter().enumerate().rev() {
        positions[value as usize] = position;
    }
    Ok(positions)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::text::for_each_word_token;
    use crate::{float_score, segment_statistics, Averaging, Beta};
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
                aggregate_scores(&texts, &refs, Some(&[3]), &settings, &Interrupt::default())
                    .unwrap();
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
                        let alone =
                            segment_statistics(hyp, [reference.as_str()], &settings).unwrap();
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
                let scores =
                    pairwise_scores(&texts, &texts, &settings, &Interrupt::default()).unwrap();
                for (i, hyp) in texts.iter().enumerate() {
                    for (j, reference) in texts.iter().enumerate() {
                        let alone =
                            segment_statistics(hyp, [reference.as_str()], &settings).unwrap();
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
        let mut state = seed;
        let mut next = move |below: usize| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % below as u64) as usize
        };
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
                        let alone =
                            segment_statistics(hyp, [reference.as_str()], &settings).unwrap();
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
}
