//! The smoke run of every target, for `cargo test`: a few thousand deterministic pseudo-random
//! inputs per target plus the checked-in seeds of `seeds/NAME/`. A failing input is written to
//! `artifacts/NAME/smoke-*`, where `cargo fuzz run NAME FILE` replays it.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};

use crate::TARGETS;

/// Inputs per target; `$CHRF_FUZZ_SMOKE_CASES` changes it (the check script keeps the default).
const DEFAULT_CASES: usize = 2_000;

fn cases() -> usize {
    std::env::var("CHRF_FUZZ_SMOKE_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(DEFAULT_CASES)
}

/// xorshift64*: the same inputs on every run and machine.
struct Bytes(u64);

impl Bytes {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Mostly short inputs (most of `arbitrary`'s choices are made by the first bytes), some long.
    fn input(&mut self) -> Vec<u8> {
        let len = match self.next() % 8 {
            0 => self.next() % 4096,
            _ => self.next() % 256,
        };
        (0..len).map(|_| (self.next() >> 56) as u8).collect()
    }
}

fn fuzz_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf()
}

fn seeds(name: &str) -> Vec<(String, Vec<u8>)> {
    let Ok(entries) = std::fs::read_dir(fuzz_dir().join("seeds").join(name)) else {
        return Vec::new();
    };
    let mut seeds: Vec<(String, Vec<u8>)> = entries
        .filter_map(Result::ok)
        .filter_map(|e| {
            Some((
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read(e.path()).ok()?,
            ))
        })
        .collect();
    seeds.sort();
    seeds
}

fn smoke(name: &str) {
    let (_, check) = TARGETS
        .iter()
        .find(|(n, _)| *n == name)
        .expect("a target of that name");
    let mut random = Bytes(0x9E37_79B9_7F4A_7C15 ^ name.len() as u64);
    let generated = (0..cases()).map(|i| (format!("random-{i}"), random.input()));
    let seeds = seeds(name);
    let seed_count = seeds.len();
    for (label, data) in seeds.into_iter().chain(generated) {
        if let Err(panic) = catch_unwind(AssertUnwindSafe(|| check(&data))) {
            let artifacts = fuzz_dir().join("artifacts").join(name);
            let path = artifacts.join(format!("smoke-{label}"));
            let saved =
                std::fs::create_dir_all(&artifacts).and_then(|()| std::fs::write(&path, &data));
            eprintln!(
                "{name}: input {label} failed; saved: {saved:?} to {}",
                path.display()
            );
            std::panic::resume_unwind(panic);
        }
    }
    assert!(
        seed_count > 0,
        "no seeds in fuzz/seeds/{name}: the smoke run should replay a corpus"
    );
}

#[test]
fn aggregate() {
    smoke("aggregate");
}

#[test]
fn bootstrap() {
    smoke("bootstrap");
}

#[test]
fn corpus() {
    smoke("corpus");
}

#[test]
fn ngrams() {
    smoke("ngrams");
}

#[test]
fn pairwise() {
    smoke("pairwise");
}

#[test]
fn scores() {
    smoke("scores");
}

#[test]
fn segment() {
    smoke("segment");
}

#[test]
fn settings() {
    smoke("settings");
}

#[test]
fn statistics() {
    smoke("statistics");
}

#[test]
fn text() {
    smoke("text");
}

#[test]
fn every_target_has_a_fuzz_binary_and_a_smoke_test() {
    for (name, _) in TARGETS {
        let binary = fuzz_dir().join("fuzz_targets").join(format!("{name}.rs"));
        assert!(binary.is_file(), "{}", binary.display());
    }
    let smoke = include_str!("smoke.rs");
    for (name, _) in TARGETS {
        assert!(smoke.contains(&format!("smoke(\"{name}\")")), "{name}");
    }
}
