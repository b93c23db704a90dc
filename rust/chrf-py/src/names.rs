//! The Python objects the glue looks up by name: attribute names, the `collections.abc` classes
//! that tell sequences from other collections, and `array.array`. Made once, as the module loads
//! ([`load`]), never during a call: PyO3's `intern!` and a lazily filled `PyOnceLock` give up the
//! GIL while their cell is marked as being filled, and a fork by another thread meanwhile copies
//! the cell into the child as being filled for good, where its first use waits forever.

use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyString, PyType};

pub struct Names {
    pub lower: Py<PyString>,
    pub isascii: Py<PyString>,
    pub frombytes: Py<PyString>,
    pub tolist: Py<PyString>,
    pub num_refs: Py<PyString>,
    pub arrow_c_array: Py<PyString>,
    pub arrow_c_stream: Py<PyString>,
    /// `array.array` and the type codes of its doubles and 64-bit unsigned ints.
    pub array: Py<PyAny>,
    pub doubles: Py<PyString>,
    pub unsigned_64: Py<PyString>,
    pub iterable: Py<PyType>,
    pub set: Py<PyType>,
    pub mapping: Py<PyType>,
    pub keys_view: Py<PyType>,
    pub items_view: Py<PyType>,
}

static NAMES: PyOnceLock<Names> = PyOnceLock::new();

/// Makes the names; called as the module loads, before any call can use them.
pub fn load(py: Python<'_>) -> PyResult<()> {
    names(py).map(drop)
}

/// The names (made here only if [`load`] has not: never, once the module is loaded).
pub fn names(py: Python<'_>) -> PyResult<&'static Names> {
    NAMES.get_or_try_init(py, || make(py))
}

fn make(py: Python<'_>) -> PyResult<Names> {
    let name = |text: &str| PyString::intern(py, text).unbind();
    let abc = py.import("collections.abc")?;
    let class = |name: &str| -> PyResult<Py<PyType>> {
        Ok(abc.getattr(name)?.cast_into::<PyType>()?.unbind())
    };
    Ok(Names {
        lower: name("lower"),
        isascii: name("isascii"),
        frombytes: name("frombytes"),
        tolist: name("tolist"),
        num_refs: name("num_refs"),
        arrow_c_array: name("__arrow_c_array__"),
        arrow_c_stream: name("__arrow_c_stream__"),
        array: py.import("array")?.getattr("array")?.unbind(),
        doubles: name("d"),
        unsigned_64: name("Q"),
        iterable: class("Iterable")?,
        set: class("Set")?,
        mapping: class("Mapping")?,
        keys_view: class("KeysView")?,
        items_view: class("ItemsView")?,
    })
}
