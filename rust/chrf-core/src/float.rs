//! sacreBLEU 2.6's floating-point chrF, replayed operation for operation.
//!
//! `CHRF._compute_f_score` is a sequence of IEEE-754 double operations, each correctly rounded,
//! and Rust's `f64` operations are the same operations (Rust never fuses a multiply-add on its
//! own). Doing them in the same order on the same inputs therefore gives the same bits.

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::ToPrimitive;

use crate::exact::per_order_f_score;
use crate::means::{FloatMeans, SentenceFMeans, Term};
use crate::stats::Run;
use crate::{Averaging, ChrfError, Count, OrderCounts, Settings, Statistics};

/// sacreBLEU's stand-in for an undefined precision, recall or F.
pub(crate) const EPS: f64 = 1e-16;

/// The largest integer up to which every integer converts to `f64` exactly.
const EXACT_INT_LIMIT: Count = 1 << f64::MANTISSA_DIGITS;

/// Counts below 2^SMALL_BITS convert to `f64` exactly.
const SMALL_BITS: u32 = f64::MANTISSA_DIGITS;

/// The float score of statistics on 0..100: sacreBLEU's arithmetic, bit for bit; for
/// `per_order_f` averaging, which sacreBLEU does not have, the exact score rounded once.
pub fn float_score(stats: &Statistics, settings: &Settings) -> Result<f64, ChrfError> {
    let (expected, found) = (settings.order_count(), stats.orders().len());
    if found != expected {
        return Err(ChrfError::OrderCountMismatch { expected, found });
    }
    float_score_of_orders(stats.orders(), settings)
}

/// [`float_score`] of per-order counts.
pub(crate) fn float_score_of_orders(
    orders: &[OrderCounts],
    settings: &Settings,
) -> Result<f64, ChrfError> {
    if settings.averaging == Averaging::PerOrderF && orders.len() != settings.order_count() {
        return Err(ChrfError::OrderCountMismatch {
            expected: settings.order_count(),
            found: orders.len(),
        });
    }
    float_score_of_runs(orders.iter().map(|&counts| (counts, 1)), settings)
}

/// [`float_score`] of per-order counts given as runs of equal orders.
pub(crate) fn float_score_of_runs(
    runs: impl IntoIterator<Item = Run>,
    settings: &Settings,
) -> Result<f64, ChrfError> {
    settings.beta.check_float()?;
    if settings.averaging == Averaging::PerOrderF && !settings.eps_smoothing {
        return Ok(rational_to_f64(&per_order_f_score(runs, settings)?));
    }
    Ok(sacrebleu_score_of_runs(runs, settings))
}

/// What picks the best of several references for a segment (spec §5): sacreBLEU's sentence
/// score, or under `per_order_f` averaging chrF++.py's own sentence F, so that each averaging
/// chooses as the tool that defines it does.
pub(crate) fn selection_score(
    runs: impl IntoIterator<Item = Run>,
    settings: &Settings,
) -> Result<f64, ChrfError> {
    settings.beta.check_float()?;
    if settings.averaging == Averaging::PerOrderF && !settings.eps_smoothing {
        return Ok(chrfpp_sentence_f(runs, settings));
    }
    Ok(sacrebleu_score_of_runs(runs, settings))
}

/// chrF++.py's `sentF` (on 0..1), in its float operations: the F of every order with a match,
/// averaged as [`SentenceFMeans`] does. (An order without a match adds nothing there, as 0.0
/// adds nothing here.)
fn chrfpp_sentence_f(runs: impl IntoIterator<Item = Run>, settings: &Settings) -> f64 {
    let (factor, one_plus_factor) = (settings.beta.factor(), settings.beta.one_plus_factor());
    let mut means = SentenceFMeans::new(settings);
    for (counts, repeat) in runs {
        if counts.matching == 0 {
            means.add(repeat, None);
            continue;
        }
        let precision = true_division(counts.matching, counts.hypothesis);
        let recall = true_division(counts.matching, counts.reference);
        let f = one_plus_factor * precision * recall / (factor * precision + recall);
        means.add(repeat, Some(f));
    }
    means.mean()
}

/// sacreBLEU's score (0..100) of the given statistics: `CHRF._compute_f_score`.
///
/// Also what sacreBLEU compares to pick the best of several references for a segment.
pub fn sacrebleu_score(orders: &[OrderCounts], settings: &Settings) -> f64 {
    sacrebleu_score_of_runs(orders.iter().map(|&counts| (counts, 1)), settings)
}

/// [`sacrebleu_score`] of orders given as runs of equal orders, with the bits of the
/// order-by-order loop: a run of k orders adds its values k times over, one rounding each
/// (see [`add_repeatedly`]), in the orders' sequence.
pub(crate) fn sacrebleu_score_of_runs(
    runs: impl IntoIterator<Item = Run>,
    settings: &Settings,
) -> f64 {
    compute_f_score(runs, settings)
}

/// The numbers sacreBLEU's `_compute_f_score` computes with: Python floats ([`f64`]) on
/// integer statistics, NumPy float32 scalars meeting Python floats
/// ([`Scalar`](crate::bootstrap::Scalar)) on the bootstrap's float32 sums.
pub(crate) trait FScoreNumber: Term {
    /// `beta ** 2` or `1 + beta ** 2`, of a β given as a `Fraction` or not.
    fn beta_term(value: f64, _fraction: bool) -> Self {
        Self::python(value)
    }
    /// `self > 0`.
    fn is_positive(self) -> bool;
    /// Python truthiness of a number: non-zero, NaN included.
    fn is_truthy(self) -> bool;
}

impl Term for f64 {
    #[inline]
    fn python(value: f64) -> Self {
        value
    }
    fn add_repeatedly(self, term: Self, times: usize) -> Self {
        add_repeatedly(self, term, times)
    }
}

impl FScoreNumber for f64 {
    fn is_positive(self) -> bool {
        self > 0.0
    }
    fn is_truthy(self) -> bool {
        self != 0.0
    }
}

/// What one order brings to `_compute_f_score`'s loop. The precision and recall are asked for
/// only where the formula uses them: without eps smoothing, only for effective orders.
pub(crate) trait OrderValues<T> {
    /// Both sides have n-grams of the order: it counts in the precision and recall averages.
    fn is_effective(&self) -> bool;
    /// The order's precision and recall, sacreBLEU's EPS where a side has no n-gram.
    fn precision_recall(&self) -> (T, T);
}

/// An order's values computed beforehand.
pub(crate) struct OrderTerms<T> {
    precision: T,
    recall: T,
    effective: bool,
}

impl<T> OrderTerms<T> {
    pub(crate) fn new(precision: T, recall: T, effective: bool) -> Self {
        Self {
            precision,
            recall,
            effective,
        }
    }
}

impl<T: Copy> OrderValues<T> for OrderTerms<T> {
    fn is_effective(&self) -> bool {
        self.effective
    }
    fn precision_recall(&self) -> (T, T) {
        (self.precision, self.recall)
    }
}

/// Integer counts, in Python floats.
impl OrderValues<f64> for OrderCounts {
    #[inline]
    fn is_effective(&self) -> bool {
        self.hypothesis > 0 && self.reference > 0
    }
    #[inline]
    fn precision_recall(&self) -> (f64, f64) {
        precision_recall(self.hypothesis, self.reference, self.matching)
    }
}

/// sacreBLEU's `CHRF._compute_f_score` (0..100) of orders given as runs of `repeat` equal
/// orders, operation for operation in `T`'s arithmetic: the one copy of the formula (spec
/// §1.5-1.7). Orders count as many as the runs stand for, the eps-smoothed average included.
pub(crate) fn compute_f_score<T: FScoreNumber, O: OrderValues<T>>(
    runs: impl IntoIterator<Item = (O, usize)>,
    settings: &Settings,
) -> T {
    let fraction = settings.beta.is_fraction();
    let factor = T::beta_term(settings.beta.factor(), fraction);
    let one_plus_factor = T::beta_term(settings.beta.one_plus_factor(), fraction);
    let (zero, eps, hundred) = (T::python(0.0), T::python(EPS), T::python(100.0));
    let f = |prec: T, rec: T| {
        let denom = factor * prec + rec;
        if denom.is_positive() {
            one_plus_factor * prec * rec / denom
        } else {
            eps
        }
    };
    let mut means = FloatMeans::new(settings);
    // Internal iteration (`for_each`), which runs chained and flattened runs as plain loops.
    runs.into_iter().for_each(|(order, repeat)| {
        means.add(
            repeat,
            || order.is_effective(),
            || order.precision_recall(),
            f,
        );
    });

    if let Some(eps_score) = means.percent_f() {
        return eps_score;
    }
    let (avg_prec, avg_rec) = means.precision_recall();
    // Python's `if avg_prec + avg_rec:` is true for NaN as well.
    if (avg_prec + avg_rec).is_truthy() {
        let score = one_plus_factor * avg_prec * avg_rec;
        hundred * (score / (factor * avg_prec + avg_rec))
    } else {
        zero
    }
}

/// `sum + term + term + …` with `times` additions, each rounded: the loop's bits, in
/// O(binades crossed) rather than O(times) steps (the zero orders of a long order layout each
/// add the same term to the eps-smoothed sum).
///
/// While sum and sum + term stay in one range of equal spacing u (a binade), every addition
/// rounds term to the same multiple c of u, unless term/u is a tie (its rounding then depends
/// on the sum's last bit): the additions that stay below the range's end are then one jump.
pub(crate) fn add_repeatedly(mut sum: f64, term: f64, mut times: usize) -> f64 {
    while times > 0 {
        let next = sum + term;
        if times == 1 || next == sum || !next.is_finite() {
            // The last addition, or a fixed point: every further one gives the same value.
            return next;
        }
        match jump(sum, term, times) {
            Some((steps, value)) => (sum, times) = (value, times - steps),
            None => (sum, times) = (next, times - 1),
        }
    }
    sum
}

/// The value after as many of `times` additions of `term` as stay in the sum's binade
/// (exactly sum + k·c·u), and that number k; `None` where a single addition is the way on.
fn jump(sum: f64, term: f64, times: usize) -> Option<(usize, f64)> {
    const TWO_POW_53: u64 = 1 << 53;
    if !(sum >= 0.0 && term > 0.0 && sum < f64::MAX / 2.0) {
        return None;
    }
    let biased_exponent = (sum.to_bits() >> 52) & 0x7FF;
    // The spacing u of the sum's range, and the range's end in units of u: subnormals (and
    // zero) are spaced 2^-1074 up to 2^-1022; binade e is spaced 2^(e-52) up to 2^(e+1).
    let (spacing, end) = if biased_exponent == 0 {
        (f64::from_bits(1), TWO_POW_53 / 2)
    } else if biased_exponent > 52 {
        (f64::from_bits((biased_exponent - 52) << 52), TWO_POW_53)
    } else {
        (f64::from_bits(1 << (biased_exponent - 1)), TWO_POW_53)
    };
    let units = term / spacing; // exact: a power-of-two scaling, and next != sum so units >= 1/2
    if units >= TWO_POW_53 as f64 {
        return None;
    }
    let whole = units.floor();
    let fraction = units - whole;
    if fraction == 0.5 {
        return None;
    }
    let (whole, step) = (whole as u64, units.round() as u64);
    let at = (sum / spacing) as u64; // exact: the sum is a multiple of its spacing
                                     // Addition j (from 0) lands exactly on at + (j + 1)·step while at + j·step + units < end.
    let room = end.checked_sub(at + 1 + whole)?;
    let steps = usize::try_from(room.checked_div(step)? + 1)
        .ok()?
        .min(times);
    if steps < 2 {
        return None;
    }
    Some((steps, (at + steps as u64 * step) as f64 * spacing))
}

/// sacreBLEU's precision and recall of one order: matches over each side's n-grams, EPS where a
/// side has none. (The counts by value, so that they stay in registers.)
#[inline]
fn precision_recall(hypothesis: Count, reference: Count, matching: Count) -> (f64, f64) {
    // Below 2^53 every count converts to f64 exactly, so one division rounds once, as Python's
    // int division does; a u128 that small converts as an i64 (one instruction).
    if (hypothesis | reference | matching) >> SMALL_BITS == 0 {
        let matching = matching as i64 as f64;
        let ratio = |total: Count| {
            if total > 0 {
                matching / total as i64 as f64
            } else {
                EPS
            }
        };
        return (ratio(hypothesis), ratio(reference));
    }
    precision_recall_of_large(hypothesis, reference, matching)
}

#[cold]
fn precision_recall_of_large(hypothesis: Count, reference: Count, matching: Count) -> (f64, f64) {
    let ratio = |total: Count| {
        if total > 0 {
            true_division(matching, total)
        } else {
            EPS
        }
    };
    (ratio(hypothesis), ratio(reference))
}

/// Python's `a / b` on ints: the exact quotient rounded to the nearest double.
#[inline]
pub(crate) fn true_division(a: Count, b: Count) -> f64 {
    if a == 0 && b != 0 {
        // Most orders of most pairs of a pairwise matrix match nothing: +0.0, as Python has it.
        return 0.0;
    }
    if a <= EXACT_INT_LIMIT && b <= EXACT_INT_LIMIT {
        // Both operands are exact, so the one division rounds once, as Python does. (Through
        // u64, whose conversion is one instruction, where u128's is a library call.)
        (a as u64) as f64 / (b as u64) as f64
    } else {
        rational_division(a, b)
    }
}

#[cold]
fn rational_division(a: Count, b: Count) -> f64 {
    rational_to_f64(&BigRational::new_raw(BigInt::from(a), BigInt::from(b)))
}

/// The nearest double to an exact rational (num-rational rounds correctly, as CPython does).
fn rational_to_f64(value: &BigRational) -> f64 {
    value.to_f64().unwrap_or(f64::NAN)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::Beta;

    fn settings(char_order: usize, word_order: usize) -> Settings {
        Settings::new(char_order, word_order, Beta::integer(2).unwrap()).unwrap()
    }

    fn stats(orders: &[(Count, Count, Count)]) -> Statistics {
        Statistics::from_triples(orders)
    }

    #[test]
    fn statistics_of_another_layout_are_refused_by_every_averaging() {
        // Found by fuzzing: one order under 6-order settings scored 100.0.
        let one_order = stats(&[(1, 1, 1)]);
        let mut s = settings(6, 0);
        for eps_smoothing in [false, true] {
            s.eps_smoothing = eps_smoothing;
            assert_eq!(
                float_score(&one_order, &s),
                Err(ChrfError::OrderCountMismatch {
                    expected: 6,
                    found: 1
                })
            );
        }
    }

    #[test]
    fn worked_example_is_25_with_beta_3() {
        let mut s = settings(6, 0);
        s.beta = Beta::integer(3).unwrap();
        let st = stats(&[
            (2, 2, 1),
            (1, 1, 0),
            (0, 0, 0),
            (0, 0, 0),
            (0, 0, 0),
            (0, 0, 0),
        ]);
        assert_eq!(sacrebleu_score(st.orders(), &s), 25.0);
    }

    #[test]
    fn no_effective_order_scores_zero() {
        assert_eq!(
            sacrebleu_score(stats(&[(0, 3, 0)]).orders(), &settings(1, 0)),
            0.0
        );
    }

    #[test]
    fn eps_smoothing_averages_per_order_f() {
        let mut s = settings(2, 0);
        s.eps_smoothing = true;
        // Order 1: P = R = 1/2, F = 1/2; order 2 undefined on both sides: F = eps.
        let got = sacrebleu_score(stats(&[(2, 2, 1), (0, 0, 0)]).orders(), &s);
        assert_eq!(got, 100.0 * (0.5 + EPS) / 2.0);
    }

    fn add_one_by_one(mut sum: f64, term: f64, times: usize) -> f64 {
        for _ in 0..times {
            sum += term;
        }
        sum
    }

    #[test]
    fn repeated_additions_have_the_bits_of_the_loop() {
        let eps_term = {
            let (p, r, factor) = (EPS, EPS, 4.0);
            5.0 * p * r / (factor * p + r)
        };
        let ulp_of_one = f64::EPSILON;
        let terms = [
            EPS,
            eps_term,
            0.0,
            1.0 / 3.0,
            0.1,
            1.5 * ulp_of_one, // a tie at 1.0: rounds to even, so the sum alternates its steps
            2.5 * ulp_of_one,
            0.75 * ulp_of_one,
            f64::from_bits(1),
            f64::MIN_POSITIVE,
            1e300,
        ];
        let sums = [
            0.0,
            EPS,
            0.3,
            1.0,
            0.999_999_999_999,
            7.5,
            1e-310,
            3.0e15,
            1e308,
        ];
        for &term in &terms {
            for &sum in &sums {
                for times in [0, 1, 2, 3, 17, 1000, 65_535] {
                    let expected = add_one_by_one(sum, term, times);
                    let got = add_repeatedly(sum, term, times);
                    assert_eq!(
                        got.to_bits(),
                        expected.to_bits(),
                        "{sum:e} + {term:e} x {times}"
                    );
                }
            }
        }
    }

    #[test]
    fn repeated_additions_jump_within_a_binade() {
        // 0.3 + 1e-16 moves two units of 2^-54 at a time: all 1000 additions in one jump.
        assert_eq!(jump(0.3, EPS, 1000).map(|(steps, _)| steps), Some(1000));
        // A tie is left to one addition at a time.
        assert_eq!(jump(1.0, 1.5 * f64::EPSILON, 1000), None);
    }

    #[test]
    fn runs_score_as_the_orders_they_stand_for() {
        let orders = [
            (5, 4, 3),
            (0, 0, 0),
            (0, 0, 0),
            (4, 3, 1),
            (0, 3, 0),
            (0, 3, 0),
            (2, 0, 0),
            (0, 0, 0),
        ];
        let counts: Vec<OrderCounts> = stats(&orders).orders().to_vec();
        let runs = [
            (counts[0], 1),
            (counts[1], 2),
            (counts[3], 1),
            (counts[4], 2),
            (counts[6], 1),
            (counts[7], 1),
        ];
        for (eps_smoothing, averaging) in [
            (false, Averaging::PrecisionRecall),
            (true, Averaging::PrecisionRecall),
            (false, Averaging::PerOrderF),
        ] {
            for beta in [1, 2, 3] {
                let mut s = settings(6, 2);
                s.beta = Beta::integer(beta).unwrap();
                s.eps_smoothing = eps_smoothing;
                s.averaging = averaging;
                let whole = float_score_of_orders(&counts, &s).unwrap();
                let of_runs = float_score_of_runs(runs, &s).unwrap();
                assert_eq!(whole.to_bits(), of_runs.to_bits(), "{s:?}");
            }
        }
    }

    /// sacreBLEU's `_compute_f_score` restated plainly, order by order: every int division the
    /// exact quotient rounded once, every repeated order added once per order.
    fn restated(runs: &[Run], s: &Settings) -> f64 {
        let (factor, one_plus_factor) = (s.beta.factor(), s.beta.one_plus_factor());
        let ratio = |m: Count, total: Count| {
            if total > 0 {
                rational_division(m, total)
            } else {
                EPS
            }
        };
        let (mut eps_score, mut avg_prec, mut avg_rec) = (0.0, 0.0, 0.0);
        let (mut orders, mut effective) = (0usize, 0u64);
        for &(c, repeat) in runs {
            let (prec, rec) = (
                ratio(c.matching, c.hypothesis),
                ratio(c.matching, c.reference),
            );
            for _ in 0..repeat {
                let denom = factor * prec + rec;
                eps_score += if denom > 0.0 {
                    one_plus_factor * prec * rec / denom
                } else {
                    EPS
                };
                if c.hypothesis > 0 && c.reference > 0 {
                    avg_prec += prec;
                    avg_rec += rec;
                    effective += 1;
                }
                orders += 1;
            }
        }
        if s.eps_smoothing {
            return 100.0 * eps_score / orders as f64;
        }
        if effective > 0 {
            avg_prec /= effective as f64;
            avg_rec /= effective as f64;
        }
        if avg_prec + avg_rec != 0.0 {
            100.0 * (one_plus_factor * avg_prec * avg_rec / (factor * avg_prec + avg_rec))
        } else {
            0.0
        }
    }

    /// SplitMix64: reproducible random numbers without a dependency.
    struct Random(u64);

    impl Random {
        fn next(&mut self) -> u64 {
            self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        }

        fn below(&mut self, n: u64) -> u64 {
            self.next() % n
        }

        /// A count from the ranges that take different paths: 0, small, around 2^53 (the
        /// fast path's limit), u64-sized and beyond.
        fn count(&mut self) -> Count {
            let near = |limit: Count, offset: u64| limit - 3 + Count::from(offset);
            match self.below(8) {
                0 => 0,
                1..=3 => Count::from(self.below(40)),
                4 => near(1 << 53, self.below(7)),
                5 => Count::from(self.next()),
                6 => near(1 << 64, self.below(7)),
                _ => Count::from(self.next()) << self.below(64) | Count::from(self.next()),
            }
        }

        fn order(&mut self) -> OrderCounts {
            let mut counts = OrderCounts {
                hypothesis: self.count(),
                reference: self.count(),
                matching: self.count(),
            };
            match self.below(6) {
                // Equal counts: a perfect match, precision and recall exactly 1.
                0 => (counts.reference, counts.matching) = (counts.hypothesis, counts.hypothesis),
                // Matches within both sides, as real counts are.
                1 | 2 => {
                    counts.matching %= counts.hypothesis.min(counts.reference).saturating_add(1)
                }
                _ => {}
            }
            counts
        }
    }

    #[test]
    fn scores_of_random_counts_are_the_restated_formulas() {
        let mut random = Random(14);
        let betas = [
            Beta::integer(0).unwrap(),
            Beta::integer(1).unwrap(),
            Beta::integer(2).unwrap(),
            Beta::integer(3).unwrap(),
            Beta::exact(BigRational::new(1.into(), 2.into())).unwrap(),
            Beta::exact(BigRational::new(7.into(), 3.into()))
                .unwrap()
                .given_as_fraction(),
        ];
        let layouts = [(6, 0), (6, 2), (1, 0), (0, 2), (4, 3)];
        for case in 0..3000 {
            let (char_order, word_order) = layouts[case % layouts.len()];
            let mut s = settings(char_order, word_order);
            s.beta = betas[random.below(betas.len() as u64) as usize].clone();
            s.eps_smoothing = random.below(2) == 0;
            // per_order_f scores through this formula only with eps smoothing.
            if s.eps_smoothing && random.below(2) == 0 {
                s.averaging = Averaging::PerOrderF;
            }
            let runs: Vec<Run> = (0..1 + random.below(10))
                .map(|_| {
                    let repeat = match random.below(10) {
                        0 => 0,
                        1 => 2 + random.below(60) as usize,
                        _ => 1,
                    };
                    (random.order(), repeat)
                })
                .collect();
            if runs.iter().all(|&(_, repeat)| repeat == 0) {
                continue;
            }
            let got = float_score_of_runs(runs.iter().copied(), &s).unwrap();
            let expected = restated(&runs, &s);
            assert_eq!(got.to_bits(), expected.to_bits(), "{runs:?} {s:?}");
        }
    }

    #[test]
    fn huge_counts_divide_like_python() {
        // Values printed by CPython 3.11 for the same int divisions.
        assert_eq!(true_division(1, 3), 0.3333333333333333);
        assert_eq!(true_division(u64::MAX.into(), 3), 6.148914691236517e18);
        assert_eq!(true_division(u128::MAX, 7), 4.861176670299121e37);
        assert_eq!(true_division((1 << 53) + 1, (1 << 54) + 3), 0.5);
        assert_eq!(true_division(u128::MAX - 1, u128::MAX), 1.0);
        // Pairs where converting each operand to f64 first gives a different last bit.
        let cases = [
            (14046286627791492475, 8720394264201255075, 1.610739859028388),
            (
                9008374091908329100,
                16487797971023415208,
                0.5463661131547192,
            ),
            (5864550466695983929, 420777477969067740, 13.937415317478326),
        ];
        for (a, b, python) in cases {
            assert_eq!(true_division(a, b), python);
            assert_ne!(a as f64 / b as f64, python);
        }
    }
}
