//! Exact chrF and chrF++ (Popović 2015, 2017) as sacreBLEU defines them.
//!
//! * [`text`]: segments to units (code points; chrF++ word tokens), with Python's whitespace set.
//! * [`ngrams`]: clipped n-gram matches of two unit sequences, every order in one pass.
//! * [`segment_statistics`] and [`Corpus`]: per-order counts of segments and of corpora.
//! * [`components`]: the score as exact reduced fractions, cross-checked.
//! * [`float_score`]: the float score, bit for bit as sacreBLEU computes it.
//! * [`bootstrap`]: sacreBLEU's float32 arithmetic of bootstrap resamples.
//!
//! No PyO3 here: the crate builds and tests without a Python interpreter.

mod batch;
pub mod bootstrap;
mod corpus;
mod error;
mod exact;
mod float;
mod memory;
pub mod ngrams;
pub mod pool;
mod segment;
mod settings;
mod stats;
pub mod text;

pub use batch::{aggregate_scores, pairwise_scores};
pub use corpus::Corpus;
pub use error::ChrfError;
pub use exact::{components, six_decimals, Components, NgramKind, OrderComponents};
pub use float::{float_score, sacrebleu_score};
pub use segment::segment_statistics;
pub use settings::{Averaging, Beta, Settings};
pub use stats::{Count, OrderCounts, Statistics};
