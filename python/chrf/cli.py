"""The ``chrf`` command.

chrf REF [REF ...] -i HYP        corpus chrF, sacreBLEU's command-line conventions
chrf components --input FILE|-   the chrf-components 1.0.0 JSON contract
chrf selftest                    worked examples through the compiled path and the reference
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from chrf import contract
from chrf._selftest import SelfTestError, selftest

__all__ = ["main"]


def main(argv: Sequence[str] | None = None) -> int:
    try:
        return dispatch(list(sys.argv[1:] if argv is None else argv))
    except BrokenPipeError:
        # The reader went away (`chrf ... | head`): say nothing more, as Unix tools do.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


def dispatch(args: list[str]) -> int:
    if args and args[0] == "components":
        return _components(args[1:])
    if args and args[0] == "selftest":
        return _selftest(args[1:])
    from chrf._cli_score import score_main

    return score_main(args)


def _components(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="chrf components",
        description=f"Evaluate a {contract.CONTRACT} JSON request; exit 0 with a result, "
        "2 with an invalid_input error.",
    )
    parser.add_argument(
        "--input", required=True, metavar="FILE", help="request file, or - for stdin"
    )
    args = parser.parse_args(argv)
    try:
        if args.input == "-":
            data = sys.stdin.buffer.read()
        else:
            with open(args.input, "rb") as handle:
                data = handle.read()
    except OSError as error:
        print(f"chrf components: cannot read {args.input}: {error.strerror}", file=sys.stderr)
        return 1
    response = contract.evaluate_json(data)
    sys.stdout.write(contract.dumps(response) + "\n")
    return 2 if "error" in response else 0


def _selftest(argv: list[str]) -> int:
    argparse.ArgumentParser(
        prog="chrf selftest",
        description="Run the worked examples through the compiled path and the reference.",
    ).parse_args(argv)
    try:
        count = selftest()
    except SelfTestError as error:
        print(error, file=sys.stderr)
        return 1
    print(f"selftest: {count} worked examples agree (compiled path, reference, expected values)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
