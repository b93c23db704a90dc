//! Which instruction set the matching runs in: the x86-64 baseline every wheel is built for, or
//! x86-64-v3 (AVX2, BMI1, BMI2, LZCNT, POPCNT, MOVBE), chosen at run time when the processor has
//! it. The wheel stays portable, and a processor of the last decade runs the second copy, whose
//! bit scans and shifts take one instruction each. Both copies are compiled from the same source
//! (see `two_copies!`) and count the same integers: tests run both.
//!
//! The copies are the hot functions of the matching, each out of line in both instruction sets
//! ([`crate::ngrams`]' sorted path, its sort, and the bit-parallel path). Compiling the whole
//! segment path in one copy, everything inlined into it, costs more in either instruction set
//! than it saves (benches/NOTES.md).
//!
//! Where the processor also has AVX-512F and BW, a sentence's 64-bit keys are sorted in its
//! registers, and text of an alphabet is decoded 64 bytes at a time (see [`runs_avx512`]): the
//! keys come out the same, in the same order, as from the standard sort, and the ids tell the
//! same code points apart.
//! Where it has AVX-512's population count too, the bit-parallel path counts eight hypothesis
//! positions at a time (see [`runs_avx512_popcnt`]), to the same integers.

use std::sync::atomic::{AtomicU8, Ordering};

/// The levels the choice can take, each with every feature of the one below.
const UNKNOWN: u8 = 0;
const BASELINE: u8 = 1;
const V3: u8 = 2;
const V3_AVX512: u8 = 3;
const V3_AVX512_POPCNT: u8 = 4;

/// The choice, made once: an atomic load per call of a copied function afterwards.
static CHOICE: AtomicU8 = AtomicU8::new(UNKNOWN);

#[inline]
fn level() -> u8 {
    match CHOICE.load(Ordering::Relaxed) {
        UNKNOWN => detect(),
        level => level,
    }
}

/// Whether the matching runs its x86-64-v3 copies: the processor has every feature that copy is
/// compiled for, and the baseline is not forced (see [`force_baseline`]).
#[inline]
pub fn runs_v3() -> bool {
    level() >= V3
}

/// Whether the x86-64-v3 copies also sort and decode in AVX-512 registers: [`runs_v3`], and the
/// processor has AVX-512F and BW.
#[inline]
pub fn runs_avx512() -> bool {
    level() >= V3_AVX512
}

/// Whether the x86-64-v3 copies also count bit-parallel matches in AVX-512 registers:
/// [`runs_avx512`], and the processor has AVX-512's population count of 64-bit lanes.
#[inline]
pub fn runs_avx512_popcnt() -> bool {
    level() >= V3_AVX512_POPCNT
}

#[cold]
fn detect() -> u8 {
    #[cfg(target_arch = "x86_64")]
    let has = std::env::var_os("CHRF_BASELINE_ISA").is_none()
        && is_x86_feature_detected!("avx2")
        && is_x86_feature_detected!("bmi1")
        && is_x86_feature_detected!("bmi2")
        && is_x86_feature_detected!("lzcnt")
        && is_x86_feature_detected!("popcnt")
        && is_x86_feature_detected!("movbe");
    #[cfg(target_arch = "x86_64")]
    let choice = match (
        has,
        is_x86_feature_detected!("avx512f") && is_x86_feature_detected!("avx512bw"),
        is_x86_feature_detected!("avx512vpopcntdq"),
    ) {
        (true, true, true) => V3_AVX512_POPCNT,
        (true, true, false) => V3_AVX512,
        (true, false, _) => V3,
        (false, ..) => BASELINE,
    };
    #[cfg(not(target_arch = "x86_64"))]
    let choice = BASELINE;
    // Racing threads detect the same thing; a forced baseline since the load stays.
    match CHOICE.compare_exchange(UNKNOWN, choice, Ordering::Relaxed, Ordering::Relaxed) {
        Ok(_) => choice,
        Err(current) => current,
    }
}

/// Runs the matching in its baseline copies (without AVX-512) from now on (`true`), or
/// lets the processor choose again (`false`): for the tests that hold both copies to the same
/// results, and for anyone ruling the second copy out. `CHRF_BASELINE_ISA` set in the
/// environment at the first match does the same for the whole process.
pub fn force_baseline(baseline: bool) {
    CHOICE.store(if baseline { BASELINE } else { UNKNOWN }, Ordering::Relaxed);
}

/// `two_copies! { fn name[generics](args) -> R = inlined; }` defines `name`, which runs
/// `inlined` (an `#[inline(always)]` function of the same arguments) compiled twice, each copy
/// out of line: for x86-64-v3 where [`runs_v3`] says so, else for the baseline. What `inlined`
/// inlines is compiled into each copy; what it calls out of line is not (so a hot function it
/// calls takes copies of its own).
macro_rules! two_copies {
    (
        $(#[$meta:meta])*
        $vis:vis fn $name:ident [$($generics:tt)*] ($($arg:ident: $ty:ty),* $(,)?) $(-> $ret:ty)?
            = $inlined:ident;
    ) => {
        $(#[$meta])*
        $vis fn $name<$($generics)*>($($arg: $ty),*) $(-> $ret)? {
            #[cfg(target_arch = "x86_64")]
            #[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt,movbe")]
            #[allow(unsafe_code)]
            #[inline(never)]
            unsafe fn v3<$($generics)*>($($arg: $ty),*) $(-> $ret)? {
                $inlined($($arg),*)
            }
            #[inline(never)]
            fn baseline<$($generics)*>($($arg: $ty),*) $(-> $ret)? {
                $inlined($($arg),*)
            }
            #[cfg(target_arch = "x86_64")]
            if $crate::isa::runs_v3() {
                // SAFETY: `runs_v3()` is true only where the processor has every feature the copy
                // is compiled for.
                #[allow(unsafe_code)]
                return unsafe { v3($($arg),*) };
            }
            baseline($($arg),*)
        }
    };
}
pub(crate) use two_copies;
