//! Eight 16-bit counters per side, one per n-gram order, stepped together.
//!
//! On x86_64 a step is a handful of SSE2 instructions on one register per array (SSE2 is part
//! of the x86_64 baseline, so it is always there); elsewhere the same step runs lane by lane.

/// One step: `shared` is the number of units the window shares with the previous one, so the
/// groups of the orders above it close (their min(hyp, ref) joins the matches) and restart; the
/// window then counts once on its side in every order.
pub trait Step {
    fn step(&mut self, shared: u8, is_reference: bool);
    /// The matches counted since the last call, modulo 2^16 (the caller bounds them), and
    /// their lanes back to zero.
    fn take_matches(&mut self) -> [u16; 8];
    /// The windows each side has in every open group, min(hyp, ref) per lane, taken out of
    /// both lanes: the group adds them to the matches when it closes, as min(h + m, r + m) =
    /// m + min(h, r), so they can be added now. What stays in the lanes is the difference
    /// between the sides, with one side at zero.
    fn take_common(&mut self) -> [u16; 8];
    /// Remembers whether a lane of windows is negative now: it overflowed.
    fn gather_signs(&mut self);
    /// Whether a lane of windows was negative at a [`Step::gather_signs`].
    fn overflowed(&self) -> bool;
}

/// The portable lanes, and the reference for the vector ones.
#[cfg(any(test, not(target_arch = "x86_64")))]
#[derive(Default)]
pub struct Scalar {
    hyp: [i16; 8],
    reference: [i16; 8],
    matches: [i16; 8],
    overflowed: bool,
}

#[cfg(any(test, not(target_arch = "x86_64")))]
impl Step for Scalar {
    fn step(&mut self, shared: u8, is_reference: bool) {
        let add = i16::from(is_reference);
        for n in 0..8 {
            if n as u8 >= shared {
                self.matches[n] =
                    (self.matches[n]).wrapping_add(self.hyp[n].min(self.reference[n]));
                (self.hyp[n], self.reference[n]) = (0, 0);
            }
            self.hyp[n] = self.hyp[n].wrapping_add(1 - add);
            self.reference[n] = self.reference[n].wrapping_add(add);
        }
    }

    fn take_matches(&mut self) -> [u16; 8] {
        std::mem::take(&mut self.matches).map(|m| m as u16)
    }

    fn take_common(&mut self) -> [u16; 8] {
        let common = std::array::from_fn(|n| self.hyp[n].min(self.reference[n]));
        for (side, m) in self
            .hyp
            .iter_mut()
            .zip(common)
            .chain(self.reference.iter_mut().zip(common))
        {
            *side -= m;
        }
        common.map(|m: i16| m as u16)
    }

    fn gather_signs(&mut self) {
        self.overflowed |= self.hyp.iter().chain(&self.reference).any(|&n| n < 0);
    }

    fn overflowed(&self) -> bool {
        self.overflowed
    }
}

#[cfg(not(target_arch = "x86_64"))]
pub type Lanes = Scalar;

#[cfg(target_arch = "x86_64")]
pub use sse2::Lanes;

#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
mod sse2 {
    use std::arch::x86_64::{
        __m128i, _mm_add_epi16, _mm_and_si128, _mm_andnot_si128, _mm_loadu_si128, _mm_min_epi16,
        _mm_movemask_epi8, _mm_or_si128, _mm_setzero_si128, _mm_storeu_si128, _mm_sub_epi16,
    };

    use super::Step;

    pub struct Lanes {
        hyp: __m128i,
        reference: __m128i,
        matches: __m128i,
        /// The OR of the lanes of windows at every [`Step::gather_signs`].
        signs: __m128i,
    }

    /// Per `shared`, all ones in the lanes of the orders it closes (n >= shared): looked up,
    /// because broadcasting `shared` and comparing costs more instructions. A row per value of
    /// a `u8`, so that the lookup needs no bounds check; from 8 on, nothing closes.
    const CLOSING: [[i16; 8]; 256] = {
        let mut masks = [[0i16; 8]; 256];
        let mut shared = 0;
        while shared < 9 {
            let mut n = shared;
            while n < 8 {
                masks[shared][n] = -1;
                n += 1;
            }
            shared += 1;
        }
        masks
    };

    /// Per side, what a window adds to the hypothesis and the reference lanes.
    const ADDED: [[[i16; 8]; 2]; 2] = [[[1; 8], [0; 8]], [[0; 8], [1; 8]]];

    // SAFETY (for every `unsafe` block below): the intrinsics are SSE2 instructions, and SSE2
    // is part of the x86_64 baseline: every x86_64 processor has it, and Rust enables it for
    // every x86_64 target. They touch registers only, except `_mm_loadu_si128`, which reads
    // 16 bytes of a 16-byte array it is given (unaligned loads are allowed), and
    // `_mm_storeu_si128`, which writes 16 bytes to a 16-byte array it is given.

    fn load(lanes: &[i16; 8]) -> __m128i {
        unsafe { _mm_loadu_si128(lanes.as_ptr().cast::<__m128i>()) }
    }

    impl Default for Lanes {
        fn default() -> Self {
            unsafe {
                Self {
                    hyp: _mm_setzero_si128(),
                    reference: _mm_setzero_si128(),
                    matches: _mm_setzero_si128(),
                    signs: _mm_setzero_si128(),
                }
            }
        }
    }

    impl Step for Lanes {
        #[inline(always)]
        fn step(&mut self, shared: u8, is_reference: bool) {
            let close = load(&CLOSING[usize::from(shared)]);
            let [add_hyp, add_reference] = &ADDED[usize::from(is_reference)];
            unsafe {
                let matched = _mm_min_epi16(self.hyp, self.reference);
                self.matches = _mm_add_epi16(self.matches, _mm_and_si128(matched, close));
                self.hyp = _mm_add_epi16(_mm_andnot_si128(close, self.hyp), load(add_hyp));
                self.reference =
                    _mm_add_epi16(_mm_andnot_si128(close, self.reference), load(add_reference));
            }
        }

        fn take_matches(&mut self) -> [u16; 8] {
            let mut out = [0u16; 8];
            unsafe {
                _mm_storeu_si128(out.as_mut_ptr().cast::<__m128i>(), self.matches);
                self.matches = _mm_setzero_si128();
            }
            out
        }

        fn take_common(&mut self) -> [u16; 8] {
            let mut out = [0u16; 8];
            unsafe {
                let common = _mm_min_epi16(self.hyp, self.reference);
                self.hyp = _mm_sub_epi16(self.hyp, common);
                self.reference = _mm_sub_epi16(self.reference, common);
                _mm_storeu_si128(out.as_mut_ptr().cast::<__m128i>(), common);
            }
            out
        }

        #[inline(always)]
        fn gather_signs(&mut self) {
            unsafe {
                let both = _mm_or_si128(self.hyp, self.reference);
                self.signs = _mm_or_si128(self.signs, both);
            }
        }

        fn overflowed(&self) -> bool {
            // The top byte of each 16-bit lane holds its sign bit.
            unsafe { _mm_movemask_epi8(self.signs) & 0xAAAA != 0 }
        }
    }
}
