//! sacreBLEU's bootstrap arithmetic, replayed: float32 sums and NumPy 2's scalar promotion.
//!
//! For confidence intervals sacreBLEU turns the per-segment statistics into a float32 NumPy
//! array, sums the rows each resample picks (in pick order), and runs `_compute_f_score` on the
//! float32 sums. There, a NumPy float32 meets Python floats and ints; under NumPy 2 (NEP 50)
//! every such operation is done in float32, the Python operand rounded to float32 first. The
//! [`Scalar`] type below tracks which of the two each intermediate value is.

use std::ops::{Add, Div, Mul, Sub};

use rayon::prelude::*;

use crate::pool::Interrupt;
use crate::{ChrfError, Settings};

/// A value of sacreBLEU's `_compute_f_score` on float32 statistics.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Scalar {
    /// A Python float (a double).
    Python(f64),
    /// A NumPy float32.
    Float32(f32),
}

use Scalar::{Float32, Python};

impl Scalar {
    /// The value as a double (a float32 widens exactly).
    pub fn value(self) -> f64 {
        match self {
            Python(x) => x,
            Float32(x) => f64::from(x),
        }
    }

    pub fn is_float32(self) -> bool {
        matches!(self, Float32(_))
    }

    fn as_f32(self) -> f32 {
        match self {
            // Rounds to nearest, ties to even, as NumPy's cast does.
            Python(x) => x as f32,
            Float32(x) => x,
        }
    }

    fn combine(
        self,
        other: Self,
        double: fn(f64, f64) -> f64,
        single: fn(f32, f32) -> f32,
    ) -> Self {
        match (self, other) {
            (Python(a), Python(b)) => Python(double(a, b)),
            _ => Float32(single(self.as_f32(), other.as_f32())),
        }
    }

    fn is_positive(self) -> bool {
        self.value() > 0.0
    }

    /// Python truthiness of a number: non-zero, NaN included.
    fn is_truthy(self) -> bool {
        self.value() != 0.0
    }
}

macro_rules! scalar_op {
    ($trait:ident, $method:ident, $op:tt) => {
        impl $trait for Scalar {
            type Output = Scalar;
            fn $method(self, other: Scalar) -> Scalar {
                self.combine(other, |a, b| a $op b, |a, b| a $op b)
            }
        }
    };
}
scalar_op!(Add, add, +);
scalar_op!(Sub, sub, -);
scalar_op!(Mul, mul, *);
scalar_op!(Div, div, /);

/// `CHRF._compute_f_score` on float32 statistics (3 values per order: hyp, ref, match).
pub fn sacrebleu_score_f32(stats: &[f32], settings: &Settings) -> Scalar {
    let eps = Python(1e-16);
    let factor = Python(settings.beta.factor());
    let one_plus_factor = Python(settings.beta.one_plus_factor());
    let mut score = Python(0.0);
    let mut effective_orders = 0u32;
    let (mut avg_prec, mut avg_rec) = (Python(0.0), Python(0.0));

    for order in stats.chunks_exact(3) {
        let (n_hyp, n_ref, n_match) = (order[0], order[1], order[2]);
        let prec = if n_hyp > 0.0 {
            Float32(n_match / n_hyp)
        } else {
            eps
        };
        let rec = if n_ref > 0.0 {
            Float32(n_match / n_ref)
        } else {
            eps
        };
        let denom = factor * prec + rec;
        score = score
            + if denom.is_positive() {
                one_plus_factor * prec * rec / denom
            } else {
                eps
            };
        if n_hyp > 0.0 && n_ref > 0.0 {
            avg_prec = avg_prec + prec;
            avg_rec = avg_rec + rec;
            effective_orders += 1;
        }
    }

    let hundred = Python(100.0);
    if settings.eps_smoothing {
        return hundred * score / Python(settings.order_count() as f64);
    }
    if effective_orders == 0 {
        (avg_prec, avg_rec) = (Python(0.0), Python(0.0));
    } else {
        let k = Python(f64::from(effective_orders));
        (avg_prec, avg_rec) = (avg_prec / k, avg_rec / k);
    }
    if (avg_prec + avg_rec).is_truthy() {
        let score = one_plus_factor * avg_prec * avg_rec;
        hundred * (score / (factor * avg_prec + avg_rec))
    } else {
        Python(0.0)
    }
}

/// Per-segment statistics as sacreBLEU's float32 array: `segments × (3 × orders)` values.
pub struct SegmentTable {
    values: Vec<f32>,
    width: usize,
}

impl SegmentTable {
    /// `counts` holds `3 × orders` integers per segment, segment after segment.
    pub fn new(counts: &[u64], settings: &Settings) -> Result<Self, ChrfError> {
        let width = 3 * settings.order_count();
        if counts.len() % width != 0 {
            return Err(ChrfError::OrderCountMismatch {
                expected: settings.order_count(),
                found: counts.len() / 3,
            });
        }
        Ok(Self {
            // `np.array(stats, dtype='float32')`: each count rounded to the nearest float32.
            values: counts.iter().map(|&c| c as f32).collect(),
            width,
        })
    }

    pub fn segment_count(&self) -> usize {
        self.values.len() / self.width
    }

    /// The float32 column sums of the picked rows, added in pick order as NumPy's
    /// `array[picks].sum(0)` does (row after row, not pairwise).
    pub fn sum_rows(&self, picks: impl IntoIterator<Item = usize>) -> Vec<f32> {
        let mut sums = vec![0f32; self.width];
        for row in picks {
            let values = &self.values[row * self.width..(row + 1) * self.width];
            for (sum, value) in sums.iter_mut().zip(values) {
                *sum += value;
            }
        }
        sums
    }
}

/// sacreBLEU's scores of bootstrap resamples: `picks` holds one row of segment indices per
/// resample, `segment_count` indices each, as `rng.choice(n, size=(samples, n))` returns them.
pub fn resampled_scores(
    table: &SegmentTable,
    picks: &[i64],
    settings: &Settings,
    interrupt: &Interrupt,
) -> Result<Vec<Scalar>, ChrfError> {
    let n = table.segment_count();
    if n == 0 || picks.len() % n != 0 {
        return Err(ChrfError::InvalidSettings(format!(
            "resample indices must come in rows of {n}"
        )));
    }
    if let Some(bad) = picks.iter().find(|&&i| i < 0 || i as u64 >= n as u64) {
        return Err(ChrfError::InvalidSettings(format!(
            "resample index {bad} is outside 0..{n}"
        )));
    }
    crate::pool::run(|| {
        picks
            .par_chunks(n)
            .map(|row| {
                interrupt.check()?;
                let sums = table.sum_rows(row.iter().map(|&i| i as usize));
                Ok(sacrebleu_score_f32(&sums, settings))
            })
            .collect()
    })?
}

/// sacreBLEU's paired approximate randomization: for each trial (a row of `swaps`, one flag per
/// segment), pseudo-system A takes the baseline's statistics where the flag is set and the
/// system's elsewhere, pseudo-system B the rest. Returns the float scores of A and of B, which
/// sacreBLEU computes in double precision from exact integer sums (NumPy int64 matrix products).
pub fn randomization_scores(
    baseline: &[u64],
    system: &[u64],
    swaps: &[bool],
    settings: &Settings,
    interrupt: &Interrupt,
) -> Result<(Vec<f64>, Vec<f64>), ChrfError> {
    let width = 3 * settings.order_count();
    if baseline.len() != system.len() || baseline.len() % width != 0 {
        return Err(ChrfError::InvalidSettings(
            "baseline and system statistics must have the same shape".into(),
        ));
    }
    let n = baseline.len() / width;
    if n == 0 || swaps.len() % n != 0 {
        return Err(ChrfError::InvalidSettings(format!(
            "randomization flags must come in rows of {n}"
        )));
    }
    // A = sum(system) + the sum over flagged segments of (baseline - system); B = total - A.
    let column_sum = |stats: &[u64], j: usize| -> i128 {
        stats
            .iter()
            .skip(j)
            .step_by(width)
            .map(|&c| i128::from(c))
            .sum()
    };
    let system_total: Vec<i128> = (0..width).map(|j| column_sum(system, j)).collect();
    let total: Vec<i128> = (0..width)
        .map(|j| system_total[j] + column_sum(baseline, j))
        .collect();
    let deltas: Vec<i128> = baseline
        .iter()
        .zip(system)
        .map(|(&b, &s)| i128::from(b) - i128::from(s))
        .collect();
    let pairs = crate::pool::run(|| {
        swaps
            .par_chunks(n)
            .map(|flags| {
                interrupt.check()?;
                let mut a = system_total.clone();
                for (segment, _) in flags.iter().enumerate().filter(|(_, &f)| f) {
                    let row = &deltas[segment * width..(segment + 1) * width];
                    for (sum, &d) in a.iter_mut().zip(row) {
                        *sum += d;
                    }
                }
                let b: Vec<i128> = total.iter().zip(&a).map(|(t, x)| t - x).collect();
                Ok((score_of_sums(&a, settings)?, score_of_sums(&b, settings)?))
            })
            .collect::<Result<Vec<_>, ChrfError>>()
    })??;
    Ok(pairs.into_iter().unzip())
}

/// The float score of summed statistics (sums of counts, so never negative).
fn score_of_sums(sums: &[i128], settings: &Settings) -> Result<f64, ChrfError> {
    let count = |x: i128| crate::Count::try_from(x).map_err(|_| ChrfError::CountOverflow);
    let orders = sums
        .chunks_exact(3)
        .map(|c| {
            Ok(crate::OrderCounts {
                hypothesis: count(c[0])?,
                reference: count(c[1])?,
                matching: count(c[2])?,
            })
        })
        .collect::<Result<Vec<_>, ChrfError>>()?;
    Ok(crate::sacrebleu_score(&orders, settings))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::Beta;

    #[test]
    fn a_python_float_meeting_a_float32_is_rounded_to_float32() {
        let third = Python(1.0 / 3.0);
        assert_eq!(third + Python(0.0), Python(1.0 / 3.0));
        assert_eq!(third + Float32(0.0), Float32(1.0f32 / 3.0));
    }

    #[test]
    fn rows_are_summed_in_order_in_float32() {
        let settings = Settings::new(1, 0, Beta::integer(2).unwrap()).unwrap();
        let mut counts = vec![1 << 24, 1, 1];
        counts.extend([1, 1, 1].repeat(4));
        let table = SegmentTable::new(&counts, &settings).unwrap();
        // 2**24 + 1 rounds back to 2**24 in float32, four times over.
        assert_eq!(table.sum_rows(0..5), vec![16_777_216.0, 5.0, 5.0]);
    }

    #[test]
    fn indices_outside_the_table_are_an_error() {
        let settings = Settings::new(1, 0, Beta::integer(2).unwrap()).unwrap();
        let table = SegmentTable::new(&[2, 2, 1, 3, 3, 3], &settings).unwrap();
        assert!(resampled_scores(&table, &[0, 2], &settings, &Interrupt::default()).is_err());
        assert!(resampled_scores(&table, &[0, -1], &settings, &Interrupt::default()).is_err());
        assert!(resampled_scores(&table, &[0, 1, 1], &settings, &Interrupt::default()).is_err());
        let scores =
            resampled_scores(&table, &[1, 1, 0, 1], &settings, &Interrupt::default()).unwrap();
        assert_eq!(scores.len(), 2);
        assert_eq!(scores[0], Float32(100.0));
    }

    #[test]
    fn randomization_swaps_segments_between_the_systems() {
        let settings = Settings::new(1, 0, Beta::integer(2).unwrap()).unwrap();
        let baseline = [4, 4, 4, 2, 2, 0];
        let system = [4, 4, 1, 2, 2, 2];
        let swaps = [false, false, true, true];
        // No swap: A is the system, B the baseline; all swapped: the reverse.
        let (a, b) =
            randomization_scores(&baseline, &system, &swaps, &settings, &Interrupt::default())
                .unwrap();
        let score = |h: u128, r: u128, m: u128| {
            let counts = crate::OrderCounts {
                hypothesis: h,
                reference: r,
                matching: m,
            };
            crate::sacrebleu_score(&[counts], &settings)
        };
        assert_eq!(a, vec![score(6, 6, 3), score(6, 6, 4)]);
        assert_eq!(b, vec![score(6, 6, 4), score(6, 6, 3)]);
        assert!(randomization_scores(
            &baseline,
            &system,
            &[true],
            &settings,
            &Interrupt::default()
        )
        .is_err());
    }
}
