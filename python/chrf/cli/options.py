"""What each command was asked, typed: the scoring command's frozen `Options` and explain's and
report's `Inputs`, built from the Namespace of the command's parser (`chrf.cli.specs`), and the
checks that need more than one option (or the environment) before any input is read.

argparse's untyped Namespace goes no further than this module and `specs`; the rest of the
command line sees `Options`, `Inputs` and `Settings`.
"""

from __future__ import annotations

import argparse
import io
import os
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from chrf._errors import SettingsError
from chrf._messages import shown
from chrf._options import OPTIONS
from chrf._settings import DEFAULT_SETTINGS, Settings
from chrf.cli.arguments import DEFAULT_ENCODING, DEFAULT_METRICS, OTHER_METRIC_OPTIONS
from chrf.cli.io import CliError, stderr_line
from chrf.cli.specs import (
    components_parser,
    explain_parser,
    report_parser,
    score_parser,
    selftest_parser,
)

__all__ = [
    "ComponentsOptions",
    "Inputs",
    "Options",
    "PairedTest",
    "check_selftest_arguments",
    "components_options",
    "explain_options",
    "report_options",
    "score_options",
]

Format = Literal["json", "text", "latex"]
#: The output formats by name: sacreBLEU's $SACREBLEU_FORMAT, one of them, overrides --format.
FORMATS: dict[str, Format] = {"json": "json", "text": "text", "latex": "latex"}
ExplainFormat = Literal["text", "json"]


@dataclass(frozen=True)
class PairedTest:
    """A paired test against the first system: bootstrap resampling or approximate
    randomization, with its number of trials."""

    method: Literal["bs", "ar"]
    trials: int


@dataclass(frozen=True)
class Options:
    """What `chrf REF [REF ...] -i HYP [HYP ...]` was asked, checked as far as arguments alone
    allow (the rest needs the inputs)."""

    refs: tuple[str, ...]
    test_set: str | None  # sacreBLEU's -t: test sets (comma-separated) from its registry
    langpair: str | None
    listing: bool  # --list
    echo: tuple[str, ...]  # --echo FIELD ...
    citation: bool  # --citation
    download: str | None  # --download TEST_SET
    inputs: tuple[str, ...]  # empty: standard input
    num_refs: int
    encoding: str
    settings: Settings
    confidence: bool
    confidence_n: int
    paired: PairedTest | None
    format: Format
    width: int
    score_only: bool
    short: bool
    sentence_level: bool
    breakdown: bool
    quiet: bool


def score_options(argv: Sequence[str], hint: str = "") -> Options:
    """The scoring command's options; bad arguments and values exit with status 2 (argparse's
    one-line error, followed by `hint`), and what cannot be checked without the environment
    or the inputs raises CliError."""
    parser = score_parser(hint)
    args = parser.parse_args(argv)
    settings = settings_of(parser, args)
    check_arguments(args)
    from_env = os.environ.get("SACREBLEU_FORMAT", "").lower()  # sacreBLEU's: it overrides -f
    paired = (
        PairedTest("bs", args.paired_bs_n)
        if args.paired_bs
        else PairedTest("ar", args.paired_ar_n)
        if args.paired_ar
        else None
    )
    return Options(
        refs=tuple(args.refs),
        test_set=args.test_set,
        langpair=args.langpair,
        listing=args.listing,
        echo=tuple(args.echo or ()),
        citation=args.citation,
        download=args.download,
        inputs=tuple(args.input or ()),
        num_refs=args.num_refs,
        encoding=args.encoding,
        settings=settings,
        confidence=args.confidence,
        confidence_n=args.confidence_n,
        paired=paired,
        format=FORMATS.get(from_env, args.format),
        width=args.width,
        score_only=args.score_only,
        short=args.short,
        sentence_level=args.sentence_level,
        breakdown=args.breakdown,
        quiet=args.quiet,
    )


def check_arguments(args: argparse.Namespace) -> None:
    """The checks that need more than one argument (or the environment), in this order, each
    before any input is read: metric, references, then encoding; then the note naming
    sacreBLEU's options of other metrics. Each check runs where its arguments are not the plain
    command's (`chrf REF -i HYP`), which passes them all: the command line goes on to the
    inputs in one step."""
    if args.metrics != DEFAULT_METRICS:
        check_metrics(args.metrics)
    if args.test_set is not None or not args.refs or args.echo or args.citation:
        check_references(args)
    if args.encoding != DEFAULT_ENCODING:
        check_encoding(args.encoding)
    given = [flag for flag, dest in OTHER_METRIC_FLAGS if getattr(args, dest) not in (None, False)]
    if given:
        stderr_line(other_metric_notice(given))


def check_metrics(metrics: list[str]) -> None:
    others = [m for m in metrics if m.lower() != "chrf"]
    if others:
        raise CliError(
            f"chrf computes chrF only, not {', '.join(others)} "
            "(-m chrf; sacreBLEU has BLEU and TER)"
        )


def check_references(args: argparse.Namespace) -> None:
    """sacreBLEU's rules: references come from files or from a test set, never both."""
    if args.listing or args.download:
        return
    if args.citation:
        if args.test_set is None:
            raise CliError("--citation needs a test set (-t)")
        return
    if args.test_set is None:
        if args.echo:
            raise CliError("--echo needs a test set (-t) and a language pair (-l)")
        if not args.refs:
            raise CliError("give at least one reference file, or a test set (-t and -l)")
        return
    if args.refs:
        raise CliError("give either reference files or a test set (-t), not both")
    if args.langpair is None:
        raise CliError("a test set (-t) needs a language pair (-l); --list -t NAME lists them")
    if args.num_refs != 1:
        raise CliError("--num-refs reads one tab-separated reference file, not a test set (-t)")


def settings_of(parser: argparse.ArgumentParser, args: argparse.Namespace) -> Settings:
    """The chrF settings of the parsed options (`chrf.cli.arguments.CHRF_SETTINGS` stores each
    under its name), as the functions take them: only the options given differently from the
    table's defaults (none: the default settings); what Settings refuses is argparse's error."""
    given = {}
    for option in OPTIONS:
        value = getattr(args, option.name)
        if value != option.default or type(value) is not type(option.default):
            given[option.name] = value
    try:
        return Settings(**given) if given else DEFAULT_SETTINGS
    except (ValueError, TypeError) as error:  # each option's own check came first
        if isinstance(error, SettingsError) and error.reason == "orders_both_zero":
            # chrf-core's rule, worded with the flags the user typed (Settings words it with
            # the keyword arguments' names).
            parser.error("--chrf-char-order and --chrf-word-order must not both be 0")
        parser.error(f"chrF settings: {error}")


#: sacreBLEU's BLEU and TER options: the flag a note names, and where argparse stores it.
OTHER_METRIC_FLAGS = [
    (flags[0], str(options.get("dest", flags[0][2:].replace("-", "_"))))
    for flags, options in OTHER_METRIC_OPTIONS
]


def other_metric_notice(given: list[str]) -> str:
    """The stderr line naming sacreBLEU's BLEU and TER options `given`, which chrF ignores as
    sacreBLEU does."""
    notes = []
    if "--lowercase" in given:
        given = [flag for flag in given if flag != "--lowercase"]
        notes.append(
            "-lc/--lowercase is sacreBLEU's BLEU option: chrF stays case-sensitive, as in "
            "sacreBLEU (--chrf-lowercase lowercases chrF)"
        )
    if given:
        notes.append(f"{', '.join(given)}: sacreBLEU's BLEU or TER options, no effect on chrF")
    return f"chrf: note: {'; '.join(notes)}"


def check_encoding(name: str) -> None:
    try:
        io.TextIOWrapper(io.BytesIO(), encoding=name)
    except (LookupError, ValueError):  # unknown, not a text encoding, or not a name at all
        raise CliError(f"--encoding: {shown(name)} is not a text encoding Python knows") from None


@dataclass(frozen=True)
class Inputs:
    """Reference files, system files and settings, as `explain` and `report` take them."""

    refs: tuple[str, ...]
    systems: tuple[str, ...]
    encoding: str
    settings: Settings
    top: int
    test: Literal["bs", "ar"] | None
    trials: int | None


def explain_options(argv: Sequence[str]) -> tuple[Inputs, ExplainFormat]:
    """`chrf explain`'s inputs, and the format of its output."""
    parser = explain_parser()
    args = parser.parse_args(argv)
    output: ExplainFormat = args.format
    return inputs_of(parser, args), output


def report_options(argv: Sequence[str]) -> tuple[Inputs, str]:
    """`chrf report`'s inputs, and the page's path."""
    parser = report_parser()
    args = parser.parse_args(argv)
    path: str = args.output
    return inputs_of(parser, args), path


def inputs_of(parser: argparse.ArgumentParser, args: argparse.Namespace) -> Inputs:
    check_encoding(args.encoding)
    if len(set(args.input)) != len(args.input):
        raise CliError("the same system file is given twice")
    test: Literal["bs", "ar"] | None = None if args.no_test else "ar" if args.paired_ar else "bs"
    return Inputs(
        tuple(args.refs),
        tuple(args.input),
        args.encoding,
        settings_of(parser, args),
        args.top,
        test,
        args.trials,
    )


@dataclass(frozen=True)
class ComponentsOptions:
    """`chrf components`: the request file (- for standard input) or --schema, and the
    service to send the request to (None: evaluated here)."""

    input: str | None
    schema: bool
    base_url: str | None


def components_options(argv: Sequence[str]) -> ComponentsOptions:
    args = components_parser().parse_args(argv)
    return ComponentsOptions(args.input, args.schema, args.base_url)


def check_selftest_arguments(argv: Sequence[str]) -> None:
    """`chrf selftest` takes no arguments, but answers --help."""
    selftest_parser().parse_args(argv)
