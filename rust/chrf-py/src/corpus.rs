//! `Corpus`: hypotheses and reference streams as the reader (`inputs.rs`) checked them, which
//! every scorer of a corpus takes as it is, and what the caller wrote that the results name.

use chrf_core::Statistics;
use numpy::{PyArray1, PyArray3};
use pyo3::exceptions::PyIndexError;
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString, PyTuple};

use crate::config::Config;
use crate::counts::{counts_of, exact_components, segment_statistics_array, Counts};
use crate::errors::{refused, Kind, Result};
use crate::explain::explained;
use crate::objects::{fallibly, float_list, new_list};
use crate::runtime::{compute, numpy_ready};
use crate::texts::{Column, Text};

/// A `None` placeholder of the caller's streams: segment `segment` of stream `stream`, which
/// holds a copy of stream `source`'s reference.
#[derive(Clone, Copy)]
pub struct Hole {
    pub segment: usize,
    pub stream: usize,
    pub source: usize,
}

/// Where each reference came from in the caller's `references`.
pub enum Sources {
    /// Streams (or one reference per hypothesis): reference k of segment i is the caller's
    /// `references[k][i]`, but for the placeholders, sorted by segment, then stream.
    Streams(Vec<Hole>),
    /// The references of each hypothesis: per segment, the caller's positions of its references
    /// (`None` dropped); a stream beyond a segment's own references repeats its first.
    Rows(Vec<Vec<usize>>),
}

impl Sources {
    /// The caller's position (stream, or place in the row) of reference `k` of segment `i`.
    fn origin(&self, k: usize, i: usize) -> usize {
        match self {
            Self::Streams(holes) => holes
                .binary_search_by_key(&(i, k), |hole| (hole.segment, hole.stream))
                .map_or(k, |at| holes[at].source),
            Self::Rows(positions) => {
                let row = &positions[i];
                row.get(k).copied().unwrap_or(row[0])
            }
        }
    }

    /// Sources of segment `i` alone.
    fn segment(&self, i: usize) -> Self {
        match self {
            Self::Streams(holes) => Self::Streams(
                holes
                    .iter()
                    .filter(|hole| hole.segment == i)
                    .map(|hole| Hole {
                        segment: 0,
                        ..*hole
                    })
                    .collect(),
            ),
            Self::Rows(positions) => Self::Rows(vec![positions[i].clone()]),
        }
    }
}

/// The caller's strs, kept when the texts the core reads were lowercased.
pub struct Originals {
    hypotheses: Vec<Py<PyString>>,
    references: Vec<Vec<Py<PyString>>>,
}

/// Hypotheses and their reference streams (`references[k][i]`, sacreBLEU's layout), read and
/// checked: every scorer takes them as they are.
#[pyclass(frozen, module = "chrf._chrf")]
pub struct Corpus {
    hypotheses: Vec<Text>,
    references: Vec<Vec<Text>>,
    originals: Option<Originals>,
    lowercase: bool,
    sources: Sources,
    /// sacreBLEU's `num_refs`: the references every segment has, or -1 when it varies.
    #[pyo3(get)]
    reference_count: isize,
}

impl Corpus {
    pub fn new(
        hypotheses: Column,
        streams: Vec<Column>,
        sources: Sources,
        lowercase: bool,
    ) -> Result<Self> {
        let mut references = Vec::with_capacity(streams.len());
        let mut stream_originals = Vec::with_capacity(streams.len());
        for stream in streams {
            references.push(stream.texts);
            stream_originals.push(stream.originals.unwrap_or_default());
        }
        let originals = hypotheses.originals.map(|originals| Originals {
            hypotheses: originals,
            references: stream_originals,
        });
        Ok(Self::of_parts(
            hypotheses.texts,
            references,
            originals,
            sources,
            lowercase,
        ))
    }

    fn of_parts(
        hypotheses: Vec<Text>,
        references: Vec<Vec<Text>>,
        originals: Option<Originals>,
        sources: Sources,
        lowercase: bool,
    ) -> Self {
        let reference_count = reference_count(&sources, references.len(), hypotheses.len());
        Self {
            hypotheses,
            references,
            originals,
            lowercase,
            sources,
            reference_count,
        }
    }

    /// The texts as the core takes them.
    pub fn view(&self) -> Result<chrf_core::Corpus<'_, Text>> {
        Ok(chrf_core::Corpus::new(&self.hypotheses, &self.references)?)
    }

    /// Refuses settings that would read the texts otherwise than they were read.
    fn check(&self, config: &Config) -> Result<()> {
        if config.lowercase != self.lowercase {
            let message = format!(
                "a corpus read with lowercase={} cannot be scored with lowercase={}",
                self.lowercase, config.lowercase
            );
            return Err(refused(
                Kind::Settings,
                message,
                Some("lowercase"),
                None,
                "mismatch",
            ));
        }
        Ok(())
    }

    fn corpus_statistics(&self, py: Python<'_>, config: &Config) -> Result<Statistics> {
        self.check(config)?;
        let corpus = self.view()?;
        compute(py, corpus.runs_inline(), |interrupt| {
            corpus.statistics(&config.settings, interrupt)
        })
    }

    /// sacreBLEU's sentence score of every segment.
    pub fn scores(&self, py: Python<'_>, config: &Config) -> Result<Vec<f64>> {
        self.check(config)?;
        let corpus = self.view()?;
        compute(py, corpus.runs_inline(), |interrupt| {
            corpus.segment_scores(&config.settings, interrupt)
        })
    }

    fn hypothesis_text(&self, py: Python<'_>, i: usize) -> Result<Py<PyString>> {
        match &self.originals {
            Some(originals) => Ok(originals.hypotheses[i].clone_ref(py)),
            None => self.hypotheses[i].to_py(py),
        }
    }

    fn reference_text(&self, py: Python<'_>, k: usize, i: usize) -> Result<Py<PyString>> {
        match &self.originals {
            Some(originals) => Ok(originals.references[k][i].clone_ref(py)),
            None => self.references[k][i].to_py(py),
        }
    }

    /// Whether reference `k` of segment `i` stands for one of the caller's `None`.
    fn is_hole(&self, k: usize, i: usize) -> bool {
        match &self.sources {
            Sources::Streams(holes) => holes
                .binary_search_by_key(&(i, k), |hole| (hole.segment, hole.stream))
                .is_ok(),
            Sources::Rows(_) => false,
        }
    }
}

/// References, `None` where the caller had none.
type References = Vec<Option<Py<PyString>>>;

fn reference_count(sources: &Sources, streams: usize, segments: usize) -> isize {
    let all = isize::try_from(streams).unwrap_or(isize::MAX);
    let counts: Vec<usize> = match sources {
        Sources::Streams(holes) if holes.is_empty() => return all,
        Sources::Streams(holes) => {
            let holed: Vec<usize> = holes
                .chunk_by(|a, b| a.segment == b.segment)
                .map(|segment| streams - segment.len())
                .collect();
            if holed.len() < segments {
                return -1; // segments without a placeholder have every stream's reference
            }
            holed
        }
        Sources::Rows(positions) => positions.iter().map(Vec::len).collect(),
    };
    match counts.split_first() {
        Some((&first, rest)) if rest.iter().all(|&n| n == first) => {
            isize::try_from(first).unwrap_or(isize::MAX)
        }
        _ => -1,
    }
}

#[pymethods]
impl Corpus {
    fn __len__(&self) -> usize {
        self.hypotheses.len()
    }

    /// The corpus statistics: one (hypothesis, reference, matching) count triple per order.
    fn statistics(&self, py: Python<'_>, config: &Config) -> Result<Vec<Counts>> {
        Ok(counts_of(&self.corpus_statistics(py, config)?))
    }

    /// The float score of the corpus (see `chrf.score`).
    pub fn score(&self, py: Python<'_>, config: &Config) -> Result<f64> {
        let stats = self.corpus_statistics(py, config)?;
        Ok(chrf_core::float_score(&stats, &config.settings)?)
    }

    /// The exact components of the corpus (see `chrf.components`).
    fn components<'py>(&self, py: Python<'py>, config: &Config) -> Result<Bound<'py, PyTuple>> {
        let stats = self.corpus_statistics(py, config)?;
        exact_components(py, chrf_core::components(&stats, &config.settings)?)
    }

    /// Statistics of every segment: a uint64 array of shape (segments, orders, 3).
    fn segment_statistics<'py>(
        &self,
        py: Python<'py>,
        config: &Config,
    ) -> Result<Bound<'py, PyArray3<u64>>> {
        numpy_ready(py)?;
        self.check(config)?;
        let corpus = self.view()?;
        let segments = compute(py, corpus.runs_inline(), |interrupt| {
            corpus.segment_statistics(&config.settings, interrupt)
        })?;
        segment_statistics_array(py, &segments, config.settings.order_count())
    }

    /// sacreBLEU's sentence score of every segment, as an array.
    fn sentence_scores<'py>(
        &self,
        py: Python<'py>,
        config: &Config,
    ) -> Result<Bound<'py, PyArray1<f64>>> {
        numpy_ready(py)?;
        let scores = self.scores(py, config)?;
        fallibly(|| Ok(PyArray1::from_vec(py, scores)))
    }

    /// sacreBLEU's sentence score of every segment, as a list of floats, for callers that must
    /// not import NumPy (the command line's `--sentence-level`).
    fn sentence_score_list<'py>(
        &self,
        py: Python<'py>,
        config: &Config,
    ) -> Result<Bound<'py, PyList>> {
        float_list(py, &self.scores(py, config)?)
    }

    /// The n-grams that cost the corpus its matches (see `chrf.explain`), the `top` of each
    /// list, as `chrf._core.NgramLists` (see `explain.rs`), after the reference of each
    /// segment, named by the caller's position of it.
    #[pyo3(signature = (config, top))]
    fn explain<'py>(
        &self,
        py: Python<'py>,
        config: &Config,
        top: Option<usize>,
    ) -> Result<Bound<'py, PyTuple>> {
        self.check(config)?;
        let corpus = self.view()?;
        let mut explanation = compute(py, corpus.runs_inline(), |interrupt| {
            corpus.explain(&config.settings, top, interrupt)
        })?;
        for (i, k) in explanation.references.iter_mut().enumerate() {
            *k = self.sources.origin(*k, i);
        }
        explained(py, &explanation)
    }

    /// Segment `i` alone, as a corpus.
    fn segment(&self, py: Python<'_>, i: usize) -> Result<Self> {
        if i >= self.hypotheses.len() {
            return Err(PyIndexError::new_err(format!("segment {i} out of range")).into());
        }
        let references = self
            .references
            .iter()
            .map(|stream| vec![stream[i].clone_ref(py)])
            .collect();
        let originals = self.originals.as_ref().map(|originals| Originals {
            hypotheses: vec![originals.hypotheses[i].clone_ref(py)],
            references: originals
                .references
                .iter()
                .map(|stream| vec![stream[i].clone_ref(py)])
                .collect(),
        });
        Ok(Self::of_parts(
            vec![self.hypotheses[i].clone_ref(py)],
            references,
            originals,
            self.sources.segment(i),
            self.lowercase,
        ))
    }

    /// The caller's texts: the hypotheses, and the reference streams with `None` where the
    /// caller's streams had a placeholder (the references of each hypothesis, laid out as
    /// streams, repeat a row's first reference instead).
    fn texts<'py>(&self, py: Python<'py>) -> Result<(Bound<'py, PyList>, Bound<'py, PyList>)> {
        let segments = self.hypotheses.len();
        let hypotheses = new_list(py, segments, |i| {
            Ok(self.hypothesis_text(py, i)?.into_bound(py).into_any())
        })?;
        let references = new_list(py, self.references.len(), |k| {
            let stream = new_list(py, segments, |i| match self.is_hole(k, i) {
                true => Ok(py.None().into_bound(py)),
                false => Ok(self.reference_text(py, k, i)?.into_bound(py).into_any()),
            })?;
            Ok(stream.into_any())
        })?;
        Ok((hypotheses, references))
    }

    /// The caller's hypothesis `i` and its references by the caller's positions (`None` for a
    /// placeholder).
    fn segment_texts(&self, py: Python<'_>, i: usize) -> Result<(Py<PyString>, References)> {
        if i >= self.hypotheses.len() {
            return Err(PyIndexError::new_err(format!("segment {i} out of range")).into());
        }
        let mut references = Vec::new();
        for k in 0..self.references.len() {
            let at = self.sources.origin(k, i);
            if references.len() <= at {
                references.resize_with(at + 1, || None);
            }
            if !self.is_hole(k, i) {
                references[at] = Some(self.reference_text(py, k, i)?);
            }
        }
        Ok((self.hypothesis_text(py, i)?, references))
    }
}
