"""`chrf components --input FILE|-`: one chrf-components JSON request evaluated."""

from __future__ import annotations

from collections.abc import Sequence

from chrf import contract
from chrf.cli.io import write_line
from chrf.cli.options import components_input
from chrf.cli.reading import request_bytes

__all__ = ["components_command"]


def components_command(argv: Sequence[str]) -> int:
    """Exit status 2 when the contract answers with an error, as argument errors do."""
    response = contract.evaluate_json(request_bytes(components_input(argv)))
    write_line(contract.dumps(response))
    return 2 if "error" in response else 0
