//! `pairwise_scores`: cell (i, j) is the float score of hypothesis i against reference j alone,
//! bit for bit, whatever the repetitions among the texts (each distinct text is counted once).

use arbitrary::Arbitrary;
use chrf_core::pool::Interrupt;
use chrf_core::{float_score, pairwise_scores, segment_statistics};

use crate::input::{SettingsInput, Text};
use crate::oracle;

#[derive(Arbitrary, Debug)]
pub struct Input {
    pub settings: SettingsInput,
    pub pool: Vec<Text>,
    pub hypotheses: Vec<u8>,
    pub references: Vec<u8>,
}

/// Cells scored one at a time by the check: bounds its cost.
const MAX_CELLS: usize = 400;

pub fn check(input: &Input) {
    let Some(settings) = input.settings.build() else {
        return;
    };
    let pool: Vec<&str> = input.pool.iter().map(|t| t.0.as_str()).collect();
    let pick = |k: &u8| {
        pool.get(usize::from(*k) % pool.len().max(1))
            .copied()
            .unwrap_or("")
    };
    let hypotheses: Vec<&str> = input.hypotheses.iter().map(pick).collect();
    let mut references: Vec<&str> = input.references.iter().map(pick).collect();
    references.truncate(MAX_CELLS / hypotheses.len().max(1));

    let scores = pairwise_scores(&hypotheses, &references, &settings, &Interrupt::default())
        .expect("pairwise");
    assert_eq!(scores.len(), hypotheses.len() * references.len());
    for (i, hypothesis) in hypotheses.iter().enumerate() {
        for (j, reference) in references.iter().enumerate() {
            let alone = float_score(
                &segment_statistics(hypothesis, [*reference], &settings).expect("pair"),
                &settings,
            )
            .expect("float score");
            let cell = scores[i * references.len() + j];
            assert!(
                oracle::same_float(cell, alone),
                "[{i}][{j}] {cell} != {alone}: {hypothesis:?} / {reference:?}"
            );
        }
    }
}
