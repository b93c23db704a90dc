"""How many threads chrf's parallel work uses: ``CHRF_NUM_THREADS`` at import, or Python."""

from __future__ import annotations

import operator
import os
import sys
import warnings

from chrf import _core

#: The environment variable read once, when chrf is imported.
ENVIRONMENT_VARIABLE = "CHRF_NUM_THREADS"

#: Whether the count was chosen (set_num_threads or CHRF_NUM_THREADS): a worker's default
#: (:func:`default_to`) never overrides a choice.
_chosen = False


def set_num_threads(threads: int | None) -> None:
    """Use ``threads`` threads for parallel work from the next call on (``None``: one per CPU).

    Results do not depend on the count. It must be from 1 to :func:`max_num_threads`
    (four per CPU): more threads than that only cost memory and start-up time. The setting
    is process-wide and inherited by forked children, which start their own threads.
    """
    if threads is not None:
        if isinstance(threads, bool):
            raise TypeError("threads must be an int or None, not bool")
        try:
            threads = operator.index(threads)
        except TypeError:
            raise TypeError(
                f"threads must be an int or None, not {type(threads).__name__}"
            ) from None
        if not 1 <= threads <= max_num_threads():
            raise ValueError(f"threads must be from 1 to {max_num_threads()}")
    _core.set_thread_count(threads)
    global _chosen
    _chosen = threads is not None


def default_to_dask_workers() -> None:
    """In a process that runs dask.distributed workers (a worker process imports chrf for its
    first task), the default is the workers' threads: 1 with ``threads_per_worker=1``, instead
    of a thread per CPU in every worker process. Looked up only if distributed is loaded."""
    worker_module = sys.modules.get("distributed.worker")
    if worker_module is None:
        return
    try:
        workers = list(worker_module.Worker._instances)
        threads = sum(worker.state.nthreads for worker in workers)
    except (AttributeError, TypeError):  # another version of distributed: keep the default
        return
    if threads:
        default_to(threads)


def default_to(threads: int) -> None:
    """Uses ``threads`` threads unless a count was chosen: how a worker process of a framework
    (a Dask worker) keeps chrf within the threads it was given."""
    if not _chosen:
        _core.set_thread_count(max(1, min(threads, max_num_threads())))


def get_num_threads() -> int:
    """The number of threads parallel work uses."""
    return _core.thread_count()


def max_num_threads() -> int:
    """The largest count :func:`set_num_threads` takes: four per CPU this process may use."""
    return _core.max_thread_count()


def configure_from_environment() -> None:
    """Applies ``CHRF_NUM_THREADS``; a value that is not a count in range is reported on stderr
    (a ``RuntimeWarning``) and ignored, so a typo never silently changes the thread count.
    Without it, a process that runs Dask workers uses their threads (see :func:`default_to`)."""
    value = os.environ.get(ENVIRONMENT_VARIABLE)
    if value is None or not value.strip():
        default_to_dask_workers()
        return
    try:
        set_num_threads(int(value.strip()))
    except ValueError:
        warnings.warn(
            f"ignoring {ENVIRONMENT_VARIABLE}={value[:40]!r}: not a whole number from 1 to "
            f"{max_num_threads()}; using {get_num_threads()} threads",
            RuntimeWarning,
            stacklevel=2,
        )
