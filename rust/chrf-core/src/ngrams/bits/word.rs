//! A word of position bits, a bit per position of a text, and the tables of words of a text's
//! units: what the bit-parallel path and its AVX-512 count share.

use std::ops::{BitAnd, BitAndAssign, BitOrAssign, Shl, Sub};

/// The longest text, in units, the bit-parallel path takes.
pub const MAX_BITS_LEN: usize = u128::BITS as usize;

/// The units the bit-parallel path takes are below this: tables of this many entries are indexed
/// by a unit's low byte without a bounds check.
pub(super) const MAX_ALPHABET: usize = 2 * MAX_BITS_LEN;

/// A word of position bits.
pub(super) trait Word:
    Copy + Eq + Shl<u32, Output = Self> + BitAnd<Output = Self> + BitAndAssign + BitOrAssign
{
    const ZERO: Self;
    const ONE: Self;
    /// Whether the word is wider than 64 bits.
    const WIDE: bool;
    fn below(self) -> Self;
    fn ones(self) -> u32;
    /// The low 64 bits and the high.
    fn halves(self) -> [u64; 2];
}

macro_rules! word {
    ($t:ty) => {
        impl Word for $t {
            const ZERO: Self = 0;
            const ONE: Self = 1;
            const WIDE: bool = Self::BITS > u64::BITS;
            /// The bits below the lowest set bit of `self`, which is one bit.
            fn below(self) -> Self {
                Sub::sub(self, 1)
            }
            fn ones(self) -> u32 {
                self.count_ones()
            }
            fn halves(self) -> [u64; 2] {
                let wide = u128::from(self);
                [wide as u64, (wide >> 64) as u64]
            }
        }
    };
}
word!(u64);
word!(u128);

/// A unit's entry in a table: units are below [`MAX_ALPHABET`], so its low byte.
#[inline(always)]
pub(super) fn entry(unit: u32) -> usize {
    usize::from(unit as u8)
}
