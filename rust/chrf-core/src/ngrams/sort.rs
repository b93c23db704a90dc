//! Sorting the windows of both texts as packed keys: those of a sentence in one comparison sort;
//! more by a counting pass on their top bits, then each bucket by comparison, or by radix in the
//! large buckets of long texts.

use super::keys::{push_packed_windows, Key};
use super::radix;
use crate::memory::{reserve, resize_for_overwrite};
use crate::pool::{poll, POLL_UNITS};
use crate::ChrfError;

/// All windows of both texts as tagged keys, sorted, and the bits they are shifted right by
/// (see [`sort_keys`]). `narrow` are buffers for 128-bit keys sorted as 64-bit ones.
#[inline(always)]
pub(super) fn packed_sorted<'k, K: Key>(
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

/// Most bits of the keys the counting pass buckets by: a 1 MiB table, for texts of 2^18 windows
/// and more (whose keys and their scatter target take 4 MiB at least). With fewer bits the
/// buckets of frequent leading pairs grow with the text, and their comparison sorts with them
/// (benches/NOTES.md has the measurements).
const MAX_BUCKET_BITS: u32 = 18;

crate::isa::two_copies! {
/// Sorts the keys. Up to [`WHOLE_SORT_KEYS`], in one sort ([`Key::sort_whole`]). Beyond, a
/// counting pass on their top bits (the first unit and, with more windows, part of the next:
/// about two keys per bucket), then a small comparison sort inside each bucket, which beats one
/// comparison sort of all keys when units are dense ids and there are many of them. Buckets by
/// the first unit alone would grow with the text, and so would their sorts.
///
/// In the copy compiled for x86-64-v3 where the processor has it (see [`crate::isa`]); out of
/// line, in both copies, as inlined into the tally around it, it takes registers from it.
fn sort_keys[K: Key](
        keys: [&mut Vec<K>; 2],
        buckets: &mut Vec<u32>,
        low_bit: u32,
    ) -> Result<(), ChrfError> = sort_keys_inlined;
}

#[inline(always)]
fn sort_keys_inlined<K: Key>(
    [keys, spare]: [&mut Vec<K>; 2],
    buckets: &mut Vec<u32>,
    low_bit: u32,
) -> Result<(), ChrfError> {
    if keys.len() <= WHOLE_SORT_KEYS {
        return K::sort_whole(keys, spare);
    }
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

/// The most keys sorted whole. The standard library's sort, largely free of data-dependent
/// branches on integer keys, takes more instructions than the counting pass and the buckets'
/// sorts, but less time: those buckets of a few keys each, of sizes that vary from one to the
/// next, are a stream of mispredicted branches. Past a few thousand keys its extra comparisons
/// cost more than the mispredictions it saves (benches/NOTES.md).
pub(super) const WHOLE_SORT_KEYS: usize = 4096;

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
pub(super) const LONG_TEXT_WINDOWS: usize = 1 << 16;

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
