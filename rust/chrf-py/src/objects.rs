//! Python objects made fallibly. PyO3's plain constructors (`PyString::new`, a `Vec` or a float
//! returned as is) and rust-numpy's `from_vec` panic when Python is out of memory; a panic then
//! allocates (its payload, with `RUST_BACKTRACE` a backtrace) where nothing can be had, and the
//! process aborts or deadlocks. What the binding makes in numbers that follow the input (a str
//! per row, lists of them, lists of scores and of counts) is made here by Python's own fallible
//! calls, and the few objects left to PyO3's constructors are made under [`fallibly`]: out of
//! memory is then a `MemoryError`.

use std::cell::Cell;
use std::panic::{catch_unwind, AssertUnwindSafe};

use chrf_core::ChrfError;
use pyo3::exceptions::PyMemoryError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList, PyString};

use crate::errors::{internal_error, Error, Result};
use crate::names::names;

/// `text` as a Python str.
pub fn new_str<'py>(py: Python<'py>, text: &str) -> Result<Bound<'py, PyString>> {
    Ok(PyString::from_bytes(py, text.as_bytes())?)
}

/// A list of `len` items, item `i` made by `item(i)`: allocated once, as `[None] * len`.
pub fn new_list<'py>(
    py: Python<'py>,
    len: usize,
    mut item: impl FnMut(usize) -> Result<Bound<'py, PyAny>>,
) -> Result<Bound<'py, PyList>> {
    let one = py.get_type::<PyList>().call0()?;
    one.cast::<PyList>()
        .map_err(PyErr::from)?
        .append(py.None())?;
    let list = one.mul(len)?.cast_into::<PyList>().map_err(PyErr::from)?;
    for i in 0..len {
        list.set_item(i, item(i)?)?;
    }
    Ok(list)
}

/// `values` as a list of Python floats, without NumPy (the command line's sentence scores):
/// through the standard library's `array('d')`, whose every allocation is checked.
pub fn float_list<'py>(py: Python<'py>, values: &[f64]) -> Result<Bound<'py, PyList>> {
    let bytes = PyBytes::new_with(py, values.len().saturating_mul(8), |bytes| {
        for (into, value) in bytes.chunks_exact_mut(8).zip(values) {
            into.copy_from_slice(&value.to_ne_bytes());
        }
        Ok(())
    })?;
    array_list(py, &names(py)?.doubles, bytes)
}

/// The `len` ints of `values` as a list of Python ints, made as [`float_list`] makes floats
/// (through `array('Q')`): PyO3's int constructor panics when Python is out of memory.
pub fn int_list<'py>(
    py: Python<'py>,
    len: usize,
    values: impl IntoIterator<Item = std::result::Result<u64, ChrfError>>,
) -> Result<Bound<'py, PyList>> {
    let bytes = PyBytes::new_with(py, len.saturating_mul(8), |bytes| {
        for (into, value) in bytes.chunks_exact_mut(8).zip(values) {
            let value = value.map_err(|error| PyErr::from(Error::from(error)))?;
            into.copy_from_slice(&value.to_ne_bytes());
        }
        Ok(())
    })?;
    array_list(py, &names(py)?.unsigned_64, bytes)
}

/// The items of an `array` of type `code` whose machine values are `bytes`, as a list.
fn array_list<'py>(
    py: Python<'py>,
    code: &Py<PyString>,
    bytes: Bound<'py, PyBytes>,
) -> Result<Bound<'py, PyList>> {
    let names = names(py)?;
    let array = fallibly(|| Ok(names.array.bind(py).call1((code,))?))?;
    array.call_method1(names.frombytes.bind(py), (bytes,))?;
    let list = array.call_method0(names.tolist.bind(py))?;
    Ok(list.cast_into::<PyList>().map_err(PyErr::from)?)
}

/// What PyO3 panics with when a Python object could not be made (only an allocation fails
/// there), and how rust-numpy's own such panic begins.
const NULL_OBJECT: &str = "PyObject pointer is null";
const NUMPY_CONTAINER: &str = "Failed to create slice container";

/// Runs `make`, which builds a few small Python objects with PyO3's or rust-numpy's panicking
/// constructors (an array around a buffer Rust allocated fallibly, a tuple of arguments): their
/// panic when Python is out of memory becomes a `MemoryError`. Another panic is a defect: a
/// `RuntimeError`.
pub fn fallibly<R>(make: impl FnOnce() -> Result<R>) -> Result<R> {
    catch_unwind(AssertUnwindSafe(make)).map_err(|panic| {
        if is_out_of_memory(panic.as_ref()) {
            Error::from(PyMemoryError::new_err(()))
        } else {
            internal_error(panic.as_ref())
        }
    })?
}

/// Whether a panic's payload is PyO3's or rust-numpy's for an object Python could not make.
fn is_out_of_memory(panic: &(dyn std::any::Any + Send)) -> bool {
    let message = panic
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| panic.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("");
    message == NULL_OBJECT || message.starts_with(NUMPY_CONTAINER)
}

thread_local! {
    /// Set while this thread runs code whose panics are caught and reported otherwise (arrow-rs'
    /// import of a producer's data): the hook prints nothing for them.
    static QUIET: Cell<bool> = const { Cell::new(false) };
}

/// Runs `run`, catching its panic, which the hook does not print: the caller reports it.
pub fn caught_quietly<T>(run: impl FnOnce() -> T) -> std::thread::Result<T> {
    let was = QUIET.with(|quiet| quiet.replace(true));
    let result = catch_unwind(AssertUnwindSafe(run));
    QUIET.with(|quiet| quiet.set(was));
    result
}

/// Installs the panic hook: silent for the panics of objects Python could not make, which
/// [`fallibly`] turns into `MemoryError` (printing them, a backtrace above all, needs the memory
/// that just ran out), and for those of [`caught_quietly`], reported by their callers; every
/// other panic, a defect, is printed by the hook it replaces. It allocates nothing.
pub fn install_panic_hook() {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if !is_out_of_memory(info.payload()) && !QUIET.with(Cell::get) {
            previous(info);
        }
    }));
}
