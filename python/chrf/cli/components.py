"""`chrf components --input FILE|-`: one chrf-components JSON request evaluated, here or by a
running service (`--base-url`); `--schema` prints the contract's JSON Schema."""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence

from chrf import contract, tools
from chrf.cli.io import CliError, open_binary, reading, stdin_binary, write_line
from chrf.cli.options import components_options

__all__ = ["components_command"]


def components_command(argv: Sequence[str]) -> int:
    """Exit status 2 when the contract answers with an error, as argument errors do."""
    options = components_options(argv)
    if options.schema:
        name, version = contract.CONTRACT.split()
        write_line(json.dumps(tools.document(name, version), indent=2, ensure_ascii=False))
        return 0
    assert options.input is not None  # argparse requires --input or --schema
    request = request_bytes(options.input)
    if options.base_url is not None:
        from chrf.cli.remote import remote_response

        text = remote_response(options.base_url, request)
        write_line(text)
        return 2 if "error" in json.loads(text) else 0
    response = contract.evaluate_json(request)
    write_line(contract.dumps(response))
    return 2 if "error" in response else 0


def request_bytes(path: str) -> bytes:
    """A contract request, read no further than one byte past the contract's limit."""
    limit = contract.MAX_REQUEST_BYTES + 1
    if path == "-":
        if sys.stdin is None:
            raise CliError("standard input is closed")
        with reading("standard input"):
            return stdin_binary().read(limit)
    with reading(path), open_binary(path) as handle:
        return handle.read(limit)
