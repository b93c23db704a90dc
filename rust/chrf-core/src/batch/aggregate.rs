//! Reference aggregation: each hypothesis against the references' mean bag.

use num_bigint::BigUint;
use rayon::prelude::*;

use super::aggregate_wide::aggregate_wide_in_pool;
use super::bags::{dedup, position_in, Bags, Distinct, KINDS};
use crate::float::float_score_of_runs;
use crate::memory::{filled, reserve};
use crate::pool::{self, Interrupt};
use crate::stats::{window_count, PairCounts, Run};
use crate::{ChrfError, Count, OrderCounts, Settings};

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
    ChrfError::check_weight_count(weights.len(), references.len())?;
    let mut out = filled(hypotheses.len(), 0.0)?;
    pool::run(|| {
        let distinct = Distinct::new(hypotheses, references)?;
        let bags = Bags::new(&distinct.texts, settings, interrupt)?;
        aggregate_in_pool(&distinct, &bags, weights, (settings, interrupt), &mut out)
    })??;
    Ok(out)
}

/// As [`aggregate_scores`], with weights of any width, one per reference: integers whose
/// proportions need more than 64 bits (model probabilities tens of nats apart). The counts are
/// then wide integers, and each order's precision and recall their exact ratio rounded once;
/// `per_order_f` averaging (without eps smoothing) takes only 64-bit weights.
pub fn aggregate_scores_wide<S: AsRef<str> + Sync>(
    hypotheses: &[S],
    references: &[S],
    weights: &[BigUint],
    settings: &Settings,
    interrupt: &Interrupt,
) -> Result<Vec<f64>, ChrfError> {
    if references.is_empty() {
        return Err(ChrfError::NoReferences);
    }
    ChrfError::check_weight_count(weights.len(), references.len())?;
    let mut out = filled(hypotheses.len(), 0.0)?;
    pool::run(|| {
        let distinct = Distinct::new(hypotheses, references)?;
        let bags = Bags::new(&distinct.texts, settings, interrupt)?;
        aggregate_wide_in_pool(&distinct, &bags, weights, (settings, interrupt), &mut out)
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
