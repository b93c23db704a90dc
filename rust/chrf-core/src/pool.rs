//! The thread pool behind every parallel computation of the crate.
//!
//! Its size is `$CHRF_NUM_THREADS` when that is a positive integer, else the number of CPUs the
//! process may use. It is rebuilt in a forked child: a fork copies the pool's bookkeeping but
//! not its worker threads, so work handed to the parent's pool would wait forever (the classic
//! hang of rayon, and of OpenMP, under `multiprocessing`).

use std::sync::{Arc, Mutex};

use rayon::{ThreadPool, ThreadPoolBuilder};

/// The pool and the process it belongs to.
static POOL: Mutex<Option<(u32, Arc<ThreadPool>)>> = Mutex::new(None);

/// Runs `work` in the crate's pool, so that the rayon iterators inside it use that pool.
pub fn run<R: Send>(work: impl FnOnce() -> R + Send) -> R {
    match pool() {
        Some(pool) => pool.install(work),
        // No thread could be started: rayon's global pool is all that is left.
        None => work(),
    }
}

/// The number of threads the pool runs.
pub fn thread_count() -> usize {
    std::env::var("CHRF_NUM_THREADS")
        .ok()
        .and_then(|value| value.trim().parse::<usize>().ok())
        .filter(|&n| n > 0)
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

fn pool() -> Option<Arc<ThreadPool>> {
    let pid = std::process::id();
    let mut slot = POOL.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some((owner, pool)) = slot.as_ref() {
        if *owner == pid {
            return Some(Arc::clone(pool));
        }
    }
    // First use, or a forked child holding the parent's pool: its threads do not exist here,
    // so it is leaked rather than dropped (dropping would signal threads that are gone).
    if let Some((_, stale)) = slot.take() {
        std::mem::forget(stale);
    }
    let pool = ThreadPoolBuilder::new()
        .num_threads(thread_count())
        .thread_name(|i| format!("chrf-{i}"))
        .build()
        .ok()
        .map(Arc::new)?;
    *slot = Some((pid, Arc::clone(&pool)));
    Some(pool)
}
