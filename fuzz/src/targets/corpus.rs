//! `Corpus`: statistics of many segments, in parallel, equal to the order-by-order sum of the
//! segments' statistics computed one at a time; segment scores equal each segment's float score.

use arbitrary::Arbitrary;
use chrf_core::pool::{self, Interrupt};
use chrf_core::{components, float_score, segment_statistics, ChrfError, Corpus, Statistics};

use crate::input::{SettingsInput, Text};
use crate::oracle;

/// Segments pick their texts from a small pool, so that hundreds of segments (enough for
/// several parallel tasks) take few bytes.
#[derive(Arbitrary, Debug)]
pub struct Input {
    pub settings: SettingsInput,
    pub pool: Vec<Text>,
    pub hypotheses: Vec<u8>,
    /// Per stream, an offset into the pool, and a length change (0 for an aligned stream).
    pub streams: Vec<(u8, u8)>,
    /// 240 and above: a pool of that many threads (modulo the maximum); 0: one per CPU.
    pub threads: u8,
}

/// Orders are capped: the oracle is sequential and costs O(order) per unit.
const MAX_CORPUS_ORDER: usize = 32;

pub fn check(input: &Input) {
    let Some(settings) = input.settings.build_capped(MAX_CORPUS_ORDER) else {
        return;
    };
    if input.pool.is_empty() {
        return;
    }
    let pick = |k: usize| input.pool[k % input.pool.len()].0.clone();
    let hypotheses: Vec<String> = input.hypotheses.iter().map(|&k| pick(k.into())).collect();
    let streams: Vec<Vec<String>> = input
        .streams
        .iter()
        .map(|&(offset, change)| {
            let len = (hypotheses.len() + usize::from(change % 3)).saturating_sub(1);
            let len = if change % 4 == 1 {
                hypotheses.len()
            } else {
                len
            };
            (0..len).map(|i| pick(i + usize::from(offset))).collect()
        })
        .collect();

    let corpus = match Corpus::new(&hypotheses, &streams) {
        Ok(corpus) => corpus,
        Err(error) => {
            let aligned = streams.iter().all(|s| s.len() == hypotheses.len());
            assert!(streams.is_empty() || !aligned, "{error:?}");
            assert!(matches!(
                error,
                ChrfError::NoReferences | ChrfError::StreamLength { .. }
            ));
            return;
        }
    };
    assert!(!streams.is_empty() && streams.iter().all(|s| s.len() == hypotheses.len()));
    assert_eq!(corpus.len(), hypotheses.len());
    assert_eq!(corpus.is_empty(), hypotheses.is_empty());

    let one_at_a_time: Vec<Statistics> = hypotheses
        .iter()
        .enumerate()
        .map(|(i, hyp)| {
            let references = streams.iter().map(|s| s[i].as_str());
            segment_statistics(hyp, references, &settings).expect("segment")
        })
        .collect();
    // Now and then another thread count, so that the parallel split varies (the results may
    // not); rarely, since each change builds a new pool.
    let threads = match input.threads {
        0 => Some(None),
        n @ 240.. => Some(Some(1 + usize::from(n) % pool::max_thread_count())),
        _ => None,
    };
    if let Some(threads) = threads {
        pool::set_thread_count(threads).expect("a valid thread count");
    }
    let go = Interrupt::default();
    assert_eq!(
        corpus.segment_statistics(&settings, &go).expect("segments"),
        one_at_a_time
    );
    let total = corpus
        .statistics(&settings, &go)
        .expect("small counts cannot overflow");
    assert_eq!(total, oracle::sum(&one_at_a_time, settings.order_count()));

    let scores = corpus
        .segment_scores(&settings, &go)
        .expect("segment scores");
    assert_eq!(scores.len(), hypotheses.len());
    for (score, stats) in scores.iter().zip(&one_at_a_time) {
        let alone = float_score(stats, &settings).expect("float score");
        assert!(oracle::same_float(*score, alone), "{score} != {alone}");
    }
    if !settings.eps_smoothing {
        components(&total, &settings).expect("components of a corpus");
    }
}
