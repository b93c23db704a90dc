"""The one boundary with the compiled core: every call into ``chrf._chrf`` is made here.

Public modules (``_api``, ``_batch``, ``_statistics``, ``_significance``, ``_threads``) call these
functions with a :class:`~chrf.Settings` and plain Python values; the core reads the settings'
attributes itself, so they are spelled out once, in ``_settings.py``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeVar

from chrf import _chrf

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    import numpy as np
    from numpy.typing import NDArray

    from chrf._components import Components, OrderComponents
    from chrf._inputs import Corpus
    from chrf._settings import Settings

#: Per order (character orders first): hypothesis n-grams, reference n-grams, matches.
Counts = tuple[tuple[int, int, int], ...]

#: Per order: the missing and the extra n-grams with their counts, the largest count first.
NgramLists = list[tuple[list[tuple[str, int]], list[tuple[str, int]]]]

VERSION: str = _chrf.__version__

#: Arrow string columns read in place (see ``chrf._arrow``).
ArrowColumn = _chrf.ArrowColumn
ArrowLists = _chrf.ArrowLists
read_arrow = _chrf.read_arrow


def config(settings: Settings) -> _chrf.Config:
    """The compiled form of the settings, built once per Settings object and kept on it.

    Kept per object, not per equal settings: Settings(beta=0.1) == Settings(beta=Fraction(0.1)),
    yet 1 + beta**2 rounds differently for them, and a result must not depend on which of the
    two was compiled first.
    """
    compiled: _chrf.Config | None = getattr(settings, _CONFIG_ATTRIBUTE, None)
    if compiled is None:
        compiled = _chrf.Config(settings)
        object.__setattr__(settings, _CONFIG_ATTRIBUTE, compiled)
    return compiled


#: Where `config` keeps the compiled settings; `Settings.__getstate__` leaves it out of pickles.
_CONFIG_ATTRIBUTE = "_compiled"


Result = TypeVar("Result")


def _of_corpus(
    function: Callable[[_chrf.Config, Sequence[object], list[Sequence[object]], bool], Result],
    settings: Settings,
    c: Corpus,
) -> Result:
    try:
        return function(config(settings), c.hypotheses, c.streams, c.nested)
    except TypeError:
        from chrf._inputs import placeholders_filled

        # sacreBLEU's None placeholders are looked for only once the core met a non-str.
        filled = placeholders_filled(c)
        if filled is None:
            raise
    return function(config(settings), filled.hypotheses, filled.streams, filled.nested)


def corpus_counts(settings: Settings, c: Corpus) -> Counts:
    return tuple(_of_corpus(_chrf.corpus_statistics, settings, c))


def segment_statistics(settings: Settings, c: Corpus) -> NDArray[np.uint64]:
    return _of_corpus(_chrf.segment_statistics, settings, c)


#: sacreBLEU's sentence score of one hypothesis against a list of references, called with
#: ``config(settings)``; None when ``references`` is not a list (the caller makes it one, or
#: names the argument, and calls again), ValueError for an empty list. The native function
#: itself: a Python frame around it would be a visible share of the time of one short pair.
sentence_score = _chrf.sentence_score


def sentence_score_list(settings: Settings, c: Corpus) -> list[float]:
    return _chrf.sentence_score_list(config(settings), c.hypotheses, c.streams, c.nested)


def sentence_scores(settings: Settings, c: Corpus) -> NDArray[np.float64]:
    return _of_corpus(_chrf.sentence_scores, settings, c)


#: ``sentence_scores`` of lists of hypotheses and of their one reference each, called with
#: ``config(settings)``; None for every other shape, which the caller reads with
#: ``chrf._inputs.corpus``. The native function itself, as ``sentence_score`` is.
flat_sentence_scores = _chrf.flat_sentence_scores


def explain(settings: Settings, c: Corpus, top: int | None) -> bytes:
    """The reference stream each segment was explained against, and per order the ``top``
    missing and extra n-grams (all for None), encoded (``chrf._explain.ngram_lists_of`` decodes
    them): one object, which Python can refuse with MemoryError."""
    return _chrf.explain(config(settings), c.hypotheses, c.streams, c.nested, top)


def swapped_scores(
    settings: Settings, stats: NDArray[np.uint64], replacement: NDArray[np.uint64] | None = None
) -> NDArray[np.float64]:
    return _chrf.swapped_scores(config(settings), stats, replacement)


def pairwise(
    settings: Settings, hypotheses: list[Sequence[object]], references: list[Sequence[object]]
) -> NDArray[np.float64]:
    return _chrf.pairwise(config(settings), hypotheses, references)


def aggregate(
    settings: Settings,
    hypotheses: list[Sequence[object]],
    references: list[Sequence[object]],
    weights: list[list[int] | None] | None,
) -> NDArray[np.float64]:
    return _chrf.aggregate(config(settings), hypotheses, references, weights)


def expected_utility(
    settings: Settings,
    hypotheses: list[Sequence[object]],
    references: list[Sequence[object]],
    weights: list[list[int] | None] | None,
    *,
    batched: bool,
) -> NDArray[np.float64]:
    """Shape (batch, hypotheses); ``batched`` False names a text ``hypotheses[i]``, not
    ``hypotheses[0][i]``, in errors (the lone item of an unbatched call)."""
    return _chrf.expected_utility(config(settings), hypotheses, references, weights, batched)


def score_of(settings: Settings, counts: Counts) -> float:
    return _chrf.score_of(config(settings), list(counts))


def components_of(settings: Settings, counts: Counts, segment_count: int) -> Components:
    from chrf._components import Components  # dataclasses and fractions: not needed at import

    exact = _chrf.components_of(config(settings), list(counts))
    return Components(
        settings=settings,
        segment_count=segment_count,
        orders=tuple(_order(order) for order in exact.orders),
        effective_order_count=exact.effective_order_count,
        average_precision=exact.average_precision,
        average_recall=exact.average_recall,
        score_fraction=exact.score_fraction,
        score=exact.score_text,
        cross_checked=exact.cross_checked,
    )


def _order(exact: _chrf.ExactOrder) -> OrderComponents:
    from chrf._components import OrderComponents

    return OrderComponents(
        "char" if exact.kind == "char" else "word",
        exact.n,
        exact.hypothesis,
        exact.reference,
        exact.matching,
        exact.effective,
        exact.precision,
        exact.recall,
        exact.f_score,
    )


def resampled_scores(
    settings: Settings, stats: NDArray[np.uint64], picks: NDArray[np.int64]
) -> tuple[NDArray[np.float64], NDArray[np.bool_]]:
    return _chrf.resampled_scores(config(settings), stats, picks)


def randomization_scores(
    settings: Settings,
    baseline: NDArray[np.uint64],
    system: NDArray[np.uint64],
    swaps: NDArray[np.bool_],
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    return _chrf.randomization_scores(config(settings), baseline, system, swaps)


def set_thread_count(threads: int | None) -> None:
    _chrf.set_thread_count(threads)


def thread_count() -> int:
    return _chrf.thread_count()


def max_thread_count() -> int:
    return _chrf.max_thread_count()


def import_numpy(module: str = "numpy") -> None:
    """Imports NumPy, and ``module`` of NumPy's, on a thread of its own, where a Ctrl-C cannot
    land in the import (which would leave NumPy half made and refusing to load again, or lose
    the Ctrl-C): modules that use NumPy call this before their ``import numpy``, naming the
    modules NumPy imports on first use (``numpy.random``). The Ctrl-C then comes as
    ``KeyboardInterrupt`` here."""
    _chrf.import_numpy(module)


def hold_numpy_for_fork() -> None:
    """Waits while another thread makes NumPy ready for the core, and keeps any from starting
    until :func:`release_numpy_after_fork` (see ``_threads.before_fork``)."""
    _chrf.hold_numpy_for_fork()


def release_numpy_after_fork() -> None:
    _chrf.release_numpy_after_fork()


def aligned_files(paths: list[str], chunk_lines: int) -> _chrf.AlignedFiles:
    """UTF-8 files read, split into lines and scored in the core (the command line's fast path)."""
    return _chrf.AlignedFiles(paths, chunk_lines)


def files_statistics(settings: Settings, files: _chrf.AlignedFiles) -> tuple[int, Counts] | None:
    """The next chunk's segment count and statistics; None after the last chunk."""
    chunk = files.statistics(config(settings))
    return None if chunk is None else (chunk[0], tuple(chunk[1]))


def files_sentence_scores(settings: Settings, files: _chrf.AlignedFiles) -> list[float] | None:
    """The next chunk's sentence scores; None after the last chunk."""
    return files.sentence_scores(config(settings))
