//! Clipped n-gram matches between two unit sequences (code points, or word ids), all orders at once.
//!
//! Texts of at most 128 units of dense ids (as callers make them) take a bit-parallel path
//! (`bits`); all others are sorted, with no hashing and therefore no collisions to worry about.
//!
//! The windows starting at every position of both sequences are sorted together, each window
//! truncated to `max_order` units. Windows that share their first n units are then adjacent for
//! every order n at once, so one pass over the sorted windows yields Σ min(hyp count, ref count)
//! for every order.
//!
//! When the units are small (callers map code points to dense per-segment ids), a whole window
//! packs into one `u64` or `u128`, and the sort compares integers. Otherwise (long orders) the
//! windows are the suffixes of both texts, sorted by prefix doubling, and the units two adjacent
//! windows share come from their longest common prefix (Kasai's algorithm): time and memory stay
//! linear in the texts whatever the order.

use std::ops::{BitAnd, BitOr, BitXor, Not, Shl, ShlAssign};

use crate::memory::{held, out_of_memory, refill, reserve, resize_for_overwrite};
use crate::pool::{poll, POLL_UNITS};
use crate::ChrfError;

mod bits;
mod lanes;
mod radix;
mod suffixes;
use bits::{PositionBits, MAX_BITS_LEN};
use lanes::{Lanes, Step};
use suffixes::Suffixes;

/// Reusable buffers, so that scoring many segments does not allocate per segment.
#[derive(Default)]
pub struct MatchScratch {
    bits: PositionBits,
    buckets: Vec<u32>,
    keys64: [Vec<u64>; 2],
    keys128: [Vec<u128>; 2],
    slots: SlotTable,
    suffixes: Suffixes,
    tally: LargeTally,
}

impl MatchScratch {
    /// The heap bytes the buffers hold on to.
    pub fn held_bytes(&self) -> usize {
        self.bits.held_bytes()
            + held(&self.buckets)
            + self.keys64.iter().map(held).sum::<usize>()
            + self.keys128.iter().map(held).sum::<usize>()
            + self.suffixes.held_bytes()
            + held(&self.tally.deltas)
            + held(&self.tally.open)
    }
}

/// Adds, for every order n in 1..=matches.len(), the clipped match count of `hyp` against
/// `reference` to `matches[n - 1]`.
///
/// Fails only when a buffer cannot be allocated. Positions and counts are 32-bit, so texts of
/// 2^32 units or more together are refused the same way: their windows alone would need more
/// than 64 GiB.
pub fn add_clipped_matches(
    hyp: &[u32],
    reference: &[u32],
    scratch: &mut MatchScratch,
    matches: &mut [u64],
) -> Result<(), ChrfError> {
    let alphabet = hyp
        .iter()
        .chain(reference)
        .max()
        .map_or(0, |&u| u64::from(u) + 1);
    add_clipped_matches_below(hyp, reference, alphabet, scratch, matches)
}

/// [`add_clipped_matches`] of units all below `alphabet`, which callers giving dense ids know
/// without a pass over the units.
pub(crate) fn add_clipped_matches_below(
    hyp: &[u32],
    reference: &[u32],
    alphabet: u64,
    scratch: &mut MatchScratch,
    matches: &mut [u64],
) -> Result<(), ChrfError> {
    debug_assert!(hyp
        .iter()
        .chain(reference)
        .all(|&u| u64::from(u) < alphabet));
    let max_order = matches.len();
    if max_order == 0 || hyp.is_empty() || reference.is_empty() {
        return Ok(());
    }
    let windows = hyp.len() + reference.len();
    if windows >= u32::MAX as usize - 2 {
        return Err(out_of_memory::<u128>(windows));
    }
    // Not empty, so the alphabet is at least 1; at most 2^32 as the units are u32.
    let max_unit = alphabet.saturating_sub(1).min(u64::from(u32::MAX)) as u32;
    // Short texts of dense units (as callers make them): a word of position bits per unit.
    if hyp.len().max(reference.len()) <= MAX_BITS_LEN
        && (max_unit as usize) < windows
        && (scratch.bits).add_clipped_matches([hyp, reference], max_unit as usize + 1, matches)
    {
        return Ok(());
    }
    add_sorted_matches([hyp, reference], max_unit, scratch, matches)
}

/// [`add_clipped_matches`] by sorting the windows, for texts of any length and units.
fn add_sorted_matches(
    [hyp, reference]: [&[u32]; 2],
    max_unit: u32,
    scratch: &mut MatchScratch,
    matches: &mut [u64],
) -> Result<(), ChrfError> {
    let max_order = matches.len();
    // Slots hold the ranks 1..=max_unit + 1 of units and max_unit + 2 of the reference's end
    // (see [`push_packed_windows`]), so that 0 can mark the hypothesis's end.
    let slot_bits = u64::BITS - (u64::from(max_unit) + 2).leading_zeros();
    let key_bits = (slot_bits as usize)
        .saturating_mul(max_order)
        .saturating_add(1); // + side tag
    let MatchScratch {
        bits: _,
        buckets,
        keys64,
        keys128,
        slots,
        suffixes,
        tally: large,
    } = scratch;
    let short = hyp.len().max(reference.len()) <= LANE_MAX;
    if key_bits <= 64 {
        let (keys, shift) = packed_sorted(
            [hyp, reference],
            max_unit,
            (slot_bits, max_order),
            keys64,
            (buckets, None),
        )?;
        let slots = slots.of(u64::BITS - shift, slot_bits, max_order);
        tally_packed(keys, slots, short, matches, large)
    } else if key_bits <= 128 {
        let (keys, shift) = packed_sorted(
            [hyp, reference],
            max_unit,
            (slot_bits, max_order),
            keys128,
            (buckets, Some(keys64)),
        )?;
        let slots = slots.of(u128::BITS - shift, slot_bits, max_order);
        tally_packed(keys, slots, short, matches, large)
    } else {
        let steps = suffixes.sorted_steps(hyp, reference, max_order)?;
        let in_lanes = short && max_order <= SMALL_ORDERS;
        match in_lanes.then(|| tally_lanes::<false>(std::iter::once(steps.clone()))) {
            Some(Some(counts)) => {
                add_counts(matches, counts);
                Ok(())
            }
            _ => large.add(std::iter::once(steps), matches),
        }
    }
}

/// Orders up to which the tally can live in 16-bit lanes (chrF's 6, chrF++'s 6 + 2).
const SMALL_ORDERS: usize = 8;
/// The most windows of one side a lane may count, as its counts are signed 16-bit.
const LANE_MAX: usize = i16::MAX as usize;
/// Windows after which the match lanes move into 64-bit totals (see [`tally_lanes`]).
const FLUSH_STEPS: usize = 1 << 15;

// Group counting over the sorted windows.
//
// Each step is one window: the number of units it shares with the previous window, and its
// side (0 hypothesis, 1 reference). Windows sharing ℓ leading units are in the same group for
// the orders 1..=ℓ; a step sharing fewer than n units closes the order-n group before it, which
// adds min(hypothesis windows, reference windows) to the order's matches.

/// Adds the matches of sorted keys to `matches`: in 16-bit lanes if the counts fit them (always
/// when both texts are `short`: of at most [`LANE_MAX`] units), else in 64-bit counts.
fn tally_packed<K: Key>(
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
fn long_lane_counts<K: Key>(
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

fn add_counts(matches: &mut [u64], counts: [u64; SMALL_ORDERS]) {
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
fn tally_lanes<const CHECKED: bool>(
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
struct LargeTally {
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
    // Out of line: inlined, it took registers from the paths of short texts around it.
    #[inline(never)]
    fn add(
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

/// An unsigned integer a window packs into.
trait Key:
    Copy
    + Ord
    + Eq
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + Shl<u32, Output = Self>
    + ShlAssign<u32>
{
    const BITS: u32;
    const ZERO: Self;
    const TAG: Self;
    /// Whether long texts radix sort their large buckets as they are (see [`radix`]): 64-bit
    /// keys do; 128-bit keys would need 7 byte digits, which cost as much as the comparison
    /// sorts at the bucket sizes long Chinese segments reach, and are sorted as 64-bit keys
    /// instead (see [`sort_narrowed_buckets`]).
    const RADIX: bool;
    /// The slot value of a rank (a unit plus one): times an odd number, modulo 2^slot_bits
    /// (`mask`).
    fn slot_value(rank: u64, mask: u64) -> Self;
    /// The index of the highest set bit of a key that is not zero.
    fn highest_bit(self) -> u32;
    /// The value of the top `bits` bits (bits < 32).
    fn top_bits(self, bits: u32) -> u32;
    /// The key shifted right by `shift`, cut to a `usize`.
    fn low_bits(self, shift: u32) -> usize;
    /// The 64 bits from `shift` up, with the tag in bit 0 (bit `shift` is below the slots).
    fn narrow(self, shift: u32) -> u64;
    /// A 128-bit key of two halves (64-bit keys keep the low one).
    fn from_halves(high: u64, low: u64) -> Self;
}

macro_rules! key {
    ($t:ty, $radix:expr) => {
        impl Key for $t {
            const BITS: u32 = <$t>::BITS;
            const ZERO: Self = 0;
            const TAG: Self = 1;
            const RADIX: bool = $radix;
            fn slot_value(rank: u64, mask: u64) -> Self {
                Self::from(rank.wrapping_mul(SLOT_MULTIPLIER) & mask)
            }
            fn highest_bit(self) -> u32 {
                <$t>::BITS - 1 - <$t>::leading_zeros(self)
            }
            fn top_bits(self, bits: u32) -> u32 {
                (self >> (<$t>::BITS - bits)) as u32
            }
            fn low_bits(self, shift: u32) -> usize {
                (self >> shift) as usize
            }
            fn narrow(self, shift: u32) -> u64 {
                ((self >> shift) as u64) | (self as u64 & 1)
            }
            fn from_halves(high: u64, low: u64) -> Self {
                ((u128::from(high) << 64) | u128::from(low)) as Self
            }
        }
    };
}
key!(u64, true);
key!(u128, false);

/// Slots hold a rank (unit + 1, or the reference's end) times this odd number, modulo
/// 2^slot_bits: a one-to-one map that keeps 0 for the hypothesis's end. Sorted, the mapped
/// windows group as the units' windows do (equal prefixes stay equal and next to each other),
/// but the top bits the counting pass buckets by now depend on every bit of a unit: dense ids
/// give frequent units small values, whose top bits left most windows of a frequent first unit
/// in one bucket.
const SLOT_MULTIPLIER: u64 = 0x9E37_79B9_7F4A_7C15;

/// All windows of both texts as tagged keys, sorted, and the bits they are shifted right by
/// (see [`sort_keys`]). `narrow` are buffers for 128-bit keys sorted as 64-bit ones.
fn packed_sorted<'k, K: Key>(
    [hyp, reference]: [&[u32]; 2],
    max_unit: u32,
    (slot_bits, max_order): (u32, usize),
    [keys, spare]: &'k mut [Vec<K>; 2],
    (buckets, narrow): (&mut Vec<u32>, Option<&mut [Vec<u64>; 2]>),
) -> Result<(&'k [K], u32), ChrfError> {
    keys.clear();
    reserve(keys, hyp.len() + reference.len())?;
    let mask = u64::MAX >> (u64::BITS - slot_bits);
    let ends = [K::ZERO, K::slot_value(u64::from(max_unit) + 2, mask)];
    let slots = (slot_bits, max_order);
    push_packed_windows(hyp, slots, [ends[0], K::ZERO], keys);
    push_packed_windows(reference, slots, [ends[1], K::TAG], keys);
    if keys.len() > LONG_TEXT_WINDOWS {
        poll()?;
    }
    let low_bit = K::BITS - slot_bits * max_order as u32;
    let bucket_bits = bucket_bits(keys.len());
    // The bits below the slots (all but the tag) must hold the buckets' bits once shifted.
    let shift = K::BITS.saturating_sub(bucket_bits + u64::BITS);
    match narrow {
        Some(narrow) if keys.len() > LONG_TEXT_WINDOWS && (1..low_bit).contains(&shift) => {
            count_buckets(keys, buckets, bucket_bits);
            sort_narrowed_buckets(keys, buckets, narrow, (bucket_bits, shift, low_bit))?;
            Ok((keys, shift))
        }
        _ => {
            sort_keys([keys, spare], buckets, low_bit)?;
            Ok((keys, 0))
        }
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

/// Most bits of the keys the counting pass buckets by: a 1 MiB table, for texts of 2^18 windows
/// and more (whose keys and their scatter target take 4 MiB at least). With fewer bits the
/// buckets of frequent leading pairs grow with the text, and their comparison sorts with them
/// (benches/NOTES.md has the measurements).
const MAX_BUCKET_BITS: u32 = 18;

/// Sorts the keys: a counting pass on their top bits (the first unit and, with more windows,
/// part of the next: about two keys per bucket), then a small comparison sort inside each
/// bucket, which beats one comparison sort of all keys when units are dense ids. Buckets by
/// the first unit alone would grow with the text, and so would their sorts.
fn sort_keys<K: Key>(
    [keys, spare]: [&mut Vec<K>; 2],
    buckets: &mut Vec<u32>,
    low_bit: u32,
) -> Result<(), ChrfError> {
    let bucket_bits = bucket_bits(keys.len());
    let bucket = |key: K| key.top_bits(bucket_bits) as usize;
    count_buckets(keys, buckets, bucket_bits);
    // The scatter below writes each of the first keys.len() places once.
    resize_for_overwrite(spare, keys.len(), K::ZERO)?;
    let long = keys.len() > LONG_TEXT_WINDOWS;
    // A long text's keys in chunks, polled for an interrupt between them.
    let chunk = if long { POLL_UNITS } else { keys.len().max(1) };
    for keys in keys.chunks(chunk) {
        if long {
            poll()?;
        }
        for &key in keys {
            let slot = &mut buckets[bucket(key)];
            spare[*slot as usize] = key;
            *slot += 1;
        }
    }
    // Each bucket now ends where the next one started: sort the buckets one by one.
    if K::RADIX && long {
        // Short windows may have fewer bits than the buckets take.
        let width = (K::BITS - bucket_bits).saturating_sub(low_bit);
        sort_long_buckets(buckets, [spare, keys], (low_bit, width))?;
    } else {
        let mut start = 0;
        for &end in buckets.iter() {
            let end = end as usize;
            if end > start + 1 {
                spare[start..end].sort_unstable();
            }
            start = end;
        }
    }
    std::mem::swap(keys, spare);
    Ok(())
}

/// The top bits of the keys the counting pass buckets by: about two keys per bucket.
fn bucket_bits(keys: usize) -> u32 {
    (usize::BITS - keys.leading_zeros())
        .saturating_sub(1)
        .clamp(1, MAX_BUCKET_BITS)
}

/// The counting pass: where each bucket starts, and the number of keys in `buckets`' last.
#[inline(always)]
fn count_buckets<K: Key>(keys: &[K], buckets: &mut Vec<u32>, bucket_bits: u32) {
    buckets.clear();
    buckets.resize((1 << bucket_bits) + 1, 0);
    for &key in keys {
        buckets[key.top_bits(bucket_bits) as usize + 1] += 1;
    }
    for i in 1..buckets.len() {
        buckets[i] += buckets[i - 1];
    }
}

/// Sorts the keys of a long text by buckets of 64-bit keys: the bits below the bucket's (the
/// tag in bit 0). Comparing them costs less than comparing the 128-bit keys, and the more so in
/// the larger buckets, which grow with the text as frequent pairs of characters recur: a long
/// text of many distinct characters then costs less a character, and its cost grows more
/// slowly with its length (benches/NOTES.md has the measurements). Each bucket's sorted keys
/// then come back as 128-bit keys of the bucket in the high half and its 64 bits in the low
/// one: the keys shifted right by `shift`. Large buckets take a radix sort, as 64-bit keys do.
#[inline(never)]
fn sort_narrowed_buckets<K: Key>(
    keys: &mut [K],
    ends: &mut [u32],
    [narrowed, spare]: &mut [Vec<u64>; 2],
    (bucket_bits, shift, low_bit): (u32, u32, u32),
) -> Result<(), ChrfError> {
    // The scatter writes each of the first keys.len() places once.
    resize_for_overwrite(narrowed, keys.len(), 0)?;
    for chunk in keys.chunks(POLL_UNITS) {
        poll()?;
        for &key in chunk {
            let slot = &mut ends[key.top_bits(bucket_bits) as usize];
            narrowed[*slot as usize] = key.narrow(shift);
            *slot += 1;
        }
    }
    let (low_bit, width) = (low_bit - shift, u64::BITS - (low_bit - shift));
    let mut start = 0;
    // Polled for an interrupt every so many buckets: about two keys each (see bucket_bits).
    let mut bucket = 0u64;
    for ends in ends.chunks(POLL_UNITS / 2) {
        poll()?;
        for &end in ends {
            let range = start..end as usize;
            start = end as usize;
            if radix::worth_it(range.len(), width) {
                resize_for_overwrite(spare, range.len(), 0)?;
                radix::sort(&mut narrowed[range.clone()], spare, low_bit, width);
            } else if range.len() > 1 {
                narrowed[range.clone()].sort_unstable();
            }
            let high = K::from_halves(bucket, 0);
            for (key, &low) in keys[range.clone()].iter_mut().zip(&narrowed[range]) {
                *key = high | K::from_halves(0, low);
            }
            bucket += 1;
        }
    }
    Ok(())
}

/// Texts of more windows than this sort their buckets with [`sort_long_buckets`]; shorter ones
/// have few buckets large enough for a radix sort to pay (see [`radix::worth_it`]), and their
/// loop stays the plain one.
const LONG_TEXT_WINDOWS: usize = 1 << 16;

/// The buckets of a long text: those large enough by radix on the `width` bits from `low_bit`
/// up in which their keys can differ, the others by comparison. `spare` is as long as `keys`
/// and free. Out of line, so that the loop of shorter texts keeps its registers.
#[inline(never)]
fn sort_long_buckets<K: Key>(
    ends: &[u32],
    [keys, spare]: [&mut [K]; 2],
    (low_bit, width): (u32, u32),
) -> Result<(), ChrfError> {
    let mut start = 0;
    // Polled for an interrupt every so many buckets: about two keys each (see bucket_bits).
    for ends in ends.chunks(POLL_UNITS / 2) {
        poll()?;
        for &end in ends {
            let range = start..end as usize;
            start = end as usize;
            if radix::worth_it(range.len(), width) {
                radix::sort(&mut keys[range.clone()], &mut spare[range], low_bit, width);
            } else if range.len() > 1 {
                keys[range].sort_unstable();
            }
        }
    }
    Ok(())
}

/// Per bit of a key, the number of whole slots above it, capped at the max order: a table,
/// because a division by a run-time divisor per window is slow. Kept from call to call, as
/// most segments of a corpus have the same layout of slots.
struct SlotTable {
    slots_above: [u8; 128],
    /// (key bits, slot bits, max order) the table is for.
    layout: (u32, u32, usize),
}

impl Default for SlotTable {
    fn default() -> Self {
        Self {
            slots_above: [0; 128],
            layout: (0, 0, 0),
        }
    }
}

impl SlotTable {
    /// The table of keys of `key_bits` bits with slots of `slot_bits`.
    fn of(&mut self, key_bits: u32, slot_bits: u32, max_order: usize) -> &Self {
        let layout = (key_bits, slot_bits, max_order);
        if self.layout != layout {
            self.layout = layout;
            let bits = &mut self.slots_above[..key_bits as usize];
            for (slots, run) in bits.rchunks_mut(slot_bits as usize).enumerate() {
                run.fill(slots.min(max_order) as u8);
            }
        }
        self
    }

    /// The number of leading units two windows share. Windows cut short by the end of their
    /// text end in a slot no unit has, which differs between the texts (see
    /// [`push_packed_windows`]), so only whole windows can be equal, sharing every order: the
    /// tag bit stands in for their difference, and no branch is needed.
    fn shared<K: Key>(&self, a: K, b: K) -> usize {
        let highest = ((a ^ b) | K::TAG).highest_bit();
        usize::from(self.slots_above[highest as usize % 128])
    }
}

/// Pushes one key per start position: slot values of the units (see [`SLOT_MULTIPLIER`]), first
/// unit in the top slot, tag in bit 0. The slots past the end of the text hold `end`, a value
/// no unit has and which differs between the texts: two windows cut short by the end then
/// share exactly the units they have in common, never the end itself.
fn push_packed_windows<K: Key>(
    units: &[u32],
    (slot_bits, max_order): (u32, usize),
    ends_and_tag: [K; 2],
    keys: &mut Vec<K>,
) {
    // chrF's 6 orders of texts of at most 62, 126 or 254 distinct code points (the sentences and
    // documents of most languages written in an alphabet), and of 1,023 to 4,094 (Chinese and
    // Japanese documents), shift by constants, which the compiler folds: with shifts known
    // only at run time, building the keys is a visible share of such a text's cost.
    match (slot_bits, max_order) {
        (6, 6) => push_windows(units, Fixed::<6, 6>, ends_and_tag, keys),
        (7, 6) => push_windows(units, Fixed::<7, 6>, ends_and_tag, keys),
        (8, 6) => push_windows(units, Fixed::<8, 6>, ends_and_tag, keys),
        (11, 6) => push_windows(units, Fixed::<11, 6>, ends_and_tag, keys),
        (12, 6) => push_windows(units, Fixed::<12, 6>, ends_and_tag, keys),
        _ => push_windows(units, (slot_bits, max_order), ends_and_tag, keys),
    }
}

/// The width of a slot and the number of slots of a key.
trait Layout: Copy {
    fn slot_bits(self) -> u32;
    fn max_order(self) -> usize;
}

impl Layout for (u32, usize) {
    fn slot_bits(self) -> u32 {
        self.0
    }
    fn max_order(self) -> usize {
        self.1
    }
}

/// A layout known at compile time.
#[derive(Clone, Copy)]
struct Fixed<const SLOT_BITS: u32, const MAX_ORDER: usize>;

impl<const SLOT_BITS: u32, const MAX_ORDER: usize> Layout for Fixed<SLOT_BITS, MAX_ORDER> {
    fn slot_bits(self) -> u32 {
        SLOT_BITS
    }
    fn max_order(self) -> usize {
        MAX_ORDER
    }
}

/// [`push_packed_windows`] in a given layout.
#[inline(always)]
fn push_windows<K: Key>(units: &[u32], layout: impl Layout, [end, tag]: [K; 2], keys: &mut Vec<K>) {
    let (slot_bits, max_order) = (layout.slot_bits(), layout.max_order());
    let lowest_slot = K::BITS - slot_bits * max_order as u32;
    // Slot values enter at the lowest slot and move up one slot per step: after the unit at t,
    // the key holds the window that starts at t + 1 - max_order.
    let mask = u64::MAX >> (u64::BITS - slot_bits);
    let enter = |key: K, value: K| (key << slot_bits) | (value << lowest_slot);
    let unit_value = |unit: u32| K::slot_value(u64::from(unit) + 1, mask);
    let (first, rest) = units.split_at(units.len().min(max_order - 1));
    let mut key = first
        .iter()
        .fold(K::ZERO, |key, &unit| enter(key, unit_value(unit)));
    // Slice maps have an exact length: `extend` writes them without a capacity check per key.
    keys.extend(rest.iter().map(|&unit| {
        key = enter(key, unit_value(unit));
        key | tag
    }));
    // The last windows are cut short by the end of the text.
    let short = first.len();
    for _ in short..max_order - 1 {
        key = enter(key, end);
    }
    keys.extend((0..short).map(|_| {
        key = enter(key, end);
        key | tag
    }));
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use bits::PositionBits;
    use std::collections::HashMap;

    #[test]
    fn vector_and_scalar_lanes_agree() {
        let mut state = 99u64;
        let mut vector = Lanes::default();
        let mut scalar = lanes::Scalar::default();
        for round in 0..4 {
            for _ in 0..5000 {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                let (shared, side) = ((state % 12) as u8, state & 16 == 0);
                vector.step(shared, side);
                scalar.step(shared, side);
            }
            assert_eq!(vector.take_matches(), scalar.take_matches());
            if round % 2 == 0 {
                assert_eq!(vector.take_common(), scalar.take_common());
            }
        }
        assert!(!vector.overflowed() && !scalar.overflowed());
        // One side's group past 32,767 windows turns a lane negative, and both see it.
        for _ in 0..32_768 {
            vector.step(8, false);
            scalar.step(8, false);
            vector.gather_signs();
            scalar.gather_signs();
        }
        assert!(vector.overflowed() && scalar.overflowed());
    }

    #[test]
    fn long_texts_flush_their_match_lanes_and_fall_back_when_a_group_overflows() {
        // The units 0..5 over and over: each occurs len / 5 times a text. At 5 x 32,767 units
        // the groups fit the 16-bit lanes and the matches (up to 163,835) do not, unless they
        // are moved out as they come; past 5 x 32,768 a group outgrows a lane unless the
        // windows both sides have are moved out too; 5 x 32,768 against 500 outgrows it anyway.
        let cycle = |len: usize| -> Vec<u32> { (0..len).map(|i| (i % 5) as u32).collect() };
        let sizes = [
            (5 * 32_767, 5 * 32_767),
            (5 * 32_767, 40_000),
            (5 * 32_768, 5 * 32_768),
            (5 * 40_000, 5 * 39_000),
            (5 * 32_768, 500),
        ];
        for (n, m) in sizes {
            let (hyp, reference) = (cycle(n), cycle(m));
            for max_order in [1, 6, 8] {
                // Order k: windows of each phase in both texts, clipped.
                let expected: Vec<u64> = (1..=max_order)
                    .map(|k| {
                        let per_phase = |len: usize, phase: usize| (len + 5 - k - phase) / 5;
                        (0..5)
                            .map(|j| per_phase(n, j).min(per_phase(m, j)) as u64)
                            .sum()
                    })
                    .collect();
                assert_eq!(matches(&hyp, &reference, max_order), expected, "{n} {m}");
            }
        }
    }

    /// Whether the 16-bit lanes count texts of more than [`LANE_MAX`] units without overflowing.
    fn lanes_hold(hyp: &[u32], reference: &[u32]) -> bool {
        let max_unit = hyp.iter().chain(reference).copied().max().unwrap();
        let slot_bits = u64::BITS - (u64::from(max_unit) + 2).leading_zeros();
        let (mut keys, mut buckets) = ([Vec::new(), Vec::new()], Vec::new());
        let layout = (slot_bits, 6);
        let buffers = (&mut buckets, None);
        let (keys, _) =
            packed_sorted::<u64>([hyp, reference], max_unit, layout, &mut keys, buffers).unwrap();
        let mut slots = SlotTable::default();
        long_lane_counts(keys, slots.of(64, slot_bits, 6))
            .unwrap()
            .is_some()
    }

    #[test]
    fn lanes_hold_units_that_occur_past_their_limit_in_both_texts() {
        // Regression: a unit occurring more than 32,767 times in each text (German's "e" in
        // 930,000 characters) sent the whole tally to the slower 64-bit counts. Its groups
        // stay in the lanes while the sides keep close, as they do when what follows the unit
        // varies: here unit 0 at every other place, 50,000 and 45,000 times, followed by one of
        // 40 others.
        let mut below = below(0x9E37_79B9_7F4A_7C15);
        let mut text = |len: usize| -> Vec<u32> {
            (0..len)
                .map(|i| if i % 2 == 0 { 0 } else { 1 + below(40) as u32 })
                .collect()
        };
        let (hyp, reference) = (text(100_000), text(90_000));
        assert!(lanes_hold(&hyp, &reference));
        for max_order in [1, 6, 8] {
            let expected = by_counting(&hyp, &reference, max_order);
            assert_eq!(matches(&hyp, &reference, max_order), expected);
        }
        // Equal windows sort hypothesis first, so 32,768 equal windows of one side overflow a
        // lane whatever the other side has (the 64-bit tally then counts them: see the test
        // above); so does one side 32,768 windows ahead in a group.
        let cycle = |len: usize| -> Vec<u32> { (0..len).map(|i| (i % 5) as u32).collect() };
        assert!(lanes_hold(&cycle(5 * 32_767), &cycle(5 * 32_767)));
        assert!(!lanes_hold(&cycle(5 * 32_768), &cycle(5 * 32_768)));
        assert!(!lanes_hold(&text(70_000), &cycle(5)));
    }

    #[test]
    fn long_texts_stop_at_the_interrupt_they_are_watched_by() {
        use crate::pool::{watching, Interrupt};
        let raised = Interrupt::default();
        raised.raise();
        let mut below = below(0x9E37_79B9_7F4A_7C15);
        let mut text = |len: usize| -> Vec<u32> { (0..len).map(|_| below(40) as u32).collect() };
        let (hyp, reference) = (text(200_000), text(150_000));
        // 64-bit keys, 128-bit keys, suffix sorting.
        for max_order in [6, 12, 40] {
            let mut scratch = MatchScratch::default();
            let mut matches = vec![0; max_order];
            let mut run = |hyp: &[u32], reference: &[u32]| {
                watching(&raised, || {
                    add_clipped_matches(hyp, reference, &mut scratch, &mut matches)
                })
            };
            assert_eq!(run(&hyp, &reference), Err(ChrfError::Cancelled));
            // Short texts are never polled.
            assert_eq!(run(&hyp[..3000], &reference[..2000]), Ok(()));
        }
    }

    #[test]
    fn long_skewed_texts_radix_sort_their_large_buckets_and_agree_with_counting() {
        // 43 units, 0 a third of them: a long text's buckets of leading 0s hold thousands of
        // windows, which the radix sort takes (64-bit keys, more than 2^16 windows).
        let mut below = below(0xD1B5_4A32_D192_ED03);
        let mut text =
            |len: usize| -> Vec<u32> { (0..len).map(|_| (below(4) * below(15)) as u32).collect() };
        let (hyp, reference) = (text(60_000), text(50_000));
        let mut keys = [Vec::new(), Vec::new()];
        let buffers = (&mut Vec::new(), None);
        let sorted = packed_sorted::<u64>([&hyp, &reference], 42, (6, 6), &mut keys, buffers);
        let (sorted, _) = sorted.unwrap();
        assert!(sorted.windows(2).all(|w| w[0] >> 1 <= w[1] >> 1));
        assert_orders_agree_with_counting(&hyp, &reference);
    }

    #[test]
    fn long_texts_of_many_units_sort_their_buckets_as_64_bit_keys_and_agree_with_counting() {
        // 1,500 units (11-bit slots: 128-bit keys) and more than 2^16 windows: the buckets are
        // sorted as the 64 bits below the buckets' and come back shifted right. The pair 0 1 at
        // every sixth place fills one bucket past the radix sort's 8,192 keys, and its
        // windows differ in every unit after the pair.
        let mut below = below(0x5851_F42D_4C95_7F2D);
        let mut text = |len: usize| -> Vec<u32> {
            let mut units = Vec::with_capacity(len);
            while units.len() < len {
                units.extend([0, 1]);
                units.extend((0..3).map(|_| 2 + below(8) as u32));
                units.push(10 + below(1490) as u32);
            }
            units
        };
        let (hyp, reference) = (text(40_000), text(36_000));
        let mut keys = [Vec::new(), Vec::new()];
        let mut narrow = [Vec::new(), Vec::new()];
        let buffers = (&mut Vec::new(), Some(&mut narrow));
        let sorted = packed_sorted::<u128>([&hyp, &reference], 1499, (11, 6), &mut keys, buffers);
        let (sorted, shift) = sorted.unwrap();
        assert_eq!(shift, 128 - 16 - 64); // 76,000 windows: 16 bucket bits
        assert!(sorted.windows(2).all(|w| w[0] >> 1 <= w[1] >> 1));
        assert_orders_agree_with_counting(&hyp, &reference);
    }

    fn assert_orders_agree_with_counting(hyp: &[u32], reference: &[u32]) {
        for max_order in [1, 2, 6] {
            let expected = by_counting(hyp, reference, max_order);
            assert_eq!(
                matches(hyp, reference, max_order),
                expected,
                "order {max_order}"
            );
        }
    }

    /// The definition, by counting every n-gram in a map: the oracle for the sorted passes.
    fn by_counting(hyp: &[u32], reference: &[u32], max_order: usize) -> Vec<u64> {
        let count = |units: &[u32], n: usize| {
            let mut bag: HashMap<Vec<u32>, u64> = HashMap::new();
            for window in units.windows(n) {
                *bag.entry(window.to_vec()).or_default() += 1;
            }
            bag
        };
        (1..=max_order)
            .map(|n| {
                let (h, r) = (count(hyp, n), count(reference, n));
                h.iter()
                    .map(|(g, c)| (*c).min(*r.get(g).unwrap_or(&0)))
                    .sum()
            })
            .collect()
    }

    fn matches(hyp: &[u32], reference: &[u32], max_order: usize) -> Vec<u64> {
        let mut out = vec![0; max_order];
        add_clipped_matches(hyp, reference, &mut MatchScratch::default(), &mut out).unwrap();
        out
    }

    /// A small deterministic generator (xorshift), to cover many sequences without a dependency.
    fn sequences(seed: u64, count: usize, alphabet: &[u32]) -> Vec<Vec<u32>> {
        let mut state = seed;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        (0..count)
            .map(|_| {
                let len = (next() % 14) as usize;
                (0..len)
                    .map(|_| alphabet[(next() % alphabet.len() as u64) as usize])
                    .collect()
            })
            .collect()
    }

    #[test]
    fn worked_example_aa_against_ab() {
        assert_eq!(matches(&[97, 97], &[97, 98], 6), vec![1, 0, 0, 0, 0, 0]);
    }

    #[test]
    fn every_key_width_agrees_with_counting() {
        // Small units pack into u64, code points into u128 up to order 6, beyond: slices.
        for alphabet in [
            &[0, 1, 2][..],
            &[0, 1, 0x10FFFF, 0x1F600],
            &[1, u32::MAX - 1, u32::MAX],
        ] {
            let seqs = sequences(0x9E37_79B9_7F4A_7C15, 400, alphabet);
            for pair in seqs.chunks(2) {
                for max_order in [1, 2, 3, 6, 7, 11, 40] {
                    assert_eq!(
                        matches(&pair[0], &pair[1], max_order),
                        by_counting(&pair[0], &pair[1], max_order),
                        "{pair:?} order {max_order}"
                    );
                }
            }
        }
    }

    #[test]
    fn long_orders_agree_with_counting() {
        // Orders past 128 key bits take the suffix-sorting path, for any alphabet.
        for alphabet in [&[5, 6][..], &[0, 1, 2, 3], &[7, u32::MAX, 0]] {
            let seqs = sequences(0xD1B5_4A32_D192_ED03, 120, alphabet);
            for pair in seqs.chunks(2) {
                let long: Vec<u32> = pair[0].repeat(4);
                for max_order in [65, 200] {
                    assert_eq!(
                        matches(&long, &pair[1], max_order),
                        by_counting(&long, &pair[1], max_order),
                        "{pair:?} order {max_order}"
                    );
                }
            }
        }
    }

    #[test]
    fn self_repeating_texts_agree_with_counting() {
        for (i, x) in sequences(0x2545_F491_4F6C_DD1D, 40, &[1, 2, 3, 9])
            .iter()
            .enumerate()
        {
            let twice = x.repeat(2);
            let thrice = x.repeat(3);
            let max_order = 3 * x.len() + i % 3;
            for (hyp, reference) in [(&twice, x), (&thrice, &twice), (&twice, &twice)] {
                assert_eq!(
                    matches(hyp, reference, max_order),
                    by_counting(hyp, reference, max_order),
                    "{hyp:?} / {reference:?}"
                );
            }
        }
    }

    #[test]
    fn runs_of_one_unit_match_in_closed_form() {
        // n units against m: order k matches min(n, m) - k + 1 times.
        // Both paths, and the bit-parallel one on both sides of a word's width.
        let sizes = [
            (1, 1),
            (64, 64),
            (65, 3),
            (128, 127),
            (129, 128),
            (300, 200),
            (2000, 2000),
            // The 16-bit lanes at their limit: a group of 32,767 windows a side.
            (32767, 32767),
            (32767, 40),
            // Past it: the lanes overflow, and the wide tally takes over.
            (32768, 32768),
            (40000, 33000),
            (40000, 100),
        ];
        for (n, m) in sizes {
            let (hyp, reference) = (vec![0u32; n], vec![0u32; m]);
            for max_order in [1, 7, 300, 5000] {
                let expected: Vec<u64> = (1..=max_order)
                    .map(|k| (n.min(m) + 1).saturating_sub(k) as u64)
                    .collect();
                assert_eq!(matches(&hyp, &reference, max_order), expected, "{n} {m}");
            }
        }
    }

    /// Numbers below a bound from a seeded xorshift generator.
    fn below(seed: u64) -> impl FnMut(u64) -> u64 {
        let mut state = seed;
        move |bound| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state % bound
        }
    }

    #[test]
    fn bit_parallel_and_sorted_paths_agree() {
        let mut next = below(0x853C_49E6_748F_EA9B);
        let mut bits = PositionBits::default();
        let mut scratch = MatchScratch::default();
        for case in 0..1500 {
            // Few units make repeated n-grams, whose first occurrence counts for all of them.
            let alphabet = [1, 2, 3, 5, 40][case % 5];
            let (h, r) = ([1, 64, 65, 128][case % 4], [2, 63, 64, 100, 128][case % 5]);
            let (h, r) = (next(h) + 1, next(r) + 1);
            let hyp: Vec<u32> = (0..h).map(|_| next(alphabet) as u32).collect();
            let reference: Vec<u32> = (0..r).map(|_| next(alphabet) as u32).collect();
            let max_order = [1, 2, 3, 6, 8, 12, 129][case % 7];
            let alphabet = *hyp.iter().chain(&reference).max().unwrap_or(&0) as usize + 1;
            let mut by_bits = vec![0; max_order];
            assert!(bits.add_clipped_matches([&hyp, &reference], alphabet, &mut by_bits));
            let mut sorted = vec![0; max_order];
            add_sorted_matches(
                [&hyp, &reference],
                alphabet as u32 - 1,
                &mut scratch,
                &mut sorted,
            )
            .unwrap();
            assert_eq!(by_bits, sorted, "{hyp:?} / {reference:?}");
            if case % 10 == 0 {
                assert_eq!(by_bits, by_counting(&hyp, &reference, max_order));
            }
        }
    }

    #[test]
    fn many_distinct_units_agree_with_counting() {
        let shuffled = |seed: u64, len: u32, step: u32| -> Vec<u32> {
            (0..len).map(|i| (i * step + seed as u32) % len).collect()
        };
        let hyp = shuffled(3, 500, 7);
        let mut reference = shuffled(11, 500, 7);
        reference.extend(hyp[100..180].iter().copied());
        let wide: Vec<u32> = hyp.iter().map(|&u| u32::MAX - u).collect();
        for max_order in [2, 9, 100, 600] {
            assert_eq!(
                matches(&hyp, &reference, max_order),
                by_counting(&hyp, &reference, max_order)
            );
            assert_eq!(
                matches(&wide, &wide, max_order),
                by_counting(&wide, &wide, max_order)
            );
        }
    }

    #[test]
    fn one_scratch_serves_calls_of_every_path() {
        let mut scratch = MatchScratch::default();
        let seqs = sequences(77, 60, &[0, 1, 2, 1000]);
        for (k, pair) in seqs.chunks(2).enumerate() {
            let max_order = [3, 12, 70][k % 3];
            let mut out = vec![0; max_order];
            add_clipped_matches(&pair[0], &pair[1], &mut scratch, &mut out).unwrap();
            assert_eq!(out, by_counting(&pair[0], &pair[1], max_order));
        }
    }

    #[test]
    fn layouts_known_at_compile_time_agree_with_counting() {
        // Alphabets on both sides of 6-, 7-, 8-, 11- and 12-bit slots (ranks up to 63, 127,
        // 255, 2047 and 4095, the reference's end included), texts long enough to be sorted.
        let mut next = below(0x2545_F491_4F6C_DD1D);
        let alphabets = [
            40, 61, 62, 63, 100, 125, 126, 127, 200, 254, 255, 1023, 2000, 2046, 2047,
        ];
        for alphabet in alphabets.into_iter().chain([3000, 4094, 4095]) {
            // Fewer draws of the wide alphabets, whose texts are long already.
            for _ in 0..if alphabet > 255 { 1 } else { 4 } {
                let mut text = |len: u64| -> Vec<u32> {
                    let len = 129 + next(len);
                    // Every unit once, so the alphabet is what it says, then random ones.
                    let mut units: Vec<u32> = (0..alphabet).collect();
                    units.extend(
                        (units.len() as u64..len).map(|_| next(u64::from(alphabet)) as u32),
                    );
                    units
                };
                let (hyp, reference) = (text(200), text(150));
                for max_order in [5, 6, 7] {
                    assert_eq!(
                        matches(&hyp, &reference, max_order),
                        by_counting(&hyp, &reference, max_order),
                        "alphabet {alphabet}, order {max_order}"
                    );
                }
            }
        }
    }

    #[test]
    fn windows_slide_one_unit_at_a_time() {
        let mut keys: Vec<u64> = Vec::new();
        push_packed_windows(&[0, 1, 2], (2, 2), [0, 1], &mut keys);
        // In 2 bits, slot values are unit + 1 (the multiplier is 1 modulo 4): [1, 2], [2, 3],
        // [3, -], each tagged 1 in bit 0.
        let top = |a: u64, b: u64| (a << 62) | (b << 60) | 1;
        assert_eq!(keys, vec![top(1, 2), top(2, 3), top(3, 0)]);
    }

    #[test]
    fn windows_cut_short_share_their_units_and_not_their_ends() {
        // [1, 2] ends both texts: as order-2 windows they are equal, as order-3 windows they
        // share two units, whatever the ends each text's keys hold.
        for max_order in [2, 3, 6] {
            let expected = by_counting(&[3, 1, 2], &[1, 2], max_order);
            assert_eq!(matches(&[3, 1, 2], &[1, 2], max_order), expected);
            let mut sorted = vec![0; max_order];
            add_sorted_matches(
                [&[3, 1, 2], &[1, 2]],
                3,
                &mut MatchScratch::default(),
                &mut sorted,
            )
            .unwrap();
            assert_eq!(sorted, expected, "order {max_order}");
        }
    }
}
