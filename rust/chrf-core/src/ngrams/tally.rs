//! Group counting over the sorted windows: the clipped matches of every order in one pass.
//!
//! Each step is one window: the number of units it shares with the previous window, and its
//! side (0 hypothesis, 1 reference). Windows sharing ℓ leading units are in the same group for
//! the orders 1..=ℓ; a step sharing fewer than n units closes the order-n group before it, which
//! adds min(hypothesis windows, reference windows) to the order's matches.

use super::keys::{Key, SlotTable};
use super::lanes::{Lanes, Step};
use super::sort::LONG_TEXT_WINDOWS;
use crate::memory::{held, refill, reserve};
use crate::pool::{poll, POLL_UNITS};
use crate::ChrfError;

/// Orders up to which the tally can live in 16-bit lanes (chrF's 6, chrF++'s 6 + 2).
pub(super) const SMALL_ORDERS: usize = 8;
/// The most windows of one side a lane may count, as its counts are signed 16-bit.
pub(super) const LANE_MAX: usize = i16::MAX as usize;
/// Windows after which the match lanes move into 64-bit totals (see [`tally_lanes`]).
const FLUSH_STEPS: usize = 1 << 15;

/// Adds the matches of sorted keys to `matches`: in 16-bit lanes if the counts fit them (always
/// when both texts are `short`: of at most [`LANE_MAX`] units), else in 64-bit counts.
#[inline(always)]
pub(super) fn tally_packed<K: Key>(
    keys: &[K],
    slots: &SlotTable,
    short: bool,
    matches: &mut [u64],
    large: &mut LargeTally,
) -> Result<(), ChrfError> {
    if matches.len() <= SMALL_ORDERS {
        let counts = if short {
            tally_lanes::<false>(std::iter::once(packed_steps(keys, K::ZERO, slots)))
        } else {
            long_lane_counts(keys, slots)?
        };
        if let Some(counts) = counts {
            add_counts(matches, counts);
            return Ok(());
        }
    }
    if keys.len() <= LONG_TEXT_WINDOWS {
        return large.add(std::iter::once(packed_steps(keys, K::ZERO, slots)), matches);
    }
    // Long texts in chunks, polled for an interrupt between them.
    let mut previous = K::ZERO;
    large.add(
        keys.chunks(POLL_UNITS).map(|chunk| {
            let steps = packed_steps(chunk, previous, slots);
            previous = chunk.last().copied().unwrap_or(previous);
            steps
        }),
        matches,
    )
}

/// The tally in 16-bit lanes of the sorted keys of texts longer than [`LANE_MAX`], or `None` if
/// a lane overflowed.
pub(super) fn long_lane_counts<K: Key>(
    keys: &[K],
    slots: &SlotTable,
) -> Result<Option<[u64; SMALL_ORDERS]>, ChrfError> {
    let mut previous = K::ZERO;
    Ok(tally_lanes::<true>(keys.chunks(FLUSH_STEPS).map(|chunk| {
        let steps = packed_steps(chunk, previous, slots);
        previous = chunk.last().copied().unwrap_or(previous);
        steps
    })))
}

pub(super) fn add_counts(matches: &mut [u64], counts: [u64; SMALL_ORDERS]) {
    for (out, count) in matches.iter_mut().zip(counts) {
        *out += count;
    }
}

/// The tally in 16-bit lanes, one per order, updated without branches, over the steps of
/// consecutive chunks of at most [`FLUSH_STEPS`] windows.
///
/// Every window counts in every order's group, its length notwithstanding: a window shorter
/// than n units shares fewer than n units with both neighbours (windows cut short share at
/// most their length with any other), so it sits alone in its order-n group, where it adds
/// min(1, 0) = 0.
///
/// A lane counts one side's windows in an open group: at most the side's windows, so texts of
/// at most [`LANE_MAX`] units each always fit. Longer texts (`CHECKED`) take chunks, after each
/// of which the open groups hand the windows both their sides have to the totals (see
/// [`Step::take_common`]): a lane then holds how far one side is ahead in its group, which in
/// natural text stays small however often a unit occurs (German's "e" 62,640 times against
/// 61,889 in a 930,000-character segment). The sign bits of the lanes are gathered, and `None`
/// says one side got more than [`LANE_MAX`] windows ahead. The match lanes are read as unsigned
/// and moved into 64-bit totals after each chunk too: a group that closes in a chunk adds at
/// most the windows the chunk gave the side that was behind, so a chunk's matches are at most
/// 2^15. Short texts take one chunk, as their matches are at most the hypothesis's windows.
pub(super) fn tally_lanes<const CHECKED: bool>(
    chunks: impl Iterator<Item = impl Iterator<Item = (usize, usize)>>,
) -> Option<[u64; SMALL_ORDERS]> {
    let mut lanes = Lanes::default();
    let mut totals = [0u64; SMALL_ORDERS];
    let add = |totals: &mut [u64; SMALL_ORDERS], lanes: [u16; 8]| {
        for (total, lane) in totals.iter_mut().zip(lanes) {
            *total += u64::from(lane);
        }
    };
    for steps in chunks {
        for (shared, side) in steps {
            // Shares of 8 units and more close nothing, like those of 255 (packed keys' shares
            // come from a table of bytes, so this costs them nothing).
            lanes.step(u8::try_from(shared).unwrap_or(u8::MAX), side & 1 == 1);
            if CHECKED {
                lanes.gather_signs();
            }
        }
        // A long text's tally also stops at an interrupt: the 64-bit tally that follows an
        // overflow polls it again before it does any work.
        if CHECKED && (lanes.overflowed() || poll().is_err()) {
            return None;
        }
        add(&mut totals, lanes.take_matches());
        if CHECKED {
            add(&mut totals, lanes.take_common());
        }
    }
    lanes.step(0, false);
    add(&mut totals, lanes.take_matches());
    Some(totals)
}

/// The same tally with 64-bit counts and any number of orders. Only groups of more than one
/// window can match, and those of order n are the runs of steps sharing at least n units. The
/// orders with an open run are always 1..=depth, so a step opens or closes only the orders
/// between the previous depth and its own ℓ, and a run's counts come from running totals.
///
/// Orders opened by the same step share their start, and so their counts for as long as they
/// stay open: they are held as one range, and a range closing adds its min(hyp, ref) to all its
/// orders at once through a difference array. A text repeating itself opens and closes long
/// ranges of orders step after step, which stays O(windows + orders) this way.
#[derive(Default)]
pub(super) struct LargeTally {
    /// Per order n (index n - 1): matches of n minus those of n - 1, modulo 2^64.
    deltas: Vec<u64>,
    /// The open ranges, lowest orders first.
    open: Vec<OpenRange>,
}

/// Orders from `lowest` up to the next range's lowest (exclusive), or up to the depth for the
/// last range, opened when `start` windows of each side had been seen.
#[derive(Clone, Copy)]
struct OpenRange {
    lowest: usize,
    start: [u64; 2],
}

impl LargeTally {
    pub(super) fn held_bytes(&self) -> usize {
        held(&self.deltas) + held(&self.open)
    }

    // Out of line: inlined, it took registers from the paths of short texts around it.
    #[inline(never)]
    pub(super) fn add(
        &mut self,
        chunks: impl Iterator<Item = impl Iterator<Item = (usize, usize)>>,
        matches: &mut [u64],
    ) -> Result<(), ChrfError> {
        let max_order = matches.len();
        refill(&mut self.deltas, max_order + 1, 0)?;
        self.open.clear();
        let (deltas, open) = (&mut self.deltas, &mut self.open);
        let mut depth = 0;
        let mut seen = [0u64; 2];
        let mut seen_before_previous = [0u64; 2];
        let mut step = |shared: usize, side: usize| -> Result<(), ChrfError> {
            let shared = shared.min(max_order);
            while depth > shared {
                let Some(range) = open.last_mut() else {
                    break;
                };
                let matched = (seen[0] - range.start[0]).min(seen[1] - range.start[1]);
                let lowest_closed = range.lowest.max(shared + 1);
                // Orders lowest_closed..=depth, at indices lowest_closed - 1..depth.
                deltas[lowest_closed - 1] = deltas[lowest_closed - 1].wrapping_add(matched);
                deltas[depth] = deltas[depth].wrapping_sub(matched);
                depth = lowest_closed - 1;
                if range.lowest > shared {
                    open.pop();
                }
            }
            if depth < shared {
                if open.len() == open.capacity() {
                    reserve(open, 1)?;
                }
                open.push(OpenRange {
                    lowest: depth + 1,
                    start: seen_before_previous,
                });
                depth = shared;
            }
            seen_before_previous = seen;
            seen[side & 1] += 1;
            Ok(())
        };
        // A long text comes in chunks, polled for an interrupt between them.
        for (k, steps) in chunks.enumerate() {
            if k > 0 {
                poll()?;
            }
            for (shared, side) in steps {
                step(shared, side)?;
            }
        }
        step(0, 0)?;
        // The true prefix sums are counts of windows, so they fit: the wrapping cancels out.
        let mut running = 0u64;
        for (out, delta) in matches.iter_mut().zip(&self.deltas) {
            running = running.wrapping_add(*delta);
            *out += running;
        }
        Ok(())
    }
}

/// The tally steps of sorted keys, the first compared with the key before them: the empty
/// key at the start, with which it shares nothing (its first slot is never empty).
fn packed_steps<'k, K: Key>(
    keys: &'k [K],
    mut previous: K,
    slots: &'k SlotTable,
) -> impl Iterator<Item = (usize, usize)> + 'k {
    keys.iter().map(move |&key| {
        let shared = slots.shared(previous, key);
        previous = key;
        (shared, usize::from(key & K::TAG != K::ZERO))
    })
}
