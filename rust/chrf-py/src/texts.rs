//! Reading Python strings: type checks and errors that name the argument and segment index.

use chrf_core::{ChrfError, Corpus};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::pybacked::PyBackedStr;
use pyo3::types::{PyList, PyString};

use crate::arrow::ArrowColumn;
use crate::to_py_err;

/// One text: a Python string's UTF-8 (no copy for ASCII), or a row of an Arrow column read in
/// place (see [`crate::arrow`]); either keeps its owner alive.
pub enum Text {
    Python(PyBackedStr),
    Arrow(crate::arrow::ArrowText),
}

impl AsRef<str> for Text {
    fn as_ref(&self) -> &str {
        match self {
            Self::Python(text) => text,
            Self::Arrow(text) => text.as_ref(),
        }
    }
}

/// Texts read out of Python strings or Arrow columns.
pub struct Texts {
    pub hypotheses: Vec<Text>,
    pub references: Vec<Vec<Text>>,
}

impl Texts {
    /// Reads `hypotheses` (a list) and `references` (a list of reference streams, each a list).
    /// `nested` says whether the caller passed streams, so that errors name what the caller wrote.
    pub fn read(
        hypotheses: &Bound<'_, PyAny>,
        references: &Bound<'_, PyList>,
        nested: bool,
        lowercase: bool,
    ) -> PyResult<Self> {
        let hypotheses = read_texts(hypotheses, "hypotheses", lowercase)?;
        let references = references
            .iter()
            .enumerate()
            .map(|(k, stream)| {
                let stream = column(&stream, || format!("references[{k}]"))?;
                read_column(&stream, lowercase, |i| {
                    if nested {
                        format!("references[{k}][{i}]")
                    } else {
                        format!("references[{i}]")
                    }
                })
            })
            .collect::<PyResult<Vec<_>>>()?;
        Ok(Self {
            hypotheses,
            references,
        })
    }

    pub fn corpus(&self) -> PyResult<Corpus<'_, Text>> {
        Corpus::new(&self.hypotheses, &self.references).map_err(to_py_err)
    }
}

/// A list of texts, or an Arrow column; errors name item i as `name[i]`.
pub fn read_texts(texts: &Bound<'_, PyAny>, name: &str, lowercase: bool) -> PyResult<Vec<Text>> {
    let texts = column(texts, || name.to_string())?;
    read_column(&texts, lowercase, |i| format!("{name}[{i}]"))
}

/// A column of texts as the caller passed it: a list of str, or a column read from Arrow.
enum Column<'a, 'py> {
    List(Bound<'py, PyList>),
    Arrow(PyRef<'a, ArrowColumn>),
}

fn column<'a, 'py>(
    texts: &'a Bound<'py, PyAny>,
    name: impl Fn() -> String,
) -> PyResult<Column<'a, 'py>> {
    if let Ok(list) = texts.cast::<PyList>() {
        return Ok(Column::List(list.clone()));
    }
    texts
        .cast::<ArrowColumn>()
        .map(|arrow| Column::Arrow(arrow.borrow()))
        .map_err(|_| PyTypeError::new_err(format!("{} must be a list of str", name())))
}

fn read_column(
    texts: &Column<'_, '_>,
    lowercase: bool,
    name: impl Fn(usize) -> String,
) -> PyResult<Vec<Text>> {
    match texts {
        Column::List(list) => read_list(list, lowercase, name),
        Column::Arrow(column) => read_arrow_column(column, lowercase),
    }
}

/// The rows of an Arrow column, checked when it was read. Lowercased through Python's own
/// str.lower(), as a list's texts are: its Unicode tables are the ones sacreBLEU's numbers use.
fn read_arrow_column(column: &ArrowColumn, lowercase: bool) -> PyResult<Vec<Text>> {
    let rows = column.texts();
    let mut texts = reserved(rows.len())?;
    if !lowercase {
        texts.extend(rows.iter().cloned().map(Text::Arrow));
        return Ok(texts);
    }
    Python::attach(|py| {
        for (i, row) in rows.iter().enumerate() {
            if i % SIGNAL_CHECK_INTERVAL == 0 {
                py.check_signals()?;
            }
            let lowered = PyString::new(py, row.as_ref())
                .call_method0(pyo3::intern!(py, "lower"))?
                .cast_into::<PyString>()?;
            texts.push(Text::Python(PyBackedStr::try_from(lowered)?));
        }
        Ok(texts)
    })
}

fn reserved(len: usize) -> PyResult<Vec<Text>> {
    let mut texts = Vec::new();
    texts.try_reserve_exact(len).map_err(|_| {
        to_py_err(ChrfError::OutOfMemory {
            bytes: len.saturating_mul(std::mem::size_of::<Text>()),
        })
    })?;
    Ok(texts)
}

/// A list of lists of texts; errors name item i of list b as `name[b][i]`.
pub fn read_batches(
    lists: &Bound<'_, PyList>,
    name: &str,
    lowercase: bool,
) -> PyResult<Vec<Vec<Text>>> {
    lists
        .iter()
        .enumerate()
        .map(|(b, list)| {
            let list = column(&list, || format!("{name}[{b}]"))?;
            read_column(&list, lowercase, |i| format!("{name}[{b}][{i}]"))
        })
        .collect()
}

/// One text; errors name it `name`.
pub fn read_one(item: &Bound<'_, PyAny>, name: &str, lowercase: bool) -> PyResult<PyBackedStr> {
    read_text(item.clone(), lowercase).map_err(|e| e.named(name))
}

/// Texts read between two checks for Ctrl-C: a few milliseconds of work.
const SIGNAL_CHECK_INTERVAL: usize = 1 << 16;

fn read_list(
    list: &Bound<'_, PyList>,
    lowercase: bool,
    name: impl Fn(usize) -> String,
) -> PyResult<Vec<Text>> {
    let mut texts = reserved(list.len())?;
    for (i, item) in list.iter().enumerate() {
        if i % SIGNAL_CHECK_INTERVAL == 0 {
            // Reading millions of texts takes seconds: Ctrl-C must not wait for its end.
            list.py().check_signals()?;
        }
        texts.push(Text::Python(
            read_text(item, lowercase).map_err(|e| e.named(&name(i)))?,
        ));
    }
    Ok(texts)
}

/// Why one item could not be read; the caller adds the item's name.
enum TextError {
    NotStr(String),
    LoneSurrogate,
    Python(PyErr),
}

impl TextError {
    fn named(self, name: &str) -> PyErr {
        match self {
            Self::NotStr(type_name) => {
                PyTypeError::new_err(format!("{name} must be str, not {type_name}"))
            }
            Self::LoneSurrogate => PyValueError::new_err(format!(
                "{name} is not valid Unicode text: it contains a lone surrogate"
            )),
            Self::Python(err) => err,
        }
    }
}

fn read_text(item: Bound<'_, PyAny>, lowercase: bool) -> Result<PyBackedStr, TextError> {
    let text = item.cast_into::<PyString>().map_err(|e| {
        let type_name = e
            .into_inner()
            .get_type()
            .qualname()
            .map_or_else(|_| "an unknown type".to_string(), |n| n.to_string());
        TextError::NotStr(type_name)
    })?;
    let text = if lowercase {
        // Python's own str.lower(): its Unicode tables are the ones sacreBLEU's numbers use.
        text.call_method0(pyo3::intern!(text.py(), "lower"))
            .and_then(|lowered| Ok(lowered.cast_into::<PyString>()?))
            .map_err(TextError::Python)?
    } else {
        text
    };
    PyBackedStr::try_from(text).map_err(|_| TextError::LoneSurrogate)
}
