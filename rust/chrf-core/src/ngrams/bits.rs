//! Clipped matches of texts of at most 128 units, bit-parallel: a position is a bit of a word.
//!
//! Per unit u, a word with the bits of the positions of each text holding u. For a hypothesis
//! position i, the reference windows equal to its n-gram are found by their last position: they
//! are the bits of `R_n = (R_{n-1} << 1) & at_ref[h[i + n - 1]]`, and the hypothesis windows
//! equal to it, `S_n`, the same way. The n-gram counts at its first occurrence in the hypothesis
//! (no bit of `S_n` below i's own) as min(|S_n|, |R_n|) = min(hyp count, ref count); once `S_n`
//! holds i alone, every longer n-gram at i is unique and adds one while `R_n` is not empty, and
//! the walk up the orders stops at the first n-gram the reference lacks. Order 1 comes from the
//! units' counts.
//!
//! The reference costs a bit per position, the hypothesis a few word operations per n-gram the
//! reference shares: fewer instructions than sorting the windows of short sentences and of
//! sentences' words (benches/floor, en-de: chrF 138 to 130 instructions a character, chrF++
//! 198 to 179, one short pair 9,000 to 7,000). Texts of 129 to 256 units in four words a set
//! took more than the sort, and are left to it.

use std::ops::{BitAnd, BitAndAssign, BitOrAssign, Shl, Sub};

use crate::memory::{held, reserve};
use crate::ChrfError;

/// The longest text, in units, this path takes.
pub const MAX_BITS_LEN: usize = u128::BITS as usize;

/// Per unit, the positions of each text holding it (in words of 64 or 128 bits) and their
/// number; zeros between calls.
#[derive(Default)]
pub struct PositionBits {
    narrow: [Vec<u64>; 2],
    wide: [Vec<u128>; 2],
    counts: [Vec<u32>; 2],
}

impl PositionBits {
    pub fn held_bytes(&self) -> usize {
        self.narrow.iter().map(held).sum::<usize>()
            + self.wide.iter().map(held).sum::<usize>()
            + self.counts.iter().map(held).sum::<usize>()
    }

    /// Adds the clipped matches of every order to `matches` (see [`super::add_clipped_matches`]).
    /// Both texts have at most [`MAX_BITS_LEN`] units, all below `alphabet`.
    pub fn add_clipped_matches(
        &mut self,
        texts: [&[u32]; 2],
        alphabet: usize,
        matches: &mut [u64],
    ) -> Result<(), ChrfError> {
        if texts.iter().all(|text| text.len() <= u64::BITS as usize) {
            add(&mut self.narrow, &mut self.counts, texts, alphabet, matches)
        } else {
            add(&mut self.wide, &mut self.counts, texts, alphabet, matches)
        }
    }
}

/// A word of position bits.
trait Word:
    Copy + Eq + Shl<u32, Output = Self> + BitAnd<Output = Self> + BitAndAssign + BitOrAssign
{
    const ZERO: Self;
    const ONE: Self;
    fn ones(self) -> u64;
    fn below(self) -> Self;
}

macro_rules! word {
    ($t:ty) => {
        impl Word for $t {
            const ZERO: Self = 0;
            const ONE: Self = 1;
            fn ones(self) -> u64 {
                u64::from(self.count_ones())
            }
            /// The bits below the lowest set bit of `self`, which is one bit.
            fn below(self) -> Self {
                Sub::sub(self, 1)
            }
        }
    };
}
word!(u64);
word!(u128);

fn add<B: Word>(
    at: &mut [Vec<B>; 2],
    counts: &mut [Vec<u32>; 2],
    [hyp, reference]: [&[u32]; 2],
    alphabet: usize,
    matches: &mut [u64],
) -> Result<(), ChrfError> {
    for side in 0..2 {
        grow_zeroed(&mut at[side], alphabet, B::ZERO)?;
        grow_zeroed(&mut counts[side], alphabet, 0)?;
    }
    let [at_hyp, at_ref] = at;
    let [hyp_counts, ref_counts] = counts;
    mark(hyp, &mut at_hyp[..alphabet], &mut hyp_counts[..alphabet]);
    mark(
        reference,
        &mut at_ref[..alphabet],
        &mut ref_counts[..alphabet],
    );
    if let Some((unigrams, higher)) = matches.split_first_mut() {
        *unigrams += (hyp_counts[..alphabet].iter().zip(&ref_counts[..alphabet]))
            .map(|(&h, &r)| u64::from(h.min(r)))
            .sum::<u64>();
        let tables = [&at_hyp[..alphabet], &at_ref[..alphabet]];
        for start in 0..hyp.len() {
            walk(&hyp[start..], start, tables, higher);
        }
    }
    for side in 0..2 {
        at[side][..alphabet].fill(B::ZERO);
        counts[side][..alphabet].fill(0);
    }
    Ok(())
}

/// Sets each position's bit in its unit's word, and counts it.
fn mark<B: Word>(text: &[u32], at: &mut [B], counts: &mut [u32]) {
    for (position, &unit) in text.iter().enumerate() {
        if let (Some(bits), Some(count)) =
            (at.get_mut(unit as usize), counts.get_mut(unit as usize))
        {
            *bits |= B::ONE << position as u32;
            *count += 1;
        }
    }
}

/// Grows a vector of `zero`s to at least `len` of them.
fn grow_zeroed<T: Copy>(vec: &mut Vec<T>, len: usize, zero: T) -> Result<(), ChrfError> {
    if vec.len() < len {
        reserve(vec, len - vec.len())?;
        vec.resize(len, zero);
    }
    Ok(())
}

/// The n-grams of orders 2 and up starting at `start` (`rest` is the hypothesis from there);
/// those of order n + 2 add to `higher[n]`.
#[inline(always)]
fn walk<B: Word>(rest: &[u32], start: usize, [at_hyp, at_ref]: [&[B]; 2], higher: &mut [u64]) {
    let bits = |at: &[B], unit: u32| at.get(unit as usize).copied().unwrap_or(B::ZERO);
    let Some((&first, rest)) = rest.split_first() else {
        return;
    };
    let mut in_ref = bits(at_ref, first);
    let mut in_hyp = bits(at_hyp, first);
    let mut end = B::ONE << start as u32;
    let mut steps = rest.iter().zip(higher);
    // While the hypothesis holds the n-gram more than once: count it at its first occurrence.
    if in_hyp != end {
        for (&unit, found) in steps.by_ref() {
            (in_ref, in_hyp, end) = (in_ref << 1, in_hyp << 1, end << 1);
            in_ref &= bits(at_ref, unit);
            if in_ref == B::ZERO {
                return;
            }
            in_hyp &= bits(at_hyp, unit);
            if in_hyp == end {
                *found += 1;
                break;
            }
            if in_hyp & end.below() == B::ZERO {
                *found += in_hyp.ones().min(in_ref.ones());
            }
        }
    }
    // Unique in the hypothesis: each n-gram the reference holds matches once.
    for (&unit, found) in steps {
        in_ref = in_ref << 1 & bits(at_ref, unit);
        if in_ref == B::ZERO {
            return;
        }
        *found += 1;
    }
}
