//! Many hypotheses against many references (MBR): n-grams interned once per batch.
//!
//! Every distinct text of the batch is counted once: its n-grams get batch-wide ids (order n's
//! id is interned from order n-1's id and the next unit, so any order works, and the ids are
//! exact, with no hash collisions), and its bag becomes a sorted list of (id, count). A pair of
//! texts is then scored by looking up the reference's bag in a dense array holding the
//! hypothesis's counts. N-grams found in only one distinct text can match only when hypothesis
//! and reference are that same text, so they are kept out of the lookups as a per-text total.

use rayon::prelude::*;
use rustc_hash::FxHashMap;

use crate::float::float_score_of_orders;
use crate::pool;
use crate::text::{for_each_char_unit, for_each_word_token};
use crate::{ChrfError, Count, OrderCounts, Settings};

/// The n-gram bags of the distinct texts of a batch.
struct Bags {
    /// Per distinct text: its (id, count) entries, sorted by id; ids of order n come before
    /// the ids of order n + 1.
    entries: Vec<Vec<(u32, u32)>>,
    /// Per distinct text: the number of n-grams of each order.
    totals: Vec<Vec<Count>>,
    /// First id of each order, and the number of ids in all (last element).
    order_starts: Vec<u32>,
}

/// The distinct texts of a batch, and which one each input is.
struct Distinct<'t> {
    texts: Vec<&'t str>,
    hypotheses: Vec<u32>,
    references: Vec<u32>,
}

impl<'t> Distinct<'t> {
    fn new<S: AsRef<str>>(hypotheses: &'t [S], references: &'t [S]) -> Self {
        let mut index: FxHashMap<&'t str, u32> = FxHashMap::default();
        let mut texts = Vec::new();
        let mut id = |text: &'t str| {
            *index.entry(text).or_insert_with(|| {
                texts.push(text);
                texts.len() as u32 - 1
            })
        };
        let hypotheses = hypotheses.iter().map(|t| id(t.as_ref())).collect();
        let references = references.iter().map(|t| id(t.as_ref())).collect();
        Self {
            texts,
            hypotheses,
            references,
        }
    }
}

impl Bags {
    fn new(texts: &[&str], settings: &Settings) -> Self {
        let mut interner = Interner::default();
        let units: Vec<(Vec<u32>, Vec<u32>)> = texts
            .iter()
            .map(|text| units_of(text, settings, &mut interner.words))
            .collect();
        let mut ids_per_text: Vec<Vec<Vec<u32>>> = vec![Vec::new(); texts.len()];
        let mut order_starts = vec![0u32];
        for (kind, max_order) in [(0, settings.char_order()), (1, settings.word_order())] {
            interner.reset_orders();
            for n in 1..=max_order {
                let base = *order_starts.last().unwrap_or(&0);
                for (text_units, ids) in units.iter().zip(&mut ids_per_text) {
                    let units = if kind == 0 {
                        &text_units.0
                    } else {
                        &text_units.1
                    };
                    let previous = if n == 1 { None } else { ids.last() };
                    let order_ids = interner.order(n, units, previous, base);
                    ids.push(order_ids);
                }
                order_starts.push(base + interner.ids_of_order(n));
            }
        }
        let (entries, totals) = ids_per_text
            .into_par_iter()
            .map(|orders| {
                let totals = orders.iter().map(|ids| ids.len() as Count).collect();
                let mut all: Vec<u32> = orders.into_iter().flatten().collect();
                all.sort_unstable();
                (run_lengths(&all), totals)
            })
            .unzip();
        Self {
            entries,
            totals,
            order_starts,
        }
    }

    fn id_count(&self) -> usize {
        self.order_starts.last().map_or(0, |&n| n as usize)
    }

    /// The order index (0-based, char orders first) of an id.
    fn order_of(&self, id: u32) -> usize {
        self.order_starts.partition_point(|&start| start <= id) - 1
    }
}

/// The units of a text: code points for character n-grams, token ids for word n-grams.
fn units_of(
    text: &str,
    settings: &Settings,
    words: &mut FxHashMap<String, u32>,
) -> (Vec<u32>, Vec<u32>) {
    let mut chars = Vec::with_capacity(text.len());
    if settings.char_order() > 0 {
        for_each_char_unit(text, settings.include_whitespace, |unit| chars.push(unit));
    }
    let mut tokens = Vec::new();
    if settings.word_order() > 0 {
        for_each_word_token(text, |token| {
            let next = words.len() as u32;
            let id = match words.get(token) {
                Some(&id) => id,
                None => {
                    words.insert(token.to_string(), next);
                    next
                }
            };
            tokens.push(id);
        });
    }
    (chars, tokens)
}

/// Batch-wide ids: words by their text, n-grams by (id of the (n-1)-gram, next unit).
#[derive(Default)]
struct Interner {
    words: FxHashMap<String, u32>,
    orders: Vec<FxHashMap<u64, u32>>,
}

impl Interner {
    fn reset_orders(&mut self) {
        self.orders.clear();
    }

    fn ids_of_order(&self, n: usize) -> u32 {
        self.orders.get(n - 1).map_or(0, |map| map.len() as u32)
    }

    /// The ids of the order-n windows of `units`, offset by `base`; `previous` holds the ids of
    /// the order-(n-1) windows (offset by their own base, which cancels out in the pairing).
    fn order(
        &mut self,
        n: usize,
        units: &[u32],
        previous: Option<&Vec<u32>>,
        base: u32,
    ) -> Vec<u32> {
        if self.orders.len() < n {
            self.orders.resize_with(n, FxHashMap::default);
        }
        let map = &mut self.orders[n - 1];
        let windows = (units.len() + 1).saturating_sub(n);
        let mut ids = Vec::with_capacity(windows);
        for start in 0..windows {
            let head = match previous {
                Some(prev) => prev[start],
                None => u32::MAX,
            };
            let key = (u64::from(head) << 32) | u64::from(units[start + n - 1]);
            let next = map.len() as u32;
            ids.push(base + *map.entry(key).or_insert(next));
        }
        ids
    }
}

fn run_lengths(sorted: &[u32]) -> Vec<(u32, u32)> {
    let mut runs: Vec<(u32, u32)> = Vec::new();
    for &id in sorted {
        match runs.last_mut() {
            Some((last, count)) if *last == id => *count += 1,
            _ => runs.push((id, 1)),
        }
    }
    runs
}

/// Pairwise scores, row-major: `scores[i * references.len() + j]` is hypothesis i against
/// reference j, equal to sacreBLEU's sentence score of that pair.
pub fn pairwise_scores<S: AsRef<str> + Sync>(
    hypotheses: &[S],
    references: &[S],
    settings: &Settings,
) -> Result<Vec<f64>, ChrfError> {
    pool::run(|| pairwise_in_pool(hypotheses, references, settings))
}

fn pairwise_in_pool<S: AsRef<str> + Sync>(
    hypotheses: &[S],
    references: &[S],
    settings: &Settings,
) -> Result<Vec<f64>, ChrfError> {
    let distinct = Distinct::new(hypotheses, references);
    let bags = Bags::new(&distinct.texts, settings);
    let shared = SharedBags::new(&bags);
    let unique_refs = dedup(&distinct.references);
    let rows: Vec<Vec<f64>> = dedup(&distinct.hypotheses)
        .par_iter()
        .map_init(
            || (vec![0u32; shared.id_count], Vec::new()),
            |(dense, orders), &hyp| shared.row(hyp, &unique_refs, (dense, orders), &bags, settings),
        )
        .collect::<Result<_, _>>()?;
    // Back from distinct texts to the inputs.
    let row_of = position_in(&dedup(&distinct.hypotheses), distinct.texts.len());
    let column_of = position_in(&unique_refs, distinct.texts.len());
    let mut out = Vec::with_capacity(hypotheses.len() * references.len());
    for &hyp in &distinct.hypotheses {
        let row = &rows[row_of[hyp as usize]];
        out.extend(
            distinct
                .references
                .iter()
                .map(|&r| row[column_of[r as usize]]),
        );
    }
    Ok(out)
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
) -> Result<Vec<f64>, ChrfError> {
    if references.is_empty() {
        return Err(ChrfError::NoReferences);
    }
    let ones = vec![1u64; references.len()];
    let weights = weights.unwrap_or(&ones);
    if weights.len() != references.len() {
        return Err(ChrfError::InvalidSettings(format!(
            "weights has {} values but there are {} references",
            weights.len(),
            references.len()
        )));
    }
    pool::run(|| {
        let distinct = Distinct::new(hypotheses, references);
        let bags = Bags::new(&distinct.texts, settings);
        aggregate_in_pool(&distinct, &bags, weights, settings)
    })
}

fn aggregate_in_pool(
    distinct: &Distinct<'_>,
    bags: &Bags,
    weights: &[u64],
    settings: &Settings,
) -> Result<Vec<f64>, ChrfError> {
    let mean = MeanBag::new(bags, &distinct.references, weights)?;
    let unique_hyps = dedup(&distinct.hypotheses);
    let scores: Vec<f64> = unique_hyps
        .par_iter()
        .map(|&hyp| mean.score(hyp as usize, bags, settings))
        .collect::<Result<_, _>>()?;
    let position = position_in(&unique_hyps, distinct.texts.len());
    Ok(distinct
        .hypotheses
        .iter()
        .map(|&h| scores[position[h as usize]])
        .collect())
}

/// The references' n-gram counts, summed with their weights.
struct MeanBag {
    counts: Vec<Count>,
    totals: Vec<Count>,
    total_weight: Count,
}

impl MeanBag {
    fn new(bags: &Bags, references: &[u32], weights: &[u64]) -> Result<Self, ChrfError> {
        let orders = bags.order_starts.len() - 1;
        let mut counts: Vec<Count> = vec![0; bags.id_count()];
        let mut totals: Vec<Count> = vec![0; orders];
        let mut total_weight: Count = 0;
        let add = |sum: &mut Count, value: Count| -> Result<(), ChrfError> {
            *sum = sum.checked_add(value).ok_or(ChrfError::CountOverflow)?;
            Ok(())
        };
        for (&text, &weight) in references.iter().zip(weights) {
            let (text, weight) = (text as usize, Count::from(weight));
            add(&mut total_weight, weight)?;
            for &(id, count) in &bags.entries[text] {
                add(&mut counts[id as usize], weight * Count::from(count))?;
            }
            for (total, &n) in totals.iter_mut().zip(&bags.totals[text]) {
                add(
                    total,
                    weight.checked_mul(n).ok_or(ChrfError::CountOverflow)?,
                )?;
            }
        }
        Ok(Self {
            counts,
            totals,
            total_weight,
        })
    }

    fn score(&self, hyp: usize, bags: &Bags, settings: &Settings) -> Result<f64, ChrfError> {
        let scale = |count: Count| {
            count
                .checked_mul(self.total_weight)
                .ok_or(ChrfError::CountOverflow)
        };
        let mut matching: Vec<Count> = vec![0; self.totals.len()];
        let mut order = 0;
        for &(id, count) in &bags.entries[hyp] {
            while id >= bags.order_starts[order + 1] {
                order += 1;
            }
            matching[order] += scale(Count::from(count))?.min(self.counts[id as usize]);
        }
        let orders = (0..self.totals.len())
            .map(|n| {
                let reference = self.totals[n];
                let hypothesis = if reference == 0 && !settings.count_hyp_without_ref {
                    0
                } else {
                    scale(bags.totals[hyp][n])?
                };
                Ok(OrderCounts {
                    hypothesis,
                    reference,
                    matching: matching[n],
                })
            })
            .collect::<Result<Vec<_>, ChrfError>>()?;
        float_score_of_orders(&orders, settings)
    }
}

/// The distinct values, in order of first appearance.
fn dedup(ids: &[u32]) -> Vec<u32> {
    let mut seen = FxHashMap::default();
    ids.iter()
        .copied()
        .filter(|&id| seen.insert(id, ()).is_none())
        .collect()
}

fn position_in(values: &[u32], size: usize) -> Vec<usize> {
    let mut positions = vec![0; size];
    for (position, &value) in values.iter().enumerate() {
        positions[value as usize] = position;
    }
    positions
}

/// The bags restricted to n-grams found in at least two distinct texts, with compact ids, and
/// per text and order the total count of its other n-grams.
struct SharedBags {
    entries: Vec<Vec<(u32, u32)>>,
    /// Per text: where each order's entries start in `entries` (one more element at the end).
    order_bounds: Vec<Vec<usize>>,
    private: Vec<Vec<Count>>,
    id_count: usize,
}

impl SharedBags {
    fn new(bags: &Bags) -> Self {
        let mut texts_with = vec![0u32; bags.id_count()];
        for entries in &bags.entries {
            for &(id, _) in entries {
                texts_with[id as usize] += 1;
            }
        }
        let mut compact = vec![u32::MAX; bags.id_count()];
        let mut id_count = 0;
        for (id, &texts) in texts_with.iter().enumerate() {
            if texts >= 2 {
                compact[id] = id_count;
                id_count += 1;
            }
        }
        let orders = bags.order_starts.len() - 1;
        let mut entries = Vec::with_capacity(bags.entries.len());
        let mut order_bounds = Vec::with_capacity(bags.entries.len());
        let mut private = Vec::with_capacity(bags.entries.len());
        for text_entries in &bags.entries {
            let mut kept = Vec::new();
            let mut bounds = vec![0usize; orders + 1];
            let mut alone = vec![0; orders];
            for &(id, count) in text_entries {
                let order = bags.order_of(id);
                match compact[id as usize] {
                    u32::MAX => alone[order] += Count::from(count),
                    shared_id => {
                        kept.push((shared_id, count));
                        bounds[order + 1] = kept.len();
                    }
                }
            }
            // Orders without shared entries end where the previous order ended.
            for k in 1..bounds.len() {
                bounds[k] = bounds[k].max(bounds[k - 1]);
            }
            entries.push(kept);
            order_bounds.push(bounds);
            private.push(alone);
        }
        Self {
            entries,
            order_bounds,
            private,
            id_count: id_count as usize,
        }
    }

    /// The scores of one hypothesis against each reference. `dense` is all zeros on entry
    /// and on exit; between, it holds the hypothesis's counts by n-gram id.
    fn row(
        &self,
        hyp: u32,
        references: &[u32],
        (dense, orders): (&mut [u32], &mut Vec<OrderCounts>),
        bags: &Bags,
        settings: &Settings,
    ) -> Result<Vec<f64>, ChrfError> {
        let h = hyp as usize;
        for &(id, count) in &self.entries[h] {
            dense[id as usize] = count;
        }
        let scores = references
            .iter()
            .map(|&reference| {
                self.pair_counts(h, reference as usize, dense, bags, settings, orders);
                float_score_of_orders(orders, settings)
            })
            .collect();
        for &(id, _) in &self.entries[h] {
            dense[id as usize] = 0;
        }
        scores
    }

    fn pair_counts(
        &self,
        h: usize,
        r: usize,
        dense: &[u32],
        bags: &Bags,
        settings: &Settings,
        orders: &mut Vec<OrderCounts>,
    ) {
        orders.clear();
        let bounds = &self.order_bounds[r];
        orders.extend(bounds.windows(2).enumerate().map(|(order, span)| {
            let mut matching: Count = self.entries[r][span[0]..span[1]]
                .iter()
                .map(|&(id, count)| Count::from(count.min(dense[id as usize])))
                .sum();
            if h == r {
                matching += self.private[h][order];
            }
            let reference = bags.totals[r][order];
            let hypothesis = bags.totals[h][order];
            OrderCounts {
                // sacreBLEU: "don't count hits if no reference exists" (SPEC §1.4).
                hypothesis: if reference == 0 && !settings.count_hyp_without_ref {
                    0
                } else {
                    hypothesis
                },
                reference,
                matching,
            }
        }));
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::{float_score, segment_statistics, Averaging, Beta};

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
    fn aggregation_with_one_reference_is_the_pair_score() {
        let texts = texts();
        let settings = Settings::new(6, 2, Beta::integer(2).unwrap()).unwrap();
        for reference in &texts[..6] {
            let refs = [reference.clone()];
            let aggregated = aggregate_scores(&texts, &refs, Some(&[3]), &settings).unwrap();
            assert_eq!(
                aggregated,
                pairwise_scores(&texts, &refs, &settings).unwrap()
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
            aggregate_scores(&texts, refs, Some(&[1, 2, 1]), &settings).unwrap(),
            aggregate_scores(&texts, &repeated, None, &settings).unwrap()
        );
        assert!(aggregate_scores(&texts, refs, Some(&[1]), &settings).is_err());
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
                let scores = pairwise_scores(hyps, refs, &settings).unwrap();
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
}
