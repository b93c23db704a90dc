"""chrF on Dask: corpus statistics summed from partitions, sentence scores per partition.

``chrf.dask.statistics(collection, **options)`` is a lazy :class:`chrf.Statistics` of a whole
Dask collection (``.compute()`` it, then ``.score()``), equal to ``chrf.statistics`` of the
same segments in one call; ``chrf.dask.sentence_scores(collection, **options)`` is a lazy
collection of sacreBLEU's sentence scores. A collection is either

* a ``dask.bag.Bag`` of ``(hypothesis, references)`` items, references a str or a list of
  str (``None`` for a missing one), or
* a ``dask.dataframe.DataFrame`` with a ``hypothesis`` column and one ``references`` column,
  or a list of columns, one reference stream each (a missing value is a missing reference).

Inside a Dask worker the tasks run chrf on as many threads as the worker has (1 with
``threads_per_worker=1``), not one per CPU of the machine, unless ``CHRF_NUM_THREADS`` or
:func:`chrf.set_num_threads` chose a count. Importing this module imports dask.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import partial
from typing import TYPE_CHECKING, Any

from chrf import _service, _threads
from chrf._errors import InputError, InputTypeError, SettingsError
from chrf._keywords import entry_point
from chrf._messages import missing_extra, shown
from chrf._settings import Settings, settings_of
from chrf._statistics import Statistics

try:
    import dask
    import dask.bag
except ImportError as error:
    raise missing_extra("chrf.dask", "integrations", error) from error

if TYPE_CHECKING:
    from typing_extensions import Unpack

    from chrf._inputs import Layout
    from chrf._settings import Options

__all__ = ["sentence_scores", "statistics"]


@entry_point
def statistics(
    collection: Any,
    *,
    hypothesis: str = "hypothesis",
    references: str | Sequence[str] = "reference",
    split_every: int = 16,
    **options: Unpack[Options],
) -> Any:
    """A lazy :class:`chrf.Statistics` of every segment of a bag or a dataframe: each
    partition's statistics, summed in a tree of ``split_every`` partitions a node.

    ``hypothesis`` and ``references`` name the columns of a dataframe (ignored for a bag).
    """
    settings = settings_of(options)  # bad options fail here, not later in a task
    if isinstance(split_every, bool) or not isinstance(split_every, int) or split_every < 2:
        raise SettingsError(
            f"split_every must be an int of at least 2, not {shown(split_every)}",
            argument="split_every",
            reason="out_of_range",
        )
    if isinstance(collection, dask.bag.Bag):
        return collection.reduction(
            partial(_bag_statistics, settings),
            partial(_total, settings),
            split_every=split_every,
        )
    columns = _columns(collection, hypothesis, references)
    parts = [
        dask.delayed(_frame_statistics)(part, columns, settings) for part in collection.to_delayed()
    ]
    while len(parts) > 1:
        parts = [
            dask.delayed(_total)(settings, parts[i : i + split_every])
            for i in range(0, len(parts), split_every)
        ]
    return parts[0]


@entry_point
def sentence_scores(
    collection: Any,
    *,
    hypothesis: str = "hypothesis",
    references: str | Sequence[str] = "reference",
    name: str = "chrf",
    **options: Unpack[Options],
) -> Any:
    """A lazy collection of sacreBLEU's sentence score of every segment, in order: a bag of
    floats for a bag, a float64 Series named ``name`` (the frame's index) for a dataframe."""
    settings = settings_of(options)  # bad options fail here, not later in a task
    if isinstance(collection, dask.bag.Bag):
        return collection.map_partitions(partial(_bag_sentence_scores, settings))
    columns = _columns(collection, hypothesis, references)
    return collection.map_partitions(
        _frame_sentence_scores, columns, settings, name, meta=(name, "f8")
    )


def _bag_statistics(settings: Settings, items: Iterable[Any]) -> Statistics:
    _threads_of_worker()
    hyps, refs = _pairs(items)
    if not hyps:
        return _nothing(settings)
    return _statistics(settings, hyps, refs, "per_hypothesis")


def _bag_sentence_scores(settings: Settings, items: Iterable[Any]) -> list[float]:
    _threads_of_worker()
    hyps, refs = _pairs(items)
    if not hyps:
        return []
    scores: list[float] = _service.sentence_scores(settings, hyps, refs, "per_hypothesis").tolist()
    return scores


def _statistics(settings: Settings, hyps: object, refs: object, layout: Layout) -> Statistics:
    return _service.statistics(settings, _service.read(settings, hyps, refs, layout))


def _pairs(items: Iterable[Any]) -> tuple[list[Any], list[Any]]:
    hyps: list[Any] = []
    refs: list[Any] = []
    for i, item in enumerate(items):
        if not isinstance(item, (tuple, list)) or len(item) != 2:
            raise InputTypeError(
                f"bag item {i} of a partition must be a (hypothesis, references) pair",
                argument="collection",
                reason="wrong_type",
            )
        hyps.append(item[0])
        refs.append(item[1])
    return hyps, refs


def _total(settings: Settings, parts: Iterable[Statistics]) -> Statistics:
    return sum(parts, _nothing(settings))


def _nothing(settings: Settings) -> Statistics:
    """The statistics of no segment: what an empty partition adds."""
    return Statistics(settings, ((0, 0, 0),) * settings.order_count, 0)


def _columns(frame: Any, hypothesis: str, references: str | Sequence[str]) -> list[str]:
    if not hasattr(frame, "to_delayed") or not hasattr(frame, "columns"):
        raise InputTypeError(
            "collection must be a dask.bag.Bag or a dask.dataframe.DataFrame, "
            f"not {type(frame).__name__}",
            argument="collection",
            reason="wrong_type",
        )
    columns = [hypothesis, *([references] if isinstance(references, str) else references)]
    missing = [c for c in columns if c not in frame.columns]
    if missing or len(columns) < 2:
        raise InputError(
            f"the dataframe has no column {missing[0]!r}" if missing else "no references",
            argument="hypothesis" if missing[:1] == [hypothesis] else "references",
            reason="missing_column" if missing else "empty",
        )
    return columns


def _frame_streams(part: Any, columns: list[str]) -> tuple[list[Any], list[list[Any]]]:
    """A partition's hypotheses and reference streams; missing values become None."""
    lists = [part[c].astype(object).where(part[c].notna(), None).tolist() for c in columns]
    return lists[0], lists[1:]


def _frame_statistics(part: Any, columns: list[str], settings: Settings) -> Statistics:
    _threads_of_worker()
    if len(part) == 0:
        return _nothing(settings)
    hyps, streams = _frame_streams(part, columns)
    return _statistics(settings, hyps, streams, "streams")


def _frame_sentence_scores(part: Any, columns: list[str], settings: Settings, name: str) -> Any:
    import pandas as pd

    _threads_of_worker()
    if len(part) == 0:
        return pd.Series([], index=part.index, name=name, dtype="f8")
    hyps, streams = _frame_streams(part, columns)
    scores = _service.sentence_scores(settings, hyps, streams, "streams")
    return pd.Series(scores, index=part.index, name=name)


def _threads_of_worker() -> None:
    """Inside a Dask worker, chrf uses the worker's threads, not every CPU of the machine:
    worker processes side by side would otherwise each start a thread per CPU."""
    try:
        from distributed import get_worker

        nthreads = get_worker().state.nthreads
    except (ImportError, ValueError, AttributeError):
        return
    _threads.default_to(nthreads)
