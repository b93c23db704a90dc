"""Which command runs, and how it ends: every expected failure is one line on stderr and a
non-zero exit status, never a traceback (`exit_status`)."""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Callable
from dataclasses import dataclass

from chrf._messages import shown
from chrf.cli.commands import SUBCOMMANDS, loaded
from chrf.cli.io import (
    CliError,
    OutputError,
    Parser,
    error_text,
    flush_output,
    silence_output,
    stderr_line,
)

__all__ = ["COMMANDS", "Command", "command_of", "exit_status"]

#: The commands besides scoring, in the registry's order (`chrf.cli.commands`).
COMMANDS = tuple(SUBCOMMANDS)

#: Exit status of a process that SIGPIPE ended, as a shell reports it (128 + 13).
CLOSED_PIPE = 128 + 13


def exit_status(args: list[str], program: bool) -> int:
    """Runs the command `args` asks for; see `chrf.cli.main`. Ctrl-C is left to the caller."""
    if sys.stdout is None:  # started with stdout closed (`chrf ... >&-`): say so, not 0
        stderr_line("chrf: error: standard output is closed")
        return 1
    command = command_of(args)
    try:
        try:
            status = dispatch(command)
        finally:
            flush_output()  # here, not at exit, so that a failure is reported like any other
    except OutputError as error:
        silence_output()  # the interpreter's flush at exit must not fail a second time
        if error.broken_pipe:  # the reader went away (`chrf ... | head -1`): not an error
            return closed_pipe(program)
        return failed(str(error), command)
    except CliError as error:
        return failed(str(error), command, error.status)
    except (ValueError, TypeError, ArithmeticError) as error:
        return failed(error_text(error), command)
    except MemoryError:
        return failed("out of memory", command)
    except Exception as error:  # a defect: still reported on one line, with what it was
        return failed(
            f"internal error, please report it: {type(error).__name__}: {error_text(error)}",
            command,
        )
    if command.hint:
        stderr_line(f"chrf: note:{command.hint}")
    return status


def failed(message: str, command: Command, status: int = 1) -> int:
    stderr_line(f"chrf: error: {message}{command.hint}")
    return status


def closed_pipe(program: bool) -> int:
    """The end of a command whose reader closed the pipe: silent, as sacreBLEU (which restores
    SIGPIPE's default action) and every other command ends; the program dies of SIGPIPE,
    status 141 in a shell, like `yes | head -1`."""
    if program and hasattr(signal, "SIGPIPE"):
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
        signal.raise_signal(signal.SIGPIPE)
    return CLOSED_PIPE


@dataclass(frozen=True)
class Command:
    """What the arguments ask: a command (None: scoring) and its arguments, and the hint that
    a note or an error ends with when a command's name was read as a file."""

    name: str | None
    args: list[str]
    hint: str = ""


def command_of(args: list[str]) -> Command:
    """The one rule for a command's name in first place: `chrf NAME ...` runs the command,
    unless a file or folder NAME exists in the working folder: then, as in sacreBLEU, it is a
    reference file (`chrf explain -i hyp.txt` scores hyp.txt against ./explain), and a note
    on stderr, or the error if one follows, says how to choose. `chrf --command NAME ...`
    always runs the command; `chrf ./NAME ...` is always the file, without a note."""
    if args and (args[0] == "--command" or args[0].startswith("--command=")):
        return forced_command(args)
    if not args or args[0] not in COMMANDS:
        return Command(None, args)
    name = args[0]
    if not os.path.lexists(name):
        return Command(name, args[1:])
    kind = "folder" if os.path.isdir(name) else "file"
    return Command(
        None,
        args,
        f" (./{name} is a {kind} here, so it was read as a reference file, as sacreBLEU "
        f"reads it: `chrf --command {name} ...` runs the {name} command, `chrf ./{name} ...` "
        "names the file without this note)",
    )


def forced_command(args: list[str]) -> Command:
    if args[0] == "--command":
        name, rest = (args[1], args[2:]) if len(args) > 1 else ("", [])
    else:
        name, rest = args[0].partition("=")[2], args[1:]
    if name not in COMMANDS:
        Parser(prog="chrf", allow_abbrev=False).error(
            f"argument --command: must be one of {', '.join(COMMANDS)}, not {shown(name)}"
        )
    return Command(name, rest)


def dispatch(command: Command) -> int:
    # Each command imports its own modules only: the scoring modes load for scoring alone.
    if command.name is not None:
        run: Callable[[list[str]], int] = loaded(SUBCOMMANDS[command.name].runner)
        return run(command.args)
    from chrf.cli.modes import score_command

    return score_command(command.args, command.hint)
