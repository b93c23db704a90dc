//! sacreBLEU's resampling statistics, scored in the core: bootstrap resamples and paired
//! approximate randomization, over per-segment statistics arrays.

use chrf_core::bootstrap::{
    randomization_scores as randomization_scores_core, resampled_scores as resampled_scores_core,
    SegmentTable,
};
use numpy::{PyArray1, PyReadonlyArray2, PyReadonlyArray3};
use pyo3::prelude::*;

use crate::arrays::contiguous;
use crate::config::Config;
use crate::errors::{reserved, Result};
use crate::objects::fallibly;
use crate::runtime::{compute, numpy_ready};

/// Score values, and whether each is a float32.
type ResampledScores<'py> = (Bound<'py, PyArray1<f64>>, Bound<'py, PyArray1<bool>>);

/// sacreBLEU's scores of bootstrap resamples of per-segment statistics (shape
/// (segments, orders, 3)), one resample per row of `picks`: the float values, and whether each
/// is a NumPy float32 (otherwise a Python float) in sacreBLEU's arithmetic.
#[pyfunction]
pub fn resampled_scores<'py>(
    py: Python<'py>,
    config: &Config,
    segment_statistics: PyReadonlyArray3<'py, u64>,
    picks: PyReadonlyArray2<'py, i64>,
) -> Result<ResampledScores<'py>> {
    numpy_ready(py)?;
    let counts = contiguous(&segment_statistics)?;
    let picks = contiguous(&picks)?;
    let settings = &config.settings;
    let scores = compute(py, false, |interrupt| {
        let table = SegmentTable::new(counts, settings)?;
        resampled_scores_core(&table, picks, settings, interrupt)
    })?;
    let mut values = reserved(scores.len())?;
    values.extend(scores.iter().map(|s| s.value()));
    let mut float32 = reserved(scores.len())?;
    float32.extend(scores.iter().map(|s| s.is_float32()));
    fallibly(|| {
        Ok((
            PyArray1::from_vec(py, values),
            PyArray1::from_vec(py, float32),
        ))
    })
}

/// The scores of the two pseudo-systems of each randomization trial.
type ScorePair<'py> = (Bound<'py, PyArray1<f64>>, Bound<'py, PyArray1<f64>>);

/// sacreBLEU's paired approximate randomization scores (see `chrf_core::bootstrap`).
#[pyfunction]
pub fn randomization_scores<'py>(
    py: Python<'py>,
    config: &Config,
    baseline: PyReadonlyArray3<'py, u64>,
    system: PyReadonlyArray3<'py, u64>,
    swaps: PyReadonlyArray2<'py, bool>,
) -> Result<ScorePair<'py>> {
    numpy_ready(py)?;
    let baseline = contiguous(&baseline)?;
    let system = contiguous(&system)?;
    let swaps = contiguous(&swaps)?;
    let settings = &config.settings;
    let (a, b) = compute(py, false, |interrupt| {
        randomization_scores_core(baseline, system, swaps, settings, interrupt)
    })?;
    fallibly(|| Ok((PyArray1::from_vec(py, a), PyArray1::from_vec(py, b))))
}
