//! Scores of one hypothesis, of hypotheses read and scored in one call, and of counts: floats as
//! sacreBLEU computes them, exact components as fractions.

use chrf_core::pool;
use chrf_core::{Components, Count, NgramKind, OrderCounts, Statistics};
use num_rational::BigRational;
use numpy::{PyArray1, PyArray3, PyArrayMethods};
use pyo3::exceptions::{PyOverflowError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString};

use crate::config::Config;
use crate::errors::{Error, Result};
use crate::inputs::{read_corpus, Layout};
use crate::listing::listed;
use crate::runtime::{compute, numpy_ready};
use crate::texts::{read_one, Text};

/// One order of exact components (see `chrf.OrderComponents`, which Python builds of it).
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

/// Exact components of corpus statistics (see `chrf.Components`, which Python builds of it).
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
    if let (Ok(hyps), Ok(refs)) = (
        hypotheses.cast_exact::<PyList>(),
        references.cast_exact::<PyList>(),
    ) {
        // Read in the reader's order: any layout takes a lone str as one reference, and only
        // `per_hypothesis` would read the reference before the hypothesis.
        if hyps.len() == 1 && refs.len() == 1 && layout != Layout::PerHypothesis {
            let reference = refs.get_item(0)?;
            if reference.is_exact_instance_of::<PyString>() {
                let hypothesis = read_one(&hyps.get_item(0)?, "hypotheses[0]", config.lowercase)?;
                let reference = read_one(&reference, "references[0]", config.lowercase)?;
                numpy_ready(py)?;
                let score = pair_score(py, config, &hypothesis, &[reference])?;
                return Ok(PyArray1::from_slice(py, &[score]));
            }
        }
    }
    let corpus = read_corpus(hypotheses, references, layout, config.lowercase)?;
    numpy_ready(py)?;
    Ok(PyArray1::from_vec(py, corpus.scores(py, config)?))
}

/// sacreBLEU's sentence score of one hypothesis against its references (the best of them), and
/// the number of references: sacreBLEU's `None` placeholders are dropped (and not counted).
#[pyfunction]
pub fn sentence_score(
    py: Python<'_>,
    config: &Config,
    hypothesis: &Bound<'_, PyAny>,
    references: &Bound<'_, PyAny>,
) -> Result<(f64, usize)> {
    let references = listed(references, "references")?;
    if references.is_empty() {
        return Err(PyValueError::new_err("references must not be empty").into());
    }
    let hypothesis = read_one(hypothesis, "hypothesis", config.lowercase)?;
    if references.len() == 1 {
        // The common case, read without a vector to allocate and free.
        let reference = references.get_item(0)?;
        if !reference.is_none() {
            let reference = read_one(&reference, "references[0]", config.lowercase)?;
            return Ok((pair_score(py, config, &hypothesis, &[reference])?, 1));
        }
    }
    let mut present = Vec::new();
    for (k, reference) in references.iter().enumerate() {
        if !reference.is_none() {
            let name = format!("references[{k}]");
            present.push(read_one(&reference, &name, config.lowercase)?);
        }
    }
    if present.is_empty() {
        return Err(
            PyValueError::new_err("references has no reference: every item is None").into(),
        );
    }
    Ok((
        pair_score(py, config, &hypothesis, &present)?,
        present.len(),
    ))
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

/// The float score of corpus statistics (see `chrf.Statistics.score`).
#[pyfunction]
pub fn score_of(config: &Config, counts: Vec<Counts>) -> Result<f64> {
    let stats = statistics_of_counts(config, counts)?;
    Ok(chrf_core::float_score(&stats, &config.settings)?)
}

/// The exact components of corpus statistics (see `chrf.Statistics.components`).
#[pyfunction]
pub fn components_of(
    py: Python<'_>,
    config: &Config,
    counts: Vec<Counts>,
) -> Result<ExactComponents> {
    let stats = statistics_of_counts(config, counts)?;
    exact_components(py, chrf_core::components(&stats, &config.settings)?)
}

/// An order's (hypothesis, reference, matching) n-gram counts.
pub type Counts = (Count, Count, Count);

pub fn counts_of(stats: &Statistics) -> Vec<Counts> {
    stats
        .orders()
        .iter()
        .map(|o| (o.hypothesis, o.reference, o.matching))
        .collect()
}

/// Statistics of every segment as a uint64 array of shape (segments, orders, 3).
pub fn segment_statistics_array<'py>(
    py: Python<'py>,
    segments: &[Statistics],
    orders: usize,
) -> Result<Bound<'py, PyArray3<u64>>> {
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
    Ok(PyArray1::from_vec(py, flat).reshape([segments.len(), orders, 3])?)
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

pub fn exact_components(py: Python<'_>, c: Components) -> Result<ExactComponents> {
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
