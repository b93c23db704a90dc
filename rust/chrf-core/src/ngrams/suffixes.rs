//! The windows of long orders: the suffixes of hyp + SEP₁ + ref + SEP₂, sorted by their first
//! `max_order` units.
//!
//! A window of order up to `max_order` is the prefix of a suffix, so sorting the suffixes by
//! their first `max_order` units sorts the windows, and the units two adjacent windows share
//! are their suffixes' longest common prefix, capped at `max_order`. Both separators occur
//! once, so no common prefix runs past the end of a text.
//!
//! Sorting is prefix doubling with counting sorts, which stops as soon as the classes hold
//! `max_order` units: ⌈log₂ max_order⌉ rounds at most, however long the texts repeat themselves
//! (a full suffix sort of a text repeating itself takes log₂ of its length). The common
//! prefixes come from Kasai's algorithm (in the form of Kärkkäinen et al.'s permuted LCP array,
//! visiting suffixes in text order), where the classes the doubling ends with answer the suffixes
//! sharing all `max_order` units at once: every cost is in proportion to the text.

use std::ops::Range;

use crate::memory::{held, refill, reserve};
use crate::pool::{poll, POLL_UNITS};
use crate::ChrfError;

/// In `spare` while the common prefixes are computed: a suffix with no predecessor.
const NO_PREDECESSOR: u32 = u32::MAX;

/// The buffers of one sort, reused from call to call. All of them hold one value per position
/// of the joined text, but for `counts` (one per rank).
#[derive(Default)]
pub struct Suffixes {
    /// The joined text as dense ranks of its units (equal units, equal ranks).
    text: Vec<u32>,
    /// Start positions in sorted order.
    sorted: Vec<u32>,
    /// Per position: the rank of its suffix's first k units (its class), while doubling and
    /// after.
    rank: Vec<u32>,
    /// Positions ordered by their second key while doubling; at the end, per position, the
    /// capped common prefix of its suffix with the suffix sorted before it.
    spare: Vec<u32>,
    counts: Vec<u32>,
    /// The doubling rounds of the last sort.
    rounds: usize,
}

/// The tally steps of the sorted windows: see [`Suffixes::sorted_steps`].
pub struct SortedSteps<'s> {
    sorted: &'s [u32],
    shared: &'s [u32],
    separators: [usize; 2],
}

impl SortedSteps<'_> {
    /// The steps (units shared with the previous window, side) of the windows sorted at
    /// `range`, the separators left out: a separator is the greatest unit, so both sort last,
    /// and a window's common prefix with them is empty.
    pub fn of(
        &self,
        range: std::ops::Range<usize>,
    ) -> impl Iterator<Item = (usize, usize)> + Clone + '_ {
        let [hyp_end, end] = self.separators;
        self.sorted[range]
            .iter()
            .map(|&start| start as usize)
            .filter(move |&start| start != hyp_end && start != end)
            .map(move |start| {
                let shared = self.shared.get(start).map_or(0, |&s| s as usize);
                (shared, usize::from(start > hyp_end))
            })
    }

    /// All the steps, in chunks of [`POLL_UNITS`] windows (for polling between them).
    pub fn chunks(
        &self,
    ) -> impl Iterator<Item = impl Iterator<Item = (usize, usize)> + Clone + '_> + '_ {
        let len = self.sorted.len();
        (0..len)
            .step_by(POLL_UNITS)
            .map(move |start| self.of(start..(start + POLL_UNITS).min(len)))
    }

    pub fn all(&self) -> impl Iterator<Item = (usize, usize)> + Clone + '_ {
        self.of(0..self.sorted.len())
    }
}

impl Suffixes {
    pub fn held_bytes(&self) -> usize {
        held(&self.text)
            + held(&self.sorted)
            + held(&self.rank)
            + held(&self.spare)
            + held(&self.counts)
    }

    /// The tally steps of the windows of both texts, all of whose units are at most
    /// `max_unit`, in sorted order. The caller guarantees that the joined text has fewer than
    /// 2^32 - 1 positions.
    pub fn sorted_steps(
        &mut self,
        [hyp, reference]: [&[u32]; 2],
        max_unit: u32,
        max_order: usize,
    ) -> Result<SortedSteps<'_>, ChrfError> {
        self.rank_units(hyp, reference, max_unit)?;
        self.poll_if_long()?;
        let full = self.double(max_order)?;
        self.poll_if_long()?;
        self.common_prefixes(max_order, full)?;
        Ok(SortedSteps {
            sorted: &self.sorted,
            shared: &self.spare,
            separators: [hyp.len(), self.text.len() - 1],
        })
    }

    /// `text` := the joined text as dense ranks, `sorted` := positions sorted by their unit,
    /// `rank` := copy of `text`.
    fn rank_units(
        &mut self,
        hyp: &[u32],
        reference: &[u32],
        max_unit: u32,
    ) -> Result<(), ChrfError> {
        let len = hyp.len() + reference.len() + 2;
        // Separators rank above every unit, and differ from each other.
        let separator = |k: u64| u64::from(max_unit) + 1 + k;
        let unit_at = |position: usize| -> u64 {
            match position.checked_sub(hyp.len()) {
                None => u64::from(hyp[position]),
                Some(0) => separator(0),
                Some(offset) => reference
                    .get(offset - 1)
                    .map_or(separator(1), |&unit| u64::from(unit)),
            }
        };
        // Each pass over a long text polls as it goes, as `double`'s rounds do.
        let check = || if len > POLL_UNITS { poll() } else { Ok(()) };
        self.sorted.clear();
        reserve(&mut self.sorted, len)?;
        if (max_unit as usize) < len {
            // Dense units (as callers make them): a counting sort, linear in the text.
            refill(&mut self.counts, max_unit as usize + 4, 0)?;
            for range in poll_ranges(len) {
                check()?;
                for position in range {
                    self.counts[unit_at(position) as usize + 1] += 1;
                }
            }
            for i in 1..self.counts.len() {
                self.counts[i] += self.counts[i - 1];
            }
            self.sorted.resize(len, 0);
            for range in poll_ranges(len) {
                check()?;
                for position in range {
                    let slot = &mut self.counts[unit_at(position) as usize];
                    self.sorted[*slot as usize] = position as u32;
                    *slot += 1;
                }
            }
        } else {
            self.sorted.extend(0..len as u32);
            self.sorted.sort_unstable_by_key(|&p| unit_at(p as usize));
        }
        refill(&mut self.text, len, 0)?;
        let mut rank = 0;
        let mut previous = None;
        for range in poll_ranges(len) {
            check()?;
            for &position in &self.sorted[range] {
                let unit = unit_at(position as usize);
                if previous.is_some_and(|p| p != unit) {
                    rank += 1;
                }
                previous = Some(unit);
                self.text[position as usize] = rank;
            }
        }
        self.rank.clear();
        reserve(&mut self.rank, len)?;
        self.rank.extend_from_slice(&self.text);
        Ok(())
    }

    /// Doubles k from 1 until every suffix has a rank of its own or the ranks tell the first
    /// `max_order` units apart: each round sorts by (rank of the first k units, rank of the
    /// next k units), a stable counting sort by the first key of the positions already in
    /// order of the second. Whether every suffix has a rank of its own.
    fn double(&mut self, max_order: usize) -> Result<bool, ChrfError> {
        let len = self.text.len();
        let long = len > POLL_UNITS;
        // A round costs O(len), in passes over the positions: each polls as it goes.
        let check = || if long { poll() } else { Ok(()) };
        let mut classes = self.rank_count();
        let mut k = 1;
        self.rounds = 0;
        while classes < len && k < max_order {
            self.rounds += 1;
            check()?;
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
            check()?;
            refill(&mut self.counts, classes + 1, 0)?;
            for range in poll_ranges(len) {
                check()?;
                for &p in &spare[range] {
                    self.counts[rank[p as usize] as usize + 1] += 1;
                }
            }
            for i in 1..self.counts.len() {
                self.counts[i] += self.counts[i - 1];
            }
            for range in poll_ranges(len) {
                check()?;
                for &p in &spare[range] {
                    let slot = &mut self.counts[rank[p as usize] as usize];
                    sorted[*slot as usize] = p;
                    *slot += 1;
                }
            }
            let key = |p: u32| {
                let p = p as usize;
                (rank[p], rank.get(p + k).map_or(-1, |&r| i64::from(r)))
            };
            // New ranks, into `spare` (its positions are no longer needed).
            let mut class = 0;
            spare[sorted[0] as usize] = 0;
            for range in poll_ranges(len - 1) {
                check()?;
                for i in range {
                    let (a, b) = (sorted[i], sorted[i + 1]);
                    if key(a) != key(b) {
                        class += 1;
                    }
                    spare[b as usize] = class;
                }
            }
            std::mem::swap(rank, spare);
            classes = class as usize + 1;
            k *= 2;
        }
        Ok(classes == len)
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

    /// `spare` := per position, the common prefix (capped at `cap`) of its suffix with the
    /// suffix sorted before it. Kasai's algorithm in text order: a suffix sharing h units with
    /// its predecessor is followed by one sharing at least h - 1 with its own, so the
    /// comparisons add up to O(len).
    ///
    /// That holds whenever h < `cap`, the sort being by at least `cap` units (a suffix's
    /// predecessor then sorts strictly before it, and so do both without their first unit).
    /// When the sort is not `full`, suffixes sharing all their first `cap` units may be in any
    /// order, and the bound says nothing after one: but a suffix of its predecessor's class
    /// shares `cap` units with it, read from the classes, and any other shares fewer than the
    /// classes' units, compared from the start.
    fn common_prefixes(&mut self, cap: usize, full: bool) -> Result<(), ChrfError> {
        let len = self.text.len();
        let long = len > POLL_UNITS;
        let check = || if long { poll() } else { Ok(()) };
        refill(&mut self.spare, len, NO_PREDECESSOR)?;
        for start in (1..len).step_by(POLL_UNITS) {
            check()?;
            for i in start..(start + POLL_UNITS).min(len) {
                self.spare[self.sorted[i] as usize] = self.sorted[i - 1];
            }
        }
        let (text, rank, spare) = (&self.text, &self.rank, &mut self.spare);
        // The common prefix of the position before.
        let mut before = 0;
        for start in (0..len).step_by(POLL_UNITS) {
            check()?;
            for position in start..(start + POLL_UNITS).min(len) {
                let previous = spare[position];
                let shared = if previous == NO_PREDECESSOR {
                    0
                } else if !full && rank[position] == rank[previous as usize] {
                    cap
                } else {
                    let previous = previous as usize;
                    let mut shared = if full || before < cap {
                        before.saturating_sub(1)
                    } else {
                        0
                    };
                    while shared < cap
                        && unit(text, position + shared) == unit(text, previous + shared)
                    {
                        shared += 1;
                    }
                    shared
                };
                spare[position] = shared as u32;
                before = shared;
            }
        }
        Ok(())
    }
}

/// `0..n` in ranges of [`POLL_UNITS`] positions: a pass over a long text polls between them.
fn poll_ranges(n: usize) -> impl Iterator<Item = Range<usize>> {
    (0..n)
        .step_by(POLL_UNITS)
        .map(move |start| start..(start + POLL_UNITS).min(n))
}

/// The unit at `position`, with distinct stand-ins past the end: the separator at the end
/// stops every comparison before that, but this keeps the bound explicit.
fn unit(text: &[u32], position: usize) -> i64 {
    text.get(position)
        .map_or(-1 - position as i64, |&u| i64::from(u))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::pool::{watching, Interrupt};

    #[test]
    fn ranking_the_units_of_a_long_text_stops_at_an_interrupt() {
        // The first pass of a long segment's sort: unpolled, it delayed a Ctrl-C on a text of
        // tens of millions of units until the doubling rounds began.
        let raised = Interrupt::default();
        raised.raise();
        let text: Vec<u32> = (0..3 * POLL_UNITS as u32).map(|i| i % 7).collect();
        let mut suffixes = Suffixes::default();
        let ranked = watching(&raised, || suffixes.rank_units(&text, &text, 6));
        assert_eq!(ranked, Err(ChrfError::Cancelled));
        let short = watching(&raised, || suffixes.rank_units(&text[..99], &text[..99], 6));
        assert_eq!(short, Ok(())); // a short text never polls
    }

    #[test]
    fn a_text_repeating_itself_is_sorted_in_the_rounds_its_order_needs() {
        // Regression: the sort went on until every suffix had a rank of its own, one round per
        // doubling of the longest repeat (20 for a text of a million units repeating itself),
        // each round slower as the text grew.
        let piece: Vec<u32> = (0..1000).map(|i| (i * i + 7 * i) % 23).collect();
        let text = piece.repeat(1000);
        let mut suffixes = Suffixes::default();
        for (max_order, rounds) in [(1, 0), (2, 1), (6, 3), (40, 6), (64, 6), (65, 7)] {
            let steps = suffixes.sorted_steps([&text, &text[5..]], 22, max_order);
            let windows = steps.unwrap().all().count();
            assert_eq!(windows, 2 * text.len() - 5);
            assert_eq!(suffixes.rounds, rounds, "order {max_order}");
        }
        // A text whose units all differ has its ranks from the start.
        let distinct: Vec<u32> = (0..5000).collect();
        suffixes.sorted_steps([&distinct, &[]], 4999, 40).unwrap();
        assert_eq!(suffixes.rounds, 0);
    }
}
