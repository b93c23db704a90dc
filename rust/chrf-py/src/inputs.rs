//! The one reader of hypotheses and references: every shape the package takes (one reference
//! per hypothesis, reference streams, the references of each hypothesis), sacreBLEU's `None`
//! placeholders, and every text checked and named as the caller wrote it. What it returns is a
//! [`Corpus`] the scorers take as it is.

use pyo3::prelude::*;
use pyo3::types::{PyList, PyString};

use crate::arrow::ArrowText;
use crate::corpus::{Corpus, Hole, Sources};
use crate::errors::{empty, input_error, refused, reserved, Kind, Result};
use crate::listing::{is_text_like, items, listed, read_column, Items};
use crate::texts::{read_arrow_text, read_item, Column, Reading, Text, SIGNAL_CHECK_INTERVAL};

/// How nested references are laid out: guessed (streams, unless the shape fits both layouts),
/// `references[k][i]` (sacreBLEU's streams), or `references[i][k]` (evaluate's, torchmetrics').
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    Guess,
    Streams,
    PerHypothesis,
}

impl Layout {
    /// The layout Python names (`chrf._inputs.check_layout` has refused any other value).
    pub fn of(name: Option<&str>) -> Result<Self> {
        match name {
            None => Ok(Self::Guess),
            Some("streams") => Ok(Self::Streams),
            Some("per_hypothesis") => Ok(Self::PerHypothesis),
            Some(other) => Err(refused(
                Kind::Settings,
                format!("no layout is named {other:?}"),
                Some("layout"),
                None,
                "invalid_choice",
            )),
        }
    }
}

/// Reads `hypotheses` and `references` into a `Corpus` (see [`read_corpus`]); `layout` is
/// None, "streams" or "per_hypothesis", `lowercase` the settings' (Python's `str.lower`).
#[pyfunction]
pub fn read(
    hypotheses: &Bound<'_, PyAny>,
    references: &Bound<'_, PyAny>,
    layout: Option<&str>,
    lowercase: bool,
) -> Result<Corpus> {
    read_corpus(hypotheses, references, Layout::of(layout)?, lowercase)
}

/// Reads `hypotheses` and `references` (see `chrf.score` for the shapes): lists read in place,
/// other iterables listed; shapes checked first, then every text.
pub fn read_corpus(
    hypotheses: &Bound<'_, PyAny>,
    references: &Bound<'_, PyAny>,
    layout: Layout,
    lowercase: bool,
) -> Result<Corpus> {
    let hyps = items(hypotheses, "hypotheses", None, false)?;
    if hyps.is_empty() {
        return Err(empty("hypotheses", None));
    }
    let refs = items(references, "references", None, true)?;
    if refs.is_empty() {
        return Err(empty("references", None));
    }
    let refs = match refs {
        Items::List(refs) => refs,
        Items::ArrowRows(py, rows) => return read_arrow_rows(py, &hyps, rows, layout, lowercase),
        Items::Arrow(..) => {
            // One reference per hypothesis, whatever the layout.
            check_length(refs.len(), "references", hyps.len(), false)?;
            return read_flat(&hyps, &refs, lowercase);
        }
    };
    if layout == Layout::PerHypothesis {
        return read_rows(&hyps, &refs, lowercase);
    }
    if is_text_like(&refs.get_item(0)?)? {
        check_length(refs.len(), "references", hyps.len(), false)?;
        return read_flat(&hyps, &Items::List(refs), lowercase);
    }
    let streams = refs
        .iter()
        .enumerate()
        .map(|(k, stream)| items(&stream, &format!("references[{k}]"), None, false))
        .collect::<Result<Vec<_>>>()?;
    if layout == Layout::Guess {
        refuse_ambiguous(&streams, hyps.len())?;
    }
    for (k, stream) in streams.iter().enumerate() {
        let name = format!("references[{k}]");
        check_length(stream.len(), &name, hyps.len(), layout == Layout::Guess)?;
    }
    let hypotheses = read_hypotheses(&hyps, lowercase)?;
    read_streams(references.py(), hypotheses, &streams, lowercase)
}

/// One reference per hypothesis.
fn read_flat(hyps: &Items<'_>, refs: &Items<'_>, lowercase: bool) -> Result<Corpus> {
    let reading = Reading {
        lowercase,
        placeholders: false,
    };
    let hypotheses = read_hypotheses(hyps, lowercase)?;
    let stream = read_column(
        refs,
        reading,
        |i| (format!("references[{i}]"), Some(i)),
        &mut vec![],
    )?;
    Corpus::new(
        hypotheses,
        vec![stream],
        Sources::Streams(vec![]),
        lowercase,
    )
}

fn read_hypotheses(hyps: &Items<'_>, lowercase: bool) -> Result<Column> {
    let reading = Reading {
        lowercase,
        placeholders: false,
    };
    read_column(
        hyps,
        reading,
        |i| (format!("hypotheses[{i}]"), Some(i)),
        &mut vec![],
    )
}

/// Reference streams; with several, sacreBLEU's `None` placeholders stand for a reference a
/// segment lacks, and are filled with the segment's first present reference. That copy has the
/// reference's statistics and sentence score, and the best reference is chosen by that score
/// (the first on ties), so it changes nothing: the statistics are those of the segment's present
/// references alone, as sacreBLEU computes them. A segment with no present reference is refused
/// as one (spec §5), whether it has one stream or several.
fn read_streams(
    py: Python<'_>,
    hypotheses: Column,
    streams: &[Items<'_>],
    lowercase: bool,
) -> Result<Corpus> {
    let reading = Reading {
        lowercase,
        placeholders: true,
    };
    let mut holes = Vec::new();
    let mut columns = Vec::new();
    for (k, stream) in streams.iter().enumerate() {
        let mut at = Vec::new();
        let name = |i| (format!("references[{k}][{i}]"), Some(i));
        columns.push(read_column(stream, reading, name, &mut at)?);
        holes.extend(at.into_iter().map(|segment| Hole {
            segment,
            stream: k,
            source: 0,
        }));
    }
    holes.sort_unstable_by_key(|hole| (hole.segment, hole.stream));
    fill_holes(py, &mut columns, &mut holes)?;
    Corpus::new(hypotheses, columns, Sources::Streams(holes), lowercase)
}

/// Gives each hole (sorted by segment, then stream) its segment's first present reference.
fn fill_holes(py: Python<'_>, columns: &mut [Column], holes: &mut [Hole]) -> Result<()> {
    for segment_holes in holes.chunk_by_mut(|a, b| a.segment == b.segment) {
        let i = segment_holes[0].segment;
        // The streams holding a hole are sorted: the first gap among them is present.
        let source = (0..columns.len())
            .zip(
                segment_holes
                    .iter()
                    .map(|hole| hole.stream)
                    .chain([usize::MAX]),
            )
            .find(|(k, holed)| k != holed)
            .map(|(k, _)| k)
            .filter(|&k| k < columns.len());
        let Some(source) = source else {
            let message = if columns.len() == 1 {
                format!("segment {i} has no reference: references[0][{i}] is None")
            } else {
                format!("segment {i} has no reference: references[k][{i}] is None in every stream")
            };
            return Err(input_error(message, "references", Some(i), "no_reference"));
        };
        for hole in segment_holes.iter_mut() {
            hole.source = source;
            let text = columns[source].texts[i].clone_ref(py);
            columns[hole.stream].texts[i] = text;
            let original = columns[source]
                .originals
                .as_ref()
                .map(|originals| originals[i].clone_ref(py));
            if let (Some(originals), Some(original)) =
                (columns[hole.stream].originals.as_mut(), original)
            {
                originals[i] = original;
            }
        }
    }
    Ok(())
}

/// The references of each hypothesis (`references[i][k]`), a str being one reference and
/// `None` none: read row by row, then laid out as streams, a row with fewer references than the
/// longest repeating its first (which, being first, is chosen on the tie).
fn read_rows(hyps: &Items<'_>, refs: &Bound<'_, PyList>, lowercase: bool) -> Result<Corpus> {
    check_rows(refs.len(), hyps.len())?;
    let mut rows = reserved::<Row>(refs.len())?;
    for (i, item) in refs.iter().enumerate() {
        if i % SIGNAL_CHECK_INTERVAL == 0 {
            refs.py().check_signals()?;
        }
        rows.push(read_row(item, i, lowercase)?);
    }
    corpus_of_rows(refs.py(), hyps, rows, lowercase)
}

/// The references of each hypothesis from a list<string> column (nulls inside a list being
/// sacreBLEU's placeholders, already dropped by the Arrow reader).
fn read_arrow_rows(
    py: Python<'_>,
    hyps: &Items<'_>,
    arrow_rows: Vec<Vec<(usize, ArrowText)>>,
    layout: Layout,
    lowercase: bool,
) -> Result<Corpus> {
    if layout == Layout::Streams {
        let message = "references is an Arrow column of lists, the references of each \
                       hypothesis: pass layout='per_hypothesis' or None, or reference streams as \
                       a list of string columns";
        return Err(input_error(
            message.to_string(),
            "references",
            None,
            "wrong_layout",
        ));
    }
    check_rows(arrow_rows.len(), hyps.len())?;
    let mut rows = reserved::<Row>(arrow_rows.len())?;
    for (i, row) in arrow_rows.iter().enumerate() {
        if i % SIGNAL_CHECK_INTERVAL == 0 {
            py.check_signals()?;
        }
        let mut read = reserved(row.len())?;
        for (k, text) in row {
            let name = || (format!("references[{i}][{k}]"), Some(i));
            let (text, original) = read_arrow_text(py, text, lowercase, name)?;
            read.push((*k, text, original));
        }
        rows.push(read);
    }
    corpus_of_rows(py, hyps, rows, lowercase)
}

fn check_rows(rows: usize, hypotheses: usize) -> Result<()> {
    if rows == hypotheses {
        return Ok(());
    }
    let message = format!(
        "references has {rows} items but hypotheses has {hypotheses}; with \
         layout='per_hypothesis', references[i] holds the references of hypothesis i"
    );
    Err(input_error(message, "references", None, "length_mismatch"))
}

/// The rows (each not empty) laid out as streams, a row with fewer references than the longest
/// repeating its first (which, being first, is chosen on the tie).
fn corpus_of_rows(
    py: Python<'_>,
    hyps: &Items<'_>,
    rows: Vec<Row>,
    lowercase: bool,
) -> Result<Corpus> {
    let hypotheses = read_hypotheses(hyps, lowercase)?;
    let width = rows.iter().map(Vec::len).max().unwrap_or(1);
    let mut columns = (0..width)
        .map(|_| {
            Ok(Column {
                texts: reserved(rows.len())?,
                originals: if lowercase {
                    Some(reserved(rows.len())?)
                } else {
                    None
                },
            })
        })
        .collect::<Result<Vec<_>>>()?;
    let mut positions = reserved(rows.len())?;
    for row in rows {
        let Some(first) = row.first() else {
            let message = "a row of references is empty".to_string();
            return Err(input_error(message, "references", None, "empty"));
        };
        for (k, column) in columns.iter_mut().enumerate() {
            let (_, text, original) = row.get(k).unwrap_or(first);
            column.texts.push(text.clone_ref(py));
            if let (Some(originals), Some(original)) = (column.originals.as_mut(), original) {
                originals.push(original.clone_ref(py));
            }
        }
        positions.push(row.iter().map(|(k, _, _)| *k).collect());
    }
    Corpus::new(hypotheses, columns, Sources::Rows(positions), lowercase)
}

/// A row's references: each with its position in the caller's row, the text the core reads
/// and, when lowercased, the caller's str.
type Row = Vec<(usize, Text, Option<Py<PyString>>)>;

/// The references of hypothesis i with their positions in the caller's row, `None` dropped.
fn read_row(item: Bound<'_, PyAny>, i: usize, lowercase: bool) -> Result<Row> {
    if item.is_instance_of::<PyString>() {
        let (text, original) =
            read_item(item, lowercase, || (format!("references[{i}]"), Some(i)))?;
        return Ok(vec![(0, text, original)]);
    }
    let mut row = Vec::new();
    for (k, text) in listed(&item, &format!("references[{i}]"), Some(i))?
        .iter()
        .enumerate()
    {
        if text.is_none() {
            continue;
        }
        let (text, original) = read_item(text, lowercase, || {
            (format!("references[{i}][{k}]"), Some(i))
        })?;
        row.push((k, text, original));
    }
    if row.is_empty() {
        let message =
            format!("references[{i}] has no reference: hypothesis {i} needs at least one");
        return Err(input_error(message, "references", Some(i), "no_reference"));
    }
    Ok(row)
}

fn refuse_ambiguous(streams: &[Items<'_>], segments: usize) -> Result<()> {
    if segments >= 2 && streams.len() == segments && streams.iter().all(|s| s.len() == segments) {
        return Err(input_error(
            format!(
                "references is ambiguous: {segments} lists of {segments} references for \
             {segments} hypotheses read as {segments} reference streams (sacreBLEU) and as the \
             references of each hypothesis (evaluate, torchmetrics) alike, with different \
             scores; pass layout='streams' if references[k][i] is reference k of hypothesis i, \
             or layout='per_hypothesis' if references[i] holds the references of hypothesis i"
            ),
            "references",
            None,
            "ambiguous_layout",
        ));
    }
    Ok(())
}

fn check_length(length: usize, name: &str, expected: usize, hint: bool) -> Result<()> {
    if length == expected {
        return Ok(());
    }
    let advice = if hint {
        "; if references[i] holds the references of hypothesis i, pass layout='per_hypothesis'"
    } else {
        ""
    };
    let message = format!(
        "{name} has {length} segments but hypotheses has {expected}; \
         every reference stream needs one reference per hypothesis{advice}"
    );
    Err(input_error(message, name, None, "length_mismatch"))
}

/// sacreBLEU's reference streams of `references` (one reference per hypothesis, or streams)
/// listed without reading their texts, and its `num_refs`: the number of references every
/// segment has, placeholders not counted, or -1 when it varies. For the metric that keeps the
/// references it was given (`CHRF(references=...)`), read with each corpus later.
#[pyfunction]
pub fn reference_streams<'py>(
    references: &Bound<'py, PyAny>,
) -> Result<(Vec<Bound<'py, PyList>>, isize)> {
    let refs = listed(references, "references", None)?;
    if refs
        .iter()
        .next()
        .is_some_and(|first| first.is_instance_of::<PyString>())
    {
        return Ok((vec![refs], 1));
    }
    let streams = refs
        .iter()
        .enumerate()
        .map(|(k, stream)| listed(&stream, &format!("references[{k}]"), None))
        .collect::<Result<Vec<_>>>()?;
    let count = reference_count(&streams)?;
    Ok((streams, count))
}

/// The number of non-`None` references every segment has, or -1 when it varies.
fn reference_count(streams: &[Bound<'_, PyList>]) -> Result<isize> {
    let all = isize::try_from(streams.len()).unwrap_or(isize::MAX);
    let mut holed = false;
    for stream in streams {
        holed |= stream.contains(stream.py().None())?;
    }
    if streams.len() == 1 || !holed {
        return Ok(all);
    }
    let segments = streams.iter().map(|s| s.len()).min().unwrap_or(0);
    let mut count = None;
    for i in 0..segments {
        let mut present = 0;
        for stream in streams {
            present += isize::from(!stream.get_item(i)?.is_none());
        }
        if count.is_some_and(|count| count != present) {
            return Ok(-1);
        }
        count = Some(present);
    }
    Ok(count.unwrap_or(all))
}
