//! Which n-grams and which segments cost a score (spec §9).
//!
//! Per order, the reference n-grams the hypotheses did not produce ("missing": they cost recall)
//! and the hypothesis n-grams left without a match ("extra": they cost precision). Each segment
//! is explained against the reference its statistics come from (spec §5), and under the rule of
//! spec §1.4, so that per order the missing counts sum to R − M and the extra counts to H − M of
//! the corpus statistics: an n-gram seen h times in the hypothesis and r times in the reference
//! has min(h, r) matches (spec §1.3), r − min(h, r) missing and h − min(h, r) extra.

use rayon::prelude::*;
use std::hash::Hash;

use rustc_hash::FxHashMap;

use crate::memory::{filled, out_of_memory, push, reserve, reserve_map};
use crate::pool::{self, Interrupt};
use crate::segment::best_reference;
use crate::text::{for_each_char_unit, for_each_word_token};
use crate::{float_score, ChrfError, Count, OrderCounts, Settings, Statistics};

/// N-grams with their counts, the largest count first, then in code point order.
pub type NgramCounts = Vec<(String, Count)>;

/// The n-grams of one order that cost matches.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OrderDifferences {
    /// Reference n-grams with their unmatched occurrences.
    pub missing: NgramCounts,
    /// Hypothesis n-grams with their unmatched occurrences.
    pub extra: NgramCounts,
}

/// The n-grams that cost a corpus its matches.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Explanation {
    /// Per segment, the reference stream it was explained against (spec §5).
    pub references: Vec<usize>,
    /// Per order, character orders first, then word orders.
    pub orders: Vec<OrderDifferences>,
}

/// Explains `hypotheses` against their reference streams (`references[stream][segment]`, every
/// stream as long as `hypotheses`: see [`crate::Corpus::new`]), keeping the `top` n-grams of
/// largest count per list (all of them for `None`).
pub(crate) fn explain<S: AsRef<str> + Sync>(
    hypotheses: &[S],
    references: &[Vec<S>],
    settings: &Settings,
    top: Option<usize>,
    interrupt: &Interrupt,
) -> Result<Explanation, ChrfError> {
    // Every buffer sized by the input is reserved fallibly, before the work that fills it: an
    // input too large for memory is ChrfError::OutOfMemory, never an abort.
    let mut segments: Vec<SegmentUnits> = Vec::new();
    reserve(&mut segments, hypotheses.len())?;
    segments.resize_with(hypotheses.len(), SegmentUnits::default);
    pool::run(|| {
        segments
            .par_iter_mut()
            .enumerate()
            .with_min_len(64)
            .try_for_each(|(i, slot)| {
                interrupt.check()?;
                *slot = SegmentUnits::new(hypotheses[i].as_ref(), references, i, settings)?;
                Ok::<(), ChrfError>(())
            })
    })??;
    let mut layout: Vec<(usize, usize)> = Vec::new();
    reserve(&mut layout, settings.order_count())?;
    layout.extend(
        (1..=settings.char_order())
            .map(|n| (0, n))
            .chain((1..=settings.word_order()).map(|n| (1, n))),
    );
    // The most units of any hypothesis and of any reference, per kind.
    let longest = [0, 1].map(|kind| {
        let lengths = segments
            .iter()
            .map(|s| (s.kinds[kind].0.len(), s.kinds[kind].1.len()));
        lengths.fold((0, 0), |(h, r), (a, b)| (h.max(a), r.max(b)))
    });
    let mut orders: Vec<OrderDifferences> = Vec::new();
    reserve(&mut orders, layout.len())?;
    orders.resize_with(layout.len(), OrderDifferences::default);
    pool::run(|| {
        orders
            .par_iter_mut()
            .zip(&layout)
            .try_for_each(|(slot, &(kind, n))| {
                interrupt.check()?;
                // Past every text's length, no segment has anything to explain.
                let (hyp, reference) = longest[kind];
                if n <= reference || (n <= hyp && settings.count_hyp_without_ref) {
                    *slot = order_differences(&segments, kind, n, settings, top)?;
                }
                Ok::<(), ChrfError>(())
            })
    })??;
    let mut chosen = Vec::new();
    reserve(&mut chosen, segments.len())?;
    chosen.extend(segments.iter().map(|s| s.reference));
    Ok(Explanation {
        references: chosen,
        orders,
    })
}

/// Character n-grams of up to this many units are keyed by one integer of 21 bits per code point
/// rather than by their text: no string comparison in the hash tables.
const PACKED_CHARS: usize = 6;

/// The missing and extra n-grams of one order (`kind` 0 for characters, 1 for words).
fn order_differences(
    segments: &[SegmentUnits],
    kind: usize,
    n: usize,
    settings: &Settings,
    top: Option<usize>,
) -> Result<OrderDifferences, ChrfError> {
    if kind == 0 && n <= PACKED_CHARS {
        let totals = totals_by(segments, kind, n, settings, |units| units.packed(n))?;
        split(&totals, top, |key| unpacked(key, n))
    } else {
        let totals = totals_by(segments, kind, n, settings, |units| units.ngrams(n))?;
        split(&totals, top, owned)
    }
}

/// Per n-gram key of one order, its missing and extra occurrences over all segments.
fn totals_by<'s, K: Copy + Eq + Hash, I: Iterator<Item = K>>(
    segments: &'s [SegmentUnits],
    kind: usize,
    n: usize,
    settings: &Settings,
    keys: impl Fn(&'s Units) -> I,
) -> Result<FxHashMap<K, (Count, Count)>, ChrfError> {
    let mut corpus: FxHashMap<K, (Count, Count)> = FxHashMap::default();
    let mut segment: FxHashMap<K, (usize, usize)> = FxHashMap::default();
    for units in segments {
        let (hyp, reference) = &units.kinds[kind];
        // Spec §1.4: no reference n-gram, so no hypothesis n-gram counted either.
        if reference.len() < n && !settings.count_hyp_without_ref {
            continue;
        }
        segment.clear();
        // At most one key per unit: entry() never grows the table past this.
        reserve_map(&mut segment, hyp.len().saturating_add(reference.len()))?;
        for key in keys(hyp) {
            segment.entry(key).or_default().0 += 1;
        }
        for key in keys(reference) {
            segment.entry(key).or_default().1 += 1;
        }
        reserve_map(&mut corpus, segment.len())?;
        for (&key, &(h, r)) in &segment {
            let missing = r.saturating_sub(h) as Count;
            let extra = h.saturating_sub(r) as Count;
            if missing > 0 || extra > 0 {
                let total = corpus.entry(key).or_default();
                let sum = |a: Count, b: Count| a.checked_add(b).ok_or(ChrfError::CountOverflow);
                *total = (sum(total.0, missing)?, sum(total.1, extra)?);
            }
        }
    }
    Ok(corpus)
}

fn split<K: Copy + Ord>(
    totals: &FxHashMap<K, (Count, Count)>,
    top: Option<usize>,
    text: impl Fn(K) -> Result<String, ChrfError>,
) -> Result<OrderDifferences, ChrfError> {
    Ok(OrderDifferences {
        missing: ranked(totals.iter().map(|(&k, &(m, _))| (k, m)), top, &text)?,
        extra: ranked(totals.iter().map(|(&k, &(_, e))| (k, e)), top, &text)?,
    })
}

/// The `top` n-grams of non-zero count (all for `None`), the largest count first, then in code
/// point order (the order of both keys: UTF-8 text, and code points packed first to last).
fn ranked<K: Copy + Ord>(
    counts: impl Iterator<Item = (K, Count)>,
    top: Option<usize>,
    text: &impl Fn(K) -> Result<String, ChrfError>,
) -> Result<NgramCounts, ChrfError> {
    let mut kept: Vec<(K, Count)> = Vec::new();
    for (key, count) in counts.filter(|&(_, count)| count > 0) {
        push(&mut kept, (key, count))?;
    }
    kept.sort_unstable_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    kept.truncate(top.unwrap_or(usize::MAX));
    let mut out = Vec::new();
    reserve(&mut out, kept.len())?;
    for (key, count) in kept {
        out.push((text(key)?, count));
    }
    Ok(out)
}

/// The code points a packed key holds, as text.
fn unpacked(key: u128, n: usize) -> Result<String, ChrfError> {
    let mut text = String::new();
    text.try_reserve(n * 4)
        .map_err(|_| out_of_memory::<u8>(n * 4))?;
    text.extend(
        (0..n).rev().filter_map(|k| {
            char::from_u32(((key >> (CODE_POINT_BITS * k)) & CODE_POINT_MASK) as u32)
        }),
    );
    Ok(text)
}

/// An n-gram's text, copied into memory allocated fallibly.
fn owned(ngram: &str) -> Result<String, ChrfError> {
    let mut text = String::new();
    text.try_reserve_exact(ngram.len())
        .map_err(|_| out_of_memory::<u8>(ngram.len()))?;
    text.push_str(ngram);
    Ok(text)
}

/// Every code point fits in 21 bits.
const CODE_POINT_BITS: usize = 21;
const CODE_POINT_MASK: u128 = (1 << CODE_POINT_BITS) - 1;

/// One segment's hypothesis and chosen reference as units of both kinds.
#[derive(Default)]
struct SegmentUnits {
    reference: usize,
    /// (hypothesis, reference): characters, then words.
    kinds: [(Units, Units); 2],
}

impl SegmentUnits {
    /// Segment `i`'s hypothesis and the reference its statistics take (spec §5).
    fn new<S: AsRef<str>>(
        hypothesis: &str,
        references: &[Vec<S>],
        i: usize,
        settings: &Settings,
    ) -> Result<Self, ChrfError> {
        let mut refs: Vec<&str> = Vec::new();
        reserve(&mut refs, references.len())?;
        refs.extend(
            references
                .iter()
                .filter_map(|stream| stream.get(i))
                .map(AsRef::as_ref),
        );
        let reference = best_reference(hypothesis, refs.iter().copied(), settings)?.unwrap_or(0);
        let chosen = refs.get(reference).copied().unwrap_or("");
        let (chars, words) = (settings.char_order() > 0, settings.word_order() > 0);
        let ws = settings.include_whitespace;
        Ok(Self {
            reference,
            kinds: [
                (
                    Units::chars(hypothesis, chars, ws)?,
                    Units::chars(chosen, chars, ws)?,
                ),
                (
                    Units::words(hypothesis, words)?,
                    Units::words(chosen, words)?,
                ),
            ],
        })
    }
}

/// A text's units of one kind as a string, with each unit's byte span in it: the n-gram of
/// order n at unit i is `text[spans[i].0..spans[i + n - 1].1]`. Character units are written
/// one after the other; word tokens are joined by a space (tokens hold no whitespace, so two
/// different word n-grams never read alike).
#[derive(Default)]
struct Units {
    text: String,
    spans: Vec<(usize, usize)>,
    /// The code points of character units (none for word units).
    codes: Vec<u32>,
}

impl Units {
    /// The character units of spec §1.1 (none unless `wanted`).
    fn chars(text: &str, wanted: bool, include_whitespace: bool) -> Result<Self, ChrfError> {
        let mut units = Self::default();
        if wanted {
            units.reserve(text.len())?; // at least one byte per code point: no push reallocates
            reserve(&mut units.codes, text.len())?;
            for_each_char_unit(text, include_whitespace, |code_point| {
                if let Some(c) = char::from_u32(code_point) {
                    let start = units.text.len();
                    units.text.push(c);
                    units.spans.push((start, units.text.len()));
                    units.codes.push(code_point);
                }
            });
        }
        Ok(units)
    }

    /// The word tokens of spec §4 (none unless `wanted`).
    fn words(text: &str, wanted: bool) -> Result<Self, ChrfError> {
        let mut units = Self::default();
        if wanted {
            units.reserve(text.len())?; // tokens and separators take no more than the text
            for_each_word_token(text, |token| {
                if !units.text.is_empty() {
                    units.text.push(' ');
                }
                let start = units.text.len();
                units.text.push_str(token);
                units.spans.push((start, units.text.len()));
            });
        }
        Ok(units)
    }

    fn reserve(&mut self, bytes: usize) -> Result<(), ChrfError> {
        self.text
            .try_reserve(bytes)
            .map_err(|_| out_of_memory::<u8>(bytes))?;
        reserve(&mut self.spans, bytes)
    }

    fn len(&self) -> usize {
        self.spans.len()
    }

    /// The character n-grams of order `n` (1 to [`PACKED_CHARS`]) as packed keys, in text order.
    fn packed(&self, n: usize) -> impl Iterator<Item = u128> + '_ {
        self.codes.windows(n.max(1)).map(|window| {
            let pack = |key: u128, &c: &u32| key << CODE_POINT_BITS | u128::from(c);
            window.iter().fold(0, pack)
        })
    }

    /// The n-grams of order `n` (spec §1.2), in text order.
    fn ngrams(&self, n: usize) -> impl Iterator<Item = &str> {
        self.spans
            .iter()
            .zip(self.spans.iter().skip(n.saturating_sub(1)))
            .filter_map(|(first, last)| self.text.get(first.0..last.1))
    }
}

/// For every segment i, the float score of the corpus statistics with segment i's statistics
/// taken out and `replacement`'s segment i put in (nothing, when `replacement` is `None`: the
/// corpus without segment i). Statistics are (segments, orders, 3) arrays of counts, flat.
pub fn swapped_scores(
    statistics: &[u64],
    replacement: Option<&[u64]>,
    settings: &Settings,
    interrupt: &Interrupt,
) -> Result<Vec<f64>, ChrfError> {
    let width = settings.order_count() * 3;
    let whole_rows = width > 0 && statistics.len().is_multiple_of(width);
    if !whole_rows || replacement.is_some_and(|r| r.len() != statistics.len()) {
        return Err(ChrfError::StatisticsShape);
    }
    let mut total =
        Statistics::from_orders(filled(settings.order_count(), OrderCounts::default())?);
    for row in statistics.chunks_exact(width) {
        total.checked_add_orders(&orders_of(row)?)?;
    }
    let mut scores = filled(statistics.len() / width, 0.0)?;
    pool::run(|| {
        scores
            .par_iter_mut()
            .zip(statistics.par_chunks_exact(width))
            .enumerate()
            .with_min_len(64)
            .try_for_each(|(i, (slot, row))| {
                interrupt.check()?;
                let added = replacement.and_then(|r| r.chunks_exact(width).nth(i));
                *slot = float_score(&swapped(&total, row, added)?, settings)?;
                Ok::<(), ChrfError>(())
            })
    })??;
    Ok(scores)
}

/// `total` less one segment's counts, plus another's.
fn swapped(
    total: &Statistics,
    out: &[u64],
    added: Option<&[u64]>,
) -> Result<Statistics, ChrfError> {
    let mut orders = orders_of(out)?;
    for (order, t) in orders.iter_mut().zip(total.orders()) {
        // A segment's counts are part of the total: the difference cannot be negative.
        let less = |a: Count, b: Count| a.checked_sub(b).ok_or(ChrfError::StatisticsShape);
        *order = OrderCounts {
            hypothesis: less(t.hypothesis, order.hypothesis)?,
            reference: less(t.reference, order.reference)?,
            matching: less(t.matching, order.matching)?,
        };
    }
    let mut result = Statistics::from_orders(orders);
    if let Some(added) = added {
        result.checked_add_orders(&orders_of(added)?)?;
    }
    Ok(result)
}

fn orders_of(row: &[u64]) -> Result<Vec<OrderCounts>, ChrfError> {
    let mut orders = Vec::new();
    reserve(&mut orders, row.len() / 3)?;
    orders.extend(row.chunks_exact(3).map(|c| OrderCounts {
        hypothesis: c[0].into(),
        reference: c[1].into(),
        matching: c[2].into(),
    }));
    Ok(orders)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::{segment_statistics, Beta};

    fn settings(char_order: usize, word_order: usize) -> Settings {
        Settings::new(char_order, word_order, Beta::integer(2).unwrap()).unwrap()
    }

    fn explained(hyps: &[&str], refs: &[Vec<&str>], s: &Settings) -> Explanation {
        explain(hyps, refs, s, None, &Interrupt::default()).unwrap()
    }

    fn owned(counts: &[(&str, Count)]) -> NgramCounts {
        counts.iter().map(|&(g, c)| (g.to_owned(), c)).collect()
    }

    #[test]
    fn missing_and_extra_ngrams_of_one_pair() {
        let s = settings(2, 1);
        let e = explained(&["the cat."], &[vec!["a cat"]], &s);
        // chars "thecat." vs "acat"; words [the, cat, .] vs [a, cat].
        assert_eq!(e.orders[0].missing, owned(&[("a", 1)]));
        let top = explain(
            &["the cat."],
            &[vec!["a cat"]],
            &s,
            Some(2),
            &Interrupt::default(),
        );
        assert_eq!(top.unwrap().orders[0].extra, owned(&[(".", 1), ("e", 1)]));
        assert_eq!(
            e.orders[0].extra,
            owned(&[(".", 1), ("e", 1), ("h", 1), ("t", 1)])
        );
        assert_eq!(e.orders[1].missing, owned(&[("ac", 1)]));
        assert_eq!(e.orders[2].missing, owned(&[("a", 1)]));
        assert_eq!(e.orders[2].extra, owned(&[(".", 1), ("the", 1)]));
    }

    #[test]
    fn orders_past_every_reference_count_extra_ngrams_only_under_the_contract_rule() {
        let mut s = settings(4, 0);
        assert_eq!(
            explained(&["abcd"], &[vec!["ab"]], &s).orders[3],
            Default::default()
        );
        s.count_hyp_without_ref = true;
        let e = explained(&["abcd"], &[vec!["ab"]], &s);
        assert_eq!(e.orders[3].extra, owned(&[("abcd", 1)]));
        assert_eq!(e.orders[2].extra, owned(&[("abc", 1), ("bcd", 1)]));
    }

    #[test]
    fn word_ngrams_are_tokens_joined_by_a_space() {
        let e = explained(&["x y"], &[vec!["a b, c"]], &settings(0, 2));
        assert_eq!(
            e.orders[1].missing,
            owned(&[(", c", 1), ("a b", 1), ("b ,", 1)])
        );
    }

    #[test]
    fn sums_are_the_corpus_differences_under_either_rule_and_the_best_reference() {
        let hyps = ["the cat sat on the mat", "ab", "a dog barked loudly", ""];
        let refs = vec![
            vec!["a cat sat on a mat", "a", "the dog barked", "x y"],
            vec!["the cat sat on the mat", "abc", "dogs bark", ""],
        ];
        for count_hyp_without_ref in [false, true] {
            let mut s = settings(6, 2);
            s.count_hyp_without_ref = count_hyp_without_ref;
            let e = explained(&hyps, &refs, &s);
            assert_eq!(e.references, vec![1, 1, 0, 0]);
            let mut total = Statistics::zeros(8).unwrap();
            for (i, hyp) in hyps.iter().enumerate() {
                let segment = segment_statistics(hyp, refs.iter().map(|r| r[i]), &s).unwrap();
                total.checked_add_assign(&segment).unwrap();
            }
            for (order, counts) in e.orders.iter().zip(total.orders()) {
                let sum = |v: &NgramCounts| v.iter().map(|(_, c)| c).sum::<Count>();
                assert_eq!(sum(&order.missing), counts.reference - counts.matching);
                assert_eq!(sum(&order.extra), counts.hypothesis - counts.matching);
            }
        }
    }

    #[test]
    fn swapped_scores_are_the_scores_of_the_changed_corpora() {
        let s = settings(2, 0);
        let rows: [[u64; 6]; 3] = [[4, 4, 2, 3, 3, 1], [2, 5, 2, 1, 4, 0], [3, 3, 3, 2, 2, 2]];
        let flat: Vec<u64> = rows.iter().flatten().copied().collect();
        let other: Vec<u64> = rows.iter().rev().flatten().copied().collect();
        let none = Interrupt::default();
        let without = swapped_scores(&flat, None, &s, &none).unwrap();
        let swapped = swapped_scores(&flat, Some(&other), &s, &none).unwrap();
        let sum = |picked: &[&[u64; 6]]| {
            let mut total = Statistics::zeros(2).unwrap();
            for row in picked {
                total
                    .checked_add_orders(&orders_of(&row[..]).unwrap())
                    .unwrap();
            }
            float_score(&total, &s).unwrap()
        };
        assert_eq!(without[0], sum(&[&rows[1], &rows[2]]));
        assert_eq!(without[2], sum(&[&rows[0], &rows[1]]));
        assert_eq!(swapped[0], sum(&[&rows[2], &rows[1], &rows[2]]));
        assert_eq!(swapped[1], sum(&[&rows[0], &rows[1], &rows[2]]));
        assert_eq!(
            swapped_scores(&flat[1..], None, &s, &none),
            Err(ChrfError::StatisticsShape)
        );
    }
}
