"""The scoring command's options: the typed, frozen `Options` built from argparse's Namespace,
and the checks that need more than one option (or the environment) before any input is read.

argparse's untyped Namespace goes no further than this module and `arguments`; the rest of the
command line sees `Options` and `Settings`.
"""

from __future__ import annotations

import argparse
import io
import os
from dataclasses import dataclass
from typing import Literal

from chrf._messages import shown
from chrf._settings import Settings
from chrf.cli.io import CliError, stderr_line
from chrf.cli.other_metrics import other_metric_notice

__all__ = ["Options", "PairedTest", "check_encoding", "options_of", "settings_of"]

Format = Literal["json", "text", "latex"]


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


def options_of(args: argparse.Namespace, settings: Settings) -> Options:
    """The checks run in this order, each before any input is read: metric, references,
    then encoding."""
    check_metrics(args.metrics)
    check_references(args)
    check_encoding(args.encoding)
    if (notice := other_metric_notice(args)) is not None:
        stderr_line(notice)
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
        paired=paired_test_of(args),
        format=format_of(args.format),
        width=args.width,
        score_only=args.score_only,
        short=args.short,
        sentence_level=args.sentence_level,
        breakdown=args.breakdown,
        quiet=args.quiet,
    )


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


def format_of(asked: Format) -> Format:
    """sacreBLEU's $SACREBLEU_FORMAT (json, text or latex) overrides --format."""
    from_env = os.environ.get("SACREBLEU_FORMAT", "").lower()
    if from_env in ("json", "text", "latex"):
        return from_env  # type: ignore[return-value]
    return asked


def paired_test_of(args: argparse.Namespace) -> PairedTest | None:
    if args.paired_bs:
        return PairedTest("bs", args.paired_bs_n)
    if args.paired_ar:
        return PairedTest("ar", args.paired_ar_n)
    return None


def settings_of(parser: argparse.ArgumentParser, args: argparse.Namespace) -> Settings:
    """The chrF settings of the parsed options; what Settings refuses is argparse's error."""
    if args.char_order == args.word_order == 0:
        parser.error("--chrf-char-order and --chrf-word-order must not both be 0")
    try:
        return Settings(
            char_order=args.char_order,
            word_order=args.word_order,
            beta=args.beta,
            lowercase=args.lowercase,
            include_whitespace=args.whitespace,
            averaging=args.averaging,
            eps_smoothing=args.eps_smoothing,
            count_hyp_without_ref=args.count_hyp_without_ref,
        )
    except (ValueError, TypeError) as error:  # each option's own check came first
        parser.error(f"chrF settings: {error}")


def check_encoding(name: str) -> None:
    try:
        io.TextIOWrapper(io.BytesIO(), encoding=name)
    except (LookupError, ValueError):  # unknown, not a text encoding, or not a name at all
        raise CliError(f"--encoding: {shown(name)} is not a text encoding Python knows") from None
