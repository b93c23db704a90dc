//! Many hypotheses against many references (MBR): n-grams interned once per batch.
//!
//! * `bags.rs`: the preparation every batch computation shares: the distinct texts, their
//!   units and their bags of shared n-grams.
//! * `pairwise.rs`: every hypothesis against every reference, a row at a time, from
//!   `postings.rs`, the references' bags inverted (an n-gram most of them hold once, by the
//!   references lacking it).
//! * `aggregate.rs`: every hypothesis against the references' mean bag, generic over the width
//!   of its counts: u128 for 64-bit weights; `aggregate_wide.rs`, the wide integers of weights
//!   past 64 bits.
//! * `utility.rs`: MBR's expected utility, each pairwise row reduced to its weighted mean,
//!   exactly by `exact_mean.rs`.
//! * `scaling.rs`: weights given as exact ratios, scaled to integers in the same proportions.

mod aggregate;
mod aggregate_wide;
mod bags;
mod exact_mean;
mod pairwise;
mod postings;
mod scaling;
#[cfg(test)]
mod tests;
mod utility;

pub use aggregate::{aggregate_scores, aggregate_scores_wide};
pub use exact_mean::Weight;
pub use pairwise::{pairwise_scores, pairwise_scores_into};
pub use scaling::{scaled_weights, smallest_integers, WeightPiece, MAX_WEIGHT_SHIFT};
pub use utility::expected_utility;
