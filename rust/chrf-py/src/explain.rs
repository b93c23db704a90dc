//! Explaining a score: the n-grams that cost it matches, encoded for Python in one buffer, and
//! the corpus scores with one segment swapped out.

use chrf_core::{ChrfError, NgramCounts};
use numpy::{PyArray1, PyReadonlyArray3};
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::arrays::contiguous;
use crate::config::Config;
use crate::errors::{Error, Result};
use crate::objects::fallibly;
use crate::runtime::{compute, numpy_ready};

/// An explanation as one `bytes` object that `chrf._explained` decodes (its layout:
/// [`encode_explanation`]).
///
/// One object, made by PyO3's one fallible constructor of a buffer: a result of lists of tuples
/// of str and int needs an object per n-gram, whose constructors panic when Python is out of
/// memory (and the panic's backtrace, printing without memory, deadlocks). Out of memory here
/// is a `MemoryError`, wherever it strikes.
pub fn encoded<'py>(
    py: Python<'py>,
    explanation: &chrf_core::Explanation,
) -> Result<Bound<'py, PyBytes>> {
    let bytes = encoded_length(explanation)?;
    Ok(PyBytes::new_with(py, bytes, |buffer| {
        encode_explanation(explanation, buffer).map_err(|error| Error::from(error).into())
    })?)
}

/// Every list of an explanation in order: order by order, the missing n-grams, then the extra.
fn ngram_lists(explanation: &chrf_core::Explanation) -> impl Iterator<Item = &NgramCounts> {
    explanation
        .orders
        .iter()
        .flat_map(|order| [&order.missing, &order.extra])
}

/// The bytes [`encode_explanation`] writes.
fn encoded_length(explanation: &chrf_core::Explanation) -> std::result::Result<usize, ChrfError> {
    let (ngrams, text) = ngram_lists(explanation)
        .flatten()
        .fold((0usize, 0usize), |(n, bytes), (gram, _)| {
            (n + 1, bytes.saturating_add(gram.len()))
        });
    let words = [2, explanation.orders.len(), explanation.orders.len()]
        .into_iter()
        .chain([explanation.references.len(), ngrams, ngrams])
        .fold(0usize, usize::saturating_add);
    let bytes = words.saturating_mul(8).saturating_add(text);
    // Python's objects hold at most isize::MAX bytes.
    if bytes > isize::MAX as usize {
        return Err(ChrfError::OutOfMemory { bytes });
    }
    Ok(bytes)
}

/// Writes an explanation as little-endian u64 words, then text: the segment count and the
/// order count; per list (see [`ngram_lists`]), its length; per segment, the reference stream
/// it was explained against; per n-gram, its count; per n-gram, where its text ends in the
/// text, counted in code points; then the n-grams' UTF-8 text, end to end.
fn encode_explanation(
    explanation: &chrf_core::Explanation,
    buffer: &mut [u8],
) -> std::result::Result<(), ChrfError> {
    let mut out = Cursor { buffer, at: 0 };
    out.word(explanation.references.len() as u64);
    out.word(explanation.orders.len() as u64);
    for list in ngram_lists(explanation) {
        out.word(list.len() as u64);
    }
    for &reference in &explanation.references {
        out.word(reference as u64);
    }
    for (_, count) in ngram_lists(explanation).flatten() {
        // A count of n-grams held in memory: far below 2**64.
        out.word(u64::try_from(*count).map_err(|_| ChrfError::CountOverflow)?);
    }
    let mut end = 0u64;
    for (gram, _) in ngram_lists(explanation).flatten() {
        end += gram.chars().count() as u64;
        out.word(end);
    }
    for (gram, _) in ngram_lists(explanation).flatten() {
        out.put(gram.as_bytes());
    }
    Ok(())
}

/// Writes bytes one after the other into a buffer sized for them beforehand.
struct Cursor<'b> {
    buffer: &'b mut [u8],
    at: usize,
}

impl Cursor<'_> {
    fn put(&mut self, bytes: &[u8]) {
        if let Some(target) = self.buffer.get_mut(self.at..self.at + bytes.len()) {
            target.copy_from_slice(bytes);
        }
        self.at += bytes.len();
    }

    fn word(&mut self, value: u64) {
        self.put(&value.to_le_bytes());
    }
}

/// Per segment i, the score of the corpus whose statistics are `segment_statistics` (shape
/// (segments, orders, 3)) with segment i taken out, and `replacement`'s segment i put in if given.
#[pyfunction]
#[pyo3(signature = (config, segment_statistics, replacement=None))]
pub fn swapped_scores<'py>(
    py: Python<'py>,
    config: &Config,
    segment_statistics: PyReadonlyArray3<'py, u64>,
    replacement: Option<PyReadonlyArray3<'py, u64>>,
) -> Result<Bound<'py, PyArray1<f64>>> {
    numpy_ready(py)?;
    let counts = contiguous(&segment_statistics)?;
    let replacement = replacement.as_ref().map(contiguous).transpose()?;
    let settings = &config.settings;
    let scores = compute(py, false, |interrupt| {
        chrf_core::swapped_scores(counts, replacement, settings, interrupt)
    })?;
    fallibly(|| Ok(PyArray1::from_vec(py, scores)))
}
