//! Reading Python strings: type checks and errors that name the argument and segment index.

use chrf_core::Corpus;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::pybacked::PyBackedStr;
use pyo3::types::{PyList, PyString};

use crate::errors::out_of_memory;

/// Texts read out of Python strings, kept alive by the strings themselves (no copy for ASCII).
pub struct Texts {
    pub hypotheses: Vec<PyBackedStr>,
    pub references: Vec<Vec<PyBackedStr>>,
}

impl Texts {
    /// Reads `hypotheses` (a list) and `references` (a list of reference streams, each a list).
    /// `nested` says whether the caller passed streams, so that errors name what the caller wrote.
    pub fn read(
        hypotheses: &Bound<'_, PyList>,
        references: &Bound<'_, PyList>,
        nested: bool,
        lowercase: bool,
    ) -> PyResult<Self> {
        let hypotheses = read_texts(hypotheses, "hypotheses", lowercase)?;
        let references = references
            .iter()
            .enumerate()
            .map(|(k, stream)| {
                let stream = stream.cast_into::<PyList>().map_err(|_| {
                    PyTypeError::new_err(format!("references[{k}] must be a list of str"))
                })?;
                read_list(&stream, lowercase, |i| {
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

    pub fn corpus(&self) -> crate::errors::Result<Corpus<'_, PyBackedStr>> {
        Ok(Corpus::new(&self.hypotheses, &self.references)?)
    }
}

/// A list of texts; errors name item i as `name[i]`.
pub fn read_texts(
    list: &Bound<'_, PyList>,
    name: &str,
    lowercase: bool,
) -> PyResult<Vec<PyBackedStr>> {
    read_list(list, lowercase, |i| format!("{name}[{i}]"))
}

/// A list of lists of texts; errors name item i of list b as `name[b][i]`.
pub fn read_batches(
    lists: &Bound<'_, PyList>,
    name: &str,
    lowercase: bool,
) -> PyResult<Vec<Vec<PyBackedStr>>> {
    lists
        .iter()
        .enumerate()
        .map(|(b, list)| {
            let list = list
                .cast_into::<PyList>()
                .map_err(|_| PyTypeError::new_err(format!("{name}[{b}] must be a list of str")))?;
            read_list(&list, lowercase, |i| format!("{name}[{b}][{i}]"))
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
) -> PyResult<Vec<PyBackedStr>> {
    let mut texts = Vec::new();
    texts.try_reserve_exact(list.len()).map_err(|_| {
        PyErr::from(out_of_memory(
            list.len()
                .saturating_mul(std::mem::size_of::<PyBackedStr>()),
        ))
    })?;
    for (i, item) in list.iter().enumerate() {
        if i % SIGNAL_CHECK_INTERVAL == 0 {
            // Reading millions of texts takes seconds: Ctrl-C must not wait for its end.
            list.py().check_signals()?;
        }
        texts.push(read_text(item, lowercase).map_err(|e| e.named(&name(i)))?);
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
