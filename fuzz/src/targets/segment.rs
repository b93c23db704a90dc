//! `segment_statistics`: every count as SPEC §1.3-1.5 defines it, for any texts, references
//! and settings.

use arbitrary::Arbitrary;
use chrf_core::{segment_statistics, Settings, Statistics};

use crate::input::{SettingsInput, Text};
use crate::oracle;

#[derive(Arbitrary, Debug)]
pub struct Input {
    pub settings: SettingsInput,
    pub hypothesis: Text,
    pub references: Vec<Text>,
}

pub fn check(input: &Input) {
    let Some(settings) = input.settings.build() else {
        return;
    };
    let references: Vec<&str> = input.references.iter().map(|r| r.0.as_str()).collect();
    let hypothesis = input.hypothesis.0.as_str();
    let stats =
        segment_statistics(hypothesis, references.iter().copied(), &settings).expect("segment");
    check_counts(&stats, &settings);
    assert_eq!(
        stats,
        oracle::segment_statistics(hypothesis, &references, &settings),
        "hypothesis {hypothesis:?}\nreferences {references:?}\n{settings:?}"
    );
    // Thread-local buffers are reused: a second call must not see the first one's units.
    if let Some(first) = references.first() {
        let again = segment_statistics(first, [hypothesis], &settings).expect("again");
        assert_eq!(again, oracle::pair_statistics(first, hypothesis, &settings));
    }
}

/// What holds for any segment's counts, whatever the texts.
pub fn check_counts(stats: &Statistics, settings: &Settings) {
    assert_eq!(stats.orders().len(), settings.order_count());
    for (i, counts) in stats.orders().iter().enumerate() {
        assert!(
            counts.matching <= counts.hypothesis,
            "order {i}: {counts:?}"
        );
        assert!(counts.matching <= counts.reference, "order {i}: {counts:?}");
        if counts.reference == 0 && !settings.count_hyp_without_ref {
            assert_eq!(counts.hypothesis, 0, "order {i}: {counts:?}");
        }
    }
    // Longer n-grams are fewer: counts never grow with the order, within each kind.
    let (chars, words) = stats.orders().split_at(settings.char_order());
    for kind in [chars, words] {
        for pair in kind.windows(2) {
            assert!(pair[1].hypothesis <= pair[0].hypothesis, "{kind:?}");
            assert!(pair[1].reference <= pair[0].reference, "{kind:?}");
            assert!(pair[1].matching <= pair[0].matching, "{kind:?}");
        }
    }
}
