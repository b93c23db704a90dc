"""The compiled core's explanation of a corpus, decoded, with sacreBLEU's None placeholders."""

from __future__ import annotations

import sys

import numpy as np

from chrf import _core
from chrf._inputs import Corpus, first_present, placeholders_filled
from chrf._settings import Settings


def explained(
    settings: Settings, c: Corpus, top: int | None
) -> tuple[list[int], _core.NgramLists, Corpus]:
    """`_core.explain` of a corpus that may hold sacreBLEU's None placeholders, and the corpus
    the core read (placeholders filled, see `placeholders_filled`).

    A segment whose chosen stream holds a placeholder was scored against a copy of its first
    present reference, which sacreBLEU would have chosen (the copy scores as it does, and
    every reference before it scores lower): that stream is named instead."""
    # The core counts in a usize: a larger top keeps every n-gram as well.
    kept = None if top is None else min(top, sys.maxsize)
    try:
        references, lists = ngram_lists_of(_core.explain(settings, c, kept))
        return references, lists, c
    except TypeError:
        filled = placeholders_filled(c)
        if filled is None:
            raise
    references, lists = ngram_lists_of(_core.explain(settings, filled, kept))
    streams = c.streams
    named = [
        k if streams[k][i] is not None else first_present(streams, i)
        for i, k in enumerate(references)
    ]
    return named, lists, filled


def ngram_lists_of(data: bytes) -> tuple[list[int], _core.NgramLists]:
    """`_core.explain`'s encoding decoded (its layout: ``encode_explanation`` in chrf-py's
    lib.rs): the reference stream of every segment, and per order the missing and the extra
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
    lists: _core.NgramLists = []
    start = 0
    for missing, extra in zip(lengths[::2], lengths[1::2], strict=True):
        lists.append(
            (pairs[start : start + missing], pairs[start + missing : start + missing + extra])
        )
        start += missing + extra
    return references, lists
