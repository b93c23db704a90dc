//! chrF as exact reduced fractions, with the F-β combination checked through its harmonic form.

use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};

use crate::means::ExactMeans;
use crate::memory::reserve;
use crate::stats::Run;
use crate::{Averaging, ChrfError, Count, OrderCounts, Settings, Statistics};

/// Whether an order counts character or word n-grams.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NgramKind {
    Char,
    Word,
}

/// One order of a score, exactly (spec §1.5).
#[derive(Clone, Debug, PartialEq)]
pub struct OrderComponents {
    pub kind: NgramKind,
    /// The n of the n-grams, from 1.
    pub n: usize,
    pub counts: OrderCounts,
    /// H > 0 and R > 0: the order takes part in the averages.
    pub effective: bool,
    /// M/H, undefined when H = 0.
    pub precision: Option<BigRational>,
    /// M/R, undefined when R = 0.
    pub recall: Option<BigRational>,
    /// F-β of precision and recall, 0 when M = 0, undefined when either is.
    pub f_score: Option<BigRational>,
}

/// A whole score, exactly.
#[derive(Clone, Debug, PartialEq)]
pub struct Components {
    pub orders: Vec<OrderComponents>,
    pub effective_order_count: usize,
    pub average_precision: BigRational,
    pub average_recall: BigRational,
    /// The score on 0..100.
    pub score: BigRational,
    /// True when every non-zero F-β value behind the score was re-derived through the harmonic
    /// form 1/F = (β²/R + 1/P)/(1 + β²) and matched. False when the score is 0: then no F-β
    /// value has P, R > 0, the harmonic form is undefined and no check ran. A mismatch is
    /// never reported as a flag: it is [`ChrfError::CrossCheckFailed`].
    pub cross_checked: bool,
}

/// The exact components of the given statistics.
pub fn components(stats: &Statistics, settings: &Settings) -> Result<Components, ChrfError> {
    settings.check_exact()?;
    if stats.orders().len() != settings.order_count() {
        return Err(ChrfError::OrderCountMismatch {
            expected: settings.order_count(),
            found: stats.orders().len(),
        });
    }
    let mut fbeta = CheckedFBeta {
        beta_squared: settings.beta.squared(),
        checked: false,
    };
    // Megabytes at the longest orders: reserved fallibly.
    let mut orders = Vec::new();
    reserve(&mut orders, stats.orders().len())?;
    for (index, counts) in stats.orders().iter().enumerate() {
        orders.push(order_components(index, *counts, settings, &mut fbeta)?);
    }

    let mut means = ExactMeans::new(settings);
    for order in &orders {
        let precision_recall = order.precision.as_ref().zip(order.recall.as_ref());
        means.add(1, order.f_score.as_ref(), precision_recall);
    }
    let (average_precision, average_recall) = means.precision_recall();
    let fraction = match settings.averaging {
        Averaging::PrecisionRecall => {
            fbeta.apply(&average_precision, &average_recall, "the score")?
        }
        Averaging::PerOrderF => means.f()?,
    };
    Ok(Components {
        effective_order_count: means.effective(),
        orders,
        average_precision,
        average_recall,
        score: fraction * integer(100),
        cross_checked: fbeta.checked,
    })
}

/// The per-order-F score (on 0..100) of orders given as runs of equal orders: the mean of the
/// per-order F-β values over all orders, an order without one counting as 0, as
/// [`components`] computes it for `Averaging::PerOrderF`.
pub(crate) fn per_order_f_score(
    runs: impl IntoIterator<Item = Run>,
    settings: &Settings,
) -> Result<BigRational, ChrfError> {
    let mut fbeta = CheckedFBeta {
        beta_squared: settings.beta.squared(),
        checked: false,
    };
    let mut means = ExactMeans::new(settings);
    for (counts, repeat) in runs {
        if repeat > 0 && counts.hypothesis > 0 && counts.reference > 0 {
            let ratio =
                |total: Count| BigRational::new(BigInt::from(counts.matching), BigInt::from(total));
            let (p, r) = (ratio(counts.hypothesis), ratio(counts.reference));
            means.add(repeat, Some(&fbeta.apply(&p, &r, "a per-order F")?), None);
        } else {
            means.add(repeat, None, None);
        }
    }
    Ok(means.f()? * integer(100))
}

fn order_components(
    index: usize,
    counts: OrderCounts,
    settings: &Settings,
    fbeta: &mut CheckedFBeta<'_>,
) -> Result<OrderComponents, ChrfError> {
    let (kind, n) = if index < settings.char_order() {
        (NgramKind::Char, index + 1)
    } else {
        (NgramKind::Word, index - settings.char_order() + 1)
    };
    let ratio = |total: Count| {
        (total > 0).then(|| BigRational::new(BigInt::from(counts.matching), BigInt::from(total)))
    };
    let precision = ratio(counts.hypothesis);
    let recall = ratio(counts.reference);
    let f_score = match (&precision, &recall) {
        (Some(p), Some(r)) => Some(fbeta.apply(p, r, "a per-order F")?),
        _ => None,
    };
    Ok(OrderComponents {
        kind,
        n,
        counts,
        effective: f_score.is_some(),
        precision,
        recall,
        f_score,
    })
}

/// F-β computed directly and, wherever it is defined, again through the harmonic form.
struct CheckedFBeta<'a> {
    beta_squared: &'a BigRational,
    checked: bool,
}

impl CheckedFBeta<'_> {
    fn apply(
        &mut self,
        p: &BigRational,
        r: &BigRational,
        what: &str,
    ) -> Result<BigRational, ChrfError> {
        let direct = f_beta(p, r, self.beta_squared);
        self.checked |= agrees(&direct, harmonic_f_beta(p, r, self.beta_squared), what)?;
        Ok(direct)
    }
}

/// Whether the harmonic check ran: false when it is undefined, an error when it disagrees.
fn agrees(
    direct: &BigRational,
    harmonic: Option<BigRational>,
    what: &str,
) -> Result<bool, ChrfError> {
    match harmonic {
        None => Ok(false),
        Some(value) if value == *direct => Ok(true),
        Some(_) => Err(ChrfError::CrossCheckFailed(what.to_string())),
    }
}

/// (1 + β²)·P·R / (β²·P + R), and 0 when P = R = 0.
fn f_beta(p: &BigRational, r: &BigRational, beta_squared: &BigRational) -> BigRational {
    let denominator = beta_squared * p + r;
    if denominator.is_zero() {
        return BigRational::zero();
    }
    (BigRational::one() + beta_squared) * p * r / denominator
}

/// F from 1/F = (β²/R + 1/P) / (1 + β²); defined only for P, R > 0.
fn harmonic_f_beta(
    p: &BigRational,
    r: &BigRational,
    beta_squared: &BigRational,
) -> Option<BigRational> {
    if !(p.is_positive() && r.is_positive()) {
        return None;
    }
    let reciprocal = (beta_squared / r + p.recip()) / (BigRational::one() + beta_squared);
    Some(reciprocal.recip())
}

fn integer(value: usize) -> BigRational {
    BigRational::from_integer(BigInt::from(value))
}

/// The value rounded to six decimals, ties to even, from the exact fraction ("25.000000").
pub fn six_decimals(value: &BigRational) -> String {
    let scaled = value.abs() * integer(1_000_000);
    let (quotient, remainder): (BigInt, BigInt) = scaled.numer().div_rem(scaled.denom());
    let twice_remainder = remainder * 2u32;
    let round_up = match twice_remainder.cmp(scaled.denom()) {
        std::cmp::Ordering::Greater => true,
        std::cmp::Ordering::Equal => quotient.is_odd(),
        std::cmp::Ordering::Less => false,
    };
    let micros = if round_up { quotient + 1 } else { quotient };
    let (whole, fraction) = micros.div_rem(&BigInt::from(1_000_000));
    let sign = if value.is_negative() && !micros_is_zero(&whole, &fraction) {
        "-"
    } else {
        ""
    };
    format!("{sign}{whole}.{fraction:0>6}")
}

fn micros_is_zero(whole: &BigInt, fraction: &BigInt) -> bool {
    whole.is_zero() && fraction.is_zero()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::Beta;

    fn ratio(p: i64, q: i64) -> BigRational {
        BigRational::new(p.into(), q.into())
    }

    fn stats(orders: &[(Count, Count, Count)]) -> Statistics {
        Statistics::from_triples(orders)
    }

    fn contract_settings() -> Settings {
        Settings::new(6, 0, Beta::integer(3).unwrap()).unwrap()
    }

    #[test]
    fn the_contract_example() {
        let st = stats(&[
            (2, 2, 1),
            (1, 1, 0),
            (0, 0, 0),
            (0, 0, 0),
            (0, 0, 0),
            (0, 0, 0),
        ]);
        let c = components(&st, &contract_settings()).unwrap();
        assert_eq!(c.orders[0].f_score, Some(ratio(1, 2)));
        assert_eq!(c.orders[1].precision, Some(ratio(0, 1)));
        assert_eq!(c.orders[1].f_score, Some(ratio(0, 1)));
        assert!(c.orders[2..]
            .iter()
            .all(|o| !o.effective && o.f_score.is_none()));
        assert_eq!(c.effective_order_count, 2);
        assert_eq!(c.average_precision, ratio(1, 4));
        assert_eq!(c.average_recall, ratio(1, 4));
        assert_eq!(c.score, ratio(25, 1));
        assert_eq!(six_decimals(&c.score), "25.000000");
        assert!(c.cross_checked);
    }

    #[test]
    fn a_zero_score_reports_that_no_check_ran() {
        let st = stats(&[
            (2, 2, 0),
            (1, 1, 0),
            (0, 0, 0),
            (0, 0, 0),
            (0, 0, 0),
            (0, 0, 0),
        ]);
        let c = components(&st, &contract_settings()).unwrap();
        assert_eq!(c.score, ratio(0, 1));
        assert!(!c.cross_checked);
    }

    #[test]
    fn the_harmonic_form_matches_and_a_mismatch_is_an_error() {
        let beta_squared = ratio(9, 1);
        let (p, r) = (ratio(1, 2), ratio(1, 3));
        let direct = f_beta(&p, &r, &beta_squared);
        let harmonic = harmonic_f_beta(&p, &r, &beta_squared);
        assert_eq!(agrees(&direct, harmonic, "x"), Ok(true));
        assert_eq!(harmonic_f_beta(&ratio(0, 1), &r, &beta_squared), None);
        assert_eq!(agrees(&direct, None, "x"), Ok(false));
        let wrong = Some(&direct + ratio(1, 1_000_000_000));
        assert!(matches!(
            agrees(&direct, wrong, "x"),
            Err(ChrfError::CrossCheckFailed(_))
        ));
    }

    #[test]
    fn beta_zero_gives_f_equal_to_precision_cross_checked() {
        let mut s = Settings::new(3, 0, Beta::integer(0).unwrap()).unwrap();
        // Order 1: P = 1/2, R = 1/3; order 2: P = R = 0; order 3: no reference n-gram.
        let st = stats(&[(4, 6, 2), (3, 5, 0), (2, 0, 0)]);
        let c = components(&st, &s).unwrap();
        assert_eq!(c.orders[0].f_score, Some(ratio(1, 2)));
        assert_eq!(c.orders[1].f_score, Some(ratio(0, 1)));
        assert_eq!(c.orders[2].f_score, None);
        assert_eq!(c.score, &c.average_precision * ratio(100, 1));
        assert_eq!(c.score, ratio(25, 1));
        assert!(c.cross_checked);
        s.averaging = Averaging::PerOrderF;
        assert_eq!(components(&st, &s).unwrap().score, ratio(50, 3));
    }

    #[test]
    fn per_order_f_counts_undefined_orders_as_zero() {
        let mut s = Settings::new(2, 0, Beta::integer(1).unwrap()).unwrap();
        s.averaging = Averaging::PerOrderF;
        let c = components(&stats(&[(2, 2, 1), (0, 0, 0)]), &s).unwrap();
        assert_eq!(c.score, ratio(25, 1));
    }

    #[test]
    fn eps_smoothing_has_no_exact_form() {
        let mut s = contract_settings();
        s.eps_smoothing = true;
        assert_eq!(
            components(&Statistics::zeros(6).unwrap(), &s),
            Err(ChrfError::InvalidSettings(
                crate::SettingsRule::EpsSmoothingHasNoExactForm
            ))
        );
    }

    #[test]
    fn six_decimals_round_half_to_even() {
        assert_eq!(six_decimals(&ratio(1, 8_000_000)), "0.000000"); // 0.125e-6 -> down
        assert_eq!(six_decimals(&ratio(1, 2_000_000)), "0.000000"); // tie, 0 is even
        assert_eq!(six_decimals(&ratio(3, 2_000_000)), "0.000002"); // tie, 1 -> 2
        assert_eq!(six_decimals(&ratio(5, 2_000_000)), "0.000002"); // tie, 2 stays
        assert_eq!(six_decimals(&ratio(200, 3)), "66.666667");
        assert_eq!(six_decimals(&ratio(100, 1)), "100.000000");
        assert_eq!(six_decimals(&ratio(-1, 3)), "-0.333333");
        assert_eq!(six_decimals(&ratio(-1, 3_000_000)), "0.000000");
    }
}
