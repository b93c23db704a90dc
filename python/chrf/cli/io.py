"""How the command line reads, writes and fails: whole lines out, one-line errors, no tracebacks."""

from __future__ import annotations

import argparse
import errno
import io
import os
import select
import signal
import stat
import sys
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from typing import IO, TYPE_CHECKING, BinaryIO, NoReturn

if TYPE_CHECKING:
    from _typeshed import SupportsWrite


class CliError(Exception):
    """A problem with the command line or its inputs: one line on stderr, then exit status
    `status` (1; sacreBLEU's 17 for lines with the wrong number of tab-separated fields)."""

    def __init__(self, message: str, status: int = 1) -> None:
        super().__init__(message)
        self.status = status


class OutputError(Exception):
    """Standard output cannot take what is written: a closed pipe, a full disk."""

    def __init__(self, error: OSError) -> None:
        super().__init__(f"cannot write to standard output: {error.strerror}")
        #: The reader went away (`chrf ... | head -1`): not an error, see `chrf.cli.run`.
        self.broken_pipe = error.errno == errno.EPIPE


class Parser(argparse.ArgumentParser):
    """argparse, with its errors on one line (exit status 2, as argparse's), followed by
    `hint` when there is one, and --help and --version failing, not silent, when standard
    output cannot take them. Made with ``allow_abbrev=False``: no option is taken by a prefix
    of its name, `-l` is the language pair, never a shortened `-lc`."""

    #: What an error ends with (see `chrf.cli.outcome.command_of`); set by the parser's maker.
    hint = ""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {one_line(message)}{self.hint}\n")

    def _print_message(self, message: str, file: SupportsWrite[str] | None = None) -> None:
        if message and file is sys.stdout:  # argparse itself ignores write errors
            write(message)
        else:
            super()._print_message(message, file)


def write_line(text: str) -> None:
    """`text` (one line or several) and a newline, whole: see `write`."""
    write(text + "\n")


def write(text: str) -> None:
    """Writes and flushes `text` with Ctrl-C held back until it is out: an interrupt inside the
    buffered writer's system calls would drop or split part of it, so standard output would
    end in a half-written line, or lose one from the middle."""
    with _interrupts_held():
        try:
            sys.stdout.write(text)
            sys.stdout.flush()
        except OSError as error:
            raise OutputError(error) from None


@contextmanager
def _interrupts_held() -> Iterator[None]:
    if not hasattr(signal, "pthread_sigmask"):  # Windows: no signal masks
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:  # a Ctrl-C that came meanwhile is delivered now, as KeyboardInterrupt
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def flush_output() -> None:
    try:
        sys.stdout.flush()
    except OSError as error:
        raise OutputError(error) from None


def silence_output() -> None:
    """Points standard output at the null device, so that the interpreter's own flush at exit
    does not fail a second time on what could not be written."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):  # no file descriptor: nothing will be flushed to one
        pass


def stderr_line(message: str) -> None:
    """One line on stderr, if there is a stderr."""
    if sys.stderr is not None:
        try:
            sys.stderr.write(one_line(message) + "\n")
            sys.stderr.flush()
        except OSError:  # nowhere left to say it
            pass


def one_line(text: str) -> str:
    return " ".join(text.splitlines())


def error_text(error: BaseException) -> str:
    """An exception's message, or its type when the message is empty or cannot be built."""
    try:
        text = str(error)
    except Exception:  # e.g. an argument beyond Python's int-to-str digit limit
        text = ""
    return text or type(error).__name__


@contextmanager
def reading(name: str) -> Iterator[None]:
    """Turns read and decoding failures of `name` into one-line CliErrors."""
    try:
        yield
    except OSError as error:
        raise CliError(f"cannot read {name}: {error.strerror or error_text(error)}") from None
    except UnicodeDecodeError as error:
        raise CliError(f"{name} is not valid {error.encoding}: {error.reason}") from None
    except (EOFError, zlib.error) as error:  # a truncated or damaged .gz file
        raise CliError(f"cannot read {name}: {error_text(error)}") from None


#: The longest a read of a pipe waits at a time, in seconds (see `PipeFile`).
PIPE_WAIT = 0.05


class PipeFile(io.FileIO):
    """A file read as `io.FileIO` reads it, except that a read of a pipe or a terminal first
    waits for input, `PIPE_WAIT` seconds at a time. Python's signal handler only flags a Ctrl-C,
    and the interpreter raises it between two steps of Python code: one that arrives just before
    a read's system call begins leaves the read waiting on an idle pipe with the interrupt
    pending, until input comes or the pipe closes. Between two waits the interrupt is raised."""

    def __init__(self, file: int | str, closefd: bool = True) -> None:
        super().__init__(file, "r", closefd=closefd)
        mode = os.fstat(self.fileno()).st_mode
        self._waits = os.name == "posix" and not stat.S_ISREG(mode)

    def readinto(self, buffer: bytearray | memoryview) -> int | None:  # type: ignore[override]
        while self._waits and not select.select([self], [], [], PIPE_WAIT)[0]:
            pass
        return super().readinto(buffer)


def open_binary(path: str) -> BinaryIO:
    """The file at `path`, buffered, its reads of a pipe waiting as `PipeFile`'s do."""
    return io.BufferedReader(PipeFile(path))


def stdin_binary() -> BinaryIO:
    """Standard input's bytes, read as `PipeFile` reads (or as they are, with no file
    descriptor behind them). Not closed with the reader."""
    try:
        descriptor = sys.stdin.fileno()
    except (OSError, ValueError):  # replaced, by an object reading no file
        return sys.stdin.buffer
    return io.BufferedReader(PipeFile(descriptor, closefd=False))


#: The most characters a line may have (docs/command-line.md): a source without line ends
#: (/dev/zero, a stuck pipe) is refused there instead of being read into memory for ever.
#: $CHRF_CLI_MAX_LINE lowers it, for tests.
MAX_LINE_CHARS = 1 << 28


def max_line_chars() -> int:
    text = os.environ.get("CHRF_CLI_MAX_LINE", "")
    return int(text) if text.isdigit() and int(text) > 0 else MAX_LINE_CHARS


def bounded_lines(handle: IO[str], name: str, block: int) -> Iterator[list[str]]:
    """The lines of `handle`, without their "\\n", in lists of those that end within `block`
    characters read (the last line also without one); CliError for a line longer than
    `max_line_chars()`, named by its number. A long line is held as the blocks it spans, and
    joined once: never copied block after block."""
    limit = max_line_chars()
    pending: list[str] = []  # the blocks of the line not ended yet
    held = 0
    number = 0  # the lines ended so far
    while text := handle.read(block):
        lines = text.split("\n")
        tail = lines.pop()
        if lines:
            lines[0] = "".join([*pending, lines[0]])
            pending, held = [], 0
            if max(map(len, lines)) > limit:
                k = next(k for k, line in enumerate(lines) if len(line) > limit)
                raise CliError(f"{name} line {number + k + 1}: {_too_long(limit)}")
            number += len(lines)
            yield lines
        pending.append(tail)
        held += len(tail)
        if held > limit:
            raise CliError(f"{name} line {number + 1}: {_too_long(limit)}")
    if held:
        yield ["".join(pending)]


def _too_long(limit: int) -> str:
    return f"longer than {limit:,} characters, the most a line may have"
