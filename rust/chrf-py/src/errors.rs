//! One error vocabulary between the core and Python: `?` turns a `ChrfError` (or a `PyErr`)
//! into [`Error`], which PyO3 raises as the Python exception of its kind.
//!
//! Bad input is raised as a class of `chrf._errors` (`InputError`, `SettingsError` and their
//! `TypeError` kin), with its `argument`, `index` and `reason`: [`ChrfError`] is mapped to them
//! here, once, as every other refusal of the binding is raised through [`refused`]. Out of
//! memory stays `MemoryError`, an overflow `OverflowError`, a defect `RuntimeError`.
//!
//! The orphan rule forbids `impl From<ChrfError> for PyErr` in this crate: the newtype stands
//! in for it.

use chrf_core::{ChrfError, SettingsRule};
use pyo3::exceptions::{
    PyArithmeticError, PyMemoryError, PyOverflowError, PyRuntimeError, PyTypeError, PyValueError,
};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyType};
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
        let (kind, argument, reason) = match &error {
            ChrfError::CountOverflow => return Self(PyOverflowError::new_err(message)),
            ChrfError::CrossCheckFailed(_) => return Self(PyArithmeticError::new_err(message)),
            ChrfError::OutOfMemory { .. } => return Self(PyMemoryError::new_err(message)),
            ChrfError::ThreadsUnavailable(_) | ChrfError::Cancelled => {
                return Self(PyRuntimeError::new_err(message))
            }
            ChrfError::InvalidSettings(rule) => return (*rule).into(),
            ChrfError::ThreadCount { .. } => (Kind::Settings, Some("threads"), "out_of_range"),
            ChrfError::WeightCount { .. } => (Kind::Input, Some("weights"), "length_mismatch"),
            ChrfError::WeightSpan { .. } => (Kind::Input, Some("weights"), "out_of_range"),
            ChrfError::ResampleShape { .. } | ChrfError::RandomizationShape { .. } => {
                (Kind::Input, None, "shape_mismatch")
            }
            ChrfError::ResampleIndex { .. } => (Kind::Input, None, "out_of_range"),
            ChrfError::StatisticsShape
            | ChrfError::OutputShape { .. }
            | ChrfError::OrderCountMismatch { .. } => (Kind::Input, None, "shape_mismatch"),
            ChrfError::NoReferences => (Kind::Input, Some("references"), "empty"),
            ChrfError::StreamLength { .. } => (Kind::Input, Some("references"), "length_mismatch"),
        };
        refused(kind, message, argument, None, reason)
    }
}

/// Every rule of the core's settings alike: its message, argument and reason are the rule's own
/// (chrf-core's settings.rs), its class that of a setting or, for the data scored with the
/// settings, of an input.
impl From<SettingsRule> for Error {
    fn from(rule: SettingsRule) -> Self {
        let kind = if rule.refuses_input() {
            Kind::Input
        } else {
            Kind::Settings
        };
        refused(kind, rule.to_string(), rule.argument(), None, rule.reason())
    }
}

/// What is refused: the texts or data scored, or the settings; their value or their type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `InputError` (a `ValueError`).
    Input,
    /// `InputTypeError` (a `TypeError`).
    InputType,
    /// `SettingsError` (a `ValueError`).
    Settings,
    /// `SettingsTypeError` (a `TypeError`).
    SettingsType,
}

impl Kind {
    const ALL: [Self; 4] = [
        Self::Input,
        Self::InputType,
        Self::Settings,
        Self::SettingsType,
    ];

    /// The class's name in `chrf._errors`, and where it is kept once imported.
    fn class_cell(self) -> (&'static str, &'static PyOnceLock<Py<PyType>>) {
        static INPUT: PyOnceLock<Py<PyType>> = PyOnceLock::new();
        static INPUT_TYPE: PyOnceLock<Py<PyType>> = PyOnceLock::new();
        static SETTINGS: PyOnceLock<Py<PyType>> = PyOnceLock::new();
        static SETTINGS_TYPE: PyOnceLock<Py<PyType>> = PyOnceLock::new();
        match self {
            Self::Input => ("InputError", &INPUT),
            Self::InputType => ("InputTypeError", &INPUT_TYPE),
            Self::Settings => ("SettingsError", &SETTINGS),
            Self::SettingsType => ("SettingsTypeError", &SETTINGS_TYPE),
        }
    }

    /// The class, imported when the module loads ([`load_classes`]): raising imports nothing,
    /// so an error in a forked child or under a held import lock is raised as any other.
    fn class<'py>(self, py: Python<'py>) -> Option<&'py Bound<'py, PyType>> {
        self.class_cell().1.get(py).map(|class| class.bind(py))
    }

    /// The built-in class raised should `chrf._errors` be missing.
    fn fallback(self, message: String) -> PyErr {
        match self {
            Self::Input | Self::Settings => PyValueError::new_err(message),
            Self::InputType | Self::SettingsType => PyTypeError::new_err(message),
        }
    }
}

/// Imports the error classes of `chrf._errors` for [`refused`]; called as the module loads.
pub fn load_classes(py: Python<'_>) -> PyResult<()> {
    for kind in Kind::ALL {
        let (name, cell) = kind.class_cell();
        cell.import(py, "chrf._errors", name)?;
    }
    Ok(())
}

/// The error of `kind` with `message` and its fields: `argument` is the public argument (the
/// part of a name such as `references[2][0]` before its first `[`), `index` the segment's.
pub fn refused(
    kind: Kind,
    message: String,
    argument: Option<&str>,
    index: Option<usize>,
    reason: &'static str,
) -> Error {
    Python::attach(|py| {
        let Some(class) = kind.class(py) else {
            return Error(kind.fallback(message));
        };
        let made = (|| {
            let fields = PyDict::new(py);
            fields.set_item("argument", argument.map(argument_of))?;
            fields.set_item("index", index)?;
            fields.set_item("reason", reason)?;
            class.call((message,), Some(&fields))
        })();
        Error(match made {
            Ok(instance) => PyErr::from_value(instance),
            Err(error) => error, // a MemoryError while building it
        })
    })
}

/// The public argument of an item's name: `references` of `references[2][0]`.
pub fn argument_of(name: &str) -> &str {
    name.split('[').next().unwrap_or(name)
}

impl From<Error> for PyErr {
    fn from(error: Error) -> Self {
        error.0
    }
}

/// An `InputError` with `message`, for `argument` (a name such as `references[2]`), segment
/// `index`, and `reason`.
pub fn input_error(
    message: String,
    argument: &str,
    index: Option<usize>,
    reason: &'static str,
) -> Error {
    refused(Kind::Input, message, Some(argument), index, reason)
}

/// An `InputTypeError` with `message`, for `argument`, segment `index`, and `reason`.
pub fn input_type_error(
    message: String,
    argument: &str,
    index: Option<usize>,
    reason: &'static str,
) -> Error {
    refused(Kind::InputType, message, Some(argument), index, reason)
}

/// The `InputTypeError` of an Arrow column named `name` of the wrong type.
pub fn arrow_type_error(name: &str, message: String) -> Error {
    input_type_error(message, argument_of(name), None, "not_a_string_column")
}

/// The `InputError` of Arrow data named `name` that is not valid.
pub fn arrow_error(name: &str, message: String) -> Error {
    input_error(message, argument_of(name), None, "invalid_arrow")
}

/// An item's name as its errors show it (`references[2][0]`), and the index of its segment
/// (hypothesis i's, whatever the layout; a batch item's in a batch), when it is in one.
pub type Named = (String, Option<usize>);

/// The `InputError` of an argument (or a batch item) named `name` that holds no text.
pub fn empty(name: &str, index: Option<usize>) -> Error {
    input_error(format!("{name} must not be empty"), name, index, "empty")
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
