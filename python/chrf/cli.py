"""The ``chrf`` command.

chrf REF [REF ...] -i HYP        corpus chrF, sacreBLEU's command-line conventions
chrf components --input FILE|-   the chrf-components 1.0.0 JSON contract
chrf selftest                    worked examples through the compiled path and the reference
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from chrf import contract
from chrf._cli_io import (
    CliError,
    OutputError,
    Parser,
    error_text,
    flush_output,
    reading,
    report,
    silence_output,
    write_line,
)
from chrf._selftest import SelfTestError, selftest

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


def dispatch(args: list[str]) -> int:
    if args and args[0] == "components":
        return _components(args[1:])
    if args and args[0] == "selftest":
        return _selftest(args[1:])
    from chrf._cli_score import score_main

    return score_main(args)


def _components(argv: list[str]) -> int:
    parser = Parser(
        prog="chrf components",
        description=f"Evaluate a {contract.CONTRACT} JSON request; exit 0 with a result, "
        "2 with an invalid_input error (requests over 16 MiB are refused unread).",
    )
    parser.add_argument(
        "--input", required=True, metavar="FILE", help="request file, or - for stdin"
    )
    args = parser.parse_args(argv)
    response = contract.evaluate_json(_request(args.input))
    write_line(contract.dumps(response))
    return 2 if "error" in response else 0


def _request(path: str) -> bytes:
    """The request, read no further than one byte past the contract's limit."""
    limit = contract.MAX_REQUEST_BYTES + 1
    if path == "-":
        if sys.stdin is None:
            raise CliError("standard input is closed")
        with reading("standard input"):
            return sys.stdin.buffer.read(limit)
    with reading(path), open(path, "rb") as handle:
        return handle.read(limit)


def _selftest(argv: list[str]) -> int:
    Parser(
        prog="chrf selftest",
        description="Run the worked examples through the compiled path and the reference.",
    ).parse_args(argv)
    try:
        count = selftest()
    except SelfTestError as error:
        report(f"chrf: error: {error}")
        return 1
    write_line(
        f"selftest: {count} worked examples agree (compiled path, reference, expected values)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
