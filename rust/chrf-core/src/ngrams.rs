//! Clipped n-gram matches between two unit sequences (code points, or word ids), all orders at once.
//!
//! The windows starting at every position of both sequences are sorted together, each window
//! truncated to `max_order` units. Windows that share their first n units are then adjacent for
//! every order n at once, so one pass over the sorted windows yields Σ min(hyp count, ref count)
//! for every order, with no hashing and therefore no collisions to worry about.

/// Bits per unit in a packed window key: every code point (≤ U+10FFFF) plus one fits in 21 bits.
const SLOT_BITS: u32 = 21;
/// Longest window that packs into a `u128` with two low bits left for the side tag.
const MAX_PACKED_ORDER: usize = 6;
/// Largest unit value that packs (units are stored plus one so that 0 marks an empty slot).
const MAX_PACKED_UNIT: u32 = (1 << SLOT_BITS) - 2;
const REF_TAG: u128 = 1;

/// Reusable buffers, so that scoring many segments does not allocate per segment.
#[derive(Default)]
pub struct MatchScratch {
    packed: Vec<u128>,
    windows: Vec<Window>,
    open: Vec<[u64; 2]>,
}

/// A window of the generic path: its start, length (≤ max order) and side (0 hyp, 1 ref).
#[derive(Clone, Copy)]
struct Window {
    start: u32,
    len: u32,
    side: u8,
}

/// Adds, for every order n in 1..=matches.len(), the clipped match count of `hyp` against
/// `reference` to `matches[n - 1]`.
pub fn add_clipped_matches(
    hyp: &[u32],
    reference: &[u32],
    scratch: &mut MatchScratch,
    matches: &mut [u64],
) {
    let max_order = matches.len();
    if max_order == 0 || hyp.is_empty() || reference.is_empty() {
        return;
    }
    scratch.open.clear();
    scratch.open.resize(max_order, [0, 0]);
    let packable = |units: &[u32]| units.iter().all(|&u| u <= MAX_PACKED_UNIT);
    if max_order <= MAX_PACKED_ORDER && packable(hyp) && packable(reference) {
        packed_matches(hyp, reference, scratch, matches);
    } else {
        generic_matches(hyp, reference, scratch, matches);
    }
}

/// Counts of the current run of equal windows, per order and side.
struct Groups<'a> {
    open: &'a mut [[u64; 2]],
    matches: &'a mut [u64],
}

impl Groups<'_> {
    /// Ends the groups of every order above `shared`: the next window differs within them.
    fn close_above(&mut self, shared: usize) {
        for (open, matched) in self.open[shared..]
            .iter_mut()
            .zip(&mut self.matches[shared..])
        {
            *matched += open[0].min(open[1]);
            *open = [0, 0];
        }
    }

    /// Counts a window of `len` units in the groups of orders 1..=len.
    fn add(&mut self, len: usize, side: usize) {
        for open in &mut self.open[..len] {
            open[side] += 1;
        }
    }
}

fn packed_matches(hyp: &[u32], reference: &[u32], scratch: &mut MatchScratch, matches: &mut [u64]) {
    let max_order = matches.len();
    let keys = &mut scratch.packed;
    keys.clear();
    push_packed_windows(hyp, max_order, 0, keys);
    push_packed_windows(reference, max_order, REF_TAG, keys);
    keys.sort_unstable();

    let mut groups = Groups {
        open: &mut scratch.open,
        matches,
    };
    let mut previous: Option<u128> = None;
    for &key in keys.iter() {
        if let Some(prev) = previous {
            let shared_slots = ((prev ^ key).leading_zeros() / SLOT_BITS) as usize;
            groups.close_above(shared_slots.min(max_order));
        }
        groups.add(packed_len(key), (key & REF_TAG) as usize);
        previous = Some(key);
    }
    groups.close_above(0);
}

/// Pushes one key per start position: units plus one, first unit in the top slot, tag in bit 0.
fn push_packed_windows(units: &[u32], max_order: usize, tag: u128, keys: &mut Vec<u128>) {
    let lowest_slot_shift = 128 - SLOT_BITS * max_order as u32;
    let slot =
        |unit: u32, index: usize| (u128::from(unit) + 1) << (128 - SLOT_BITS * (index as u32 + 1));
    let mut key = units
        .iter()
        .take(max_order)
        .enumerate()
        .fold(0u128, |key, (index, &unit)| key | slot(unit, index));
    for start in 0..units.len() {
        keys.push(key | tag);
        // Slide by one unit: drop the top slot, bring the next unit into the lowest used slot.
        key <<= SLOT_BITS;
        if let Some(&next) = units.get(start + max_order) {
            key |= (u128::from(next) + 1) << lowest_slot_shift;
        }
    }
}

/// Number of units in a packed window: the slot holding its lowest set bit, plus one.
fn packed_len(key: u128) -> usize {
    let lowest_bit = (key & !REF_TAG).trailing_zeros();
    ((127 - lowest_bit) / SLOT_BITS) as usize + 1
}

fn generic_matches(
    hyp: &[u32],
    reference: &[u32],
    scratch: &mut MatchScratch,
    matches: &mut [u64],
) {
    let max_order = matches.len();
    let sides = [hyp, reference];
    let windows = &mut scratch.windows;
    windows.clear();
    for (side, units) in sides.iter().enumerate() {
        windows.extend((0..units.len()).map(|start| Window {
            start: start as u32,
            len: (units.len() - start).min(max_order) as u32,
            side: side as u8,
        }));
    }
    let text = |w: &Window| &sides[w.side as usize][w.start as usize..(w.start + w.len) as usize];
    windows.sort_unstable_by(|a, b| text(a).cmp(text(b)));

    let mut groups = Groups {
        open: &mut scratch.open,
        matches,
    };
    let mut previous: Option<&[u32]> = None;
    for window in windows.iter() {
        let current = text(window);
        if let Some(prev) = previous {
            groups.close_above(common_prefix(prev, current));
        }
        groups.add(window.len as usize, window.side as usize);
        previous = Some(current);
    }
    groups.close_above(0);
}

fn common_prefix(a: &[u32], b: &[u32]) -> usize {
    a.iter().zip(b).take_while(|(x, y)| x == y).count()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use std::collections::HashMap;

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
        add_clipped_matches(hyp, reference, &mut MatchScratch::default(), &mut out);
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
    fn packed_and_generic_paths_agree_with_counting() {
        let alphabet = [0, 1, 2, 0x10FFFF, 0x1F600];
        let seqs = sequences(0x9E37_79B9_7F4A_7C15, 400, &alphabet);
        for pair in seqs.chunks(2) {
            for max_order in [1, 2, 3, 6, 7, 11] {
                assert_eq!(
                    matches(&pair[0], &pair[1], max_order),
                    by_counting(&pair[0], &pair[1], max_order),
                    "{pair:?} order {max_order}"
                );
            }
        }
    }

    #[test]
    fn units_too_large_to_pack_take_the_generic_path() {
        let big = MAX_PACKED_UNIT + 1;
        let seqs = sequences(7, 200, &[1, big, u32::MAX]);
        for pair in seqs.chunks(2) {
            assert_eq!(
                matches(&pair[0], &pair[1], 4),
                by_counting(&pair[0], &pair[1], 4)
            );
        }
    }

    #[test]
    fn packed_window_lengths() {
        let mut keys = Vec::new();
        push_packed_windows(&[5, 6, 7], 6, REF_TAG, &mut keys);
        let lens: Vec<usize> = keys.iter().map(|&k| packed_len(k)).collect();
        assert_eq!(lens, vec![3, 2, 1]);
        keys.clear();
        push_packed_windows(&[0x10FFFF; 8], 6, 0, &mut keys);
        let lens: Vec<usize> = keys.iter().map(|&k| packed_len(k)).collect();
        assert_eq!(lens, vec![6, 6, 6, 5, 4, 3, 2, 1]);
    }
}
