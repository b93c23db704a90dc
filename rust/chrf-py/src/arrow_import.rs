//! The import of an Arrow column through the PyCapsule interface, checked at each step before
//! arrow-rs sees it: the exporter's answer (a pair of capsules, or a stream capsule, of the right
//! names), then the column's type, read from the schema alone, and only then the arrays.
//!
//! arrow-rs builds its arrays from the C Data Interface trusting the producer, and asserts on
//! some inconsistent structures. Only the types chrf reads get that far, and those are checked
//! after the import ([`crate::arrow`]); a panic that still happens in the import is caught as
//! the caller's bad data, silently: it is a ValueError, never text on stderr.

use arrow_array::ArrayRef;
use arrow_schema::DataType;
use pyo3::prelude::*;
use pyo3::types::{PyCapsule, PyTuple};
use pyo3_arrow::{PyArray, PyArrayReader, PyField};

use crate::errors::{arrow_error, arrow_type_error, Error, Result};
use crate::names::names;
use crate::objects::caught_quietly;

/// An imported column: its type and its arrays (one, or a stream's chunks).
pub struct Imported {
    pub data_type: DataType,
    pub arrays: Vec<ArrayRef>,
}

/// Imports `value`, named `name` in errors; `accept` decides from the type alone whether to
/// read the arrays (or says why not). `__arrow_c_array__` is preferred where both are exported
/// (one array, no stream to drive). An exception the exporter raises is raised as it is.
pub fn import(
    value: &Bound<'_, PyAny>,
    name: &str,
    accept: impl Fn(&DataType) -> Result<()>,
) -> Result<Imported> {
    let py = value.py();
    if value
        .get_type()
        .hasattr(names(py)?.arrow_c_array.bind(py))?
    {
        let pair = exported(value, "__arrow_c_array__", name)?;
        let (schema, array) = capsule_pair(&pair, name)?;
        let field = PyField::from_arrow_pycapsule(&schema).map_err(|e| invalid(name, py, &e))?;
        let data_type = field.into_inner().data_type().clone();
        accept(&data_type)?;
        let array = quietly(name, || PyArray::from_arrow_pycapsule(&schema, &array))?
            .map_err(|e| invalid(name, py, &e))?;
        let (array, _) = array.into_inner();
        return Ok(Imported {
            data_type,
            arrays: vec![array],
        });
    }
    let capsule = exported(value, "__arrow_c_stream__", name)?;
    let capsule = capsule_named(&capsule, c"arrow_array_stream", "__arrow_c_stream__", name)?;
    let reader = quietly(name, || {
        PyArrayReader::from_arrow_pycapsule(&capsule).and_then(|r| r.into_reader())
    })?
    .map_err(|e| invalid(name, py, &e))?;
    let data_type = reader.field().data_type().clone();
    accept(&data_type)?;
    let arrays = quietly(name, || reader.collect::<std::result::Result<Vec<_>, _>>())?
        .map_err(|error| arrow_error(name, format!("{name} could not be read: {error}")))?;
    Ok(Imported { data_type, arrays })
}

/// What the exporter `method` of `value` returns, called without a requested schema.
fn exported<'py>(value: &Bound<'py, PyAny>, method: &str, name: &str) -> Result<Bound<'py, PyAny>> {
    let exporter = value.getattr(method)?;
    if !exporter.is_callable() {
        return Err(arrow_type_error(
            name,
            format!("{name}.{method} is not callable"),
        ));
    }
    Ok(exporter.call0()?)
}

/// The (schema, array) capsules `__arrow_c_array__` must return.
fn capsule_pair<'py>(
    pair: &Bound<'py, PyAny>,
    name: &str,
) -> Result<(Bound<'py, PyCapsule>, Bound<'py, PyCapsule>)> {
    let wrong = |what: String| {
        arrow_type_error(
            name,
            format!(
                "{name}.__arrow_c_array__() must return a tuple of two capsules (schema, array), \
             not {what}"
            ),
        )
    };
    let pair = pair.cast::<PyTuple>().map_err(|_| wrong(described(pair)))?;
    if pair.len() != 2 {
        return Err(wrong(format!("a tuple of {} items", pair.len())));
    }
    let schema = capsule_named(
        &pair.get_item(0)?,
        c"arrow_schema",
        "__arrow_c_array__",
        name,
    )?;
    let array = capsule_named(
        &pair.get_item(1)?,
        c"arrow_array",
        "__arrow_c_array__",
        name,
    )?;
    Ok((schema, array))
}

fn capsule_named<'py>(
    item: &Bound<'py, PyAny>,
    capsule: &std::ffi::CStr,
    method: &str,
    name: &str,
) -> Result<Bound<'py, PyCapsule>> {
    item.cast::<PyCapsule>()
        .ok()
        .filter(|found| found.is_valid_checked(Some(capsule)))
        .cloned()
        .ok_or_else(|| {
            arrow_type_error(
                name,
                format!(
                    "{name}.{method}() gave {} where a capsule named {:?} belongs",
                    described(item),
                    capsule.to_string_lossy()
                ),
            )
        })
}

/// A Python value in an error, by its type (a capsule's name is not read: only compared).
fn described(item: &Bound<'_, PyAny>) -> String {
    if item.is_instance_of::<PyCapsule>() {
        return "a capsule of another name".into();
    }
    item.get_type()
        .name()
        .map_or_else(|_| "an object".into(), |kind| format!("a {kind}"))
}

/// The ValueError of an import that failed, with arrow-rs' reason (its first line: an
/// assertion's message goes on with both sides' values).
fn invalid(name: &str, py: Python<'_>, error: &PyErr) -> Error {
    let reason = error.value(py).to_string();
    reason_error(name, &reason)
}

fn reason_error(name: &str, reason: &str) -> Error {
    let reason = reason.lines().next().unwrap_or_default();
    arrow_error(name, format!("{name} is not valid Arrow data: {reason}"))
}

/// Runs `import` catching a panic as a ValueError naming `name`, unprinted (see
/// [`crate::objects::install_panic_hook`]).
fn quietly<T>(name: &str, import: impl FnOnce() -> T) -> Result<T> {
    let result = caught_quietly(import);
    result.map_err(|panic| {
        let message = panic
            .downcast_ref::<&str>()
            .copied()
            .or_else(|| panic.downcast_ref::<String>().map(String::as_str))
            .unwrap_or("its import failed");
        reason_error(name, message)
    })
}
