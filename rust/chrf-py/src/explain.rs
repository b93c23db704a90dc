//! Explaining a score: the n-grams that cost it matches, as the Python lists `chrf.explain`
//! keeps, and the corpus scores with one segment swapped out.

use chrf_core::{ChrfError, NgramCounts};
use numpy::{PyArray1, PyReadonlyArray3};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyTuple};

use crate::arrays::contiguous;
use crate::config::Config;
use crate::errors::Result;
use crate::objects::{fallibly, int_list, new_list, new_str};
use crate::runtime::{compute, numpy_ready};

/// An explanation as `(references, orders)`: per segment, the reference it was explained
/// against; per order, character orders first, its missing n-grams, their counts, its extra
/// n-grams and theirs (`chrf._explained` pairs them up).
///
/// An explanation holds objects per n-gram, and out of memory while making any of them must be
/// a `MemoryError`: they are made by Python's own fallible calls (the strs and lists; the ints
/// through [`int_list`]), never by PyO3's constructors of ints and tuples, which panic then.
/// Only the few tuples, one per order and the one returned, are PyO3's, under [`fallibly`].
pub fn explained<'py>(
    py: Python<'py>,
    explanation: &chrf_core::Explanation,
) -> Result<Bound<'py, PyTuple>> {
    let references = &explanation.references;
    let references = int_list(
        py,
        references.len(),
        references.iter().map(|&r| Ok(r as u64)),
    )?;
    let orders = new_list(py, explanation.orders.len(), |i| {
        let order = &explanation.orders[i];
        let lists = [
            grams(py, &order.missing)?,
            counts(py, &order.missing)?,
            grams(py, &order.extra)?,
            counts(py, &order.extra)?,
        ];
        fallibly(|| Ok(PyTuple::new(py, lists)?.into_any()))
    })?;
    fallibly(|| Ok(PyTuple::new(py, [references, orders])?))
}

/// The n-grams of a list, as strs.
fn grams<'py>(py: Python<'py>, ngrams: &NgramCounts) -> Result<Bound<'py, PyList>> {
    new_list(py, ngrams.len(), |i| {
        Ok(new_str(py, &ngrams[i].0)?.into_any())
    })
}

/// The counts of a list, as ints.
fn counts<'py>(py: Python<'py>, ngrams: &NgramCounts) -> Result<Bound<'py, PyList>> {
    // A count of n-grams held in memory: far below 2**64.
    let counts = ngrams
        .iter()
        .map(|(_, count)| u64::try_from(*count).map_err(|_| ChrfError::CountOverflow));
    int_list(py, ngrams.len(), counts)
}

/// Per segment i, the score of the corpus whose statistics are `segment_statistics` (shape
/// (segments, orders, 3)) with segment i taken out, and `replacement`'s segment i put in if given.
#[pyfunction]
#[pyo3(signature = (config, segment_statistics, replacement=None))]
pub fn swapped_scores<'py>(
    py: Python<'py>,
    config: &Config,
    segment_statistics: PyReadonlyArray3<'py, u64>,
    replacement: Option<PyReadonlyArray3<'py, u64>>,
) -> Result<Bound<'py, PyArray1<f64>>> {
    numpy_ready(py)?;
    let counts = contiguous(&segment_statistics)?;
    let replacement = replacement.as_ref().map(contiguous).transpose()?;
    let settings = &config.settings;
    let scores = compute(py, false, |interrupt| {
        chrf_core::swapped_scores(counts, replacement, settings, interrupt)
    })?;
    fallibly(|| Ok(PyArray1::from_vec(py, scores)))
}
