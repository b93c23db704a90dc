//! sacreBLEU 2.6's floating-point chrF, replayed operation for operation.
//!
//! `CHRF._compute_f_score` is a sequence of IEEE-754 double operations, each correctly rounded,
//! and Rust's `f64` operations are the same operations (Rust never fuses a multiply-add on its
//! own). Doing them in the same order on the same inputs therefore gives the same bits.

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::ToPrimitive;

use crate::{components, Averaging, ChrfError, Count, OrderCounts, Settings, Statistics};

/// sacreBLEU's stand-in for an undefined precision, recall or F.
const EPS: f64 = 1e-16;

/// The largest integer up to which every integer converts to `f64` exactly.
const EXACT_INT_LIMIT: Count = 1 << f64::MANTISSA_DIGITS;

/// The float score of statistics on 0..100: sacreBLEU's arithmetic, bit for bit; for
/// `per_order_f` averaging, which sacreBLEU does not have, the exact score rounded once.
pub fn float_score(stats: &Statistics, settings: &Settings) -> Result<f64, ChrfError> {
    float_score_of_orders(stats.orders(), settings)
}

/// [`float_score`] of per-order counts.
pub(crate) fn float_score_of_orders(
    orders: &[OrderCounts],
    settings: &Settings,
) -> Result<f64, ChrfError> {
    if settings.averaging == Averaging::PerOrderF && !settings.eps_smoothing {
        let stats = Statistics::from_orders(orders.to_vec());
        return Ok(rational_to_f64(&components(&stats, settings)?.score));
    }
    Ok(sacrebleu_score(orders, settings))
}

/// sacreBLEU's score (0..100) of the given statistics: `CHRF._compute_f_score`.
///
/// Also what sacreBLEU compares to pick the best of several references for a segment.
pub fn sacrebleu_score(orders: &[OrderCounts], settings: &Settings) -> f64 {
    let factor = settings.beta.factor();
    let one_plus_factor = settings.beta.one_plus_factor();
    let mut eps_score = 0.0;
    let mut effective_orders = 0u64;
    let (mut avg_prec, mut avg_rec) = (0.0, 0.0);

    for counts in orders {
        let (prec, rec) = precision_recall(counts);
        let denom = factor * prec + rec;
        eps_score += if denom > 0.0 {
            one_plus_factor * prec * rec / denom
        } else {
            EPS
        };
        if counts.hypothesis > 0 && counts.reference > 0 {
            avg_prec += prec;
            avg_rec += rec;
            effective_orders += 1;
        }
    }

    if settings.eps_smoothing {
        return 100.0 * eps_score / orders.len() as f64;
    }
    if effective_orders > 0 {
        avg_prec /= effective_orders as f64;
        avg_rec /= effective_orders as f64;
    }
    // Python's `if avg_prec + avg_rec:` is true for NaN as well, hence `!=` rather than `>`.
    if avg_prec + avg_rec != 0.0 {
        let mut score = one_plus_factor * avg_prec * avg_rec;
        score /= factor * avg_prec + avg_rec;
        100.0 * score
    } else {
        0.0
    }
}

fn precision_recall(counts: &OrderCounts) -> (f64, f64) {
    let ratio = |total: Count| {
        if total > 0 {
            true_division(counts.matching, total)
        } else {
            EPS
        }
    };
    (ratio(counts.hypothesis), ratio(counts.reference))
}

/// Python's `a / b` on ints: the exact quotient rounded to the nearest double.
pub(crate) fn true_division(a: Count, b: Count) -> f64 {
    if a <= EXACT_INT_LIMIT && b <= EXACT_INT_LIMIT {
        // Both operands are exact, so the one division rounds once, as Python does. (Through
        // u64, whose conversion is one instruction, where u128's is a library call.)
        (a as u64) as f64 / (b as u64) as f64
    } else {
        rational_to_f64(&BigRational::new_raw(BigInt::from(a), BigInt::from(b)))
    }
}

/// The nearest double to an exact rational (num-rational rounds correctly, as CPython does).
fn rational_to_f64(value: &BigRational) -> f64 {
    value.to_f64().unwrap_or(f64::NAN)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::Beta;

    fn settings(char_order: usize, word_order: usize) -> Settings {
        Settings::new(char_order, word_order, Beta::integer(2).unwrap()).unwrap()
    }

    fn stats(orders: &[(Count, Count, Count)]) -> Statistics {
        Statistics::from_triples(orders)
    }

    #[test]
    fn worked_example_is_25_with_beta_3() {
        let mut s = settings(6, 0);
        s.beta = Beta::integer(3).unwrap();
        let st = stats(&[
            (2, 2, 1),
            (1, 1, 0),
            (0, 0, 0),
            (0, 0, 0),
            (0, 0, 0),
            (0, 0, 0),
        ]);
        assert_eq!(sacrebleu_score(st.orders(), &s), 25.0);
    }

    #[test]
    fn no_effective_order_scores_zero() {
        assert_eq!(
            sacrebleu_score(stats(&[(0, 3, 0)]).orders(), &settings(1, 0)),
            0.0
        );
    }

    #[test]
    fn eps_smoothing_averages_per_order_f() {
        let mut s = settings(2, 0);
        s.eps_smoothing = true;
        // Order 1: P = R = 1/2, F = 1/2; order 2 undefined on both sides: F = eps.
        let got = sacrebleu_score(stats(&[(2, 2, 1), (0, 0, 0)]).orders(), &s);
        assert_eq!(got, 100.0 * (0.5 + EPS) / 2.0);
    }

    #[test]
    fn huge_counts_divide_like_python() {
        // Values printed by CPython 3.11 for the same int divisions.
        assert_eq!(true_division(1, 3), 0.3333333333333333);
        assert_eq!(true_division(u64::MAX.into(), 3), 6.148914691236517e18);
        assert_eq!(true_division(u128::MAX, 7), 4.861176670299121e37);
        assert_eq!(true_division((1 << 53) + 1, (1 << 54) + 3), 0.5);
        assert_eq!(true_division(u128::MAX - 1, u128::MAX), 1.0);
        // Pairs where converting each operand to f64 first gives a different last bit.
        let cases = [
            (14046286627791492475, 8720394264201255075, 1.610739859028388),
            (
                9008374091908329100,
                16487797971023415208,
                0.5463661131547192,
            ),
            (5864550466695983929, 420777477969067740, 13.937415317478326),
        ];
        for (a, b, python) in cases {
            assert_eq!(true_division(a, b), python);
            assert_ne!(a as f64 / b as f64, python);
        }
    }
}
