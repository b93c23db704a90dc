"""The ``chrf`` command.

chrf REF [REF ...] -i HYP        corpus chrF, sacreBLEU's command-line conventions
chrf components --input FILE|-   the chrf-components 1.0.0 JSON contract
chrf selftest                    worked examples through the compiled path and the reference
chrf explain REF -i SYS [SYS]    missing/extra n-grams, costliest segments, system differences
chrf report REF -i SYS [SYS] -o  the same as one self-contained HTML page
(a command name is a reference file instead where a file of that name exists: `command_of`)

The package: `arguments` (argparse's spec, and the typed `Options` built from it), `reading`
(files and standard input), `testsets` (sacreBLEU's test sets), `modes` (the scoring modes),
`components` and `selftest` (the other commands), `render` (what is printed) and `io` (writing,
and failing, one line at a time).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence

from chrf.cli.io import CliError, OutputError, error_text, flush_output, report, silence_output

__all__ = ["main"]


def main(argv: Sequence[str] | None = None) -> int:
    """Runs the command; every failure is one line on stderr and a non-zero exit status:
    1 for errors, 2 for bad arguments (and contract requests refused), 130 for Ctrl-C."""
    if sys.stdout is None:  # started with stdout closed (`chrf ... >&-`): say so, not 0
        report("chrf: error: standard output is closed")
        return 1
    try:
        try:
            return dispatch(list(sys.argv[1:] if argv is None else argv))
        finally:
            flush_output()  # here, not at exit, so that a failure is reported like any other
    except OutputError as error:  # a closed pipe (`chrf ... | head`), a full disk
        report(f"chrf: error: {error}")
        silence_output()
        return 1
    except KeyboardInterrupt:
        report("chrf: interrupted")
        return 130
    except CliError as error:
        report(f"chrf: error: {error}")
        return 1
    except (ValueError, TypeError, ArithmeticError) as error:
        report(f"chrf: error: {error_text(error)}")
        return 1
    except MemoryError:
        report("chrf: error: out of memory")
        return 1
    except Exception as error:  # a defect: still reported on one line, with what it was
        report(
            f"chrf: error: internal error, please report it: {type(error).__name__}: "
            f"{error_text(error)}"
        )
        return 1


COMMANDS = ("components", "selftest", "explain", "report")


def command_of(args: list[str]) -> str | None:
    """The command the first argument names, or None for scoring. A file (or folder) of that
    name in the way makes it a reference file, as in sacreBLEU: `chrf components -i hyp.txt`
    scores against ./components where it exists (the commands are reached from elsewhere)."""
    if args and args[0] in COMMANDS and not os.path.lexists(args[0]):
        return args[0]
    return None


def dispatch(args: list[str]) -> int:
    # Each command imports its own modules only: the scoring modes load for scoring alone.
    command = command_of(args)
    if command == "components":
        from chrf.cli.arguments import components_input
        from chrf.cli.components import components

        return components(components_input(args[1:]))
    if command == "selftest":
        from chrf.cli.arguments import parse_selftest
        from chrf.cli.selftest import run_selftest

        parse_selftest(args[1:])
        return run_selftest()
    if command == "explain":
        from chrf.cli.explain import explain_command

        return explain_command(args[1:])
    if command == "report":
        from chrf.cli.report import report_command

        return report_command(args[1:])
    from chrf.cli.arguments import score_options
    from chrf.cli.modes import score

    return score(score_options(args))
