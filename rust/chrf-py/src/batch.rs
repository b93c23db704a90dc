//! Many hypotheses against many references, per batch item: pairwise matrices, reference
//! aggregation, and MBR's expected utility, over texts read once by [`read_batch`].

use chrf_core::pool::try_collect;
use num_bigint::BigUint;
use numpy::{PyArray1, PyArray2, PyArray3, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::PyList;
use rayon::prelude::*;

use crate::arrays::{flatten, zeroed};
use crate::config::Config;
use crate::errors::{empty, input_error, out_of_memory, refused, reserved, Kind, Result};
use crate::listing::{items, listed, read_column, Items};
use crate::objects::{fallibly, new_list};
use crate::runtime::{compute, numpy_ready};
use crate::texts::{Reading, Text};

/// What a batch is read for: each has its own checks of the shapes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Purpose {
    /// Every item's matrix of the same shape.
    Pairwise,
    /// Each item's hypotheses against its (non-empty) references: aggregation's, and MBR's
    /// expected utility, whose pool is read as aggregation's references are.
    Aggregate,
}

/// Batch items of hypotheses and of references, read and checked.
#[pyclass(frozen, module = "chrf._chrf")]
pub struct Batch {
    hypotheses: Vec<Vec<Text>>,
    references: Vec<Vec<Text>>,
    lowercase: bool,
    /// Read as batch items: its weights' messages name an item's list, `weights[b]`.
    batched: bool,
}

/// Reads batch items (`batched`: lists of lists of texts) or one item (lists of texts) for
/// `purpose` ("pairwise", "aggregate" or "expected_utility").
#[pyfunction]
pub fn read_batch(
    hypotheses: &Bound<'_, PyAny>,
    references: &Bound<'_, PyAny>,
    purpose: &str,
    batched: bool,
    lowercase: bool,
) -> Result<Batch> {
    let purpose = match purpose {
        "pairwise" => Purpose::Pairwise,
        "aggregate" | "expected_utility" => Purpose::Aggregate,
        other => {
            let message = format!("no batch is read for {other:?}");
            return Err(refused(
                Kind::Settings,
                message,
                Some("purpose"),
                None,
                "invalid_choice",
            ));
        }
    };
    let reading = Reading {
        lowercase,
        placeholders: false,
    };
    let (hyps, refs) = if batched {
        batch_items(hypotheses, references, purpose)?
    } else {
        let hyps = items(hypotheses, "hypotheses", None, false)?;
        let refs = items(references, "references", None, false)?;
        if purpose != Purpose::Pairwise && refs.is_empty() {
            return Err(empty("references", None));
        }
        (vec![hyps], vec![refs])
    };
    // An unbatched call names a text as the caller wrote it: `hypotheses[i]`.
    let flat = !batched;
    let read = |lists: &[Items<'_>], name: &str| {
        lists
            .iter()
            .enumerate()
            .map(|(b, list)| {
                let named = |i| match flat {
                    true => (format!("{name}[{i}]"), Some(i)),
                    false => (format!("{name}[{b}][{i}]"), Some(b)),
                };
                Ok(read_column(list, reading, named, &mut vec![])?.texts)
            })
            .collect::<Result<Vec<_>>>()
    };
    Ok(Batch {
        hypotheses: read(&hyps, "hypotheses")?,
        references: read(&refs, "references")?,
        lowercase,
        batched,
    })
}

type Lists<'py> = Vec<Items<'py>>;

/// The batch items, listed and checked for shape.
fn batch_items<'py>(
    hypotheses: &Bound<'py, PyAny>,
    references: &Bound<'py, PyAny>,
    purpose: Purpose,
) -> Result<(Lists<'py>, Lists<'py>)> {
    let hyps = listed_items(hypotheses, "hypotheses")?;
    let refs = listed_items(references, "references")?;
    if hyps.len() != refs.len() {
        let message = format!(
            "hypotheses has {} batch items but references has {}",
            hyps.len(),
            refs.len()
        );
        return Err(input_error(message, "references", None, "length_mismatch"));
    }
    check_uniform(&hyps, "hypotheses")?;
    if purpose == Purpose::Pairwise {
        check_uniform(&refs, "references")?;
    } else if let Some(b) = refs.iter().position(|item| item.is_empty()) {
        return Err(empty(&format!("references[{b}]"), Some(b)));
    }
    Ok((hyps, refs))
}

fn listed_items<'py>(value: &Bound<'py, PyAny>, name: &str) -> Result<Lists<'py>> {
    listed(value, name, None)?
        .iter()
        .enumerate()
        .map(|(b, item)| items(&item, &format!("{name}[{b}]"), Some(b), false))
        .collect()
}

fn check_uniform(batch: &[Items<'_>], name: &str) -> Result<()> {
    let first = batch.first().map_or(0, |item| item.len());
    match batch.iter().position(|item| item.len() != first) {
        None => Ok(()),
        Some(b) => Err(input_error(
            format!(
                "{name}[{b}] has {} texts but {name}[0] has {first}; a batch array needs the \
                 same number in every item (score items of different sizes one by one)",
                batch[b].len()
            ),
            name,
            Some(b),
            "length_mismatch",
        )),
    }
}

/// One weight list (or None: equal weights) per batch item, or None for all.
type Weights<W> = Option<Vec<Option<Vec<W>>>>;

/// Weights as Python gives them: exact ratios (numerator, denominator) of Python ints, each
/// checked non-negative, the denominator positive.
type Ratios = Weights<(BigUint, BigUint)>;

impl Batch {
    fn check(&self, config: &Config) -> Result<()> {
        if config.lowercase != self.lowercase {
            let message = format!(
                "a batch read with lowercase={} cannot be scored with lowercase={}",
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

    /// Each item's weights scaled by the core to pieces (see [`chrf_core::scaled_weights`]); a
    /// span too wide names the item's list.
    fn scaled(&self, weights: Ratios) -> Result<Weights<chrf_core::WeightPiece>> {
        let Some(items) = weights else {
            return Ok(None);
        };
        let mut out = reserved(items.len())?;
        for (b, item) in items.into_iter().enumerate() {
            let Some(ratios) = item else {
                out.push(None);
                continue;
            };
            out.push(Some(chrf_core::scaled_weights(&ratios).map_err(
                |error| match error {
                    chrf_core::ChrfError::WeightSpan { .. } if self.batched => {
                        let message =
                            error
                                .to_string()
                                .replacen("weights", &format!("weights[{b}]"), 1);
                        input_error(message, "weights", None, "out_of_range")
                    }
                    error => error.into(),
                },
            )?));
        }
        Ok(Some(out))
    }

    /// Per item, `score` of its hypotheses against its references and weights, end to end:
    /// shape (batch, hypotheses).
    fn per_item<'py, W: Sync>(
        &self,
        py: Python<'py>,
        config: &Config,
        weights: Option<Vec<Option<W>>>,
        score: impl Fn(&[Text], &[Text], Option<&W>, &chrf_core::pool::Interrupt) -> ItemScores + Sync,
    ) -> Result<Bound<'py, PyArray2<f64>>> {
        numpy_ready(py)?;
        self.check(config)?;
        let (hyps, refs) = (&self.hypotheses, &self.references);
        let shape = [hyps.len(), hyps.first().map_or(0, Vec::len)];
        let weight = |item: usize| weights.as_ref()?.get(item)?.as_ref();
        let flat: Vec<f64> = compute(py, false, |interrupt| {
            let scores = hyps
                .par_iter()
                .zip(refs)
                .enumerate()
                .map(|(item, (h, r))| score(h, r, weight(item), interrupt));
            try_collect(scores, Vec::new())
        })
        .and_then(flatten)?;
        fallibly(|| Ok(PyArray1::from_vec(py, flat).reshape(shape)?))
    }
}

/// An item's weights as the core takes them.
enum ItemWeights {
    /// One (mantissa, shift) weight per reference, in order.
    Plain(Vec<chrf_core::Weight>),
    /// A weight too wide for one (mantissa, shift) pair is the sum of several pieces: the
    /// item's references are then scored as `references` (indices into them, one per piece),
    /// each with its piece. The mean is linear in the weights, so a reference of weight
    /// a + b is the same reference twice, of weights a and b; the core scores a text once
    /// however often it is a reference.
    Pieces {
        references: Vec<usize>,
        weights: Vec<chrf_core::Weight>,
    },
}

/// Weights as (reference, mantissa, shift) pieces as the core's weights: reference j's weight
/// is the sum of its pieces' mantissa · 2^shift.
fn core_weights(weights: Weights<(usize, u64, u32)>) -> Result<Option<Vec<Option<ItemWeights>>>> {
    let Some(items) = weights else {
        return Ok(None);
    };
    let mut out = reserved(items.len())?;
    for item in items {
        out.push(match item {
            None => None,
            Some(pieces) => {
                let mut weights = reserved(pieces.len())?;
                let weight = |&(_, mantissa, shift): &(usize, u64, u32)| chrf_core::Weight {
                    mantissa,
                    shift,
                };
                weights.extend(pieces.iter().map(weight));
                // One piece per reference, in order, unless a weight is wide.
                let in_order = pieces.iter().enumerate().all(|(j, piece)| piece.0 == j);
                Some(if in_order {
                    ItemWeights::Plain(weights)
                } else {
                    let mut references = reserved(pieces.len())?;
                    references.extend(pieces.iter().map(|piece| piece.0));
                    ItemWeights::Pieces {
                        references,
                        weights,
                    }
                })
            }
        });
    }
    Ok(Some(out))
}

/// An item's weights for reference aggregation, one integer per reference.
enum AggregationWeights {
    /// Every weight below 2^64: the core's fast path.
    Narrow(Vec<u64>),
    Wide(Vec<num_bigint::BigUint>),
}

/// Pieces of weights (see [`core_weights`]) as one integer per reference.
fn aggregation_weights(
    weights: Weights<(usize, u64, u32)>,
) -> Result<Option<Vec<Option<AggregationWeights>>>> {
    let Some(items) = weights else {
        return Ok(None);
    };
    let mut out = reserved(items.len())?;
    for pieces in items {
        let Some(pieces) = pieces else {
            out.push(None);
            continue;
        };
        let narrow = pieces.iter().enumerate().all(|(j, p)| p.0 == j && p.2 == 0);
        if narrow {
            let mut weights = reserved(pieces.len())?;
            weights.extend(pieces.iter().map(|p| p.1));
            out.push(Some(AggregationWeights::Narrow(weights)));
            continue;
        }
        let count = pieces.iter().map(|p| p.0 + 1).max().unwrap_or(0);
        let mut weights = reserved(count)?;
        weights.resize(count, num_bigint::BigUint::ZERO);
        for (j, mantissa, shift) in pieces {
            weights[j] += num_bigint::BigUint::from(mantissa) << shift;
        }
        out.push(Some(AggregationWeights::Wide(weights)));
    }
    Ok(Some(out))
}

/// MBR's expected utility of one batch item.
fn item_utility(
    hyps: &[Text],
    refs: &[Text],
    weights: Option<&ItemWeights>,
    settings: &chrf_core::Settings,
    interrupt: &chrf_core::pool::Interrupt,
) -> ItemScores {
    let (references, weights) = match weights {
        None => return chrf_core::expected_utility(hyps, refs, None, settings, interrupt),
        Some(ItemWeights::Plain(weights)) => {
            return chrf_core::expected_utility(hyps, refs, Some(weights), settings, interrupt)
        }
        Some(ItemWeights::Pieces {
            references,
            weights,
        }) => (references, weights),
    };
    // Weights of a count other than the references' are the core's error to report.
    let count = chrf_core::ChrfError::WeightCount {
        weights: references.len(),
        references: refs.len(),
    };
    let pieces = text_refs(references.iter().map(|&j| refs.get(j)), &count)?;
    let hyps = text_refs(hyps.iter().map(Some), &count)?;
    chrf_core::expected_utility(&hyps, &pieces, Some(weights), settings, interrupt)
}

/// The texts of an iterator, by reference (`missing` for an index out of range).
fn text_refs<'t>(
    texts: impl ExactSizeIterator<Item = Option<&'t Text>>,
    missing: &chrf_core::ChrfError,
) -> std::result::Result<Vec<&'t Text>, chrf_core::ChrfError> {
    let len = texts.len();
    let mut out = Vec::new();
    out.try_reserve_exact(len)
        .map_err(|_| chrf_core::ChrfError::OutOfMemory {
            bytes: len.saturating_mul(std::mem::size_of::<&Text>()),
        })?;
    for text in texts {
        out.push(text.ok_or_else(|| missing.clone())?);
    }
    Ok(out)
}

/// Per batch item, its texts as Python strs: a list of lists.
type TextLists<'py> = Bound<'py, PyList>;

type ItemScores = std::result::Result<Vec<f64>, chrf_core::ChrfError>;

#[pymethods]
impl Batch {
    /// Each item's number of references (weights need one each).
    #[getter]
    fn reference_counts(&self) -> Vec<usize> {
        self.references.iter().map(Vec::len).collect()
    }

    /// The texts read, per batch item: hypotheses and references (lowercased if read so).
    fn texts<'py>(&self, py: Python<'py>) -> Result<(TextLists<'py>, TextLists<'py>)> {
        let lists = |items: &[Vec<Text>]| {
            new_list(py, items.len(), |b| {
                let item = &items[b];
                let texts = new_list(py, item.len(), |i| {
                    Ok(item[i].to_py(py)?.into_bound(py).into_any())
                })?;
                Ok(texts.into_any())
            })
        };
        Ok((lists(&self.hypotheses)?, lists(&self.references)?))
    }

    /// One pairwise matrix per batch item: shape (batch, hypotheses, references).
    fn pairwise<'py>(&self, py: Python<'py>, config: &Config) -> Result<Bound<'py, PyArray3<f64>>> {
        numpy_ready(py)?;
        self.check(config)?;
        let (hyps, refs) = (&self.hypotheses, &self.references);
        let shape = [
            hyps.len(),
            hyps.first().map_or(0, Vec::len),
            refs.first().map_or(0, Vec::len),
        ];
        let settings = &config.settings;
        // One buffer for every item's matrix, handed to NumPy as it is: the scores are written
        // once.
        let item_cells = shape[1].checked_mul(shape[2]);
        let cells = item_cells.and_then(|cells| cells.checked_mul(shape[0]));
        let (Some(item_cells), Some(cells)) = (item_cells, cells) else {
            return Err(out_of_memory(usize::MAX));
        };
        let mut flat = zeroed(cells)?;
        compute(py, false, |interrupt| {
            let score = |(b, out): (usize, &mut [f64])| {
                chrf_core::pairwise_scores_into(&hyps[b], &refs[b], settings, interrupt, out)
            };
            if item_cells == 0 {
                (0..hyps.len())
                    .map(|b| (b, &mut [][..]))
                    .try_for_each(score)
            } else {
                flat.par_chunks_mut(item_cells)
                    .enumerate()
                    .try_for_each(score)
            }
        })?;
        fallibly(|| Ok(PyArray1::from_vec(py, flat).reshape(shape)?))
    }

    /// Reference aggregation per batch item: shape (batch, hypotheses); weights are exact
    /// ratios as for `expected_utility`.
    #[pyo3(signature = (config, weights))]
    fn aggregate<'py>(
        &self,
        py: Python<'py>,
        config: &Config,
        weights: Ratios,
    ) -> Result<Bound<'py, PyArray2<f64>>> {
        let weights = aggregation_weights(self.scaled(weights)?)?;
        let settings = &config.settings;
        self.per_item(py, config, weights, |h, r, w, interrupt| match w {
            None => chrf_core::aggregate_scores(h, r, None, settings, interrupt),
            Some(AggregationWeights::Narrow(w)) => {
                chrf_core::aggregate_scores(h, r, Some(w), settings, interrupt)
            }
            Some(AggregationWeights::Wide(w)) => {
                chrf_core::aggregate_scores_wide(h, r, w, settings, interrupt)
            }
        })
    }

    /// MBR's expected utility per batch item (see `chrf.expected_utility`): shape
    /// (batch, hypotheses), the exact weighted mean of each pairwise row, without the matrix.
    /// A weight is an exact ratio (numerator, denominator) of Python ints, which the core
    /// scales with the item's others to integers in the same proportions.
    #[pyo3(signature = (config, weights))]
    fn expected_utility<'py>(
        &self,
        py: Python<'py>,
        config: &Config,
        weights: Ratios,
    ) -> Result<Bound<'py, PyArray2<f64>>> {
        let weights = core_weights(self.scaled(weights)?)?;
        let settings = &config.settings;
        self.per_item(py, config, weights, |h, r, w, interrupt| {
            item_utility(h, r, w, settings, interrupt)
        })
    }
}

/// Weights, each an exact ratio (numerator, denominator) of Python ints, as the smallest
/// integers in the same proportions: the core's scaling ([`chrf_core::smallest_integers`]), for
/// the sums of the exact MBR choice.
#[pyfunction]
pub fn smallest_integers(ratios: Vec<(BigUint, BigUint)>) -> Result<Vec<BigUint>> {
    Ok(chrf_core::smallest_integers(&ratios)?)
}
