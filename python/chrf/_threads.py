"""How many threads chrf's parallel work uses: ``CHRF_NUM_THREADS`` at import, or Python."""

from __future__ import annotations

import _imp
import _thread
import contextlib
import importlib
import importlib._bootstrap
import operator
import os
import sys
import warnings
import weakref
from typing import Any

from chrf import _core
from chrf._errors import SettingsError, SettingsTypeError

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
            raise SettingsTypeError(
                "threads must be an int or None, not bool", argument="threads", reason="wrong_type"
            )
        try:
            threads = operator.index(threads)
        except TypeError:
            raise SettingsTypeError(
                f"threads must be an int or None, not {type(threads).__name__}",
                argument="threads",
                reason="wrong_type",
            ) from None
        if not 1 <= threads <= max_num_threads():
            raise SettingsError(
                f"threads must be from 1 to {max_num_threads()}",
                argument="threads",
                reason="out_of_range",
            )
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


def before_fork() -> None:
    """Lets another thread's import of NumPy or of chrf's own modules finish before a fork.

    Python copies a module's import lock into a forked child as it is: held, if a thread was
    importing the module, by a thread the child does not have, so the child's first use of the
    module would wait forever. This waits for those imports (importing a module whose import
    is under way waits for it), then holds Python's import lock and the core's preparation of
    NumPy until the fork is done (:func:`after_fork`), so that none starts in between, and lets
    the core's one-time lookups under way end: the child gets whole modules and free locks.
    Nothing is waited for while a lock is held, as an import under way may need it. Waiting
    gives up the GIL, and another thread may begin its next import meanwhile (first calls
    import chrf's modules one after another): this waits again until none is under way. Each
    round waits for an import to end, and a process imports each module once; the bound only
    stops a module that claims to be importing for ever.
    """
    for _ in range(_MOST_ROUNDS):
        _wait_for_imports()
        _hold_imports()
        if not _imports_under_way():
            return
        after_fork()
    _hold_imports()


#: More rounds of :func:`before_fork` than chrf and NumPy have modules to import.
_MOST_ROUNDS = 1000


def after_fork() -> None:
    """In the parent and in the child, after a fork: undoes :func:`before_fork`'s hold."""
    if _held_imports:
        _held_imports.pop()
        with contextlib.suppress(RuntimeError):  # a child whose import lock was made anew
            _imp.release_lock()
    _core.release_numpy_after_fork()


#: Whether :func:`before_fork` holds Python's import lock (a list, for a flag without `global`).
_held_imports: list[bool] = []


def _hold_imports() -> None:
    _core.settle_before_fork()
    _imp.acquire_lock()  # no module lock can be taken meanwhile
    _held_imports.append(True)


def _wait_for_imports() -> None:
    for name in _imports_under_way():
        # A failed import is its importer's to report, not the fork's.
        with contextlib.suppress(Exception):
            importlib.import_module(name)


def _imports_under_way() -> list[str]:
    """NumPy and chrf's modules being imported by another thread: in sys.modules and not done,
    or not yet there but with their import lock taken (a thread that took it is still finding
    the module). This thread's own imports (a fork as a module is imported) are not waited for:
    they end after the fork."""
    names = [name for name in list(sys.modules) if name.startswith("chrf.") or name == "numpy"]
    under_way = [name for name in names if _initializing(name) and _waited_for(name)]
    locked = getattr(importlib._bootstrap, "_module_locks", None)
    if locked:  # empty unless an import is under way somewhere
        names = [name for name in list(locked) if name.startswith("chrf.") or name == "numpy"]
        under_way += [name for name in names if _waited_for(name) and name not in under_way]
    this_thread = _thread.get_ident()
    return [name for name in under_way if _importer(locked, name) != this_thread]


def _importer(locked: Any, name: str) -> int | None:
    """The thread whose import of `name` holds its module lock (None: none, or not known)."""
    lock = locked.get(name) if locked else None
    if isinstance(lock, weakref.ref):  # up to Python 3.12: a weak reference to the lock
        lock = lock()
    owner = getattr(lock, "owner", None)
    return owner if isinstance(owner, int) else None


#: Not waited for: they import frameworks that log as they load, and logging's own before-fork
#: hook may hold the lock they would wait for (a deadlock in the parent instead of a hang in the
#: child).
_NOT_WAITED_FOR = ("chrf.dask", "chrf.torchmetrics")


def _waited_for(name: str) -> bool:
    return not name.startswith(_NOT_WAITED_FOR)


def _initializing(name: str) -> bool:
    spec = getattr(sys.modules.get(name), "__spec__", None)
    return bool(getattr(spec, "_initializing", False))


def register_fork_hook() -> None:
    """Runs :func:`before_fork` before every ``os.fork`` of this process, and :func:`after_fork`
    after it (POSIX)."""
    if hasattr(os, "register_at_fork"):
        os.register_at_fork(
            before=before_fork, after_in_parent=after_fork, after_in_child=after_fork
        )
