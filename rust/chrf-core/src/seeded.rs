//! Test data's randomness, shared by the crate's tests.

/// A seeded xorshift generator of numbers below its argument: test data that is the same on
/// every run and machine, with no dependency for it.
pub(crate) fn below(seed: u64) -> impl FnMut(usize) -> usize {
    let mut state = seed;
    move |below: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % below as u64) as usize
    }
}
