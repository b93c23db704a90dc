//! A sentence's 64-bit window keys sorted in AVX-512 registers where the processor has AVX-512F
//! (see [`crate::isa::runs_avx512`]), else by the standard sort.
//!
//! The standard sort of a few hundred keys spends its time in partitions and small sorts whose
//! branches depend on the keys. Here every comparison is a vector min and max of eight keys,
//! with no branch on a key. The keys, padded with `u64::MAX` to a multiple of 16, are sorted 16
//! at a time by a bitonic network in two registers; then sorted runs are merged in pairs until
//! one is left. A merge step takes the next 16 keys of the run whose next key is the lower (a
//! conditional move), merges them with the 16 it carries by a bitonic merge network, stores the
//! lower 16 and carries the higher. Padding keys equal to a real key are the same integer, so
//! the sorted keys cut back to their length are the standard sort's.

use crate::memory::{reserve, resize_for_overwrite};
use crate::ChrfError;

/// Sorts `keys`; `spare` is scratch.
pub(super) fn sort(keys: &mut Vec<u64>, spare: &mut Vec<u64>) -> Result<(), ChrfError> {
    #[cfg(target_arch = "x86_64")]
    if crate::isa::runs_avx512() {
        // SAFETY: `runs_avx512()` is true only where the processor has AVX-512F.
        #[allow(unsafe_code)]
        return unsafe { sort_avx512(keys, spare) };
    }
    keys.sort_unstable();
    Ok(())
}

/// [`sort`] in AVX-512 registers.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
fn sort_avx512(keys: &mut Vec<u64>, spare: &mut Vec<u64>) -> Result<(), ChrfError> {
    let len = keys.len();
    let padded = len.next_multiple_of(avx512::RUN);
    reserve(keys, padded - len)?;
    keys.resize(padded, u64::MAX);
    resize_for_overwrite(spare, padded, 0)?;
    if avx512::sort(keys, &mut spare[..padded]) {
        std::mem::swap(keys, spare);
    }
    keys.truncate(len);
    Ok(())
}

#[cfg(target_arch = "x86_64")]
mod avx512 {
    use std::arch::x86_64::{
        __m512i, _mm512_loadu_si512, _mm512_mask_max_epu64, _mm512_max_epu64, _mm512_min_epu64,
        _mm512_permutexvar_epi64, _mm512_set_epi64, _mm512_storeu_si512,
    };

    /// The keys a run starts as (sorted by a network) and a merge step moves: two registers.
    pub(super) const RUN: usize = 16;

    /// Sorts `keys` (of a multiple of [`RUN`] keys, as many as `spare`); returns whether the sorted
    /// keys are in `spare` rather than in `keys`.
    #[target_feature(enable = "avx512f")]
    pub(super) fn sort(keys: &mut [u64], spare: &mut [u64]) -> bool {
        for run in keys.chunks_exact_mut(RUN) {
            if let Ok(run) = <&mut [u64; RUN]>::try_from(run) {
                let [low, high] = load(run);
                store(run, sort_16(low, high));
            }
        }
        let mut width = RUN;
        let mut in_spare = false;
        while width < keys.len() {
            let (from, to) = if in_spare {
                (&*spare, &mut *keys)
            } else {
                (&*keys, &mut *spare)
            };
            for (from, to) in from.chunks(2 * width).zip(to.chunks_mut(2 * width)) {
                match from.split_at_checked(width) {
                    Some((a, b)) if !b.is_empty() => merge(a, b, to),
                    _ => to.copy_from_slice(from),
                }
            }
            in_spare = !in_spare;
            width *= 2;
        }
        in_spare
    }

    /// Merges the sorted runs `a` and `b` (each of a multiple of [`RUN`] keys, at least one run)
    /// into `out`.
    #[target_feature(enable = "avx512f")]
    fn merge(a: &[u64], b: &[u64], out: &mut [u64]) {
        let (a_len, b_len) = (a.len(), b.len());
        let (Some(first_a), Some(first_b)) = (run_at(a, 0), run_at(b, 0)) else {
            return;
        };
        let (mut next_a, mut next_b) = (RUN, RUN);
        let (mut incoming, mut carried) = (load(first_a), load(first_b));
        let (body, last) = out.split_at_mut(out.len() - RUN);
        for step in body.chunks_exact_mut(RUN) {
            let (low, high) = merge_16(incoming, carried);
            if let Ok(step) = <&mut [u64; RUN]>::try_from(step) {
                store(step, low);
            }
            carried = high;
            // The run whose next key is the lower, or the one left; in the last step, neither is
            // left and the run read is not used. Indices are clamped, so that every read is in
            // bounds without a branch.
            let a_left = next_a < a_len;
            let b_left = next_b < b_len;
            let a_lower = a[next_a.min(a_len - 1)] <= b[next_b.min(b_len - 1)];
            let take_a = a_left & (!b_left | a_lower);
            let (keys, start) = if take_a {
                (a, next_a.min(a_len - RUN))
            } else {
                (b, next_b.min(b_len - RUN))
            };
            if let Some(run) = run_at(keys, start) {
                incoming = load(run);
            }
            next_a += RUN * usize::from(take_a);
            next_b += RUN * usize::from(!take_a);
        }
        if let Ok(last) = <&mut [u64; RUN]>::try_from(last) {
            store(last, carried);
        }
    }

    /// The [`RUN`] keys from `start`, if there are as many.
    fn run_at(keys: &[u64], start: usize) -> Option<&[u64; RUN]> {
        keys.get(start..start.checked_add(RUN)?)?.try_into().ok()
    }

    /// The 16 keys of a run, in two registers of 8.
    #[target_feature(enable = "avx512f")]
    fn load(run: &[u64; RUN]) -> [__m512i; 2] {
        let (low, high) = run.split_at(RUN / 2);
        // SAFETY: each half is 8 keys, the 64 bytes a load reads; it needs no alignment.
        #[allow(unsafe_code)]
        unsafe {
            [
                _mm512_loadu_si512(low.as_ptr().cast()),
                _mm512_loadu_si512(high.as_ptr().cast()),
            ]
        }
    }

    #[target_feature(enable = "avx512f")]
    fn store(run: &mut [u64; RUN], [low, high]: [__m512i; 2]) {
        let (low_half, high_half) = run.split_at_mut(RUN / 2);
        // SAFETY: each half is 8 keys, the 64 bytes a store writes; it needs no alignment.
        #[allow(unsafe_code)]
        unsafe {
            _mm512_storeu_si512(low_half.as_mut_ptr().cast(), low);
            _mm512_storeu_si512(high_half.as_mut_ptr().cast(), high);
        }
    }

    /// The lanes' min and max.
    #[target_feature(enable = "avx512f")]
    fn min_max(a: __m512i, b: __m512i) -> (__m512i, __m512i) {
        (_mm512_min_epu64(a, b), _mm512_max_epu64(a, b))
    }

    /// The lanes in reverse order.
    #[target_feature(enable = "avx512f")]
    fn reversed(keys: __m512i) -> __m512i {
        _mm512_permutexvar_epi64(_mm512_set_epi64(0, 1, 2, 3, 4, 5, 6, 7), keys)
    }

    /// One layer of a network inside a register: lane i against lane i ^ `PARTNER`, the lanes of
    /// `HIGH` taking the max.
    #[target_feature(enable = "avx512f")]
    fn layer<const PARTNER: i64, const HIGH: u8>(keys: __m512i) -> __m512i {
        let p = PARTNER;
        let partners = _mm512_set_epi64(7 ^ p, 6 ^ p, 5 ^ p, 4 ^ p, 3 ^ p, 2 ^ p, 1 ^ p, p);
        let other = _mm512_permutexvar_epi64(partners, keys);
        _mm512_mask_max_epu64(_mm512_min_epu64(keys, other), HIGH, keys, other)
    }

    /// A register's 8 keys sorted: bitonic, each merge starting by its reversed half.
    #[target_feature(enable = "avx512f")]
    fn sort_8(keys: __m512i) -> __m512i {
        let keys = layer::<1, 0b1010_1010>(keys);
        let keys = layer::<3, 0b1100_1100>(keys);
        let keys = layer::<1, 0b1010_1010>(keys);
        sorted_halves(layer::<7, 0b1111_0000>(keys))
    }

    /// A bitonic register's keys (rising then falling, or falling then rising) sorted.
    #[target_feature(enable = "avx512f")]
    fn sorted_bitonic_8(keys: __m512i) -> __m512i {
        sorted_halves(layer::<4, 0b1111_0000>(keys))
    }

    /// The keys of a register whose halves are bitonic, the lower half's keys at most the upper
    /// half's, sorted.
    #[target_feature(enable = "avx512f")]
    fn sorted_halves(keys: __m512i) -> __m512i {
        let keys = layer::<2, 0b1100_1100>(keys);
        layer::<1, 0b1010_1010>(keys)
    }

    /// 16 keys sorted.
    #[target_feature(enable = "avx512f")]
    fn sort_16(low: __m512i, high: __m512i) -> [__m512i; 2] {
        let (low, high) = min_max(sort_8(low), reversed(sort_8(high)));
        [sorted_bitonic_8(low), sorted_bitonic_8(high)]
    }

    /// Two sorted runs of 16 keys merged: the lower 16 and the higher 16, each sorted.
    #[target_feature(enable = "avx512f")]
    fn merge_16(a: [__m512i; 2], b: [__m512i; 2]) -> ([__m512i; 2], [__m512i; 2]) {
        let (low_0, high_0) = min_max(a[0], reversed(b[1]));
        let (low_1, high_1) = min_max(a[1], reversed(b[0]));
        (
            sorted_bitonic_16(low_0, low_1),
            sorted_bitonic_16(high_0, high_1),
        )
    }

    /// 16 bitonic keys sorted.
    #[target_feature(enable = "avx512f")]
    fn sorted_bitonic_16(low: __m512i, high: __m512i) -> [__m512i; 2] {
        let (low, high) = min_max(low, high);
        [sorted_bitonic_8(low), sorted_bitonic_8(high)]
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    /// Keys of every length up to 20 runs and a few longer, of few or many values, with zeros and
    /// `u64::MAX` (the padding's value) among them: sorted as the standard sort sorts them, by
    /// [`sort`] and, where the processor has AVX-512F, by the vector sort itself (which a test
    /// forcing the baseline elsewhere in the process could otherwise turn off).
    #[test]
    fn sorts_as_the_standard_sort() {
        let mut next = crate::seeded::below(0x6A09_E667_F3BC_C908);
        let (mut keys, mut spare) = (Vec::new(), Vec::new());
        let lengths = (0..=320).chain([333, 1000, 1024, 4095, 4096]);
        for (case, len) in lengths.enumerate() {
            let values = [3, 50, usize::MAX][case % 3];
            let unsorted: Vec<u64> = (0..len)
                .map(|_| match next(16) {
                    0 => 0,
                    1 => u64::MAX,
                    _ => next(values) as u64,
                })
                .collect();
            let mut expected = unsorted.clone();
            expected.sort_unstable();
            keys.clone_from(&unsorted);
            sort(&mut keys, &mut spare).unwrap();
            assert_eq!(keys, expected, "{len} keys of {values} values");
            #[cfg(target_arch = "x86_64")]
            if is_x86_feature_detected!("avx512f") {
                keys.clone_from(&unsorted);
                // SAFETY: the processor has AVX-512F.
                #[allow(unsafe_code)]
                unsafe { sort_avx512(&mut keys, &mut spare) }.unwrap();
                assert_eq!(keys, expected, "{len} keys of {values} values, AVX-512");
            }
        }
    }
}
