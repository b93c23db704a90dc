//! Per-order n-gram counts: what a segment contributes, and what a corpus adds up to.

use crate::memory::{filled, held};
use crate::{ChrfError, Settings};

/// An n-gram count. 128 bits: a corpus would need 3.4e38 n-grams to overflow one, and
/// weighted reference bags (MBR aggregation) multiply counts by integer weights.
pub type Count = u128;

/// The counts of one order: hypothesis n-grams H, reference n-grams R, clipped matches M.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct OrderCounts {
    pub hypothesis: Count,
    pub reference: Count,
    pub matching: Count,
}

/// Whether an order's hypothesis n-grams count: where the reference has no n-gram of the
/// order, sacreBLEU does not count the hypothesis's ("don't count hits if no reference exists",
/// spec §1.4), unless `count_hyp_without_ref` asks to.
#[inline]
pub(crate) fn counts_hypothesis(reference_has_ngrams: bool, settings: &Settings) -> bool {
    reference_has_ngrams || settings.count_hyp_without_ref
}

/// `repeat` consecutive orders with the same counts: how the many all-zero orders past a
/// segment's length are passed without one value each.
pub(crate) type Run = (OrderCounts, usize);

impl OrderCounts {
    /// One order of a hypothesis against a reference (or a bag of references): its
    /// `hypothesis` and `reference` n-grams and their `matching` clipped matches, the
    /// hypothesis's counted as [`counts_hypothesis`] says.
    pub(crate) fn of_pair(
        hypothesis: Count,
        reference: Count,
        matching: Count,
        settings: &Settings,
    ) -> Self {
        Self {
            hypothesis: if counts_hypothesis(reference > 0, settings) {
                hypothesis
            } else {
                0
            },
            reference,
            matching,
        }
    }

    fn wrapping_sub(self, other: Self) -> Self {
        Self {
            hypothesis: self.hypothesis.wrapping_sub(other.hypothesis),
            reference: self.reference.wrapping_sub(other.reference),
            matching: self.matching.wrapping_sub(other.matching),
        }
    }

    fn checked_add(self, other: Self) -> Option<Self> {
        Some(Self {
            hypothesis: self.hypothesis.checked_add(other.hypothesis)?,
            reference: self.reference.checked_add(other.reference)?,
            matching: self.matching.checked_add(other.matching)?,
        })
    }
}

/// Counts for every order, character orders first, then word orders.
///
/// Statistics of disjoint sets of segments add up to the statistics of their union, which is
/// what makes corpus scores shardable. Addition is checked: a count never wraps silently.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Statistics {
    orders: Vec<OrderCounts>,
}

impl Statistics {
    /// The statistics of no segment at all (megabytes at the longest orders: made fallibly).
    pub fn zeros(order_count: usize) -> Result<Self, ChrfError> {
        Ok(Self {
            orders: filled(order_count, OrderCounts::default())?,
        })
    }

    pub fn from_orders(orders: Vec<OrderCounts>) -> Self {
        Self { orders }
    }

    pub fn orders(&self) -> &[OrderCounts] {
        &self.orders
    }

    /// Adds `other` order by order; fails without changing `self` if a count would overflow.
    pub fn checked_add_assign(&mut self, other: &Self) -> Result<(), ChrfError> {
        self.checked_add_orders(&other.orders)
    }

    /// Adds per-order counts; fails without changing `self` if a count would overflow.
    pub fn checked_add_orders(&mut self, other: &[OrderCounts]) -> Result<(), ChrfError> {
        if self.orders.len() != other.len() {
            return Err(ChrfError::OrderCountMismatch {
                expected: self.orders.len(),
                found: other.len(),
            });
        }
        self.checked_add_at(&[(0, other)])
    }

    /// Adds each part's counts to the orders from its offset on (the other orders are added
    /// zeros); fails without changing `self` if a count would overflow.
    pub(crate) fn checked_add_at(
        &mut self,
        parts: &[(usize, &[OrderCounts])],
    ) -> Result<(), ChrfError> {
        let end = |&(offset, counts): &(usize, &[OrderCounts])| offset.saturating_add(counts.len());
        if let Some(found) = parts.iter().map(end).find(|&end| end > self.orders.len()) {
            return Err(ChrfError::OrderCountMismatch {
                expected: self.orders.len(),
                found,
            });
        }
        // One pass; an overflow takes back what the pass added before it.
        for (part, &(offset, counts)) in parts.iter().enumerate() {
            let orders = self.orders[offset..offset + counts.len()].iter_mut();
            for (order, (a, b)) in orders.zip(counts).enumerate() {
                let Some(sum) = a.checked_add(*b) else {
                    self.take_back(parts, (part, order));
                    return Err(ChrfError::CountOverflow);
                };
                *a = sum;
            }
        }
        Ok(())
    }

    /// Subtracts what [`Statistics::checked_add_at`] added before the order it stopped at.
    #[cold]
    fn take_back(&mut self, parts: &[(usize, &[OrderCounts])], (part, order): (usize, usize)) {
        for (k, &(offset, counts)) in parts.iter().enumerate().take(part + 1) {
            let added = if k == part { &counts[..order] } else { counts };
            for (a, b) in self.orders[offset..].iter_mut().zip(added) {
                *a = a.wrapping_sub(*b);
            }
        }
    }

    /// Statistics from (hypothesis, reference, matching) triples, for tests.
    #[cfg(test)]
    pub(crate) fn from_triples(triples: &[(Count, Count, Count)]) -> Self {
        Self::from_orders(
            triples
                .iter()
                .map(|&(hypothesis, reference, matching)| OrderCounts {
                    hypothesis,
                    reference,
                    matching,
                })
                .collect(),
        )
    }

    /// The sum of two statistics (see [`Statistics::checked_add_assign`]).
    pub fn checked_add(mut self, other: &Self) -> Result<Self, ChrfError> {
        self.checked_add_assign(other)?;
        Ok(self)
    }
}

/// The number of n-grams of order `n` (from 1) in a sequence of `len` units: its windows
/// (spec §1.2).
pub(crate) fn window_count(len: usize, n: usize) -> Count {
    (len + 1).saturating_sub(n) as Count
}

/// The counts of a hypothesis against a reference, kept only as far as they can be non-zero:
/// character orders `1..=kinds[0].len()`, word orders `1..=kinds[1].len()`. Every other order of
/// the settings is all zero, as neither text has n-grams that long: a segment costs what its
/// texts' lengths do, whatever the orders.
#[derive(Default)]
pub(crate) struct PairCounts {
    pub kinds: [Vec<OrderCounts>; 2],
}

impl PairCounts {
    pub fn clear(&mut self) {
        self.kinds.iter_mut().for_each(Vec::clear);
    }

    /// Every order of the settings, character orders first, the zero ones as two runs.
    pub fn runs(&self, settings: &Settings) -> impl Iterator<Item = Run> + '_ {
        // Chained, not flattened: each step of a flattened iterator tests which part it is in.
        let [chars, words] = &self.kinds;
        let zeros = |kept: &[OrderCounts], order: usize| {
            (OrderCounts::default(), order.saturating_sub(kept.len()))
        };
        (chars.iter().map(|&counts| (counts, 1)))
            .chain([zeros(chars, settings.char_order())])
            .chain(words.iter().map(|&counts| (counts, 1)))
            .chain([zeros(words, settings.word_order())])
    }

    /// The counts of every order, as statistics.
    pub fn statistics(&self, settings: &Settings) -> Result<Statistics, ChrfError> {
        let mut total =
            Statistics::from_orders(filled(settings.order_count(), OrderCounts::default())?);
        self.add_to(&mut total, settings)?;
        Ok(total)
    }

    pub fn add_to(&self, total: &mut Statistics, settings: &Settings) -> Result<(), ChrfError> {
        total.checked_add_at(&[(0, &self.kinds[0]), (settings.char_order(), &self.kinds[1])])
    }

    pub fn held_bytes(&self) -> usize {
        self.kinds.iter().map(held).sum()
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn counts(h: Count, r: Count, m: Count) -> OrderCounts {
        OrderCounts {
            hypothesis: h,
            reference: r,
            matching: m,
        }
    }

    #[test]
    fn a_pair_counts_hypothesis_ngrams_only_where_the_reference_has_some() {
        let mut settings = Settings::new(2, 0, crate::Beta::integer(2).unwrap()).unwrap();
        assert_eq!(OrderCounts::of_pair(5, 0, 0, &settings), counts(0, 0, 0));
        assert_eq!(OrderCounts::of_pair(5, 3, 2, &settings), counts(5, 3, 2));
        settings.count_hyp_without_ref = true;
        assert_eq!(OrderCounts::of_pair(5, 0, 0, &settings), counts(5, 0, 0));
    }

    #[test]
    fn a_sequence_has_one_window_per_start_that_fits() {
        assert_eq!(window_count(4, 1), 4);
        assert_eq!(window_count(4, 4), 1);
        assert_eq!(window_count(4, 5), 0);
        assert_eq!(window_count(0, 1), 0);
    }

    #[test]
    fn addition_is_order_by_order() {
        let a = Statistics::from_orders(vec![counts(2, 2, 1), counts(1, 1, 0)]);
        let b = Statistics::from_orders(vec![counts(5, 4, 3), counts(4, 3, 2)]);
        let sum = a.checked_add(&b).unwrap();
        assert_eq!(sum.orders(), &[counts(7, 6, 4), counts(5, 4, 2)]);
    }

    #[test]
    fn overflow_is_an_error_and_leaves_the_sum_unchanged() {
        let mut a = Statistics::from_orders(vec![counts(Count::MAX, 1, 1)]);
        let before = a.clone();
        let one = Statistics::from_orders(vec![counts(1, 0, 0)]);
        assert_eq!(a.checked_add_assign(&one), Err(ChrfError::CountOverflow));
        assert_eq!(a, before);
    }

    #[test]
    fn an_overflow_after_other_orders_leaves_every_order_unchanged() {
        // Orders before the one that overflows, and a whole part before it, were added first.
        let mut total = Statistics::from_orders(vec![
            counts(5, 5, 5),
            counts(6, 6, 6),
            counts(7, 7, 7),
            counts(1, Count::MAX, 1),
        ]);
        let before = total.clone();
        let chars = [counts(1, 1, 1), counts(2, 2, 2)];
        let words = [counts(3, 3, 3), counts(0, 1, 0)];
        assert_eq!(
            total.checked_add_at(&[(0, &chars), (2, &words)]),
            Err(ChrfError::CountOverflow)
        );
        assert_eq!(total, before);
        let words = [counts(3, 3, 3), counts(0, 0, 1)];
        total.checked_add_at(&[(0, &chars), (2, &words)]).unwrap();
        assert_eq!(
            total,
            Statistics::from_orders(vec![
                counts(6, 6, 6),
                counts(8, 8, 8),
                counts(10, 10, 10),
                counts(1, Count::MAX, 2),
            ])
        );
    }

    #[test]
    fn layouts_must_match() {
        let mut a = Statistics::zeros(6).unwrap();
        assert_eq!(
            a.checked_add_assign(&Statistics::zeros(8).unwrap()),
            Err(ChrfError::OrderCountMismatch {
                expected: 6,
                found: 8
            })
        );
    }
}
