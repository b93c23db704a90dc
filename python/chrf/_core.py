"""The one boundary with the compiled core: the only module that imports ``chrf._chrf``.

Its names are the compiled module's own: a Python frame around a call would be a visible share
of the time of one short pair. They take a ``Config`` (``Settings.compiled``), never a
``Settings``, and texts as the caller gave them: the core's reader (``chrf._chrf.read``, or the
one-call ``sentence_scores`` and ``sentence_score``) checks them and names what is wrong. This
module imports nothing else of the package, so every module may import it; the service layer
(``chrf._service``) is what the rest of the package calls.
"""

from __future__ import annotations

from chrf._chrf import (
    AlignedFiles,
    Batch,
    Config,
    Corpus,
    components_of,
    corpus_score,
    import_numpy,
    listed,
    max_thread_count,
    randomization_scores,
    read,
    read_batch,
    reference_streams,
    release_numpy_after_fork,
    resampled_scores,
    score_of,
    sentence_score,
    sentence_scores,
    set_thread_count,
    settle_before_fork,
    smallest_integers,
    swapped_scores,
    thread_count,
)
from chrf._chrf import __version__ as VERSION

__all__ = [
    "VERSION",
    "AlignedFiles",
    "Batch",
    "Config",
    "Corpus",
    "Counts",
    "NgramLists",
    "components_of",
    "corpus_score",
    "import_numpy",
    "listed",
    "max_thread_count",
    "randomization_scores",
    "read",
    "read_batch",
    "reference_streams",
    "release_numpy_after_fork",
    "resampled_scores",
    "score_of",
    "sentence_score",
    "sentence_scores",
    "set_thread_count",
    "settle_before_fork",
    "smallest_integers",
    "swapped_scores",
    "thread_count",
]

#: Per order (character orders first): hypothesis n-grams, reference n-grams, matches.
Counts = tuple[tuple[int, int, int], ...]

#: Per order: the missing and the extra n-grams with their counts, the largest count first.
NgramLists = list[tuple[list[tuple[str, int]], list[tuple[str, int]]]]
