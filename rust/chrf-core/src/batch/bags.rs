//! What every batch computation starts from: n-grams interned once per batch.
//!
//! Every distinct text of the batch is counted once: its n-grams get batch-wide ids, order by
//! order (order n's id is interned from order n-1's id and the next unit, so the ids are exact,
//! with no hash collisions). An n-gram found in only one distinct text can match only when
//! hypothesis and reference are that same text, where every n-gram matches: it needs no id,
//! and neither do its extensions, so a window grows to the next order only while it is shared.
//! The work thus ends with the longest text two texts share, whatever the orders. A text's bag
//! of shared n-grams is the sorted list of its shared windows' ids.

use rayon::prelude::*;
use rustc_hash::FxHashMap;

use crate::ids::{SharedNgramIds, Units, WordIds};
use crate::memory::{filled, out_of_memory, push, reserve, reserve_map};
use crate::pool::{try_collect, Interrupt};
use crate::text::for_each_char_unit;
use crate::{ChrfError, Settings};

/// Character n-grams, then word n-grams: the index of a kind in per-kind arrays.
pub(super) const KINDS: usize = 2;

/// The shared n-gram bags of the distinct texts of a batch.
pub(super) struct Bags {
    /// Per distinct text: its bag of shared n-grams.
    pub(super) texts: Vec<TextBag>,
    /// Per distinct text: its number of units of each kind.
    pub(super) lengths: Vec<[usize; KINDS]>,
    /// First id of each order that has shared n-grams (character orders `1..=interned[0]`, then
    /// word orders `1..=interned[1]`), and the number of ids in all (last element).
    pub(super) order_starts: Vec<u32>,
    pub(super) interned: [usize; KINDS],
}

/// The shared n-grams of one text.
#[derive(Clone, Default)]
pub(super) struct TextBag {
    /// The id of each shared window, sorted (an id as often as the text has the n-gram): ids
    /// of order n come before the ids of order n + 1, character orders before word orders.
    /// Counts are mostly 1, so this takes half the memory of (id, count) pairs.
    ids: Vec<u32>,
    /// Per order with ids: (k, end) where the order's ids start at `order_starts[k]` and end
    /// at `ids[end]`.
    pub(super) orders: Vec<(usize, usize)>,
}

impl TextBag {
    /// The (id, count) of each n-gram among `ids[range]`. A count is at most the text's number
    /// of windows of one order, below 2^32 (`SharedNgramIds::orders` checks the lengths).
    pub(super) fn counts(
        &self,
        range: std::ops::Range<usize>,
    ) -> impl Iterator<Item = (u32, u32)> + '_ {
        self.ids[range]
            .chunk_by(|a, b| a == b)
            .map(|run| (run[0], run.len() as u32))
    }

    /// Every (id, count) of the text.
    pub(super) fn all_counts(&self) -> impl Iterator<Item = (u32, u32)> + '_ {
        self.counts(0..self.ids.len())
    }
}

/// The orders of sorted ids, as [`TextBag::orders`] holds them.
fn order_spans(ids: &[u32], order_starts: &[u32]) -> Result<Vec<(usize, usize)>, ChrfError> {
    let mut spans = Vec::new();
    let mut start = 0;
    while let Some(&first) = ids.get(start) {
        let k = order_starts.partition_point(|&id| id <= first) - 1;
        let end_id = order_starts.get(k + 1).copied().unwrap_or(u32::MAX);
        let end = start + ids[start..].partition_point(|&id| id < end_id);
        push(&mut spans, (k, end))?;
        start = end;
    }
    Ok(spans)
}

/// The distinct texts of a batch, and which one each input is.
pub(super) struct Distinct<'t> {
    pub(super) texts: Vec<&'t str>,
    pub(super) hypotheses: Vec<u32>,
    pub(super) references: Vec<u32>,
}

impl<'t> Distinct<'t> {
    pub(super) fn new<S: AsRef<str>>(
        hypotheses: &'t [S],
        references: &'t [S],
    ) -> Result<Self, ChrfError> {
        let inputs = hypotheses.len() + references.len();
        if u32::try_from(inputs).is_err() {
            return Err(out_of_memory::<&str>(inputs));
        }
        let mut index: FxHashMap<&'t str, u32> = FxHashMap::default();
        reserve_map(&mut index, inputs)?;
        let mut texts = Vec::new();
        reserve(&mut texts, inputs)?;
        let mut ids = |inputs: &'t [S]| -> Result<Vec<u32>, ChrfError> {
            let mut ids = Vec::new();
            reserve(&mut ids, inputs.len())?;
            for text in inputs {
                let text = text.as_ref();
                ids.push(*index.entry(text).or_insert_with(|| {
                    texts.push(text);
                    texts.len() as u32 - 1
                }));
            }
            Ok(ids)
        };
        let hypotheses = ids(hypotheses)?;
        let references = ids(references)?;
        Ok(Self {
            texts,
            hypotheses,
            references,
        })
    }
}

impl Bags {
    /// The bags of the texts. The preparation of a whole batch takes seconds on large ones:
    /// it checks `interrupt` text by text and order by order.
    pub(super) fn new(
        texts: &[&str],
        settings: &Settings,
        interrupt: &Interrupt,
    ) -> Result<Self, ChrfError> {
        let units = units_of(texts, settings, interrupt)?;
        let mut lengths = Vec::new();
        reserve(&mut lengths, texts.len())?;
        lengths.extend((0..texts.len()).map(|t| units.each_ref().map(|kind| kind.span(t).len())));
        let mut ids_per_text: Vec<Vec<u32>> = filled(texts.len(), Vec::new())?;
        let mut interner = SharedNgramIds::default();
        let mut order_starts = vec![0u32];
        let mut interned = [0; KINDS];
        for (kind, max_order) in [settings.char_order(), settings.word_order()]
            .into_iter()
            .enumerate()
        {
            interned[kind] = interner.orders(
                &units[kind],
                max_order,
                (&mut ids_per_text, &mut order_starts),
                interrupt,
            )?;
        }
        drop(units);
        drop(interner); // its per-window tables would otherwise add to the peak below
        let bags = ids_per_text.into_par_iter().map(|mut ids| {
            interrupt.check()?;
            ids.sort_unstable();
            let orders = order_spans(&ids, &order_starts)?;
            Ok(TextBag { ids, orders })
        });
        let texts = try_collect(bags, TextBag::default())?;
        Ok(Self {
            texts,
            lengths,
            order_starts,
            interned,
        })
    }

    pub(super) fn id_count(&self) -> usize {
        self.order_starts.last().map_or(0, |&n| n as usize)
    }

    /// The (kind, order index from 0) of the order whose ids start at `order_starts[k]`.
    pub(super) fn order_of_start(&self, k: usize) -> (usize, usize) {
        if k < self.interned[0] {
            (0, k)
        } else {
            (1, k - self.interned[0])
        }
    }
}

/// The units of the texts: code points for character n-grams, token ids for word n-grams.
fn units_of(
    texts: &[&str],
    settings: &Settings,
    interrupt: &Interrupt,
) -> Result<[Units; KINDS], ChrfError> {
    let mut kinds: [Units; KINDS] = Default::default();
    let [chars, tokens] = &mut kinds;
    reserve(&mut chars.ends, texts.len())?;
    reserve(&mut tokens.ends, texts.len())?;
    if settings.char_order() > 0 {
        // At least one byte per code point.
        reserve(&mut chars.units, texts.iter().map(|text| text.len()).sum())?;
    }
    // One generation for the whole batch: a token has one id in every text.
    let mut words = WordIds::default();
    words.begin()?;
    for (t, text) in texts.iter().enumerate() {
        interrupt.check()?;
        if settings.char_order() > 0 {
            for_each_char_unit(text, settings.include_whitespace, |unit| {
                chars.units.push(unit)
            });
        }
        if settings.word_order() > 0 {
            words.push_ids(texts, t, &mut tokens.units)?;
        }
        chars.ends.push(chars.units.len());
        tokens.ends.push(tokens.units.len());
    }
    Ok(kinds)
}

/// The distinct values, in order of first appearance (values below `size`).
pub(super) fn dedup(ids: &[u32], size: usize) -> Result<Vec<u32>, ChrfError> {
    let mut seen = filled(size, false)?;
    let mut out = Vec::new();
    for &id in ids {
        if !std::mem::replace(&mut seen[id as usize], true) {
            push(&mut out, id)?;
        }
    }
    Ok(out)
}

/// Per value below `size`: the first position where it occurs in `values`.
pub(super) fn position_in(values: &[u32], size: usize) -> Result<Vec<usize>, ChrfError> {
    let mut positions = filled(size, usize::MAX)?;
    for (position, &value) in values.iter().enumerate().rev() {
        positions[value as usize] = position;
    }
    Ok(positions)
}
