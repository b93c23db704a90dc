//! The one error type of the crate: everything user input can cause, nothing that panics.

use std::fmt;

use crate::settings::SettingsRule;

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

impl From<SettingsRule> for ChrfError {
    fn from(rule: SettingsRule) -> Self {
        Self::InvalidSettings(rule)
    }
}

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
    fn a_settings_rule_is_shown_by_its_own_message() {
        let rule = SettingsRule::OrdersBothZero;
        assert_eq!(ChrfError::from(rule), ChrfError::InvalidSettings(rule));
        assert_eq!(ChrfError::from(rule).to_string(), rule.message());
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
