//! Exact chrF and chrF++ (Popović 2015, 2017) as sacreBLEU defines them.
//!
//! "spec §n" in this crate's comments is section n of `docs/specification.md`.
//!
//! # The public surface
//!
//! * [`segment_statistics`] and [`Corpus`]: per-order [`Statistics`] of segments and of corpora;
//!   [`segment_score`]: one segment's float score.
//! * [`components`]: the score as exact reduced fractions, cross-checked; [`six_decimals`].
//! * [`float_score`] and [`sacrebleu_score`]: the float score, bit for bit as sacreBLEU's.
//! * [`pairwise_scores`] and [`aggregate_scores`] ([`aggregate_scores_wide`] for weights past
//!   64 bits): many hypotheses against many references;
//!   [`expected_utility`]: MBR's exact weighted mean of each pairwise row, without the matrix,
//!   with [`Weight`]s of any range.
//! * [`Settings`] (with [`Beta`], [`Averaging`]) in, [`ChrfError`] out: one variant per kind of
//!   refusal, each with the message the binding raises.
//! * [`Corpus::explain`] ([`Explanation`]) and [`swapped_scores`]: which n-grams and which
//!   segments cost a score.
//! * Namespaces: [`bootstrap`] (sacreBLEU's float32 resampling arithmetic), [`pool`] (threads and
//!   interruption), [`text`] and [`ngrams`] (units and clipped matches, for fuzzing), [`isa`]
//!   (the matching's x86-64-v3 copy, and forcing the baseline one).
//!
//! # Where to find what
//!
//! Each rule of the metric has one home, called from every place that needs it:
//!
//! | rule | spec | home |
//! |---|---|---|
//! | whitespace, character units | §1.1, §3 | `text::is_python_whitespace`, `text::for_each_char_unit` |
//! | chrF++ word tokens | §4 | `text::for_each_word_token` |
//! | n-grams of a sequence: L − n + 1 windows | §1.2 | `stats::window_count` |
//! | dense ids: code points, word tokens, a batch's shared n-grams (every interner) | §1.1, §4 | `ids.rs` |
//! | clipped matches, every order in one pass | §1.3 | `ngrams::add_clipped_matches`; its stages in `ngrams/` |
//! | no reference n-grams → hypothesis count 0 | §1.4 | `OrderCounts::of_pair` |
//! | summing counts, checked | §1.4 | `Statistics::checked_add_assign` |
//! | several references: the best one per segment | §5 | `segment.rs` |
//! | many hypotheses against many references: shared n-gram bags | §7 | `batch/bags.rs` |
//! | pairwise scores; reference aggregation (with weights past 64 bits); MBR's expected utility | §7 | `batch/pairwise.rs`, `batch/aggregate.rs` (`batch/aggregate_wide.rs`), `batch/utility.rs` |
//! | the references' inverted index, an n-gram most hold by those that lack it | §7 | `batch/postings.rs` |
//! | exact weighted means of doubles | §7 | `batch/exact_mean.rs` |
//! | weights (exact ratios) scaled to integers in the same proportions | §7 | `batch/scaling.rs` |
//! | per-order P, R, F; the score; eps smoothing (floats, f64 and float32 alike) | §1.5-1.7 | `float::compute_f_score` |
//! | the same as exact fractions | §1.5-1.6, §2 | `exact.rs` |
//! | the orders averaged into a score (every score's means, float and exact) | §1.6-1.7 | `means.rs` |
//! | missing and extra n-grams; leave-one-out and swap scores | §9 | `explain.rs` |
//! | settings, their domains and the rules that refuse them (message, reason, argument) | §1 | `settings.rs` |
//! | errors and their messages | §8 | `error.rs` |
//!
//! No PyO3 here: the crate builds and tests without a Python interpreter.

mod batch;
pub mod bootstrap;
mod corpus;
mod error;
mod exact;
mod explain;
mod float;
mod ids;
pub mod isa;
pub mod lines;
mod means;
mod memory;
pub mod ngrams;
pub mod pool;
#[cfg(test)]
mod seeded;
mod segment;
mod settings;
mod stats;
pub mod text;

pub use batch::{
    aggregate_scores, aggregate_scores_wide, expected_utility, pairwise_scores,
    pairwise_scores_into, scaled_weights, smallest_integers, Weight, WeightPiece, MAX_WEIGHT_SHIFT,
};
pub use corpus::Corpus;
pub use error::ChrfError;
pub use exact::{components, six_decimals, Components, NgramKind, OrderComponents};
pub use explain::{swapped_scores, Explanation, NgramCounts, OrderDifferences};
pub use float::{float_score, sacrebleu_score};
pub use segment::{add_segment_statistics, segment_score, segment_statistics};
pub use settings::{Averaging, Beta, Settings, SettingsRule};
pub use stats::{Count, OrderCounts, Statistics};
