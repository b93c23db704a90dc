//! The thread pool behind every parallel computation of the crate, and how a caller stops it.
//!
//! The pool is safe across `fork`: no lock guards it (an `ArcSwap` is lock-free for readers and
//! writers), so a fork can never copy a held lock into the child, whatever other threads were
//! doing. A forked child finds the parent's pool by its process id and builds its own: the
//! parent's worker threads do not exist there, so its pool is leaked, never dropped (dropping
//! would wake threads that are gone).

use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc, OnceLock};
use std::time::Duration;

use arc_swap::ArcSwapOption;
use rayon::prelude::*;
use rayon::{ThreadPool, ThreadPoolBuilder};

use crate::memory::filled;
use crate::ChrfError;

/// Work on less text than this (in UTF-8 bytes) runs on the calling thread: it takes well under
/// a millisecond, while handing it to the pool and back costs about ten microseconds.
pub const INLINE_BYTES: usize = 8 * 1024;

/// The pool of one process, with the thread count it was built for.
struct Pool {
    pid: u32,
    threads: usize,
    pool: Result<ThreadPool, String>,
}

static POOL: ArcSwapOption<Pool> = ArcSwapOption::const_empty();
/// Threads asked for by [`set_thread_count`]; 0 for the default.
static REQUESTED: AtomicUsize = AtomicUsize::new(0);
/// The CPUs this process may use, once known (0 before): asking the system costs microseconds.
static CPUS: AtomicUsize = AtomicUsize::new(0);

/// How many threads a pool may have: more than a few per CPU only adds start-up cost and memory.
pub fn max_thread_count() -> usize {
    4 * cpu_count()
}

/// Sets the number of threads of the pool (`None`: one per CPU). The next computation starts a
/// pool of that size; results do not depend on it.
pub fn set_thread_count(threads: Option<usize>) -> Result<(), ChrfError> {
    let requested = threads.unwrap_or(0);
    if threads.is_some() && !(1..=max_thread_count()).contains(&requested) {
        return Err(ChrfError::ThreadCount {
            requested,
            max: max_thread_count(),
        });
    }
    REQUESTED.store(requested, Ordering::Relaxed);
    Ok(())
}

/// The number of threads parallel work uses.
pub fn thread_count() -> usize {
    match REQUESTED.load(Ordering::Relaxed) {
        0 => cpu_count(),
        n => n,
    }
}

fn cpu_count() -> usize {
    match CPUS.load(Ordering::Relaxed) {
        0 => {
            let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
            CPUS.store(cpus, Ordering::Relaxed);
            cpus
        }
        n => n,
    }
}

/// Runs `work` in the crate's pool, so that the rayon iterators inside it use that pool.
pub fn run<R: Send>(work: impl FnOnce() -> R + Send) -> Result<R, ChrfError> {
    let pool = current();
    match &pool.pool {
        Ok(threads) => Ok(threads.install(work)),
        Err(why) => Err(ChrfError::ThreadsUnavailable(why.clone())),
    }
}

/// `items` in order, computed in parallel into a vector allocated fallibly (rayon's `collect`
/// allocates its vector infallibly: the process would abort where memory runs out). The vector
/// holds `placeholder` until each item is in place; the first error of an item is returned
/// instead.
pub fn try_collect<T, I>(items: I, placeholder: T) -> Result<Vec<T>, ChrfError>
where
    T: Send + Clone,
    I: IndexedParallelIterator<Item = Result<T, ChrfError>>,
{
    let mut out = filled(items.len(), placeholder)?;
    out.par_iter_mut()
        .zip(items)
        .try_for_each(|(slot, item)| item.map(|item| *slot = item))?;
    Ok(out)
}

/// Runs `work` in the pool while the calling thread asks `stop` every [`POLL_INTERVAL`] whether
/// to interrupt it; once `stop` says yes (it is not asked again), `work`'s [`Interrupt`] is
/// raised, and work that checks it returns [`ChrfError::Cancelled`] at its next check.
pub fn run_interruptible<R: Send>(
    work: impl FnOnce(&Interrupt) -> Result<R, ChrfError> + Send,
    mut stop: impl FnMut() -> bool,
) -> Result<R, ChrfError> {
    let pool = current();
    let threads = match &pool.pool {
        Ok(threads) => threads,
        Err(why) => return Err(ChrfError::ThreadsUnavailable(why.clone())),
    };
    let interrupt = Interrupt::default();
    if threads.current_thread_index().is_some() {
        // Already on one of the pool's threads: the outer call polls.
        return work(&interrupt);
    }
    let (sender, receiver) = mpsc::channel();
    threads.in_place_scope(|scope| {
        let interrupt = &interrupt;
        scope.spawn(move |_| {
            // The receiver outlives the scope, so the send cannot fail.
            let _ = sender.send(watching(interrupt, || work(interrupt)));
        });
        loop {
            match receiver.recv_timeout(POLL_INTERVAL) {
                Ok(result) => return result,
                Err(mpsc::RecvTimeoutError::Timeout) if stop() => {
                    // `stop` is asked once: its answer may have consumed its reason.
                    interrupt.raise();
                    return receiver.recv().unwrap_or(Err(ChrfError::Cancelled));
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                // The work panicked: the scope re-raises the panic when it ends.
                Err(mpsc::RecvTimeoutError::Disconnected) => return Err(ChrfError::Cancelled),
            }
        }
    })
}

/// How often [`run_interruptible`] asks whether to stop: well under the second a user waits
/// after Ctrl-C, and rare enough to cost nothing.
pub const POLL_INTERVAL: Duration = Duration::from_millis(50);

/// A request to stop, shared by a caller and the work it runs. Long loops call
/// [`Interrupt::check`] between chunks of work; code without an `Interrupt` parameter (the
/// passes over one segment's windows) calls [`poll`] instead.
///
/// Its flag is made when first raised or watched: the many short calls that are never
/// interrupted (run inline, see [`INLINE_BYTES`]) make none.
#[derive(Debug, Default)]
pub struct Interrupt(OnceLock<Arc<AtomicBool>>);

impl Interrupt {
    pub fn raise(&self) {
        self.flag().store(true, Ordering::Relaxed);
    }

    /// `Err(Cancelled)` once the interrupt is raised.
    pub fn check(&self) -> Result<(), ChrfError> {
        match self.0.get() {
            Some(raised) if raised.load(Ordering::Relaxed) => Err(ChrfError::Cancelled),
            _ => Ok(()),
        }
    }

    fn flag(&self) -> &Arc<AtomicBool> {
        self.0.get_or_init(Arc::default)
    }
}

thread_local! {
    /// The interrupt of the work this thread is doing, for the code that has no parameter for
    /// it: one long segment's passes over its windows (see [`watching`] and [`poll`]).
    static WATCHED: RefCell<Option<Arc<AtomicBool>>> = const { RefCell::new(None) };
}

/// Runs `work` with `interrupt` watched on this thread: [`poll`] inside it reports it.
/// [`run_interruptible`] watches the work it was given; work it splits into tasks watches
/// again where a task may be long (a long segment), as tasks can run on other threads.
pub fn watching<R>(interrupt: &Interrupt, work: impl FnOnce() -> R) -> R {
    /// Puts the previous watch back, also when `work` unwinds.
    struct Restore(Option<Arc<AtomicBool>>);
    impl Drop for Restore {
        fn drop(&mut self) {
            let previous = self.0.take();
            WATCHED.with(|watched| *watched.borrow_mut() = previous);
        }
    }
    let previous = WATCHED.with(|watched| watched.replace(Some(Arc::clone(interrupt.flag()))));
    let _restore = Restore(previous);
    work()
}

/// `Err(Cancelled)` if the interrupt watched on this thread (see [`watching`]) is raised.
/// Cheap, but not free: long passes call it every [`POLL_UNITS`] units or so.
pub fn poll() -> Result<(), ChrfError> {
    WATCHED.with(|watched| match &*watched.borrow() {
        Some(raised) if raised.load(Ordering::Relaxed) => Err(ChrfError::Cancelled),
        _ => Ok(()),
    })
}

/// About how many units (code points, tokens, windows) long passes handle between two checks
/// for an interrupt: thousands of times more work than a check costs, and well under a
/// millisecond of it.
pub const POLL_UNITS: usize = 1 << 16;

/// Before a fork: lets a lazy start that would copy a held lock into the child finish. The
/// pool's threads set up crossbeam's epoch collector (which their work queues use) once per
/// process, when they first look for work; a fork meanwhile would copy that set-up half done,
/// and the child's pool would wait on it forever. Waits for it (or does it) here: a pointer
/// read once done.
pub fn settle_for_fork() {
    let _ = crossbeam_epoch::default_collector();
}

/// This process's pool at the wanted size, built on first use, after a fork, or after the
/// thread count changed.
fn current() -> Arc<Pool> {
    let pid = std::process::id();
    let threads = thread_count();
    if let Some(pool) = POOL.load_full() {
        if pool.pid == pid && pool.threads == threads {
            return pool;
        }
    }
    let fresh = Arc::new(Pool {
        pid,
        threads,
        pool: build(threads),
    });
    if let Some(previous) = POOL.swap(Some(Arc::clone(&fresh))) {
        if previous.pid != pid {
            std::mem::forget(previous);
        }
    }
    fresh
}

/// A pool of `threads` threads, or of one if the system refuses that many.
fn build(threads: usize) -> Result<ThreadPool, String> {
    let builder = |threads| {
        ThreadPoolBuilder::new()
            .num_threads(threads)
            .thread_name(|i| format!("chrf-{i}"))
            .build()
    };
    builder(threads).or_else(|error| {
        builder(1).map_err(|_| format!("could not start {threads} worker threads: {error}"))
    })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn an_interrupt_stops_work_that_checks_it() {
        let polls = AtomicUsize::new(0);
        let result: Result<(), ChrfError> = run_interruptible(
            |interrupt| loop {
                interrupt.check()?;
                std::thread::sleep(Duration::from_millis(1));
            },
            || polls.fetch_add(1, Ordering::Relaxed) >= 2,
        );
        assert_eq!(result, Err(ChrfError::Cancelled));
        assert_eq!(polls.load(Ordering::Relaxed), 3);
    }

    #[test]
    fn stop_is_not_asked_again_once_it_said_yes() {
        // The caller's `stop` consumes its reason (Python's pending signal): asking again while
        // slow work winds down would lose it.
        let polls = AtomicUsize::new(0);
        let result: Result<(), ChrfError> = run_interruptible(
            |interrupt| loop {
                if interrupt.check().is_err() {
                    std::thread::sleep(4 * POLL_INTERVAL);
                    return Err(ChrfError::Cancelled);
                }
                std::thread::sleep(Duration::from_millis(1));
            },
            || {
                polls.fetch_add(1, Ordering::Relaxed);
                true
            },
        );
        assert_eq!(result, Err(ChrfError::Cancelled));
        assert_eq!(polls.load(Ordering::Relaxed), 1);
    }

    #[test]
    fn poll_reports_the_interrupt_watched_on_this_thread() {
        let (raised, other) = (Interrupt::default(), Interrupt::default());
        raised.raise();
        assert_eq!(poll(), Ok(())); // raised, but watched by no one here
        assert_eq!(watching(&raised, poll), Err(ChrfError::Cancelled));
        assert_eq!(watching(&raised, || watching(&other, poll)), Ok(()));
        let after_inner = watching(&raised, || {
            let _ = watching(&other, poll);
            poll()
        });
        assert_eq!(after_inner, Err(ChrfError::Cancelled));
        assert_eq!(poll(), Ok(()));
    }

    #[test]
    fn run_interruptible_watches_the_work_it_runs() {
        // Code without an Interrupt parameter (one segment's passes) polls the watched one.
        let result: Result<(), ChrfError> = run_interruptible(
            |_| loop {
                poll()?;
                std::thread::sleep(Duration::from_millis(1));
            },
            || true,
        );
        assert_eq!(result, Err(ChrfError::Cancelled));
    }

    #[test]
    fn work_that_ends_returns_its_result() {
        let sum = run_interruptible(|_| Ok((0..1000u64).into_par_iter().sum::<u64>()), || false);
        assert_eq!(sum, Ok(499_500));
    }

    #[test]
    fn thread_counts_outside_the_bound_are_refused() {
        assert!(set_thread_count(Some(0)).is_err());
        assert!(set_thread_count(Some(max_thread_count() + 1)).is_err());
        assert_eq!(REQUESTED.load(Ordering::Relaxed), 0);
    }
}
