//! `chrf._chrf`: the PyO3 glue between `chrf-core` and the Python package.
//!
//! Everything here is conversion: Python arguments to Rust values (with errors that name the
//! argument and the segment index), Rust results to Python objects. The arithmetic lives in
//! `chrf-core`; argument defaults and documentation live in `python/chrf`.

use chrf_core::{Averaging, Beta, ChrfError, Components, Corpus, NgramKind, Settings, Statistics};
use num_rational::BigRational;
use pyo3::exceptions::{PyArithmeticError, PyOverflowError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::pybacked::PyBackedStr;
use pyo3::types::{PyList, PyString, PyTuple};

/// Validated settings, built once per call by the Python layer.
#[pyclass(frozen, module = "chrf._chrf")]
struct Config {
    settings: Settings,
    lowercase: bool,
}

#[pymethods]
impl Config {
    #[new]
    #[pyo3(signature = (
        *, char_order, word_order, beta_squared, factor, one_plus_factor, lowercase,
        include_whitespace, averaging, eps_smoothing, count_hyp_without_ref
    ))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        char_order: usize,
        word_order: usize,
        beta_squared: BigRational,
        factor: f64,
        one_plus_factor: f64,
        lowercase: bool,
        include_whitespace: bool,
        averaging: &str,
        eps_smoothing: bool,
        count_hyp_without_ref: bool,
    ) -> PyResult<Self> {
        let beta = Beta::new(beta_squared, factor, one_plus_factor).map_err(to_py_err)?;
        let mut settings = Settings::new(char_order, word_order, beta).map_err(to_py_err)?;
        settings.include_whitespace = include_whitespace;
        settings.eps_smoothing = eps_smoothing;
        settings.count_hyp_without_ref = count_hyp_without_ref;
        settings.averaging = match averaging {
            "precision_recall" => Averaging::PrecisionRecall,
            "per_order_f" => Averaging::PerOrderF,
            other => {
                return Err(PyValueError::new_err(format!(
                    "averaging must be 'precision_recall' or 'per_order_f', not {other:?}"
                )))
            }
        };
        Ok(Self {
            settings,
            lowercase,
        })
    }
}

/// Texts read out of Python strings, kept alive by the strings themselves (no copy for ASCII).
struct Texts {
    hypotheses: Vec<PyBackedStr>,
    references: Vec<Vec<PyBackedStr>>,
}

impl Texts {
    /// Reads `hypotheses` (a list) and `references` (a list of reference streams, each a list).
    /// `nested` says whether the caller passed streams, so that errors name what the caller wrote.
    fn read(
        hypotheses: &Bound<'_, PyList>,
        references: &Bound<'_, PyList>,
        nested: bool,
        lowercase: bool,
    ) -> PyResult<Self> {
        let hypotheses = read_list(hypotheses, lowercase, |i| format!("hypotheses[{i}]"))?;
        let references = references
            .iter()
            .enumerate()
            .map(|(k, stream)| {
                let stream = stream.cast_into::<PyList>().map_err(|_| {
                    PyTypeError::new_err(format!("references[{k}] must be a list of str"))
                })?;
                read_list(&stream, lowercase, |i| {
                    if nested {
                        format!("references[{k}][{i}]")
                    } else {
                        format!("references[{i}]")
                    }
                })
            })
            .collect::<PyResult<Vec<_>>>()?;
        Ok(Self {
            hypotheses,
            references,
        })
    }

    fn corpus(&self) -> PyResult<Corpus<'_, PyBackedStr>> {
        Corpus::new(&self.hypotheses, &self.references).map_err(to_py_err)
    }
}

fn read_list(
    list: &Bound<'_, PyList>,
    lowercase: bool,
    name: impl Fn(usize) -> String,
) -> PyResult<Vec<PyBackedStr>> {
    list.iter()
        .enumerate()
        .map(|(i, item)| read_text(item, lowercase).map_err(|e| e.named(&name(i))))
        .collect()
}

/// Why one item could not be read; the caller adds the item's name.
enum TextError {
    NotStr(String),
    LoneSurrogate,
    Python(PyErr),
}

impl TextError {
    fn named(self, name: &str) -> PyErr {
        match self {
            Self::NotStr(type_name) => {
                PyTypeError::new_err(format!("{name} must be str, not {type_name}"))
            }
            Self::LoneSurrogate => PyValueError::new_err(format!(
                "{name} is not valid Unicode text: it contains a lone surrogate"
            )),
            Self::Python(err) => err,
        }
    }
}

fn read_text(item: Bound<'_, PyAny>, lowercase: bool) -> Result<PyBackedStr, TextError> {
    let text = item.cast_into::<PyString>().map_err(|e| {
        let type_name = e
            .into_inner()
            .get_type()
            .qualname()
            .map_or_else(|_| "an unknown type".to_string(), |n| n.to_string());
        TextError::NotStr(type_name)
    })?;
    let text = if lowercase {
        // Python's own str.lower(): its Unicode tables are the ones sacreBLEU's numbers use.
        text.call_method0(pyo3::intern!(text.py(), "lower"))
            .and_then(|lowered| Ok(lowered.cast_into::<PyString>()?))
            .map_err(TextError::Python)?
    } else {
        text
    };
    PyBackedStr::try_from(text).map_err(|_| TextError::LoneSurrogate)
}

fn to_py_err(error: ChrfError) -> PyErr {
    let message = error.to_string();
    match error {
        ChrfError::CountOverflow => PyOverflowError::new_err(message),
        ChrfError::CrossCheckFailed(_) => PyArithmeticError::new_err(message),
        _ => PyValueError::new_err(message),
    }
}

fn corpus_statistics(py: Python<'_>, config: &Config, texts: &Texts) -> PyResult<Statistics> {
    let corpus = texts.corpus()?;
    py.detach(|| corpus.statistics(&config.settings))
        .map_err(to_py_err)
}

/// sacreBLEU's float corpus score (see `chrf.score`).
#[pyfunction]
fn corpus_score(
    py: Python<'_>,
    config: &Config,
    hypotheses: &Bound<'_, PyList>,
    references: &Bound<'_, PyList>,
    nested: bool,
) -> PyResult<f64> {
    let texts = Texts::read(hypotheses, references, nested, config.lowercase)?;
    let stats = corpus_statistics(py, config, &texts)?;
    chrf_core::float_score(&stats, &config.settings).map_err(to_py_err)
}

/// Exact components of a corpus, as plain tuples that `chrf._components` wraps.
#[pyfunction]
fn corpus_components<'py>(
    py: Python<'py>,
    config: &Config,
    hypotheses: &Bound<'py, PyList>,
    references: &Bound<'py, PyList>,
    nested: bool,
) -> PyResult<Bound<'py, PyTuple>> {
    let texts = Texts::read(hypotheses, references, nested, config.lowercase)?;
    let stats = corpus_statistics(py, config, &texts)?;
    let components = py
        .detach(|| chrf_core::components(&stats, &config.settings))
        .map_err(to_py_err)?;
    components_to_py(py, &components)
}

fn components_to_py<'py>(py: Python<'py>, c: &Components) -> PyResult<Bound<'py, PyTuple>> {
    let orders = c
        .orders
        .iter()
        .map(|o| {
            let kind = match o.kind {
                NgramKind::Char => "char",
                NgramKind::Word => "word",
            };
            (
                kind,
                o.n,
                o.counts.hypothesis,
                o.counts.reference,
                o.counts.matching,
                o.effective,
                o.precision.clone(),
                o.recall.clone(),
                o.f_score.clone(),
            )
        })
        .collect::<Vec<_>>();
    (
        orders,
        c.effective_order_count,
        c.average_precision.clone(),
        c.average_recall.clone(),
        c.score.clone(),
        chrf_core::six_decimals(&c.score),
        c.cross_checked,
    )
        .into_pyobject(py)
}

#[pymodule]
mod _chrf {
    #[pymodule_export]
    use super::{corpus_components, corpus_score, Config};
}
