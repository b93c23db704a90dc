//! Fuzz targets of chrf-core, as library functions.
//!
//! Each module of [`targets`] has an `Input` built by `arbitrary` and a `check` that runs one
//! public entry point of the core on it and asserts its invariants against [`oracle`]: slow,
//! obviously right versions written from the specification. `fuzz_targets/*.rs` hand libFuzzer's
//! bytes to them (`cargo fuzz run NAME`); the smoke test of `cargo test` runs every target on
//! pseudo-random bytes and on the checked-in seeds, with no cargo-fuzz and no libFuzzer.

pub mod input;
pub mod oracle;

pub mod targets {
    pub mod aggregate;
    pub mod bootstrap;
    pub mod corpus;
    pub mod ngrams;
    pub mod pairwise;
    pub mod scores;
    pub mod segment;
    pub mod settings;
    pub mod statistics;
    pub mod text;
}

#[cfg(test)]
mod smoke;

use arbitrary::{Arbitrary, Unstructured};

/// Runs a target's check on raw bytes, decoded as libFuzzer-sys's `fuzz_target!` decodes them.
pub fn run<'a, T: Arbitrary<'a>>(data: &'a [u8], check: fn(&T)) {
    if let Ok(input) = T::arbitrary_take_rest(Unstructured::new(data)) {
        check(&input);
    }
}

/// A target run on raw bytes.
pub type Target = fn(&[u8]);

/// Every target by its `fuzz_targets/` name.
pub const TARGETS: &[(&str, Target)] = &[
    ("aggregate", |d| run(d, targets::aggregate::check)),
    ("bootstrap", |d| run(d, targets::bootstrap::check)),
    ("corpus", |d| run(d, targets::corpus::check)),
    ("ngrams", |d| run(d, targets::ngrams::check)),
    ("pairwise", |d| run(d, targets::pairwise::check)),
    ("scores", |d| run(d, targets::scores::check)),
    ("segment", |d| run(d, targets::segment::check)),
    ("settings", |d| run(d, targets::settings::check)),
    ("statistics", |d| run(d, targets::statistics::check)),
    ("text", |d| run(d, targets::text::check)),
];
