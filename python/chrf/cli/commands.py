"""The command registry: every subcommand of `chrf`, the spec of its arguments (the function
building its argparse parser) and the function that runs it on its arguments. The scoring
command, which runs when no subcommand is named, is `chrf.cli.modes.score_command`.

Both are named as ``module:function`` and imported only when the command runs: each command
loads its own modules alone, and this module, read to find which command runs, imports nothing
of chrf.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

__all__ = ["SUBCOMMANDS", "Subcommand", "loaded"]


@dataclass(frozen=True)
class Subcommand:
    """A subcommand's parser (its arguments' spec; --help is its text) and runner (which
    parses the arguments with it and returns the exit status)."""

    parser: str
    runner: str


SUBCOMMANDS: dict[str, Subcommand] = {
    "components": Subcommand(
        "chrf.cli.specs:components_parser", "chrf.cli.components:components_command"
    ),
    "selftest": Subcommand("chrf.cli.specs:selftest_parser", "chrf.cli.selftest:selftest_command"),
    "explain": Subcommand("chrf.cli.specs:explain_parser", "chrf.cli.explain:explain_command"),
    "report": Subcommand("chrf.cli.specs:report_parser", "chrf.cli.report:report_command"),
    "serve": Subcommand("chrf.cli.serve:serve_parser", "chrf.cli.serve:serve_command"),
    "mcp": Subcommand("chrf.cli.serve:mcp_parser", "chrf.cli.serve:mcp_command"),
}


def loaded(name: str) -> Callable[..., Any]:
    """The function a registry entry names (``module:function``), its module imported now."""
    module, _, function = name.partition(":")
    found: Callable[..., Any] = getattr(importlib.import_module(module), function)
    return found
