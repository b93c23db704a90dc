//! `bootstrap`: resampled scores are the float32 formula on the float32 sums of the picked rows
//! (exact integer sums while they fit float32's 24 bits), whatever the parallel split; paired
//! randomization scores are the float scores of the exact sums of the swapped systems.

use arbitrary::Arbitrary;
use chrf_core::bootstrap::{
    randomization_scores, resampled_scores, sacrebleu_score_f32, SegmentTable,
};
use chrf_core::pool::Interrupt;
use chrf_core::{sacrebleu_score, Count, OrderCounts};

use crate::input::SettingsInput;
use crate::oracle;

#[derive(Arbitrary, Debug)]
pub struct Input {
    pub settings: SettingsInput,
    /// Counts per segment: small (so their sums are exact in float32) or any `u64`.
    pub counts: Vec<u16>,
    pub huge_counts: Option<Vec<u64>>,
    pub picks: Vec<i64>,
    pub in_range: bool,
    pub system: Vec<u16>,
    pub swaps: Vec<bool>,
}

/// Orders are capped: rows hold three counts per order.
const MAX_BOOTSTRAP_ORDER: usize = 16;

pub fn check(input: &Input) {
    let Some(settings) = input.settings.build_capped(MAX_BOOTSTRAP_ORDER) else {
        return;
    };
    let width = 3 * settings.order_count();
    let counts: Vec<u64> = match &input.huge_counts {
        Some(huge) => huge.clone(),
        None => input.counts.iter().map(|&c| u64::from(c)).collect(),
    };
    let table = match SegmentTable::new(&counts, &settings) {
        Ok(table) => table,
        Err(_) => {
            assert_ne!(counts.len() % width, 0);
            return;
        }
    };
    let n = table.segment_count();
    assert_eq!(n, counts.len() / width);
    check_resamples(input, &table, &counts, &settings);
    check_randomization(input, &counts, n, &settings);
}

fn check_resamples(
    input: &Input,
    table: &SegmentTable,
    counts: &[u64],
    settings: &chrf_core::Settings,
) {
    let n = table.segment_count();
    let width = 3 * settings.order_count();
    let picks: Vec<i64> = if input.in_range && n > 0 {
        input
            .picks
            .iter()
            .map(|&p| p.rem_euclid(n as i64))
            .collect()
    } else {
        input.picks.clone()
    };
    let result = resampled_scores(table, &picks, settings, &Interrupt::default());
    let valid = n > 0
        && picks.len().is_multiple_of(n)
        && picks.iter().all(|&p| p >= 0 && (p as u64) < n as u64);
    let Ok(scores) = result else {
        assert!(!valid, "{result:?}");
        return;
    };
    assert!(valid);
    assert_eq!(scores.len(), picks.len() / n);
    let Ok(mut sums) = table.sums_buffer() else {
        return;
    };
    for (row, score) in picks.chunks(n).zip(&scores) {
        table.sum_rows(row.iter().map(|&p| p as usize), &mut sums);
        assert!(oracle::same_float(
            score.value(),
            sacrebleu_score_f32(&sums, settings).value()
        ));
        let exact: Vec<u128> = (0..width)
            .map(|j| {
                row.iter()
                    .map(|&p| Count::from(counts[p as usize * width + j]))
                    .sum()
            })
            .collect();
        if exact.iter().all(|&s| s < 1 << 24) {
            // Every sum is exact in float32: the sums are the integers.
            let as_f32: Vec<f32> = exact.iter().map(|&s| s as f32).collect();
            assert_eq!(sums, as_f32);
            if input.settings.beta.is_consistent() {
                check_close_to_double(score.value(), &exact, settings);
            }
        }
    }
}

/// float32 arithmetic stays near the double score, unless β² is so large or small that sacreBLEU's
/// float32 products overflow or vanish (as they do in sacreBLEU too), or the counts are not
/// those of real segments (matches above either side make precisions far above 1).
fn check_close_to_double(score: f64, sums: &[u128], settings: &chrf_core::Settings) {
    let consistent = sums.chunks(3).all(|c| c[2] <= c[0] && c[2] <= c[1]);
    if !consistent || !(1e-6..=1e6).contains(&settings.beta.factor()) {
        return;
    }
    let orders: Vec<OrderCounts> = sums
        .chunks(3)
        .map(|c| OrderCounts {
            hypothesis: c[0],
            reference: c[1],
            matching: c[2],
        })
        .collect();
    let double = sacrebleu_score(&orders, settings);
    assert!(
        (score - double).abs() <= 1e-4 * double.abs().max(1.0),
        "float32 {score} vs double {double} for {sums:?}"
    );
}

fn check_randomization(input: &Input, baseline: &[u64], n: usize, settings: &chrf_core::Settings) {
    let width = 3 * settings.order_count();
    let mut system: Vec<u64> = input.system.iter().map(|&c| u64::from(c)).collect();
    if input.in_range {
        system.resize(baseline.len(), 0);
    }
    let result = randomization_scores(
        baseline,
        &system,
        &input.swaps,
        settings,
        &Interrupt::default(),
    );
    let valid = system.len() == baseline.len() && n > 0 && input.swaps.len().is_multiple_of(n);
    let Ok((a, b)) = result else {
        assert!(!valid, "{result:?}");
        return;
    };
    assert!(valid);
    assert_eq!(a.len(), input.swaps.len() / n);
    assert_eq!(b.len(), a.len());
    for (trial, flags) in input.swaps.chunks(n).enumerate() {
        let mut sums = [vec![0u128; width], vec![0u128; width]];
        for (segment, &swapped) in flags.iter().enumerate() {
            let rows = [&baseline, &system.as_slice()].map(|s| &s[segment * width..][..width]);
            let (to_a, to_b) = if swapped {
                (rows[0], rows[1])
            } else {
                (rows[1], rows[0])
            };
            for j in 0..width {
                sums[0][j] += u128::from(to_a[j]);
                sums[1][j] += u128::from(to_b[j]);
            }
        }
        let score = |s: &[u128]| {
            let orders: Vec<OrderCounts> = s
                .chunks(3)
                .map(|c| OrderCounts {
                    hypothesis: c[0],
                    reference: c[1],
                    matching: c[2],
                })
                .collect();
            sacrebleu_score(&orders, settings)
        };
        assert!(
            oracle::same_float(a[trial], score(&sums[0])),
            "trial {trial}"
        );
        assert!(
            oracle::same_float(b[trial], score(&sums[1])),
            "trial {trial}"
        );
    }
}
