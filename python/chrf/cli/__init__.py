"""The ``chrf`` command.

chrf REF [REF ...] -i HYP        corpus chrF, sacreBLEU's command-line conventions
chrf components --input FILE|-   the chrf-components 1.0.0 JSON contract
chrf selftest                    worked examples through the compiled path and the reference
chrf explain REF -i SYS [SYS]    missing/extra n-grams, costliest segments, system differences
chrf report REF -i SYS [SYS] -o  the same as one self-contained HTML page

A command name that is also a file or folder in the working folder is that file, a reference,
as sacreBLEU reads it; `chrf --command NAME ...` always runs the command, and `./NAME` is always
the file (`chrf.cli.outcome.command_of`).

The package: `commands` (the registry: each subcommand, its parser and its runner), `outcome`
(which command runs, and exit statuses: every failure one line on stderr), `specs` (argparse's
parser of every command), `arguments` (the scoring command's arguments as tables; the chrF
settings' flags come from the option table, `chrf._options`), `options` (the typed `Options`
and `Inputs` built from them: argv parsed once), `values` (option values),
`reading` (files and standard input), `testsets` (sacreBLEU's test sets), `modes` (the scoring
modes), `components`, `selftest`, `explain` and `report` (the other commands; `systems`, what
the last two share), `render` (what is printed) and `io` (writing, and failing, one line at a
time). Nothing is imported here but `os`, `signal`, `sys` and `_thread`: Ctrl-C is handled from
the first line of `main` on, and handling it imports nothing (an import is a window where a
further Ctrl-C lands in importlib).
"""

from __future__ import annotations

import _thread
import os
import signal
import sys
from collections.abc import Callable, Sequence
from types import TracebackType
from typing import Any

__all__ = ["main"]

#: Exit status of a Ctrl-C: 128 + SIGINT, as a shell reports a process that SIGINT ended.
INTERRUPTED = 130

ExceptHook = Callable[[type[BaseException], BaseException, TracebackType | None], Any]
UnraisableHook = Callable[["sys.UnraisableHookArgs"], Any]


def main(argv: Sequence[str] | None = None) -> int:
    """Runs the command; every failure is one line on stderr and a non-zero exit status:
    1 for errors, 2 for bad arguments (and contract requests refused), 17 for lines with the
    wrong number of tab-separated fields (sacreBLEU's), 130 for Ctrl-C.

    Without `argv`, this is the program itself (the `chrf` script, `python -m chrf`): it
    then also owns the process's signals. A Ctrl-C that comes after the work is done, or
    after a first one, is ignored, and a closed pipe (`chrf ... |
    head -1`) ends the process as SIGPIPE ends sacreBLEU's and any other command's: quietly,
    status 141 in a shell."""
    program = argv is None
    try:
        if program:
            _handle_interrupts()
            sys.excepthook = _quiet_interrupts(sys.excepthook)
            sys.unraisablehook = _redelivered_interrupts(sys.unraisablehook)
        from chrf.cli.outcome import exit_status

        return exit_status(list(sys.argv[1:] if argv is None else argv), program)
    except KeyboardInterrupt:
        return interrupted(program)
    finally:
        if program:
            # Not contextlib.suppress: a Ctrl-C could land in its __enter__, outside it.
            try:  # noqa: SIM105
                _ignore_interrupts()
            except KeyboardInterrupt:  # one that came as the work ended: ignored from now on
                pass


def interrupted(program: bool) -> int:
    if program:
        _ignore_interrupts()  # as `_first_interrupt` does, for one raised before it took over
    _stderr("chrf: interrupted\n")
    return INTERRUPTED


def _ignore_interrupts() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _handle_interrupts() -> None:
    """Handles Ctrl-C with `_first_interrupt`, where Python's own handler has it: a process
    started with Ctrl-C ignored (a shell's background job, nohup) goes on ignoring it."""
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        signal.signal(signal.SIGINT, _first_interrupt)


def _first_interrupt(signum: int, frame: object) -> None:
    """The program's SIGINT handler: Python's own (a KeyboardInterrupt), except that every later
    Ctrl-C is ignored from before the interrupt is raised. Ignoring them once it is raised
    leaves a window of Python code (the handling's calls, `signal.signal`'s own) where one more
    lands, and in the excepthook that reports it, another. A Ctrl-C that lands inside this
    handler before it ignores the next ones runs the handler again, inside it: whichever of them
    ignores Ctrl-C first raises the one interrupt that leaves."""
    _ignore_interrupts()
    _raised.append(True)
    raise KeyboardInterrupt


#: Whether `_first_interrupt` has raised a KeyboardInterrupt (a list: a flag without `global`).
_raised: list[bool] = []


def _stderr(text: str) -> None:
    if sys.stderr is not None:
        try:
            sys.stderr.write(text)
            sys.stderr.flush()
        except (OSError, ValueError):  # nowhere left to say it
            pass


def _quiet_interrupts(previous: ExceptHook) -> ExceptHook:
    """sys.excepthook of the program: a KeyboardInterrupt that escapes `main` anyway (a second
    Ctrl-C while the first is handled) ends as one inside it does, not as a traceback."""

    def hook(kind: type[BaseException], error: BaseException, trace: TracebackType | None) -> None:
        if not issubclass(kind, KeyboardInterrupt):
            previous(kind, error, trace)
            return
        _ignore_interrupts()
        _stderr("chrf: interrupted\n")
        os._exit(INTERRUPTED)  # at once: the interpreter's shutdown could be interrupted too

    return hook


def _redelivered_interrupts(previous: UnraisableHook) -> UnraisableHook:
    """sys.unraisablehook of the program: a Ctrl-C that lands where CPython cannot raise it (in
    importlib's weakref callbacks, say) is printed as "Exception ignored" and dropped, and the
    command would go on as if no Ctrl-C had come. The program owns its signals: it delivers the
    interrupt again, and the command ends as at any other Ctrl-C (or not at all once the work is
    done and interrupts are ignored)."""

    def hook(unraisable: sys.UnraisableHookArgs) -> None:
        if _ignored_ctrl_c(unraisable):
            return
        if not issubclass(unraisable.exc_type, KeyboardInterrupt):
            previous(unraisable)
            return
        if _raised:  # by `_first_interrupt`, which ignored the next: it handles one again
            _raised.clear()
            signal.signal(signal.SIGINT, _first_interrupt)
        # From a thread of its own: raised in this hook, CPython would drop it again. That thread
        # runs once this one yields the GIL, which is after the hook has returned.
        _thread.start_new_thread(_interrupt, (main_thread,))

    main_thread = _thread.get_ident()  # `main` installs the hook on the main thread
    return hook


def _ignored_ctrl_c(unraisable: sys.UnraisableHookArgs) -> bool:
    """Whether CPython reports a SIGINT that came as `signal.signal` began ignoring Ctrl-C
    (after its check of pending signals, before the handler changed): one more Ctrl-C, which the
    program ignores as it ignores the others, without a traceback."""
    return (
        issubclass(unraisable.exc_type, OSError)
        and str(unraisable.exc_value)
        == f"Signal {int(signal.SIGINT)} ignored due to race condition"
        and signal.getsignal(signal.SIGINT) is signal.SIG_IGN
    )


def _interrupt(thread: int) -> None:
    """A Ctrl-C for `thread` as the terminal sends it, a real SIGINT, which also ends a system
    call it waits in (a read of an idle pipe): `_thread.interrupt_main` only sets Python's
    flag, which a thread waiting there never sees. Sent again every 50 ms until the command
    has taken it (it then ignores interrupts) or has ended: this thread runs when the main one
    gives up the GIL, often just before a system call, and a signal that comes before the call
    starts is handled there while the call waits on."""
    if not hasattr(signal, "pthread_kill"):  # Windows: no signals between threads
        _thread.interrupt_main()
        return
    pause = _thread.allocate_lock()  # a sleep that imports nothing
    pause.acquire()
    while signal.getsignal(signal.SIGINT) is not signal.SIG_IGN:
        try:
            signal.pthread_kill(thread, signal.SIGINT)
        except OSError:  # the main thread has ended: nothing is left to interrupt
            return
        pause.acquire(timeout=0.05)
