//! Arrow string columns read in place: any object exporting `__arrow_c_array__` or
//! `__arrow_c_stream__` (pyarrow arrays and chunked arrays, polars Series, ...) is read into
//! [`ArrowText`]s that point into the Arrow arrays' UTF-8 buffers and keep those arrays alive.
//! No Python string is made per row; a dictionary-encoded column's rows point into its
//! dictionary's values.
//!
//! Every buffer a row is read from is checked first (offsets, views, dictionary indices, UTF-8),
//! since a producer can hand over any bytes; [`crate::arrow_import`] checks what comes before.
//!
//! The reader of hypotheses and references ([`crate::listing::items`]) calls [`read_arrow`]
//! when an argument exports the capsules; everything after that is the reader's, as for lists.

use std::sync::Arc;

use arrow_array::cast::AsArray;
use arrow_array::types::{
    ArrowDictionaryKeyType, Int16Type, Int32Type, Int64Type, Int8Type, UInt16Type, UInt32Type,
    UInt64Type, UInt8Type,
};
use arrow_array::{
    Array, ArrayRef, ArrowPrimitiveType, GenericListArray, GenericStringArray, LargeStringArray,
    OffsetSizeTrait, PrimitiveArray, StringArray, StringViewArray,
};
use arrow_buffer::ArrowNativeType;
use arrow_schema::DataType;
use pyo3::prelude::*;

use crate::arrow_import::import;
use crate::errors::{
    argument_of, arrow_error, arrow_type_error, input_error, reserved, Error, Result,
};
use crate::names::names;

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
    let Ok(names) = names(value.py()) else {
        return false;
    };
    kind.hasattr(names.arrow_c_stream.bind(value.py()))
        .unwrap_or(false)
        || kind
            .hasattr(names.arrow_c_array.bind(value.py()))
            .unwrap_or(false)
}

/// Reads an object exporting Arrow's PyCapsule interface, named `name` in errors: a string
/// column (plain or dictionary-encoded), or a list column of those if `lists` (the references
/// of each hypothesis). A null string is a ValueError naming its row (`name[i] is null`), and
/// so is a null list; another type is a TypeError naming `name`, found from the schema before
/// any array is imported.
pub fn read_arrow(value: &Bound<'_, PyAny>, name: &str, lists: bool) -> Result<ArrowColumn> {
    let imported = import(value, name, |data_type| {
        if is_text(data_type) || lists && list_item(data_type).is_some_and(is_text) {
            return Ok(());
        }
        Err(arrow_type_error(
            name,
            format!(
            "{name} must be an Arrow column of strings (string, large_string, string_view, or a \
             dictionary of them){}, not {}",
            if lists {
                ", or of lists of strings"
            } else {
                ""
            },
            type_name(data_type)
        ),
        ))
    })?;
    if is_text(&imported.data_type) {
        Ok(ArrowColumn::Texts(column(&imported.arrays, name)?))
    } else {
        Ok(ArrowColumn::Rows(list_rows(&imported.arrays, name)?))
    }
}

/// Whether a column of `data_type` holds strings: plain, or dictionary-encoded by integers.
fn is_text(data_type: &DataType) -> bool {
    match data_type {
        DataType::Dictionary(key, values) => key.is_dictionary_key_type() && is_string(values),
        other => is_string(other),
    }
}

/// The item type of a list type.
fn list_item(data_type: &DataType) -> Option<&DataType> {
    match data_type {
        DataType::List(item) | DataType::LargeList(item) => Some(item.data_type()),
        _ => None,
    }
}

/// A string column (see [`read_arrow`]).
pub fn read_arrow_texts(value: &Bound<'_, PyAny>, name: &str) -> Result<Vec<ArrowText>> {
    match read_arrow(value, name, false)? {
        ArrowColumn::Texts(texts) => Ok(texts),
        // Not read without `lists`: a list<string> column is refused by type there.
        ArrowColumn::Rows(_) => Err(arrow_type_error(
            name,
            format!("{name} must be an Arrow column of strings, not of lists"),
        )),
    }
}

/// The rows of a string column's chunks, each chunk checked (see [`Strings::of`]); a null row
/// is an error.
fn column(arrays: &[ArrayRef], name: &str) -> Result<Vec<ArrowText>> {
    let rows = arrays.iter().map(|a| a.len()).sum::<usize>();
    let mut texts = reserved(rows)?;
    let mut first_row = 0;
    for array in arrays {
        let strings = Strings::of(array.as_ref(), name)?;
        for row in 0..strings.len() {
            let i = first_row + row;
            match strings.get(row) {
                Item::Text(text) => texts.push(text),
                Item::Null => return Err(null_error(name, i)),
                Item::OutOfRange(key) => {
                    return Err(strings.range_error(&format!("{name}[{i}]"), &key))
                }
            }
        }
        first_row += strings.len();
    }
    Ok(texts)
}

/// One array of strings, plain or dictionary-encoded, its strings checked: for a dictionary,
/// its values are checked as a plain array is, and each index when its row is read.
struct Strings {
    values: Arc<Chunk>,
    keys: Option<Box<dyn Keys>>,
}

/// A row of [`Strings`].
enum Item {
    Text(ArrowText),
    Null,
    /// A dictionary index outside the dictionary, as written.
    OutOfRange(String),
}

impl Strings {
    fn of(array: &dyn Array, name: &str) -> Result<Self> {
        let DataType::Dictionary(key, _) = array.data_type() else {
            let values = Arc::new(checked_chunk(array, name)?);
            return Ok(Self { values, keys: None });
        };
        let parts = match key.as_ref() {
            DataType::Int8 => dictionary::<Int8Type>(array),
            DataType::Int16 => dictionary::<Int16Type>(array),
            DataType::Int32 => dictionary::<Int32Type>(array),
            DataType::Int64 => dictionary::<Int64Type>(array),
            DataType::UInt8 => dictionary::<UInt8Type>(array),
            DataType::UInt16 => dictionary::<UInt16Type>(array),
            DataType::UInt32 => dictionary::<UInt32Type>(array),
            DataType::UInt64 => dictionary::<UInt64Type>(array),
            _ => None,
        };
        let (keys, values) = parts.ok_or_else(|| {
            arrow_type_error(
                name,
                format!(
                    "{name} must be an Arrow column of strings, not {}",
                    type_name(array.data_type())
                ),
            )
        })?;
        let values = Arc::new(checked_chunk(values.as_ref(), name)?);
        Ok(Self {
            values,
            keys: Some(keys),
        })
    }

    fn len(&self) -> usize {
        match &self.keys {
            Some(keys) => keys.len(),
            None => self.values.array().len(),
        }
    }

    /// Row `row`, below [`Self::len`].
    fn get(&self, row: usize) -> Item {
        let values = self.values.array();
        let index = match &self.keys {
            None => row,
            Some(keys) => match keys.key(row) {
                Key::Null => return Item::Null,
                Key::At(index) if index < values.len() => index,
                Key::At(index) => return Item::OutOfRange(index.to_string()),
                Key::Negative(key) => return Item::OutOfRange(key),
            },
        };
        if values.is_null(index) {
            return Item::Null;
        }
        Item::Text(ArrowText {
            chunk: self.values.clone(),
            row: index,
        })
    }

    /// The error of a dictionary index `key` out of range in the row named `row`.
    fn range_error(&self, row: &str, key: &str) -> Error {
        arrow_error(
            row,
            format!(
                "{row} is not valid Arrow data: its dictionary index {key} is outside the \
             dictionary's {} values",
                self.values.array().len()
            ),
        )
    }
}

/// The indices and values of a dictionary array of index type `K`.
fn dictionary<K: ArrowDictionaryKeyType>(array: &dyn Array) -> Option<(Box<dyn Keys>, ArrayRef)> {
    let dictionary = array.as_dictionary_opt::<K>()?;
    Some((
        Box::new(dictionary.keys().clone()),
        dictionary.values().clone(),
    ))
}

/// A dictionary index as read: any integer type, any value (a producer can write anything).
enum Key {
    Null,
    At(usize),
    Negative(String),
}

/// The indices of a dictionary array, whatever their integer type.
trait Keys {
    fn len(&self) -> usize;
    /// The index of row `row`, below [`Keys::len`].
    fn key(&self, row: usize) -> Key;
}

impl<K: ArrowPrimitiveType> Keys for PrimitiveArray<K> {
    fn len(&self) -> usize {
        Array::len(self)
    }

    fn key(&self, row: usize) -> Key {
        if self.is_null(row) {
            return Key::Null;
        }
        let key = self.value(row);
        match key.to_usize() {
            Some(index) => Key::At(index),
            None => Key::Negative(format!("{key:?}")),
        }
    }
}

fn checked_chunk(array: &dyn Array, name: &str) -> Result<Chunk> {
    let chunk = Chunk::of(array).ok_or_else(|| {
        arrow_type_error(
            name,
            format!(
                "{name} must be an Arrow column of strings, not {}",
                type_name(array.data_type())
            ),
        )
    })?;
    let checked = match &chunk {
        Chunk::Utf8(strings) => check_offsets(strings),
        Chunk::LargeUtf8(strings) => check_offsets(strings),
        Chunk::View(strings) => check_views(strings),
    };
    checked
        .map_err(|error| arrow_error(name, format!("{name} is not valid Arrow data: {error}")))?;
    Ok(chunk)
}

/// Checks what reading the rows of `strings` relies on, as arrow's `validate_full` does but
/// over the rows' own bytes only (a slice of a large array is not checked whole, once per
/// slice): offsets in order and within the values, every row valid UTF-8. A producer across
/// the C interface can hand over any bytes.
fn check_offsets<O: OffsetSizeTrait>(
    strings: &GenericStringArray<O>,
) -> std::result::Result<(), String> {
    if strings.is_empty() {
        // No row to read. An empty slice at an offset has an offset but, imported through the
        // C interface, no values: it points at nothing, rightly.
        return Ok(());
    }
    match check_all_bytes(strings) {
        // A null's bytes mean nothing (Arrow checks only the others), and its row is never
        // read: where they fail the check, the present rows are checked one by one.
        Err(_) if strings.null_count() > 0 => check_present_rows(strings),
        checked => checked,
    }
}

/// [`check_offsets`] over the bytes of all rows at once, in one pass.
fn check_all_bytes<O: OffsetSizeTrait>(
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

/// [`check_offsets`] row by row, skipping the bytes of nulls (their offsets are still in order,
/// as Arrow requires of every row).
fn check_present_rows<O: OffsetSizeTrait>(
    strings: &GenericStringArray<O>,
) -> std::result::Result<(), String> {
    let values = strings.values().as_slice();
    for (row, pair) in strings.value_offsets().windows(2).enumerate() {
        if pair[0] > pair[1] {
            return Err("offsets out of order, or inside a character".into());
        }
        if strings.is_null(row) {
            continue;
        }
        let bytes = pair[0]
            .to_usize()
            .zip(pair[1].to_usize())
            .and_then(|(start, end)| values.get(start..end))
            .ok_or("offsets outside the values")?;
        simdutf8::basic::from_utf8(bytes).map_err(|_| "invalid UTF-8")?;
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

fn invalid(name: &str) -> Error {
    arrow_error(
        name,
        format!("{name} is not valid Arrow data: list offsets out of bounds"),
    )
}

fn null_error(name: &str, row: usize) -> Error {
    let message = format!("{name}[{row}] is null");
    input_error(message, argument_of(name), Some(row), "null")
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
            return Err(arrow_type_error(
                name,
                format!(
                    "{name} must be an Arrow column of lists of strings, not {}",
                    type_name(array.data_type())
                ),
            ));
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
    let values = Strings::of(lists.values().as_ref(), name)?;
    let items = values.len();
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
        for j in start..end {
            match values.get(j) {
                Item::Text(text) => present.push((j - start, text)),
                Item::Null => {} // sacreBLEU's placeholder
                Item::OutOfRange(key) => {
                    let item = format!("{name}[{i}][{}]", j - start);
                    return Err(values.range_error(&item, &key));
                }
            }
        }
        if present.is_empty() {
            let message =
                format!("{name}[{i}] has no reference: hypothesis {i} needs at least one");
            return Err(input_error(
                message,
                argument_of(name),
                Some(i),
                "no_reference",
            ));
        }
        per_row.push(present);
    }
    Ok(())
}
