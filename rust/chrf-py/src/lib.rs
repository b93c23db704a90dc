//! `chrf._chrf`: the PyO3 glue between `chrf-core` and the Python package.
//!
//! Everything here is conversion: Python arguments to Rust values (with errors that name the
//! argument and the segment index), Rust results to Python objects. The arithmetic lives in
//! `chrf-core`; argument defaults and documentation live in `python/chrf`.

mod arrow;
mod files;
mod texts;

use chrf_core::bootstrap::{
    randomization_scores as randomization_scores_core, resampled_scores as resampled_scores_core,
    SegmentTable,
};
use chrf_core::pool::{self, Interrupt};
use chrf_core::{
    Averaging, Beta, ChrfError, Components, Count, NgramCounts, NgramKind, OrderCounts, Settings,
    Statistics,
};
use num_rational::BigRational;
use numpy::ndarray::Dimension;
use numpy::{
    Element, PyArray1, PyArray2, PyArray3, PyArrayMethods, PyReadonlyArray, PyReadonlyArray2,
    PyReadonlyArray3,
};
use pyo3::exceptions::{
    PyArithmeticError, PyMemoryError, PyOverflowError, PyRuntimeError, PyValueError,
};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList, PyString};
use rayon::prelude::*;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, MutexGuard, TryLockError};

use texts::{read_batches, read_one, read_texts, Text, Texts};

/// The attributes of a `chrf.Settings` that the core needs, read from the object itself: the
/// settings are spelled out once, in python/chrf/_settings.py, and validated there.
#[derive(FromPyObject)]
struct SettingsAttributes {
    char_order: usize,
    word_order: usize,
    beta_fraction: BigRational,
    factor: f64,
    one_plus_factor: f64,
    beta_is_fraction: bool,
    lowercase: bool,
    include_whitespace: bool,
    averaging: String,
    eps_smoothing: bool,
    count_hyp_without_ref: bool,
}

/// A `chrf.Settings` in the core's terms, built once per distinct settings by `chrf._core`.
#[pyclass(frozen, module = "chrf._chrf")]
struct Config {
    settings: Settings,
    lowercase: bool,
}

#[pymethods]
impl Config {
    #[new]
    fn new(settings: SettingsAttributes) -> PyResult<Self> {
        let squared = &settings.beta_fraction * &settings.beta_fraction;
        let mut beta =
            Beta::new(squared, settings.factor, settings.one_plus_factor).map_err(to_py_err)?;
        if settings.beta_is_fraction {
            beta = beta.given_as_fraction();
        }
        let mut core =
            Settings::new(settings.char_order, settings.word_order, beta).map_err(to_py_err)?;
        core.include_whitespace = settings.include_whitespace;
        core.eps_smoothing = settings.eps_smoothing;
        core.count_hyp_without_ref = settings.count_hyp_without_ref;
        core.averaging = match settings.averaging.as_str() {
            "precision_recall" => Averaging::PrecisionRecall,
            "per_order_f" => Averaging::PerOrderF,
            other => {
                return Err(PyValueError::new_err(format!(
                    "averaging must be 'precision_recall' or 'per_order_f', not {other:?}"
                )))
            }
        };
        Ok(Self {
            settings: core,
            lowercase: settings.lowercase,
        })
    }
}

/// One order of exact components (see `chrf.OrderComponents`, which `chrf._core` builds).
#[pyclass(frozen, get_all, module = "chrf._chrf")]
struct ExactOrder {
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
struct ExactComponents {
    orders: Vec<Py<ExactOrder>>,
    effective_order_count: usize,
    average_precision: BigRational,
    average_recall: BigRational,
    score_fraction: BigRational,
    score_text: String,
    cross_checked: bool,
}

fn to_py_err(error: ChrfError) -> PyErr {
    let message = error.to_string();
    match error {
        ChrfError::CountOverflow => PyOverflowError::new_err(message),
        ChrfError::CrossCheckFailed(_) => PyArithmeticError::new_err(message),
        ChrfError::OutOfMemory { .. } => PyMemoryError::new_err(message),
        ChrfError::ThreadsUnavailable(_) | ChrfError::Cancelled => PyRuntimeError::new_err(message),
        _ => PyValueError::new_err(message),
    }
}

/// Runs `work` on the crate's pool without the GIL. The calling thread meanwhile checks for
/// signals (Python runs its handlers only when asked): Ctrl-C stops the work at its next check
/// and raises `KeyboardInterrupt` here, within a fraction of a second, whatever the call's length.
/// `inline` work (small inputs, see [`pool::INLINE_BYTES`]) runs on the calling thread instead:
/// it ends before a signal check would be due, and the hand-off would cost more than it does.
/// A panic (a defect: the crate's lints forbid the usual sources) becomes a `RuntimeError`
/// rather than PyO3's `PanicException`, which `except Exception` would not catch.
fn compute<R: Send>(
    py: Python<'_>,
    inline: bool,
    work: impl FnOnce(&Interrupt) -> Result<R, ChrfError> + Send,
) -> PyResult<R> {
    if inline {
        return catch_unwind(AssertUnwindSafe(|| work(&Interrupt::default())))
            .map_err(|panic| internal_error(panic.as_ref()))?
            .map_err(to_py_err);
    }
    let mut signal = None;
    let result = py.detach(|| {
        catch_unwind(AssertUnwindSafe(|| {
            pool::run_interruptible(work, || {
                signal = Python::attach(|py| py.check_signals()).err();
                signal.is_some()
            })
        }))
    });
    match (signal, result) {
        (Some(error), _) => Err(error),
        (None, Ok(result)) => result.map_err(to_py_err),
        (None, Err(panic)) => Err(internal_error(panic.as_ref())),
    }
}

fn internal_error(panic: &(dyn std::any::Any + Send)) -> PyErr {
    PyRuntimeError::new_err(format!(
        "internal error in chrf ({}); please report it with the input that caused it",
        panic_message(panic)
    ))
}

fn panic_message(panic: &(dyn std::any::Any + Send)) -> &str {
    panic
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| panic.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("a panic")
}

/// Makes NumPy ready before the first array is made: imports it, and has rust-numpy look up its
/// C API. rust-numpy does both on first use and panics if either fails. Both run here on a thread
/// of their own, where Python runs no signal handler: a Ctrl-C cannot land in NumPy's import
/// (which leaves a module half made, that NumPy then refuses to load again) nor in the lookup's
/// Python code; it waits, and is raised here as `KeyboardInterrupt` once NumPy is whole, so that
/// the process's later calls work.
fn numpy_ready(py: Python<'_>) -> PyResult<()> {
    if NUMPY_READY.load(Ordering::Acquire) {
        return Ok(());
    }
    py.detach(prepare_numpy)?;
    // A Ctrl-C that came meanwhile: the call that was interrupted is this one.
    py.check_signals()
}

static NUMPY_READY: AtomicBool = AtomicBool::new(false);

/// Held while NumPy is made ready, so that [`hold_numpy_for_fork`] can wait for it: a
/// fork meanwhile would copy into the child NumPy's import lock, or rust-numpy's once-cells,
/// held by a thread the child does not have, and the child's first array would wait forever.
static NUMPY_PREPARING: Mutex<()> = Mutex::new(());

/// Makes NumPy ready as [`numpy_ready`] does, then imports `module` (one of NumPy's modules that
/// NumPy imports only when first used, `numpy.random` say) the same way: for the Python modules
/// that use NumPy themselves. Imported first through here, the modules are whole whenever a
/// Ctrl-C comes: one landing in an extension module's import can be lost, or break the module.
#[pyfunction]
fn import_numpy(py: Python<'_>, module: &str) -> PyResult<()> {
    numpy_ready(py)?;
    let import = || Python::attach(|py| py.import(module).map(drop));
    py.detach(|| on_own_thread(import))?;
    py.check_signals()
}

/// Runs `work` on a thread of its own, where Python runs no signal handler (see
/// [`numpy_ready`]), and waits for it.
fn on_own_thread(work: impl FnOnce() -> PyResult<()> + Send) -> PyResult<()> {
    std::thread::scope(|scope| {
        std::thread::Builder::new()
            .name("chrf-numpy".into())
            .spawn_scoped(scope, work)
            .map_err(|error| {
                PyRuntimeError::new_err(format!("could not start a thread to load NumPy: {error}"))
            })?
            .join()
            .map_err(|panic| internal_error(panic.as_ref()))?
    })
}

/// Imports NumPy and looks up its C API on a thread of its own, once (called without the GIL).
fn prepare_numpy() -> PyResult<()> {
    let _preparing = NUMPY_PREPARING
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if NUMPY_READY.load(Ordering::Acquire) {
        return Ok(()); // another thread made it ready while this one waited
    }
    on_own_thread(|| {
        Python::attach(|py| {
            py.import("numpy")?;
            catch_unwind(AssertUnwindSafe(|| {
                PyArray1::<f64>::zeros(py, 0, false);
            }))
            .map_err(|panic| internal_error(panic.as_ref()))
        })
    })?;
    NUMPY_READY.store(true, Ordering::Release);
    Ok(())
}

thread_local! {
    /// [`NUMPY_PREPARING`], held by this thread across a fork (see [`hold_numpy_for_fork`]).
    static HELD_FOR_FORK: std::cell::RefCell<Option<MutexGuard<'static, ()>>> =
        const { std::cell::RefCell::new(None) };
}

/// Before a fork: waits until no thread is making NumPy ready and keeps any from starting until
/// [`release_numpy_after_fork`], which both the parent and the child call after the fork: the
/// child then never holds a half-made NumPy. Lets the pool's start settle too (see
/// [`pool::settle_for_fork`]). Keeps the GIL unless it has to wait for NumPy.
#[pyfunction]
fn hold_numpy_for_fork(py: Python<'_>) {
    // Keeps the GIL: the pool's threads need none to finish starting.
    pool::settle_for_fork();
    if NUMPY_READY.load(Ordering::Acquire) {
        return;
    }
    let guard = loop {
        match NUMPY_PREPARING.try_lock() {
            Ok(guard) => break guard,
            Err(TryLockError::Poisoned(poisoned)) => break poisoned.into_inner(),
            // Waits without the GIL, which the preparing thread needs (a guard cannot leave
            // `detach`: it must be released by the thread that took it).
            Err(TryLockError::WouldBlock) => py.detach(|| drop(NUMPY_PREPARING.lock())),
        }
    };
    HELD_FOR_FORK.with(|held| *held.borrow_mut() = Some(guard));
}

/// After a fork, in the parent and in the child: lets NumPy be made ready again.
#[pyfunction]
fn release_numpy_after_fork() {
    HELD_FOR_FORK.with(|held| drop(held.borrow_mut().take()));
}

/// The corpus statistics of hypotheses against reference streams, computed without the GIL.
fn statistics_of_texts(py: Python<'_>, config: &Config, texts: &Texts) -> PyResult<Statistics> {
    let corpus = texts.corpus()?;
    compute(py, corpus.runs_inline(), |interrupt| {
        corpus.statistics(&config.settings, interrupt)
    })
}

/// Corpus statistics: one (hypothesis, reference, matching) count triple per order.
#[pyfunction]
fn corpus_statistics(
    py: Python<'_>,
    config: &Config,
    hypotheses: &Bound<'_, PyAny>,
    references: &Bound<'_, PyList>,
    nested: bool,
) -> PyResult<Vec<Counts>> {
    let texts = Texts::read(hypotheses, references, nested, config.lowercase)?;
    Ok(counts_of(&statistics_of_texts(py, config, &texts)?))
}

/// Statistics of every segment: a uint64 array of shape (segments, orders, 3).
#[pyfunction]
fn segment_statistics<'py>(
    py: Python<'py>,
    config: &Config,
    hypotheses: &Bound<'py, PyAny>,
    references: &Bound<'py, PyList>,
    nested: bool,
) -> PyResult<Bound<'py, PyArray3<u64>>> {
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
        .collect::<Result<_, _>>()
        .map_err(|_| PyOverflowError::new_err("a segment count exceeds 2**64 - 1"))?;
    let shape = [corpus.len(), config.settings.order_count(), 3];
    PyArray1::from_vec(py, flat).reshape(shape)
}

/// sacreBLEU's sentence score of every segment.
#[pyfunction]
fn sentence_scores<'py>(
    py: Python<'py>,
    config: &Config,
    hypotheses: &Bound<'py, PyAny>,
    references: &Bound<'py, PyList>,
    nested: bool,
) -> PyResult<Bound<'py, PyArray1<f64>>> {
    numpy_ready(py)?;
    let texts = Texts::read(hypotheses, references, nested, config.lowercase)?;
    scores_array(py, config, &texts)
}

/// `sentence_scores` of hypotheses with one reference each, when both are lists of the same
/// non-zero length and the first reference is a str; None for every other shape, which the
/// caller checks (naming what is wrong) before calling `sentence_scores`. For one short pair,
/// the checks and the building of the argument lists in Python cost more than the scoring.
#[pyfunction]
fn flat_sentence_scores<'py>(
    py: Python<'py>,
    config: &Config,
    hypotheses: &Bound<'py, PyAny>,
    references: &Bound<'py, PyAny>,
) -> PyResult<Option<Bound<'py, PyArray1<f64>>>> {
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
        hypotheses: read_texts(hyps.as_any(), "hypotheses", config.lowercase)?,
        references: vec![read_texts(refs.as_any(), "references", config.lowercase)?],
    };
    scores_array(py, config, &texts).map(Some)
}

fn scores_array<'py>(
    py: Python<'py>,
    config: &Config,
    texts: &Texts,
) -> PyResult<Bound<'py, PyArray1<f64>>> {
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
fn sentence_score(
    py: Python<'_>,
    config: &Config,
    hypothesis: &Bound<'_, PyAny>,
    references: &Bound<'_, PyAny>,
) -> PyResult<Option<f64>> {
    let Ok(references) = references.cast_exact::<PyList>() else {
        return Ok(None);
    };
    if references.is_empty() {
        return Err(PyValueError::new_err("references must not be empty"));
    }
    let hypothesis = read_one(hypothesis, "hypothesis", config.lowercase)?;
    if references.len() == 1 {
        // The common case, read without a vector to allocate and free: for one short pair,
        // such overhead is a visible share of the call.
        let reference = read_one(&references.get_item(0)?, "references[0]", config.lowercase)?;
        return pair_score(py, config, &hypothesis, &[reference]).map(Some);
    }
    let references = read_texts(references.as_any(), "references", config.lowercase)?;
    pair_score(py, config, &hypothesis, &references).map(Some)
}

/// The sentence score of one hypothesis against its references, on the calling thread when
/// they are short.
fn pair_score<R: AsRef<str> + Sync>(
    py: Python<'_>,
    config: &Config,
    hypothesis: &str,
    references: &[R],
) -> PyResult<f64> {
    let bytes = references.iter().fold(hypothesis.len(), |sum, text| {
        sum.saturating_add(text.as_ref().len())
    });
    compute(py, bytes <= pool::INLINE_BYTES, |_| {
        let references = references.iter().map(AsRef::as_ref);
        chrf_core::segment_score(hypothesis, references, &config.settings)
    })
}

/// `sentence_scores` as a list of floats, for callers that must not import NumPy (the command
/// line's `--sentence-level`).
#[pyfunction]
fn sentence_score_list(
    py: Python<'_>,
    config: &Config,
    hypotheses: &Bound<'_, PyAny>,
    references: &Bound<'_, PyList>,
    nested: bool,
) -> PyResult<Vec<f64>> {
    let texts = Texts::read(hypotheses, references, nested, config.lowercase)?;
    let corpus = texts.corpus()?;
    compute(py, corpus.runs_inline(), |interrupt| {
        corpus.segment_scores(&config.settings, interrupt)
    })
}

/// The n-grams that cost the corpus its matches (see `chrf.explain`), the `top` of each list,
/// as one `bytes` object that `chrf._explain` decodes (its layout: [`encode_explanation`]).
///
/// One object, made by PyO3's one fallible constructor of a buffer: a result of lists of tuples
/// of str and int needs an object per n-gram, whose constructors panic when Python is out of
/// memory (and the panic's backtrace, printing without memory, deadlocks). Out of memory here
/// is a `MemoryError`, wherever it strikes.
#[pyfunction]
fn explain<'py>(
    py: Python<'py>,
    config: &Config,
    hypotheses: &Bound<'py, PyAny>,
    references: &Bound<'py, PyList>,
    nested: bool,
    top: Option<usize>,
) -> PyResult<Bound<'py, PyBytes>> {
    let texts = Texts::read(hypotheses, references, nested, config.lowercase)?;
    let corpus = texts.corpus()?;
    let explanation = compute(py, corpus.runs_inline(), |interrupt| {
        corpus.explain(&config.settings, top, interrupt)
    })?;
    let bytes = encoded_length(&explanation).map_err(to_py_err)?;
    PyBytes::new_with(py, bytes, |buffer| {
        encode_explanation(&explanation, buffer).map_err(to_py_err)
    })
}

/// Every list of an explanation in order: order by order, the missing n-grams, then the extra.
fn ngram_lists(explanation: &chrf_core::Explanation) -> impl Iterator<Item = &NgramCounts> {
    explanation
        .orders
        .iter()
        .flat_map(|order| [&order.missing, &order.extra])
}

/// The bytes [`encode_explanation`] writes.
fn encoded_length(explanation: &chrf_core::Explanation) -> Result<usize, ChrfError> {
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
) -> Result<(), ChrfError> {
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
fn swapped_scores<'py>(
    py: Python<'py>,
    config: &Config,
    segment_statistics: PyReadonlyArray3<'py, u64>,
    replacement: Option<PyReadonlyArray3<'py, u64>>,
) -> PyResult<Bound<'py, PyArray1<f64>>> {
    numpy_ready(py)?;
    let counts = contiguous(&segment_statistics)?;
    let replacement = replacement.as_ref().map(contiguous).transpose()?;
    let settings = &config.settings;
    let scores = compute(py, false, |interrupt| {
        chrf_core::swapped_scores(counts, replacement, settings, interrupt)
    })?;
    Ok(PyArray1::from_vec(py, scores))
}

/// One pairwise matrix per batch item: shape (batch, hypotheses, references), every item of
/// the same shape.
#[pyfunction]
fn pairwise<'py>(
    py: Python<'py>,
    config: &Config,
    hypotheses: &Bound<'py, PyList>,
    references: &Bound<'py, PyList>,
) -> PyResult<Bound<'py, PyArray3<f64>>> {
    numpy_ready(py)?;
    let hyps = read_batches(hypotheses, "hypotheses", config.lowercase)?;
    let refs = read_batches(references, "references", config.lowercase)?;
    let shape = [
        hyps.len(),
        hyps.first().map_or(0, Vec::len),
        refs.first().map_or(0, Vec::len),
    ];
    let settings = &config.settings;
    // One buffer for every item's matrix, handed to NumPy as it is: the scores are written once.
    let item_cells = shape[1].checked_mul(shape[2]);
    let cells = item_cells.and_then(|cells| cells.checked_mul(shape[0]));
    let (Some(item_cells), Some(cells)) = (item_cells, cells) else {
        return Err(to_py_err(ChrfError::OutOfMemory { bytes: usize::MAX }));
    };
    let mut flat = zeroed(cells)?;
    compute(py, false, |interrupt| {
        let score = |(b, out): (usize, &mut [f64])| {
            chrf_core::pairwise_scores_into(&hyps[b], &refs[b], settings, interrupt, out)
        };
        if item_cells == 0 {
            (0..hyps.len())
                .map(|b| (b, &mut [][..]))
                .try_for_each(score)
        } else {
            flat.par_chunks_mut(item_cells)
                .enumerate()
                .try_for_each(score)
        }
    })?;
    PyArray1::from_vec(py, flat).reshape(shape)
}

/// Reference aggregation per batch item: shape (batch, hypotheses).
#[pyfunction]
fn aggregate<'py>(
    py: Python<'py>,
    config: &Config,
    hypotheses: &Bound<'py, PyList>,
    references: &Bound<'py, PyList>,
    weights: Option<Vec<Option<Vec<u64>>>>,
) -> PyResult<Bound<'py, PyArray2<f64>>> {
    numpy_ready(py)?;
    let hyps = read_batches(hypotheses, "hypotheses", config.lowercase)?;
    let refs = read_batches(references, "references", config.lowercase)?;
    let weights = weights.unwrap_or_else(|| vec![None; hyps.len()]);
    let shape = [hyps.len(), hyps.first().map_or(0, Vec::len)];
    let settings = &config.settings;
    let flat: Vec<f64> = compute(py, false, |interrupt| {
        hyps.par_iter()
            .zip(&refs)
            .zip(&weights)
            .map(|((h, r), w)| chrf_core::aggregate_scores(h, r, w.as_deref(), settings, interrupt))
            .collect::<Result<Vec<_>, _>>()
    })
    .and_then(flatten)?;
    PyArray1::from_vec(py, flat).reshape(shape)
}

/// MBR's expected utility per batch item (see `chrf.expected_utility`): shape
/// (batch, hypotheses), the exact weighted mean of each pairwise row, without the matrix.
/// `batched` says whether the caller passed batch items, so that errors name what it wrote.
#[pyfunction]
fn expected_utility<'py>(
    py: Python<'py>,
    config: &Config,
    hypotheses: &Bound<'py, PyList>,
    references: &Bound<'py, PyList>,
    weights: Option<Vec<Option<Vec<u64>>>>,
    batched: bool,
) -> PyResult<Bound<'py, PyArray2<f64>>> {
    numpy_ready(py)?;
    let hyps = read_items(hypotheses, "hypotheses", batched, config.lowercase)?;
    let refs = read_items(references, "references", batched, config.lowercase)?;
    let weights = weights.unwrap_or_else(|| vec![None; hyps.len()]);
    let shape = [hyps.len(), hyps.first().map_or(0, Vec::len)];
    let settings = &config.settings;
    let flat: Vec<f64> = compute(py, false, |interrupt| {
        hyps.par_iter()
            .zip(&refs)
            .zip(&weights)
            .map(|((h, r), w)| chrf_core::expected_utility(h, r, w.as_deref(), settings, interrupt))
            .collect::<Result<Vec<_>, _>>()
    })
    .and_then(flatten)?;
    PyArray1::from_vec(py, flat).reshape(shape)
}

/// Batch items of texts: errors name a text `name[b][i]`, or `name[i]` when the caller passed
/// one item unbatched.
fn read_items(
    lists: &Bound<'_, PyList>,
    name: &str,
    batched: bool,
    lowercase: bool,
) -> PyResult<Vec<Vec<Text>>> {
    if batched || lists.len() != 1 {
        return read_batches(lists, name, lowercase);
    }
    Ok(vec![read_texts(&lists.get_item(0)?, name, lowercase)?])
}

/// `len` zeros, allocated fallibly: a matrix too large for memory is a `MemoryError`.
fn zeroed(len: usize) -> PyResult<Vec<f64>> {
    let mut zeros = Vec::new();
    zeros.try_reserve_exact(len).map_err(|_| {
        to_py_err(ChrfError::OutOfMemory {
            bytes: len.saturating_mul(std::mem::size_of::<f64>()),
        })
    })?;
    zeros.resize(len, 0.0);
    Ok(zeros)
}

/// The batch items' outputs end to end, copied at most once, into memory reserved fallibly (a
/// lone item, the usual case, is not copied at all).
fn flatten(mut items: Vec<Vec<f64>>) -> PyResult<Vec<f64>> {
    if items.len() == 1 {
        return Ok(items.pop().unwrap_or_default());
    }
    let total = items.iter().map(Vec::len).sum::<usize>();
    let mut flat = Vec::new();
    flat.try_reserve_exact(total).map_err(|_| {
        to_py_err(ChrfError::OutOfMemory {
            bytes: total.saturating_mul(std::mem::size_of::<f64>()),
        })
    })?;
    for item in items {
        flat.extend(item);
    }
    Ok(flat)
}

/// The number of threads parallel work uses.
#[pyfunction]
fn thread_count() -> usize {
    pool::thread_count()
}

/// Sets the number of threads (None: one per CPU); ValueError outside 1..=max_thread_count().
#[pyfunction]
#[pyo3(signature = (threads, /))]
fn set_thread_count(threads: Option<usize>) -> PyResult<()> {
    pool::set_thread_count(threads).map_err(to_py_err)
}

/// The largest thread count `set_thread_count` accepts.
#[pyfunction]
fn max_thread_count() -> usize {
    pool::max_thread_count()
}

/// The float score of corpus statistics (see `chrf.score`).
#[pyfunction]
fn score_of(config: &Config, counts: Vec<Counts>) -> PyResult<f64> {
    let stats = statistics_of_counts(config, counts)?;
    chrf_core::float_score(&stats, &config.settings).map_err(to_py_err)
}

/// The exact components of corpus statistics.
#[pyfunction]
fn components_of(
    py: Python<'_>,
    config: &Config,
    counts: Vec<Counts>,
) -> PyResult<ExactComponents> {
    let stats = statistics_of_counts(config, counts)?;
    let components = chrf_core::components(&stats, &config.settings).map_err(to_py_err)?;
    exact_components(py, components)
}

/// The elements of a C-contiguous array, in order.
fn contiguous<'a, T: Element, D: Dimension>(
    array: &'a PyReadonlyArray<'_, T, D>,
) -> PyResult<&'a [T]> {
    array
        .as_slice()
        .map_err(|_| PyValueError::new_err("arrays must be C-contiguous"))
}

/// Score values, and whether each is a float32.
type ResampledScores<'py> = (Bound<'py, PyArray1<f64>>, Bound<'py, PyArray1<bool>>);

/// sacreBLEU's scores of bootstrap resamples of per-segment statistics (shape
/// (segments, orders, 3)), one resample per row of `picks`: the float values, and whether each
/// is a NumPy float32 (otherwise a Python float) in sacreBLEU's arithmetic.
#[pyfunction]
fn resampled_scores<'py>(
    py: Python<'py>,
    config: &Config,
    segment_statistics: PyReadonlyArray3<'py, u64>,
    picks: PyReadonlyArray2<'py, i64>,
) -> PyResult<ResampledScores<'py>> {
    numpy_ready(py)?;
    let counts = contiguous(&segment_statistics)?;
    let picks = contiguous(&picks)?;
    let settings = &config.settings;
    let scores = compute(py, false, |interrupt| {
        let table = SegmentTable::new(counts, settings)?;
        resampled_scores_core(&table, picks, settings, interrupt)
    })?;
    let values = scores.iter().map(|s| s.value()).collect();
    let float32 = scores.iter().map(|s| s.is_float32()).collect();
    Ok((
        PyArray1::from_vec(py, values),
        PyArray1::from_vec(py, float32),
    ))
}

/// The scores of the two pseudo-systems of each randomization trial.
type ScorePair<'py> = (Bound<'py, PyArray1<f64>>, Bound<'py, PyArray1<f64>>);

/// sacreBLEU's paired approximate randomization scores (see `chrf_core::bootstrap`).
#[pyfunction]
fn randomization_scores<'py>(
    py: Python<'py>,
    config: &Config,
    baseline: PyReadonlyArray3<'py, u64>,
    system: PyReadonlyArray3<'py, u64>,
    swaps: PyReadonlyArray2<'py, bool>,
) -> PyResult<ScorePair<'py>> {
    numpy_ready(py)?;
    let baseline = contiguous(&baseline)?;
    let system = contiguous(&system)?;
    let swaps = contiguous(&swaps)?;
    let settings = &config.settings;
    let (a, b) = compute(py, false, |interrupt| {
        randomization_scores_core(baseline, system, swaps, settings, interrupt)
    })?;
    Ok((PyArray1::from_vec(py, a), PyArray1::from_vec(py, b)))
}

type Counts = (Count, Count, Count);

fn counts_of(stats: &Statistics) -> Vec<Counts> {
    stats
        .orders()
        .iter()
        .map(|o| (o.hypothesis, o.reference, o.matching))
        .collect()
}

fn statistics_of_counts(config: &Config, counts: Vec<Counts>) -> PyResult<Statistics> {
    let expected = config.settings.order_count();
    if counts.len() != expected {
        return Err(PyValueError::new_err(format!(
            "statistics hold {} orders but the settings have {expected}",
            counts.len()
        )));
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

fn exact_components(py: Python<'_>, c: Components) -> PyResult<ExactComponents> {
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

#[pymodule]
mod _chrf {
    use pyo3::prelude::*;

    /// The package version, from Cargo (the wheel's version), without reading package metadata.
    #[pymodule_init]
    fn init(module: &Bound<'_, PyModule>) -> PyResult<()> {
        module.add("__version__", env!("CARGO_PKG_VERSION"))
    }

    #[pymodule_export]
    use super::{
        aggregate, components_of, corpus_statistics, expected_utility, explain,
        flat_sentence_scores, hold_numpy_for_fork, import_numpy, max_thread_count, pairwise,
        randomization_scores, release_numpy_after_fork, resampled_scores, score_of,
        segment_statistics, sentence_score, sentence_score_list, sentence_scores, set_thread_count,
        swapped_scores, thread_count, Config, ExactComponents, ExactOrder,
    };

    #[pymodule_export]
    use super::arrow::{read_arrow, ArrowColumn, ArrowLists};

    #[pymodule_export]
    use super::files::AlignedFiles;
}
