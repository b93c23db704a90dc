//! Scores and statistics of a corpus, of one hypothesis, and of counts: floats as sacreBLEU
//! computes them, exact components as fractions.

use chrf_core::pool;
use chrf_core::{Components, Count, NgramKind, OrderCounts, Statistics};
use num_rational::BigRational;
use numpy::{PyArray1, PyArray3, PyArrayMethods};
use pyo3::exceptions::{PyOverflowError, PyValueError};
use pyo3::prelude::*;
use pyo3::pybacked::PyBackedStr;
use pyo3::types::{PyList, PyString};

use crate::config::Config;
use crate::errors::{Error, Result};
use crate::runtime::{compute, numpy_ready};
use crate::texts::{read_one, read_texts, Texts};

/// One order of exact components (see `chrf.OrderComponents`, which `chrf._core` builds).
#[pyclass(frozen, get_all, module = "chrf._chrf")]
pub struct ExactOrder {
    kind: &'static str,
    n: usize,
    hypothesis: Count,
    reference: Count,
    matching: Count,
    effective: bool,
    precision: Option<BigRational>,
    recall: Option<BigRational>,
    f_score: Option<BigRational>,
}

/// Exact components of corpus statistics (see `chrf.Components`, which `chrf._core` builds).
#[pyclass(frozen, get_all, module = "chrf._chrf")]
pub struct ExactComponents {
    orders: Vec<Py<ExactOrder>>,
    effective_order_count: usize,
    average_precision: BigRational,
    average_recall: BigRational,
    score_fraction: BigRational,
    score_text: String,
    cross_checked: bool,
}

/// The corpus statistics of hypotheses against reference streams, computed without the GIL.
fn statistics_of_texts(py: Python<'_>, config: &Config, texts: &Texts) -> Result<Statistics> {
    let corpus = texts.corpus()?;
    compute(py, corpus.runs_inline(), |interrupt| {
        corpus.statistics(&config.settings, interrupt)
    })
}

/// Corpus statistics: one (hypothesis, reference, matching) count triple per order.
#[pyfunction]
pub fn corpus_statistics(
    py: Python<'_>,
    config: &Config,
    hypotheses: &Bound<'_, PyList>,
    references: &Bound<'_, PyList>,
    nested: bool,
) -> Result<Vec<Counts>> {
    let texts = Texts::read(hypotheses, references, nested, config.lowercase)?;
    Ok(counts_of(&statistics_of_texts(py, config, &texts)?))
}

/// Statistics of every segment: a uint64 array of shape (segments, orders, 3).
#[pyfunction]
pub fn segment_statistics<'py>(
    py: Python<'py>,
    config: &Config,
    hypotheses: &Bound<'py, PyList>,
    references: &Bound<'py, PyList>,
    nested: bool,
) -> Result<Bound<'py, PyArray3<u64>>> {
    numpy_ready(py)?;
    let texts = Texts::read(hypotheses, references, nested, config.lowercase)?;
    let corpus = texts.corpus()?;
    let segments = compute(py, corpus.runs_inline(), |interrupt| {
        corpus.segment_statistics(&config.settings, interrupt)
    })?;
    let flat: Vec<u64> = segments
        .iter()
        .flat_map(counts_of)
        .flat_map(|(h, r, m)| [h, r, m])
        .map(u64::try_from)
        .collect::<std::result::Result<_, _>>()
        .map_err(|_| {
            Error::from(PyOverflowError::new_err(
                "a segment count exceeds 2**64 - 1",
            ))
        })?;
    let shape = [corpus.len(), config.settings.order_count(), 3];
    Ok(PyArray1::from_vec(py, flat).reshape(shape)?)
}

/// sacreBLEU's sentence score of every segment.
#[pyfunction]
pub fn sentence_scores<'py>(
    py: Python<'py>,
    config: &Config,
    hypotheses: &Bound<'py, PyList>,
    references: &Bound<'py, PyList>,
    nested: bool,
) -> Result<Bound<'py, PyArray1<f64>>> {
    numpy_ready(py)?;
    let texts = Texts::read(hypotheses, references, nested, config.lowercase)?;
    scores_array(py, config, &texts)
}

/// `sentence_scores` of hypotheses with one reference each, when both are lists of the same
/// non-zero length and the first reference is a str; None for every other shape, which the
/// caller checks (naming what is wrong) before calling `sentence_scores`. For one short pair,
/// the checks and the building of the argument lists in Python cost more than the scoring.
#[pyfunction]
pub fn flat_sentence_scores<'py>(
    py: Python<'py>,
    config: &Config,
    hypotheses: &Bound<'py, PyAny>,
    references: &Bound<'py, PyAny>,
) -> Result<Option<Bound<'py, PyArray1<f64>>>> {
    let (Ok(hyps), Ok(refs)) = (
        hypotheses.cast_exact::<PyList>(),
        references.cast_exact::<PyList>(),
    ) else {
        return Ok(None);
    };
    if hyps.is_empty()
        || hyps.len() != refs.len()
        || !refs.get_item(0)?.is_instance_of::<PyString>()
    {
        return Ok(None);
    }
    numpy_ready(py)?;
    if hyps.len() == 1 {
        // One pair: the `sentence_score` of it, without a corpus's lists around it.
        let hypothesis = read_one(&hyps.get_item(0)?, "hypotheses[0]", config.lowercase)?;
        let reference = read_one(&refs.get_item(0)?, "references[0]", config.lowercase)?;
        let score = pair_score(py, config, &hypothesis, &[reference])?;
        return Ok(Some(PyArray1::from_slice(py, &[score])));
    }
    let texts = Texts {
        hypotheses: read_texts(hyps, "hypotheses", config.lowercase)?,
        references: vec![read_texts(refs, "references", config.lowercase)?],
    };
    scores_array(py, config, &texts).map(Some)
}

fn scores_array<'py>(
    py: Python<'py>,
    config: &Config,
    texts: &Texts,
) -> Result<Bound<'py, PyArray1<f64>>> {
    let corpus = texts.corpus()?;
    let scores = compute(py, corpus.runs_inline(), |interrupt| {
        corpus.segment_scores(&config.settings, interrupt)
    })?;
    Ok(PyArray1::from_vec(py, scores))
}

/// sacreBLEU's sentence score of one hypothesis against its references (the best of them).
/// None when `references` is not a list, which the caller then makes one of (naming the argument
/// if it cannot) and calls again; an empty list is a ValueError.
#[pyfunction]
pub fn sentence_score(
    py: Python<'_>,
    config: &Config,
    hypothesis: &Bound<'_, PyAny>,
    references: &Bound<'_, PyAny>,
) -> Result<Option<f64>> {
    let Ok(references) = references.cast_exact::<PyList>() else {
        return Ok(None);
    };
    if references.is_empty() {
        return Err(PyValueError::new_err("references must not be empty").into());
    }
    let hypothesis = read_one(hypothesis, "hypothesis", config.lowercase)?;
    if references.len() == 1 {
        // The common case, read without a vector to allocate and free: for one short pair,
        // such overhead is a visible share of the call.
        let reference = read_one(&references.get_item(0)?, "references[0]", config.lowercase)?;
        return pair_score(py, config, &hypothesis, &[reference]).map(Some);
    }
    let references = read_texts(references, "references", config.lowercase)?;
    pair_score(py, config, &hypothesis, &references).map(Some)
}

/// The sentence score of one hypothesis against its references, on the calling thread when
/// they are short.
fn pair_score(
    py: Python<'_>,
    config: &Config,
    hypothesis: &str,
    references: &[PyBackedStr],
) -> Result<f64> {
    let bytes = references
        .iter()
        .fold(hypothesis.len(), |sum, text| sum.saturating_add(text.len()));
    compute(py, bytes <= pool::INLINE_BYTES, |_| {
        let references = references.iter().map(|text| &**text);
        chrf_core::segment_score(hypothesis, references, &config.settings)
    })
}

/// `sentence_scores` as a list of floats, for callers that must not import NumPy (the command
/// line's `--sentence-level`).
#[pyfunction]
pub fn sentence_score_list(
    py: Python<'_>,
    config: &Config,
    hypotheses: &Bound<'_, PyList>,
    references: &Bound<'_, PyList>,
    nested: bool,
) -> Result<Vec<f64>> {
    let texts = Texts::read(hypotheses, references, nested, config.lowercase)?;
    let corpus = texts.corpus()?;
    compute(py, corpus.runs_inline(), |interrupt| {
        corpus.segment_scores(&config.settings, interrupt)
    })
}

/// The float score of corpus statistics (see `chrf.score`).
#[pyfunction]
pub fn score_of(config: &Config, counts: Vec<Counts>) -> Result<f64> {
    let stats = statistics_of_counts(config, counts)?;
    Ok(chrf_core::float_score(&stats, &config.settings)?)
}

/// The exact components of corpus statistics.
#[pyfunction]
pub fn components_of(
    py: Python<'_>,
    config: &Config,
    counts: Vec<Counts>,
) -> Result<ExactComponents> {
    let stats = statistics_of_counts(config, counts)?;
    let components = chrf_core::components(&stats, &config.settings)?;
    exact_components(py, components)
}

pub type Counts = (Count, Count, Count);

pub fn counts_of(stats: &Statistics) -> Vec<Counts> {
    stats
        .orders()
        .iter()
        .map(|o| (o.hypothesis, o.reference, o.matching))
        .collect()
}

fn statistics_of_counts(config: &Config, counts: Vec<Counts>) -> Result<Statistics> {
    let expected = config.settings.order_count();
    if counts.len() != expected {
        return Err(PyValueError::new_err(format!(
            "statistics hold {} orders but the settings have {expected}",
            counts.len()
        ))
        .into());
    }
    Ok(Statistics::from_orders(
        counts
            .into_iter()
            .map(|(hypothesis, reference, matching)| OrderCounts {
                hypothesis,
                reference,
                matching,
            })
            .collect(),
    ))
}

fn exact_components(py: Python<'_>, c: Components) -> Result<ExactComponents> {
    let score_text = chrf_core::six_decimals(&c.score);
    let orders = c
        .orders
        .into_iter()
        .map(|o| {
            let order = ExactOrder {
                kind: match o.kind {
                    NgramKind::Char => "char",
                    NgramKind::Word => "word",
                },
                n: o.n,
                hypothesis: o.counts.hypothesis,
                reference: o.counts.reference,
                matching: o.counts.matching,
                effective: o.effective,
                precision: o.precision,
                recall: o.recall,
                f_score: o.f_score,
            };
            Py::new(py, order)
        })
        .collect::<PyResult<_>>()?;
    Ok(ExactComponents {
        orders,
        effective_order_count: c.effective_order_count,
        average_precision: c.average_precision,
        average_recall: c.average_recall,
        score_fraction: c.score,
        score_text,
        cross_checked: c.cross_checked,
    })
}
