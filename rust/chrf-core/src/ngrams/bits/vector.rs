//! The bit-parallel path's counts of eight hypothesis starts at once, in AVX-512 registers,
//! where the processor has AVX-512F and its population count (see
//! [`crate::isa::runs_avx512_popcnt`]).
//!
//! A lane holds a start, and a step takes every lane's n-gram one order up, as the scalar count
//! of a window does for one start. The words of each hypothesis position's unit are laid out
//! once per pair, in arrays of the positions (in 64-bit halves, with zeros after the text), so
//! that a step's eight words are one load, not eight lookups. A window running past the
//! end of the hypothesis meets those zeros and counts nothing: every start is counted here, the
//! last ones too.

use super::word::{entry, Word, MAX_ALPHABET, MAX_BITS_LEN};

/// The zeros laid out after a text: a block of lanes starts before its end, and each lane's
/// windows run on from there.
const PAST_END: usize = 16;

/// The positions of the arrays of words: the longest text's, and the zeros after it.
const SPAN: usize = MAX_BITS_LEN + PAST_END;

/// Per side (hypothesis, reference) and half (low, high), the word of each hypothesis
/// position's unit.
pub(super) type ByPosition = [[[u64; SPAN]; 2]; 2];

pub(super) fn by_position() -> Box<ByPosition> {
    Box::new([[[0; SPAN]; 2]; 2])
}

/// Adds each start's orders 2 to `HIGHER + 1` to `higher`, as the scalar walk from every start
/// does, and returns true, where the processor has what this takes; else returns false, having
/// done nothing. `by_position` is scratch.
pub(super) fn add_starts<B: Word, const HIGHER: usize>(
    hyp: &[u32],
    tables: &[[B; MAX_ALPHABET]; 2],
    by_position: &mut ByPosition,
    higher: &mut [u64; HIGHER],
) -> bool {
    #[cfg(target_arch = "x86_64")]
    if crate::isa::runs_avx512_popcnt() {
        // SAFETY: `runs_avx512_popcnt()` is true only where the processor has both features.
        #[allow(unsafe_code)]
        unsafe {
            avx512::add_starts(hyp, tables, by_position, higher);
        }
        return true;
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (hyp, tables, by_position, higher);
    false
}

/// Lays out the words of `hyp`'s units in both texts, then zeros.
#[inline(always)]
fn lay_out<B: Word>(hyp: &[u32], tables: &[[B; MAX_ALPHABET]; 2], by_position: &mut ByPosition) {
    for (at, [low, high]) in tables.iter().zip(by_position) {
        for ((&unit, low), high) in hyp.iter().zip(low.iter_mut()).zip(high.iter_mut()) {
            [*low, *high] = at[entry(unit)].halves();
        }
        let past = hyp.len()..hyp.len() + PAST_END;
        for half in [low, high] {
            if let Some(past) = half.get_mut(past.clone()) {
                past.fill(0);
            }
        }
    }
}

/// Per half, the bits below each position (those of the positions before it).
static BELOW: [[u64; SPAN]; 2] = below();

const fn below() -> [[u64; SPAN]; 2] {
    let mut below = [[0; SPAN]; 2];
    let mut position = 0;
    while position < SPAN {
        below[0][position] = if position < 64 {
            (1 << position) - 1
        } else {
            u64::MAX
        };
        below[1][position] = if position < 64 {
            0
        } else if position < 128 {
            (1 << (position - 64)) - 1
        } else {
            u64::MAX
        };
        position += 1;
    }
    below
}

#[cfg(target_arch = "x86_64")]
pub(super) mod avx512 {
    use super::{lay_out, ByPosition, Word, BELOW, MAX_ALPHABET, PAST_END, SPAN};
    use std::arch::x86_64::{
        __m512i, __mmask8, _mm512_add_epi64, _mm512_and_si512, _mm512_loadu_si512,
        _mm512_mask_add_epi64, _mm512_mask_testn_epi64_mask, _mm512_min_epu64, _mm512_popcnt_epi64,
        _mm512_reduce_add_epi64, _mm512_setzero_si512, _mm512_slli_epi64, _mm512_srli_epi64,
        _mm512_ternarylogic_epi64, _mm512_testn_epi64_mask,
    };

    /// The starts a step takes: 64-bit lanes of a register.
    const LANES: usize = 8;

    /// Eight words of position bits, in halves; the high one is not used for 64-bit words.
    #[derive(Clone, Copy)]
    struct Words {
        low: __m512i,
        high: __m512i,
    }

    #[target_feature(enable = "avx512f,avx512vpopcntdq")]
    pub(crate) fn add_starts<B: Word, const HIGHER: usize>(
        hyp: &[u32],
        tables: &[[B; MAX_ALPHABET]; 2],
        by_position: &mut ByPosition,
        higher: &mut [u64; HIGHER],
    ) {
        // A block's lanes read up to `HIGHER` positions after its last start, which may be the
        // text's last position.
        const { assert!(HIGHER + LANES <= PAST_END) };
        lay_out(hyp, tables, by_position);
        let [hyp_words, ref_words] = &*by_position;
        let mut found = [_mm512_setzero_si512(); HIGHER];
        for start in (0..hyp.len()).step_by(LANES) {
            let mut in_hyp = load::<B>(hyp_words, start);
            let mut in_ref = load::<B>(ref_words, start);
            for (end, found) in (start + 1..).zip(&mut found) {
                in_hyp = shift_and::<B>(in_hyp, load::<B>(hyp_words, end));
                in_ref = shift_and::<B>(in_ref, load::<B>(ref_words, end));
                let first = none_below::<B>(in_hyp, load::<B>(&BELOW, end));
                let both = _mm512_min_epu64(ones::<B>(in_hyp), ones::<B>(in_ref));
                *found = _mm512_mask_add_epi64(*found, first, *found, both);
            }
        }
        for (out, found) in higher.iter_mut().zip(found) {
            // Sums of counts, each below 2^8 and at most 16 to a lane: never negative.
            *out += _mm512_reduce_add_epi64(found).unsigned_abs();
        }
    }

    /// The words of the positions from `at` on, one to a lane.
    #[target_feature(enable = "avx512f")]
    fn load<B: Word>(words: &[[u64; SPAN]; 2], at: usize) -> Words {
        let [low, high] = words;
        Words {
            low: load_half(low, at),
            high: if B::WIDE {
                load_half(high, at)
            } else {
                _mm512_setzero_si512()
            },
        }
    }

    #[target_feature(enable = "avx512f")]
    fn load_half(half: &[u64; SPAN], at: usize) -> __m512i {
        match half.get(at..at + LANES) {
            // SAFETY: the slice holds the eight lanes read.
            #[allow(unsafe_code)]
            Some(lanes) => unsafe { _mm512_loadu_si512(lanes.as_ptr().cast()) },
            None => _mm512_setzero_si512(),
        }
    }

    /// `(words << 1) & next`, the shift carried from the low half into the high one.
    #[target_feature(enable = "avx512f")]
    fn shift_and<B: Word>(words: Words, next: Words) -> Words {
        // (carried | shifted) & next.
        const OR_THEN_AND: i32 = 0xA8;
        Words {
            low: _mm512_and_si512(_mm512_slli_epi64::<1>(words.low), next.low),
            high: if B::WIDE {
                _mm512_ternarylogic_epi64::<OR_THEN_AND>(
                    _mm512_srli_epi64::<63>(words.low),
                    _mm512_slli_epi64::<1>(words.high),
                    next.high,
                )
            } else {
                words.high
            },
        }
    }

    /// The lanes whose words have no bit in `below`.
    #[target_feature(enable = "avx512f")]
    fn none_below<B: Word>(words: Words, below: Words) -> __mmask8 {
        let low = _mm512_testn_epi64_mask(words.low, below.low);
        if B::WIDE {
            _mm512_mask_testn_epi64_mask(low, words.high, below.high)
        } else {
            low
        }
    }

    /// The bits set in each lane's word.
    #[target_feature(enable = "avx512f,avx512vpopcntdq")]
    fn ones<B: Word>(words: Words) -> __m512i {
        let low = _mm512_popcnt_epi64(words.low);
        if B::WIDE {
            _mm512_add_epi64(low, _mm512_popcnt_epi64(words.high))
        } else {
            low
        }
    }
}
