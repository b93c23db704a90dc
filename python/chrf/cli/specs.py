"""The command line's argument specs: argparse's parser of every command (the scoring command,
`components`, `selftest`, `explain` and `report`) and the groups of options they share (the chrF
settings; explain's and report's files and paired test). The typed results built from a parsed
Namespace are `chrf.cli.options`; each option's value type is `chrf.cli.values`.
"""

from __future__ import annotations

import argparse
from typing import Any

import chrf.cli.values as values
from chrf import __version__ as VERSION
from chrf._options import AVERAGINGS, OPTIONS
from chrf.cli.io import Parser
from chrf.contract import CONTRACT

__all__ = [
    "OTHER_METRIC_OPTIONS",
    "add_chrf_settings",
    "components_parser",
    "explain_parser",
    "report_parser",
    "score_parser",
    "selftest_parser",
]


def score_parser(hint: str = "") -> argparse.ArgumentParser:
    p = Parser(
        hint,
        prog="chrf",
        description="chrF and chrF++ with sacreBLEU's command line. Other commands: "
        "'chrf components --input FILE' (the JSON contract), 'chrf selftest', 'chrf explain' "
        "(missing and extra n-grams, costliest segments, system differences), 'chrf report' "
        "(the same as one HTML page), 'chrf serve' and 'chrf mcp' (the contract over HTTP and "
        "MCP). Where a file or folder of a command's name exists, the "
        "name is that file, a reference, as in sacreBLEU: 'chrf --command NAME ...' runs the "
        "command, and './NAME' names the file.",
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


def components_parser() -> argparse.ArgumentParser:
    p = Parser(
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
        prog="chrf selftest",
        description="Run the worked examples through the compiled path and the reference.",
    )


def explain_parser() -> argparse.ArgumentParser:
    p = Parser(
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
        type=values.num_refs,
        default=1,
        help="references per line of a single tab-separated reference file (at most "
        f"{values.MAX_NUM_REFS:,})",
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
    """The chrF settings' flags, one per option of the table (`chrf._options`), each stored
    under the option's own name."""
    for option in OPTIONS:
        if option.kind == "bool":
            c.add_argument(*option.flags, action="store_true", dest=option.name, help=option.help)
        else:
            c.add_argument(
                *option.flags,
                default=option.default,
                dest=option.name,
                help=option.help,
                **_VALUE_SPECS[option.kind],
            )


#: How the command line reads each kind of valued option.
_VALUE_SPECS: dict[str, dict[str, Any]] = {
    "order": {"type": values.order},
    "beta": {"type": values.beta},
    "choice": {"choices": AVERAGINGS},
}


def add_statistics(s: argparse._ArgumentGroup) -> None:
    s.add_argument(
        "--confidence", "-ci", action="store_true", help="bootstrap 95%% confidence interval"
    )
    s.add_argument(
        "--confidence-n",
        "-cin",
        type=values.count,
        default=1000,
        help="bootstrap resamples (1 or less: none, as in sacreBLEU)",
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
    s.add_argument(
        "--paired-bs-n",
        "-pbsn",
        type=values.positive_int,
        default=1000,
        help="paired bootstrap resamples",
    )
    s.add_argument(
        "--paired-ar-n",
        "-parn",
        type=values.positive_int,
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
    r.add_argument(
        "--width",
        "-w",
        type=values.width,
        default=1,
        help=f"decimals (at most {values.MAX_WIDTH}, the last a double can have)",
    )
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
#: `chrf.cli.options.other_metric_notice` names those given.
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
    """sacreBLEU's BLEU and TER options: accepted, so that a copied command line keeps working,
    and named in a note, since they change no chrF number (in sacreBLEU either)."""
    for flags, options in OTHER_METRIC_OPTIONS:
        valued = options.get("action") != "store_true"
        described = "sacreBLEU's, for BLEU or TER" + (" (default: none)" if valued else "")
        o.add_argument(*flags, help=described, **options)  # type: ignore[arg-type]
