"""`chrf components --input FILE|-`: one chrf-components JSON request evaluated."""

from __future__ import annotations

from collections.abc import Sequence

from chrf import contract
from chrf.cli.io import Parser, write_line
from chrf.cli.reading import request_bytes

__all__ = ["components_command"]


def components_command(argv: Sequence[str]) -> int:
    """Exit status 2 when the contract answers with an error, as argument errors do."""
    parser = Parser(
        prog="chrf components",
        description=f"Evaluate a {contract.CONTRACT} JSON request; exit 0 with a result, "
        "2 with an invalid_input error (requests over 16 MiB are refused unread).",
    )
    parser.add_argument(
        "--input", required=True, metavar="FILE", help="request file, or - for stdin"
    )
    path: str = parser.parse_args(argv).input
    response = contract.evaluate_json(request_bytes(path))
    write_line(contract.dumps(response))
    return 2 if "error" in response else 0
