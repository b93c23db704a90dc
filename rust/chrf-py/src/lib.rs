//! `chrf._chrf`: the PyO3 glue between `chrf-core` and the Python package.
//!
//! Everything here is conversion: Python arguments to Rust values (with errors that name the
//! argument and the segment index), Rust results to Python objects. The arithmetic lives in
//! `chrf-core`; argument defaults and documentation live in `python/chrf`. This file declares
//! the modules and registers their names; each module says what it holds.

mod arrays;
mod batch;
mod config;
mod errors;
mod explain;
mod files;
mod resampling;
mod runtime;
mod scores;
mod texts;

#[pyo3::pymodule]
mod _chrf {
    use pyo3::prelude::*;

    /// The package version, from Cargo (the wheel's version), without reading package metadata.
    #[pymodule_init]
    fn init(module: &Bound<'_, PyModule>) -> PyResult<()> {
        module.add("__version__", env!("CARGO_PKG_VERSION"))
    }

    #[pymodule_export]
    use crate::batch::{aggregate, expected_utility, pairwise};
    #[pymodule_export]
    use crate::config::Config;
    #[pymodule_export]
    use crate::explain::{explain, swapped_scores};
    #[pymodule_export]
    use crate::files::AlignedFiles;
    #[pymodule_export]
    use crate::resampling::{randomization_scores, resampled_scores};
    #[pymodule_export]
    use crate::runtime::{
        hold_numpy_for_fork, import_numpy, max_thread_count, release_numpy_after_fork,
        set_thread_count, thread_count,
    };
    #[pymodule_export]
    use crate::scores::{
        components_of, corpus_statistics, flat_sentence_scores, score_of, segment_statistics,
        sentence_score, sentence_score_list, sentence_scores, ExactComponents, ExactOrder,
    };
}
