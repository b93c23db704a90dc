//! Many hypotheses against many references, per batch item: pairwise matrices, reference
//! aggregation, and MBR's expected utility.

use numpy::{PyArray1, PyArray2, PyArray3, PyArrayMethods};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::pybacked::PyBackedStr;
use pyo3::types::PyList;
use rayon::prelude::*;

use crate::arrays::{flatten, zeroed};
use crate::config::Config;
use crate::errors::{out_of_memory, Error, Result};
use crate::runtime::{compute, numpy_ready};
use crate::texts::{read_batches, read_texts};

/// One pairwise matrix per batch item: shape (batch, hypotheses, references), every item of
/// the same shape.
#[pyfunction]
pub fn pairwise<'py>(
    py: Python<'py>,
    config: &Config,
    hypotheses: &Bound<'py, PyList>,
    references: &Bound<'py, PyList>,
) -> Result<Bound<'py, PyArray3<f64>>> {
    numpy_ready(py)?;
    let hyps = read_batches(hypotheses, "hypotheses", config.lowercase)?;
    let refs = read_batches(references, "references", config.lowercase)?;
    let shape = [
        hyps.len(),
        hyps.first().map_or(0, Vec::len),
        refs.first().map_or(0, Vec::len),
    ];
    let settings = &config.settings;
    // One buffer for every item's matrix, handed to NumPy as it is: the scores are written once.
    let item_cells = shape[1].checked_mul(shape[2]);
    let cells = item_cells.and_then(|cells| cells.checked_mul(shape[0]));
    let (Some(item_cells), Some(cells)) = (item_cells, cells) else {
        return Err(out_of_memory(usize::MAX));
    };
    let mut flat = zeroed(cells)?;
    compute(py, false, |interrupt| {
        let score = |(b, out): (usize, &mut [f64])| {
            chrf_core::pairwise_scores_into(&hyps[b], &refs[b], settings, interrupt, out)
        };
        if item_cells == 0 {
            (0..hyps.len())
                .map(|b| (b, &mut [][..]))
                .try_for_each(score)
        } else {
            flat.par_chunks_mut(item_cells)
                .enumerate()
                .try_for_each(score)
        }
    })?;
    Ok(PyArray1::from_vec(py, flat).reshape(shape)?)
}

/// Reference aggregation per batch item: shape (batch, hypotheses).
#[pyfunction]
pub fn aggregate<'py>(
    py: Python<'py>,
    config: &Config,
    hypotheses: &Bound<'py, PyList>,
    references: &Bound<'py, PyList>,
    weights: Option<Vec<Option<Vec<u64>>>>,
) -> Result<Bound<'py, PyArray2<f64>>> {
    numpy_ready(py)?;
    let hyps = read_batches(hypotheses, "hypotheses", config.lowercase)?;
    let refs = read_batches(references, "references", config.lowercase)?;
    let weights = weights.unwrap_or_else(|| vec![None; hyps.len()]);
    let shape = [hyps.len(), hyps.first().map_or(0, Vec::len)];
    let settings = &config.settings;
    let flat: Vec<f64> = compute(py, false, |interrupt| {
        hyps.par_iter()
            .zip(&refs)
            .zip(&weights)
            .map(|((h, r), w)| chrf_core::aggregate_scores(h, r, w.as_deref(), settings, interrupt))
            .collect::<std::result::Result<Vec<_>, _>>()
    })
    .and_then(flatten)?;
    Ok(PyArray1::from_vec(py, flat).reshape(shape)?)
}

/// MBR's expected utility per batch item (see `chrf.expected_utility`): shape
/// (batch, hypotheses), the exact weighted mean of each pairwise row, without the matrix.
/// `batched` says whether the caller passed batch items, so that errors name what it wrote.
#[pyfunction]
pub fn expected_utility<'py>(
    py: Python<'py>,
    config: &Config,
    hypotheses: &Bound<'py, PyList>,
    references: &Bound<'py, PyList>,
    weights: Option<Vec<Option<Vec<u64>>>>,
    batched: bool,
) -> Result<Bound<'py, PyArray2<f64>>> {
    numpy_ready(py)?;
    let hyps = read_items(hypotheses, "hypotheses", batched, config.lowercase)?;
    let refs = read_items(references, "references", batched, config.lowercase)?;
    let weights = weights.unwrap_or_else(|| vec![None; hyps.len()]);
    let shape = [hyps.len(), hyps.first().map_or(0, Vec::len)];
    let settings = &config.settings;
    let flat: Vec<f64> = compute(py, false, |interrupt| {
        hyps.par_iter()
            .zip(&refs)
            .zip(&weights)
            .map(|((h, r), w)| chrf_core::expected_utility(h, r, w.as_deref(), settings, interrupt))
            .collect::<std::result::Result<Vec<_>, _>>()
    })
    .and_then(flatten)?;
    Ok(PyArray1::from_vec(py, flat).reshape(shape)?)
}

/// Batch items of texts: errors name a text `name[b][i]`, or `name[i]` when the caller passed
/// one item unbatched.
fn read_items(
    lists: &Bound<'_, PyList>,
    name: &str,
    batched: bool,
    lowercase: bool,
) -> Result<Vec<Vec<PyBackedStr>>> {
    if batched || lists.len() != 1 {
        return Ok(read_batches(lists, name, lowercase)?);
    }
    let item = lists.get_item(0)?;
    let list = item.cast_exact::<PyList>().map_err(|_| {
        Error::from(PyTypeError::new_err(format!(
            "{name} must be a list of str"
        )))
    })?;
    Ok(vec![read_texts(list, name, lowercase)?])
}
