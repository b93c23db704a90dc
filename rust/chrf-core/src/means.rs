//! How the per-order values become one score: the one place where the orders are averaged
//! (spec §1.6, §1.7), in floats and exactly. Every score (sacreBLEU's float formula, chrF++.py's
//! sentence F, the exact components and the exact per-order-F score) feeds its orders' values
//! here in the orders' sequence and takes its means from here, so that how the orders weigh is
//! decided in this module alone.
//!
//! The float sums add in the orders' sequence, one rounding per order (a run of equal orders
//! adds its value as many times), as sacreBLEU's loop does: the same operations in the same
//! order give the same bits.

use std::ops::{Add, Div, Mul};

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::Zero;

use crate::{ChrfError, Settings};

/// A number the float means sum: a Python float, or one of sacreBLEU's bootstrap scalars.
pub(crate) trait Term:
    Copy + Add<Output = Self> + Mul<Output = Self> + Div<Output = Self>
{
    /// A Python float literal (0.0, 100.0), or a count as Python converts it.
    fn python(value: f64) -> Self;
    /// `self + term + term + …` with `times` additions, each rounded.
    fn add_repeatedly(self, term: Self, times: usize) -> Self {
        (0..times).fold(self, |sum, _| sum + term)
    }
}

/// `sum` plus a run of `repeat` equal terms, one rounding each.
#[inline]
fn add_run<T: Term>(sum: T, term: T, repeat: usize) -> T {
    match repeat {
        1 => sum + term,
        _ => sum.add_repeatedly(term, repeat),
    }
}

/// The running sums of sacreBLEU's means (`CHRF._compute_f_score`): precision and recall over
/// the effective orders, and, with eps smoothing, F over all orders.
pub(crate) struct FloatMeans<T> {
    eps_smoothing: bool,
    /// The orders passed so far.
    orders: usize,
    /// The effective ones among them.
    effective: u64,
    precision: T,
    recall: T,
    f: T,
}

impl<T: Term> FloatMeans<T> {
    #[inline]
    pub(crate) fn new(settings: &Settings) -> Self {
        let zero = T::python(0.0);
        Self {
            eps_smoothing: settings.eps_smoothing,
            orders: 0,
            effective: 0,
            precision: zero,
            recall: zero,
            f: zero,
        }
    }

    /// The next `repeat` orders, equal: `effective()` or not, of precision and recall
    /// `precision_recall()` and F `f(precision, recall)`, each asked for only where a mean
    /// takes it (without eps smoothing, only for effective orders; nothing of an empty run).
    #[inline]
    pub(crate) fn add(
        &mut self,
        repeat: usize,
        effective: impl FnOnce() -> bool,
        precision_recall: impl FnOnce() -> (T, T),
        f: impl FnOnce(T, T) -> T,
    ) {
        self.orders += repeat;
        if repeat == 0 {
            return;
        }
        let effective = effective();
        if !(effective || self.eps_smoothing) {
            return;
        }
        let (precision, recall) = precision_recall();
        if self.eps_smoothing {
            self.f = add_run(self.f, f(precision, recall), repeat);
        }
        if effective {
            self.precision = add_run(self.precision, precision, repeat);
            self.recall = add_run(self.recall, recall, repeat);
            self.effective += repeat as u64;
        }
    }

    /// The mean precision and recall over the effective orders; 0 and 0 when none is.
    #[inline]
    pub(crate) fn precision_recall(&self) -> (T, T) {
        if self.effective == 0 {
            return (self.precision, self.recall);
        }
        let k = T::python(self.effective as f64);
        (self.precision / k, self.recall / k)
    }

    /// With eps smoothing, 100 × the mean F over all orders (sacreBLEU multiplies the sum
    /// before it divides); `None` without.
    #[inline]
    pub(crate) fn percent_f(&self) -> Option<T> {
        self.eps_smoothing
            .then(|| T::python(100.0) * self.f / T::python(self.orders as f64))
    }
}

/// chrF++.py's mean of the per-order F (`sentF`): the character orders' F summed, the word
/// orders' summed, the two sums added and divided by the number of orders.
pub(crate) struct SentenceFMeans {
    /// Per kind (character, word), the F summed.
    sums: [f64; 2],
    /// The orders passed so far.
    orders: usize,
    char_order: usize,
    order_count: usize,
}

impl SentenceFMeans {
    pub(crate) fn new(settings: &Settings) -> Self {
        Self {
            sums: [0.0; 2],
            orders: 0,
            char_order: settings.char_order(),
            order_count: settings.order_count(),
        }
    }

    /// The next `repeat` orders, equal, of F `f` (`None`: an order without a match, which adds
    /// nothing there, as 0.0 adds nothing here).
    pub(crate) fn add(&mut self, repeat: usize, f: Option<f64>) {
        let Some(f) = f else {
            self.orders += repeat; // the long runs of empty orders past a segment's length
            return;
        };
        for _ in 0..repeat {
            self.sums[usize::from(self.orders >= self.char_order)] += f;
            self.orders += 1;
        }
    }

    pub(crate) fn mean(&self) -> f64 {
        (self.sums[0] + self.sums[1]) / self.order_count as f64
    }
}

/// The exact sums of the means: precision and recall over the effective orders, and, under
/// `per_order_f`, F over all orders (an order without F counting 0). Every order of
/// the settings is fed, in sequence.
pub(crate) struct ExactMeans {
    /// Whether the mean of F is taken: its sums are exact fractions, costly to add for nothing.
    mean_f: bool,
    order_count: usize,
    /// The orders passed so far.
    orders: usize,
    effective: usize,
    precision: BigRational,
    recall: BigRational,
    f: BigRational,
}

impl ExactMeans {
    pub(crate) fn new(settings: &Settings) -> Self {
        Self {
            mean_f: settings.averages_f(),
            order_count: settings.order_count(),
            orders: 0,
            effective: 0,
            precision: BigRational::zero(),
            recall: BigRational::zero(),
            f: BigRational::zero(),
        }
    }

    /// The next `repeat` orders, equal: their F, if defined, and, if effective, their
    /// precision and recall.
    pub(crate) fn add(
        &mut self,
        repeat: usize,
        f: Option<&BigRational>,
        precision_recall: Option<(&BigRational, &BigRational)>,
    ) {
        self.orders += repeat;
        let add = |sum: &mut BigRational, value: &BigRational| match repeat {
            1 => *sum += value,
            _ => *sum += value * integer(repeat),
        };
        if let Some(f) = f.filter(|_| self.mean_f) {
            add(&mut self.f, f);
        }
        if let Some((precision, recall)) = precision_recall {
            add(&mut self.precision, precision);
            add(&mut self.recall, recall);
            self.effective += repeat;
        }
    }

    /// The number of effective orders.
    pub(crate) fn effective(&self) -> usize {
        self.effective
    }

    /// The mean precision and recall over the effective orders; 0 and 0 when none is.
    pub(crate) fn precision_recall(&self) -> (BigRational, BigRational) {
        if self.effective == 0 {
            return (BigRational::zero(), BigRational::zero());
        }
        let k = integer(self.effective);
        (&self.precision / &k, &self.recall / &k)
    }

    /// The mean F over all the settings' orders (spec §1.6: ΣF / (char_order + word_order)),
    /// once every one of them has been fed; 0 unless the score is that mean (`per_order_f`).
    pub(crate) fn f(&self) -> Result<BigRational, ChrfError> {
        if self.orders != self.order_count {
            return Err(ChrfError::OrderCountMismatch {
                expected: self.order_count,
                found: self.orders,
            });
        }
        Ok(&self.f / integer(self.order_count))
    }
}

fn integer(value: usize) -> BigRational {
    BigRational::from_integer(BigInt::from(value))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::Beta;

    fn settings(char_order: usize, word_order: usize) -> Settings {
        Settings::new(char_order, word_order, Beta::integer(2).unwrap()).unwrap()
    }

    fn ratio(p: i64, q: i64) -> BigRational {
        BigRational::new(p.into(), q.into())
    }

    #[test]
    fn a_run_adds_as_its_orders_one_by_one() {
        let mut s = settings(4, 0);
        s.eps_smoothing = true;
        let (mut run, mut single) = (FloatMeans::<f64>::new(&s), FloatMeans::<f64>::new(&s));
        let values = || (0.1, 0.7);
        run.add(3, || true, values, |p, r| p * r);
        run.add(1, || false, values, |_, _| 1e-16);
        for _ in 0..3 {
            single.add(1, || true, values, |p, r| p * r);
        }
        single.add(1, || false, values, |_, _| 1e-16);
        assert_eq!(run.percent_f(), single.percent_f());
        assert_eq!(run.precision_recall(), single.precision_recall());
        let (mut exact_run, mut exact_single) = (ExactMeans::new(&s), ExactMeans::new(&s));
        let (p, r, f) = (ratio(1, 3), ratio(1, 2), ratio(5, 14));
        exact_run.add(3, Some(&f), Some((&p, &r)));
        exact_run.add(1, None, None);
        for _ in 0..3 {
            exact_single.add(1, Some(&f), Some((&p, &r)));
        }
        exact_single.add(1, None, None);
        assert_eq!(exact_run.f(), exact_single.f());
        assert_eq!(exact_run.precision_recall(), (p, r));
    }

    #[test]
    fn the_exact_f_mean_is_over_every_order_of_the_settings() {
        let mut means = ExactMeans::new(&settings(2, 1));
        means.add(2, Some(&ratio(1, 2)), None);
        let short = ChrfError::OrderCountMismatch {
            expected: 3,
            found: 2,
        };
        assert_eq!(means.f(), Err(short));
        means.add(1, None, None);
        assert!(means.f().is_ok()); // its value is exact.rs's tests'
    }

    #[test]
    fn chrfpp_sums_character_and_word_orders_apart() {
        let mut means = SentenceFMeans::new(&settings(2, 2));
        means.add(1, Some(0.5));
        means.add(1, None);
        means.add(2, Some(0.25));
        assert_eq!(means.mean(), (0.5 + 0.5) / 4.0);
    }
}
