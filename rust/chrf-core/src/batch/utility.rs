//! MBR's expected utility: each hypothesis's weighted mean score over the references,
//! Σ_j w_j·s_ij / Σ_j w_j, exact, without the n x m matrix.
//!
//! The scores s_ij are the pairwise scores of pairwise.rs, made a row at a time and summed as they
//! are made: a worker holds one row (a few numbers per distinct reference), so memory grows with
//! the texts, not with their pairs. The sum is exact: each term w·s is added to a fixed-point
//! integer wide enough for any finite double times any weight ([`ExactMean`]), and the mean is
//! that integer divided by Σ w, rounded once to the nearest double, ties to even. The result is
//! thus the same whatever the order of the terms or the number of threads.

use num_bigint::{BigInt, BigUint, Sign};
use num_rational::BigRational;
use num_traits::{ToPrimitive, Zero};
use rayon::prelude::*;

use super::pairwise::PairwiseRows;
use crate::memory::{filled, reserve};
use crate::pool::{self, Interrupt};
use crate::{ChrfError, Settings};

/// For each hypothesis, the weighted mean of its pairwise scores (`pairwise_scores`) against
/// the references, with one weight per reference (all 1 when absent): the exact mean rounded
/// once to the nearest double.
pub fn expected_utility<S: AsRef<str> + Sync>(
    hypotheses: &[S],
    references: &[S],
    weights: Option<&[u64]>,
    settings: &Settings,
    interrupt: &Interrupt,
) -> Result<Vec<f64>, ChrfError> {
    if references.is_empty() {
        return Err(ChrfError::NoReferences);
    }
    if let Some(weights) = weights {
        if weights.len() != references.len() {
            return Err(ChrfError::WeightCount {
                weights: weights.len(),
                references: references.len(),
            });
        }
        if weights.iter().all(|&w| w == 0) {
            return Err(all_zero());
        }
    }
    let mut out = filled(hypotheses.len(), 0.0)?;
    if !hypotheses.is_empty() {
        pool::run(|| {
            let rows = PairwiseRows::new(hypotheses, references, settings, interrupt)?;
            utility_in_pool(&rows, weights, interrupt, &mut out)
        })??;
    }
    Ok(out)
}

fn all_zero() -> ChrfError {
    ChrfError::InvalidSettings("weights must not all be zero".into())
}

fn utility_in_pool(
    rows: &PairwiseRows<'_>,
    weights: Option<&[u64]>,
    interrupt: &Interrupt,
    out: &mut [f64],
) -> Result<(), ChrfError> {
    let weights = column_weights(rows, weights)?;
    let (texts, of_hypothesis) = rows.hypothesis_rows()?;
    let mut utilities = filled(texts.len(), 0.0)?;
    utilities.par_iter_mut().zip(&texts).try_for_each_init(
        || Ok((rows.row_scores()?, ExactMean::new()?)),
        |worker, (utility, &text)| {
            interrupt.check()?;
            let (row, mean) = worker.as_mut().map_err(|e: &mut ChrfError| e.clone())?;
            *utility = weighted_mean(rows.score(row, text)?, &weights, mean)?;
            Ok::<_, ChrfError>(())
        },
    )?;
    for (out, &row) in out.iter_mut().zip(&of_hypothesis) {
        *out = utilities[row];
    }
    Ok(())
}

/// The weight of each column of a row: the sum of the weights of the references that are its
/// text. Fewer than 2^32 references (bags.rs counts its inputs in u32) of weights below 2^64
/// sum to less than 2^96: a u128 never overflows.
fn column_weights(
    rows: &PairwiseRows<'_>,
    weights: Option<&[u64]>,
) -> Result<ColumnWeights, ChrfError> {
    let mut sums = filled(rows.columns(), 0u128)?;
    for (j, column) in rows.reference_columns()?.into_iter().enumerate() {
        let weight = weights.map_or(1, |weights| weights[j]);
        sums[column] = sums[column]
            .checked_add(u128::from(weight))
            .ok_or(ChrfError::CountOverflow)?;
    }
    if sums.iter().all(|&sum| sum == 1) {
        return Ok(ColumnWeights::Ones);
    }
    if sums.iter().any(|&sum| u64::try_from(sum).is_err()) {
        return Ok(ColumnWeights::Wide(sums));
    }
    let mut narrow = Vec::new();
    reserve(&mut narrow, sums.len())?;
    narrow.extend(sums.iter().map(|&sum| sum as u64));
    Ok(ColumnWeights::Narrow(narrow))
}

/// The weights of the columns: all 1 (distinct references, unweighted: nothing to read per
/// column), 64 bits each, or wider where repeated references sum past 64 bits.
enum ColumnWeights {
    Ones,
    Narrow(Vec<u64>),
    Wide(Vec<u128>),
}

fn weighted_mean(
    scores: &[f64],
    weights: &ColumnWeights,
    mean: &mut ExactMean,
) -> Result<f64, ChrfError> {
    match weights {
        ColumnWeights::Ones => mean.add_ones(scores)?,
        ColumnWeights::Narrow(weights) => mean.add_all(scores, weights)?,
        ColumnWeights::Wide(weights) => {
            for (&score, &weight) in scores.iter().zip(weights) {
                mean.add(score, weight)?;
            }
        }
    }
    mean.take_mean()
}

/// Limbs of [`ExactMean`]'s sum: 35 x 64 = 2,240 bits, two's complement.
///
/// Why that is wide enough: the sum counts units of 2^-1074, the least subnormal double, so
/// that every finite double is an integer number of units, below 2^1024 · 2^1074 = 2^2098 in
/// magnitude. The weights' total is a u128 (its additions are checked), so the sum of any of
/// the terms is below 2^128 · 2^2098 = 2^2226 in magnitude, within the 2^2239 of 2,240 bits in
/// two's complement, whichever terms the limbs hold so far. (A carry out of the top limb is the
/// wrap of two's complement addition, exact since the true sum is in range.) A term fits too:
/// the least bit of a double with biased exponent e is unit 2^(max(e, 1) - 1), at most 2^2045,
/// so a 53-bit mantissa times a 128-bit weight, 181 bits, starts in limb 31 at most and spans
/// 4 limbs, ending in limb 34; so does a bucket's carry, 2^128 units of its exponent.
const LIMBS: usize = 35;

/// The exponent of the sum's unit.
const UNIT_EXPONENT: i64 = -1074;

/// Biased exponents of finite doubles: 0 (zero and subnormals) to 2046.
const EXPONENTS: usize = 2047;

/// A weighted mean of doubles computed exactly: Σ w·x in fixed point, no float anywhere, then
/// one correctly rounded division by Σ w.
#[derive(Clone, Debug)]
pub(crate) struct ExactMean {
    /// Σ w·x in units of 2^-1074, two's complement, least significant limb first, less what
    /// the buckets hold.
    limbs: [u64; LIMBS],
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
    pub(crate) fn new() -> Result<Self, ChrfError> {
        Ok(Self {
            limbs: [0; LIMBS],
            buckets: filled(EXPONENTS, 0)?,
            groups: 0,
            weight: 0,
        })
    }

    /// Adds `value` with weight `weight`: refuses a non-finite value, and a total weight past
    /// 2^128 - 1 (the bound [`LIMBS`] is sized for).
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
                self.add_at_exponent(biased, times(mantissa, weight), negative);
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
            self.add_at_exponent(biased, product, true);
            return;
        }
        let (sum, carry) = self.buckets[biased].overflowing_add(product);
        self.buckets[biased] = sum;
        if carry {
            self.add_at_exponent(biased, [0, 0, 1], false);
        }
        self.groups |= 1 << (biased / 64);
    }

    /// Adds (or subtracts) `value` units of biased exponent `biased` to the limbs.
    fn add_at_exponent(&mut self, biased: usize, value: [u64; 3], negative: bool) {
        let shift = biased.max(1) - 1;
        let term = shifted(value, (shift % 64) as u32);
        let at = shift / 64;
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
                    self.add_at_exponent(biased, [bucket as u64, (bucket >> 64) as u64, 0], false);
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
        if self.weight == 0 {
            return Err(all_zero());
        }
        self.flush();
        let mean = self
            .sum_over(BigInt::from(self.weight))
            .to_f64()
            .ok_or_else(|| ChrfError::CrossCheckFailed("a weighted mean".into()));
        (self.limbs, self.weight) = ([0; LIMBS], 0);
        mean
    }

    /// Σ w·x / `denominator`, unreduced.
    fn sum_over(&self, denominator: BigInt) -> BigRational {
        let negative = self.limbs[LIMBS - 1] >> 63 == 1;
        let magnitude = if negative {
            negated(&self.limbs)
        } else {
            self.limbs
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
fn negated(limbs: &[u64; LIMBS]) -> [u64; LIMBS] {
    let mut out = [0; LIMBS];
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
    use crate::{pairwise_scores, Beta};

    fn exact(value: f64) -> BigRational {
        BigRational::from_float(value).unwrap()
    }

    fn mean_of(terms: &[(f64, u128)]) -> ExactMean {
        let mut mean = ExactMean::new().unwrap();
        for &(value, weight) in terms {
            mean.add(value, weight).unwrap();
        }
        mean
    }

    /// xorshift64: random bits without a dependency.
    struct Bits(u64);

    impl Bits {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }

        /// Doubles of every kind: any bit pattern (subnormals, huge, negative), scores, 0, 100.
        fn double(&mut self) -> f64 {
            let bits = self.next();
            match bits % 6 {
                0 => 0.0,
                1 => 100.0,
                2 => f64::from_bits(self.next() >> 12), // subnormal or zero, positive
                3 => (self.next() % 100_000) as f64 / 997.0,
                _ => loop {
                    let value = f64::from_bits(self.next());
                    if value.is_finite() {
                        break value;
                    }
                },
            }
        }

        fn weight(&mut self) -> u128 {
            match self.next() % 5 {
                0 => 0,
                1 => 1,
                2 => u128::from(u64::MAX),
                3 => u128::from(self.next()),
                _ => u128::from(self.next()) << 32 | u128::from(self.next()),
            }
        }
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
                let mut row = ExactMean::new().unwrap();
                row.add_all(&values, &weights).unwrap();
                row.flush();
                assert_eq!((row.limbs, row.weight), (mean.limbs, mean.weight));
                let (mut ones, mut unit) = (ExactMean::new().unwrap(), ExactMean::new().unwrap());
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
        let mut mean = ExactMean::new().unwrap();
        assert!(mean.add(f64::NAN, 1).is_err());
        assert!(mean.add(f64::INFINITY, 1).is_err());
        assert_eq!(mean.take_mean(), Err(all_zero()));
        mean.add(1.0, u128::MAX).unwrap();
        assert_eq!(mean.add(1.0, 1), Err(ChrfError::CountOverflow));
    }

    fn texts() -> Vec<String> {
        let words = ["the", "cat", "sat", "a", "mat.", "(dog", "ça", "😀", ""];
        let mut bits = Bits(0x2545_F491_4F6C_DD1D);
        (0..30)
            .map(|_| {
                (0..bits.next() % 7)
                    .map(|_| words[(bits.next() % words.len() as u64) as usize])
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect()
    }

    /// `expected_utility` against the exact mean of `pairwise_scores`' rows.
    fn check_utilities(hyps: &[String], refs: &[String], weights: Option<&[u64]>, s: &Settings) {
        let matrix = pairwise_scores(hyps, refs, s, &Interrupt::default()).unwrap();
        let got = expected_utility(hyps, refs, weights, s, &Interrupt::default()).unwrap();
        let weight = |j: usize| weights.map_or(1, |w| w[j]);
        let total: u128 = (0..refs.len()).map(|j| u128::from(weight(j))).sum();
        for (i, &utility) in got.iter().enumerate() {
            let row = &matrix[i * refs.len()..(i + 1) * refs.len()];
            let sum = row
                .iter()
                .enumerate()
                .fold(BigRational::zero(), |sum, (j, &score)| {
                    sum + exact(score) * BigRational::from(BigInt::from(weight(j)))
                });
            let expected = sum / BigRational::from(BigInt::from(total));
            assert_eq!(utility, expected.to_f64().unwrap(), "{i} {s:?}");
        }
    }

    #[test]
    fn utilities_are_the_exact_weighted_means_of_pairwise_rows() {
        let mut texts = texts();
        texts[7] = texts[6].clone(); // a reference twice, of weights summing past 64 bits below
        let (hyps, refs) = (&texts[..18], &texts[6..]); // overlapping, with duplicates
        let mut distinct = refs.to_vec();
        distinct.sort();
        distinct.dedup();
        let mut bits = Bits(7);
        for (char_order, word_order, eps) in [(6, 0, false), (6, 2, true), (2, 3, false)] {
            let mut settings =
                Settings::new(char_order, word_order, Beta::integer(2).unwrap()).unwrap();
            settings.eps_smoothing = eps;
            let mut weights: Vec<u64> = (0..refs.len()).map(|_| bits.weight() as u64).collect();
            let mut wide = weights.clone();
            (wide[0], wide[1]) = (u64::MAX, u64::MAX);
            weights[0] = u64::MAX;
            // Columns of weight 1, of 64-bit weights, and of weights past 64 bits.
            check_utilities(hyps, &distinct, None, &settings);
            for weights in [None, Some(&weights[..]), Some(&wide[..])] {
                check_utilities(hyps, refs, weights, &settings);
            }
        }
    }

    #[test]
    fn bad_arguments_are_errors() {
        let settings = Settings::new(6, 0, Beta::integer(2).unwrap()).unwrap();
        let interrupt = Interrupt::default();
        let texts = ["a b", "b c"];
        assert_eq!(
            expected_utility(&texts, &[], None, &settings, &interrupt),
            Err(ChrfError::NoReferences)
        );
        assert_eq!(
            expected_utility(&texts, &texts, Some(&[1]), &settings, &interrupt),
            Err(ChrfError::WeightCount {
                weights: 1,
                references: 2
            })
        );
        assert_eq!(
            expected_utility(&texts, &texts, Some(&[0, 0]), &settings, &interrupt),
            Err(all_zero())
        );
        assert_eq!(
            expected_utility(&[] as &[&str], &texts, None, &settings, &interrupt),
            Ok(vec![])
        );
        let raised = Interrupt::default();
        raised.raise();
        assert_eq!(
            expected_utility(&texts, &texts, None, &settings, &raised),
            Err(ChrfError::Cancelled)
        );
    }
}
