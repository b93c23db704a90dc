//! `ngrams::add_clipped_matches` against counting every window in a hash map, on any `u32`
//! units (the packed 64- and 128-bit keys, the slice fallback, both tallies).

use arbitrary::Arbitrary;
use chrf_core::ngrams::{add_clipped_matches, MatchScratch};

use crate::input::{Units, MAX_ORDER, MAX_WINDOWS};
use crate::oracle;

#[derive(Arbitrary, Debug)]
pub struct Input {
    pub hypothesis: Units,
    pub reference: Units,
    pub max_order: u16,
    /// What `matches` holds before the call: the function adds to it.
    pub start: u32,
    /// A second pair scored with the same scratch buffers, which must not leak between calls.
    pub second: Option<(Units, Units)>,
}

pub fn check(input: &Input) {
    let mut scratch = MatchScratch::default();
    let max_order = 1 + usize::from(input.max_order) % MAX_ORDER;
    let mut pairs = vec![(&input.hypothesis.0, &input.reference.0)];
    if let Some((hypothesis, reference)) = &input.second {
        pairs.push((&hypothesis.0, &reference.0));
    }
    for (hyp, reference) in pairs {
        let longest = hyp.len().max(reference.len()).max(1);
        // The oracle hashes every window of every order: long sequences get fewer orders.
        let max_order = max_order.min(MAX_WINDOWS / longest).max(1);
        let start = u64::from(input.start);
        let mut matches = vec![start; max_order];
        add_clipped_matches(hyp, reference, &mut scratch, &mut matches).expect("matches");
        let expected: Vec<u64> = oracle::clipped_matches(hyp, reference, max_order)
            .into_iter()
            .map(|m| m + start)
            .collect();
        assert_eq!(matches, expected, "hyp {hyp:?}\nref {reference:?}");
    }
}
