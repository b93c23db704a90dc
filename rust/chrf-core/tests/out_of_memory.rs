//! Out of memory in the core is `ChrfError::OutOfMemory`, never an abort: every buffer a
//! segment needs, the per-thread tables included, is allocated fallibly. This test binary's
//! allocator refuses, on the thread that asks it to, every allocation from a given size up,
//! as a process at its address-space limit does.

// A global allocator is an unsafe trait's implementation: it passes each call on unchanged.
#![allow(unsafe_code, clippy::expect_used)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::ptr::null_mut;

use chrf_core::bootstrap::{randomization_scores, resampled_scores, SegmentTable};
use chrf_core::pool::{self, Interrupt};
use chrf_core::{components, segment_score, segment_statistics, Beta, ChrfError, Corpus, Settings};

struct Refusing;

thread_local! {
    /// Allocations of this many bytes or more fail on this thread.
    static REFUSED_FROM: Cell<usize> = const { Cell::new(usize::MAX) };
}

fn refused(size: usize) -> bool {
    REFUSED_FROM.with(|from| size >= from.get())
}

// SAFETY: every call is passed on to the system allocator unchanged, or fails with a null
// pointer, as an allocator may.
unsafe impl GlobalAlloc for Refusing {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if refused(layout.size()) {
            return null_mut();
        }
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if refused(layout.size()) {
            return null_mut();
        }
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if refused(new_size) {
            return null_mut();
        }
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Refusing = Refusing;

/// Runs `work` on a thread of its own (whose per-thread buffers are not made yet), with every
/// allocation of `from` bytes or more refused.
fn refusing_from<T: Send>(from: usize, work: impl FnOnce() -> T + Send) -> T {
    std::thread::scope(|scope| {
        scope
            .spawn(|| {
                REFUSED_FROM.with(|limit| limit.set(from));
                let result = work();
                REFUSED_FROM.with(|limit| limit.set(usize::MAX));
                result
            })
            .join()
            .expect("the work does not panic")
    })
}

fn chrf_plus_plus() -> Settings {
    Settings::new(6, 2, Beta::integer(2).expect("β = 2 is valid")).expect("valid orders")
}

fn out_of_memory<T>(result: &Result<T, ChrfError>) -> bool {
    matches!(result, Err(ChrfError::OutOfMemory { .. }))
}

#[test]
fn a_threads_first_segment_without_memory_for_its_buffers_is_an_error() {
    let settings = chrf_plus_plus();
    let refused = refusing_from(64 * 1024, || {
        segment_statistics("the cat sat", ["a cat sat"], &settings)
    });
    assert!(out_of_memory(&refused), "{refused:?}");
    let scored = refusing_from(64 * 1024, || {
        segment_score("the cat sat", ["a cat sat"], &settings)
    });
    assert!(out_of_memory(&scored), "{scored:?}");
}

#[test]
fn buffers_given_back_after_a_long_segment_are_made_again_fallibly() {
    let settings = chrf_plus_plus();
    let long = "the cat sat on the mat ".repeat(100_000);
    let (long_segment, next_segment) = refusing_from(usize::MAX, || {
        let long_segment = segment_statistics(&long, [long.as_str()], &settings);
        REFUSED_FROM.with(|limit| limit.set(64 * 1024));
        (
            long_segment,
            segment_statistics("the cat", ["a cat"], &settings),
        )
    });
    assert!(long_segment.is_ok());
    assert!(out_of_memory(&next_segment), "{next_segment:?}");
}

#[test]
fn a_long_segment_under_any_limit_is_its_statistics_or_an_error() {
    // Every astral code point (a table of ids that grows with them), and many distinct words.
    let astral: String = (0x1_0000..0x11_0000).filter_map(char::from_u32).collect();
    let words: Vec<String> = (0..200_000).map(|i| format!("w{i}")).collect();
    let words = words.join(" ");
    let settings = chrf_plus_plus();
    for text in [astral.as_str(), words.as_str()] {
        let expected = segment_statistics(text, ["x y"], &settings);
        let limits = (0..40).map(|k| (64.0 * 1024.0 * 1.17_f64.powi(k)) as usize);
        let outcomes: Vec<_> = limits
            .map(|from| refusing_from(from, || segment_statistics(text, ["x y"], &settings)))
            .collect();
        assert!(outcomes.iter().any(out_of_memory));
        assert!(outcomes.contains(&expected));
        assert!(outcomes.iter().all(|o| out_of_memory(o) || *o == expected));
    }
}

#[test]
fn with_memory_again_the_same_thread_scores_as_before() {
    let settings = chrf_plus_plus();
    let expected = segment_statistics("the cat sat", ["a cat sat"], &settings);
    let (refused, scored) = refusing_from(64 * 1024, || {
        let refused = segment_statistics("the cat sat", ["a cat sat"], &settings);
        REFUSED_FROM.with(|limit| limit.set(usize::MAX));
        (
            refused,
            segment_statistics("the cat sat", ["a cat sat"], &settings),
        )
    });
    assert!(out_of_memory(&refused), "{refused:?}");
    assert_eq!(scored, expected);
}

#[test]
fn the_sum_of_a_corpus_at_long_orders_without_memory_is_an_error() {
    // 131,072 orders: the sum alone takes megabytes, whatever the texts.
    let settings = Settings::new(65_536, 65_536, Beta::integer(2).expect("valid")).expect("valid");
    let hyps = ["the cat sat", "on the mat"];
    let refs = vec![vec!["a cat sat", "on a mat"]];
    let corpus = Corpus::new(&hyps[..], &refs).expect("aligned");
    assert!(corpus.runs_inline()); // on this thread, where allocations are refused
    let none = Interrupt::default();
    let expected = corpus.statistics(&settings, &none);
    assert!(expected.is_ok());
    let refused = refusing_from(1024 * 1024, || corpus.statistics(&settings, &none));
    assert!(out_of_memory(&refused), "{refused:?}");
    let statistics = expected.expect("memory is there");
    let refused = refusing_from(1024 * 1024, || {
        components(&statistics, &settings).map(|_| ())
    });
    assert!(out_of_memory(&refused), "{refused:?}");
}

/// Runs `work` with every allocation of `from` bytes or more refused on the pool's threads,
/// where the resampling tests run their trials (the calling thread allocates as usual).
fn refusing_on_the_pool<T>(from: usize, work: impl FnOnce() -> T) -> T {
    let set = |from: usize| {
        pool::run(|| rayon::broadcast(|_| REFUSED_FROM.with(|limit| limit.set(from))))
            .expect("the pool starts");
    };
    set(from);
    let result = work();
    set(usize::MAX);
    result
}

#[test]
fn resampling_trials_at_long_orders_without_memory_are_an_error() {
    // 131,072 orders: each trial's sums take megabytes, for two segments' statistics.
    let settings = Settings::new(65_536, 65_536, Beta::integer(2).expect("valid")).expect("valid");
    let width = 3 * settings.order_count();
    let (baseline, system) = (vec![3u64; 2 * width], vec![2u64; 2 * width]);
    let none = Interrupt::default();
    let table = SegmentTable::new(&system, &settings).expect("memory is there");
    let picks = [0i64, 1, 1, 1];
    let swaps = [true, false, false, true];
    assert!(resampled_scores(&table, &picks, &settings, &none).is_ok());
    assert!(randomization_scores(&baseline, &system, &swaps, &settings, &none).is_ok());
    let refused = refusing_on_the_pool(1024 * 1024, || {
        resampled_scores(&table, &picks, &settings, &none)
    });
    assert!(out_of_memory(&refused), "{refused:?}");
    let refused = refusing_on_the_pool(1024 * 1024, || {
        randomization_scores(&baseline, &system, &swaps, &settings, &none)
    });
    assert!(out_of_memory(&refused), "{refused:?}");
}
