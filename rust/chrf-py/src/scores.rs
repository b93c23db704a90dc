//! Sentence scores of one hypothesis, and of hypotheses read and scored in one call: floats as
//! sacreBLEU computes them, one short pair scored inline.

use chrf_core::pool;
use numpy::PyArray1;
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString};

use crate::config::Config;
use crate::errors::{empty, input_error, Result};
use crate::inputs::{read_corpus, Layout};
use crate::listing::listed;
use crate::names::names;
use crate::objects::fallibly;
use crate::runtime::{compute, numpy_ready};
use crate::texts::{read_one, Text};

/// sacreBLEU's sentence score of every segment of `hypotheses` against `references` (read as
/// `chrf.score` reads them), as an array. One pair of strs is scored as it is read, without a
/// corpus around it: for one short pair, building one would be a visible share of the call.
#[pyfunction]
pub fn sentence_scores<'py>(
    py: Python<'py>,
    config: &Config,
    hypotheses: &Bound<'py, PyAny>,
    references: &Bound<'py, PyAny>,
    layout: Option<&str>,
) -> Result<Bound<'py, PyArray1<f64>>> {
    let layout = Layout::of(layout)?;
    if let Some((hypothesis, reference)) = one_pair(hypotheses, references, layout, config)? {
        numpy_ready(py)?;
        let score = pair_score(py, config, &hypothesis, &[reference])?;
        return fallibly(|| Ok(PyArray1::from_slice(py, &[score])));
    }
    let corpus = read_corpus(hypotheses, references, layout, config.lowercase)?;
    numpy_ready(py)?;
    let scores = corpus.scores(py, config)?;
    fallibly(|| Ok(PyArray1::from_vec(py, scores)))
}

/// sacreBLEU's corpus score of `hypotheses` against `references` (see `chrf.score`). One pair
/// of strs is scored as `sentence_scores` scores it: sacreBLEU's sentence score is the corpus
/// score of that one segment, and building a corpus would be a visible share of the call.
#[pyfunction]
pub fn corpus_score(
    py: Python<'_>,
    config: &Config,
    hypotheses: &Bound<'_, PyAny>,
    references: &Bound<'_, PyAny>,
    layout: Option<&str>,
) -> Result<f64> {
    let layout = Layout::of(layout)?;
    if let Some((hypothesis, reference)) = one_pair(hypotheses, references, layout, config)? {
        return pair_score(py, config, &hypothesis, &[reference]);
    }
    read_corpus(hypotheses, references, layout, config.lowercase)?.score(py, config)
}

/// The hypothesis and reference of a list of one str against a list of one str, read (and
/// checked) in the reader's order; `None` for any other input, which the reader takes.
fn one_pair(
    hypotheses: &Bound<'_, PyAny>,
    references: &Bound<'_, PyAny>,
    layout: Layout,
    config: &Config,
) -> Result<Option<(Text, Text)>> {
    let (Ok(hyps), Ok(refs)) = (
        hypotheses.cast_exact::<PyList>(),
        references.cast_exact::<PyList>(),
    ) else {
        return Ok(None);
    };
    // Any layout takes a lone str as one reference, and only `per_hypothesis` would read the
    // reference before the hypothesis.
    if hyps.len() != 1 || refs.len() != 1 || layout == Layout::PerHypothesis {
        return Ok(None);
    }
    let reference = refs.get_item(0)?;
    if !reference.is_exact_instance_of::<PyString>() {
        return Ok(None);
    }
    let hypothesis = read_one(
        &hyps.get_item(0)?,
        "hypotheses[0]",
        Some(0),
        config.lowercase,
    )?;
    let reference = read_one(&reference, "references[0]", Some(0), config.lowercase)?;
    Ok(Some((hypothesis, reference)))
}

/// sacreBLEU's sentence score of one hypothesis against its references (the best of them), for
/// `chrf.CHRF.sentence_score`: the number of references read (sacreBLEU's `None` placeholders
/// dropped, and not counted) is set as `metric.num_refs`, as sacreBLEU's metric records it. Set
/// here rather than returned with the score: a tuple to build and take apart would be a visible
/// share of one short pair's call.
#[pyfunction]
pub fn sentence_score(
    py: Python<'_>,
    config: &Config,
    hypothesis: &Bound<'_, PyAny>,
    references: &Bound<'_, PyAny>,
    metric: &Bound<'_, PyAny>,
) -> Result<f64> {
    let references = listed(references, "references", None)?;
    if references.is_empty() {
        return Err(empty("references", None));
    }
    let hypothesis = read_one(hypothesis, "hypothesis", None, config.lowercase)?;
    let (score, count) = match one_reference(&references, config)? {
        // The common case, read without a vector to allocate and free.
        Some(reference) => (pair_score(py, config, &hypothesis, &[reference])?, 1),
        None => {
            let present = present_references(&references, config)?;
            (
                pair_score(py, config, &hypothesis, &present)?,
                present.len(),
            )
        }
    };
    metric.setattr(names(py)?.num_refs.bind(py), count)?;
    Ok(score)
}

/// The one reference of a list of one that is not `None`.
fn one_reference(references: &Bound<'_, PyList>, config: &Config) -> Result<Option<Text>> {
    if references.len() != 1 {
        return Ok(None);
    }
    let reference = references.get_item(0)?;
    if reference.is_none() {
        return Ok(None);
    }
    Ok(Some(read_one(
        &reference,
        "references[0]",
        None,
        config.lowercase,
    )?))
}

/// The references that are not `None`; none at all is an error.
fn present_references(references: &Bound<'_, PyList>, config: &Config) -> Result<Vec<Text>> {
    let mut present = Vec::new();
    for (k, reference) in references.iter().enumerate() {
        if !reference.is_none() {
            let name = format!("references[{k}]");
            present.push(read_one(&reference, &name, None, config.lowercase)?);
        }
    }
    if present.is_empty() {
        let message = "references has no reference: every item is None".to_string();
        return Err(input_error(message, "references", None, "no_reference"));
    }
    Ok(present)
}

/// The sentence score of one hypothesis against its references, on the calling thread when
/// they are short.
fn pair_score(
    py: Python<'_>,
    config: &Config,
    hypothesis: &Text,
    references: &[Text],
) -> Result<f64> {
    let hypothesis = hypothesis.as_ref();
    let bytes = references.iter().fold(hypothesis.len(), |sum, text| {
        sum.saturating_add(text.as_ref().len())
    });
    compute(py, bytes <= pool::INLINE_BYTES, |_| {
        let references = references.iter().map(AsRef::as_ref);
        chrf_core::segment_score(hypothesis, references, &config.settings)
    })
}
