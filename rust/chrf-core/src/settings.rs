//! What a score depends on, validated once.

use std::fmt;

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed, ToPrimitive, Zero};

/// How per-order values become one score (spec §1.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Averaging {
    /// sacreBLEU 2.x: F-β of the mean precision and mean recall over the effective orders.
    PrecisionRecall,
    /// Popović's chrF++.py: the mean of the per-order F-β values over all orders.
    PerOrderF,
}

/// A rule of the settings that a value broke. Each rule is whole here: its message, shown by
/// every entry point, its stable machine-readable reason code and the argument it names (the
/// Python error's `reason` and `argument`), so that the binding raises every rule alike.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SettingsRule {
    /// β given as a rational below 0.
    BetaNegative,
    /// β given as a ratio of denominator 0.
    BetaDenominatorZero,
    /// β² given below 0.
    BetaSquaredNegative,
    /// β² as a float is NaN or below 0.
    BetaFactorInvalid,
    /// 1 + β² as a float is below 1 or below β².
    OnePlusFactorInvalid,
    /// β² overflows a float: no float score can be computed with it.
    BetaTooLargeForFloat,
    /// Neither character nor word n-grams.
    OrdersBothZero,
    /// More orders than a `usize` counts.
    OrderCountOverflow,
    /// Eps smoothing asked of an exact entry point: it is defined on floats only.
    EpsSmoothingHasNoExactForm,
    /// Reference aggregation's weights are all 0.
    WeightsAllZero,
    /// Reference aggregation with per-order F averaging and weights of 64 bits or more.
    WideWeightsPerOrderF,
}

impl SettingsRule {
    /// The rule's message.
    pub fn message(self) -> &'static str {
        match self {
            Self::BetaNegative => "beta must not be negative",
            Self::BetaDenominatorZero => "beta's denominator must not be 0",
            Self::BetaSquaredNegative => "beta ** 2 must not be negative",
            Self::BetaFactorInvalid => {
                "beta ** 2 must be a float of at least 0 (or +inf) for the float score"
            }
            Self::OnePlusFactorInvalid => "1 + beta ** 2 must be at least 1 and at least beta ** 2",
            Self::BetaTooLargeForFloat => {
                "beta ** 2 is too large for a float score (exact components take any beta)"
            }
            Self::OrdersBothZero => "char_order and word_order must not both be 0",
            Self::OrderCountOverflow => "char_order + word_order must fit in a usize",
            Self::EpsSmoothingHasNoExactForm => {
                "eps_smoothing is a float-only mode with no exact fraction; use the float score"
            }
            Self::WeightsAllZero => "weights must not all be zero",
            Self::WideWeightsPerOrderF => {
                "per_order_f averaging takes reference aggregation's weights only as integers \
                 below 2**64 in the same proportions"
            }
        }
    }

    /// The rule's stable reason code.
    pub fn reason(self) -> &'static str {
        match self {
            Self::BetaNegative | Self::BetaSquaredNegative => "negative",
            Self::OrdersBothZero => "orders_both_zero",
            Self::EpsSmoothingHasNoExactForm => "no_exact_form",
            Self::WeightsAllZero => "all_zero",
            Self::BetaDenominatorZero
            | Self::BetaFactorInvalid
            | Self::OnePlusFactorInvalid
            | Self::BetaTooLargeForFloat
            | Self::OrderCountOverflow
            | Self::WideWeightsPerOrderF => "out_of_range",
        }
    }

    /// The argument whose value broke the rule; `None` for a rule across two (the orders').
    pub fn argument(self) -> Option<&'static str> {
        match self {
            Self::BetaNegative
            | Self::BetaDenominatorZero
            | Self::BetaSquaredNegative
            | Self::BetaFactorInvalid
            | Self::OnePlusFactorInvalid
            | Self::BetaTooLargeForFloat => Some("beta"),
            Self::OrdersBothZero | Self::OrderCountOverflow => None,
            Self::EpsSmoothingHasNoExactForm => Some("eps_smoothing"),
            Self::WeightsAllZero | Self::WideWeightsPerOrderF => Some("weights"),
        }
    }

    /// Whether the value is data scored with the settings (reference aggregation's weights)
    /// rather than a setting: the binding raises it as an input error.
    pub fn refuses_input(self) -> bool {
        matches!(self, Self::WeightsAllZero | Self::WideWeightsPerOrderF)
    }
}

impl fmt::Display for SettingsRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message())
    }
}

impl std::error::Error for SettingsRule {}

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
    pub fn new(
        squared: BigRational,
        factor: f64,
        one_plus_factor: f64,
    ) -> Result<Self, SettingsRule> {
        if squared.is_negative() {
            return Err(SettingsRule::BetaSquaredNegative);
        }
        if factor.is_nan() || factor < 0.0 {
            return Err(SettingsRule::BetaFactorInvalid);
        }
        // 1 + β² rounds to at least 1 and at least β²: anything else is not a β at all, and
        // would make every sentence score negative (so no reference could ever win).
        if !(one_plus_factor >= 1.0 && one_plus_factor >= factor) {
            return Err(SettingsRule::OnePlusFactorInvalid);
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
    ) -> Result<Self, SettingsRule> {
        if denominator.is_zero() {
            return Err(SettingsRule::BetaDenominatorZero);
        }
        let beta = BigRational::new(numerator, denominator);
        if beta.is_negative() {
            return Err(SettingsRule::BetaNegative);
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
    pub fn exact(beta: BigRational) -> Result<Self, SettingsRule> {
        if beta.is_negative() {
            return Err(SettingsRule::BetaNegative);
        }
        let squared = &beta * &beta;
        let factor = squared.to_f64().unwrap_or(f64::INFINITY);
        let one_plus_factor = (&squared + BigRational::one())
            .to_f64()
            .unwrap_or(f64::INFINITY);
        Self::new(squared, factor, one_plus_factor)
    }

    /// An integer β, the common case (sacreBLEU's default is 2).
    pub fn integer(beta: u32) -> Result<Self, SettingsRule> {
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
    pub fn check_float(&self) -> Result<(), SettingsRule> {
        if self.one_plus_factor.is_finite() {
            Ok(())
        } else {
            Err(SettingsRule::BetaTooLargeForFloat)
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
    pub fn new(char_order: usize, word_order: usize, beta: Beta) -> Result<Self, SettingsRule> {
        if char_order == 0 && word_order == 0 {
            return Err(SettingsRule::OrdersBothZero);
        }
        if char_order.checked_add(word_order).is_none() {
            return Err(SettingsRule::OrderCountOverflow);
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

    /// Whether the score is the mean of the per-order F (`per_order_f` averaging, spec §1.6).
    pub fn averages_f(&self) -> bool {
        self.averaging == Averaging::PerOrderF
    }

    /// Refuses settings that have no exact score: eps smoothing is defined on floats only.
    pub fn check_exact(&self) -> Result<(), SettingsRule> {
        if self.eps_smoothing {
            Err(SettingsRule::EpsSmoothingHasNoExactForm)
        } else {
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn each_check_raises_its_rule() {
        let two = Beta::integer(2).unwrap();
        let refused = |result: Result<Settings, SettingsRule>| result.unwrap_err();
        assert_eq!(
            refused(Settings::new(0, 0, two.clone())),
            SettingsRule::OrdersBothZero
        );
        assert_eq!(
            refused(Settings::new(usize::MAX, 1, two)),
            SettingsRule::OrderCountOverflow
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
        assert_eq!(rule_of(1, 0), SettingsRule::BetaDenominatorZero);
        assert_eq!(rule_of(-1, 2), SettingsRule::BetaNegative);
        assert_eq!(rule_of(1, -2), SettingsRule::BetaNegative);
        let quarter = BigRational::new(1.into(), 4.into());
        assert_eq!(ratio(-1, -2).unwrap().squared(), &quarter);
        for (result, rule) in cases {
            assert_eq!(result.unwrap_err(), rule);
        }
        let huge = Beta::new(one, f64::INFINITY, f64::INFINITY).unwrap();
        assert_eq!(
            huge.check_float().unwrap_err(),
            SettingsRule::BetaTooLargeForFloat
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

    #[test]
    fn each_rule_has_its_message_reason_and_argument() {
        // The Python package's tests and users match on these texts, codes and arguments.
        use SettingsRule::*;
        let beta = Some("beta");
        let cases = [
            (BetaNegative, "beta must not be negative", "negative", beta),
            (
                BetaDenominatorZero,
                "beta's denominator must not be 0",
                "out_of_range",
                beta,
            ),
            (
                BetaSquaredNegative,
                "beta ** 2 must not be negative",
                "negative",
                beta,
            ),
            (
                BetaFactorInvalid,
                "beta ** 2 must be a float of at least 0 (or +inf) for the float score",
                "out_of_range",
                beta,
            ),
            (
                OnePlusFactorInvalid,
                "1 + beta ** 2 must be at least 1 and at least beta ** 2",
                "out_of_range",
                beta,
            ),
            (
                BetaTooLargeForFloat,
                "beta ** 2 is too large for a float score (exact components take any beta)",
                "out_of_range",
                beta,
            ),
            (
                OrdersBothZero,
                "char_order and word_order must not both be 0",
                "orders_both_zero",
                None,
            ),
            (
                OrderCountOverflow,
                "char_order + word_order must fit in a usize",
                "out_of_range",
                None,
            ),
            (
                EpsSmoothingHasNoExactForm,
                "eps_smoothing is a float-only mode with no exact fraction; use the float score",
                "no_exact_form",
                Some("eps_smoothing"),
            ),
            (
                WeightsAllZero,
                "weights must not all be zero",
                "all_zero",
                Some("weights"),
            ),
            (
                WideWeightsPerOrderF,
                "per_order_f averaging takes reference aggregation's weights only as integers \
                 below 2**64 in the same proportions",
                "out_of_range",
                Some("weights"),
            ),
        ];
        for (rule, message, reason, argument) in cases {
            assert_eq!(rule.to_string(), message);
            assert_eq!((rule.reason(), rule.argument()), (reason, argument));
            assert_eq!(rule.refuses_input(), argument == Some("weights"));
        }
    }
}
