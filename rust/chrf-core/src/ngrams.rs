//! Clipped n-gram matches between two unit sequences (code points, or word ids), all orders at once.
//!
//! Texts of at most 128 units, all below 256 (as callers' ids of most sentences are), take a
//! bit-parallel path (`bits`); all others are sorted, with no hashing and therefore no
//! collisions to worry about.
//!
//! The windows starting at every position of both sequences are sorted together, each window
//! truncated to `max_order` units. Windows that share their first n units are then adjacent for
//! every order n at once, so one pass over the sorted windows yields Σ min(hyp count, ref count)
//! for every order.
//!
//! When the units are small (callers map code points to small per-segment ids), a whole window
//! packs into one `u64` or `u128`, and the sort compares integers. Otherwise (long orders) the
//! windows are the suffixes of both texts, sorted by prefix doubling, and the units two adjacent
//! windows share come from their longest common prefix (Kasai's algorithm): time and memory stay
//! linear in the texts whatever the order.
//!
//! The stages of the sorted path: `keys` packs each window into an integer, `sort` sorts the
//! keys of both texts together, `tally` counts the groups of equal windows in one pass (in
//! `lanes` where the counts fit); `suffixes` sorts the windows of long orders instead.

use crate::memory::{held, out_of_memory};
use crate::ChrfError;

mod bits;
mod keys;
mod lanes;
mod radix;
mod sort;
mod suffixes;
mod tally;
mod vector_sort;
use bits::{PositionBits, MAX_BITS_LEN};
use keys::SlotTable;
use sort::packed_sorted;
use suffixes::Suffixes;
use tally::{add_counts, tally_lanes, tally_packed, LargeTally, LANE_MAX, SMALL_ORDERS};

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
            + self.tally.held_bytes()
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

/// [`add_clipped_matches`] of units all below `alphabet`, which callers giving their own ids
/// know without a pass over the units.
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
    // Short texts of small units (as callers make them): a word of position bits per unit.
    if hyp.len().max(reference.len()) <= MAX_BITS_LEN
        && (scratch.bits).add_clipped_matches([hyp, reference], max_unit as usize + 1, matches)
    {
        return Ok(());
    }
    add_sorted_matches([hyp, reference], max_unit, scratch, matches)
}

crate::isa::two_copies! {
    /// [`add_clipped_matches`] by sorting the windows, for texts of any length and units: in the
    /// copy compiled for x86-64-v3 where the processor has it (see [`crate::isa`]).
    fn add_sorted_matches[](
        texts: [&[u32]; 2],
        max_unit: u32,
        scratch: &mut MatchScratch,
        matches: &mut [u64],
    ) -> Result<(), ChrfError> = add_sorted_matches_inlined;
}

#[inline(always)]
fn add_sorted_matches_inlined(
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
        let steps = suffixes.sorted_steps([hyp, reference], max_unit, max_order)?;
        let in_lanes = short && max_order <= SMALL_ORDERS;
        match in_lanes.then(|| tally_lanes::<false>(std::iter::once(steps.all()))) {
            Some(Some(counts)) => {
                add_counts(matches, counts);
                Ok(())
            }
            // Long texts in chunks, polled for an interrupt between them.
            _ => large.add(steps.chunks(), matches),
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use keys::push_packed_windows;
    use lanes::{Lanes, Step};
    use sort::WHOLE_SORT_KEYS;
    use std::collections::HashMap;
    use tally::long_lane_counts;

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
    fn repetitive_texts_sorted_by_their_first_units_only_agree_with_counting() {
        // Texts that repeat pieces of themselves, and orders whose windows are sorted by their
        // first units only (the classes of some suffixes still hold several of them): dense
        // units of 4-bit slots from order 32 on, and units of 32-bit slots from order 4.
        let mut below = below(0x6A09_E667_F3BC_C908);
        let mut text = |len: usize, alphabet: &[u32]| -> Vec<u32> {
            let mut units = Vec::new();
            while units.len() < len {
                let piece: Vec<u32> = (0..1 + below(12))
                    .map(|_| alphabet[below(alphabet.len() as u64) as usize])
                    .collect();
                for _ in 0..1 + below(40) {
                    units.extend(&piece);
                }
                if below(3) == 0 && !units.is_empty() {
                    let from = below(units.len() as u64) as usize;
                    let copied: Vec<u32> = units[from..].iter().take(200).copied().collect();
                    units.extend(copied);
                }
            }
            units.truncate(len);
            units
        };
        let dense: Vec<u32> = (0..9).collect();
        for (alphabet, orders) in [
            (&dense[..], &[32, 33, 40, 64, 100][..]),
            (&[0, 1, u32::MAX][..], &[4, 5, 9, 17]),
        ] {
            for len in [150, 700, 3000] {
                let (hyp, reference) = (text(len, alphabet), text(len * 2 / 3, alphabet));
                let twice = hyp.repeat(2);
                for &max_order in orders {
                    for (h, r) in [(&hyp, &reference), (&twice, &hyp), (&hyp, &hyp)] {
                        assert_eq!(
                            matches(h, r, max_order),
                            by_counting(h, r, max_order),
                            "{len} order {max_order}"
                        );
                    }
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
    fn windows_on_either_side_of_the_whole_sort_agree_with_counting() {
        // Up to WHOLE_SORT_KEYS windows sort in one comparison sort, more by buckets; in 64-bit
        // keys (few units) and 128-bit keys (many), and in texts that repeat pieces of
        // themselves, where buckets and equal keys are many.
        let mut next = below(0xBB67_AE85_84CA_A73B);
        for windows in [WHOLE_SORT_KEYS - 1, WHOLE_SORT_KEYS, WHOLE_SORT_KEYS + 1] {
            for alphabet in [3, 40, 3000] {
                let mut text = |len: usize| -> Vec<u32> {
                    let piece: Vec<u32> = (0..7).map(|_| next(alphabet) as u32).collect();
                    let mut units = Vec::with_capacity(len);
                    while units.len() < len {
                        match next(3) {
                            0 => units.extend_from_slice(&piece),
                            _ => units.push(next(alphabet) as u32),
                        }
                    }
                    units.truncate(len);
                    units
                };
                let hyp = text(windows / 3);
                let reference = text(windows - windows / 3);
                assert_orders_agree_with_counting(&hyp, &reference);
            }
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
            // Units spread up to 255 apart, as ASCII's ids are, every other round of cases.
            let spread = [1, [1, 100, 60, 50, 6][case % 5]][case / 5 % 2];
            let (h, r) = ([1, 64, 65, 128][case % 4], [2, 63, 64, 100, 128][case % 5]);
            let (h, r) = (next(h) + 1, next(r) + 1);
            let mut unit = || (next(alphabet) * spread) as u32;
            let hyp: Vec<u32> = (0..h).map(|_| unit()).collect();
            let reference: Vec<u32> = (0..r).map(|_| unit()).collect();
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
    fn both_instruction_set_copies_count_the_same() {
        // The baseline copy against the one the processor chooses (x86-64-v3 where it has it),
        // on texts of both paths (bit-parallel up to 128 units, sorted beyond, in 64- and
        // 128-bit keys and by suffixes), and once in ten against counting.
        let mut next = below(0x9E37_79B9_7F4A_7C15);
        let mut scratch = MatchScratch::default();
        for case in 0..1200 {
            let alphabet = [2, 5, 40, 130, 3000][case % 5];
            let lengths = [16, 64, 128, 600, 2500][case / 5 % 5];
            let (h, r) = (1 + next(lengths) as usize, 1 + next(lengths) as usize);
            let mut text =
                |len: usize| -> Vec<u32> { (0..len).map(|_| next(alphabet) as u32).collect() };
            let (hyp, reference) = (text(h), text(r));
            let max_order = [1, 2, 6, 8, 12, 40][case % 6];
            let copies = [false, true].map(|baseline| {
                crate::isa::force_baseline(baseline);
                let mut out = vec![0; max_order];
                add_clipped_matches(&hyp, &reference, &mut scratch, &mut out).unwrap();
                out
            });
            crate::isa::force_baseline(false);
            assert_eq!(copies[0], copies[1], "{hyp:?} / {reference:?}");
            if case % 10 == 0 {
                assert_eq!(copies[0], by_counting(&hyp, &reference, max_order));
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
