//! Arrow string columns read in place: any object exporting `__arrow_c_array__` or
//! `__arrow_c_stream__` (pyarrow arrays and chunked arrays, polars Series, ...) is read into
//! [`ArrowText`]s that point into the Arrow arrays' UTF-8 buffers and keep those arrays alive.
//! No Python string is made per row.
//!
//! The reader of hypotheses and references ([`crate::listing::items`]) calls [`read_arrow`]
//! when an argument exports the capsules; everything after that is the reader's, as for lists.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;

use arrow_array::cast::AsArray;
use arrow_array::downcast_dictionary_array;
use arrow_array::{
    Array, ArrayRef, GenericListArray, GenericStringArray, LargeStringArray, OffsetSizeTrait,
    StringArray, StringViewArray,
};
use arrow_schema::DataType;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3_arrow::input::AnyArray;

use crate::errors::{reserved, value_error, Error, Result};

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

/// What an Arrow argument holds: a column of texts, or (where the references of each
/// hypothesis may be given) a list<string> column, each row's present references with their
/// positions in the caller's list (nulls inside a list are sacreBLEU's placeholders).
pub enum ArrowColumn {
    Texts(Vec<ArrowText>),
    Rows(Vec<Vec<(usize, ArrowText)>>),
}

/// Whether `value` hands out its data through Arrow's PyCapsule interface.
pub fn exports_arrow(value: &Bound<'_, PyAny>) -> bool {
    let kind = value.get_type();
    let py = value.py();
    kind.hasattr(pyo3::intern!(py, "__arrow_c_stream__"))
        .unwrap_or(false)
        || kind
            .hasattr(pyo3::intern!(py, "__arrow_c_array__"))
            .unwrap_or(false)
}

/// Reads an object exporting Arrow's PyCapsule interface, named `name` in errors: a string
/// column, or a list<string> column if `lists` (the references of each hypothesis). A null
/// string is a ValueError naming its row (`name[i] is null`), and so is a null list; another
/// type is a TypeError naming `name`.
pub fn read_arrow(value: &Bound<'_, PyAny>, name: &str, lists: bool) -> Result<ArrowColumn> {
    // arrow-rs asserts on some inconsistent data it imports (a producer can hand over anything):
    // such a panic is the caller's bad data, not a defect of ours.
    let imported = catch_unwind(AssertUnwindSafe(|| imported_arrays(value, name)));
    let (data_type, arrays) = imported.map_err(|panic| {
        let message = panic
            .downcast_ref::<&str>()
            .copied()
            .or_else(|| panic.downcast_ref::<String>().map(String::as_str))
            .unwrap_or("its import failed");
        value_error(format!("{name} is not valid Arrow data: {message}"))
    })??;
    match &data_type {
        t if is_string(t) => Ok(ArrowColumn::Texts(column(&arrays, name)?)),
        DataType::Dictionary(_, values) if is_string(values) => {
            let decoded = decoded(&arrays, values, name)?;
            Ok(ArrowColumn::Texts(column(&decoded, name)?))
        }
        DataType::List(item) | DataType::LargeList(item)
            if lists && is_string(item.data_type()) =>
        {
            Ok(ArrowColumn::Rows(list_rows(&arrays, name)?))
        }
        other => Err(type_error(format!(
            "{name} must be an Arrow column of strings (string, large_string, string_view, or a \
             dictionary of them){}, \
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

/// The arrays of an Arrow column and their type, imported through the capsules.
fn imported_arrays(value: &Bound<'_, PyAny>, name: &str) -> Result<(DataType, Vec<ArrayRef>)> {
    let reader = value.extract::<AnyArray>()?.into_reader()?;
    let data_type = reader.field().data_type().clone();
    let arrays = reader
        .collect::<std::result::Result<Vec<ArrayRef>, _>>()
        .map_err(|error| value_error(format!("{name} could not be read: {error}")))?;
    Ok((data_type, arrays))
}

/// The strings of dictionary-encoded chunks (pyarrow's `dictionary_encode()`, polars'
/// Categorical), each chunk decoded into a string array of the dictionary's type: a copy of
/// the texts, which the rows then point into.
fn decoded(arrays: &[ArrayRef], values: &DataType, name: &str) -> Result<Vec<ArrayRef>> {
    let mut decoded = reserved(arrays.len())?;
    for array in arrays {
        // The cast allocates its output infallibly (an abort if memory is short): the memory is
        // asked for fallibly first, and given back for the cast to take.
        reserved::<u8>(decoded_bytes(array.as_ref()))?;
        decoded.push(
            arrow_cast::cast(array, values)
                .map_err(|error| value_error(format!("{name} could not be decoded: {error}")))?,
        );
    }
    Ok(decoded)
}

/// The bytes a dictionary-encoded chunk of strings takes decoded: each row's value (a key
/// outside the dictionary counts nothing: the cast refuses it) and an offset per row.
fn decoded_bytes(array: &dyn Array) -> usize {
    fn span<O: OffsetSizeTrait>(offsets: &[O], key: usize) -> usize {
        match (offsets.get(key), offsets.get(key.saturating_add(1))) {
            (Some(start), Some(end)) => end.as_usize().saturating_sub(start.as_usize()),
            _ => 0,
        }
    }
    let values = downcast_dictionary_array! {
        array => {
            let chunk = Chunk::of(array.values().as_ref());
            let length = |key: usize| match &chunk {
                Some(Chunk::Utf8(strings)) => span(strings.value_offsets(), key),
                Some(Chunk::LargeUtf8(strings)) => span(strings.value_offsets(), key),
                // A view's low 32 bits are its length.
                Some(Chunk::View(strings)) => strings.views().get(key).map_or(0, |&v| v as u32 as usize),
                None => 0,
            };
            (0..array.len()).fold(0usize, |total, row| {
                total.saturating_add(array.key(row).map_or(0, length))
            })
        }
        _ => 0,
    };
    values.saturating_add(array.len().saturating_add(1).saturating_mul(8))
}

/// A string column (see [`read_arrow`]).
pub fn read_arrow_texts(value: &Bound<'_, PyAny>, name: &str) -> Result<Vec<ArrowText>> {
    match read_arrow(value, name, false)? {
        ArrowColumn::Texts(texts) => Ok(texts),
        // Not read without `lists`: a list<string> column is refused by type there.
        ArrowColumn::Rows(_) => Err(type_error(format!(
            "{name} must be an Arrow column of strings, not of lists"
        ))),
    }
}

fn type_error(message: String) -> Error {
    PyTypeError::new_err(message).into()
}

/// The chunks of a string column, each checked: UTF-8 and offsets valid (a producer can hand
/// over any bytes), no null.
fn column(arrays: &[ArrayRef], name: &str) -> Result<Vec<ArrowText>> {
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
    Ok(texts)
}

fn checked_chunk(array: &dyn Array, name: &str) -> Result<Chunk> {
    let chunk = Chunk::of(array).ok_or_else(|| {
        type_error(format!(
            "{name} must be an Arrow column of strings, not {}",
            type_name(array.data_type())
        ))
    })?;
    let checked = match &chunk {
        Chunk::Utf8(strings) => check_offsets(strings),
        Chunk::LargeUtf8(strings) => check_offsets(strings),
        Chunk::View(strings) => check_views(strings),
    };
    checked.map_err(|error| value_error(format!("{name} is not valid Arrow data: {error}")))?;
    Ok(chunk)
}

/// Checks what reading the rows of `strings` relies on, as arrow's `validate_full` does but
/// over the rows' own bytes only (a slice of a large array is not checked whole, once per
/// slice): offsets in order and within the values, every row valid UTF-8. A producer across
/// the C interface can hand over any bytes.
fn check_offsets<O: OffsetSizeTrait>(
    strings: &GenericStringArray<O>,
) -> std::result::Result<(), String> {
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
fn check_views(strings: &StringViewArray) -> std::result::Result<(), String> {
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

fn invalid(name: &str) -> Error {
    value_error(format!(
        "{name} is not valid Arrow data: list offsets out of bounds"
    ))
}

fn null_error(name: &str, row: usize) -> Error {
    value_error(format!("{name}[{row}] is null"))
}

/// The present references of each row of list<string> arrays, with their positions in the row.
fn list_rows(arrays: &[ArrayRef], name: &str) -> Result<Vec<Vec<(usize, ArrowText)>>> {
    let rows = arrays.iter().map(|a| a.len()).sum::<usize>();
    let mut per_row = reserved(rows)?;
    for array in arrays {
        let first_row = per_row.len();
        if let Some(lists) = array.as_list_opt::<i32>() {
            read_lists(lists, name, first_row, &mut per_row)?;
        } else if let Some(lists) = array.as_list_opt::<i64>() {
            read_lists(lists, name, first_row, &mut per_row)?;
        } else {
            return Err(type_error(format!(
                "{name} must be an Arrow column of lists of strings, not {}",
                type_name(array.data_type())
            )));
        }
    }
    Ok(per_row)
}

fn read_lists<O: OffsetSizeTrait>(
    lists: &GenericListArray<O>,
    name: &str,
    first_row: usize,
    per_row: &mut Vec<Vec<(usize, ArrowText)>>,
) -> Result<()> {
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
                .map(|j| {
                    let text = ArrowText {
                        chunk: values.clone(),
                        row: j,
                    };
                    (j - start, text)
                }),
        );
        if present.is_empty() {
            return Err(value_error(format!(
                "{name}[{i}] has no reference: hypothesis {i} needs at least one"
            )));
        }
        per_row.push(present);
    }
    Ok(())
}
