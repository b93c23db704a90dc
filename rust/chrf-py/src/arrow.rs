//! Arrow string columns read in place: any object exporting `__arrow_c_array__` or
//! `__arrow_c_stream__` (pyarrow arrays and chunked arrays, polars Series, ...) becomes an
//! [`ArrowColumn`], whose texts point into the Arrow arrays' UTF-8 buffers and keep those
//! arrays alive. No Python string is made per row.
//!
//! The seam with the reader of texts ([`crate::texts`]) is narrow: [`ArrowColumn::texts`] gives
//! the rows as [`ArrowText`]s (each `AsRef<str>`), and [`read_arrow`] is what Python calls to
//! turn an Arrow object into columns, with errors naming the argument and the row.

use std::sync::Arc;

use arrow_array::cast::AsArray;
use arrow_array::{
    Array, ArrayRef, GenericListArray, GenericStringArray, LargeStringArray, OffsetSizeTrait,
    StringArray, StringViewArray,
};
use arrow_schema::DataType;
use pyo3::exceptions::{PyIndexError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyIterator, PyList, PySlice, PyString};
use pyo3_arrow::input::AnyArray;

use crate::to_py_err;
use chrf_core::ChrfError;

/// One array of UTF-8 strings, of any of Arrow's three string layouts.
enum Chunk {
    Utf8(StringArray),
    LargeUtf8(LargeStringArray),
    View(StringViewArray),
}

impl Chunk {
    /// The array as a chunk of strings, or None if it holds something else.
    fn of(array: &dyn Array) -> Option<Self> {
        match array.data_type() {
            DataType::Utf8 => array.as_string_opt::<i32>().cloned().map(Self::Utf8),
            DataType::LargeUtf8 => array.as_string_opt::<i64>().cloned().map(Self::LargeUtf8),
            DataType::Utf8View => array.as_string_view_opt().cloned().map(Self::View),
            _ => None,
        }
    }

    fn array(&self) -> &dyn Array {
        match self {
            Self::Utf8(array) => array,
            Self::LargeUtf8(array) => array,
            Self::View(array) => array,
        }
    }

    /// Row `row` (below the array's length: texts are made only for rows that exist).
    fn value(&self, row: usize) -> &str {
        match self {
            Self::Utf8(array) => array.value(row),
            Self::LargeUtf8(array) => array.value(row),
            Self::View(array) => array.value(row),
        }
    }
}

/// Whether `data_type` is one of Arrow's string types.
fn is_string(data_type: &DataType) -> bool {
    matches!(
        data_type,
        DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View
    )
}

/// A type as pyarrow and polars users know it (`int64`, `list<string>`), not in Rust's terms.
fn type_name(data_type: &DataType) -> String {
    match data_type {
        DataType::Utf8 => "string".into(),
        DataType::LargeUtf8 => "large_string".into(),
        DataType::Utf8View => "string_view".into(),
        DataType::List(item) => format!("list<{}>", type_name(item.data_type())),
        DataType::LargeList(item) => format!("large_list<{}>", type_name(item.data_type())),
        DataType::Dictionary(_, values) => format!("dictionary<{}>", type_name(values)),
        other => other.to_string().to_lowercase(),
    }
}

/// One row of a string column: the array it lives in, kept alive, and its index there.
#[derive(Clone)]
pub struct ArrowText {
    chunk: Arc<Chunk>,
    row: usize,
}

impl AsRef<str> for ArrowText {
    fn as_ref(&self) -> &str {
        self.chunk.value(self.row)
    }
}

/// A column of texts read from Arrow arrays, without a null: to Python a read-only sequence
/// of str (each item made on demand), to the reader of texts a slice of [`ArrowText`]s.
#[pyclass(frozen, sequence, module = "chrf._chrf")]
pub struct ArrowColumn {
    texts: Vec<ArrowText>,
}

impl ArrowColumn {
    pub fn texts(&self) -> &[ArrowText] {
        &self.texts
    }
}

#[pymethods]
impl ArrowColumn {
    fn __len__(&self) -> usize {
        self.texts.len()
    }

    fn __getitem__<'py>(
        &self,
        py: Python<'py>,
        index: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        if let Ok(slice) = index.cast::<PySlice>() {
            let range = slice.indices(isize::try_from(self.texts.len()).unwrap_or(isize::MAX))?;
            // Every row is within the column: PySlice::indices clamps to its length.
            let rows = (0..range.slicelength).filter_map(|n| {
                let row = isize::try_from(n).ok()?.checked_mul(range.step)?;
                let row = usize::try_from(range.start.checked_add(row)?).ok()?;
                self.texts.get(row).map(AsRef::as_ref)
            });
            return Ok(PyList::new(py, rows)?.into_any());
        }
        let index: isize = index.extract()?;
        let row = if index < 0 {
            index.checked_add_unsigned(self.texts.len())
        } else {
            Some(index)
        };
        row.and_then(|row| usize::try_from(row).ok())
            .and_then(|row| self.texts.get(row))
            .map(|text| PyString::new(py, text.as_ref()).into_any())
            .ok_or_else(|| PyIndexError::new_err("ArrowColumn index out of range"))
    }

    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyIterator>> {
        PyList::new(py, self.texts.iter().map(AsRef::as_ref))?.try_iter()
    }

    fn __contains__(&self, item: &Bound<'_, PyAny>) -> bool {
        // Only a str can be a row: None, sacreBLEU's placeholder, never is.
        let Ok(text) = item.cast::<PyString>() else {
            return false;
        };
        let Ok(text) = text.to_str() else {
            return false;
        };
        self.texts.iter().any(|row| row.as_ref() == text)
    }
}

/// The references of each hypothesis, read from a list<string> column: transposed into
/// reference streams as the Python reader does it for lists (stream k holds reference k of
/// each hypothesis, or its first reference where it has fewer), nulls inside a list being
/// sacreBLEU's placeholders for a missing reference.
#[pyclass(frozen, module = "chrf._chrf")]
pub struct ArrowLists {
    rows: usize,
    streams: Vec<Py<ArrowColumn>>,
}

#[pymethods]
impl ArrowLists {
    fn __len__(&self) -> usize {
        self.rows
    }

    /// The reference streams.
    #[getter]
    fn streams(&self, py: Python<'_>) -> Vec<Py<ArrowColumn>> {
        self.streams.iter().map(|s| s.clone_ref(py)).collect()
    }
}

/// Reads an object exporting Arrow's PyCapsule interface, named `name` in errors: a string
/// column becomes an [`ArrowColumn`]; a list<string> column becomes an [`ArrowLists`] if
/// `lists` (the references of each hypothesis), else a TypeError. A null string is a
/// ValueError naming its row (`name[i] is null`), and so is a null list.
#[pyfunction]
pub fn read_arrow(
    py: Python<'_>,
    value: &Bound<'_, PyAny>,
    name: &str,
    lists: bool,
) -> PyResult<Py<PyAny>> {
    let reader = value.extract::<AnyArray>()?.into_reader()?;
    let data_type = reader.field().data_type().clone();
    let arrays = reader
        .collect::<Result<Vec<ArrayRef>, _>>()
        .map_err(|error| PyValueError::new_err(format!("{name} could not be read: {error}")))?;
    match &data_type {
        t if is_string(t) => Ok(Py::new(py, column(&arrays, name)?)?.into_any()),
        DataType::List(item) | DataType::LargeList(item)
            if lists && is_string(item.data_type()) =>
        {
            Ok(Py::new(py, list_column(py, &arrays, name)?)?.into_any())
        }
        other => Err(PyTypeError::new_err(format!(
            "{name} must be an Arrow column of strings (string, large_string or string_view){}, \
             not {}",
            if lists {
                ", or of lists of strings"
            } else {
                ""
            },
            type_name(other)
        ))),
    }
}

/// The chunks of a string column, each checked: UTF-8 and offsets valid (a producer can hand
/// over any bytes), no null.
fn column(arrays: &[ArrayRef], name: &str) -> PyResult<ArrowColumn> {
    let rows = arrays.iter().map(|a| a.len()).sum::<usize>();
    let mut texts = reserved(rows)?;
    let mut first_row = 0;
    for array in arrays {
        let chunk = checked_chunk(array.as_ref(), name)?;
        if let Some(row) = first_null(chunk.array()) {
            return Err(null_error(name, first_row + row));
        }
        let chunk = Arc::new(chunk);
        texts.extend((0..array.len()).map(|row| ArrowText {
            chunk: chunk.clone(),
            row,
        }));
        first_row += array.len();
    }
    Ok(ArrowColumn { texts })
}

fn checked_chunk(array: &dyn Array, name: &str) -> PyResult<Chunk> {
    let chunk = Chunk::of(array).ok_or_else(|| {
        PyTypeError::new_err(format!(
            "{name} must be an Arrow column of strings, not {}",
            type_name(array.data_type())
        ))
    })?;
    let checked = match &chunk {
        Chunk::Utf8(strings) => check_offsets(strings),
        Chunk::LargeUtf8(strings) => check_offsets(strings),
        Chunk::View(strings) => check_views(strings),
    };
    checked.map_err(|error| {
        PyValueError::new_err(format!("{name} is not valid Arrow data: {error}"))
    })?;
    Ok(chunk)
}

/// Checks what reading the rows of `strings` relies on, as arrow's `validate_full` does but
/// over the rows' own bytes only (a slice of a large array is not checked whole, once per
/// slice): offsets in order and within the values, every row valid UTF-8. A producer across
/// the C interface can hand over any bytes.
fn check_offsets<O: OffsetSizeTrait>(strings: &GenericStringArray<O>) -> Result<(), String> {
    let offsets = strings.value_offsets();
    let values = strings.values().as_slice();
    let (Some(first), Some(last)) = (offsets.first(), offsets.last()) else {
        return Ok(());
    };
    let outside = "offsets outside the values";
    let (base, last) = first.to_usize().zip(last.to_usize()).ok_or(outside)?;
    let text = values.get(base..last).ok_or(outside)?;
    // SIMD validation: std's goes byte by byte through non-ASCII text, and every row of every
    // call is validated, so its speed is most of the Arrow path's own cost.
    let text = simdutf8::basic::from_utf8(text).map_err(|_| "invalid UTF-8".to_string())?;
    for pair in offsets.windows(2) {
        let in_order = pair[0] <= pair[1];
        let end = pair[1].to_usize().and_then(|end| end.checked_sub(base));
        if !in_order || !end.is_some_and(|end| text.is_char_boundary(end)) {
            return Err("offsets out of order, or inside a character".into());
        }
    }
    Ok(())
}

/// Checks what reading the rows of a string_view array relies on: every view within its data
/// buffer, every row valid UTF-8. A data buffer that is valid UTF-8 as a whole (as it is when it
/// holds nothing but the rows) is validated once, and then each row's bounds need only fall on
/// character boundaries; other buffers are validated row by row.
fn check_views(strings: &StringViewArray) -> Result<(), String> {
    let whole: Vec<Option<&str>> = strings
        .data_buffers()
        .iter()
        .map(|buffer| simdutf8::basic::from_utf8(buffer.as_slice()).ok())
        .collect();
    for (row, &view) in strings.views().iter().enumerate() {
        if strings.is_null(row) {
            continue; // a null's view need not point anywhere
        }
        // The view's layout (Arrow's columnar format): the length in the low 32 bits, then up
        // to 12 bytes inline, or a prefix, the buffer's index and the offset in it.
        let len = (view & 0xFFFF_FFFF) as usize;
        if len <= 12 {
            let inline = view.to_le_bytes();
            let bytes = inline
                .get(4..4 + len)
                .ok_or("a view's length is out of range")?;
            std::str::from_utf8(bytes).map_err(|_| "invalid UTF-8")?;
            continue;
        }
        let index = ((view >> 64) & 0xFFFF_FFFF) as usize;
        let start = ((view >> 96) & 0xFFFF_FFFF) as usize;
        let end = start
            .checked_add(len)
            .ok_or("a view is outside its buffer")?;
        let buffer = strings
            .data_buffers()
            .get(index)
            .and_then(|buffer| buffer.as_slice().get(start..end))
            .ok_or("a view is outside its buffer")?;
        match whole.get(index).copied().flatten() {
            Some(text) if text.is_char_boundary(start) && text.is_char_boundary(end) => {}
            Some(_) => return Err("a view splits a character".into()),
            None => {
                simdutf8::basic::from_utf8(buffer).map_err(|_| "invalid UTF-8")?;
            }
        }
    }
    Ok(())
}

fn first_null(array: &dyn Array) -> Option<usize> {
    if array.null_count() == 0 {
        return None;
    }
    (0..array.len()).find(|&row| array.is_null(row))
}

fn invalid(name: &str) -> PyErr {
    PyValueError::new_err(format!(
        "{name} is not valid Arrow data: list offsets out of bounds"
    ))
}

fn null_error(name: &str, row: usize) -> PyErr {
    PyValueError::new_err(format!("{name}[{row}] is null"))
}

/// A vector for `len` items, reserved fallibly: a column too long for memory is a MemoryError.
fn reserved<T>(len: usize) -> PyResult<Vec<T>> {
    let mut items = Vec::new();
    items.try_reserve_exact(len).map_err(|_| {
        to_py_err(ChrfError::OutOfMemory {
            bytes: len.saturating_mul(std::mem::size_of::<T>()),
        })
    })?;
    Ok(items)
}

/// The present references of each row of list<string> arrays, then transposed into streams.
fn list_column(py: Python<'_>, arrays: &[ArrayRef], name: &str) -> PyResult<ArrowLists> {
    let rows = arrays.iter().map(|a| a.len()).sum::<usize>();
    let mut per_row: Vec<Vec<ArrowText>> = reserved(rows)?;
    for array in arrays {
        let first_row = per_row.len();
        if let Some(lists) = array.as_list_opt::<i32>() {
            read_lists(lists, name, first_row, &mut per_row)?;
        } else if let Some(lists) = array.as_list_opt::<i64>() {
            read_lists(lists, name, first_row, &mut per_row)?;
        } else {
            return Err(PyTypeError::new_err(format!(
                "{name} must be an Arrow column of lists of strings, not {}",
                type_name(array.data_type())
            )));
        }
    }
    let width = per_row.iter().map(Vec::len).max().unwrap_or(0);
    let streams = (0..width)
        .map(|k| {
            let mut texts = reserved(per_row.len())?;
            // Every row has a first reference: rows without one were refused.
            texts.extend(
                per_row
                    .iter()
                    .filter_map(|row| row.get(k).or(row.first()).cloned()),
            );
            Py::new(py, ArrowColumn { texts })
        })
        .collect::<PyResult<_>>()?;
    Ok(ArrowLists { rows, streams })
}

fn read_lists<O: OffsetSizeTrait>(
    lists: &GenericListArray<O>,
    name: &str,
    first_row: usize,
    per_row: &mut Vec<Vec<ArrowText>>,
) -> PyResult<()> {
    let values = Arc::new(checked_chunk(lists.values().as_ref(), name)?);
    let items = values.array().len();
    for (row, bounds) in lists.value_offsets().windows(2).enumerate() {
        let i = first_row + row;
        if lists.is_null(row) {
            return Err(null_error(name, i));
        }
        let (Some(start), Some(end)) = (bounds[0].to_usize(), bounds[1].to_usize()) else {
            return Err(invalid(name));
        };
        if start > end || end > items {
            return Err(invalid(name));
        }
        let mut present = reserved(end - start)?;
        present.extend(
            (start..end)
                .filter(|&j| !values.array().is_null(j))
                .map(|j| ArrowText {
                    chunk: values.clone(),
                    row: j,
                }),
        );
        if present.is_empty() {
            return Err(PyValueError::new_err(format!(
                "{name}[{i}] has no reference: hypothesis {i} needs at least one"
            )));
        }
        per_row.push(present);
    }
    Ok(())
}
