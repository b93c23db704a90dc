//! The command line's fast path: a system's output and its reference files read, split into
//! lines and scored here, chunk by chunk, without a Python string per line (`chrf.cli.reading`
//! decides when the files qualify: plain UTF-8 files, no lowercasing).

use std::fs::File;
use std::path::PathBuf;

use chrf_core::lines::{AlignedLines, Chunk, LineError, Lines, SourceError};
use chrf_core::pool::Interrupt;
use chrf_core::{ChrfError, Corpus};
use pyo3::exceptions::{PyOSError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList};

use crate::config::Config;
use crate::counts::{counts_of, Counts};
use crate::errors::Error;
use crate::objects::float_list;
use crate::runtime::compute;

/// A chunk read, or why the files cannot give one.
type Read = Result<Chunk, SourceError>;

/// What one call does: score a chunk (and read the next), or stop at the end or an error.
enum Step<T> {
    Scored(T, Read),
    Stop(Read),
}

/// Files read in step (the system's output first, then each reference stream), chunk by chunk:
/// each call scores one chunk while the next one is read. After a call returns None, `mismatch`
/// holds the line counts if the files differ in length; after it raises an error of reading,
/// `failed` is the index of the file at fault.
#[pyclass(module = "chrf._chrf")]
pub struct AlignedFiles {
    paths: Vec<PathBuf>,
    chunk_lines: usize,
    files: Option<AlignedLines<File>>,
    ahead: Option<Read>,
    #[pyo3(get)]
    mismatch: Option<Vec<usize>>,
    #[pyo3(get)]
    failed: Option<usize>,
}

#[pymethods]
impl AlignedFiles {
    #[new]
    fn new(paths: Vec<PathBuf>, chunk_lines: usize) -> PyResult<Self> {
        if paths.len() < 2 || chunk_lines == 0 {
            return Err(PyValueError::new_err(
                "AlignedFiles needs a system file, reference files and a positive chunk size",
            ));
        }
        Ok(Self {
            paths,
            chunk_lines,
            files: None,
            ahead: None,
            mismatch: None,
            failed: None,
        })
    }

    /// The next chunk's segment count and corpus statistics; None after the last chunk.
    fn statistics(
        &mut self,
        py: Python<'_>,
        config: &Config,
    ) -> PyResult<Option<(usize, Vec<Counts>)>> {
        self.check(config)?;
        let scored = self.next_scored(py, |corpus, interrupt| {
            Ok((
                corpus.len(),
                counts_of(&corpus.statistics(&config.settings, interrupt)?),
            ))
        })?;
        Ok(scored)
    }

    /// The next chunk's sentence scores; None after the last chunk.
    fn sentence_scores<'py>(
        &mut self,
        py: Python<'py>,
        config: &Config,
    ) -> PyResult<Option<Bound<'py, PyList>>> {
        self.check(config)?;
        let scores = self.next_scored(py, |corpus, interrupt| {
            corpus.segment_scores(&config.settings, interrupt)
        })?;
        Ok(scores.map(|scores| float_list(py, &scores)).transpose()?)
    }
}

impl AlignedFiles {
    fn check(&self, config: &Config) -> PyResult<()> {
        if config.lowercase {
            // Lowercasing is Python's str.lower(): the lines must go through Python strings.
            return Err(PyValueError::new_err("AlignedFiles does not lowercase"));
        }
        Ok(())
    }

    /// Scores the next chunk (read ahead by the call before) while reading the one after it.
    fn next_scored<T: Send>(
        &mut self,
        py: Python<'_>,
        score: impl Fn(&Corpus<'_, &str>, &Interrupt) -> Result<T, ChrfError> + Sync,
    ) -> PyResult<Option<T>> {
        let files = match self.files.take() {
            Some(files) => files,
            None => self.open(py)?,
        };
        let files = self.files.insert(files);
        let count = self.chunk_lines;
        let current = self.ahead.take();
        let step = compute(py, false, |interrupt| {
            let chunk = match current.unwrap_or_else(|| files.read(count)) {
                Ok(Chunk::Lines(chunk)) if chunk.first().is_some_and(|l| !l.is_empty()) => chunk,
                other => return Ok(Step::Stop(other)),
            };
            let (scored, next) = rayon::join(
                || score_chunk(&chunk, interrupt, &score),
                || files.read(count),
            );
            Ok(Step::Scored(scored?, next))
        })?;
        match step {
            Step::Scored(value, next) => {
                self.ahead = Some(next);
                Ok(Some(value))
            }
            Step::Stop(Ok(Chunk::Mismatch(counts))) => {
                self.mismatch = Some(counts);
                Ok(None)
            }
            Step::Stop(Ok(Chunk::Lines(_))) => Ok(None),
            Step::Stop(Err((index, error))) => {
                self.failed = Some(index);
                Err(line_error(py, error))
            }
        }
    }

    fn open(&mut self, py: Python<'_>) -> PyResult<AlignedLines<File>> {
        let mut files = Vec::with_capacity(self.paths.len());
        for (index, path) in self.paths.iter().enumerate() {
            match File::open(path) {
                Ok(file) => files.push(file),
                Err(error) => {
                    self.failed = Some(index);
                    return Err(os_error(py, &error));
                }
            }
        }
        Ok(AlignedLines::new(files))
    }
}

fn score_chunk<T>(
    chunk: &[Lines],
    interrupt: &Interrupt,
    score: impl Fn(&Corpus<'_, &str>, &Interrupt) -> Result<T, ChrfError>,
) -> Result<T, ChrfError> {
    let texts = chunk
        .iter()
        .map(Lines::texts)
        .collect::<Result<Vec<_>, _>>()?;
    let (hypotheses, references) = texts.split_first().ok_or(ChrfError::NoReferences)?;
    score(&Corpus::new(hypotheses, references)?, interrupt)
}

/// The exception Python's own reading would raise.
fn line_error(py: Python<'_>, error: LineError) -> PyErr {
    match error {
        LineError::Read(error) => os_error(py, &error),
        LineError::Chrf(error) => Error::from(error).into(),
        // Python's decoder describes the fault (its `reason`) as the Python reader would.
        LineError::NotUtf8(line) => {
            match PyBytes::new(py, &line).call_method1("decode", ("utf-8",)) {
                Err(error) => error,
                Ok(_) => {
                    PyRuntimeError::new_err("internal error in chrf: a line decoded after all")
                }
            }
        }
    }
}

/// `OSError(errno, strerror)`, as Python's `open` and `read` raise it.
fn os_error(py: Python<'_>, error: &std::io::Error) -> PyErr {
    let Some(code) = error.raw_os_error() else {
        return PyOSError::new_err(error.to_string());
    };
    let strerror = py
        .import("os")
        .and_then(|os| os.call_method1("strerror", (code,)))
        .and_then(|text| text.extract::<String>())
        .unwrap_or_else(|_| error.to_string());
    PyOSError::new_err((code, strerror))
}
