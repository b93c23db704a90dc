//! The caller's sequences as lists: a list is taken as it is, any other ordered iterable is
//! listed, and what is no sequence of texts (a lone str, a set, a mapping) is refused by name.

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBytes, PyList, PyString, PyType};

use crate::errors::Result;
use crate::texts::type_name;

static ITERABLE: PyOnceLock<Py<PyType>> = PyOnceLock::new();
static SET: PyOnceLock<Py<PyType>> = PyOnceLock::new();
static MAPPING: PyOnceLock<Py<PyType>> = PyOnceLock::new();
static KEYS_VIEW: PyOnceLock<Py<PyType>> = PyOnceLock::new();
static ITEMS_VIEW: PyOnceLock<Py<PyType>> = PyOnceLock::new();

fn is_instance(value: &Bound<'_, PyAny>, abc: &PyOnceLock<Py<PyType>>, name: &str) -> Result<bool> {
    let abc = abc.import(value.py(), "collections.abc", name)?;
    Ok(value.is_instance(abc)?)
}

/// `isinstance(value, collections.abc.Iterable)`: what `for` takes by its `__iter__`.
fn is_iterable(value: &Bound<'_, PyAny>) -> Result<bool> {
    is_instance(value, &ITERABLE, "Iterable")
}

/// A collection whose iteration order is no order of segments: a set of hypotheses would be
/// paired with the references in whatever order its hashes give.
fn is_unordered(value: &Bound<'_, PyAny>) -> Result<bool> {
    Ok(is_instance(value, &SET, "Set")?
        || is_instance(value, &MAPPING, "Mapping")?
        || is_instance(value, &KEYS_VIEW, "KeysView")?
        || is_instance(value, &ITEMS_VIEW, "ItemsView")?)
}

/// A text where a sequence of texts might be: a str or bytes, or anything not iterable (None, a
/// number), which is then read, and refused, as a text.
pub fn is_text_like(value: &Bound<'_, PyAny>) -> Result<bool> {
    Ok(value.is_instance_of::<PyString>()
        || value.is_instance_of::<PyBytes>()
        || !is_iterable(value)?)
}

/// The items of a sequence argument named `name`. A list is taken as it is (never copied, never
/// changed); another iterable is listed, list subclasses included (their `__len__` or
/// `__getitem__` may say otherwise than their items). A lone str is refused, not split into
/// characters, and so is an unordered collection (a set, a mapping, a dict's keys).
#[inline(always)]
pub fn listed<'py>(value: &Bound<'py, PyAny>, name: &str) -> Result<Bound<'py, PyList>> {
    match value.cast_exact::<PyList>() {
        Ok(list) => Ok(list.clone()),
        Err(_) => listed_other(value, name),
    }
}

/// `listed` of anything but a list.
fn listed_other<'py>(value: &Bound<'py, PyAny>, name: &str) -> Result<Bound<'py, PyList>> {
    let unordered = is_unordered(value)?;
    if unordered || is_text_like(value)? {
        let note = if unordered {
            " (an unordered collection)"
        } else {
            ""
        };
        return Err(PyTypeError::new_err(format!(
            "{name} must be a sequence of str, not {}{note}",
            type_name(value)
        ))
        .into());
    }
    let list = value.py().get_type::<PyList>().call1((value,))?;
    Ok(list.cast_into::<PyList>().map_err(PyErr::from)?)
}

/// `listed`, as a function for the Python modules that take sequences of other things
/// (weights, systems): one message for every sequence argument.
#[pyfunction]
#[pyo3(name = "listed")]
pub fn listed_py<'py>(value: &Bound<'py, PyAny>, name: &str) -> Result<Bound<'py, PyList>> {
    listed(value, name)
}
