//! The windows of long orders: the suffixes of hyp + SEP₁ + ref + SEP₂, sorted.
//!
//! A window of order up to `max_order` is the prefix of a suffix, so sorting the suffixes sorts
//! the windows, and the units two adjacent windows share are their suffixes' longest common
//! prefix, capped at `max_order`. Both separators occur once, so no common prefix runs past
//! the end of a text. Sorting is prefix doubling with counting sorts (O(n log n) whatever the
//! units), the common prefixes come from Kasai's algorithm (O(n)): no cost grows with the order.

use crate::memory::{held, refill, reserve};
use crate::pool::{poll, POLL_UNITS};
use crate::ChrfError;

/// The buffers of one sort, reused from call to call. All of them hold one value per position
/// of the joined text, but for `counts` (one per rank).
#[derive(Default)]
pub struct Suffixes {
    /// The joined text as dense ranks of its units (equal units, equal ranks).
    text: Vec<u32>,
    /// Start positions in sorted order.
    sorted: Vec<u32>,
    /// Per position: the rank of its suffix's first k units, while doubling; at the end, the
    /// suffix's index in `sorted`.
    rank: Vec<u32>,
    /// Positions ordered by their second key while doubling; at the end, per index in `sorted`,
    /// the capped common prefix with the previous suffix.
    spare: Vec<u32>,
    counts: Vec<u32>,
}

impl Suffixes {
    pub fn held_bytes(&self) -> usize {
        held(&self.text)
            + held(&self.sorted)
            + held(&self.rank)
            + held(&self.spare)
            + held(&self.counts)
    }

    /// The tally steps (units shared with the previous window, side) of the windows of both
    /// texts, in sorted order. The caller guarantees that the joined text has fewer than 2^32
    /// positions.
    pub fn sorted_steps<'s>(
        &'s mut self,
        hyp: &[u32],
        reference: &[u32],
        max_order: usize,
    ) -> Result<impl Iterator<Item = (usize, usize)> + Clone + 's, ChrfError> {
        self.rank_units(hyp, reference)?;
        self.poll_if_long()?;
        self.double()?;
        self.poll_if_long()?;
        self.common_prefixes(max_order)?;
        let separators = [hyp.len(), self.text.len() - 1];
        let mut after_separator = true;
        let steps = self
            .sorted
            .iter()
            .zip(&self.spare)
            .filter_map(move |(&start, &lcp)| {
                let start = start as usize;
                if separators.contains(&start) {
                    // A separator shares nothing with its neighbours, so neither do the windows
                    // on both sides of it.
                    after_separator = true;
                    return None;
                }
                let shared = if after_separator { 0 } else { lcp as usize };
                after_separator = false;
                Some((shared, usize::from(start > separators[0])))
            });
        Ok(steps)
    }

    /// `text` := the joined text as dense ranks, `sorted` := positions sorted by their unit,
    /// `rank` := copy of `text`.
    fn rank_units(&mut self, hyp: &[u32], reference: &[u32]) -> Result<(), ChrfError> {
        let len = hyp.len() + reference.len() + 2;
        // Separators rank above every unit, and differ from each other.
        let separator = |k: u64| u64::from(u32::MAX) + 1 + k;
        let unit_at = |position: usize| -> u64 {
            match position.checked_sub(hyp.len()) {
                None => u64::from(hyp[position]),
                Some(0) => separator(0),
                Some(offset) => reference
                    .get(offset - 1)
                    .map_or(separator(1), |&unit| u64::from(unit)),
            }
        };
        self.sorted.clear();
        reserve(&mut self.sorted, len)?;
        self.sorted.extend(0..len as u32);
        self.sorted.sort_unstable_by_key(|&p| unit_at(p as usize));
        refill(&mut self.text, len, 0)?;
        let mut rank = 0;
        let mut previous = None;
        for &position in &self.sorted {
            let unit = unit_at(position as usize);
            if previous.is_some_and(|p| p != unit) {
                rank += 1;
            }
            previous = Some(unit);
            self.text[position as usize] = rank;
        }
        self.rank.clear();
        reserve(&mut self.rank, len)?;
        self.rank.extend_from_slice(&self.text);
        Ok(())
    }

    /// Doubles k from 1 until every suffix has a rank of its own: each round sorts by (rank of
    /// the first k units, rank of the next k units), a stable counting sort by the first key
    /// of the positions already in order of the second.
    fn double(&mut self) -> Result<(), ChrfError> {
        let len = self.text.len();
        let mut classes = self.rank_count();
        let mut k = 1;
        while classes < len {
            self.poll_if_long()?; // a round costs O(len), and a long text takes many
            let (sorted, rank, spare) = (&mut self.sorted, &mut self.rank, &mut self.spare);
            spare.clear();
            reserve(spare, len)?;
            // Suffixes shorter than k + 1 have an empty second key, the smallest.
            spare.extend((len.saturating_sub(k)..len).map(|p| p as u32));
            spare.extend(
                sorted
                    .iter()
                    .filter(|&&p| p as usize >= k)
                    .map(|&p| p - k as u32),
            );
            refill(&mut self.counts, classes + 1, 0)?;
            for &p in spare.iter() {
                self.counts[rank[p as usize] as usize + 1] += 1;
            }
            for i in 1..self.counts.len() {
                self.counts[i] += self.counts[i - 1];
            }
            for &p in spare.iter() {
                let slot = &mut self.counts[rank[p as usize] as usize];
                sorted[*slot as usize] = p;
                *slot += 1;
            }
            let key = |p: u32| {
                let p = p as usize;
                (rank[p], rank.get(p + k).map_or(-1, |&r| i64::from(r)))
            };
            // New ranks, into `spare` (its positions are no longer needed).
            let mut class = 0;
            spare[sorted[0] as usize] = 0;
            for pair in sorted.windows(2) {
                if key(pair[0]) != key(pair[1]) {
                    class += 1;
                }
                spare[pair[1] as usize] = class;
            }
            std::mem::swap(rank, spare);
            classes = class as usize + 1;
            k *= 2;
        }
        Ok(())
    }

    /// Between the passes over a long text: an interrupt of the work it is part of (see
    /// [`crate::pool::watching`]) stops it there.
    fn poll_if_long(&self) -> Result<(), ChrfError> {
        if self.text.len() > POLL_UNITS {
            poll()
        } else {
            Ok(())
        }
    }

    fn rank_count(&self) -> usize {
        self.rank.iter().max().map_or(0, |&r| r as usize + 1)
    }

    /// Kasai's algorithm, with every common prefix capped at `cap`: visiting suffixes in text
    /// order, the one after a suffix sharing h units with its predecessor shares at least
    /// h - 1 with its own, so the comparisons add up to O(n). `rank` is the inverse of `sorted`
    /// once every rank is distinct.
    fn common_prefixes(&mut self, cap: usize) -> Result<(), ChrfError> {
        let len = self.text.len();
        refill(&mut self.spare, len, 0)?;
        let text = &self.text;
        let mut shared = 0;
        for position in 0..len {
            let index = self.rank[position] as usize;
            let Some(previous) = index.checked_sub(1).map(|i| self.sorted[i] as usize) else {
                shared = 0;
                continue;
            };
            while shared < cap && unit(text, position + shared) == unit(text, previous + shared) {
                shared += 1;
            }
            self.spare[index] = shared as u32;
            shared = shared.saturating_sub(1);
        }
        Ok(())
    }
}

/// The unit at `position`, with distinct stand-ins past the end: the separator at the end
/// stops every comparison before that, but this keeps the bound explicit.
fn unit(text: &[u32], position: usize) -> i64 {
    text.get(position)
        .map_or(-1 - position as i64, |&u| i64::from(u))
}
