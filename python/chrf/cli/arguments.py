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
from chrf.cli.io import CliError, Parser, non_negative_int, positive_int, report

__all__ = [
    "Options",
    "PairedTest",
    "components_input",
    "parse_selftest",
    "score_options",
]

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
        "'chrf components --input FILE' (the JSON contract), 'chrf selftest', 'chrf explain' "
        "(missing and extra n-grams, costliest segments, system differences), 'chrf report' "
        "(the same as one HTML page); each is taken as a command only where no file of that "
        "name exists: there, it is a reference file.",
        formatter_class=DefaultsShown,
    )
    add_inputs(p)
    add_test_sets(p.add_argument_group("test sets (sacreBLEU's registry and cache, $SACREBLEU)"))
    add_chrf_settings(p.add_argument_group("chrF settings"))
    add_statistics(
        p.add_argument_group("statistics (sacreBLEU's seeds: 12345, or $SACREBLEU_SEED)")
    )
    add_output(p.add_argument_group("output"))
    add_other_metrics(p.add_argument_group("sacreBLEU's BLEU and TER options: no effect on chrF"))
    p.add_argument("--version", "-V", action="version", version=f"chrf {VERSION}")
    return p


class DefaultsShown(argparse.ArgumentDefaultsHelpFormatter):
    """Every option's default after its help, as sacreBLEU's --help shows them; an option
    without a default value says in its help what happens without it."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        if action.default is None:
            return action.help
        return super()._get_help_string(action)


def add_inputs(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "refs",
        nargs="*",
        metavar="REF",
        help="reference files, one per stream, .gz read too (default: none, with -t)",
    )
    p.add_argument(
        "--input",
        "-i",
        nargs="*",
        metavar="HYP",
        help="system outputs (default: standard input, several systems as tab-separated fields)",
    )
    p.add_argument(
        "--metrics",
        "-m",
        nargs="+",
        default=["chrf"],
        help="as in sacreBLEU, but chrF is the only metric here",
    )
    p.add_argument(
        "--num-refs",
        "-nr",
        type=positive_int,
        default=1,
        help="references per line of a single tab-separated reference file",
    )
    p.add_argument("--encoding", "-e", default="utf-8", help="input encoding")


def add_test_sets(t: argparse._ArgumentGroup) -> None:
    t.add_argument(
        "--test-set",
        "-t",
        help="references of a sacreBLEU test set (comma-separated: concatenated), read from "
        "sacreBLEU's cache and downloaded there by sacreBLEU when missing (default: none, "
        "reference files given)",
    )
    t.add_argument(
        "--language-pair",
        "-l",
        dest="langpair",
        help="the test set's pair, e.g. en-de (default: none; needed with -t)",
    )
    t.add_argument(
        "--echo",
        nargs="+",
        metavar="FIELD",
        help="print the test set's fields (src, ref, ..., or all) tab-separated, and quit "
        "(default: none, score)",
    )
    t.add_argument(
        "--list",
        action="store_true",
        dest="listing",
        help="list the test sets (with -t: its pairs and fields), and quit",
    )
    t.add_argument(
        "--citation",
        "--cite",
        action="store_true",
        help="print the BibTeX of the test sets of -t, and quit",
    )
    t.add_argument(
        "--download",
        metavar="TEST_SET",
        help="download a test set (of the pair of -l) into sacreBLEU's cache, and quit "
        "(default: none)",
    )


def add_chrf_settings(c: argparse._ArgumentGroup) -> None:
    c.add_argument(
        "--chrf-char-order",
        "--char-order",
        "-cc",
        type=int,
        default=Settings.char_order,
        dest="char_order",
        help="character n-gram orders",
    )
    c.add_argument(
        "--chrf-word-order",
        "--word-order",
        "-cw",
        type=int,
        default=Settings.word_order,
        dest="word_order",
        help="word n-gram orders (2: chrF++)",
    )
    c.add_argument(
        "--chrf-beta",
        "--beta",
        default=str(Settings.beta),
        dest="beta",
        help="recall's weight: an integer, a fraction p/q or a decimal",
    )
    c.add_argument(
        "--chrf-lowercase",
        action="store_true",
        dest="lowercase",
        help="lowercase before scoring (Python's str.lower())",
    )
    c.add_argument(
        "--chrf-whitespace",
        "--whitespace",
        action="store_true",
        dest="whitespace",
        help="keep whitespace in character n-grams",
    )
    c.add_argument(
        "--chrf-eps-smoothing",
        "--eps-smoothing",
        action="store_true",
        dest="eps_smoothing",
        help="sacreBLEU's eps smoothing (float only)",
    )
    c.add_argument(
        "--averaging",
        choices=AVERAGINGS,
        default=Settings.averaging,
        help="sacreBLEU's F of mean precision and recall, or chrF++.py's mean per-order F",
    )
    c.add_argument(
        "--count-hyp-without-ref",
        action="store_true",
        help="count hypothesis n-grams of orders the reference lacks (the JSON contract's rule)",
    )


def add_statistics(s: argparse._ArgumentGroup) -> None:
    s.add_argument(
        "--confidence", "-ci", action="store_true", help="bootstrap 95%% confidence interval"
    )
    s.add_argument("--confidence-n", "-cin", type=int, default=1000, help="bootstrap resamples")
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
    s.add_argument(
        "--paired-bs-n", "-pbsn", type=positive_int, default=1000, help="paired bootstrap resamples"
    )
    s.add_argument(
        "--paired-ar-n",
        "-parn",
        type=positive_int,
        default=10000,
        help="approximate randomization trials",
    )
    s.add_argument(
        "--paired-jobs",
        "-j",
        type=int,
        default=1,
        help="accepted for sacreBLEU compatibility (work runs on CHRF_NUM_THREADS threads)",
    )


def add_output(r: argparse._ArgumentGroup) -> None:
    r.add_argument(
        "--format",
        "-f",
        choices=["json", "text", "latex"],
        default="json",
        help="output format ($SACREBLEU_FORMAT overrides it, as in sacreBLEU; latex: tables only)",
    )
    r.add_argument("--width", "-w", type=non_negative_int, default=1, help="decimals")
    r.add_argument("--score-only", "-b", action="store_true", help="print the score alone")
    r.add_argument("--short", "-sh", action="store_true", help="short signature")
    r.add_argument("--sentence-level", "-sl", action="store_true", help="one score per segment")
    r.add_argument(
        "--breakdown",
        action="store_true",
        help="per-order counts, precision, recall and F, exact and decimal",
    )
    r.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    r.add_argument(
        "--no-color", "-nc", action="store_true", help="accepted from sacreBLEU: no colours anyway"
    )


#: sacreBLEU's options of its other metrics: a copied command line keeps working, and they change
#: no chrF number there either (`-lc` is BLEU's lowercasing: chrF's is --chrf-lowercase).
OTHER_METRIC_OPTIONS: list[tuple[tuple[str, ...], dict[str, object]]] = [
    (("--lowercase", "-lc"), {"action": "store_true", "dest": "bleu_lowercase"}),
    (("--tokenize", "-tok"), {"dest": "bleu_tokenize"}),
    (("--smooth-method", "-s"), {"dest": "bleu_smooth_method"}),
    (("--smooth-value", "-sv"), {"dest": "bleu_smooth_value"}),
    (("--force",), {"action": "store_true", "dest": "bleu_force"}),
    (("--ter-case-sensitive",), {"action": "store_true"}),
    (("--ter-asian-support",), {"action": "store_true"}),
    (("--ter-no-punct",), {"action": "store_true"}),
    (("--ter-normalized",), {"action": "store_true"}),
]


def add_other_metrics(o: argparse._ArgumentGroup) -> None:
    for flags, options in OTHER_METRIC_OPTIONS:
        valued = options.get("action") != "store_true"
        described = "sacreBLEU's, for BLEU or TER" + (" (default: none)" if valued else "")
        o.add_argument(*flags, help=described, **options)  # type: ignore[arg-type]


def other_metric_notice(args: argparse.Namespace) -> str | None:
    """The stderr line naming the BLEU and TER options given, which chrF ignores as sacreBLEU
    does, or None."""
    given = [
        flags[0]
        for flags, options in OTHER_METRIC_OPTIONS
        if getattr(args, str(options.get("dest", flags[0][2:].replace("-", "_"))))
        not in (None, False)
    ]
    notes = []
    if "--lowercase" in given:
        given.remove("--lowercase")
        notes.append(
            "-lc/--lowercase is sacreBLEU's BLEU option: chrF stays case-sensitive, as in "
            "sacreBLEU (--chrf-lowercase lowercases chrF)"
        )
    if given:
        notes.append(f"{', '.join(given)}: sacreBLEU's BLEU or TER options, no effect on chrF")
    return f"chrf: note: {'; '.join(notes)}" if notes else None


def options_of(args: argparse.Namespace) -> Options:
    """The checks run in this order, each before any input is read: metric, references,
    encoding, then the chrF settings."""
    check_metrics(args.metrics)
    check_references(args)
    check_encoding(args.encoding)
    if (notice := other_metric_notice(args)) is not None:
        report(notice)
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
