//! The one error type of the crate: everything user input can cause, nothing that panics.

use std::fmt;

/// Why a computation was refused. Each variant names what the caller has to change.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ChrfError {
    /// Settings outside their domain; the message names the setting.
    InvalidSettings(String),
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
            Self::InvalidSettings(message) => f.write_str(message),
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
