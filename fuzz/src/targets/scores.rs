//! `components`, `float_score`, `sacrebleu_score` and `six_decimals` on any statistics: counts
//! from 0 to `u128::MAX`, consistent (M ≤ H, M ≤ R) or not, of the right length or not.

use arbitrary::Arbitrary;
use chrf_core::{
    components, float_score, sacrebleu_score, six_decimals, Averaging, ChrfError, Count, NgramKind,
    OrderCounts, SettingsRule, Statistics,
};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{Signed, ToPrimitive, Zero};

use crate::input::SettingsInput;
use crate::oracle;

#[derive(Arbitrary, Debug)]
pub struct Input {
    pub settings: SettingsInput,
    pub orders: Vec<(CountInput, CountInput, CountInput)>,
    /// Keep the statistics' length as drawn instead of fitting it to the settings.
    pub any_length: bool,
    /// Clip the matches to the totals, as real statistics are.
    pub consistent: bool,
}

/// A count: small, near a float boundary, or anything.
#[derive(Arbitrary, Clone, Copy, Debug)]
pub enum CountInput {
    Small(u8),
    NearPowerOfTwo(u8, i8),
    Any(u128),
}

impl CountInput {
    fn value(self) -> Count {
        match self {
            Self::Small(n) => n.into(),
            Self::NearPowerOfTwo(exponent, offset) => {
                let power: Count = 1 << (exponent % 128);
                power.wrapping_add_signed(offset.into())
            }
            Self::Any(n) => n,
        }
    }
}

/// Relative agreement expected of the float score with the exact one: each of the few float
/// operations per order rounds once, far below this.
const FLOAT_TOLERANCE: f64 = 1e-9;

pub fn check(input: &Input) {
    let Some(settings) = input.settings.build() else {
        return;
    };
    let mut orders: Vec<OrderCounts> = input
        .orders
        .iter()
        .map(|&(h, r, m)| {
            let (hypothesis, reference, matching) = (h.value(), r.value(), m.value());
            let matching = if input.consistent {
                matching.min(hypothesis).min(reference)
            } else {
                matching
            };
            OrderCounts {
                hypothesis,
                reference,
                matching,
            }
        })
        .collect();
    if !input.any_length {
        orders.resize(settings.order_count(), OrderCounts::default());
    }
    let stats = Statistics::from_orders(orders);
    let consistent = stats
        .orders()
        .iter()
        .all(|o| o.matching <= o.hypothesis && o.matching <= o.reference);

    // The float formula takes any counts; on consistent ones, with β's floats from one β, it
    // lies in 0..=100.
    let raw = sacrebleu_score(stats.orders(), &settings);
    if consistent && input.settings.beta.is_consistent() && !stats.orders().is_empty() {
        assert!((0.0..=100.0 + 1e-9).contains(&raw), "{raw}");
    }

    let exact = components(&stats, &settings);
    let float = float_score(&stats, &settings);
    if settings.eps_smoothing {
        let rule = SettingsRule::EpsSmoothingHasNoExactForm;
        assert_eq!(exact, Err(ChrfError::InvalidSettings(rule)));
    }
    if stats.orders().len() != settings.order_count() {
        let refused = matches!(exact, Err(ChrfError::OrderCountMismatch { .. }));
        assert!(settings.eps_smoothing || refused);
        // A float score of the wrong layout is refused for that reason, if at all.
        if let Err(error) = float {
            assert!(
                matches!(error, ChrfError::OrderCountMismatch { .. }),
                "{error:?}"
            );
        }
        return;
    }
    if settings.eps_smoothing {
        assert!(oracle::same_float(float.expect("eps"), raw));
        return;
    }
    let exact = exact.unwrap_or_else(|e| panic!("{e:?} for {stats:?}"));
    check_components(&exact, &stats, &settings.averaging, settings.char_order());
    if consistent {
        assert!(!exact.score.is_negative() && exact.score <= BigRational::from_integer(100.into()));
    }

    let float = float.expect("float score");
    if settings.averaging == Averaging::PrecisionRecall {
        assert!(oracle::same_float(float, raw), "{float} != {raw}");
    }
    // (Inconsistent counts give precisions far above 1, whose float products may overflow.)
    if consistent && input.settings.beta.is_consistent() {
        let exact_float = exact.score.to_f64().expect("a finite score");
        let tolerance = FLOAT_TOLERANCE * exact_float.abs().max(1.0);
        assert!(
            (float - exact_float).abs() <= tolerance,
            "float {float} vs exact {exact_float} ({}) for {stats:?}",
            exact.score
        );
    }
}

fn check_components(
    c: &chrf_core::Components,
    stats: &Statistics,
    averaging: &Averaging,
    char_order: usize,
) {
    assert_eq!(c.orders.len(), stats.orders().len());
    for (i, (order, counts)) in c.orders.iter().zip(stats.orders()).enumerate() {
        let (kind, n) = if i < char_order {
            (NgramKind::Char, i + 1)
        } else {
            (NgramKind::Word, i + 1 - char_order)
        };
        assert_eq!((order.kind, order.n, order.counts), (kind, n, *counts));
        let ratio = |total: Count| {
            (total > 0).then(|| BigRational::new(counts.matching.into(), total.into()))
        };
        assert_eq!(order.precision, ratio(counts.hypothesis));
        assert_eq!(order.recall, ratio(counts.reference));
        assert_eq!(
            order.effective,
            counts.hypothesis > 0 && counts.reference > 0
        );
        assert_eq!(order.f_score.is_some(), order.effective);
        if counts.matching == 0 && order.effective {
            assert_eq!(order.f_score, Some(BigRational::zero()));
        }
    }
    let effective = c.orders.iter().filter(|o| o.effective).count();
    assert_eq!(c.effective_order_count, effective);
    if *averaging == Averaging::PrecisionRecall && effective == 0 {
        assert!(c.score.is_zero());
    }
    // A positive score rests on positive precision and recall somewhere: the check ran.
    if c.score.is_positive() {
        assert!(c.cross_checked, "{c:?}");
    }
    check_six_decimals(&c.score);
}

/// The displayed score is the exact one rounded to six decimals, ties to even.
fn check_six_decimals(score: &BigRational) {
    let text = six_decimals(score);
    let (whole, fraction) = text
        .trim_start_matches('-')
        .split_once('.')
        .expect("a decimal point");
    assert_eq!(fraction.len(), 6, "{text}");
    let micros: BigInt = format!("{whole}{fraction}").parse().expect("digits");
    let micros = if text.starts_with('-') {
        -micros
    } else {
        micros
    };
    let shown = BigRational::new(micros, 1_000_000.into());
    let half_micro = BigRational::new(1.into(), 2_000_000.into());
    let error = (&shown - score).abs();
    assert!(error <= half_micro, "{text} for {score}");
    if error == half_micro {
        // A tie: the last digit is even.
        let last = fraction.as_bytes()[5] - b'0';
        assert_eq!(last % 2, 0, "{text} for {score}");
    }
}
