//! One error vocabulary between the core and Python: `?` turns a `ChrfError` (or a `PyErr`)
//! into [`Error`], which PyO3 raises as the Python exception of its kind.
//!
//! The orphan rule forbids `impl From<ChrfError> for PyErr` in this crate: the newtype stands
//! in for it.

use chrf_core::ChrfError;
use pyo3::exceptions::{
    PyArithmeticError, PyMemoryError, PyOverflowError, PyRuntimeError, PyValueError,
};
use pyo3::PyErr;

/// A Python exception on its way out of the binding.
#[derive(Debug)]
pub struct Error(PyErr);

/// What the binding's functions return: PyO3 raises the error.
pub type Result<T> = std::result::Result<T, Error>;

impl From<PyErr> for Error {
    fn from(error: PyErr) -> Self {
        Self(error)
    }
}

impl From<ChrfError> for Error {
    fn from(error: ChrfError) -> Self {
        let message = error.to_string();
        Self(match error {
            ChrfError::CountOverflow => PyOverflowError::new_err(message),
            ChrfError::CrossCheckFailed(_) => PyArithmeticError::new_err(message),
            ChrfError::OutOfMemory { .. } => PyMemoryError::new_err(message),
            ChrfError::ThreadsUnavailable(_) | ChrfError::Cancelled => {
                PyRuntimeError::new_err(message)
            }
            _ => PyValueError::new_err(message),
        })
    }
}

impl From<Error> for PyErr {
    fn from(error: Error) -> Self {
        error.0
    }
}

/// A `ValueError` with `message`.
pub fn value_error(message: String) -> Error {
    Error(PyValueError::new_err(message))
}

/// The `ValueError` of an argument (or a batch item) named `name` that holds no text.
pub fn empty(name: &str) -> Error {
    value_error(format!("{name} must not be empty"))
}

/// `MemoryError` for `bytes` that could not be had.
pub fn out_of_memory(bytes: usize) -> Error {
    ChrfError::OutOfMemory { bytes }.into()
}

/// A panic (a defect: the crate's lints forbid the usual sources) as a `RuntimeError`, rather
/// than PyO3's `PanicException`, which `except Exception` would not catch.
pub fn internal_error(panic: &(dyn std::any::Any + Send)) -> Error {
    Error(PyRuntimeError::new_err(format!(
        "internal error in chrf ({}); please report it with the input that caused it",
        panic_message(panic)
    )))
}

fn panic_message(panic: &(dyn std::any::Any + Send)) -> &str {
    panic
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| panic.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("a panic")
}

/// An empty vector with room for `len` items, or `MemoryError`.
pub fn reserved<T>(len: usize) -> Result<Vec<T>> {
    let mut items = Vec::new();
    items
        .try_reserve_exact(len)
        .map_err(|_| out_of_memory(len.saturating_mul(std::mem::size_of::<T>())))?;
    Ok(items)
}
