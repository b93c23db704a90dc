//! Weights given as exact ratios, scaled to the smallest integers in the same proportions, as
//! reference aggregation and the expected utility take them: the common denominator's
//! arithmetic in wide integers, so that any int, fraction or float weight is exact.

use num_bigint::BigUint;
use num_integer::Integer;
use num_traits::{ToPrimitive, Zero};

use crate::{ChrfError, SettingsRule};

/// The widest shift of a piece: weights spanning more than 2^65536, far beyond the 2^2098 of
/// floats, would size the exact sums by their span.
pub const MAX_WEIGHT_SHIFT: u64 = 1 << 16;

/// One piece of a scaled weight: reference `.0`'s weight is the sum of its pieces'
/// mantissa `.1` · 2^shift `.2`.
pub type WeightPiece = (usize, u64, u32);

/// Weights, each an exact ratio (numerator, denominator; the denominator positive), as the
/// smallest integers in the same proportions. Refused: weights all 0.
pub fn smallest_integers(ratios: &[(BigUint, BigUint)]) -> Result<Vec<BigUint>, ChrfError> {
    let common = ratios
        .iter()
        .fold(BigUint::from(1u8), |lcm, (_, d)| lcm.lcm(d));
    let mut integers = Vec::new();
    integers
        .try_reserve_exact(ratios.len())
        .map_err(|_| out_of_memory::<BigUint>(ratios.len()))?;
    integers.extend(ratios.iter().map(|(n, d)| n * (&common / d)));
    let divisor = integers.iter().fold(BigUint::ZERO, |gcd, w| gcd.gcd(w));
    if divisor.is_zero() {
        return Err(ChrfError::InvalidSettings(SettingsRule::WeightsAllZero));
    }
    for integer in &mut integers {
        *integer /= &divisor;
    }
    Ok(integers)
}

/// Weights, each an exact ratio (numerator, denominator; the denominator positive), as pieces
/// of [`smallest_integers`]. A weight below 2^64 is one piece of shift 0 (the fast paths are
/// for unshifted weights); a wider one is shifted by its trailing zero bits and split into its
/// non-zero 64-bit digits. Refused: weights all 0, and weights spanning more than
/// 2^[`MAX_WEIGHT_SHIFT`] ([`ChrfError::WeightSpan`]).
pub fn scaled_weights(ratios: &[(BigUint, BigUint)]) -> Result<Vec<WeightPiece>, ChrfError> {
    let integers = smallest_integers(ratios)?;
    let mut pieces = Vec::new();
    pieces
        .try_reserve_exact(ratios.len())
        .map_err(|_| out_of_memory::<WeightPiece>(ratios.len()))?;
    for (j, integer) in integers.into_iter().enumerate() {
        if let Some(weight) = integer.to_u64() {
            pieces.push((j, weight, 0));
            continue;
        }
        if integer.bits() > MAX_WEIGHT_SHIFT + 64 {
            return Err(ChrfError::WeightSpan {
                max_shift: MAX_WEIGHT_SHIFT,
            });
        }
        let shift = integer.trailing_zeros().unwrap_or(0);
        let mantissa = integer >> shift;
        for (k, digit) in mantissa.iter_u64_digits().enumerate() {
            if digit != 0 {
                let at = shift + 64 * k as u64;
                // Below MAX_WEIGHT_SHIFT + 64 bits, checked above: a u32.
                let at = u32::try_from(at).map_err(|_| ChrfError::WeightSpan {
                    max_shift: MAX_WEIGHT_SHIFT,
                })?;
                pieces
                    .try_reserve(1)
                    .map_err(|_| out_of_memory::<WeightPiece>(1))?;
                pieces.push((j, digit, at));
            }
        }
    }
    Ok(pieces)
}

fn out_of_memory<T>(count: usize) -> ChrfError {
    ChrfError::OutOfMemory {
        bytes: count.saturating_mul(std::mem::size_of::<T>()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ratios(values: &[(u128, u128)]) -> Vec<(BigUint, BigUint)> {
        values
            .iter()
            .map(|&(n, d)| (BigUint::from(n), BigUint::from(d)))
            .collect()
    }

    #[test]
    fn integers_and_fractions_scale_to_the_smallest_integers() {
        let pieces = scaled_weights(&ratios(&[(2, 1), (4, 1), (6, 1)]));
        assert_eq!(pieces, Ok(vec![(0, 1, 0), (1, 2, 0), (2, 3, 0)]));
        let harmonic = scaled_weights(&ratios(&[(1, 1), (1, 2), (1, 3)]));
        assert_eq!(harmonic, Ok(vec![(0, 6, 0), (1, 3, 0), (2, 2, 0)]));
        let zero = scaled_weights(&ratios(&[(0, 1), (5, 7)]));
        assert_eq!(zero, Ok(vec![(0, 0, 0), (1, 1, 0)]));
    }

    #[test]
    fn the_smallest_integers_are_the_pieces_summed() {
        let wide = ratios(&[(3 << 80, 1), (1, 2), (0, 5)]);
        let integers: Vec<BigUint> = [6u128 << 80, 1, 0].map(BigUint::from).into();
        assert_eq!(smallest_integers(&wide), Ok(integers));
    }

    #[test]
    fn wide_weights_split_into_shifted_digits() {
        let wide = (1u128 << 64) + 1;
        let pieces = scaled_weights(&ratios(&[(wide, 1), (1, 1)]));
        assert_eq!(pieces, Ok(vec![(0, 1, 0), (0, 1, 64), (1, 1, 0)]));
        let shifted = scaled_weights(&ratios(&[(3 << 80, 1), (1, 1)]));
        assert_eq!(shifted, Ok(vec![(0, 3, 80), (1, 1, 0)]));
    }

    #[test]
    fn all_zero_and_too_wide_a_span_are_refused() {
        let zero = scaled_weights(&ratios(&[(0, 1), (0, 3)]));
        assert_eq!(
            zero,
            Err(ChrfError::InvalidSettings(SettingsRule::WeightsAllZero))
        );
        let tiny = (BigUint::from(1u8), BigUint::from(1u8) << 70_000u32);
        let one = (BigUint::from(1u8), BigUint::from(1u8));
        let span = scaled_weights(&[tiny, one.clone(), one]);
        assert_eq!(
            span,
            Err(ChrfError::WeightSpan {
                max_shift: MAX_WEIGHT_SHIFT
            })
        );
    }
}
