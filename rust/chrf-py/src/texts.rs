//! One text read out of a Python object (its type, lone surrogates, Python's lowercasing), and
//! the [`Text`] the scorers take, kept alive by what owns its bytes.

use std::sync::Arc;

use pyo3::exceptions::PyUnicodeEncodeError;
use pyo3::prelude::*;
use pyo3::pybacked::PyBackedStr;
use pyo3::types::{PyList, PyString};

use crate::arrow::ArrowText;
use crate::errors::{input_error, input_type_error, out_of_memory, reserved, Error, Named, Result};
use crate::names::names;
use crate::objects::new_str;

/// A text as the core reads it, borrowed in place from its owner: a Python `str` (no copy when
/// the str holds its UTF-8 already, as ASCII strs do), or a row of an Arrow string array; or,
/// for a long str that is not ASCII, its UTF-8 copied for the call (see [`LONG_TEXT`]). The
/// scorers take any of them through `AsRef<str>`.
pub enum Text {
    Python(PyBackedStr),
    Arrow(ArrowText),
    Copied {
        utf8: Arc<String>,
        original: Py<PyString>,
    },
}

/// Characters from which a str that is not ASCII is read through a UTF-8 copy that lives as
/// long as the call, not through the UTF-8 that CPython makes on first request and keeps inside
/// the str for the str's life: that would leave the caller's long texts holding a second copy
/// of themselves after the call. Below, the copy would cost more than it saves: an object per
/// text on every call, where CPython's is made once, and no larger than its str.
pub const LONG_TEXT: usize = 1 << 16;

impl AsRef<str> for Text {
    fn as_ref(&self) -> &str {
        match self {
            Self::Python(text) => text,
            Self::Arrow(text) => text.as_ref(),
            Self::Copied { utf8, .. } => utf8,
        }
    }
}

impl Text {
    /// The text as a Python str (made for an Arrow row: `MemoryError` if it cannot be).
    pub fn to_py(&self, py: Python<'_>) -> Result<Py<PyString>> {
        Ok(match self {
            Self::Python(text) => text.as_py_str().clone_ref(py),
            Self::Arrow(text) => new_str(py, text.as_ref())?.unbind(),
            Self::Copied { original, .. } => original.clone_ref(py),
        })
    }

    /// The same text, its owner shared.
    pub fn clone_ref(&self, py: Python<'_>) -> Self {
        match self {
            Self::Python(text) => Self::Python(text.clone_ref(py)),
            Self::Arrow(text) => Self::Arrow(text.clone()),
            Self::Copied { utf8, original } => Self::Copied {
                utf8: Arc::clone(utf8),
                original: original.clone_ref(py),
            },
        }
    }
}

/// The texts of one column as they were read: what the core reads (lowercased if asked) and,
/// when lowercased, the caller's own strs.
pub struct Column {
    pub texts: Vec<Text>,
    pub originals: Option<Vec<Py<PyString>>>,
}

/// Items read between two checks for Ctrl-C: a few milliseconds of work.
pub const SIGNAL_CHECK_INTERVAL: usize = 1 << 16;

/// How a list's items are read: lowercased or not, and whether `None` is a placeholder (its
/// position is reported, a stand-in text kept there) rather than an error.
#[derive(Clone, Copy)]
pub struct Reading {
    pub lowercase: bool,
    pub placeholders: bool,
}

/// The rows of an Arrow column, read in place. Lowercased through Python's own str.lower(), as
/// a list's texts are: its Unicode tables are the ones sacreBLEU's numbers use.
pub fn read_arrow_rows(
    py: Python<'_>,
    rows: &[ArrowText],
    lowercase: bool,
    name: impl Fn(usize) -> Named,
) -> Result<Column> {
    let mut texts = reserved(rows.len())?;
    if !lowercase {
        texts.extend(rows.iter().cloned().map(Text::Arrow));
        return Ok(Column {
            texts,
            originals: None,
        });
    }
    let mut originals = reserved(rows.len())?;
    for (i, row) in rows.iter().enumerate() {
        if i % SIGNAL_CHECK_INTERVAL == 0 {
            py.check_signals()?;
        }
        let (text, original) = read_arrow_text(py, row, true, || name(i))?;
        texts.push(text);
        originals.extend(original);
    }
    Ok(Column {
        texts,
        originals: Some(originals),
    })
}

/// One row of an Arrow column as the core reads it and, when lowercased, the row as a str.
pub fn read_arrow_text(
    py: Python<'_>,
    row: &ArrowText,
    lowercase: bool,
    name: impl FnOnce() -> Named,
) -> Result<(Text, Option<Py<PyString>>)> {
    if !lowercase {
        return Ok((Text::Arrow(row.clone()), None));
    }
    read_item(new_str(py, row.as_ref())?.into_any(), true, name)
}

/// The items of a list; see [`crate::listing::read_column`].
pub fn read_list(
    list: &Bound<'_, PyList>,
    reading: Reading,
    name: impl Fn(usize) -> Named,
    holes: &mut Vec<usize>,
) -> Result<Column> {
    let py = list.py();
    let mut texts = reserved(list.len())?;
    let mut originals = if reading.lowercase {
        Some(reserved(list.len())?)
    } else {
        None
    };
    for (i, item) in list.iter().enumerate() {
        if i % SIGNAL_CHECK_INTERVAL == 0 {
            // Reading millions of texts takes seconds: Ctrl-C must not wait for its end.
            py.check_signals()?;
        }
        if reading.placeholders && item.is_none() {
            holes.push(i);
            // A stand-in, replaced by the segment's first present reference once all are read.
            let blank = new_str(py, "")?;
            texts.push(Text::Python(PyBackedStr::try_from(blank.clone())?));
            if let Some(originals) = originals.as_mut() {
                originals.push(blank.unbind());
            }
            continue;
        }
        let (text, original) = read_item(item, reading.lowercase, || name(i))?;
        texts.push(text);
        if let (Some(originals), Some(original)) = (originals.as_mut(), original) {
            originals.push(original);
        }
    }
    Ok(Column { texts, originals })
}

/// One text; errors name it `name`, of segment `index`.
#[inline(always)]
pub fn read_one(
    item: &Bound<'_, PyAny>,
    name: &str,
    index: Option<usize>,
    lowercase: bool,
) -> Result<Text> {
    Ok(read_item(item.clone(), lowercase, || (name.to_string(), index))?.0)
}

/// One text as the core reads it and, when lowercased, the caller's str; errors name it
/// `name()`.
#[inline(always)]
pub fn read_item(
    item: Bound<'_, PyAny>,
    lowercase: bool,
    name: impl FnOnce() -> Named,
) -> Result<(Text, Option<Py<PyString>>)> {
    read_text(item, lowercase).map_err(|e| e.named(name))
}

/// Why one item could not be read; the caller adds the item's name.
enum TextError {
    NotStr(String),
    LoneSurrogate,
    Python(PyErr),
}

impl TextError {
    /// The error, naming the item `name()`. A Python error (a `MemoryError` above all) is
    /// raised as it is: formatting the name allocates, where memory may have run out.
    fn named(self, name: impl FnOnce() -> Named) -> Error {
        match self {
            Self::NotStr(type_name) => {
                let (name, index) = name();
                let message = format!("{name} must be str, not {type_name}");
                input_type_error(message, &name, index, "not_a_string")
            }
            Self::LoneSurrogate => {
                let (name, index) = name();
                let message =
                    format!("{name} is not valid Unicode text: it contains a lone surrogate");
                input_error(message, &name, index, "lone_surrogate")
            }
            Self::Python(err) => err.into(),
        }
    }
}

/// The name of an object's type, as Python's `type(value).__name__`.
pub fn type_name(value: &Bound<'_, PyAny>) -> String {
    value
        .get_type()
        .name()
        .map_or_else(|_| "an unknown type".to_string(), |n| n.to_string())
}

/// An item as the core reads it and, when lowercased, the caller's str.
fn read_text(
    item: Bound<'_, PyAny>,
    lowercase: bool,
) -> std::result::Result<(Text, Option<Py<PyString>>), TextError> {
    let py = item.py();
    let text = item
        .cast_into::<PyString>()
        .map_err(|e| TextError::NotStr(type_name(&e.into_inner())))?;
    if !lowercase {
        if is_long_and_not_ascii(&text).map_err(TextError::Python)? {
            return Ok((copied(text)?, None));
        }
        let text = PyBackedStr::try_from(text).map_err(|e| unencodable(py, e))?;
        return Ok((Text::Python(text), None));
    }
    // Python's own str.lower(): its Unicode tables are the ones sacreBLEU's numbers use. A
    // lone surrogate stays one, and is found in the lowered text.
    let lowered = text
        .call_method0(names(py).map_err(TextError::Python)?.lower.bind(py))
        .and_then(|lowered| Ok(lowered.cast_into::<PyString>()?))
        .map_err(TextError::Python)?;
    let lowered = PyBackedStr::try_from(lowered).map_err(|e| unencodable(py, e))?;
    Ok((Text::Python(lowered), Some(text.unbind())))
}

/// Whether `text` has [`LONG_TEXT`] characters or more, not all ASCII (whose UTF-8 is the
/// str's own data, which CPython hands out without a copy).
fn is_long_and_not_ascii(text: &Bound<'_, PyString>) -> PyResult<bool> {
    if text.len()? < LONG_TEXT {
        return Ok(false);
    }
    let ascii = text.call_method0(names(text.py())?.isascii.bind(text.py()))?;
    Ok(!ascii.is_truthy()?)
}

/// The UTF-8 of `text`, copied out of a bytes object made and freed here (see [`LONG_TEXT`]).
fn copied(text: Bound<'_, PyString>) -> std::result::Result<Text, TextError> {
    let py = text.py();
    let bytes = text.encode_utf8().map_err(|e| unencodable(py, e))?;
    let Ok(utf8) = simdutf8::basic::from_utf8(bytes.as_bytes()) else {
        // CPython's encoder makes valid UTF-8 or raises: not reachable.
        return Err(TextError::LoneSurrogate);
    };
    let mut owned = String::new();
    owned
        .try_reserve_exact(utf8.len())
        .map_err(|_| TextError::Python(out_of_memory(utf8.len()).into()))?;
    owned.push_str(utf8);
    Ok(Text::Copied {
        utf8: Arc::new(owned),
        original: text.unbind(),
    })
}

/// Why a str's UTF-8 could not be had: a lone surrogate (UnicodeEncodeError), or, as the UTF-8
/// of a non-ASCII str is made on first use, no memory for it (MemoryError, kept as it is).
fn unencodable(py: Python<'_>, error: PyErr) -> TextError {
    if error.is_instance_of::<PyUnicodeEncodeError>(py) {
        TextError::LoneSurrogate
    } else {
        TextError::Python(error)
    }
}
