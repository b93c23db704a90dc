"""The compiled core's explanation of a corpus, decoded."""

from __future__ import annotations

import sys

import numpy as np

from chrf._core import Corpus, NgramLists
from chrf._settings import Settings


def explained(settings: Settings, corpus: Corpus, top: int | None) -> tuple[list[int], NgramLists]:
    """The reference each segment was explained against (the caller's position of it: its
    stream, or its place in the segment's references), and per order the ``top`` missing and
    extra n-grams (all for None)."""
    # The core counts in a usize: a larger top keeps every n-gram as well.
    kept = None if top is None else min(top, sys.maxsize)
    return ngram_lists_of(corpus.explain(settings.compiled, kept))


def ngram_lists_of(data: bytes) -> tuple[list[int], NgramLists]:
    """``Corpus.explain``'s encoding decoded (its layout: ``encode_explanation`` in chrf-py's
    explain.rs): the reference of every segment, and per order the missing and the extra
    n-grams with their counts."""
    words = np.frombuffer(data, dtype="<u8", count=2)
    segments, orders = int(words[0]), int(words[1])
    offset = 16
    lengths = np.frombuffer(data, dtype="<u8", count=2 * orders, offset=offset).tolist()
    offset += 16 * orders
    references = np.frombuffer(data, dtype="<u8", count=segments, offset=offset).tolist()
    offset += 8 * segments
    total = sum(lengths)
    counts = np.frombuffer(data, dtype="<u8", count=total, offset=offset).tolist()
    ends = np.frombuffer(data, dtype="<u8", count=total, offset=offset + 8 * total).tolist()
    text = str(memoryview(data)[offset + 16 * total :], "utf-8")
    starts = [0, *ends[:-1]] if ends else []
    grams = [text[a:b] for a, b in zip(starts, ends, strict=True)]
    pairs = list(zip(grams, counts, strict=True))
    lists: NgramLists = []
    start = 0
    for missing, extra in zip(lengths[::2], lengths[1::2], strict=True):
        lists.append(
            (pairs[start : start + missing], pairs[start + missing : start + missing + extra])
        )
        start += missing + extra
    return references, lists
