"""`chrf components --input FILE|-`: one chrf-components JSON request evaluated."""

from __future__ import annotations

from chrf import contract
from chrf.cli.io import write_line
from chrf.cli.reading import request_bytes

__all__ = ["components"]


def components(path: str) -> int:
    """Exit status 2 when the contract answers with an error, as argument errors do."""
    response = contract.evaluate_json(request_bytes(path))
    write_line(contract.dumps(response))
    return 2 if "error" in response else 0
