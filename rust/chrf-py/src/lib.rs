//! `chrf._chrf`: the PyO3 glue between `chrf-core` and the Python package.
//!
//! Everything here is conversion: Python arguments to Rust values (with errors that name the
//! argument and the segment index), Rust results to Python objects. The arithmetic lives in
//! `chrf-core`; argument defaults and documentation live in `python/chrf`. This file declares
//! the modules and registers their names:
//!
//! | module | holds |
//! |---|---|
//! | `config` | `Config`: a `chrf.Settings` in the core's terms |
//! | `errors` | the one error vocabulary: `?` turns a `ChrfError` into its Python exception |
//! | `runtime` | the GIL-free runner watching for Ctrl-C, NumPy made ready, the thread count |
//! | `listing`, `texts`, `inputs` | the one reader: sequences, texts, shapes and layouts |
//! | `arrow`, `arrow_import` | Arrow string columns (PyCapsule interface), checked, then read in place for the reader |
//! | `corpus` | `Corpus`, what the reader returns, and its scores |
//! | `scores` | one hypothesis's score, one-call sentence scores (one short pair inline) |
//! | `counts` | statistics to and from Python, their float score and exact components |
//! | `batch` | pairwise, aggregate and expected utility of batch items |
//! | `explain` | explanations as Python lists; leave-one-out and swap scores |
//! | `resampling` | sacreBLEU's bootstrap and approximate randomization scores |
//! | `files` | the command line's files, read and scored in the core |
//! | `arrays` | buffers to and from NumPy |
//! | `names` | the Python names and classes the glue looks up, made as the module loads |
//! | `objects` | Python objects made fallibly (out of memory is a `MemoryError`), the panic hook |

mod arrays;
mod arrow;
mod arrow_import;
mod batch;
mod config;
mod corpus;
mod counts;
mod errors;
mod explain;
mod files;
mod inputs;
mod listing;
mod names;
mod objects;
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
        crate::objects::install_panic_hook();
        crate::errors::load_classes(module.py())?;
        crate::names::load(module.py())?;
        module.add("__version__", env!("CARGO_PKG_VERSION"))
    }

    #[pymodule_export]
    use crate::batch::{read_batch, smallest_integers, Batch};
    #[pymodule_export]
    use crate::config::Config;
    #[pymodule_export]
    use crate::corpus::Corpus;
    #[pymodule_export]
    use crate::counts::{components_of, score_of};
    #[pymodule_export]
    use crate::explain::swapped_scores;
    #[pymodule_export]
    use crate::files::AlignedFiles;
    #[pymodule_export]
    use crate::inputs::{read, reference_streams};
    #[pymodule_export]
    use crate::listing::listed_py;
    #[pymodule_export]
    use crate::resampling::{randomization_scores, resampled_scores};
    #[pymodule_export]
    use crate::runtime::{
        force_baseline_isa, import_numpy, max_thread_count, release_numpy_after_fork,
        set_thread_count, settle_before_fork, thread_count,
    };
    #[pymodule_export]
    use crate::scores::{corpus_score, sentence_score, sentence_scores};
}
