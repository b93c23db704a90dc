"""The `chrf` command run inside the test's process: `chrf.cli.main(args)` with a working folder,
environment variables, standard input and outputs of its own for the call, for the tests of what
the command prints and its exit status. Starting an interpreter, chrf and pyarrow for each case
costs far more than the case; what only a process shows (signals, Ctrl-C, a closed pipe or
stdout, start-up, `python -m chrf`, modules read from the environment at import) stays tested
with real processes (`cli_program`, `test_cli.run`).

What the command sees is what `subprocess.run(..., capture_output=True, text=True)` gives it:
standard input a pipe (the null device without input), outputs that are no terminal, in the
encodings and error handlers the interpreter picks from the locale, and what it printed is
decoded as `text=True` decodes it. `main(args)` is the command without the program's handling of
the process (its signal dispositions, its death by SIGPIPE), which only a process can show."""

from __future__ import annotations

import contextlib
import io
import locale
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any
from unittest import mock

__all__ = ["run_cli"]


def run_cli(
    args: list[str],
    cwd: Path,
    stdin: bytes | None = None,
    *,
    full: bool = False,
    text: bool = True,
    **env: str,
) -> subprocess.CompletedProcess[Any]:
    """`chrf ARGS` in `cwd` with `env` added to the environment and `stdin` piped in: its exit
    status and what it wrote, as text (`text=True`) or bytes; with `full`, standard output is
    /dev/full (then nothing is read back from it)."""
    from chrf.cli import main

    # argparse's help is as wide as the terminal, which a child writing to a pipe lacks: there
    # it is $COLUMNS wide, or 80.
    env = {"COLUMNS": os.environ.get("COLUMNS") or "80", **env}
    out, err = io.BytesIO(), io.BytesIO()
    with (
        _stdin(stdin) as reader,
        _output(out, sys.__stdout__, full) as stdout,
        _output(err, sys.__stderr__) as stderr,
        mock.patch.object(sys, "stdin", reader),
        mock.patch.object(sys, "stdout", stdout),
        mock.patch.object(sys, "stderr", stderr),
        mock.patch.dict(os.environ, env),
        _chdir(cwd),
    ):
        try:
            status = main(list(args))
        except SystemExit as exit:  # argparse's, as the interpreter ends the program with it
            status = _exit_status(exit.code)
        stdout.flush()
        stderr.flush()
    if not text:
        return subprocess.CompletedProcess(args, status, out.getvalue(), err.getvalue())
    return subprocess.CompletedProcess(args, status, _text(out), _text(err))


@contextlib.contextmanager
def _chdir(folder: Path) -> Iterator[None]:
    before = os.getcwd()
    os.chdir(folder)
    try:
        yield
    finally:
        os.chdir(before)


def _exit_status(code: object) -> int:
    if code is None or isinstance(code, int):
        return code or 0
    print(code, file=sys.stderr)
    return 1


def _text(written: io.BytesIO) -> str:
    """As `subprocess.run(..., text=True)` decodes an output."""
    text = written.getvalue().decode(locale.getpreferredencoding(False))
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _codec(like: IO[str] | None) -> tuple[str, str]:
    """The encoding and error handler of one of the interpreter's own streams, which the
    program's has too (the same environment)."""
    encoding = like.encoding if like is not None else "utf-8"
    return encoding, getattr(like, "errors", None) or "strict"


@contextlib.contextmanager
def _output(
    sink: io.BytesIO, like: IO[str] | None, full: bool = False
) -> Iterator[io.TextIOWrapper]:
    """An output in the encoding and error handler that the interpreter gives the program's."""
    encoding, errors = _codec(like)
    if full:
        with open("/dev/full", "w", encoding=encoding, errors=errors) as handle:
            yield handle
        return
    yield io.TextIOWrapper(sink, encoding=encoding, errors=errors)


@contextlib.contextmanager
def _stdin(data: bytes | None) -> Iterator[IO[str]]:
    """Standard input as the program would have it: a pipe that a thread fills (as
    `subprocess.run(input=...)` does), or the null device."""
    encoding, errors = _codec(sys.__stdin__)
    if data is None:
        with open(os.devnull, encoding=encoding, errors=errors) as null:
            yield null
        return
    read, write = os.pipe()
    writer = threading.Thread(target=_fill, args=(write, data))
    writer.start()
    try:
        with open(read, encoding=encoding, errors=errors) as reader:
            yield reader  # closed before the join: a writer still blocked then gets EPIPE
    finally:
        writer.join()


def _fill(fd: int, data: bytes) -> None:
    try:
        with open(fd, "wb") as pipe:
            pipe.write(data)
    except BrokenPipeError:  # the command did not read it all
        pass
