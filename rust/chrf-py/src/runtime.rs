//! Where the core's work runs: without the GIL on the crate's pool, with Ctrl-C watched; NumPy
//! made ready where a Ctrl-C cannot break it; the thread count.

use chrf_core::pool::{self, Interrupt};
use chrf_core::ChrfError;
use num_bigint::BigInt;
use num_rational::BigRational;
use numpy::PyArray1;
use numpy::PyArrayMethods;
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, MutexGuard, TryLockError};

use crate::errors::{internal_error, Error, Result};

/// Runs `work` on the crate's pool without the GIL. The calling thread meanwhile checks for
/// signals (Python runs its handlers only when asked): Ctrl-C stops the work at its next check
/// and raises `KeyboardInterrupt` here, within a fraction of a second, whatever the call's length.
/// `inline` work (small inputs, see [`pool::INLINE_BYTES`]) runs on the calling thread instead:
/// it ends before a signal check would be due, and the hand-off would cost more than it does.
/// A panic becomes a `RuntimeError` (see [`internal_error`]).
pub fn compute<R: Send>(
    py: Python<'_>,
    inline: bool,
    work: impl FnOnce(&Interrupt) -> std::result::Result<R, ChrfError> + Send,
) -> Result<R> {
    if inline {
        return Ok(
            catch_unwind(AssertUnwindSafe(|| work(&Interrupt::default())))
                .map_err(|panic| internal_error(panic.as_ref()))??,
        );
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
        (Some(error), _) => Err(error.into()),
        (None, Ok(result)) => Ok(result?),
        (None, Err(panic)) => Err(internal_error(panic.as_ref())),
    }
}

/// Makes NumPy ready before the first array is made: imports it, and has rust-numpy look up its
/// C API. rust-numpy does both on first use and panics if either fails. Both run here on a thread
/// of their own, where Python runs no signal handler: a Ctrl-C cannot land in NumPy's import
/// (which leaves a module half made, that NumPy then refuses to load again) nor in the lookup's
/// Python code; it waits, and is raised here as `KeyboardInterrupt` once NumPy is whole, so that
/// the process's later calls work. (Unless this thread holds the import lock, which the other
/// thread would wait for: see [`holds_import_lock`].)
pub fn numpy_ready(py: Python<'_>) -> Result<()> {
    if NUMPY_READY.load(Ordering::Acquire) {
        return Ok(());
    }
    let here = holds_import_lock(py)?;
    py.detach(|| prepare_numpy(here))?;
    // A Ctrl-C that came meanwhile: the call that was interrupted is this one.
    Ok(py.check_signals()?)
}

static NUMPY_READY: AtomicBool = AtomicBool::new(false);

/// Held while NumPy is made ready, so that [`settle_before_fork`] can wait for it: a
/// fork meanwhile would copy into the child NumPy's import lock, or rust-numpy's once-cells,
/// held by a thread the child does not have, and the child's first array would wait forever.
static NUMPY_PREPARING: Mutex<()> = Mutex::new(());

/// Makes NumPy ready as [`numpy_ready`] does, then imports `module` (one of NumPy's modules that
/// NumPy imports only when first used, `numpy.random` say) the same way: for the Python modules
/// that use NumPy themselves. Imported first through here, the modules are whole whenever a
/// Ctrl-C comes: one landing in an extension module's import can be lost, or break the module.
#[pyfunction]
pub fn import_numpy(py: Python<'_>, module: &str) -> Result<()> {
    numpy_ready(py)?;
    if holds_import_lock(py)? {
        py.import(module)?;
    } else {
        py.detach(|| on_own_thread(|| Python::attach(|py| Ok(py.import(module).map(drop)?))))?;
    }
    Ok(py.check_signals()?)
}

/// Whether this thread holds Python's import lock, which an import on another thread would
/// wait for until this one lets it go. A Ctrl-C can leave it held for good: importlib takes and
/// releases it in Python code (`_get_module_lock`), and an exception can come in between. An
/// import must then run on this thread, as Python's own would: the lock is reentrant.
fn holds_import_lock(py: Python<'_>) -> Result<bool> {
    let imp = py.import("_imp")?;
    if !imp.call_method0("lock_held")?.is_truthy()? {
        return Ok(false);
    }
    // Only its holder can release it: others get a RuntimeError. The holder takes it back.
    match imp.call_method0("release_lock") {
        Ok(_) => {
            imp.call_method0("acquire_lock")?;
            Ok(true)
        }
        Err(error) if error.is_instance_of::<PyRuntimeError>(py) => Ok(false),
        Err(error) => Err(error.into()),
    }
}

/// Runs `work` on a thread of its own, where Python runs no signal handler (see
/// [`numpy_ready`]), and waits for it.
fn on_own_thread(work: impl FnOnce() -> Result<()> + Send) -> Result<()> {
    std::thread::scope(|scope| {
        std::thread::Builder::new()
            .name("chrf-numpy".into())
            .spawn_scoped(scope, work)
            .map_err(|error| {
                Error::from(PyRuntimeError::new_err(format!(
                    "could not start a thread to load NumPy: {error}"
                )))
            })?
            .join()
            .map_err(|panic| internal_error(panic.as_ref()))?
    })
}

/// Imports NumPy and looks up its C API, once (called without the GIL): on a thread of its
/// own, or `here` if this thread holds the import lock (see [`holds_import_lock`]).
fn prepare_numpy(here: bool) -> Result<()> {
    let _preparing = NUMPY_PREPARING
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if NUMPY_READY.load(Ordering::Acquire) {
        return Ok(()); // another thread made it ready while this one waited
    }
    let load = || {
        Python::attach(|py| {
            py.import("numpy")?;
            catch_unwind(AssertUnwindSafe(|| {
                PyArray1::<f64>::zeros(py, 0, false);
            }))
            .map_err(|panic| internal_error(panic.as_ref()))
        })
    };
    if here {
        load()?;
    } else {
        on_own_thread(load)?;
    }
    NUMPY_READY.store(true, Ordering::Release);
    Ok(())
}

thread_local! {
    /// [`NUMPY_PREPARING`], held by this thread across a fork (see [`settle_before_fork`]).
    static HELD_FOR_FORK: std::cell::RefCell<Option<MutexGuard<'static, ()>>> =
        const { std::cell::RefCell::new(None) };
}

/// Before a fork: settles what a child must not copy half done, the pool's start, the lookup of
/// `Fraction` (see [`pool::settle_for_fork`], [`settle_fraction_class`]) and NumPy's
/// preparation: waits until no thread is making NumPy ready and keeps any from starting until
/// [`release_numpy_after_fork`], which both the parent and the child call after the fork, so
/// that the child never holds a half-made NumPy. Gives up the GIL only to wait for another
/// thread.
#[pyfunction]
pub fn settle_before_fork(py: Python<'_>) {
    // Keeps the GIL: the pool's threads need none to finish starting.
    pool::settle_for_fork();
    settle_conversions(py);
    if NUMPY_READY.load(Ordering::Acquire) {
        settle_numpy_borrows(py);
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

/// Before a fork: lets another thread finish filling the once-cells of PyO3's conversions of
/// exact numbers (the `Fraction` class, the names of `int` and `Fraction` methods it calls), or
/// fills them. PyO3 marks such a cell as being filled before it waits for the GIL: a fork while
/// another thread waits there copies the cell into the child as being filled for good, and the
/// child's first exact fraction would wait forever. Converting one here, both ways, waits for
/// that thread instead (a cell gives up the GIL while it waits). chrf's own cells are filled as
/// the module loads ([`crate::names`]).
fn settle_conversions(py: Python<'_>) {
    // Larger than a machine word: PyO3 converts it through `int.to_bytes` and `int.from_bytes`.
    let big = BigRational::new(BigInt::from(u128::MAX) * 3, BigInt::from(u128::MAX));
    // A failure (no `fractions`) is raised where a fraction is made, not by the fork.
    if let Ok(fraction) = (&big).into_pyobject(py) {
        let _ = fraction.extract::<BigRational>();
    }
}

/// Before a fork, once NumPy is ready: lets another thread finish setting up rust-numpy's
/// borrow flags (a once-cell like those of [`settle_conversions`], filled by the first read of
/// a NumPy array), or sets them up.
fn settle_numpy_borrows(py: Python<'_>) {
    let _ = catch_unwind(AssertUnwindSafe(|| {
        let _ = PyArray1::<f64>::zeros(py, 0, false).try_readonly();
    }));
}

/// After a fork, in the parent and in the child: lets NumPy be made ready again.
#[pyfunction]
pub fn release_numpy_after_fork() {
    HELD_FOR_FORK.with(|held| drop(held.borrow_mut().take()));
}

/// The number of threads parallel work uses.
#[pyfunction]
pub fn thread_count() -> usize {
    pool::thread_count()
}

/// Sets the number of threads (None: one per CPU); ValueError outside 1..=max_thread_count().
#[pyfunction]
#[pyo3(signature = (threads, /))]
pub fn set_thread_count(threads: Option<usize>) -> Result<()> {
    Ok(pool::set_thread_count(threads)?)
}

/// Runs the core's matching in its x86-64 baseline copies (`True`), or lets the processor choose
/// again (`False`); whether the x86-64-v3 copies run now. For the tests that hold both copies to
/// the same results.
#[pyfunction]
#[pyo3(signature = (baseline, /))]
pub fn force_baseline_isa(baseline: bool) -> bool {
    chrf_core::isa::force_baseline(baseline);
    chrf_core::isa::runs_v3()
}

/// The largest thread count `set_thread_count` accepts.
#[pyfunction]
pub fn max_thread_count() -> usize {
    pool::max_thread_count()
}
