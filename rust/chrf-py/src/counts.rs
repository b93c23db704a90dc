//! Statistics to and from Python: counts per order, arrays of segment statistics, the float
//! score of counts and their exact components as fractions.

use chrf_core::{Components, Count, NgramKind, OrderCounts, Statistics};
use numpy::{PyArray1, PyArray3, PyArrayMethods};
use pyo3::exceptions::PyOverflowError;
use pyo3::prelude::*;
use pyo3::types::PyTuple;

use crate::config::Config;
use crate::errors::{refused, reserved, Error, Kind, Result};
use crate::objects::{fallibly, new_list};

/// The float score of corpus statistics (see `chrf.Statistics.score`).
#[pyfunction]
pub fn score_of(config: &Config, counts: Vec<Counts>) -> Result<f64> {
    let stats = statistics_of_counts(config, counts)?;
    Ok(chrf_core::float_score(&stats, &config.settings)?)
}

/// The exact components of corpus statistics (see `chrf.Statistics.components`).
#[pyfunction]
pub fn components_of<'py>(
    py: Python<'py>,
    config: &Config,
    counts: Vec<Counts>,
) -> Result<Bound<'py, PyTuple>> {
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

/// Exact components as the one tuple `chrf.Components` is built of, its fields from `orders`
/// on, in order: the orders (each the fields of `chrf.OrderComponents`, in order), the
/// effective order count, the average precision and recall, the score as a fraction and as
/// six decimals, and whether it was cross-checked. Fractions are `fractions.Fraction`s.
pub fn exact_components<'py>(py: Python<'py>, c: Components) -> Result<Bound<'py, PyTuple>> {
    let score_text = chrf_core::six_decimals(&c.score);
    // Under `fallibly`: PyO3's int and tuple constructors panic when Python is out of memory.
    fallibly(|| {
        let orders = new_list(py, c.orders.len(), |i| {
            let o = &c.orders[i];
            let kind = match o.kind {
                NgramKind::Char => "char",
                NgramKind::Word => "word",
            };
            let counts = &o.counts;
            let order = (
                kind,
                o.n,
                counts.hypothesis,
                counts.reference,
                counts.matching,
                o.effective,
                &o.precision,
                &o.recall,
                &o.f_score,
            );
            Ok(order.into_pyobject(py)?.into_any())
        })?;
        let components = (
            orders,
            c.effective_order_count,
            &c.average_precision,
            &c.average_recall,
            &c.score,
            score_text,
            c.cross_checked,
        );
        Ok(components.into_pyobject(py)?)
    })
}
