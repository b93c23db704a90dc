//! Statistics to and from Python: counts per order, arrays of segment statistics, the float
//! score of counts and their exact components as fractions.

use chrf_core::{Components, Count, NgramKind, OrderCounts, Statistics};
use num_rational::BigRational;
use numpy::{PyArray1, PyArray3, PyArrayMethods};
use pyo3::exceptions::PyOverflowError;
use pyo3::prelude::*;

use crate::config::Config;
use crate::errors::{refused, reserved, Error, Kind, Result};
use crate::objects::fallibly;

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
    // Reserved whole, fallibly: collected, it would grow by doubling, infallibly.
    let mut flat: Vec<u64> = reserved(segments.len().saturating_mul(orders).saturating_mul(3))?;
    for stats in segments {
        for order in stats.orders() {
            for count in [order.hypothesis, order.reference, order.matching] {
                flat.push(u64::try_from(count).map_err(|_| {
                    Error::from(PyOverflowError::new_err(
                        "a segment count exceeds 2**64 - 1",
                    ))
                })?);
            }
        }
    }
    fallibly(|| Ok(PyArray1::from_vec(py, flat).reshape([segments.len(), orders, 3])?))
}

fn statistics_of_counts(config: &Config, counts: Vec<Counts>) -> Result<Statistics> {
    let expected = config.settings.order_count();
    if counts.len() != expected {
        let message = format!(
            "statistics hold {} orders but the settings have {expected}",
            counts.len()
        );
        return Err(refused(Kind::Input, message, None, None, "shape_mismatch"));
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
