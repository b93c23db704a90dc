//! Reference aggregation: each hypothesis against the references' mean bag, in one code path
//! for both widths of weights: [`BagCount`] is the width (u128 counts for 64-bit weights here,
//! wide integers in aggregate_wide.rs).

use num_bigint::BigUint;
use rayon::prelude::*;

use super::bags::{dedup, position_in, Bags, Distinct, KINDS};
use crate::float::{float_score_of_runs, OrderValues};
use crate::memory::{filled, reserve};
use crate::pool::{self, Interrupt};
use crate::stats::{counts_hypothesis, window_count, Run};
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
    aggregate::<Count, S>(hypotheses, references, weights, settings, interrupt)
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
    aggregate::<BigUint, S>(hypotheses, references, weights, settings, interrupt)
}

fn aggregate<C: BagCount, S: AsRef<str> + Sync>(
    hypotheses: &[S],
    references: &[S],
    weights: &[C::Weight],
    settings: &Settings,
    interrupt: &Interrupt,
) -> Result<Vec<f64>, ChrfError> {
    ChrfError::check_weight_count(weights.len(), references.len())?;
    let mut out = filled(hypotheses.len(), 0.0)?;
    pool::run(|| {
        let distinct = Distinct::new(hypotheses, references)?;
        let bags = Bags::new(&distinct.texts, settings, interrupt)?;
        aggregate_in_pool::<C>(&distinct, &bags, weights, (settings, interrupt), &mut out)
    })??;
    Ok(out)
}

/// The integers a mean bag counts in, and how its orders are scored.
pub(super) trait BagCount: Clone + Ord + Send + Sync {
    /// One reference's weight, as the caller gives it.
    type Weight: Sync;
    /// One order's counts in this width, as the score reads them.
    type Order: OrderValues<f64> + Clone + Default + Send;

    fn of_weight(weight: &Self::Weight) -> Self;
    fn of_count(count: Count) -> Self;
    fn is_zero(&self) -> bool;
    fn add(&mut self, value: &Self) -> Result<(), ChrfError>;
    fn times(&self, count: Count) -> Result<Self, ChrfError>;
    fn minus(&self, value: &Self) -> Option<Self>;
    fn order(hypothesis: Self, reference: Self, matching: Self) -> Self::Order;
    fn matching(order: &mut Self::Order) -> &mut Self;
    /// What the settings must allow before any hypothesis is scored in this width.
    fn check(settings: &Settings) -> Result<(), ChrfError>;
    /// The score of every order of the settings, given as runs of equal orders.
    fn score(
        runs: impl Iterator<Item = (Self::Order, usize)>,
        settings: &Settings,
    ) -> Result<f64, ChrfError>;
}

/// 64-bit weights: counts in u128, checked, scored as every other float score is.
impl BagCount for Count {
    type Weight = u64;
    type Order = OrderCounts;

    #[inline]
    fn of_weight(weight: &u64) -> Self {
        Count::from(*weight)
    }
    #[inline]
    fn of_count(count: Count) -> Self {
        count
    }
    #[inline]
    fn is_zero(&self) -> bool {
        *self == 0
    }
    #[inline]
    fn add(&mut self, value: &Self) -> Result<(), ChrfError> {
        *self = self.checked_add(*value).ok_or(ChrfError::CountOverflow)?;
        Ok(())
    }
    #[inline]
    fn times(&self, count: Count) -> Result<Self, ChrfError> {
        self.checked_mul(count).ok_or(ChrfError::CountOverflow)
    }
    #[inline]
    fn minus(&self, value: &Self) -> Option<Self> {
        self.checked_sub(*value)
    }
    #[inline]
    fn order(hypothesis: Self, reference: Self, matching: Self) -> OrderCounts {
        OrderCounts {
            hypothesis,
            reference,
            matching,
        }
    }
    #[inline]
    fn matching(order: &mut OrderCounts) -> &mut Self {
        &mut order.matching
    }
    fn check(_: &Settings) -> Result<(), ChrfError> {
        Ok(())
    }
    #[inline]
    fn score(runs: impl Iterator<Item = Run>, settings: &Settings) -> Result<f64, ChrfError> {
        float_score_of_runs(runs, settings)
    }
}

fn aggregate_in_pool<C: BagCount>(
    distinct: &Distinct<'_>,
    bags: &Bags,
    weights: &[C::Weight],
    (settings, interrupt): (&Settings, &Interrupt),
    out: &mut [f64],
) -> Result<(), ChrfError> {
    C::check(settings)?;
    let mean = MeanBag::<C>::new(bags, &distinct.references, weights, settings)?;
    interrupt.check()?;
    let unique_hyps = dedup(&distinct.hypotheses, distinct.texts.len())?;
    let mut scores = filled(unique_hyps.len(), 0.0)?;
    scores.par_iter_mut().zip(&unique_hyps).try_for_each_init(
        <[Vec<C::Order>; KINDS]>::default,
        |kinds, (score, &hyp)| {
            interrupt.check()?;
            *score = mean.score(hyp as usize, bags, settings, kinds)?;
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
struct MeanBag<C> {
    /// Per shared n-gram id.
    counts: Vec<C>,
    /// Per kind, per order: the weighted number of reference n-grams, up to the longest
    /// reference of non-zero weight (so every one of them is positive).
    totals: [Vec<C>; KINDS],
    total_weight: C,
    /// Per distinct text: the weight of the references that are that text.
    own_weight: Vec<C>,
}

impl<C: BagCount> MeanBag<C> {
    fn new(
        bags: &Bags,
        references: &[u32],
        weights: &[C::Weight],
        settings: &Settings,
    ) -> Result<Self, ChrfError> {
        let zero = C::of_count(0);
        let mut counts = filled(bags.id_count(), zero.clone())?;
        let mut own_weight = filled(bags.texts.len(), zero.clone())?;
        let mut totals: [Vec<C>; KINDS] = Default::default();
        let mut total_weight = zero.clone();
        let orders = [settings.char_order(), settings.word_order()];
        for (&text, weight) in references.iter().zip(weights) {
            let (text, weight) = (text as usize, C::of_weight(weight));
            total_weight.add(&weight)?;
            own_weight[text].add(&weight)?;
            if weight.is_zero() {
                continue;
            }
            for (id, count) in bags.texts[text].all_counts() {
                counts[id as usize].add(&weight.times(Count::from(count))?)?;
            }
            for (kind, totals) in totals.iter_mut().enumerate() {
                let len = bags.lengths[text][kind];
                let kept = orders[kind].min(len);
                if totals.len() < kept {
                    reserve(totals, kept - totals.len())?;
                    totals.resize(kept, zero.clone());
                }
                for (n, total) in (1..=kept).zip(totals.iter_mut()) {
                    total.add(&weight.times(window_count(len, n))?)?;
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

    /// The score of distinct text `hyp` against the bag; `kinds` is scratch space, per kind
    /// the hypothesis's orders.
    fn score(
        &self,
        hyp: usize,
        bags: &Bags,
        settings: &Settings,
        kinds: &mut [Vec<C::Order>; KINDS],
    ) -> Result<f64, ChrfError> {
        // The n-grams found in the hypothesis alone are in the bag only as often as the
        // hypothesis is a reference: min(scaled count, bag count) is that many.
        let own_weight = &self.own_weight[hyp];
        let orders = [settings.char_order(), settings.word_order()];
        for (kind, out) in kinds.iter_mut().enumerate() {
            let len = bags.lengths[hyp][kind];
            let kept = orders[kind].min(len);
            out.clear();
            reserve(out, kept)?;
            for n in 1..=kept {
                let reference = match self.totals[kind].get(n - 1) {
                    Some(total) => total.clone(),
                    None => C::of_count(0),
                };
                let windows = window_count(len, n);
                let matching = own_weight.times(windows)?;
                // Scaled after the rule: a count the rule drops is never scaled (nor overflows).
                let hypothesis = if counts_hypothesis(!reference.is_zero(), settings) {
                    self.total_weight.times(windows)?
                } else {
                    C::of_count(0)
                };
                out.push(C::order(hypothesis, reference, matching));
            }
        }
        let text = &bags.texts[hyp];
        let mut start = 0;
        for &(k, end) in &text.orders {
            let (kind, index) = bags.order_of_start(k);
            let (mut matched, mut counted) = (C::of_count(0), 0u64);
            for (id, count) in text.counts(start..end) {
                let scaled = self.total_weight.times(Count::from(count))?;
                matched.add(std::cmp::min(&scaled, &self.counts[id as usize]))?;
                counted += u64::from(count); // at most 2^32 entries of at most 2^32 each
            }
            // The order's matching so far counts these n-grams as the hypothesis's own: what
            // they match is `matched` instead, and never less (the bag holds the hypothesis's
            // own references, and the total weight is at least their weight).
            let order = C::matching(&mut kinds[kind][index]);
            let own = own_weight.times(Count::from(counted))?;
            let mut rest = order
                .minus(&own)
                .ok_or_else(|| ChrfError::CrossCheckFailed("an aggregated match count".into()))?;
            rest.add(&matched)?;
            *order = rest;
            start = end;
        }
        C::score(self.runs(kinds, settings), settings)
    }

    /// Every order of the settings: the hypothesis's orders as counted, then the orders only
    /// references have, then orders no text has. Past the hypothesis's length an order counts
    /// (0, R, 0) with R > 0, and every such order scores alike (precision undefined, recall 0),
    /// so they pass as one run of (0, 1, 0).
    fn runs<'p>(
        &'p self,
        kinds: &'p [Vec<C::Order>; KINDS],
        settings: &Settings,
    ) -> impl Iterator<Item = (C::Order, usize)> + 'p {
        let orders = [settings.char_order(), settings.word_order()];
        let reference_only = C::order(C::of_count(0), C::of_count(1), C::of_count(0));
        kinds
            .iter()
            .zip(&self.totals)
            .zip(orders)
            .flat_map(move |((kept, totals), order)| {
                let reference_orders = totals.len().saturating_sub(kept.len());
                let zeros = order - kept.len() - reference_orders;
                kept.iter().map(|counts| (counts.clone(), 1)).chain([
                    (reference_only.clone(), reference_orders),
                    (C::Order::default(), zeros),
                ])
            })
    }
}
