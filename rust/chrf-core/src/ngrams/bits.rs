//! Clipped matches of texts of at most 128 units, bit-parallel: a position is a bit of a word.
//!
//! Per unit u, a word with the bits of the positions of each text holding u. For a hypothesis
//! position i, the reference windows equal to its n-gram are found by their last position: they
//! are the bits of `R_n = (R_{n-1} << 1) & at_ref[h[i + n - 1]]`, and the hypothesis windows
//! equal to it, `S_n`, the same way. The n-gram counts at its first occurrence in the hypothesis
//! (no bit of `S_n` below i's own) as min(|S_n|, |R_n|) = min(hyp count, ref count); once `S_n`
//! holds i alone, every longer n-gram at i is unique and adds one while `R_n` is not empty, and
//! the walk up the orders stops at the first n-gram the reference lacks. Where the processor
//! counts bits in one instruction, a window of chrF's or chrF++'s few orders is counted instead,
//! every order by popcounts and without a branch ([`count_window`]). Order 1 comes from the
//! units' counts.
//!
//! The reference costs a bit per position, the hypothesis a few word operations per n-gram the
//! reference shares: fewer instructions than sorting the windows of short sentences and of
//! sentences' words. Texts of 129 to 256 units, in four words a set, cost more this way than
//! sorted, and are left to the sort (benches/NOTES.md has the measurements).

mod vector;
mod word;

pub use word::MAX_BITS_LEN;
use word::{entry, Word, MAX_ALPHABET};

/// Per unit, the positions of each text holding it, in words of 64 or 128 bits.
pub struct PositionBits {
    narrow: Tables<u64>,
    wide: Tables<u128>,
    by_position: Box<vector::ByPosition>,
}

/// Per side, a word of position bits and a count per unit; zeros between calls.
struct Tables<B> {
    at: Box<[[B; MAX_ALPHABET]; 2]>,
    counts: Box<[[u32; MAX_ALPHABET]; 2]>,
}

impl<B: Word> Default for Tables<B> {
    fn default() -> Self {
        Self {
            at: Box::new([[B::ZERO; MAX_ALPHABET]; 2]),
            counts: Box::new([[0; MAX_ALPHABET]; 2]),
        }
    }
}

impl Default for PositionBits {
    fn default() -> Self {
        Self {
            narrow: Tables::default(),
            wide: Tables::default(),
            by_position: vector::by_position(),
        }
    }
}

impl PositionBits {
    /// The bytes of the fixed tables.
    pub fn held_bytes(&self) -> usize {
        size_of::<[[u64; MAX_ALPHABET]; 2]>()
            + size_of::<[[u128; MAX_ALPHABET]; 2]>()
            + 2 * size_of::<[[u32; MAX_ALPHABET]; 2]>()
            + size_of::<vector::ByPosition>()
    }

    /// Adds the clipped matches of every order to `matches` (see [`super::add_clipped_matches`])
    /// and returns true, for texts of at most [`MAX_BITS_LEN`] units, all below `alphabet`,
    /// itself at most [`MAX_ALPHABET`]; returns false, having done nothing, for any others.
    pub fn add_clipped_matches(
        &mut self,
        texts: [&[u32]; 2],
        alphabet: usize,
        matches: &mut [u64],
    ) -> bool {
        if alphabet > MAX_ALPHABET || texts.iter().any(|text| text.len() > MAX_BITS_LEN) {
            return false;
        }
        // The tables are summed and cleared up to a multiple of 32 entries: the copies of
        // `fill` and of the sum then see a few lengths, not one per alphabet, and predict them.
        let alphabet = alphabet.next_multiple_of(32).min(MAX_ALPHABET);
        let by_position = &mut self.by_position;
        if texts.iter().all(|text| text.len() <= u64::BITS as usize) {
            add(&mut self.narrow, by_position, texts, alphabet, matches);
        } else {
            add(&mut self.wide, by_position, texts, alphabet, matches);
        }
        true
    }
}

crate::isa::two_copies! {
    /// [`add_inlined`], in the copy compiled for x86-64-v3 where the processor has it (see
    /// [`crate::isa`]).
    fn add[B: Word](
        tables: &mut Tables<B>,
        by_position: &mut vector::ByPosition,
        texts: [&[u32]; 2],
        alphabet: usize,
        matches: &mut [u64],
    ) = add_inlined;
}

#[inline(always)]
fn add_inlined<B: Word>(
    tables: &mut Tables<B>,
    by_position: &mut vector::ByPosition,
    [hyp, reference]: [&[u32]; 2],
    alphabet: usize,
    matches: &mut [u64],
) {
    let [at_hyp, at_ref] = &mut *tables.at;
    let [hyp_counts, ref_counts] = &mut *tables.counts;
    mark(hyp, at_hyp, hyp_counts);
    mark(reference, at_ref, ref_counts);
    if let Some((unigrams, higher)) = matches.split_first_mut() {
        *unigrams += (hyp_counts[..alphabet].iter().zip(&ref_counts[..alphabet]))
            .map(|(&h, &r)| u64::from(h.min(r)))
            .sum::<u64>();
        let tables = &*tables.at;
        // Where the processor counts bits in one instruction (the x86-64-v3 copy), a window's
        // orders are counted without a branch; elsewhere they are walked.
        let counted = crate::isa::runs_v3();
        // chrF's 6 character orders and chrF++'s 2 word orders take windows of a length known
        // at compile time (all but the last starts), which the compiler unrolls.
        let (start, end) = if let Ok(higher) = <&mut [u64; 5]>::try_from(&mut *higher) {
            walk_windows::<B, 6, 5>(hyp, tables, by_position, higher, counted)
        } else if let Ok(higher) = <&mut [u64; 1]>::try_from(&mut *higher) {
            walk_windows::<B, 2, 1>(hyp, tables, by_position, higher, counted)
        } else {
            (0, B::ONE)
        };
        // The bit of the hypothesis position `start`, shifted along rather than computed.
        let mut end = end;
        for start in start..hyp.len() {
            walk(&hyp[start..], end, tables, higher);
            end = end << 1;
        }
    }
    for table in tables.at.iter_mut() {
        table[..alphabet].fill(B::ZERO);
    }
    for table in tables.counts.iter_mut() {
        table[..alphabet].fill(0);
    }
}

/// [`walk`] (or with `counted`, [`count_window`]) from every start with a whole window of
/// `WINDOW` (= `HIGHER` + 1) units after it; returns the first start left, and its bit. Where the
/// processor has AVX-512's population count, every start is counted in its registers instead
/// ([`vector`]).
#[inline(always)]
fn walk_windows<B: Word, const WINDOW: usize, const HIGHER: usize>(
    hyp: &[u32],
    tables: &[[B; MAX_ALPHABET]; 2],
    by_position: &mut vector::ByPosition,
    higher: &mut [u64; HIGHER],
    counted: bool,
) -> (usize, B) {
    const { assert!(WINDOW == HIGHER + 1) };
    if vector::add_starts(hyp, tables, by_position, higher) {
        return (hyp.len(), B::ONE);
    }
    let (mut start, mut end) = (0, B::ONE);
    // Counted in a local array, which the loop addresses from the stack pointer.
    let mut found = [0u64; HIGHER];
    while let Some(window) = hyp.get(start..start + WINDOW) {
        if let Ok(window) = <&[u32; WINDOW]>::try_from(window) {
            if counted {
                count_window(window, end, tables, &mut found);
            } else {
                walk(window, end, tables, &mut found);
            }
        }
        (start, end) = (start + 1, end << 1);
    }
    for (out, found) in higher.iter_mut().zip(found) {
        *out += found;
    }
    (start, end)
}

/// [`walk`] of a whole window without a branch: every order's n-gram adds min(|S_n|, |R_n|) at
/// its first occurrence in the hypothesis, by counting bits, and nothing elsewhere (also where
/// the reference lacks it). Where the walk stops and which orders repeat in the hypothesis vary
/// from one position to the next, and their mispredicted branches cost more than the orders
/// counted past them, once the processor counts bits in one instruction.
#[inline(always)]
fn count_window<B: Word, const WINDOW: usize, const HIGHER: usize>(
    window: &[u32; WINDOW],
    mut end: B,
    [at_hyp, at_ref]: &[[B; MAX_ALPHABET]; 2],
    found: &mut [u64; HIGHER],
) {
    let first = entry(window[0]);
    let (mut in_ref, mut in_hyp) = (at_ref[first], at_hyp[first]);
    for (found, &unit) in found.iter_mut().zip(&window[1..]) {
        in_ref = in_ref << 1 & at_ref[entry(unit)];
        in_hyp = in_hyp << 1 & at_hyp[entry(unit)];
        end = end << 1;
        let first_occurrence = in_hyp & end.below() == B::ZERO;
        let both = in_hyp.ones().min(in_ref.ones());
        *found += u64::from(if first_occurrence { both } else { 0 });
    }
}

/// Sets each position's bit in its unit's word, and counts it.
#[inline(always)]
fn mark<B: Word>(text: &[u32], at: &mut [B; MAX_ALPHABET], counts: &mut [u32; MAX_ALPHABET]) {
    // The position's bit is shifted along rather than computed.
    let mut bit = B::ONE;
    for &unit in text {
        at[entry(unit)] |= bit;
        counts[entry(unit)] += 1;
        bit = bit << 1;
    }
}

/// min(|a|, |b|) of two sets of bits, one bit of each at a time: the sets are small, and the
/// x86_64 baseline has no population count instruction.
#[inline(always)]
fn fewer_ones<B: Word>(mut a: B, mut b: B) -> u64 {
    let mut both = 0;
    while a != B::ZERO && b != B::ZERO {
        (a, b) = (a & a.below(), b & b.below());
        both += 1;
    }
    both
}

/// The n-grams of orders 2 and up starting at the hypothesis position whose bit is `end`
/// (`rest` is the hypothesis from there); those of order n + 2 add to `higher[n]`.
#[inline(always)]
fn walk<B: Word>(
    rest: &[u32],
    mut end: B,
    [at_hyp, at_ref]: &[[B; MAX_ALPHABET]; 2],
    higher: &mut [u64],
) {
    let Some((&first, rest)) = rest.split_first() else {
        return;
    };
    let mut in_ref = at_ref[entry(first)];
    let mut in_hyp = at_hyp[entry(first)];
    let mut steps = rest.iter().zip(higher);
    // While the hypothesis holds the n-gram more than once: count it at its first occurrence.
    if in_hyp != end {
        for (&unit, found) in steps.by_ref() {
            (in_ref, in_hyp, end) = (in_ref << 1, in_hyp << 1, end << 1);
            in_ref &= at_ref[entry(unit)];
            if in_ref == B::ZERO {
                return;
            }
            in_hyp &= at_hyp[entry(unit)];
            if in_hyp == end {
                *found += 1;
                break;
            }
            if in_hyp & end.below() == B::ZERO {
                *found += fewer_ones(in_hyp, in_ref);
            }
        }
    }
    // Unique in the hypothesis: each n-gram the reference holds matches once.
    for (&unit, found) in steps {
        in_ref = in_ref << 1 & at_ref[entry(unit)];
        if in_ref == B::ZERO {
            return;
        }
        *found += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every hypothesis length up to the longest, against references of any length, of few units
    /// (repeated n-grams) or many: the counts of every start in AVX-512 registers equal those of
    /// [`walk`] from each start, in 64- and 128-bit words, for chrF's and chrF++'s windows.
    #[test]
    fn counts_in_registers_as_the_walk_from_every_start() {
        #[cfg(target_arch = "x86_64")]
        if is_x86_feature_detected!("avx512f") && is_x86_feature_detected!("avx512vpopcntdq") {
            let mut next = crate::seeded::below(0xBB67_AE85_84CA_A73B);
            let mut by_position = vector::by_position();
            let lengths = (0..=MAX_BITS_LEN).cycle().take(3 * MAX_BITS_LEN);
            for (case, hyp_len) in lengths.enumerate() {
                let units = [2, 7, 250][case % 3];
                let ref_len = next(MAX_BITS_LEN) + 1;
                let mut text =
                    |len: usize| -> Vec<u32> { (0..len).map(|_| next(units) as u32).collect() };
                let (hyp, reference) = (text(hyp_len), text(ref_len));
                if hyp_len.max(ref_len) <= 64 {
                    counts_agree::<u64>(&hyp, &reference, &mut by_position);
                }
                counts_agree::<u128>(&hyp, &reference, &mut by_position);
            }
        }
    }

    #[cfg(target_arch = "x86_64")]
    fn counts_agree<B: Word>(hyp: &[u32], reference: &[u32], by_position: &mut vector::ByPosition) {
        let mut tables = Tables::<B>::default();
        let [at_hyp, at_ref] = &mut *tables.at;
        let [hyp_counts, ref_counts] = &mut *tables.counts;
        mark(hyp, at_hyp, hyp_counts);
        mark(reference, at_ref, ref_counts);
        let mut walked = [0; 5];
        let mut end = B::ONE;
        for start in 0..hyp.len() {
            walk(&hyp[start..], end, &tables.at, &mut walked);
            end = end << 1;
        }
        let six = in_registers::<B, 5>(hyp, &tables.at, by_position);
        assert_eq!(six, walked, "{hyp:?} / {reference:?}");
        let two = in_registers::<B, 1>(hyp, &tables.at, by_position);
        assert_eq!(two[0], walked[0], "{hyp:?} / {reference:?}, two orders");
    }

    #[cfg(target_arch = "x86_64")]
    fn in_registers<B: Word, const HIGHER: usize>(
        hyp: &[u32],
        tables: &[[B; MAX_ALPHABET]; 2],
        by_position: &mut vector::ByPosition,
    ) -> [u64; HIGHER] {
        // Scratch left by longer texts: every bit set.
        for part in by_position.iter_mut().flatten() {
            part.fill(u64::MAX);
        }
        let mut counted = [0; HIGHER];
        // SAFETY: the processor has AVX-512F and its population count.
        #[allow(unsafe_code)]
        unsafe {
            vector::avx512::add_starts(hyp, tables, by_position, &mut counted);
        }
        counted
    }
}
