//! Structured inputs built from libFuzzer's bytes with `arbitrary`: texts, unit sequences, settings.
//!
//! Inputs are biased towards what makes chrF interesting: a small alphabet of corner cases (so
//! that n-grams repeat and match), Python's whitespace and look-alikes, punctuation that chrF++
//! splits off, astral code points, and cheap repetition (so that long inputs take few bytes).
//! Any Unicode scalar value can still appear.

use arbitrary::{Arbitrary, Result, Unstructured};
use chrf_core::{Averaging, Beta, Settings};
use num_bigint::BigInt;
use num_rational::BigRational;

/// Bounds of the smoke run (`cargo test`), which must stay clear of the known quadratic and
/// memory problems of huge orders; `cargo fuzz` builds with `--cfg fuzzing` and goes wider.
#[cfg(not(fuzzing))]
pub mod bounds {
    pub const MAX_ORDER: usize = 64;
    pub const MAX_TEXT_CHARS: usize = 2_000;
    /// Windows hashed by the n-gram oracle per sequence pair (units × orders).
    pub const MAX_WINDOWS: usize = 128_000;
}
#[cfg(fuzzing)]
pub mod bounds {
    pub const MAX_ORDER: usize = 256;
    pub const MAX_TEXT_CHARS: usize = 20_000;
    pub const MAX_WINDOWS: usize = 4_000_000;
}
pub use bounds::*;

/// Unit sequences go past `i16::MAX` windows even in the smoke run, so that the matcher's wide
/// tally is reached (with low orders: [`MAX_WINDOWS`] bounds the oracle's work).
pub const MAX_UNITS: usize = 70_000;

/// Corner cases of SPEC §3-4 and of the implementation (ASCII fast paths, the BMP table of
/// code point ids, UTF-8 lead bytes the word splitter looks for).
const CORNERS: &[&str] = &[
    "a",
    "b",
    "a",
    "b",
    "ab",
    "ba",
    "A",
    " ",
    " ",
    "  ",
    "\t",
    "\n",
    "\r\n",
    "\x0b",
    "\x0c",
    "\x1c",
    "\x1f",
    "\u{85}",
    "\u{a0}",
    "\u{1680}",
    "\u{2000}",
    "\u{200a}",
    "\u{2028}",
    "\u{2029}",
    "\u{202f}",
    "\u{205f}",
    "\u{3000}",
    "\u{200b}",
    "\u{180e}",
    "\u{feff}",
    "\u{c2}",
    "\u{e1}",
    "\u{1681}",
    "\u{2030}",
    "\u{301}",
    "e\u{301}",
    "\u{1f600}",
    "\u{10348}",
    "\u{10ffff}",
    ".",
    ",",
    "(",
    ")",
    "!",
    "?",
    "'",
    "\"",
    "-",
    "...",
    "((",
    "))",
    "«",
    "σ",
    "Σ",
    "İ",
    "ß",
    "\0",
    "\x7f",
    "x.",
    ".x",
    "a b",
    "a. b",
    "(a)",
];

/// A segment's text.
#[derive(Clone, Debug)]
pub struct Text(pub String);

impl<'a> Arbitrary<'a> for Text {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        let mut text = String::new();
        let mut chars = 0;
        for _ in 0..u.arbitrary_len::<u16>()? {
            let piece = match u.arbitrary::<u8>()? {
                pick @ 0..=199 => CORNERS[usize::from(pick) % CORNERS.len()].to_string(),
                200..=239 => char::arbitrary(u)?.to_string(),
                _ => text.repeat(usize::from(u.arbitrary::<u8>()? % 16)),
            };
            let piece_chars = piece.chars().count();
            if chars + piece_chars > MAX_TEXT_CHARS {
                break;
            }
            chars += piece_chars;
            text.push_str(&piece);
        }
        Ok(Self(text))
    }
}

/// A sequence of n-gram units (code points or word ids): mostly a few small ids, sometimes any
/// `u32`, with repetition.
#[derive(Clone, Debug)]
pub struct Units(pub Vec<u32>);

impl<'a> Arbitrary<'a> for Units {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        let mut units: Vec<u32> = Vec::new();
        for _ in 0..u.arbitrary_len::<u16>()? {
            match u.arbitrary::<u8>()? {
                pick @ 0..=191 => units.push(u32::from(pick % 6)),
                192..=223 => units.push(u.arbitrary()?),
                224..=231 => units.push(u32::MAX - u32::from(u.arbitrary::<u8>()? % 4)),
                _ => {
                    let copies = usize::from(u.arbitrary::<u8>()?);
                    let pattern = units.clone();
                    for _ in 0..copies {
                        units.extend_from_slice(&pattern);
                        if units.len() > MAX_UNITS {
                            break;
                        }
                    }
                }
            }
            if units.len() > MAX_UNITS {
                units.truncate(MAX_UNITS);
                break;
            }
        }
        Ok(Self(units))
    }
}

/// An order: mostly 0..=8, sometimes anything up to [`MAX_ORDER`].
fn order(raw: u8) -> usize {
    match raw {
        0..=191 => usize::from(raw % 9),
        _ => 9 + usize::from(raw - 192) * (MAX_ORDER - 9) / 63,
    }
}

/// β by each of its constructors.
#[derive(Arbitrary, Clone, Debug)]
pub enum BetaInput {
    Integer(u8),
    Ratio(i16, u16),
    /// An exact β with a huge or tiny value: `mantissa * 2**exponent`.
    Scaled(i64, i16),
    /// The raw constructor, whose floats need not be the square of anything.
    Raw(i64, u64, f64, f64),
}

impl BetaInput {
    pub fn build(&self) -> std::result::Result<Beta, chrf_core::SettingsRule> {
        match *self {
            Self::Integer(beta) => Beta::integer(u32::from(beta)),
            Self::Ratio(p, q) => Beta::exact(ratio(i64::from(p), u64::from(q))),
            Self::Scaled(mantissa, exponent) => {
                let power = BigInt::from(1) << u32::from(exponent.unsigned_abs() % 1200);
                let beta = if exponent < 0 {
                    BigRational::new(BigInt::from(mantissa), power)
                } else {
                    BigRational::from_integer(BigInt::from(mantissa) * power)
                };
                Beta::exact(beta)
            }
            Self::Raw(p, q, factor, one_plus_factor) => {
                Beta::new(ratio(p, q), factor, one_plus_factor)
            }
        }
    }

    /// True when the floats of β are its exact square rounded, so float and exact scores agree.
    pub fn is_consistent(&self) -> bool {
        !matches!(self, Self::Raw(..))
    }
}

/// `p / q`, with a zero denominator read as 1 (a `BigRational` with denominator 0 panics).
pub fn ratio(p: i64, q: u64) -> BigRational {
    BigRational::new(BigInt::from(p), BigInt::from(q.max(1)))
}

/// Every setting the core takes.
#[derive(Arbitrary, Clone, Debug)]
pub struct SettingsInput {
    pub char_order: u8,
    pub word_order: u8,
    pub beta: BetaInput,
    pub include_whitespace: bool,
    pub per_order_f: bool,
    pub eps_smoothing: bool,
    pub count_hyp_without_ref: bool,
}

impl SettingsInput {
    /// The settings, or None where the core refuses them (checked in the `settings` target).
    pub fn build(&self) -> Option<Settings> {
        let beta = self.beta.build().ok()?;
        // `Beta::new` takes any finite `one_plus_factor`, but one below 1 (no β gives one) makes
        // every sentence score negative, and then no reference wins and a segment with several
        // references gets zero counts: a finding, listed in fuzz/README.md. Left out here.
        if beta.one_plus_factor() < 1.0 {
            return None;
        }
        // A β² beyond the floats has exact scores only; the targets compare them with floats.
        beta.check_float().ok()?;
        let mut settings =
            Settings::new(order(self.char_order), order(self.word_order), beta).ok()?;
        settings.include_whitespace = self.include_whitespace;
        settings.averaging = if self.per_order_f {
            Averaging::PerOrderF
        } else {
            Averaging::PrecisionRecall
        };
        settings.eps_smoothing = self.eps_smoothing;
        settings.count_hyp_without_ref = self.count_hyp_without_ref;
        Some(settings)
    }

    /// The settings with orders capped at `max` (for targets whose oracle is costly per order).
    pub fn build_capped(&self, max: usize) -> Option<Settings> {
        let mut capped = self.clone();
        capped.char_order = cap(capped.char_order, max);
        capped.word_order = cap(capped.word_order, max);
        capped.build()
    }
}

fn cap(raw: u8, max: usize) -> u8 {
    if order(raw) <= max {
        raw
    } else {
        // An order of at most `max` from the small range of `order`.
        (raw % 9).min(max as u8)
    }
}
