//! `Config`: a `chrf.Settings` in the core's terms, compiled once per Settings object (its
//! `compiled` attribute).

use chrf_core::{Averaging, Beta, Settings};
use num_bigint::BigInt;
use pyo3::prelude::*;

use crate::errors::{refused, Kind, Result};

/// The attributes of a `chrf.Settings` that the core needs, read from the object itself: the
/// settings are spelled out once, in python/chrf/_settings.py, and validated there.
#[derive(FromPyObject)]
struct SettingsAttributes {
    char_order: usize,
    word_order: usize,
    /// β's numerator and denominator: integers, so that no `Fraction` is needed to score.
    beta_ratio: (BigInt, BigInt),
    factor: f64,
    one_plus_factor: f64,
    beta_is_fraction: bool,
    lowercase: bool,
    include_whitespace: bool,
    averaging: String,
    eps_smoothing: bool,
    count_hyp_without_ref: bool,
}

/// A `chrf.Settings` in the core's terms.
#[pyclass(frozen, module = "chrf._chrf")]
pub struct Config {
    pub settings: Settings,
    /// Texts are lowercased as they are read (Python's `str.lower`), not by the core.
    pub lowercase: bool,
}

#[pymethods]
impl Config {
    #[new]
    fn new(settings: SettingsAttributes) -> Result<Self> {
        let (numerator, denominator) = settings.beta_ratio;
        let mut beta = Beta::from_ratio(
            numerator,
            denominator,
            settings.factor,
            settings.one_plus_factor,
        )?;
        if settings.beta_is_fraction {
            beta = beta.given_as_fraction();
        }
        let mut core = Settings::new(settings.char_order, settings.word_order, beta)?;
        core.include_whitespace = settings.include_whitespace;
        core.eps_smoothing = settings.eps_smoothing;
        core.count_hyp_without_ref = settings.count_hyp_without_ref;
        core.averaging = match settings.averaging.as_str() {
            "precision_recall" => Averaging::PrecisionRecall,
            "per_order_f" => Averaging::PerOrderF,
            other => {
                let message =
                    format!("averaging must be 'precision_recall' or 'per_order_f', not {other:?}");
                return Err(refused(
                    Kind::Settings,
                    message,
                    Some("averaging"),
                    None,
                    "invalid_choice",
                ));
            }
        };
        Ok(Self {
            settings: core,
            lowercase: settings.lowercase,
        })
    }
}
