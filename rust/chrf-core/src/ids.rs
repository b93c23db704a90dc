//! Dense ids: every interner of the crate.
//!
//! * [`CharIds`]: a segment's code points, in order of first appearance, from 128 and ASCII as
//!   itself in text of an alphabet (small ids pack more units into a window's key).
//! * [`WordIds`]: word tokens, in order of first appearance, among a segment's hypothesis and
//!   one reference, or among every text of a batch.
//! * [`SharedNgramIds`]: a batch's n-grams found in two texts or more, order after order, from
//!   the batch's [`Units`].

use rustc_hash::FxHashMap;

use crate::memory::{boxed_array, filled, held, out_of_memory, push, refill, reserve, reserve_map};
use crate::pool::{poll, Interrupt, POLL_UNITS};
use crate::text::{for_each_code_point_in, for_each_word, Script};
use crate::ChrfError;

mod vector;

/// Small ids for the code points of one segment, in order of first appearance (whitespace left
/// out of the units may take ids too, see [`CharIds::write_ids`]). In a segment whose first text is
/// in an alphabet, an ASCII code point is its own id and others take ids from 128: most of
/// such text is ASCII, whose ids then cost a test, and most sentences' ids stay below 256, as
/// the bit-parallel matching needs (see [`crate::ngrams`]). Its tables are
/// bounded by the number of code points, not by the input, yet large enough (hundreds of KiB,
/// tens of MiB for every astral code point) that they are allocated fallibly.
pub(crate) struct CharIds {
    /// Per BMP code point, the generation it was last seen in and its id then (see [`Stamp`]):
    /// the ids of earlier generations are stale, so that a clear writes nothing.
    bmp: Box<[u32; BMP]>,
    /// The generation of the ids given since the last clear: never 0, which fresh slots hold.
    generation: u32,
    astral: FxHashMap<u32, u32>,
    /// Whether `astral` could not grow while ids were written: the ids are then void.
    astral_refused: bool,
    /// Code points below this are their own ids: [`ASCII`] or 0, chosen by the segment's first
    /// text (see [`CharIds::write_ids`]).
    own_ids: u32,
    /// Whether no text was written since the last clear.
    fresh: bool,
    next: u32,
}

/// The ASCII code points, which in text of an alphabet are their own ids.
const ASCII: u32 = 0x80;

/// The code points of the Basic Multilingual Plane.
const BMP: usize = 0x10000;

/// A slot of [`CharIds`]' table: a generation in the high bits, an id in the low
/// [`Stamp::ID_BITS`], enough for every code point Unicode has.
struct Stamp;

impl Stamp {
    const ID_BITS: u32 = 21;
    const IDS: u32 = (1 << Self::ID_BITS) - 1;
    /// Generations wrap to 1 here, the table zeroed once.
    const GENERATIONS: u32 = 1 << (u32::BITS - Self::ID_BITS);
}

impl CharIds {
    pub(crate) fn new() -> Result<Self, ChrfError> {
        Ok(Self {
            bmp: boxed_array(0)?,
            generation: 1,
            astral: FxHashMap::default(),
            astral_refused: false,
            own_ids: 0,
            fresh: true,
            next: 0,
        })
    }

    /// Writes the id of each of `text`'s units (see [`for_each_char_unit`]) into `out`, which
    /// has room for them all; returns their number. The whitespace rule is a type parameter so
    /// that the loop does not test it per code point. With ASCII as its own ids, the processor's
    /// AVX-512 registers decode the text where it has them ([`vector`]).
    pub(crate) fn write_ids<const WITH_WHITESPACE: bool>(
        &mut self,
        text: &str,
        out: &mut [u32],
    ) -> usize {
        let mut script = None;
        if std::mem::take(&mut self.fresh) {
            // In text of an alphabet, ASCII is most code points, and then costs no lookup. In
            // CJK text, ids counted from 0 keep more sentences' ids below 256 (see
            // [`crate::ngrams`]).
            let first = Script::of(text);
            self.own_ids = if first == Script::Other { 0 } else { ASCII };
            self.next = self.own_ids;
            script = Some(first);
        }
        if self.own_ids == ASCII {
            if let Some(written) = vector::write_ids::<_, WITH_WHITESPACE>(self, text, out) {
                return written;
            }
        }
        let script = script.unwrap_or_else(|| Script::of(text));
        if self.own_ids == ASCII {
            self.write_each::<WITH_WHITESPACE, true>(script, text, out)
        } else {
            self.write_each::<WITH_WHITESPACE, false>(script, text, out)
        }
    }

    /// [`CharIds::write_ids`] with ASCII as its own ids or not: a constant, so that the decoder's
    /// test of ASCII is the only one.
    #[inline(always)]
    fn write_each<const WITH_WHITESPACE: bool, const OWN_ASCII: bool>(
        &mut self,
        script: Script,
        text: &str,
        out: &mut [u32],
    ) -> usize {
        let mut written = 0;
        // Every code point is written, and those left out (whitespace) written over: where
        // words end varies too much for a branch to predict. Those left out take ids too, which
        // no unit written holds: ids stay small enough, and the counts do not change.
        for_each_code_point_in(script, text, WITH_WHITESPACE, |unit, kept| {
            if let Some(slot) = out.get_mut(written) {
                *slot = if OWN_ASCII && unit < ASCII {
                    unit
                } else {
                    self.id(unit)
                };
            }
            written += usize::from(kept);
        });
        written
    }

    /// Out of memory if the ids written since the last call are void: the table of astral
    /// code points could not grow.
    pub(crate) fn check_written(&mut self) -> Result<(), ChrfError> {
        if std::mem::take(&mut self.astral_refused) {
            let entries = self.astral.len().saturating_add(1);
            return Err(out_of_memory::<(u32, u32)>(entries));
        }
        Ok(())
    }

    /// A BMP code point's first sight in the generation costs nothing more in the loop; astral
    /// code points take a hash map out of line.
    #[inline(always)]
    fn id(&mut self, code_point: u32) -> u32 {
        let Some(slot) = self.bmp.get_mut(code_point as usize) else {
            return self.astral_id(code_point);
        };
        // Without a branch: whether a code point is new varies from one to the next, and a
        // mispredicted branch costs more than the store made for every code point.
        let seen = *slot >> Stamp::ID_BITS == self.generation;
        let id = if seen { *slot & Stamp::IDS } else { self.next };
        self.next += u32::from(!seen);
        *slot = self.generation << Stamp::ID_BITS | id;
        id
    }

    #[cold]
    #[inline(never)]
    fn astral_id(&mut self, code_point: u32) -> u32 {
        if let Some(&id) = self.astral.get(&code_point) {
            return id;
        }
        // The loop that asks for ids cannot stop: a table that cannot grow is reported after it.
        if reserve_map(&mut self.astral, 1).is_err() {
            self.astral_refused = true;
            return 0;
        }
        let id = self.next;
        self.astral.insert(code_point, id);
        self.next += 1;
        id
    }

    /// Every id given since the last clear is below this.
    pub(crate) fn count(&self) -> u32 {
        self.next
    }

    /// The heap bytes held, but for the fixed tables.
    pub(crate) fn held_bytes(&self) -> usize {
        self.astral.capacity() * size_of::<(u32, u32)>()
    }

    pub(crate) fn clear(&mut self) {
        self.generation += 1;
        if self.generation == Stamp::GENERATIONS {
            self.bmp.fill(0);
            self.generation = 1;
        }
        self.astral.clear();
        self.astral_refused = false;
        self.fresh = true;
        self.next = 0;
    }
}

impl vector::Table for CharIds {
    #[inline(always)]
    fn id_past_ascii(&mut self, code_point: u32) -> u32 {
        self.id(code_point)
    }

    fn write_scalar<const WITH_WHITESPACE: bool>(&mut self, part: &str, out: &mut [u32]) -> usize {
        self.write_each::<WITH_WHITESPACE, true>(Script::Alphabet, part, out)
    }
}

/// Word tokens as small integers in order of first appearance, equal tokens getting equal ids
/// among the texts read since [`WordIds::begin`]: a segment's hypothesis and one reference, or
/// every text of a batch. An open-addressing table of the tokens' places in their texts and
/// their [`TokenKey`]s (no token is copied), kept from use to use (entries of earlier uses are
/// told apart by a generation number), so that no pair of a segment allocates or clears a
/// table. It holds between 2 and 4 slots per distinct token, doubling as tokens come.
#[derive(Default)]
pub(crate) struct WordIds {
    /// The (start, end) byte offsets of the tokens of the text being read.
    tokens: Vec<(u32, u32)>,
    slots: Vec<WordSlot>,
    /// Distinct tokens since `begin`: the slots of the current generation.
    distinct: usize,
    generation: u32,
}

/// A table slot; generation 0 is never current, so that fresh slots are empty.
#[derive(Clone, Copy, Default)]
struct WordSlot {
    generation: u32,
    id: u32,
    key: TokenKey,
    text: u32,
    start: u32,
}

/// A token's length and its first and last 8 bytes (zero-padded): the token itself for tokens
/// of at most 16 bytes, most words; longer ones also compare their bytes. Made by two loads and
/// masks, without a branch on the length: where a word ends varies from one to the next, and
/// hashing its bytes in chunks and comparing them with `memcmp` branch on it.
#[derive(Clone, Copy, Default, PartialEq, Eq)]
struct TokenKey {
    len: u32,
    first: u64,
    last: u64,
}

/// Tokens of more bytes than this are not told apart by their [`TokenKey`] alone.
const KEY_BYTES: usize = 16;

impl TokenKey {
    /// The key of `text[start..end]`, a token of at least one byte.
    #[inline(always)]
    fn of(text: &[u8], start: usize, end: usize) -> Self {
        let len = end - start;
        // The bytes past 8 a token has (0 to 8), in `last`: the last 8 bytes, masked.
        let past_eight = len.saturating_sub(8).min(8);
        Self {
            len: len as u32,
            first: load(text, start) & low_bytes(len.min(8)),
            last: load(text, end.saturating_sub(8)) & !low_bytes(8 - past_eight),
        }
    }

    #[inline(always)]
    fn hash(self) -> u64 {
        const K: u64 = 0x9E37_79B9_7F4A_7C15;
        let mixed =
            ((self.first ^ u64::from(self.len)).wrapping_mul(K) ^ self.last).wrapping_mul(K);
        // The table indexes by the low bits, which a product takes from the factors' low bits
        // only: the high half is folded in.
        mixed ^ (mixed >> 32)
    }
}

/// The 8 bytes of `text` from `at` (little-endian), zero-padded past its end.
#[inline(always)]
fn load(text: &[u8], at: usize) -> u64 {
    match text.get(at..at + 8) {
        Some(&[a, b, c, d, e, f, g, h]) => u64::from_le_bytes([a, b, c, d, e, f, g, h]),
        _ => {
            let tail = text.get(at..).unwrap_or_default();
            let tail = &tail[..tail.len().min(8)];
            let mut word = [0u8; 8];
            word[..tail.len()].copy_from_slice(tail);
            u64::from_le_bytes(word)
        }
    }
}

/// A mask of the `n` low bytes of a word, `n` in 0..=8.
#[inline(always)]
fn low_bytes(n: usize) -> u64 {
    !u64::MAX.checked_shl(8 * n as u32).unwrap_or(0)
}

/// The smallest table.
const MIN_WORD_SLOTS: usize = 64;

impl WordIds {
    /// The token ids of a hypothesis and a reference, written into `ids`: ids of their own,
    /// whatever the table read before.
    pub(crate) fn ids(
        &mut self,
        texts: [&str; 2],
        ids: [&mut Vec<u32>; 2],
    ) -> Result<(), ChrfError> {
        self.begin()?;
        for (side, out) in ids.into_iter().enumerate() {
            out.clear();
            self.push_ids(&texts, side, out)?;
        }
        Ok(())
    }

    /// Appends the ids of the tokens of `texts[text]` to `out`. The table keeps where each
    /// token is, so every call from one [`WordIds::begin`] to the next passes the same `texts`.
    pub(crate) fn push_ids(
        &mut self,
        texts: &[&str],
        text: usize,
        out: &mut Vec<u32>,
    ) -> Result<(), ChrfError> {
        let index = u32::try_from(text).map_err(|_| out_of_memory::<&str>(text))?;
        tokens_of(texts[text], &mut self.tokens)?;
        reserve(out, self.tokens.len())?;
        for k in 0..self.tokens.len() {
            if k % POLL_UNITS == POLL_UNITS - 1 {
                poll()?; // a long text's tokens, every so many of them
            }
            let (start, end) = self.tokens[k];
            let id = self.id(texts, index, start, end)?;
            out.push(id);
        }
        Ok(())
    }

    /// The number of ids given since [`WordIds::begin`]: every id is below it.
    pub(crate) fn count(&self) -> usize {
        self.distinct
    }

    pub(crate) fn held_bytes(&self) -> usize {
        held(&self.tokens) + held(&self.slots)
    }

    /// A fresh generation: every slot is empty, and ids start again from 0.
    pub(crate) fn begin(&mut self) -> Result<(), ChrfError> {
        self.generation = self.generation.wrapping_add(1);
        self.distinct = 0;
        if self.slots.is_empty() || self.generation == 0 {
            let len = self.slots.len().max(MIN_WORD_SLOTS);
            refill(&mut self.slots, len, WordSlot::default())?;
            self.generation = 1;
        }
        Ok(())
    }

    fn id(&mut self, texts: &[&str], text: u32, start: u32, end: u32) -> Result<u32, ChrfError> {
        let bytes = texts[text as usize].as_bytes();
        let key = TokenKey::of(bytes, start as usize, end as usize);
        let hash = key.hash();
        let mut index = self.home(hash);
        loop {
            let slot = self.slots[index];
            if slot.generation != self.generation {
                break;
            }
            if slot.key == key
                && (key.len as usize <= KEY_BYTES || {
                    let stored = texts[slot.text as usize].as_bytes();
                    let at = slot.start as usize;
                    stored[at..at + key.len as usize] == bytes[start as usize..end as usize]
                })
            {
                return Ok(slot.id);
            }
            index = (index + 1) & (self.slots.len() - 1);
        }
        // A new token: keep the table at most half full, so that probes stay short.
        if 2 * (self.distinct + 1) > self.slots.len() {
            self.grow()?;
            index = self.free_slot(hash);
        }
        let id = self.distinct as u32;
        self.slots[index] = WordSlot {
            generation: self.generation,
            id,
            key,
            text,
            start,
        };
        self.distinct += 1;
        Ok(id)
    }

    fn home(&self, hash: u64) -> usize {
        hash as usize & (self.slots.len() - 1)
    }

    fn free_slot(&self, hash: u64) -> usize {
        let mut index = self.home(hash);
        while self.slots[index].generation == self.generation {
            index = (index + 1) & (self.slots.len() - 1);
        }
        index
    }

    /// Doubles the table, moving the current generation's entries over.
    fn grow(&mut self) -> Result<(), ChrfError> {
        let larger = filled(2 * self.slots.len(), WordSlot::default())?;
        let old = std::mem::replace(&mut self.slots, larger);
        for slot in old.into_iter().filter(|s| s.generation == self.generation) {
            let index = self.free_slot(slot.key.hash());
            self.slots[index] = slot;
        }
        Ok(())
    }
}

/// The (start, end) byte offsets of the chrF++ tokens of `text`. Offsets are 32-bit to keep
/// the table small; a text of 4 GiB or more is refused as too large, like any other buffer
/// the memory could not hold.
fn tokens_of(text: &str, tokens: &mut Vec<(u32, u32)>) -> Result<(), ChrfError> {
    tokens.clear();
    if u32::try_from(text.len()).is_err() {
        return Err(out_of_memory::<u8>(text.len()));
    }
    let mut outcome = Ok(());
    for_each_word(text, |start, cut, end| {
        let [start, cut, end] = [start, cut, end].map(|offset| offset as u32);
        // Both tokens pushed, the second taken back if it is empty: whether a word loses a
        // mark varies from one to the next, and a branch on it would mispredict.
        for token in [(start, cut), (cut, end)] {
            if outcome.is_ok() {
                outcome = push(tokens, token);
            }
        }
        tokens.truncate(tokens.len() - usize::from(cut == end));
    });
    outcome
}

/// The units of one kind of every text, end to end: flat, so that the batch's units are a
/// few allocations, given back whole when dropped.
#[derive(Default)]
pub(crate) struct Units {
    pub(crate) units: Vec<u32>,
    /// Per text: where its units end.
    pub(crate) ends: Vec<usize>,
}

impl Units {
    pub(crate) fn span(&self, text: usize) -> std::ops::Range<usize> {
        text.checked_sub(1)
            .map_or(0, |previous| self.ends[previous])..self.ends[text]
    }
}

/// The window id of a unit where no window of the order starts, or one found in one text only.
const NO_WINDOW: u32 = u32::MAX;

/// Batch-wide ids of shared n-grams, order after order.
#[derive(Default)]
pub(crate) struct SharedNgramIds {
    /// Per unit (texts end to end): the id of the window of the order starting there, in the
    /// order's map while interning, then batch-wide (else [`NO_WINDOW`]). A window of order
    /// n is interned from the batch-wide id of its first n - 1 units, rewritten in place.
    windows: Vec<u32>,
    /// (batch-wide id of the (n-1)-gram, next unit) to the id of the n-gram in the order.
    map: FxHashMap<u64, u32>,
    /// Per id of the order: 1 + the last text seen with it, and whether an earlier text was.
    last_text: Vec<u32>,
    shared: Vec<bool>,
    /// Per id of the order: its batch-wide id, if shared.
    batch_id: Vec<u32>,
}

impl SharedNgramIds {
    /// Interns the shared n-grams of orders 1..=max_order of one kind of units, appending each
    /// text's batch-wide ids to `ids_per_text` and each order's first id to `order_starts`;
    /// returns the number of orders with a shared n-gram.
    pub(crate) fn orders(
        &mut self,
        units: &Units,
        max_order: usize,
        (ids_per_text, order_starts): (&mut [Vec<u32>], &mut Vec<u32>),
        interrupt: &Interrupt,
    ) -> Result<usize, ChrfError> {
        let texts = ids_per_text.len();
        let longest = (0..texts).map(|t| units.span(t).len()).max().unwrap_or(0);
        if u32::try_from(longest).is_err() {
            return Err(out_of_memory::<u32>(longest));
        }
        refill(&mut self.windows, units.units.len(), NO_WINDOW)?;
        for n in 1..=max_order.min(longest) {
            self.intern_order(units, n, interrupt)?;
            let base = order_starts.last().copied().unwrap_or(0);
            let count = self.number_shared(units, base, interrupt)?;
            if count == 0 {
                // No shared n-gram of order n: none of any higher order either.
                return Ok(n - 1);
            }
            push(order_starts, base + count)?;
            for (t, ids) in ids_per_text.iter_mut().enumerate() {
                interrupt.check()?;
                let windows = &mut self.windows[units.span(t)];
                for window in windows.iter_mut().filter(|w| **w != NO_WINDOW) {
                    *window = self.batch_id[*window as usize];
                }
                let shared = windows.iter().filter(|&&w| w != NO_WINDOW);
                // Exactly: the ids become the text's bag, kept to the end.
                ids.try_reserve_exact(shared.clone().count())
                    .map_err(|_| out_of_memory::<u32>(ids.len()))?;
                ids.extend(shared);
            }
        }
        Ok(max_order.min(longest))
    }

    /// The windows of order n of every text, in place: all of them for n = 1, else the
    /// shared windows of order n - 1 grown by one unit.
    fn intern_order(
        &mut self,
        units: &Units,
        n: usize,
        interrupt: &Interrupt,
    ) -> Result<(), ChrfError> {
        self.map.clear();
        for t in 0..units.ends.len() {
            interrupt.check()?;
            let span = units.span(t);
            let (text, windows) = (&units.units[span.clone()], &mut self.windows[span]);
            let starts = text.len().saturating_sub(n - 1);
            for (start, window) in windows.iter_mut().enumerate() {
                *window = if start >= starts {
                    NO_WINDOW
                } else if n == 1 {
                    intern(&mut self.map, NO_WINDOW, text[start])?
                } else if *window != NO_WINDOW {
                    intern(&mut self.map, *window, text[start + n - 1])?
                } else {
                    NO_WINDOW
                };
            }
        }
        Ok(())
    }

    /// Gives the ids of the order found in two texts or more batch-wide ids from `base` on,
    /// in `batch_id` ([`NO_WINDOW`] for the others); returns how many there are.
    fn number_shared(
        &mut self,
        units: &Units,
        base: u32,
        interrupt: &Interrupt,
    ) -> Result<u32, ChrfError> {
        let ids = self.map.len();
        refill(&mut self.last_text, ids, 0)?;
        refill(&mut self.shared, ids, false)?;
        for t in 0..units.ends.len() {
            interrupt.check()?;
            let mark = t as u32 + 1;
            for &id in self.windows[units.span(t)]
                .iter()
                .filter(|&&w| w != NO_WINDOW)
            {
                let last = &mut self.last_text[id as usize];
                if *last != mark {
                    self.shared[id as usize] |= *last != 0;
                    *last = mark;
                }
            }
        }
        refill(&mut self.batch_id, ids, NO_WINDOW)?;
        let mut count = 0u32;
        for (batch_id, _) in self
            .batch_id
            .iter_mut()
            .zip(&self.shared)
            .filter(|(_, &s)| s)
        {
            *batch_id = base
                .checked_add(count)
                .filter(|&id| id != NO_WINDOW)
                .ok_or_else(|| out_of_memory::<u32>(u32::MAX as usize))?;
            count += 1;
        }
        Ok(count)
    }
}

/// The id of the n-gram (id of its first n - 1 units, last unit) in its order's map.
fn intern(map: &mut FxHashMap<u64, u32>, head: u32, unit: u32) -> Result<u32, ChrfError> {
    let key = (u64::from(head) << 32) | u64::from(unit);
    if let Some(&id) = map.get(&key) {
        return Ok(id);
    }
    reserve_map(map, 1)?;
    let id = map.len() as u32;
    map.insert(key, id);
    Ok(id)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use std::collections::HashMap;

    #[test]
    fn char_ids_count_in_order_of_first_sight_after_every_clear_even_of_every_bmp_code_point() {
        let every: String = (0..0x1_0000).filter_map(char::from_u32).collect();
        let mut ids = CharIds::new().unwrap();
        let mut out = vec![0; every.len()];
        for _ in 0..2 {
            // Twice over, each code point keeps the id of its first sight.
            let twice = format!("{every}{every}");
            out.resize(twice.len(), 0);
            let got = ids_of(&mut ids, &twice, &mut out);
            let n = every.chars().count() as u32;
            assert_eq!(got, (0..n).chain(0..n).collect::<Vec<_>>());
            assert_eq!(ids.count(), n);
            ids.clear();
        }
    }

    #[test]
    fn a_segment_whose_first_text_is_in_an_alphabet_keeps_ascii_as_its_own_ids() {
        let mut ids = CharIds::new().unwrap();
        let mut out = vec![0; 64];
        for _ in 0..2 {
            // The first code point past ASCII takes two bytes: ASCII keeps its code points.
            let got = ids_of(&mut ids, "a\u{E9}\u{FFFD}a\u{1F600}~", &mut out);
            assert_eq!(got, [97, 128, 129, 97, 130, 126]);
            // The segment's other texts follow its first.
            assert_eq!(
                ids_of(&mut ids, "\u{4E2D}\u{E9}z", &mut out),
                [131, 128, 122]
            );
            assert_eq!(ids.count(), 132);
            ids.clear();
            // Text past ASCII in three bytes (CJK) counts every code point from 0.
            let got = ids_of(&mut ids, "\u{FFFD}a\u{E9}\u{FFFD}\u{1F600}~", &mut out);
            assert_eq!(got, [0, 1, 2, 0, 3, 4]);
            assert_eq!(ids_of(&mut ids, "a\u{4E2D}", &mut out), [1, 5]);
            assert_eq!(ids.count(), 6);
            ids.clear();
            assert_eq!(ids_of(&mut ids, "ba", &mut out), [98, 97]);
            ids.clear();
        }
    }

    #[test]
    fn char_ids_of_every_generation_are_their_own() {
        let mut ids = CharIds::new().unwrap();
        let mut out = vec![0; 16];
        // Segments alternate the order of first sight, so that an id read from an earlier
        // generation is wrong; past the last generation, they start again from the first.
        for segment in 0..2 * Stamp::GENERATIONS + 3 {
            let (text, expected) = if segment % 2 == 0 {
                ("x\u{E9}\u{E8}\u{E9}", [120, 128, 129, 128])
            } else {
                ("\u{E8}\u{E9}x\u{E8}", [128, 129, 120, 128])
            };
            assert_eq!(ids_of(&mut ids, text, &mut out), expected, "{segment}");
            ids.clear();
        }
        // A code point seen in one generation alone is new again when that generation comes
        // back.
        assert_eq!(ids_of(&mut ids, "\u{E9}\u{F1}", &mut out), [128, 129]);
        for _ in 0..Stamp::GENERATIONS - 1 {
            ids.clear();
        }
        assert_eq!(ids_of(&mut ids, "x\u{F1}", &mut out), [120, 128]);
    }

    /// Seeded texts of ASCII, whitespace of one and two bytes, code points of two, three and four
    /// bytes, in runs that cross the blocks' ends at every byte: the ids written in registers
    /// name the units of [`crate::text::for_each_char_unit`] one to one, ASCII's being themselves, with
    /// whitespace left out or kept.
    #[test]
    fn char_ids_in_registers_name_the_units_one_to_one() {
        #[cfg(target_arch = "x86_64")]
        if is_x86_feature_detected!("avx512f") && is_x86_feature_detected!("avx512bw") {
            let pieces = [
                "a", "Zq", "7", ",", " ", "\t", "\n", "\u{0B}", "\u{1C}", "\u{1F}", "\u{85}",
                "\u{A0}", "é", "жи", "ß", "\u{80}", "\u{7FF}", "„", "—", "中", "😀", "\u{2028}",
                "\u{3000}", "\u{1680}",
            ];
            let mut next = crate::seeded::below(0x3C6E_F372_FE94_F82B);
            let mut out = Vec::new();
            for case in 0..4000 {
                // Few kinds of pieces make long runs of one script, many make mixtures.
                let kinds = [1, 2, 3, 13, pieces.len()][case % 5];
                let first = next(pieces.len() - kinds + 1);
                let text: String = (0..next(300))
                    .map(|_| pieces[first + next(kinds)])
                    .collect();
                for with_whitespace in [false, true] {
                    let mut ids = CharIds::new().unwrap();
                    (ids.fresh, ids.own_ids, ids.next) = (false, ASCII, ASCII);
                    out.clear();
                    out.resize(text.len(), u32::MAX);
                    // SAFETY: the processor has AVX-512F and BW.
                    #[allow(unsafe_code)]
                    let written = unsafe {
                        if with_whitespace {
                            vector::avx512::write_ids::<_, true>(&mut ids, &text, &mut out)
                        } else {
                            vector::avx512::write_ids::<_, false>(&mut ids, &text, &mut out)
                        }
                    };
                    let mut units = Vec::new();
                    crate::text::for_each_char_unit(&text, with_whitespace, |unit| {
                        units.push(unit)
                    });
                    assert_eq!(written, units.len(), "{text:?}");
                    let (mut unit_of, mut id_of) = (HashMap::new(), HashMap::new());
                    for (&id, &unit) in out.iter().zip(&units) {
                        assert_eq!(*unit_of.entry(id).or_insert(unit), unit, "{text:?}");
                        assert_eq!(*id_of.entry(unit).or_insert(id), id, "{text:?}");
                        assert!(unit >= ASCII || id == unit, "{text:?}");
                    }
                }
            }
        }
    }

    fn ids_of(ids: &mut CharIds, text: &str, out: &mut [u32]) -> Vec<u32> {
        let written = ids.write_ids::<true>(text, out);
        out[..written].to_vec()
    }

    #[test]
    fn tokens_of_every_length_get_ids_by_their_bytes() {
        // Tokens of 1 to 40 letters (1 to 80 bytes) of two letters: many share their length,
        // first and last eight bytes and differ only inside; the last token of each text ends
        // the text.
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        let mut next = move |bound: u64| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state % bound
        };
        let texts: Vec<String> = (0..40)
            .map(|_| {
                let words: Vec<String> = (0..60)
                    .map(|_| {
                        let len = 1 + next(40) as usize;
                        (0..len)
                            .map(|_| if next(2) == 0 { 'a' } else { 'é' })
                            .collect()
                    })
                    .collect();
                words.join(" ")
            })
            .collect();
        let texts: Vec<&str> = texts.iter().map(String::as_str).collect();
        let mut table = WordIds::default();
        table.begin().unwrap();
        let mut expected: HashMap<&str, u32> = HashMap::new();
        for (k, text) in texts.iter().enumerate() {
            let mut ids = Vec::new();
            table.push_ids(&texts, k, &mut ids).unwrap();
            let tokens: Vec<&str> = text.split(' ').collect();
            assert_eq!(ids.len(), tokens.len());
            for (token, id) in tokens.into_iter().zip(ids) {
                let fresh = expected.len() as u32;
                assert_eq!(*expected.entry(token).or_insert(fresh), id, "{token}");
            }
        }
        assert_eq!(table.count(), expected.len());
    }

    #[test]
    fn word_ids_grow_with_distinct_tokens_and_restart_per_pair() {
        let words: Vec<String> = (0..500).map(|i| format!("w{}", i % 300)).collect();
        let hyp = words.join(" ");
        let reference = words[250..].join(" ");
        let mut table = WordIds::default();
        let (mut hyp_ids, mut ref_ids) = (Vec::new(), Vec::new());
        for _ in 0..3 {
            table
                .ids([&hyp, &reference], [&mut hyp_ids, &mut ref_ids])
                .unwrap();
            let expected: Vec<u32> = (0..500).map(|i| i % 300).collect();
            assert_eq!(hyp_ids, expected);
            assert_eq!(ref_ids, expected[250..]);
            assert!(table.slots.len() <= 4 * 300);
        }
        table
            .ids(["b a", "a"], [&mut hyp_ids, &mut ref_ids])
            .unwrap();
        assert_eq!(
            (hyp_ids.as_slice(), ref_ids.as_slice()),
            (&[0, 1][..], &[1][..])
        );
    }

    #[test]
    fn word_ids_of_many_texts_are_shared_by_equal_tokens() {
        // As a batch reads its texts: one generation, every text's ids appended in turn.
        let texts = ["b a b", "", "c a", "a b c d", "d"];
        let mut table = WordIds::default();
        table
            .ids(["x y", "z"], [&mut Vec::new(), &mut Vec::new()])
            .unwrap();
        table.begin().unwrap();
        let mut ids = Vec::new();
        for text in 0..texts.len() {
            table.push_ids(&texts, text, &mut ids).unwrap();
        }
        assert_eq!(ids, [0, 1, 0, 2, 1, 1, 0, 2, 3, 3]);
        assert_eq!(table.count(), 4);
    }
}
