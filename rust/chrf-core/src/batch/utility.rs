//! MBR's expected utility: each hypothesis's weighted mean score over the references,
//! Σ_j w_j·s_ij / Σ_j w_j, exact, without the n x m matrix.
//!
//! The scores s_ij are the pairwise scores of pairwise.rs, made a row at a time and summed as they
//! are made: a worker holds one row (a few numbers per distinct reference), so memory grows with
//! the texts, not with their pairs. The sum is exact: each term w·s is added to a fixed-point
//! integer wide enough for any finite double times any weight ([`ExactMean`]), and the mean is
//! that integer divided by Σ w, rounded once to the nearest double, ties to even. The result is
//! thus the same whatever the order of the terms or the number of threads.

use num_bigint::{BigInt, BigUint};
use rayon::prelude::*;

use super::exact_mean::{all_zero, ExactMean, Weight};
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
    weights: Option<&[Weight]>,
    settings: &Settings,
    interrupt: &Interrupt,
) -> Result<Vec<f64>, ChrfError> {
    if references.is_empty() {
        return Err(ChrfError::NoReferences);
    }
    if let Some(weights) = weights {
        ChrfError::check_weight_count(weights.len(), references.len())?;
        if weights.iter().all(|w| w.mantissa == 0) {
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

fn utility_in_pool(
    rows: &PairwiseRows<'_>,
    weights: Option<&[Weight]>,
    interrupt: &Interrupt,
    out: &mut [f64],
) -> Result<(), ChrfError> {
    let weighing = Weighing::new(rows, weights)?;
    let max_shift = weights.map_or(0, |w| w.iter().map(|w| w.shift).max().unwrap_or(0));
    let (texts, of_hypothesis) = rows.hypothesis_rows()?;
    let mut utilities = filled(texts.len(), 0.0)?;
    utilities.par_iter_mut().zip(&texts).try_for_each_init(
        || Ok((rows.row_scores()?, ExactMean::with_shifts(max_shift)?)),
        |worker, (utility, &text)| {
            interrupt.check()?;
            let (row, mean) = worker.as_mut().map_err(|e: &mut ChrfError| e.clone())?;
            *utility = weighing.mean(rows.score(row, text)?, mean)?;
            Ok::<_, ChrfError>(())
        },
    )?;
    for (out, &row) in out.iter_mut().zip(&of_hypothesis) {
        *out = utilities[row];
    }
    Ok(())
}

/// How a row of scores (one per distinct reference text, a column) is weighed.
enum Weighing {
    /// Distinct references, unweighted: nothing to read per column.
    Ones,
    /// The weight of each column, below 2^64: the weights of the references that are its text.
    Narrow(Vec<u64>),
    /// The same, wider where repeated references sum past 64 bits.
    Wide(Vec<u128>),
    /// Each reference's column and shifted weight, and the weights' total: shifted weights do
    /// not add up into one per column.
    Shifted {
        columns: Vec<usize>,
        weights: Vec<Weight>,
        total: BigInt,
    },
}

impl Weighing {
    /// Fewer than 2^32 references (bags.rs counts its inputs in u32) of weights below 2^64 sum
    /// to less than 2^96 a column: a u128 never overflows.
    fn new(rows: &PairwiseRows<'_>, weights: Option<&[Weight]>) -> Result<Self, ChrfError> {
        let columns = rows.reference_columns()?;
        if let Some(weights) = weights.filter(|w| w.iter().any(|w| w.shift > 0)) {
            let total = weights.iter().map(|&w| w.value()).sum::<BigUint>();
            let mut own = Vec::new();
            reserve(&mut own, weights.len())?;
            own.extend_from_slice(weights);
            return Ok(Self::Shifted {
                columns,
                weights: own,
                total: total.into(),
            });
        }
        let mut sums = filled(rows.columns(), 0u128)?;
        for (j, column) in columns.into_iter().enumerate() {
            let weight = weights.map_or(1, |weights| weights[j].mantissa);
            sums[column] = sums[column]
                .checked_add(u128::from(weight))
                .ok_or(ChrfError::CountOverflow)?;
        }
        if sums.iter().all(|&sum| sum == 1) {
            return Ok(Self::Ones);
        }
        if sums.iter().any(|&sum| u64::try_from(sum).is_err()) {
            return Ok(Self::Wide(sums));
        }
        let mut narrow = Vec::new();
        reserve(&mut narrow, sums.len())?;
        narrow.extend(sums.iter().map(|&sum| sum as u64));
        Ok(Self::Narrow(narrow))
    }

    /// The weighted mean of a row of scores, one per column.
    fn mean(&self, scores: &[f64], mean: &mut ExactMean) -> Result<f64, ChrfError> {
        match self {
            Self::Ones => mean.add_ones(scores)?,
            Self::Narrow(weights) => mean.add_all(scores, weights)?,
            Self::Wide(weights) => {
                for (&score, &weight) in scores.iter().zip(weights) {
                    mean.add(score, weight)?;
                }
            }
            Self::Shifted {
                columns,
                weights,
                total,
            } => {
                for (&column, &weight) in columns.iter().zip(weights) {
                    mean.add_shifted(scores[column], weight)?;
                }
                return mean.take_mean_over(total.clone());
            }
        }
        mean.take_mean()
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::batch::tests::{exact, Bits};
    use crate::{pairwise_scores, Beta};
    use num_rational::BigRational;
    use num_traits::{ToPrimitive, Zero};

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
    fn check_utilities(hyps: &[String], refs: &[String], weights: Option<&[Weight]>, s: &Settings) {
        let matrix = pairwise_scores(hyps, refs, s, &Interrupt::default()).unwrap();
        let got = expected_utility(hyps, refs, weights, s, &Interrupt::default()).unwrap();
        let weight = |j: usize| weights.map_or(BigUint::from(1u8), |w| w[j].value());
        let total: BigUint = (0..refs.len()).map(weight).sum();
        for (i, &utility) in got.iter().enumerate() {
            let row = &matrix[i * refs.len()..(i + 1) * refs.len()];
            let sum = row
                .iter()
                .enumerate()
                .fold(BigRational::zero(), |sum, (j, &score)| {
                    sum + exact(score) * BigRational::from(BigInt::from(weight(j)))
                });
            let expected = sum / BigRational::from(BigInt::from(total.clone()));
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
            let mut weights: Vec<Weight> = (0..refs.len())
                .map(|_| Weight::from(bits.weight() as u64))
                .collect();
            let mut wide = weights.clone();
            (wide[0], wide[1]) = (Weight::from(u64::MAX), Weight::from(u64::MAX));
            weights[0] = Weight::from(u64::MAX);
            // Model probabilities from 1 down to the least double, as float weights scale.
            let shifted: Vec<Weight> = (0..refs.len())
                .map(|j| Weight {
                    mantissa: bits.next() >> 11,
                    shift: [0, 1074, 3, 2097, 40][j % 5],
                })
                .collect();
            // Columns of weight 1, of 64-bit weights, of weights past 64 bits, and shifted.
            check_utilities(hyps, &distinct, None, &settings);
            for weights in [
                None,
                Some(&weights[..]),
                Some(&wide[..]),
                Some(&shifted[..]),
            ] {
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
            expected_utility(
                &texts,
                &texts,
                Some(&[Weight::from(1)]),
                &settings,
                &interrupt
            ),
            Err(ChrfError::WeightCount {
                weights: 1,
                references: 2
            })
        );
        assert_eq!(
            expected_utility(
                &texts,
                &texts,
                Some(&[Weight::from(0); 2]),
                &settings,
                &interrupt
            ),
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
