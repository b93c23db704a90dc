//! The references' bags inverted: per shared n-gram id, the columns (distinct references) whose
//! clipped matches a hypothesis holding the id adds to. A row of pairwise.rs then costs the
//! postings of its hypothesis's ids, read in sequence, instead of a lookup for every n-gram of
//! every reference.
//!
//! Samples of one sentence (an MBR pool) share most of their n-grams: most ids are held by most
//! columns, and listing those columns would make a row cost nearly an increment per n-gram and
//! column. Such an id is stored by its complement instead: the columns that do *not* hold it
//! once. A row then counts the id once for every column at once, in a per-order base, and
//! corrects the columns listed; a column's matches are the base plus its own counter.

use super::bags::Bags;
use crate::memory::{filled, push};
use crate::pool::Interrupt;
use crate::ChrfError;

/// Which ids are stored by their complement. The matches are the same integers under every
/// rule (see [`Holders`]); the rule only decides which list a row walks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Complement {
    /// Where the complement is the shorter list: the columns holding the id once outnumber
    /// those not holding it (the columns holding it more than once are listed either way).
    WhereShorter,
    /// No id: every id lists its holders.
    #[cfg(test)]
    Never,
    /// Every id, even one no column holds.
    #[cfg(test)]
    Always,
}

impl Complement {
    fn applies(self, once: usize, absent: usize) -> bool {
        match self {
            Self::WhereShorter => once > absent,
            #[cfg(test)]
            Self::Never => false,
            #[cfg(test)]
            Self::Always => true,
        }
    }
}

/// Per id, its postings. An id's columns are listed ascending, those of `plain` first, then
/// those holding it more than once, with those counts alone kept (in `counts`): a count is
/// mostly 1, and a count of 1 clips any match to 1.
pub(super) struct Postings {
    /// Per id: its columns end at `ends[id]` (and start where the previous id's end).
    ends: Vec<usize>,
    columns: Vec<u32>,
    /// Per id: the counts of its last columns, those holding it more than once, end at
    /// `repeated_ends[id]` (and start where the previous id's end), less [`COMPLEMENTED`],
    /// set where the id's plain columns are those that do not hold it: a row reads the flag
    /// with the span, from the same cache line, rather than from an array of its own.
    repeated_ends: Vec<usize>,
    counts: Vec<u32>,
}

/// The flag of a complemented id in [`Postings::repeated_ends`]: the counts of the postings
/// are fewer than their columns, which a `Vec` holds fewer than `isize::MAX` of.
const COMPLEMENTED: usize = 1 << (usize::BITS - 1);

/// An id's postings, for a hypothesis holding the id `own` ≥ 1 times. A column's clipped
/// match of the id is min(own, its count): 1 where it holds the id once, 0 where it does not
/// hold it, min(own, count) where it holds it count > 1 times.
///
/// Listed (`complemented` false): `plain` holds the id once, `repeated` hold it `counts`
/// times, every other column not at all. Complemented: every column is first counted as
/// holding it once (1 added to the order's base, the same for every column), then corrected:
/// `plain` are the columns that do not hold it (1 taken off), `repeated` those that hold it
/// `counts` times (min(own, count) − 1 added); the others hold it once, as counted.
///
/// Why the integers stay exact: a column's true matches of an order are a sum of these
/// non-negative clipped matches, below 2^32 (at most the hypothesis's windows of the order).
/// Base and counter are added with wrapping u32 arithmetic, so a counter may go "below 0"
/// when a column lacks a complemented id; but base + counter is the true sum modulo 2^32,
/// and a value below 2^32 is its own residue: the wrapped sum is the true count, exactly.
pub(super) struct Holders<'p> {
    pub(super) complemented: bool,
    pub(super) plain: &'p [u32],
    pub(super) repeated: &'p [u32],
    pub(super) counts: &'p [u32],
}

impl Postings {
    /// The postings of `references` (distinct texts; column j is `references[j]`). The work is
    /// linear in the postings: under `WhereShorter`, a complemented id is held by more than half
    /// of the columns, so listing the columns without it costs less than its holders did.
    pub(super) fn new(
        bags: &Bags,
        references: &[u32],
        rule: Complement,
        interrupt: &Interrupt,
    ) -> Result<Self, ChrfError> {
        let mut ends = filled(bags.id_count(), 0usize)?; // for now: the holders of each id
        let mut repeated_ends = filled(bags.id_count(), 0usize)?;
        for &r in references {
            for (id, count) in bags.texts[r as usize].all_counts() {
                ends[id as usize] += 1;
                repeated_ends[id as usize] += usize::from(count > 1);
            }
        }
        interrupt.check()?;
        let mut complemented = filled(bags.id_count(), false)?;
        let mut complemented_ids = Vec::new();
        for (id, (holders, &repeated)) in ends.iter_mut().zip(&repeated_ends).enumerate() {
            let (once, absent) = (*holders - repeated, references.len() - *holders);
            if rule.applies(once, absent) {
                complemented[id] = true;
                // The ids are below 2^32: they are u32 in the bags.
                push(&mut complemented_ids, id as u32)?;
                *holders = absent + repeated;
            }
        }
        // Each id's start, for now: the cursors of the filling below.
        let columns_total = starts_of(&mut ends);
        let counts_total = starts_of(&mut repeated_ends);
        let mut columns = filled(columns_total, 0u32)?;
        let mut counts = filled(counts_total, 0u32)?;
        let mut put = |id: u32, column: usize| {
            let at = &mut ends[id as usize];
            // references.len() fits u32: Distinct counts its inputs in u32.
            columns[*at] = column as u32;
            *at += 1;
        };
        // Columns ascending, the plain ones first: a pass for each list.
        for (column, &r) in references.iter().enumerate() {
            interrupt.check()?;
            let bag = &bags.texts[r as usize];
            let listed = bag.all_counts().filter(|&(id, count)| {
                count == 1 && !complemented[id as usize] // held once, listed
            });
            listed.for_each(|(id, _)| put(id, column));
            // The complemented ids this column lacks: both lists are sorted.
            let mut held = bag.all_counts().map(|(id, _)| id).peekable();
            for &id in &complemented_ids {
                while held.next_if(|&h| h < id).is_some() {}
                if held.peek() != Some(&id) {
                    put(id, column);
                }
            }
        }
        for (column, &r) in references.iter().enumerate() {
            let runs = bags.texts[r as usize].all_counts();
            for (id, count) in runs.filter(|&(_, count)| count > 1) {
                put(id, column);
                let at = &mut repeated_ends[id as usize];
                counts[*at] = count;
                *at += 1;
            }
        }
        for &id in &complemented_ids {
            repeated_ends[id as usize] |= COMPLEMENTED;
        }
        Ok(Self {
            ends,
            columns,
            repeated_ends,
            counts,
        })
    }

    #[inline]
    pub(super) fn of(&self, id: u32) -> Holders<'_> {
        let id = id as usize;
        let start = |ends: &[usize]| id.checked_sub(1).map_or(0, |previous| ends[previous]);
        let columns = start(&self.ends)..self.ends[id];
        let repeated_end = self.repeated_ends[id];
        let counts = start(&self.repeated_ends) & !COMPLEMENTED..repeated_end & !COMPLEMENTED;
        let plain = columns.len() - counts.len();
        let (plain, repeated) = self.columns[columns].split_at(plain);
        Holders {
            complemented: repeated_end & COMPLEMENTED != 0,
            plain,
            repeated,
            counts: &self.counts[counts],
        }
    }
}

/// Turns counts per id into the start of each id's span; returns their total.
fn starts_of(counts: &mut [usize]) -> usize {
    let mut total = 0;
    for count in counts {
        (*count, total) = (total, total + *count);
    }
    total
}
