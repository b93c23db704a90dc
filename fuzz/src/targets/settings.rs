//! `Beta` and `Settings` construction: refused exactly where documented, and β's floats are its
//! exact square rounded to nearest.

use arbitrary::Arbitrary;
use chrf_core::{Beta, Settings};
use num_traits::{Signed, Zero};

use crate::input::{ratio, BetaInput};

#[derive(Arbitrary, Debug)]
pub struct Input {
    pub beta: BetaInput,
    pub small_ratio: (u16, u16),
    pub char_order: usize,
    pub word_order: usize,
}

/// Orders past this make `char_order + word_order` overflow `usize` in `Settings::order_count`
/// (a finding of this target, see fuzz/README.md); kept out until the core bounds its orders.
const MAX_SETTINGS_ORDER: usize = usize::MAX / 2;

pub fn check(input: &Input) {
    match input.beta.build() {
        Ok(beta) => {
            assert!(!beta.squared().is_negative());
            // β² may round to 0.0 (sacreBLEU still scores) or to +inf (exact scores only).
            assert!(beta.factor() >= 0.0);
            assert!(beta.one_plus_factor() >= 1.0 && beta.one_plus_factor() >= beta.factor());
            assert_eq!(
                beta.check_float().is_ok(),
                beta.one_plus_factor().is_finite()
            );
            check_settings(input, beta);
        }
        Err(error) => {
            assert!(!error.to_string().is_empty());
            // β = 0 is chrF0 (precision only); only a negative β (or β²) is refused.
            assert!(!matches!(input.beta, BetaInput::Integer(_)));
            if let BetaInput::Ratio(p, _) = input.beta {
                assert!(p < 0);
            }
            if let BetaInput::Scaled(mantissa, _) = input.beta {
                assert!(mantissa < 0);
            }
        }
    }
    // β = p/q with p², q² below 2**53: the float β² is the correctly rounded p²/q², which is
    // what IEEE division of the two exact squares gives.
    let (p, q) = (
        u64::from(input.small_ratio.0),
        u64::from(input.small_ratio.1).max(1),
    );
    if p > 0 && p * p < 1 << 53 && q * q < 1 << 53 {
        let beta = Beta::exact(ratio(p as i64, q)).expect("a positive β");
        assert_eq!(beta.factor(), (p * p) as f64 / (q * q) as f64, "{p}/{q}");
        let plus_one = (p * p + q * q) as f64 / (q * q) as f64;
        if p * p + q * q < 1 << 53 {
            assert_eq!(beta.one_plus_factor(), plus_one, "{p}/{q}");
        }
    }
}

fn check_settings(input: &Input, beta: Beta) {
    let char_order = input.char_order % MAX_SETTINGS_ORDER;
    let word_order = input.word_order % MAX_SETTINGS_ORDER;
    match Settings::new(char_order, word_order, beta.clone()) {
        Ok(settings) => {
            assert!(char_order > 0 || word_order > 0);
            assert_eq!(settings.char_order(), char_order);
            assert_eq!(settings.word_order(), word_order);
            assert_eq!(settings.order_count(), char_order + word_order);
            assert_eq!(settings.beta, beta);
            assert!(!settings.eps_smoothing && !settings.include_whitespace);
        }
        Err(_) => assert!(char_order.is_zero() && word_order.is_zero()),
    }
}
