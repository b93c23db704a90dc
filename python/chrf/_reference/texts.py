"""The texts the reference scores, read from the caller's arguments by the one reader of the
package, the compiled core's (``chrf._core.read`` and ``read_batch``): shapes, layouts, each
text checked (a str, no lone surrogate), sacreBLEU's None placeholders, and every error named
as the public functions name it. Reading is not arithmetic: it is shared, not twinned, so both
implementations refuse bad input with the same words."""

from __future__ import annotations

from chrf import _core
from chrf._inputs import check_layout
from chrf._weights import Scaling, item_weights

__all__ = ["Items", "Segment", "batch_items", "corpus_of", "segments_of"]

#: A segment: its hypothesis, and its references with the caller's position of each (the
#: stream, or the place in the row with ``layout="per_hypothesis"``), placeholders dropped.
Segment = tuple[str, list[tuple[int, str]]]
#: Per batch item: hypotheses, references and weights scaled to integers (None: equal).
Items = tuple[list[list[str]], list[list[str]], list[list[int] | None]]


def corpus_of(
    hypotheses: object, references: object, layout: object, lowercase: bool = False
) -> _core.Corpus:
    """The corpus as the public functions read it (lowercased only if asked)."""
    check_layout(layout)
    return _core.read(hypotheses, references, layout, lowercase)  # type: ignore[arg-type]


def segments_of(c: _core.Corpus) -> list[Segment]:
    """The caller's texts of every segment of a corpus (not lowercased: the reference lowercases
    as it computes)."""
    segments = []
    for i in range(len(c)):
        hypothesis, references = c.segment_texts(i)
        present = [(k, text) for k, text in enumerate(references) if text is not None]
        segments.append((hypothesis, present))
    return segments


def batch_items(
    hypotheses: object,
    references: object,
    purpose: str,
    batched: bool,
    weights: object,
    scaling: Scaling[int],
) -> Items:
    """Batch items (or one item, unbatched) as the batch functions read them, then weights
    scaled to integers as the compiled function scales them."""
    batch = _core.read_batch(hypotheses, references, purpose, batched, False)
    hyps, refs = batch.texts()
    scaled = item_weights(weights, batch.reference_counts, batched, scaling)
    return hyps, refs, scaled or [None] * len(hyps)
