//! Buffers handed to NumPy and read from it: allocated fallibly, read in place.

use numpy::ndarray::Dimension;
use numpy::{Element, PyReadonlyArray};
use pyo3::exceptions::PyValueError;

use crate::errors::{out_of_memory, Error, Result};

/// The elements of a C-contiguous array, in order.
pub fn contiguous<'a, T: Element, D: Dimension>(
    array: &'a PyReadonlyArray<'_, T, D>,
) -> Result<&'a [T]> {
    array
        .as_slice()
        .map_err(|_| Error::from(PyValueError::new_err("arrays must be C-contiguous")))
}

/// `len` zeros, allocated fallibly: a matrix too large for memory is a `MemoryError`.
pub fn zeroed(len: usize) -> Result<Vec<f64>> {
    let mut zeros = Vec::new();
    zeros
        .try_reserve_exact(len)
        .map_err(|_| out_of_memory(len.saturating_mul(std::mem::size_of::<f64>())))?;
    zeros.resize(len, 0.0);
    Ok(zeros)
}

/// The batch items' outputs end to end, copied at most once, into memory reserved fallibly (a
/// lone item, the usual case, is not copied at all).
pub fn flatten(mut items: Vec<Vec<f64>>) -> Result<Vec<f64>> {
    if items.len() == 1 {
        return Ok(items.pop().unwrap_or_default());
    }
    let total = items.iter().map(Vec::len).sum::<usize>();
    let mut flat = Vec::new();
    flat.try_reserve_exact(total)
        .map_err(|_| out_of_memory(total.saturating_mul(std::mem::size_of::<f64>())))?;
    for item in items {
        flat.extend(item);
    }
    Ok(flat)
}
