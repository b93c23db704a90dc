//! sacreBLEU's bootstrap arithmetic, replayed: float32 sums and NumPy 2's scalar promotion.
//!
//! For confidence intervals sacreBLEU turns the per-segment statistics into a float32 NumPy
//! array, sums the rows each resample picks (in pick order), and runs `_compute_f_score` on the
//! float32 sums. There, a NumPy float32 meets Python floats and ints; under NumPy 2 (NEP 50)
//! every such operation is done in float32, the Python operand rounded to float32 first. The
//! [`Scalar`] type below tracks which of the two each intermediate value is.

use std::ops::{Add, Div, Mul, Sub};

use rayon::prelude::*;

use crate::float::{compute_f_score, FScoreNumber, OrderTerms, EPS};
use crate::means::Term;
use crate::memory;
use crate::pool::{try_collect, Interrupt};
use crate::{ChrfError, OrderCounts, Settings};

/// A value of sacreBLEU's `_compute_f_score` on float32 statistics.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Scalar {
    /// A Python float (a double).
    Python(f64),
    /// A NumPy float32.
    Float32(f32),
    /// A Python `Fraction` (β² or 1 + β², held at its float value: it only ever meets floats).
    /// With a float32 NumPy computes on Python objects, so `Fraction` arithmetic answers: a
    /// Python float, from the two values as doubles.
    Fraction(f64),
}

use Scalar::{Float32, Fraction, Python};

impl Scalar {
    /// The value as a double (a float32 widens exactly).
    pub fn value(self) -> f64 {
        match self {
            Python(x) | Fraction(x) => x,
            Float32(x) => f64::from(x),
        }
    }

    pub fn is_float32(self) -> bool {
        matches!(self, Float32(_))
    }

    fn as_f32(self) -> f32 {
        match self {
            // Rounds to nearest, ties to even, as NumPy's cast does.
            Python(x) | Fraction(x) => x as f32,
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
            (Python(_) | Fraction(_), Python(_) | Fraction(_))
            | (Fraction(_), Float32(_))
            | (Float32(_), Fraction(_)) => Python(double(self.value(), other.value())),
            (Float32(_), _) | (_, Float32(_)) => Float32(single(self.as_f32(), other.as_f32())),
        }
    }
}

impl Term for Scalar {
    fn python(value: f64) -> Self {
        Python(value)
    }
}

impl FScoreNumber for Scalar {
    fn beta_term(value: f64, fraction: bool) -> Self {
        if fraction {
            Fraction(value)
        } else {
            Python(value)
        }
    }
    fn is_positive(self) -> bool {
        self.value() > 0.0
    }
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
    let eps = Python(EPS);
    let orders = stats.chunks_exact(3).map(|order| {
        let (n_hyp, n_ref, n_match) = (order[0], order[1], order[2]);
        let ratio = |total: f32| {
            if total > 0.0 {
                Float32(n_match / total)
            } else {
                eps
            }
        };
        let effective = n_hyp > 0.0 && n_ref > 0.0;
        (OrderTerms::new(ratio(n_hyp), ratio(n_ref), effective), 1)
    });
    compute_f_score(orders, settings)
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
        if !counts.len().is_multiple_of(width) {
            return Err(ChrfError::OrderCountMismatch {
                expected: settings.order_count(),
                found: counts.len() / 3,
            });
        }
        // `np.array(stats, dtype='float32')`: each count rounded to the nearest float32.
        let mut values = Vec::new();
        memory::reserve(&mut values, counts.len())?;
        values.extend(counts.iter().map(|&c| c as f32));
        Ok(Self { values, width })
    }

    pub fn segment_count(&self) -> usize {
        self.values.len() / self.width
    }

    /// A buffer for [`Self::sum_rows`].
    pub fn sums_buffer(&self) -> Result<Vec<f32>, ChrfError> {
        memory::filled(self.width, 0.0)
    }

    /// Writes into `sums` (of [`Self::sums_buffer`]) the float32 column sums of the picked rows,
    /// added in pick order as NumPy's `array[picks].sum(0)` does (row after row, not pairwise).
    pub fn sum_rows(&self, picks: impl IntoIterator<Item = usize>, sums: &mut [f32]) {
        sums.fill(0.0);
        for row in picks {
            let values = &self.values[row * self.width..(row + 1) * self.width];
            for (sum, value) in sums.iter_mut().zip(values) {
                *sum += value;
            }
        }
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
    settings.beta.check_float()?;
    let n = table.segment_count();
    if n == 0 || !picks.len().is_multiple_of(n) {
        return Err(ChrfError::ResampleShape { row_length: n });
    }
    if let Some(&index) = picks.iter().find(|&&i| i < 0 || i as u64 >= n as u64) {
        return Err(ChrfError::ResampleIndex { index, segments: n });
    }
    crate::pool::run(|| {
        // One buffer of sums per task, reused by its trials, allocated fallibly.
        let scores = picks.par_chunks(n).map_init(
            || table.sums_buffer(),
            |sums, row| {
                interrupt.check()?;
                let sums = sums.as_mut().map_err(|error| error.clone())?;
                table.sum_rows(row.iter().map(|&i| i as usize), sums);
                Ok(sacrebleu_score_f32(sums, settings))
            },
        );
        try_collect(scores, Python(0.0))
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
    settings.beta.check_float()?;
    let width = 3 * settings.order_count();
    if baseline.len() != system.len() || !baseline.len().is_multiple_of(width) {
        return Err(ChrfError::StatisticsShape);
    }
    let n = baseline.len() / width;
    if n == 0 || !swaps.len().is_multiple_of(n) {
        return Err(ChrfError::RandomizationShape { row_length: n });
    }
    // A = sum(system) + the sum over flagged segments of (baseline - system); B = total - A.
    let (mut system_total, mut total) = (memory::filled(width, 0)?, memory::filled(width, 0)?);
    for (system_row, baseline_row) in system.chunks_exact(width).zip(baseline.chunks_exact(width)) {
        let columns = system_total.iter_mut().zip(&mut total);
        for ((system_sum, sum), (&s, &b)) in columns.zip(system_row.iter().zip(baseline_row)) {
            *system_sum += i128::from(s);
            *sum += i128::from(s) + i128::from(b);
        }
    }
    let mut deltas: Vec<i128> = Vec::new();
    memory::reserve(&mut deltas, baseline.len())?;
    deltas.extend(
        baseline
            .iter()
            .zip(system)
            .map(|(&b, &s)| i128::from(b) - i128::from(s)),
    );
    let trials = swaps.len() / n;
    let (mut scores_a, mut scores_b) = (memory::filled(trials, 0.0)?, memory::filled(trials, 0.0)?);
    crate::pool::run(|| {
        scores_a
            .par_iter_mut()
            .zip(&mut scores_b)
            .zip(swaps.par_chunks(n))
            .try_for_each_init(
                || TrialSums::new(width),
                |trial, ((score_a, score_b), flags)| -> Result<(), ChrfError> {
                    interrupt.check()?;
                    let trial = trial.as_mut().map_err(|error| error.clone())?;
                    trial.a.copy_from_slice(&system_total);
                    for (segment, _) in flags.iter().enumerate().filter(|(_, &f)| f) {
                        let row = &deltas[segment * width..(segment + 1) * width];
                        for (sum, &d) in trial.a.iter_mut().zip(row) {
                            *sum += d;
                        }
                    }
                    for ((b, t), a) in trial.b.iter_mut().zip(&total).zip(&trial.a) {
                        *b = t - a;
                    }
                    *score_a = score_of_sums(&trial.a, &mut trial.orders, settings)?;
                    *score_b = score_of_sums(&trial.b, &mut trial.orders, settings)?;
                    Ok(())
                },
            )
    })??;
    Ok((scores_a, scores_b))
}

/// One task's buffers for the randomization's trials, reused from trial to trial: at long
/// orders each holds megabytes, allocated fallibly once rather than on every trial.
struct TrialSums {
    a: Vec<i128>,
    b: Vec<i128>,
    orders: Vec<OrderCounts>,
}

impl TrialSums {
    fn new(width: usize) -> Result<Self, ChrfError> {
        Ok(Self {
            a: memory::filled(width, 0)?,
            b: memory::filled(width, 0)?,
            orders: memory::filled(width / 3, OrderCounts::default())?,
        })
    }
}

/// The float score of summed statistics (sums of counts, so never negative), through `orders`,
/// one element per order.
fn score_of_sums(
    sums: &[i128],
    orders: &mut [OrderCounts],
    settings: &Settings,
) -> Result<f64, ChrfError> {
    let count = |x: i128| crate::Count::try_from(x).map_err(|_| ChrfError::CountOverflow);
    for (order, c) in orders.iter_mut().zip(sums.chunks_exact(3)) {
        *order = OrderCounts {
            hypothesis: count(c[0])?,
            reference: count(c[1])?,
            matching: count(c[2])?,
        };
    }
    Ok(crate::sacrebleu_score(orders, settings))
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
    fn a_fraction_meeting_a_float32_computes_in_double() {
        // Python: Fraction(9, 4) * np.float32(0.3) == 2.25 * float(np.float32(0.3)), a float.
        let point_three = 0.3f32;
        let expected = 2.25 * f64::from(point_three);
        assert_eq!(Fraction(2.25) * Float32(point_three), Python(expected));
        assert_eq!(
            Float32(point_three) + Fraction(2.25),
            Python(f64::from(point_three) + 2.25)
        );
        // The score then mixes: (β² · P) is a double, and + R brings it back to float32.
        let seven_fifths = num_rational::BigRational::new(7.into(), 5.into());
        let mut settings = Settings::new(1, 0, Beta::exact(seven_fifths).unwrap()).unwrap();
        let (factor, one_plus) = (settings.beta.factor(), settings.beta.one_plus_factor());
        let stats = [5.0, 7.0, 3.0];
        let plain = sacrebleu_score_f32(&stats, &settings);
        settings.beta = settings.beta.clone().given_as_fraction();
        let (p, r) = (3f32 / 5.0, 3f32 / 7.0);
        let numerator = ((one_plus * f64::from(p)) as f32) * r; // (1 + factor) * prec * rec
        let denom = ((factor * f64::from(p)) as f32) + r; // factor * prec + rec
        let expected = Float32(100.0 * (numerator / denom));
        assert_eq!(sacrebleu_score_f32(&stats, &settings), expected);
        // A float β² of the same value is rounded to float32 first: another last bit here.
        assert_ne!(plain, expected);
        assert!(plain.is_float32());
    }

    #[test]
    fn the_score_of_float32_sums_is_computed_in_float32() {
        let mut settings = Settings::new(2, 0, Beta::integer(2).unwrap()).unwrap();
        // Order 1: P = 1/3, R = 1/7 in float32; order 2 has no hypothesis n-gram.
        let stats = [3.0, 7.0, 1.0, 0.0, 6.0, 0.0];
        let (p, r) = (1f32 / 3.0, 1f32 / 7.0);
        let expected = 100.0 * ((5.0 * p * r) / (4.0 * p + r));
        assert_eq!(sacrebleu_score_f32(&stats, &settings), Float32(expected));
        settings.eps_smoothing = true;
        let eps = 1e-16f64 as f32;
        let undefined = 5.0 * eps * 0.0 / (4.0 * eps + 0.0);
        let f = (5.0 * p * r / (4.0 * p + r)) + undefined;
        let expected = 100.0 * f / 2.0;
        assert_eq!(sacrebleu_score_f32(&stats, &settings), Float32(expected));
    }

    #[test]
    fn rows_are_summed_in_order_in_float32() {
        let settings = Settings::new(1, 0, Beta::integer(2).unwrap()).unwrap();
        let mut counts = vec![1 << 24, 1, 1];
        counts.extend([1, 1, 1].repeat(4));
        let table = SegmentTable::new(&counts, &settings).unwrap();
        let mut sums = table.sums_buffer().unwrap();
        // 2**24 + 1 rounds back to 2**24 in float32, four times over.
        table.sum_rows(0..5, &mut sums);
        assert_eq!(sums, vec![16_777_216.0, 5.0, 5.0]);
        // The buffer's previous sums are not carried over.
        table.sum_rows([1], &mut sums);
        assert_eq!(sums, vec![1.0, 1.0, 1.0]);
    }

    #[test]
    fn indices_outside_the_table_are_an_error() {
        let settings = Settings::new(1, 0, Beta::integer(2).unwrap()).unwrap();
        let table = SegmentTable::new(&[2, 2, 1, 3, 3, 3], &settings).unwrap();
        let scores =
            |picks: &[i64]| resampled_scores(&table, picks, &settings, &Interrupt::default());
        let outside = |index| ChrfError::ResampleIndex { index, segments: 2 };
        assert_eq!(scores(&[0, 2]), Err(outside(2)));
        assert_eq!(scores(&[0, -1]), Err(outside(-1)));
        assert_eq!(
            scores(&[0, 1, 1]),
            Err(ChrfError::ResampleShape { row_length: 2 })
        );
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
        let interrupt = Interrupt::default();
        assert_eq!(
            randomization_scores(&baseline, &system, &[true], &settings, &interrupt),
            Err(ChrfError::RandomizationShape { row_length: 2 })
        );
        assert_eq!(
            randomization_scores(&baseline, &system[1..], &[true], &settings, &interrupt),
            Err(ChrfError::StatisticsShape)
        );
    }
}
