//! Windows packed into integer keys: one slot of bits per unit, the first unit in the top
//! slot and a side tag in bit 0, so that sorting the keys sorts the windows and the units two
//! adjacent windows share are read off the highest bit in which they differ.

use std::ops::{BitAnd, BitOr, BitXor, Not, Shl, ShlAssign};

use crate::ChrfError;

/// An unsigned integer a window packs into.
pub(super) trait Key:
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
    /// Whether long texts radix sort their large buckets as they are (see [`super::radix`]): 64-bit
    /// keys do; 128-bit keys would need 7 byte digits, which cost as much as the comparison
    /// sorts at the bucket sizes long Chinese segments reach, and are sorted as 64-bit keys
    /// instead (see [`super::sort`]).
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
    /// Sorts a sentence's keys in one sort (see [`super::sort`]); `spare` is scratch.
    fn sort_whole(keys: &mut Vec<Self>, spare: &mut Vec<Self>) -> Result<(), ChrfError>;
}

macro_rules! key {
    ($t:ty, $radix:expr, $sort_whole:path) => {
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
            fn sort_whole(keys: &mut Vec<Self>, spare: &mut Vec<Self>) -> Result<(), ChrfError> {
                $sort_whole(keys, spare)
            }
        }
    };
}
key!(u64, true, super::vector_sort::sort);
key!(u128, false, standard_sort);

/// The standard library's sort, for keys no vector sort takes.
fn standard_sort<K: Ord>(keys: &mut [K], _spare: &mut [K]) -> Result<(), ChrfError> {
    keys.sort_unstable();
    Ok(())
}

/// Slots hold a rank (unit + 1, or the reference's end) times this odd number, modulo
/// 2^slot_bits: a one-to-one map that keeps 0 for the hypothesis's end. Sorted, the mapped
/// windows group as the units' windows do (equal prefixes stay equal and next to each other),
/// but the top bits the counting pass buckets by now depend on every bit of a unit: dense ids
/// give frequent units small values, whose top bits left most windows of a frequent first unit
/// in one bucket.
const SLOT_MULTIPLIER: u64 = 0x9E37_79B9_7F4A_7C15;

/// Per bit of a key, the number of whole slots above it, capped at the max order: a table,
/// because a division by a run-time divisor per window is slow. Kept from call to call, as
/// most segments of a corpus have the same layout of slots.
pub(super) struct SlotTable {
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
    pub(super) fn of(&mut self, key_bits: u32, slot_bits: u32, max_order: usize) -> &Self {
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
    pub(super) fn shared<K: Key>(&self, a: K, b: K) -> usize {
        let highest = ((a ^ b) | K::TAG).highest_bit();
        usize::from(self.slots_above[highest as usize % 128])
    }
}

/// Pushes one key per start position: slot values of the units (see [`SLOT_MULTIPLIER`]), first
/// unit in the top slot, tag in bit 0. The slots past the end of the text hold `end`, a value
/// no unit has and which differs between the texts: two windows cut short by the end then
/// share exactly the units they have in common, never the end itself.
pub(super) fn push_packed_windows<K: Key>(
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
