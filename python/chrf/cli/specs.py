"""The command line's argument specs: argparse's parser of every command (the scoring command,
`components`, `selftest`, `explain` and `report`) and the groups of options they share (the chrF
settings; explain's and report's files and paired test). The typed results built from a parsed
Namespace are `chrf.cli.options`; the scoring command's arguments are tables in
`chrf.cli.arguments`, and each option's value type is `chrf.cli.values` (the chrF settings':
their kinds', in the option table, `chrf._options`).
"""

from __future__ import annotations

import argparse
from typing import Any

import chrf.cli.values as values
from chrf.cli.arguments import CHRF_SETTINGS, SCORE_ARGUMENTS
from chrf.cli.io import Parser
from chrf.contract import CONTRACT

__all__ = [
    "add_chrf_settings",
    "components_parser",
    "explain_parser",
    "report_parser",
    "score_parser",
    "selftest_parser",
]


def score_parser(hint: str = "") -> argparse.ArgumentParser:
    """The scoring command's parser, its arguments added group by group from `SCORE_ARGUMENTS`."""
    p = Parser(
        prog="chrf",
        allow_abbrev=False,
        description="chrF and chrF++ with sacreBLEU's command line. Other commands: "
        "'chrf components --input FILE' (the JSON contract), 'chrf selftest', 'chrf explain' "
        "(missing and extra n-grams, costliest segments, system differences), 'chrf report' "
        "(the same as one HTML page), 'chrf serve' and 'chrf mcp' (the contract over HTTP and "
        "MCP). Where a file or folder of a command's name exists, the "
        "name is that file, a reference, as in sacreBLEU: 'chrf --command NAME ...' runs the "
        "command, and './NAME' names the file.",
        formatter_class=DefaultsShown,
    )
    p.hint = hint
    for title, arguments in SCORE_ARGUMENTS:
        group: Any = p if title is None else p.add_argument_group(title)
        exclusive: Any = None  # the group's one set of mutually exclusive arguments
        for flags, spec, alone in arguments:
            if alone and exclusive is None:
                exclusive = group.add_mutually_exclusive_group()
            (exclusive if alone else group).add_argument(*flags, **spec)
    return p


def components_parser() -> argparse.ArgumentParser:
    p = Parser(
        allow_abbrev=False,
        prog="chrf components",
        description=f"Evaluate a {CONTRACT} JSON request; exit 0 with a result, "
        "2 with an invalid_input error (requests over 16 MiB are refused unread).",
    )
    what = p.add_mutually_exclusive_group(required=True)
    what.add_argument("--input", metavar="FILE", help="request file, or - for stdin")
    what.add_argument(
        "--schema",
        action="store_true",
        help="print the contract's input and output JSON Schema (draft 2020-12) and exit",
    )
    p.add_argument(
        "--base-url",
        metavar="URL",
        help="send the request to a running 'chrf serve' at URL (http://127.0.0.1:8000) "
        "instead of evaluating it here; the output is the same",
    )
    return p


def selftest_parser() -> argparse.ArgumentParser:
    """`chrf selftest` takes no arguments, but answers --help."""
    return Parser(
        allow_abbrev=False,
        prog="chrf selftest",
        description="Run the worked examples through the compiled path and the reference.",
    )


def explain_parser() -> argparse.ArgumentParser:
    p = Parser(
        allow_abbrev=False,
        prog="chrf explain",
        description="Explain a chrF score: per order the missing and extra n-grams, the "
        "segments that cost it most, scores by reference length; with several systems, their "
        "differences against the first and a paired test.",
    )
    add_systems(p)
    p.add_argument("--format", "-f", choices=["text", "json"], default="text")
    return p


def report_parser() -> argparse.ArgumentParser:
    p = Parser(
        allow_abbrev=False,
        prog="chrf report",
        description="Write one self-contained HTML page (no network resources) with the "
        "scores, confidence intervals, paired test, per-order charts, sentence-score "
        "distributions, length buckets, costliest segments and system differences.",
    )
    add_systems(p)
    p.add_argument("--output", "-o", required=True, metavar="FILE", help="the HTML file")
    return p


def add_systems(p: argparse.ArgumentParser) -> None:
    """explain's and report's arguments: reference and system files, what is listed, the
    paired test, and the chrF settings."""
    p.add_argument("refs", nargs="+", metavar="REF", help="reference files, one per stream")
    p.add_argument("--input", "-i", nargs="+", required=True, metavar="SYS", help="systems")
    p.add_argument("--encoding", "-e", default="utf-8")
    p.add_argument(
        "--top", type=values.positive_int, default=10, help="n-grams and segments listed"
    )
    test = p.add_mutually_exclusive_group()
    test.add_argument("--paired-bs", "-pbs", action="store_true", help="paired bootstrap (default)")
    test.add_argument("--paired-ar", "-par", action="store_true", help="approximate randomization")
    test.add_argument("--no-test", action="store_true", help="no paired test")
    p.add_argument(
        "--trials", type=values.positive_int, help="resamples or trials of the paired test"
    )
    add_chrf_settings(p.add_argument_group("chrF settings"))


def add_chrf_settings(c: argparse._ArgumentGroup) -> None:
    """The chrF settings' flags (`CHRF_SETTINGS`), as explain and report take them too."""
    for flags, spec, _ in CHRF_SETTINGS:
        c.add_argument(*flags, **spec)


class DefaultsShown(argparse.ArgumentDefaultsHelpFormatter):
    """Every option's default after its help, as sacreBLEU's --help shows them; an option
    without a default value says in its help what happens without it."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        if action.default is None:
            return action.help
        return super()._get_help_string(action)
