"""The command line's arguments: argparse's spec, and the typed options built from it.

argparse's untyped Namespace goes no further than this module; the rest of the command line
sees frozen `Options`.
"""

from __future__ import annotations

import argparse
import io
import math
import os
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from chrf import contract
from chrf._messages import shown
from chrf._sacrebleu import VERSION
from chrf._settings import AVERAGINGS, Beta, Settings
from chrf.cli.io import CliError, Parser, non_negative_int, positive_int

__all__ = [
    "Options",
    "PairedTest",
    "components_input",
    "parse_selftest",
    "score_options",
]

Format = Literal["json", "text"]


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


def score_options(argv: Sequence[str]) -> Options:
    """The scoring command's options; bad arguments exit with status 2 (argparse's), bad
    values raise CliError."""
    return options_of(score_parser().parse_args(argv))


def components_input(argv: Sequence[str]) -> str:
    """The request file of `chrf components --input FILE|-`."""
    parser = Parser(
        prog="chrf components",
        description=f"Evaluate a {contract.CONTRACT} JSON request; exit 0 with a result, "
        "2 with an invalid_input error (requests over 16 MiB are refused unread).",
    )
    parser.add_argument(
        "--input", required=True, metavar="FILE", help="request file, or - for stdin"
    )
    path: str = parser.parse_args(argv).input
    return path


def parse_selftest(argv: Sequence[str]) -> None:
    """`chrf selftest` takes no arguments, but answers --help."""
    Parser(
        prog="chrf selftest",
        description="Run the worked examples through the compiled path and the reference.",
    ).parse_args(argv)


def score_parser() -> argparse.ArgumentParser:
    p = Parser(
        prog="chrf",
        description="chrF and chrF++ with sacreBLEU's command line. Other commands: "
        "'chrf components --input FILE' (the JSON contract), 'chrf selftest'.",
    )
    add_inputs(p)
    add_chrf_settings(p.add_argument_group("chrF settings"))
    add_statistics(
        p.add_argument_group("statistics (sacreBLEU's seeds: 12345, or $SACREBLEU_SEED)")
    )
    add_output(p.add_argument_group("output"))
    p.add_argument("--version", "-V", action="version", version=f"chrf {VERSION}")
    return p


def add_inputs(p: argparse.ArgumentParser) -> None:
    p.add_argument("refs", nargs="*", metavar="REF", help="reference files, one per stream")
    p.add_argument(
        "--input",
        "-i",
        nargs="*",
        metavar="HYP",
        help="system outputs (default: stdin, tab-separated systems)",
    )
    p.add_argument(
        "--metrics",
        "-m",
        nargs="+",
        default=["chrf"],
        help="accepted for sacreBLEU compatibility: only chrf",
    )
    p.add_argument(
        "--num-refs",
        "-nr",
        type=positive_int,
        default=1,
        help="references per line of a single tab-separated reference file",
    )
    p.add_argument(
        "--encoding", "-e", default="utf-8", help="input encoding (default: %(default)s)"
    )


def add_chrf_settings(c: argparse._ArgumentGroup) -> None:
    c.add_argument(
        "--chrf-char-order",
        "--char-order",
        "-cc",
        type=int,
        default=Settings.char_order,
        dest="char_order",
    )
    c.add_argument(
        "--chrf-word-order",
        "--word-order",
        "-cw",
        type=int,
        default=Settings.word_order,
        dest="word_order",
    )
    c.add_argument(
        "--chrf-beta",
        "--beta",
        default=str(Settings.beta),
        dest="beta",
        help="an integer, a fraction p/q or a decimal",
    )
    c.add_argument("--chrf-lowercase", "--lowercase", "-lc", action="store_true", dest="lowercase")
    c.add_argument("--chrf-whitespace", "--whitespace", action="store_true", dest="whitespace")
    c.add_argument(
        "--chrf-eps-smoothing", "--eps-smoothing", action="store_true", dest="eps_smoothing"
    )
    c.add_argument("--averaging", choices=AVERAGINGS, default=Settings.averaging)
    c.add_argument(
        "--count-hyp-without-ref",
        action="store_true",
        help="count hypothesis n-grams of orders the reference lacks (the JSON contract's rule)",
    )


def add_statistics(s: argparse._ArgumentGroup) -> None:
    s.add_argument(
        "--confidence", "-ci", action="store_true", help="bootstrap 95%% confidence interval"
    )
    s.add_argument(
        "--confidence-n",
        "-cin",
        type=int,
        default=1000,
        help="bootstrap resamples (default: %(default)s)",
    )
    pair = s.add_mutually_exclusive_group()
    pair.add_argument(
        "--paired-bs",
        "-pbs",
        action="store_true",
        help="paired bootstrap resampling test against the first system",
    )
    pair.add_argument(
        "--paired-ar",
        "-par",
        action="store_true",
        help="paired approximate randomization test against the first system",
    )
    s.add_argument("--paired-bs-n", "-pbsn", type=positive_int, default=1000)
    s.add_argument("--paired-ar-n", "-parn", type=positive_int, default=10000)
    s.add_argument(
        "--paired-jobs",
        "-j",
        type=int,
        default=1,
        help="accepted for sacreBLEU compatibility (work runs on CHRF_NUM_THREADS threads)",
    )


def add_output(r: argparse._ArgumentGroup) -> None:
    r.add_argument("--format", "-f", choices=["json", "text"], default="json")
    r.add_argument(
        "--width", "-w", type=non_negative_int, default=1, help="decimals (default: %(default)s)"
    )
    r.add_argument("--score-only", "-b", action="store_true")
    r.add_argument("--short", "-sh", action="store_true", help="short signature")
    r.add_argument("--sentence-level", "-sl", action="store_true")
    r.add_argument(
        "--breakdown",
        action="store_true",
        help="per-order counts, precision, recall and F, exact and decimal",
    )
    r.add_argument("--quiet", "-q", action="store_true", help="no progress bar")


def options_of(args: argparse.Namespace) -> Options:
    """The checks run in this order, each before any input is read: metric, references,
    encoding, then the chrF settings."""
    if [m.lower() for m in args.metrics] != ["chrf"]:
        raise CliError("only the chrf metric is available (-m chrf)")
    if not args.refs:
        raise CliError("give at least one reference file")
    check_encoding(args.encoding)
    return Options(
        refs=tuple(args.refs),
        inputs=tuple(args.input or ()),
        num_refs=args.num_refs,
        encoding=args.encoding,
        settings=settings_of(args),
        confidence=args.confidence,
        confidence_n=args.confidence_n,
        paired=paired_test_of(args),
        format=format_of(args.format),
        width=args.width,
        score_only=args.score_only,
        short=args.short,
        sentence_level=args.sentence_level,
        breakdown=args.breakdown,
        quiet=args.quiet,
    )


def format_of(asked: Format) -> Format:
    """sacreBLEU's $SACREBLEU_FORMAT=text turns the default JSON into text."""
    if asked == "json" and os.environ.get("SACREBLEU_FORMAT", "").lower() == "text":
        return "text"
    return asked


def paired_test_of(args: argparse.Namespace) -> PairedTest | None:
    if args.paired_bs:
        return PairedTest("bs", args.paired_bs_n)
    if args.paired_ar:
        return PairedTest("ar", args.paired_ar_n)
    return None


def settings_of(args: argparse.Namespace) -> Settings:
    return Settings(
        char_order=args.char_order,
        word_order=args.word_order,
        beta=parse_beta(args.beta),
        lowercase=args.lowercase,
        include_whitespace=args.whitespace,
        averaging=args.averaging,
        eps_smoothing=args.eps_smoothing,
        count_hyp_without_ref=args.count_hyp_without_ref,
    )


def parse_beta(text: str) -> Beta:
    """An integer, a fraction p/q or a decimal, each read exactly as written."""
    try:
        if "/" in text:
            return Fraction(text)
        return int(text)
    except (ValueError, ZeroDivisionError):  # also: 1/0, and more digits than Python converts
        pass
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value):
        raise CliError(f"--beta must be a number (an integer, p/q or a decimal), not {shown(text)}")
    return value


def check_encoding(name: str) -> None:
    try:
        io.TextIOWrapper(io.BytesIO(), encoding=name)
    except (LookupError, ValueError):  # unknown, not a text encoding, or not a name at all
        raise CliError(f"--encoding: {shown(name)} is not a text encoding Python knows") from None
