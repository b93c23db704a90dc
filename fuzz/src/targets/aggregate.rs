//! `aggregate_scores`: a hypothesis against the weighted mean bag of the references. Integer
//! weights are repeated references, zero weights are absent references, scaling every weight
//! by the same factor changes nothing, and one reference gives the pairwise score.

use arbitrary::Arbitrary;
use chrf_core::pool::Interrupt;
use chrf_core::{aggregate_scores, pairwise_scores, ChrfError};

use crate::input::{SettingsInput, Text};
use crate::oracle;

#[derive(Arbitrary, Debug)]
pub struct Input {
    pub settings: SettingsInput,
    pub pool: Vec<Text>,
    pub hypotheses: Vec<u8>,
    pub references: Vec<u8>,
    pub weights: Option<Vec<u64>>,
    pub small_weights: Vec<u8>,
    pub scale: u8,
}

pub fn check(input: &Input) {
    let Some(settings) = input.settings.build() else {
        return;
    };
    let go = Interrupt::default();
    let pool: Vec<&str> = input.pool.iter().map(|t| t.0.as_str()).collect();
    let pick = |k: &u8| {
        pool.get(usize::from(*k) % pool.len().max(1))
            .copied()
            .unwrap_or("")
    };
    let hypotheses: Vec<&str> = input.hypotheses.iter().map(pick).collect();
    let references: Vec<&str> = input.references.iter().map(pick).take(32).collect();
    let same = |a: &[f64], b: &[f64]| {
        a.len() == b.len() && a.iter().zip(b).all(|(x, y)| oracle::same_float(*x, *y))
    };

    // Any weights: an answer, or one of the documented refusals.
    let weights = input.weights.as_deref();
    match aggregate_scores(&hypotheses, &references, weights, &settings, &go) {
        Ok(scores) => assert_eq!(scores.len(), hypotheses.len()),
        Err(ChrfError::NoReferences) => assert!(references.is_empty()),
        Err(ChrfError::WeightCount {
            weights: given,
            references: expected,
        }) => {
            assert_eq!(
                (Some(given), expected),
                (weights.map(<[u64]>::len), references.len())
            );
            assert_ne!(given, expected);
        }
        Err(ChrfError::CountOverflow) => assert!(weights.is_some()),
        Err(other) => panic!("{other:?}"),
    }
    if references.is_empty() {
        return;
    }

    // Small weights, at least one of them positive: exact identities.
    let mut weights: Vec<u64> = (0..references.len())
        .map(|k| u64::from(input.small_weights.get(k).copied().unwrap_or(1) % 4))
        .collect();
    if weights.iter().all(|&w| w == 0) {
        weights[0] = 1;
    }
    let weighted = aggregate_scores(&hypotheses, &references, Some(&weights), &settings, &go)
        .expect("small weights");
    let repeated: Vec<&str> = references
        .iter()
        .zip(&weights)
        .flat_map(|(r, &w)| std::iter::repeat_n(*r, w as usize))
        .collect();
    let unweighted =
        aggregate_scores(&hypotheses, &repeated, None, &settings, &go).expect("repeated");
    assert!(
        same(&weighted, &unweighted),
        "{weighted:?} != {unweighted:?}"
    );

    let factor = u64::from(input.scale).max(1);
    let scaled: Vec<u64> = weights.iter().map(|w| w * factor).collect();
    let scaled = aggregate_scores(&hypotheses, &references, Some(&scaled), &settings, &go)
        .expect("scaled weights");
    assert!(
        same(&weighted, &scaled),
        "× {factor}: {weighted:?} != {scaled:?}"
    );

    let first = &references[..1];
    let alone = aggregate_scores(&hypotheses, first, Some(&[factor]), &settings, &go).expect("one");
    let pairwise = pairwise_scores(&hypotheses, first, &settings, &go).expect("pairwise");
    assert!(same(&alone, &pairwise), "{alone:?} != {pairwise:?}");
}
