//! What a score depends on, validated once.

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed, ToPrimitive, Zero};

use crate::error::SettingsRule;
use crate::ChrfError;

/// How per-order values become one score (spec §1.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Averaging {
    /// sacreBLEU 2.x: F-β of the mean precision and mean recall over the effective orders.
    PrecisionRecall,
    /// Popović's chrF++.py: the mean of the per-order F-β values over all orders.
    PerOrderF,
}

/// β, held both exactly and as the two floats sacreBLEU's arithmetic uses.
#[derive(Clone, Debug, PartialEq)]
pub struct Beta {
    squared: BigRational,
    factor: f64,
    one_plus_factor: f64,
    /// β was a Python `Fraction`: in sacreBLEU's bootstrap, `Fraction` meeting a NumPy float32
    /// computes in double precision, where an int or a float meets it in float32.
    fraction: bool,
}

impl Beta {
    /// β from its exact square and the floats Python gets for `beta ** 2` and `1 + beta ** 2`.
    ///
    /// The floats are taken from the caller because for a float β Python computes them with
    /// `pow()`, which need not round like `β * β`; for an int or a fraction they are the exact
    /// values rounded to nearest, as [`Beta::exact`] computes them. β may be 0 (chrF0, which
    /// sacreBLEU computes: F = precision wherever the recall is defined); β² may round to 0.0
    /// (a tiny β: sacreBLEU still scores, with F = precision) or to +inf (a huge β: only the
    /// exact entry points can score it, see [`Beta::check_float`]).
    pub fn new(squared: BigRational, factor: f64, one_plus_factor: f64) -> Result<Self, ChrfError> {
        if squared.is_negative() {
            return Err(ChrfError::InvalidSettings(
                SettingsRule::BetaSquaredNegative,
            ));
        }
        if factor.is_nan() || factor < 0.0 {
            return Err(ChrfError::InvalidSettings(SettingsRule::BetaFactorInvalid));
        }
        // 1 + β² rounds to at least 1 and at least β²: anything else is not a β at all, and
        // would make every sentence score negative (so no reference could ever win).
        if !(one_plus_factor >= 1.0 && one_plus_factor >= factor) {
            return Err(ChrfError::InvalidSettings(
                SettingsRule::OnePlusFactorInvalid,
            ));
        }
        Ok(Self {
            squared,
            factor,
            one_plus_factor,
            fraction: false,
        })
    }

    /// β given as `numerator / denominator` (of any sign), with the floats of [`Beta::new`]: the
    /// binding's form of it, two integers. A zero denominator or a negative ratio is refused.
    pub fn from_ratio(
        numerator: BigInt,
        denominator: BigInt,
        factor: f64,
        one_plus_factor: f64,
    ) -> Result<Self, ChrfError> {
        if denominator.is_zero() {
            return Err(ChrfError::InvalidSettings(
                SettingsRule::BetaDenominatorZero,
            ));
        }
        let beta = BigRational::new(numerator, denominator);
        if beta.is_negative() {
            return Err(ChrfError::InvalidSettings(SettingsRule::BetaNegative));
        }
        Self::new(&beta * &beta, factor, one_plus_factor)
    }

    /// The same β, marked as given as a Python `Fraction` (see the `fraction` field).
    pub fn given_as_fraction(mut self) -> Self {
        self.fraction = true;
        self
    }

    /// β as an exact rational of at least 0; the floats are its square (plus one) rounded to
    /// nearest. A negative β is refused: its square would pass for the positive one's.
    pub fn exact(beta: BigRational) -> Result<Self, ChrfError> {
        if beta.is_negative() {
            return Err(ChrfError::InvalidSettings(SettingsRule::BetaNegative));
        }
        let squared = &beta * &beta;
        let factor = squared.to_f64().unwrap_or(f64::INFINITY);
        let one_plus_factor = (&squared + BigRational::one())
            .to_f64()
            .unwrap_or(f64::INFINITY);
        Self::new(squared, factor, one_plus_factor)
    }

    /// An integer β, the common case (sacreBLEU's default is 2).
    pub fn integer(beta: u32) -> Result<Self, ChrfError> {
        Self::exact(BigRational::from_integer(BigInt::from(beta)))
    }

    /// β² exactly.
    pub fn squared(&self) -> &BigRational {
        &self.squared
    }

    /// β² as the float sacreBLEU multiplies by.
    pub fn factor(&self) -> f64 {
        self.factor
    }

    /// 1 + β² as the float sacreBLEU multiplies by.
    pub fn one_plus_factor(&self) -> f64 {
        self.one_plus_factor
    }

    /// Whether β was given as a Python `Fraction`.
    pub fn is_fraction(&self) -> bool {
        self.fraction
    }

    /// Refuses a β whose square is too large for a float: sacreBLEU's float formula, hence every
    /// float score and the choice among several references, cannot be computed with it.
    pub fn check_float(&self) -> Result<(), ChrfError> {
        if self.one_plus_factor.is_finite() {
            Ok(())
        } else {
            Err(ChrfError::InvalidSettings(
                SettingsRule::BetaTooLargeForFloat,
            ))
        }
    }
}

/// Every setting that changes a chrF number, except lowercasing.
///
/// Lowercasing is left to the caller on purpose: sacreBLEU uses Python's `str.lower()`, whose
/// Unicode tables are those of the running Python, not Rust's, so the binding lowercases there.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    char_order: usize,
    word_order: usize,
    /// β: weight of recall against precision.
    pub beta: Beta,
    /// Keep whitespace in character n-grams (sacreBLEU's `whitespace=True`).
    pub include_whitespace: bool,
    pub averaging: Averaging,
    /// sacreBLEU's `eps_smoothing=True`: a float-only mode (spec §1.7).
    pub eps_smoothing: bool,
    /// Count hypothesis n-grams of an order even where the reference has none of that order.
    /// `false` is sacreBLEU's rule (spec §1.4); `true` is the JSON contract's.
    pub count_hyp_without_ref: bool,
}

impl Settings {
    /// Settings with sacreBLEU's defaults for everything but the orders and β.
    pub fn new(char_order: usize, word_order: usize, beta: Beta) -> Result<Self, ChrfError> {
        if char_order == 0 && word_order == 0 {
            return Err(ChrfError::InvalidSettings(SettingsRule::OrdersBothZero));
        }
        if char_order.checked_add(word_order).is_none() {
            return Err(ChrfError::InvalidSettings(SettingsRule::OrderCountOverflow));
        }
        Ok(Self {
            char_order,
            word_order,
            beta,
            include_whitespace: false,
            averaging: Averaging::PrecisionRecall,
            eps_smoothing: false,
            count_hyp_without_ref: false,
        })
    }

    pub fn char_order(&self) -> usize {
        self.char_order
    }

    pub fn word_order(&self) -> usize {
        self.word_order
    }

    /// Number of per-order statistics: character orders, then word orders.
    pub fn order_count(&self) -> usize {
        self.char_order + self.word_order
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn each_check_raises_its_rule() {
        let two = Beta::integer(2).unwrap();
        let refused = |result: Result<Settings, ChrfError>| result.unwrap_err();
        assert_eq!(
            refused(Settings::new(0, 0, two.clone())),
            ChrfError::InvalidSettings(SettingsRule::OrdersBothZero)
        );
        assert_eq!(
            refused(Settings::new(usize::MAX, 1, two)),
            ChrfError::InvalidSettings(SettingsRule::OrderCountOverflow)
        );
        let minus_half = BigRational::new((-1).into(), 2.into());
        let one = BigRational::one();
        let cases = [
            (Beta::exact(minus_half.clone()), SettingsRule::BetaNegative),
            (
                Beta::new(minus_half, 0.25, 1.25),
                SettingsRule::BetaSquaredNegative,
            ),
            (
                Beta::new(one.clone(), f64::NAN, 2.0),
                SettingsRule::BetaFactorInvalid,
            ),
            (
                Beta::new(one.clone(), 1.0, 0.5),
                SettingsRule::OnePlusFactorInvalid,
            ),
        ];
        let ratio = |n: i32, d: i32| Beta::from_ratio(n.into(), d.into(), 0.25, 1.25);
        let rule_of = |n, d| ratio(n, d).unwrap_err();
        assert_eq!(
            rule_of(1, 0),
            ChrfError::InvalidSettings(SettingsRule::BetaDenominatorZero)
        );
        assert_eq!(
            rule_of(-1, 2),
            ChrfError::InvalidSettings(SettingsRule::BetaNegative)
        );
        assert_eq!(
            rule_of(1, -2),
            ChrfError::InvalidSettings(SettingsRule::BetaNegative)
        );
        let quarter = BigRational::new(1.into(), 4.into());
        assert_eq!(ratio(-1, -2).unwrap().squared(), &quarter);
        for (result, rule) in cases {
            assert_eq!(result.unwrap_err(), ChrfError::InvalidSettings(rule));
        }
        let huge = Beta::new(one, f64::INFINITY, f64::INFINITY).unwrap();
        assert_eq!(
            huge.check_float().unwrap_err(),
            ChrfError::InvalidSettings(SettingsRule::BetaTooLargeForFloat)
        );
    }

    #[test]
    fn orders_whose_sum_overflows_are_refused() {
        // Found by fuzzing: order_count() overflowed (a panic in debug, 0 in release).
        let beta = Beta::integer(2).unwrap();
        assert!(Settings::new(usize::MAX, 1, beta.clone()).is_err());
        assert!(Settings::new(usize::MAX - 1, 1, beta).is_ok());
    }

    #[test]
    fn beta_zero_is_precision_only_and_a_negative_beta_is_refused() {
        let zero = Beta::integer(0).unwrap();
        assert_eq!((zero.factor(), zero.one_plus_factor()), (0.0, 1.0));
        assert!(zero.squared().is_zero());
        let minus_half = BigRational::new((-1).into(), 2.into());
        assert!(Beta::exact(minus_half.clone()).is_err());
        assert!(Beta::new(minus_half, 0.25, 1.25).is_err());
    }

    #[test]
    fn a_one_plus_factor_no_beta_has_is_refused() {
        // Found by fuzzing: 1 + β² = -1 made every sentence score negative, so with two
        // references none won and the segment counted nothing.
        let one = BigRational::one();
        assert!(Beta::new(one.clone(), 1.0, -1.0).is_err());
        assert!(Beta::new(one.clone(), 4.0, 2.0).is_err());
        assert!(Beta::new(one, 1.0, 2.0).is_ok());
    }
}
