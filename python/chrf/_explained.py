"""The compiled core's explanation of a corpus, its n-grams paired with their counts."""

from __future__ import annotations

import sys

from chrf._core import Corpus, NgramLists
from chrf._settings import Settings


def explained(settings: Settings, corpus: Corpus, top: int | None) -> tuple[list[int], NgramLists]:
    """The reference each segment was explained against (the caller's position of it: its
    stream, or its place in the segment's references), and per order the ``top`` missing and
    extra n-grams (all for None) with their counts."""
    # The core counts in a usize: a larger top keeps every n-gram as well.
    kept = None if top is None else min(top, sys.maxsize)
    references, orders = corpus.explain(settings.compiled, kept)
    # Paired here, by Python's own calls: out of memory while making a pair is a MemoryError.
    lists = [
        (list(zip(missing, counts, strict=True)), list(zip(extra, extra_counts, strict=True)))
        for missing, counts, extra, extra_counts in orders
    ]
    return references, lists
