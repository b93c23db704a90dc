//! The one error type of the crate: everything user input can cause, nothing that panics.

use std::fmt;

/// A rule of the settings that a value broke: each has one message, shown by every entry point,
/// and a stable machine-readable reason code (the Python error's `reason`).
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
            Self::WeightsAllZero => "all_zero",
            Self::BetaDenominatorZero
            | Self::BetaFactorInvalid
            | Self::OnePlusFactorInvalid
            | Self::BetaTooLargeForFloat
            | Self::OrderCountOverflow
            | Self::WideWeightsPerOrderF => "out_of_range",
        }
    }
}

/// Why a computation was refused. Each variant names what the caller has to change.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ChrfError {
    /// Settings outside their domain: the rule they break, which names the setting.
    InvalidSettings(SettingsRule),
    /// A thread count outside 1..=`max`.
    ThreadCount { requested: usize, max: usize },
    /// Reference aggregation got `weights` weights for `references` references.
    WeightCount { weights: usize, references: usize },
    /// Weights spanning more than 2^`max_shift` from the least to the most, whose exact sums
    /// would be sized by the span.
    WeightSpan { max_shift: u64 },
    /// Bootstrap resample indices that do not come in whole rows of `row_length` (one index per
    /// segment; a table of no segment has no row at all).
    ResampleShape { row_length: usize },
    /// A bootstrap resample index `index` outside the table's `0..segments`.
    ResampleIndex { index: i64, segments: usize },
    /// Paired randomization statistics of the baseline and the system that differ in length, or
    /// are not whole segments of the settings' orders.
    StatisticsShape,
    /// Paired randomization flags that do not come in whole rows of `row_length` (one flag per
    /// segment).
    RandomizationShape { row_length: usize },
    /// A pairwise output of `cells` cells for `expected` (hypotheses, references).
    OutputShape {
        cells: usize,
        expected: (usize, usize),
    },
    /// No reference stream was given.
    NoReferences,
    /// Reference stream `stream` does not have one segment per hypothesis.
    StreamLength {
        stream: usize,
        hypotheses: usize,
        references: usize,
    },
    /// Statistics of different order layouts cannot be added.
    OrderCountMismatch { expected: usize, found: usize },
    /// A count does not fit in 128 bits.
    CountOverflow,
    /// `eps_smoothing` is defined on floats only; it has no exact fraction.
    EpsSmoothingHasNoExactForm,
    /// The direct and the harmonic form of an F-β value disagree: an arithmetic defect.
    CrossCheckFailed(String),
    /// A buffer of `bytes` bytes could not be allocated: the input is too large for the memory
    /// the process may use (the binding raises `MemoryError`, where Rust would abort).
    OutOfMemory { bytes: usize },
    /// The caller asked the computation to stop (Ctrl-C): partial results are discarded.
    Cancelled,
    /// Not even one worker thread could be started (the message says why).
    ThreadsUnavailable(String),
}

impl fmt::Display for ChrfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::InvalidSettings(rule) => f.write_str(rule.message()),
            Self::ThreadCount { requested, max } => write!(
                f,
                "the thread count must be from 1 to {max}, not {requested}"
            ),
            Self::WeightCount {
                weights,
                references,
            } => write!(
                f,
                "weights has {weights} values but there are {references} references"
            ),
            Self::WeightSpan { max_shift } => write!(
                f,
                "weights span more than 2**{max_shift} from the least to the most"
            ),
            Self::ResampleShape { row_length } => {
                write!(f, "resample indices must come in rows of {row_length}")
            }
            Self::ResampleIndex { index, segments } => {
                write!(f, "resample index {index} is outside 0..{segments}")
            }
            Self::StatisticsShape => {
                f.write_str("baseline and system statistics must have the same shape")
            }
            Self::RandomizationShape { row_length } => {
                write!(f, "randomization flags must come in rows of {row_length}")
            }
            Self::OutputShape {
                cells,
                expected: (rows, columns),
            } => write!(
                f,
                "a pairwise output of {cells} cells cannot hold {rows} x {columns} scores"
            ),
            Self::NoReferences => f.write_str("references must hold at least one reference stream"),
            Self::StreamLength {
                stream,
                hypotheses,
                references,
            } => write!(
                f,
                "reference stream {stream} has {references} segments but there are {hypotheses} hypotheses"
            ),
            Self::OrderCountMismatch { expected, found } => write!(
                f,
                "statistics hold {found} orders where {expected} were expected"
            ),
            Self::CountOverflow => f.write_str("an n-gram count exceeds 2**128 - 1"),
            Self::EpsSmoothingHasNoExactForm => f.write_str(
                "eps_smoothing is a float-only mode with no exact fraction; use the float score",
            ),
            Self::CrossCheckFailed(what) => write!(
                f,
                "internal arithmetic cross-check failed for {what}; please report this"
            ),
            Self::OutOfMemory { bytes } => {
                write!(f, "out of memory: could not allocate {bytes} bytes")
            }
            Self::Cancelled => f.write_str("the computation was cancelled"),
            Self::ThreadsUnavailable(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for ChrfError {}

impl ChrfError {
    /// [`ChrfError::WeightCount`] unless there is one weight per reference.
    pub fn check_weight_count(weights: usize, references: usize) -> Result<(), Self> {
        if weights == references {
            Ok(())
        } else {
            Err(Self::WeightCount {
                weights,
                references,
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_rule_has_its_message_and_reason() {
        // The Python package's tests and users match on these texts and codes.
        let cases = [
            (
                SettingsRule::BetaNegative,
                "beta must not be negative",
                "negative",
            ),
            (
                SettingsRule::BetaDenominatorZero,
                "beta's denominator must not be 0",
                "out_of_range",
            ),
            (
                SettingsRule::BetaSquaredNegative,
                "beta ** 2 must not be negative",
                "negative",
            ),
            (
                SettingsRule::BetaFactorInvalid,
                "beta ** 2 must be a float of at least 0 (or +inf) for the float score",
                "out_of_range",
            ),
            (
                SettingsRule::OnePlusFactorInvalid,
                "1 + beta ** 2 must be at least 1 and at least beta ** 2",
                "out_of_range",
            ),
            (
                SettingsRule::BetaTooLargeForFloat,
                "beta ** 2 is too large for a float score (exact components take any beta)",
                "out_of_range",
            ),
            (
                SettingsRule::OrdersBothZero,
                "char_order and word_order must not both be 0",
                "orders_both_zero",
            ),
            (
                SettingsRule::OrderCountOverflow,
                "char_order + word_order must fit in a usize",
                "out_of_range",
            ),
            (
                SettingsRule::WeightsAllZero,
                "weights must not all be zero",
                "all_zero",
            ),
            (
                SettingsRule::WideWeightsPerOrderF,
                "per_order_f averaging takes reference aggregation's weights only as integers \
                 below 2**64 in the same proportions",
                "out_of_range",
            ),
        ];
        for (rule, message, reason) in cases {
            assert_eq!(ChrfError::InvalidSettings(rule).to_string(), message);
            assert_eq!(rule.reason(), reason);
        }
    }

    #[test]
    fn shape_and_count_errors_keep_their_messages() {
        // The Python package's tests and users match on these texts.
        let cases = [
            (
                ChrfError::ThreadCount {
                    requested: 0,
                    max: 8,
                },
                "the thread count must be from 1 to 8, not 0",
            ),
            (
                ChrfError::WeightCount {
                    weights: 2,
                    references: 3,
                },
                "weights has 2 values but there are 3 references",
            ),
            (
                ChrfError::ResampleShape { row_length: 4 },
                "resample indices must come in rows of 4",
            ),
            (
                ChrfError::ResampleIndex {
                    index: -1,
                    segments: 4,
                },
                "resample index -1 is outside 0..4",
            ),
            (
                ChrfError::StatisticsShape,
                "baseline and system statistics must have the same shape",
            ),
            (
                ChrfError::RandomizationShape { row_length: 2 },
                "randomization flags must come in rows of 2",
            ),
            (
                ChrfError::OutputShape {
                    cells: 5,
                    expected: (2, 3),
                },
                "a pairwise output of 5 cells cannot hold 2 x 3 scores",
            ),
        ];
        for (error, message) in cases {
            assert_eq!(error.to_string(), message);
        }
    }
}
