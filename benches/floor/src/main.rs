//! `chrf-floor MODE HYP REF [--one-segment]`: one single-threaded pass over a corpus, for
//! callgrind's instruction counts (`benches/floor.py` runs it and divides by the characters).
//!
//! * `chrf`, `chrf++`: chrf-core's statistics of every segment, summed in place as the corpus
//!   path sums them.
//! * `floor`: what any exact character n-gram count must do at least: decode the UTF-8, give
//!   every code point a dense id, and hash each n-gram of orders 1..=6 once (a multiply-add on
//!   the hash of its first n - 1 units). It counts nothing; it is a floor, not a competitor.
//!   Its decoding and ids are written as chrf-core's are (fixed tables, ids written into place),
//!   so that the ratio compares the matching alone.
//! * `floor++`: the floor of chrF++: `floor`, then the words as sacreBLEU splits them
//!   (chrf-core's tokeniser), a dense id per distinct token (a hash map of the segment's tokens),
//!   and one hash per word n-gram of orders 1..=2.
//!
//! * `decode`: the decode pass alone, the least any chrF of these texts must do before counting:
//!   decode the UTF-8 and drop the whitespace, each code point written into place in a reused
//!   buffer, as chrf-core writes its ids; no ids, no n-grams. The same decoding as chrf-core's
//!   (`for_each_char_unit`), so that the ratio against it is what ids and counting cost.
//! * `read`: reading the files alone, which the others' counts include.
//!
//! `--one-segment` joins each file's lines into one segment, to show how a long segment scales.
//! `--timed` runs batches of passes and prints the least CPU time a pass of a batch (the thread's
//! own, from Linux's scheduler statistics), reading excluded. The scheduler's clock advances by
//! ticks of a few milliseconds, so a batch's time is that coarse: `CHRF_FLOOR_BATCH_MS` sets
//! longer batches (200 ms by default) where builds that differ by a few percent are compared.

use std::error::Error;
use std::hint::black_box;
use std::time::Instant;

use chrf_core::text::{for_each_char_unit, for_each_word_token};
use chrf_core::{add_segment_statistics, Beta, Settings, Statistics};
use rustc_hash::FxHashMap;

const ORDER: usize = 6;
const WORD_ORDER: usize = 2;

fn main() -> Result<(), Box<dyn Error>> {
    let args: Vec<String> = std::env::args().collect();
    let [_, mode, hyp_path, ref_path, rest @ ..] = args.as_slice() else {
        return Err(
            "usage: chrf-floor chrf|chrf++|floor|floor++|decode|read HYP REF [--one-segment] [--timed]".into(),
        );
    };
    let one_segment = rest.iter().any(|a| a == "--one-segment");
    let hyps = segments(hyp_path, one_segment)?;
    let refs = segments(ref_path, one_segment)?;
    if hyps.len() != refs.len() {
        return Err("the files differ in length".into());
    }
    let chars: usize = hyps.iter().chain(&refs).map(|s| s.chars().count()).sum();
    if rest.iter().any(|a| a == "--timed") {
        // The best of several passes, the first warming the buffers and caches.
        // Batches of passes long enough for the scheduler's clock; the best batch's time a pass.
        pass(mode, &hyps, &refs)?;
        let mut best = f64::INFINITY;
        let batch_ns = std::env::var("CHRF_FLOOR_BATCH_MS")
            .ok()
            .and_then(|ms| ms.parse::<u128>().ok())
            .map_or(TIMED_BATCH_NS, |ms| ms * 1_000_000);
        for _ in 0..TIMED_BATCHES {
            let (start, mut passes) = (thread_cpu_ns(), 0u32);
            let took = loop {
                pass(mode, &hyps, &refs)?;
                passes += 1;
                let took = thread_cpu_ns().saturating_sub(start);
                if took >= batch_ns {
                    break took;
                }
            };
            best = best.min(took as f64 / f64::from(passes));
        }
        println!("{best:.0} ns");
    } else {
        pass(mode, &hyps, &refs)?;
    }
    println!("{} segments, {chars} characters", hyps.len());
    Ok(())
}

/// The CPU time of this thread so far: a shared machine's load does not count in it, where it
/// inflates wall time. Linux's scheduler statistics (nanoseconds on the CPU, the first field);
/// wall time from the first call elsewhere.
fn thread_cpu_ns() -> u128 {
    let on_cpu = std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|stat| stat.split_whitespace().next()?.parse().ok());
    on_cpu.unwrap_or_else(|| {
        static START: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
        START.get_or_init(Instant::now).elapsed().as_nanos()
    })
}

/// Batches of a `--timed` run, the best of which is reported, and the CPU time of one.
const TIMED_BATCHES: usize = 5;
const TIMED_BATCH_NS: u128 = 200_000_000;

/// One single-threaded pass of `mode` over the corpus.
fn pass(mode: &str, hyps: &[String], refs: &[String]) -> Result<(), Box<dyn Error>> {
    match mode {
        "chrf" | "chrf++" => {
            let words = if mode == "chrf++" { 2 } else { 0 };
            let settings = Settings::new(ORDER, words, Beta::integer(2)?)?;
            // As `Corpus::statistics` sums them: in place, on one thread.
            let mut total = Statistics::zeros(settings.order_count())?;
            for (h, r) in hyps.iter().zip(refs) {
                add_segment_statistics(h, [r.as_str()], &settings, &mut total)?;
            }
            black_box(total);
        }
        "floor" | "floor++" => {
            let with_words = mode == "floor++";
            let mut floor = Floor::default();
            let sum = hyps.iter().zip(refs).fold(0u64, |sum, (h, r)| {
                let mut sum = sum.wrapping_add(floor.segment(h));
                sum = sum.wrapping_add(floor.segment(r));
                if with_words {
                    sum = sum.wrapping_add(floor.words([h, r]));
                }
                sum
            });
            black_box(sum);
        }
        "decode" => {
            let mut units: Vec<u32> = Vec::new();
            for text in hyps.iter().chain(refs) {
                if units.len() < text.len() {
                    units.resize(text.len(), 0);
                }
                let mut written = 0;
                for_each_char_unit(text, false, |unit| {
                    if let Some(slot) = units.get_mut(written) {
                        *slot = unit;
                        written += 1;
                    }
                });
                black_box(&units[..written]);
            }
        }
        "read" => {} // the cost of reading the files, subtracted from the others
        other => return Err(format!("unknown mode {other}").into()),
    }
    Ok(())
}

fn segments(path: &str, one_segment: bool) -> Result<Vec<String>, Box<dyn Error>> {
    let text = std::fs::read_to_string(path)?;
    let lines = text.strip_suffix('\n').unwrap_or(&text).split('\n');
    Ok(if one_segment {
        vec![lines.collect::<Vec<_>>().join(" ")]
    } else {
        lines.map(str::to_string).collect()
    })
}

/// Code points.
const CODE_POINTS: usize = 0x11_0000;

/// Dense ids per segment from a table over all code points, reset through the ids it gave:
/// fixed tables, as chrf-core keeps them, so that a new id is a few stores in the loop.
struct Floor {
    id_of: Box<[u32; CODE_POINTS]>,
    given: Box<[u32; CODE_POINTS]>,
    given_len: usize,
    ids: Vec<u32>,
    word_ids: Vec<u32>,
}

impl Default for Floor {
    fn default() -> Self {
        Self {
            id_of: zeroed(),
            given: zeroed(),
            given_len: 0,
            ids: Vec::new(),
            word_ids: Vec::new(),
        }
    }
}

/// A table of zeros, allocated zeroed.
fn zeroed() -> Box<[u32; CODE_POINTS]> {
    let table = vec![0; CODE_POINTS].into_boxed_slice();
    table
        .try_into()
        .unwrap_or_else(|_| Box::new([0; CODE_POINTS]))
}

/// The sum of the hashes of every n-gram of orders 1..=order of dense ids.
fn hash_ngrams(ids: &[u32], order: usize) -> u64 {
    let mut sum = 0u64;
    for start in 0..ids.len() {
        let mut hash = 0u64;
        for &id in &ids[start..ids.len().min(start + order)] {
            hash = hash
                .wrapping_mul(0x9E37_79B9_7F4A_7C15)
                .wrapping_add(u64::from(id));
            sum = sum.wrapping_add(hash);
        }
    }
    sum
}

impl Floor {
    /// The sum of the hashes of every n-gram of orders 1..=ORDER of the text.
    fn segment(&mut self, text: &str) -> u64 {
        let Self {
            id_of,
            given,
            given_len,
            ids,
            ..
        } = self;
        // Ids are written into place, as chrf-core writes them: at most one code point a byte,
        // and the buffer only grows.
        if ids.len() < text.len() {
            ids.resize(text.len(), 0);
        }
        let mut written = 0;
        for_each_char_unit(text, false, |unit| {
            let slot = &mut id_of[unit as usize % CODE_POINTS];
            if *slot == 0 {
                given[*given_len % CODE_POINTS] = unit;
                *given_len += 1;
                *slot = *given_len as u32;
            }
            if let Some(id) = ids.get_mut(written) {
                *id = *slot;
                written += 1;
            }
        });
        let sum = hash_ngrams(&ids[..written], ORDER);
        for &unit in &given[..*given_len] {
            id_of[unit as usize % CODE_POINTS] = 0;
        }
        *given_len = 0;
        sum
    }

    /// The sum of the hashes of every word n-gram of the two texts, with token ids shared by
    /// the pair (as chrF++ needs them to match tokens across the texts).
    fn words(&mut self, texts: [&str; 2]) -> u64 {
        let mut id_of: FxHashMap<&str, u32> = FxHashMap::default();
        let mut sum = 0u64;
        for text in texts {
            self.word_ids.clear();
            for_each_word_token(text, |token| {
                let next = id_of.len() as u32;
                self.word_ids.push(*id_of.entry(token).or_insert(next));
            });
            sum = sum.wrapping_add(hash_ngrams(&self.word_ids, WORD_ORDER));
        }
        sum
    }
}
