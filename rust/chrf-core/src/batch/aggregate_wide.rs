//! Reference aggregation with weights past 64 bits: model probabilities tens of nats apart,
//! whose smallest integers in the same proportions are hundreds of bits wide. The mean bag of
//! aggregate.rs, in wide integers: the same counts, exact, and each order's precision and recall
//! their exact ratios rounded once, as Python's int division rounds them.

use num_bigint::BigUint;
use num_rational::BigRational;
use num_traits::{ToPrimitive, Zero};
use rayon::prelude::*;

use super::bags::{dedup, position_in, Bags, Distinct, KINDS};
use crate::float::{compute_f_score, OrderValues, EPS};
use crate::memory::{filled, reserve};
use crate::pool::Interrupt;
use crate::stats::window_count;
use crate::{Averaging, ChrfError, Settings};

/// One order's counts, in wide integers.
#[derive(Clone, Debug, Default)]
struct WideOrder {
    hypothesis: BigUint,
    reference: BigUint,
    matching: BigUint,
}

impl OrderValues<f64> for WideOrder {
    fn is_effective(&self) -> bool {
        !self.hypothesis.is_zero() && !self.reference.is_zero()
    }
    fn precision_recall(&self) -> (f64, f64) {
        let ratio = |total: &BigUint| {
            if total.is_zero() {
                EPS
            } else {
                let quotient =
                    BigRational::new_raw(self.matching.clone().into(), total.clone().into());
                quotient.to_f64().unwrap_or(f64::NAN)
            }
        };
        (ratio(&self.hypothesis), ratio(&self.reference))
    }
}

/// Per distinct reference text of `distinct`, every hypothesis scored against the weighted mean
/// bag (weights of any width, one per reference), into `out`.
pub(super) fn aggregate_wide_in_pool(
    distinct: &Distinct<'_>,
    bags: &Bags,
    weights: &[BigUint],
    (settings, interrupt): (&Settings, &Interrupt),
    out: &mut [f64],
) -> Result<(), ChrfError> {
    settings.beta.check_float()?;
    if settings.averaging == Averaging::PerOrderF && !settings.eps_smoothing {
        return Err(ChrfError::InvalidSettings(
            crate::SettingsRule::WideWeightsPerOrderF,
        ));
    }
    let mean = WideBag::new(bags, &distinct.references, weights, settings)?;
    interrupt.check()?;
    let unique_hyps = dedup(&distinct.hypotheses, distinct.texts.len())?;
    let mut scores = filled(unique_hyps.len(), 0.0)?;
    scores
        .par_iter_mut()
        .zip(&unique_hyps)
        .try_for_each(|(score, &hyp)| {
            interrupt.check()?;
            *score = mean.score(hyp as usize, bags, settings)?;
            Ok::<_, ChrfError>(())
        })?;
    let position = position_in(&unique_hyps, distinct.texts.len())?;
    for (score, &h) in out.iter_mut().zip(&distinct.hypotheses) {
        *score = scores[position[h as usize]];
    }
    Ok(())
}

/// The references' n-gram counts summed with their weights, as aggregate.rs's `MeanBag`.
struct WideBag {
    /// Per shared n-gram id.
    counts: Vec<BigUint>,
    /// Per kind, per order: the weighted number of reference n-grams, up to the longest
    /// reference of non-zero weight.
    totals: [Vec<BigUint>; KINDS],
    total_weight: BigUint,
    /// Per distinct text: the weight of the references that are that text.
    own_weight: Vec<BigUint>,
}

impl WideBag {
    fn new(
        bags: &Bags,
        references: &[u32],
        weights: &[BigUint],
        settings: &Settings,
    ) -> Result<Self, ChrfError> {
        let mut counts = filled(bags.id_count(), BigUint::zero())?;
        let mut own_weight = filled(bags.texts.len(), BigUint::zero())?;
        let mut totals: [Vec<BigUint>; KINDS] = Default::default();
        let mut total_weight = BigUint::zero();
        let orders = [settings.char_order(), settings.word_order()];
        for (&text, weight) in references.iter().zip(weights) {
            let text = text as usize;
            total_weight += weight;
            own_weight[text] += weight;
            if weight.is_zero() {
                continue;
            }
            for (id, count) in bags.texts[text].all_counts() {
                counts[id as usize] += weight * count;
            }
            for (kind, totals) in totals.iter_mut().enumerate() {
                let len = bags.lengths[text][kind];
                let kept = orders[kind].min(len);
                if totals.len() < kept {
                    reserve(totals, kept - totals.len())?;
                    totals.resize(kept, BigUint::zero());
                }
                for (n, total) in (1..=kept).zip(totals.iter_mut()) {
                    *total += weight * window_count(len, n);
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

    /// The score of distinct text `hyp` against the bag, as `MeanBag::score` computes it.
    fn score(&self, hyp: usize, bags: &Bags, settings: &Settings) -> Result<f64, ChrfError> {
        let own_weight = &self.own_weight[hyp];
        let orders = [settings.char_order(), settings.word_order()];
        let mut kinds: [Vec<WideOrder>; KINDS] = Default::default();
        for (kind, out) in kinds.iter_mut().enumerate() {
            let len = bags.lengths[hyp][kind];
            let kept = orders[kind].min(len);
            reserve(out, kept)?;
            for n in 1..=kept {
                let reference = self.totals[kind].get(n - 1).cloned().unwrap_or_default();
                let windows = window_count(len, n);
                // sacreBLEU counts no hypothesis n-gram of an order the references lack.
                let counted = !reference.is_zero() || settings.count_hyp_without_ref;
                out.push(WideOrder {
                    hypothesis: if counted {
                        &self.total_weight * windows
                    } else {
                        BigUint::zero()
                    },
                    matching: own_weight * windows,
                    reference,
                });
            }
        }
        let text = &bags.texts[hyp];
        let mut start = 0;
        for &(k, end) in &text.orders {
            let (kind, index) = bags.order_of_start(k);
            let (mut matched, mut counted) = (BigUint::zero(), 0u64);
            for (id, count) in text.counts(start..end) {
                let scaled = &self.total_weight * count;
                matched += scaled.min(self.counts[id as usize].clone());
                counted += u64::from(count);
            }
            // The hypothesis's own n-grams counted as matching so far: `matched` instead.
            let order = &mut kinds[kind][index];
            let own = own_weight * counted;
            if order.matching < own {
                return Err(ChrfError::CrossCheckFailed(
                    "an aggregated match count".into(),
                ));
            }
            order.matching = &order.matching - own + matched;
            start = end;
        }
        let reference_only = WideOrder {
            reference: BigUint::from(1u8),
            ..WideOrder::default()
        };
        let runs =
            kinds
                .iter()
                .zip(&self.totals)
                .zip(orders)
                .flat_map(|((kept, totals), order)| {
                    let reference_orders = totals.len().saturating_sub(kept.len());
                    let zeros = order - kept.len() - reference_orders;
                    kept.iter().map(|counts| (counts.clone(), 1)).chain([
                        (reference_only.clone(), reference_orders),
                        (WideOrder::default(), zeros),
                    ])
                });
        Ok(compute_f_score(runs, settings))
    }
}
