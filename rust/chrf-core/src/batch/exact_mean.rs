//! Exact weighted means of doubles, the arithmetic of MBR's expected utility: Σ w·x in fixed
//! point, no float anywhere, then one correctly rounded division by Σ w.

use num_bigint::{BigInt, BigUint, Sign};
use num_rational::BigRational;
use num_traits::{ToPrimitive, Zero};

use crate::memory::filled;
use crate::ChrfError;

/// A weight of a reference: `mantissa` · 2^`shift`, exactly. Every finite non-negative double,
/// and every integer or dyadic fraction of at most 64 significant bits, is one once the weights
/// share a denominator; the shifts let weights span the whole range of doubles (a model's
/// probabilities 1 and 1e-300 side by side), which no fixed width of integers could.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weight {
    pub mantissa: u64,
    pub shift: u32,
}

impl From<u64> for Weight {
    fn from(mantissa: u64) -> Self {
        Self { mantissa, shift: 0 }
    }
}

impl Weight {
    /// The weight as an integer.
    pub(crate) fn value(self) -> BigUint {
        BigUint::from(self.mantissa) << self.shift
    }
}

pub(crate) fn all_zero() -> ChrfError {
    ChrfError::InvalidSettings(crate::SettingsRule::WeightsAllZero)
}

/// Limbs of an [`ExactMean`]'s sum for weights of shifts up to `max_shift`: 35 x 64 = 2,240
/// bits, two's complement, when no weight is shifted.
///
/// Why that is wide enough: the sum counts units of 2^-1074, the least subnormal double, so
/// that every finite double is an integer number of units, below 2^1024 · 2^1074 = 2^2098 in
/// magnitude. The weights' total is below 2^(128 + max_shift) (a u128 of checked additions
/// unshifted; fewer than 2^32 references of weights below 2^(64 + max_shift) shifted), so the
/// sum of any of the terms is below 2^(2226 + max_shift) in magnitude, within the two's
/// complement range of the limbs, whichever terms they hold so far. (A carry out of the top limb
/// is the wrap of two's complement addition, exact since the true sum is in range.) A term fits
/// too: the least bit of a double with biased exponent e is unit 2^(max(e, 1) - 1), at most
/// 2^2045, shifted by at most `max_shift`; a 53-bit mantissa times a 128-bit weight, 181 bits,
/// spans 4 limbs from there, ending in the top limb at most; so does a bucket's carry, 2^128
/// units of its exponent.
fn limbs_for(max_shift: u32) -> usize {
    (2045 + max_shift as usize) / 64 + 4
}

/// The exponent of the sum's unit.
const UNIT_EXPONENT: i64 = -1074;

/// Biased exponents of finite doubles: 0 (zero and subnormals) to 2046.
const EXPONENTS: usize = 2047;

/// A weighted mean of doubles computed exactly: Σ w·x in fixed point, then one correctly
/// rounded division by Σ w.
#[derive(Clone, Debug)]
pub(crate) struct ExactMean {
    /// Σ w·x in units of 2^-1074, two's complement, least significant limb first, less what
    /// the buckets hold.
    limbs: Vec<u64>,
    /// Per biased exponent: the sum of mantissa · weight of the positive terms of weight below
    /// 2^64 of that exponent not yet in the limbs (a carry out of 128 bits goes to the limbs at
    /// once). The terms of a row of scores share a few exponents, so that most additions are
    /// one 128-bit addition; the limbs take the buckets once, at the mean.
    buckets: Vec<u128>,
    /// Bit g set when a bucket of the group of 64 exponents from 64·g may be non-zero.
    groups: u32,
    /// Σ w.
    weight: u128,
}

impl ExactMean {
    /// A mean with room for weights shifted by up to `max_shift` bits ([`Self::add_shifted`]).
    pub(crate) fn with_shifts(max_shift: u32) -> Result<Self, ChrfError> {
        Ok(Self {
            limbs: filled(limbs_for(max_shift), 0)?,
            buckets: filled(EXPONENTS, 0)?,
            groups: 0,
            weight: 0,
        })
    }

    /// Adds `value` with weight `weight`: refuses a non-finite value, and a total weight past
    /// 2^128 - 1 (the bound [`limbs_for`] is sized for).
    pub(crate) fn add(&mut self, value: f64, weight: u128) -> Result<(), ChrfError> {
        let parts = parts(value)?;
        self.weight = self
            .weight
            .checked_add(weight)
            .ok_or(ChrfError::CountOverflow)?;
        match u64::try_from(weight) {
            Ok(weight) => self.add_parts(parts, weight),
            Err(_) => {
                let (biased, mantissa, negative) = parts;
                self.add_at_position(position(biased), times(mantissa, weight), negative);
            }
        }
        Ok(())
    }

    /// Adds each value with its weight. Weights below 2^64, fewer than 2^63 of them (a slice's
    /// length is at most isize::MAX): their sum is below 2^127, checked once against the total.
    pub(crate) fn add_all(&mut self, values: &[f64], weights: &[u64]) -> Result<(), ChrfError> {
        let mut weight = 0u128;
        for (&value, &w) in values.iter().zip(weights) {
            weight += u128::from(w);
            self.add_parts(parts(value)?, w);
        }
        self.weight = self
            .weight
            .checked_add(weight)
            .ok_or(ChrfError::CountOverflow)?;
        Ok(())
    }

    /// Adds each value with weight 1.
    pub(crate) fn add_ones(&mut self, values: &[f64]) -> Result<(), ChrfError> {
        for &value in values {
            self.add_parts(parts(value)?, 1);
        }
        // A slice's length is at most isize::MAX.
        self.weight = self
            .weight
            .checked_add(values.len() as u128)
            .ok_or(ChrfError::CountOverflow)?;
        Ok(())
    }

    /// Adds a value of `parts` with weight `weight`, leaving the total weight to the caller.
    #[inline]
    fn add_parts(&mut self, (biased, mantissa, negative): (usize, u64, bool), weight: u64) {
        // Below 2^53 · 2^64 = 2^117.
        let product = u128::from(mantissa) * u128::from(weight);
        if negative {
            let product = [product as u64, (product >> 64) as u64, 0];
            self.add_at_position(position(biased), product, true);
            return;
        }
        let (sum, carry) = self.buckets[biased].overflowing_add(product);
        self.buckets[biased] = sum;
        if carry {
            self.add_at_position(position(biased), [0, 0, 1], false);
        }
        self.groups |= 1 << (biased / 64);
    }

    /// Adds `value` with weight `weight` shifted, leaving the total weight to the caller
    /// ([`Self::take_mean_over`]): refuses a non-finite value, and a shift past the mean's room.
    pub(crate) fn add_shifted(&mut self, value: f64, weight: Weight) -> Result<(), ChrfError> {
        let (biased, mantissa, negative) = parts(value)?;
        let at = position(biased) + weight.shift as usize;
        if at / 64 + 4 > self.limbs.len() {
            return Err(ChrfError::CountOverflow);
        }
        // Below 2^53 · 2^64 = 2^117.
        let product = u128::from(mantissa) * u128::from(weight.mantissa);
        self.add_at_position(at, [product as u64, (product >> 64) as u64, 0], negative);
        Ok(())
    }

    /// Adds (or subtracts) `value` times 2^`position` units to the limbs.
    fn add_at_position(&mut self, position: usize, value: [u64; 3], negative: bool) {
        let term = shifted(value, (position % 64) as u32);
        let at = position / 64;
        if negative {
            self.subtract_at(at, term);
        } else {
            self.add_at(at, term);
        }
    }

    fn add_at(&mut self, at: usize, term: [u64; 4]) {
        let mut carry = false;
        for (limb, &t) in self.limbs[at..].iter_mut().zip(&term) {
            let (sum, first) = limb.overflowing_add(t);
            let (sum, second) = sum.overflowing_add(u64::from(carry));
            (*limb, carry) = (sum, first || second);
        }
        for limb in &mut self.limbs[at + term.len()..] {
            if !carry {
                break;
            }
            (*limb, carry) = limb.overflowing_add(1);
        }
    }

    fn subtract_at(&mut self, at: usize, term: [u64; 4]) {
        let mut borrow = false;
        for (limb, &t) in self.limbs[at..].iter_mut().zip(&term) {
            let (difference, first) = limb.overflowing_sub(t);
            let (difference, second) = difference.overflowing_sub(u64::from(borrow));
            (*limb, borrow) = (difference, first || second);
        }
        for limb in &mut self.limbs[at + term.len()..] {
            if !borrow {
                break;
            }
            (*limb, borrow) = limb.overflowing_sub(1);
        }
    }

    /// Moves the buckets into the limbs.
    fn flush(&mut self) {
        while self.groups != 0 {
            let group = self.groups.trailing_zeros() as usize;
            self.groups &= self.groups - 1;
            for biased in 64 * group..(64 * group + 64).min(EXPONENTS) {
                let bucket = std::mem::take(&mut self.buckets[biased]);
                if bucket != 0 {
                    let bucket = [bucket as u64, (bucket >> 64) as u64, 0];
                    self.add_at_position(position(biased), bucket, false);
                }
            }
        }
    }

    /// Σ w·x, exactly.
    #[cfg(test)]
    fn sum(&mut self) -> BigRational {
        self.flush();
        self.sum_over(BigInt::from(1u8))
    }

    /// Σ w·x / Σ w rounded once to the nearest double, ties to even (num-rational's conversion,
    /// which rounds correctly, as CPython's int division does); the mean is then emptied.
    pub(crate) fn take_mean(&mut self) -> Result<f64, ChrfError> {
        let total = BigInt::from(std::mem::take(&mut self.weight));
        self.take_mean_over(total)
    }

    /// As [`Self::take_mean`], for terms added by [`Self::add_shifted`], whose weights sum to
    /// `total`.
    pub(crate) fn take_mean_over(&mut self, total: BigInt) -> Result<f64, ChrfError> {
        if total.is_zero() {
            return Err(all_zero());
        }
        self.flush();
        let mean = self
            .sum_over(total)
            .to_f64()
            .ok_or_else(|| ChrfError::CrossCheckFailed("a weighted mean".into()));
        self.limbs.fill(0);
        self.weight = 0;
        mean
    }

    /// Σ w·x / `denominator`, unreduced.
    fn sum_over(&self, denominator: BigInt) -> BigRational {
        let negative = self.limbs.last().is_some_and(|&top| top >> 63 == 1);
        let negated_limbs;
        let magnitude = if negative {
            negated_limbs = negated(&self.limbs);
            &negated_limbs
        } else {
            &self.limbs
        };
        // Whole zero limbs at the bottom become a smaller power of two: most sums have
        // hundreds of them, and the division is then of a few limbs.
        let Some(low) = magnitude.iter().position(|&limb| limb != 0) else {
            return BigRational::new_raw(BigInt::zero(), denominator);
        };
        let digits = magnitude[low..]
            .iter()
            .flat_map(|&limb| [limb as u32, (limb >> 32) as u32])
            .collect();
        let sign = if negative { Sign::Minus } else { Sign::Plus };
        let mut numerator = BigInt::from_biguint(sign, BigUint::new(digits));
        let mut denominator = denominator;
        let exponent = 64 * low as i64 + UNIT_EXPONENT;
        if exponent >= 0 {
            numerator <<= exponent as usize;
        } else {
            denominator <<= exponent.unsigned_abs() as usize;
        }
        BigRational::new_raw(numerator, denominator)
    }
}

/// A finite double as (biased exponent, mantissa, sign): ±mantissa · 2^(max(biased, 1) - 1)
/// units of 2^-1074 (subnormals have no implicit bit). A non-finite one is refused.
#[inline]
fn parts(value: f64) -> Result<(usize, u64, bool), ChrfError> {
    let bits = value.to_bits();
    let biased = ((bits >> 52) & 0x7ff) as usize;
    if biased == 0x7ff {
        return Err(ChrfError::CrossCheckFailed(format!(
            "a weighted mean of {value}"
        )));
    }
    let implicit = u64::from(biased != 0) << 52;
    Ok((biased, (bits & ((1 << 52) - 1)) | implicit, bits >> 63 == 1))
}

/// The unit of the least bit of a double of biased exponent `biased`: 2^position units of the
/// sum (subnormals share the unit of biased exponent 1).
#[inline]
fn position(biased: usize) -> usize {
    biased.max(1) - 1
}

/// A 53-bit mantissa times a 128-bit weight: 181 bits, as three limbs.
fn times(mantissa: u64, weight: u128) -> [u64; 3] {
    let mantissa = u128::from(mantissa);
    let low = mantissa * (weight as u64 as u128); // below 2^117
    let high = mantissa * (weight >> 64); // below 2^117
    let middle = (low >> 64) + (high as u64 as u128); // below 2^65
    [
        low as u64,
        middle as u64,
        ((high >> 64) + (middle >> 64)) as u64, // below 2^54
    ]
}

/// Three limbs shifted left by `bits` (below 64) into four.
fn shifted([a, b, c]: [u64; 3], bits: u32) -> [u64; 4] {
    if bits == 0 {
        return [a, b, c, 0];
    }
    let back = 64 - bits;
    [
        a << bits,
        (b << bits) | (a >> back),
        (c << bits) | (b >> back),
        c >> back,
    ]
}

/// The two's complement negation of the limbs.
fn negated(limbs: &[u64]) -> Vec<u64> {
    let mut out = vec![0; limbs.len()];
    let mut carry = true;
    for (out, &limb) in out.iter_mut().zip(limbs) {
        (*out, carry) = (!limb).overflowing_add(u64::from(carry));
    }
    out
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::batch::tests::{exact, Bits};

    fn mean_of(terms: &[(f64, u128)]) -> ExactMean {
        let mut mean = ExactMean::with_shifts(0).unwrap();
        for &(value, weight) in terms {
            mean.add(value, weight).unwrap();
        }
        mean
    }

    #[test]
    fn sums_equal_num_rational_sums() {
        let mut bits = Bits(0x9E37_79B9_7F4A_7C15);
        for _ in 0..300 {
            let terms: Vec<(f64, u128)> = (0..bits.next() % 40)
                .map(|_| (bits.double(), bits.weight()))
                .collect();
            // Summed as integers of units of 2^-1074: rational additions would reduce each time.
            let unit = BigInt::from(1u8) << 1074usize;
            let units = terms.iter().fold(BigInt::zero(), |sum, &(value, weight)| {
                sum + (exact(value) * &unit).to_integer() * BigInt::from(weight)
            });
            let expected = BigRational::new(units, unit);
            let mut mean = mean_of(&terms);
            assert_eq!(mean.sum(), expected, "{terms:?}");
            // The order of the terms does not matter: the limbs are the same.
            let reversed: Vec<_> = terms.iter().rev().copied().collect();
            let mut reversed = mean_of(&reversed);
            reversed.flush();
            assert_eq!(reversed.limbs, mean.limbs);
            // Nor how they are added: one by one or as a row of 64-bit weights.
            if terms.iter().all(|&(_, w)| u64::try_from(w).is_ok()) {
                let (values, weights): (Vec<f64>, Vec<u64>) =
                    terms.iter().map(|&(v, w)| (v, w as u64)).unzip();
                let mut row = ExactMean::with_shifts(0).unwrap();
                row.add_all(&values, &weights).unwrap();
                row.flush();
                assert_eq!((&row.limbs, row.weight), (&mean.limbs, mean.weight));
                let (mut ones, mut unit) = (
                    ExactMean::with_shifts(0).unwrap(),
                    ExactMean::with_shifts(0).unwrap(),
                );
                ones.add_ones(&values).unwrap();
                unit.add_all(&values, &vec![1; values.len()]).unwrap();
                ones.flush();
                unit.flush();
                assert_eq!((ones.limbs, ones.weight), (unit.limbs, unit.weight));
            }
            let total: u128 = terms.iter().map(|&(_, w)| w).sum();
            if total > 0 {
                let quotient = expected / BigRational::from(BigInt::from(total));
                assert_eq!(mean.take_mean().unwrap(), quotient.to_f64().unwrap());
            }
        }
    }

    #[test]
    fn extremes_are_exact() {
        let max = u128::MAX;
        // The largest double with the largest weight, and its cancellation.
        let mut huge = mean_of(&[(f64::MAX, max)]);
        assert_eq!(
            huge.sum(),
            exact(f64::MAX) * BigRational::from(BigInt::from(max))
        );
        assert_eq!(huge.take_mean().unwrap(), f64::MAX);
        let mut cancelled = mean_of(&[(f64::MAX, max / 2), (-f64::MAX, max / 2)]);
        assert_eq!(cancelled.sum(), BigRational::zero());
        assert_eq!(cancelled.take_mean().unwrap(), 0.0);
        let tiny = f64::from_bits(1); // 2^-1074
        assert_eq!(mean_of(&[(tiny, 1)]).take_mean().unwrap(), tiny);
        assert_eq!(
            mean_of(&[(tiny, 3), (-tiny, 1)]).sum(),
            exact(tiny) * BigInt::from(2)
        );
        assert_eq!(mean_of(&[(-100.0, 7)]).take_mean().unwrap(), -100.0);
        assert_eq!(
            mean_of(&[(0.0, 5), (-0.0, 5)])
                .take_mean()
                .unwrap()
                .to_bits(),
            0
        );
    }

    #[test]
    fn a_full_bucket_carries_into_the_limbs() {
        // Mantissas of 53 ones times weights of 64 ones: a bucket overflows every 2^11 terms.
        let widest = f64::from_bits(2.0f64.to_bits() - 1);
        let weight = u128::from(u64::MAX);
        let count = 5_000u32;
        let mut terms = vec![(widest, weight); count as usize];
        terms.push((-widest, 1)); // a negative term, and a weight past 64 bits, go to the limbs
        terms.push((widest, weight + 2));
        let mut mean = mean_of(&terms);
        let expected = exact(widest) * BigInt::from(weight * u128::from(count + 1) + 1);
        assert_eq!(mean.sum(), expected);
    }

    #[test]
    fn the_mean_rounds_once_to_nearest_ties_to_even() {
        let one_up = f64::from_bits(1.0f64.to_bits() + 1); // 1 + 2^-52, odd mantissa
        let two_up = f64::from_bits(1.0f64.to_bits() + 2);
        // Halfway between 1 and 1 + 2^-52: to 1, whose mantissa is even.
        assert_eq!(mean_of(&[(1.0, 1), (one_up, 1)]).take_mean().unwrap(), 1.0);
        // Halfway between 1 + 2^-52 and 1 + 2^-51: up, to the even one.
        assert_eq!(
            mean_of(&[(one_up, 1), (two_up, 1)]).take_mean().unwrap(),
            two_up
        );
        // Just past halfway: up, though the tie would go down.
        assert_eq!(
            mean_of(&[(1.0, 99), (one_up, 101)]).take_mean().unwrap(),
            one_up
        );
        // Subnormals: 2^-1075 is halfway between 0 and 2^-1074 (to 0); 1.5 · 2^-1074 between
        // 2^-1074 and 2^-1073 (to 2^-1073).
        let tiny = f64::from_bits(1);
        assert_eq!(mean_of(&[(tiny, 1), (0.0, 1)]).take_mean().unwrap(), 0.0);
        assert_eq!(
            mean_of(&[(3.0 * tiny, 1), (0.0, 1)]).take_mean().unwrap(),
            2.0 * tiny
        );
        assert_eq!(
            mean_of(&[(-3.0 * tiny, 1), (0.0, 1)]).take_mean().unwrap(),
            -2.0 * tiny
        );
        // One rounding, not two: a float sum would round (1 + 2^-52) + 2^-53 first.
        let third = mean_of(&[(1.0, 1), (one_up, 1), (1.0, 1)])
            .take_mean()
            .unwrap();
        assert_eq!(third, 1.0);
        // A mean of 100s is 100, whatever the weights.
        assert_eq!(
            mean_of(&[(100.0, u128::from(u64::MAX)), (100.0, 3)])
                .take_mean()
                .unwrap(),
            100.0
        );
    }

    #[test]
    fn refusals() {
        let mut mean = ExactMean::with_shifts(0).unwrap();
        assert!(mean.add(f64::NAN, 1).is_err());
        assert!(mean.add(f64::INFINITY, 1).is_err());
        assert_eq!(mean.take_mean(), Err(all_zero()));
        mean.add(1.0, u128::MAX).unwrap();
        assert_eq!(mean.add(1.0, 1), Err(ChrfError::CountOverflow));
    }

    /// Terms of shifted weights: doubles of every kind, mantissas of up to 64 bits, shifts
    /// across the range of doubles and past it.
    fn shifted_terms(bits: &mut Bits) -> Vec<(f64, Weight)> {
        (0..bits.next() % 30)
            .map(|_| {
                let mantissa = bits.weight() as u64;
                let shift = match bits.next() % 3 {
                    0 => 0,
                    1 => (bits.next() % 64) as u32,
                    _ => (bits.next() % 2200) as u32,
                };
                (bits.double(), Weight { mantissa, shift })
            })
            .collect()
    }

    #[test]
    fn shifted_weights_sum_exactly() {
        let mut bits = Bits(0x0123_4567_89AB_CDEF);
        for _ in 0..300 {
            let terms = shifted_terms(&mut bits);
            let unit = BigInt::from(1u8) << 1074usize;
            let units = terms.iter().fold(BigInt::zero(), |sum, &(value, weight)| {
                sum + (exact(value) * &unit).to_integer() * BigInt::from(weight.value())
            });
            let expected = BigRational::new(units, unit);
            let max_shift = terms.iter().map(|(_, w)| w.shift).max().unwrap_or(0);
            let mut mean = ExactMean::with_shifts(max_shift).unwrap();
            let mut reversed = ExactMean::with_shifts(max_shift).unwrap();
            for &(value, weight) in &terms {
                mean.add_shifted(value, weight).unwrap();
            }
            for &(value, weight) in terms.iter().rev() {
                reversed.add_shifted(value, weight).unwrap();
            }
            assert_eq!(mean.sum(), expected, "{terms:?}");
            assert_eq!(reversed.limbs, mean.limbs);
            let total: BigUint = terms.iter().map(|&(_, w)| w.value()).sum();
            if !total.is_zero() {
                let quotient = expected / BigRational::from(BigInt::from(total.clone()));
                let got = mean.take_mean_over(BigInt::from(total)).unwrap();
                assert_eq!(got, quotient.to_f64().unwrap(), "{terms:?}");
            }
        }
    }

    #[test]
    fn unshifted_weights_add_alike_either_way() {
        let mut bits = Bits(99);
        let terms: Vec<(f64, u64)> = (0..50)
            .map(|_| (bits.double(), bits.weight() as u64))
            .collect();
        let (mut plain, mut shifted) = (
            ExactMean::with_shifts(0).unwrap(),
            ExactMean::with_shifts(0).unwrap(),
        );
        for &(value, weight) in &terms {
            plain.add(value, u128::from(weight)).unwrap();
            shifted.add_shifted(value, Weight::from(weight)).unwrap();
        }
        plain.flush();
        assert_eq!(plain.limbs, shifted.limbs);
    }

    #[test]
    fn the_widest_shifted_terms_fit() {
        // The largest double at the largest weight, and the least subnormal at the least.
        let shift = 4000;
        let widest = Weight {
            mantissa: u64::MAX,
            shift,
        };
        let mut mean = ExactMean::with_shifts(shift).unwrap();
        mean.add_shifted(f64::MAX, widest).unwrap();
        mean.add_shifted(f64::from_bits(1), Weight::from(1))
            .unwrap();
        let expected = exact(f64::MAX) * BigRational::from(BigInt::from(widest.value()))
            + exact(f64::from_bits(1));
        assert_eq!(mean.sum(), expected);
        mean.add_shifted(-f64::MAX, widest).unwrap();
        assert_eq!(mean.sum(), exact(f64::from_bits(1)));
        // A shift past the room the mean was made for is refused, not wrapped.
        let mut narrow = ExactMean::with_shifts(0).unwrap();
        let past = Weight {
            mantissa: 1,
            shift: 200,
        };
        assert_eq!(
            narrow.add_shifted(f64::MAX, past),
            Err(ChrfError::CountOverflow)
        );
    }
}
