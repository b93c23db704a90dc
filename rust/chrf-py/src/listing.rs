//! The caller's sequences as lists: a list is taken as it is, an Arrow column is read in place,
//! any other ordered iterable is listed, and what is no sequence of texts (a lone str, a set, a
//! mapping) is refused by name.

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList, PyString, PyType};

use crate::arrow::{exports_arrow, read_arrow, read_arrow_texts, ArrowColumn, ArrowText};
use crate::errors::{argument_of, input_type_error, Named, Result};
use crate::names::{names, Names};
use crate::objects::{new_list, new_str};
use crate::texts::{read_arrow_rows, read_list, type_name, Column, Reading};

fn is_instance(value: &Bound<'_, PyAny>, abc: impl Fn(&Names) -> &Py<PyType>) -> Result<bool> {
    let abc = abc(names(value.py())?).bind(value.py());
    Ok(value.is_instance(abc)?)
}

/// `isinstance(value, collections.abc.Iterable)`: what `for` takes by its `__iter__`.
fn is_iterable(value: &Bound<'_, PyAny>) -> Result<bool> {
    is_instance(value, |names| &names.iterable)
}

/// A collection whose iteration order is no order of segments: a set of hypotheses would be
/// paired with the references in whatever order its hashes give.
fn is_unordered(value: &Bound<'_, PyAny>) -> Result<bool> {
    Ok(is_instance(value, |names| &names.set)?
        || is_instance(value, |names| &names.mapping)?
        || is_instance(value, |names| &names.keys_view)?
        || is_instance(value, |names| &names.items_view)?)
}

/// A text where a sequence of texts might be: a str or bytes, or anything not iterable (None, a
/// number) nor an Arrow column, which is then read, and refused, as a text.
pub fn is_text_like(value: &Bound<'_, PyAny>) -> Result<bool> {
    if value.is_instance_of::<PyString>() || value.is_instance_of::<PyBytes>() {
        return Ok(true);
    }
    // A list, the usual stream, is told apart without looking up Arrow's capsule methods.
    if value.is_instance_of::<PyList>() {
        return Ok(false);
    }
    Ok(!exports_arrow(value) && !is_iterable(value)?)
}

/// The items of a sequence argument named `name`. A list is taken as it is (never copied, never
/// changed); another iterable is listed, list subclasses included (their `__len__` or
/// `__getitem__` may say otherwise than their items). A lone str is refused, not split into
/// characters, and so is an unordered collection (a set, a mapping, a dict's keys). `index`
/// is the segment (or batch item) the sequence belongs to, for its errors.
#[inline(always)]
pub fn listed<'py>(
    value: &Bound<'py, PyAny>,
    name: &str,
    index: Option<usize>,
) -> Result<Bound<'py, PyList>> {
    match value.cast_exact::<PyList>() {
        Ok(list) => Ok(list.clone()),
        Err(_) => listed_other(value, name, index),
    }
}

/// The texts of a sequence argument as the reader takes them: a list, or an Arrow column.
pub enum Items<'py> {
    List(Bound<'py, PyList>),
    Arrow(Python<'py>, Vec<ArrowText>),
    /// A list<string> column: each row's present references and their positions in the row.
    ArrowRows(Python<'py>, Vec<Vec<(usize, ArrowText)>>),
}

impl Items<'_> {
    pub fn len(&self) -> usize {
        match self {
            Self::List(list) => list.len(),
            Self::Arrow(_, rows) => rows.len(),
            Self::ArrowRows(_, rows) => rows.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// The texts of a sequence argument named `name`: as [`listed`], except that an Arrow column
/// is read in place, from its UTF-8 buffers; a list<string> column only where `rows` (the
/// references of each hypothesis) may be.
#[inline(always)]
pub fn items<'py>(
    value: &Bound<'py, PyAny>,
    name: &str,
    index: Option<usize>,
    rows: bool,
) -> Result<Items<'py>> {
    if let Ok(list) = value.cast_exact::<PyList>() {
        return Ok(Items::List(list.clone()));
    }
    if exports_arrow(value) {
        return Ok(match read_arrow(value, name, rows)? {
            ArrowColumn::Texts(texts) => Items::Arrow(value.py(), texts),
            ArrowColumn::Rows(rows) => Items::ArrowRows(value.py(), rows),
        });
    }
    Ok(Items::List(listed_other(value, name, index)?))
}

/// `listed` of anything but a list. An Arrow column becomes a list of its rows as str: where
/// a sequence is read as a list (one segment's references, a row of them).
fn listed_other<'py>(
    value: &Bound<'py, PyAny>,
    name: &str,
    index: Option<usize>,
) -> Result<Bound<'py, PyList>> {
    if exports_arrow(value) {
        let texts = read_arrow_texts(value, name)?;
        let py = value.py();
        return new_list(py, texts.len(), |i| {
            Ok(new_str(py, texts[i].as_ref())?.into_any())
        });
    }
    let unordered = is_unordered(value)?;
    if unordered || is_text_like(value)? {
        let note = if unordered {
            " (an unordered collection)"
        } else {
            ""
        };
        let message = format!(
            "{name} must be a sequence of str, not {}{note}",
            type_name(value)
        );
        return Err(input_type_error(message, name, index, "not_a_sequence"));
    }
    let list = value.py().get_type::<PyList>().call1((value,))?;
    Ok(list.cast_into::<PyList>().map_err(PyErr::from)?)
}

/// `listed`, as a function for the Python modules, which also take sequences of other things
/// than texts: `items` names what their items are (weights: "numbers"), for the messages, and
/// such a sequence is never read as an Arrow column of texts.
#[pyfunction]
#[pyo3(name = "listed", signature = (value, name, items = None))]
pub fn listed_py<'py>(
    value: &Bound<'py, PyAny>,
    name: &str,
    items: Option<&str>,
) -> Result<Bound<'py, PyList>> {
    match (value.cast_exact::<PyList>(), items) {
        (Ok(list), _) => Ok(list.clone()),
        (Err(_), None) => listed_other(value, name, None),
        (Err(_), Some(items)) => listed_items(value, name, items),
    }
}

/// `listed` of anything but a list, for a sequence of `items` that are not texts.
fn listed_items<'py>(
    value: &Bound<'py, PyAny>,
    name: &str,
    items: &str,
) -> Result<Bound<'py, PyList>> {
    let refused = |kind: String| {
        let message = format!("{name} must be a sequence of {items}, not {kind}");
        input_type_error(message, name, None, "not_a_sequence")
    };
    if exports_arrow(value) {
        return Err(refused(
            "an Arrow column (pass a list of its values)".into(),
        ));
    }
    if is_unordered(value)? {
        let kind = type_name(value);
        return Err(refused(format!("{kind} (an unordered collection)")));
    }
    if is_text_like(value)? {
        return Err(refused(type_name(value)));
    }
    let list = value.py().get_type::<PyList>().call1((value,))?;
    Ok(list.cast_into::<PyList>().map_err(PyErr::from)?)
}

/// The items of a list or the rows of an Arrow column; errors name item i `name(i)`. The
/// positions of a list's `None` items go to `holes` when `reading.placeholders` allows them.
pub fn read_column(
    items: &Items<'_>,
    reading: Reading,
    name: impl Fn(usize) -> Named,
    holes: &mut Vec<usize>,
) -> Result<Column> {
    match items {
        Items::List(list) => read_list(list, reading, name, holes),
        Items::Arrow(py, rows) => read_arrow_rows(*py, rows, reading.lowercase, name),
        Items::ArrowRows(..) => {
            let (name, index) = name(0);
            let column = name.trim_end_matches("[0]");
            let message = format!("{column} must be an Arrow column of strings, not of lists");
            // `name(0)` is the column's first row: its index is the column's own, if any.
            let index = index.filter(|_| column.ends_with(']'));
            Err(input_type_error(
                message,
                argument_of(column),
                index,
                "not_a_string",
            ))
        }
    }
}
