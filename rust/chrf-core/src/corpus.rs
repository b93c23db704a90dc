//! Statistics of many segments, computed in parallel with results independent of the thread count.

use rayon::prelude::*;

use crate::explain::{explain, Explanation};
use crate::memory::filled;
use crate::pool::{self, Interrupt};
use crate::segment::{add_segment_statistics, segment_score, segment_statistics};
use crate::{ChrfError, Settings, Statistics};

/// Segments per rayon task: small segments are too cheap to be worth a task each.
const MIN_SEGMENTS_PER_TASK: usize = 64;

/// Hypotheses with their reference streams (sacreBLEU's layout: `references[stream][segment]`).
pub struct Corpus<'a, S> {
    hypotheses: &'a [S],
    references: &'a [Vec<S>],
}

impl<'a, S: AsRef<str> + Sync> Corpus<'a, S> {
    /// Pairs the hypotheses with the reference streams; every stream needs one segment per
    /// hypothesis (sacreBLEU truncates silently, which has hurt users: this refuses instead).
    pub fn new(hypotheses: &'a [S], references: &'a [Vec<S>]) -> Result<Self, ChrfError> {
        if references.is_empty() {
            return Err(ChrfError::NoReferences);
        }
        if let Some((stream, refs)) = references
            .iter()
            .enumerate()
            .find(|(_, refs)| refs.len() != hypotheses.len())
        {
            return Err(ChrfError::StreamLength {
                stream,
                hypotheses: hypotheses.len(),
                references: refs.len(),
            });
        }
        Ok(Self {
            hypotheses,
            references,
        })
    }

    pub fn len(&self) -> usize {
        self.hypotheses.len()
    }

    pub fn is_empty(&self) -> bool {
        self.hypotheses.is_empty()
    }

    /// Whether the corpus is small enough to score on the calling thread: below
    /// [`pool::INLINE_BYTES`] of text, handing the work to the pool and back costs more than the
    /// work itself, and the work ends too soon for anyone to interrupt it.
    pub fn runs_inline(&self) -> bool {
        let mut bytes = 0usize;
        let mut texts = self
            .hypotheses
            .iter()
            .chain(self.references.iter().flatten());
        texts.all(|text| {
            bytes = bytes.saturating_add(text.as_ref().len());
            bytes <= pool::INLINE_BYTES
        })
    }

    /// The statistics of every segment, in order.
    pub fn segment_statistics(
        &self,
        settings: &Settings,
        interrupt: &Interrupt,
    ) -> Result<Vec<Statistics>, ChrfError> {
        self.per_segment(Statistics::default(), interrupt, |i| {
            self.watching_if_long(i, interrupt, || self.statistics_of(i, settings))
        })
    }

    /// The float score of every segment: sacreBLEU's sentence scores.
    pub fn segment_scores(
        &self,
        settings: &Settings,
        interrupt: &Interrupt,
    ) -> Result<Vec<f64>, ChrfError> {
        self.per_segment(0.0, interrupt, |i| {
            let references = self.references.iter().map(|stream| stream[i].as_ref());
            let hypothesis = self.hypotheses[i].as_ref();
            self.watching_if_long(i, interrupt, || {
                segment_score(hypothesis, references, settings)
            })
        })
    }

    /// The n-grams that cost the corpus its matches (see [`Explanation`]), the `top` of each
    /// list (all for `None`).
    pub fn explain(
        &self,
        settings: &Settings,
        top: Option<usize>,
        interrupt: &Interrupt,
    ) -> Result<Explanation, ChrfError> {
        explain(self.hypotheses, self.references, settings, top, interrupt)
    }

    /// One value per segment, into an output allocated (fallibly) before any work is done.
    fn per_segment<T: Clone + Send>(
        &self,
        empty: T,
        interrupt: &Interrupt,
        value_of: impl Fn(usize) -> Result<T, ChrfError> + Sync,
    ) -> Result<Vec<T>, ChrfError> {
        let mut out = filled(self.len(), empty)?;
        if self.runs_inline() {
            for (i, slot) in out.iter_mut().enumerate() {
                *slot = value_of(i)?;
            }
            return Ok(out);
        }
        pool::run(|| {
            out.par_iter_mut()
                .enumerate()
                .with_min_len(MIN_SEGMENTS_PER_TASK)
                .try_for_each(|(i, slot)| {
                    interrupt.check()?;
                    *slot = value_of(i)?;
                    Ok::<(), ChrfError>(())
                })
        })??;
        Ok(out)
    }

    /// The corpus statistics: the order-by-order sum over all segments.
    pub fn statistics(
        &self,
        settings: &Settings,
        interrupt: &Interrupt,
    ) -> Result<Statistics, ChrfError> {
        // A task's sum is made by its first segment (rayon's identity cannot fail, and the sum
        // takes megabytes at the longest orders): `None` is a sum of no segment yet.
        let zeros = || Statistics::zeros(settings.order_count());
        let add = |sum: Option<Statistics>, i: usize| -> Result<Option<Statistics>, ChrfError> {
            interrupt.check()?;
            let mut sum = sum.map_or_else(zeros, Ok)?;
            let references = self.references.iter().map(|stream| stream[i].as_ref());
            let hypothesis = self.hypotheses[i].as_ref();
            self.watching_if_long(i, interrupt, || {
                add_segment_statistics(hypothesis, references, settings, &mut sum)
            })?;
            Ok(Some(sum))
        };
        let sum = if self.runs_inline() {
            (0..self.len()).try_fold(None, add)?
        } else {
            pool::run(|| {
                // Each task holds a sum of every order: a few tasks per thread, not one per 64
                // segments, when there are many orders.
                let per_task = self.len() / (4 * rayon::current_num_threads());
                (0..self.len())
                    .into_par_iter()
                    .with_min_len(per_task.max(MIN_SEGMENTS_PER_TASK))
                    .try_fold(|| None, add)
                    // Integer sums are exact: the grouping rayon picks cannot change the result.
                    .try_reduce(
                        || None,
                        |a, b| match (a, b) {
                            (Some(a), Some(b)) => a.checked_add(&b).map(Some),
                            (sum, None) | (None, sum) => Ok(sum),
                        },
                    )
            })??
        };
        sum.map_or_else(zeros, Ok)
    }

    /// Runs the work of segment `i`, watching `interrupt` (see [`pool::watching`]) if the
    /// segment is long: its passes over the windows poll it. A short one ends well before a
    /// poll would be due, and is spared the cost of watching.
    fn watching_if_long<T>(&self, i: usize, interrupt: &Interrupt, work: impl FnOnce() -> T) -> T {
        let mut texts = std::iter::once(&self.hypotheses[i])
            .chain(self.references.iter().map(|stream| &stream[i]));
        if texts.any(|text| text.as_ref().len() > pool::POLL_UNITS) {
            pool::watching(interrupt, work)
        } else {
            work()
        }
    }

    fn statistics_of(&self, i: usize, settings: &Settings) -> Result<Statistics, ChrfError> {
        let references = self.references.iter().map(|stream| stream[i].as_ref());
        segment_statistics(self.hypotheses[i].as_ref(), references, settings)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::Beta;

    #[test]
    fn streams_must_align_with_the_hypotheses() {
        let hyps = ["a", "b"];
        let refs = vec![vec!["a", "b"], vec!["a"]];
        assert_eq!(
            Corpus::new(&hyps[..], &refs).err(),
            Some(ChrfError::StreamLength {
                stream: 1,
                hypotheses: 2,
                references: 1
            })
        );
        assert_eq!(
            Corpus::new(&hyps[..], &[]).err(),
            Some(ChrfError::NoReferences)
        );
    }

    #[test]
    fn corpus_statistics_are_the_sum_of_segment_statistics() {
        let settings = Settings::new(6, 2, Beta::integer(2).unwrap()).unwrap();
        let hyps: Vec<String> = (0..1000)
            .map(|i| format!("segment {i} of the corpus"))
            .collect();
        let refs = vec![(0..1000)
            .map(|i| format!("the segment {}", i * 7 % 13))
            .collect::<Vec<_>>()];
        let corpus = Corpus::new(&hyps, &refs).unwrap();
        let none = Interrupt::default();
        let summed = corpus
            .segment_statistics(&settings, &none)
            .unwrap()
            .iter()
            .try_fold(Statistics::zeros(8).unwrap(), |acc, s| acc.checked_add(s))
            .unwrap();
        assert_eq!(corpus.statistics(&settings, &none).unwrap(), summed);
    }

    #[test]
    fn small_corpora_run_inline_with_the_same_statistics() {
        let settings = Settings::new(6, 2, Beta::integer(2).unwrap()).unwrap();
        let text = "x".repeat(pool::INLINE_BYTES / 2 - 8);
        for (segments, inline) in [(2, true), (3, false)] {
            let hyps = vec![text.as_str(); segments];
            let refs = vec![vec!["x y"; segments]];
            let corpus = Corpus::new(&hyps[..], &refs).unwrap();
            assert_eq!(corpus.runs_inline(), inline);
            let none = Interrupt::default();
            let segment = segment_statistics(&text, ["x y"], &settings).unwrap();
            let summed = (0..segments).try_fold(Statistics::zeros(8).unwrap(), |acc, _| {
                acc.checked_add(&segment)
            });
            assert_eq!(corpus.statistics(&settings, &none), summed);
            let scores = corpus.segment_scores(&settings, &none).unwrap();
            assert!(scores.iter().all(|&s| s == scores[0]) && scores.len() == segments);
        }
    }
}
