//! Reference aggregation with weights past 64 bits: model probabilities tens of nats apart,
//! whose smallest integers in the same proportions are hundreds of bits wide. aggregate.rs's
//! mean bag counts them in wide integers: the same counts, exact, and each order's precision
//! and recall their exact ratios rounded once, as Python's int division rounds them.

use num_bigint::BigUint;
use num_rational::BigRational;
use num_traits::{CheckedSub, ToPrimitive, Zero};

use super::aggregate::BagCount;
use crate::float::{compute_f_score, OrderValues, EPS};
use crate::{Averaging, ChrfError, Count, Settings};

/// One order's counts, in wide integers.
#[derive(Clone, Debug, Default)]
pub(super) struct WideOrder {
    hypothesis: BigUint,
    reference: BigUint,
    matching: BigUint,
}

impl OrderValues<f64> for WideOrder {
    fn is_effective(&self) -> bool {
        !Zero::is_zero(&self.hypothesis) && !Zero::is_zero(&self.reference)
    }
    fn precision_recall(&self) -> (f64, f64) {
        let ratio = |total: &BigUint| {
            if Zero::is_zero(total) {
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

/// Weights of any width: counts that never overflow, each order's ratios rounded once.
impl BagCount for BigUint {
    type Weight = BigUint;
    type Order = WideOrder;

    fn of_weight(weight: &BigUint) -> Self {
        weight.clone()
    }
    fn of_count(count: Count) -> Self {
        BigUint::from(count)
    }
    fn is_zero(&self) -> bool {
        Zero::is_zero(self)
    }
    fn add(&mut self, value: &Self) -> Result<(), ChrfError> {
        *self += value;
        Ok(())
    }
    fn times(&self, count: Count) -> Result<Self, ChrfError> {
        Ok(self * count)
    }
    fn minus(&self, value: &Self) -> Option<Self> {
        self.checked_sub(value)
    }
    fn order(hypothesis: Self, reference: Self, matching: Self) -> WideOrder {
        WideOrder {
            hypothesis,
            reference,
            matching,
        }
    }
    fn matching(order: &mut WideOrder) -> &mut Self {
        &mut order.matching
    }
    fn check(settings: &Settings) -> Result<(), ChrfError> {
        settings.beta.check_float()?;
        if settings.averaging == Averaging::PerOrderF && !settings.eps_smoothing {
            return Err(ChrfError::InvalidSettings(
                crate::SettingsRule::WideWeightsPerOrderF,
            ));
        }
        Ok(())
    }
    fn score(
        runs: impl Iterator<Item = (WideOrder, usize)>,
        settings: &Settings,
    ) -> Result<f64, ChrfError> {
        Ok(compute_f_score(runs, settings))
    }
}
