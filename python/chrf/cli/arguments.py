"""The scoring command's arguments as tables, read by `chrf.cli.specs.score_parser`: each
group's arguments, with their flags, argparse's keywords and help. The chrF settings' flags, and
how each option's value is read (its kind's), come from the option table (`chrf._options`); the
other arguments' value types are `chrf.cli.values`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import chrf.cli.values as values
from chrf import __version__ as VERSION
from chrf._options import OPTIONS

if TYPE_CHECKING:
    from chrf._fields import Option

__all__ = [
    "CHRF_SETTINGS",
    "DEFAULT_ENCODING",
    "DEFAULT_METRICS",
    "OTHER_METRIC_OPTIONS",
    "SCORE_ARGUMENTS",
    "Argument",
    "setting_argument",
]

#: The scoring command's defaults that `chrf.cli.options.check_arguments` knows need no check.
DEFAULT_METRICS = ["chrf"]
DEFAULT_ENCODING = "utf-8"


#: One argument of a command: its flags, argparse's keywords, and whether it is one of its
#: group's mutually exclusive arguments.
Argument = tuple[tuple[str, ...], dict[str, Any], bool]

INPUTS: list[Argument] = [
    (
        ("refs",),
        {
            "nargs": "*",
            "metavar": "REF",
            "help": "reference files, one per stream, .gz read too (default: none, with -t)",
        },
        False,
    ),
    (
        ("--input", "-i"),
        {
            "nargs": "*",
            "metavar": "HYP",
            "help": "system outputs (default: standard input, several systems as tab-separated "
            "fields)",
        },
        False,
    ),
    (
        ("--metrics", "-m"),
        {
            "nargs": "+",
            "default": DEFAULT_METRICS,
            "help": "as in sacreBLEU, but chrF is the only metric here",
        },
        False,
    ),
    (
        ("--num-refs", "-nr"),
        {
            "type": values.num_refs,
            "default": 1,
            "help": "references per line of a single tab-separated reference file (at most "
            f"{values.MAX_NUM_REFS:,})",
        },
        False,
    ),
    (("--encoding", "-e"), {"default": DEFAULT_ENCODING, "help": "input encoding"}, False),
]

TEST_SETS: list[Argument] = [
    (
        ("--test-set", "-t"),
        {
            "help": "references of a sacreBLEU test set (comma-separated: concatenated), read "
            "from sacreBLEU's cache and downloaded there by sacreBLEU when missing (default: "
            "none, reference files given)"
        },
        False,
    ),
    (
        ("--language-pair", "-l"),
        {
            "dest": "langpair",
            "help": "the test set's pair, e.g. en-de (default: none; needed with -t)",
        },
        False,
    ),
    (
        ("--echo",),
        {
            "nargs": "+",
            "metavar": "FIELD",
            "help": "print the test set's fields (src, ref, ..., or all) tab-separated, and quit "
            "(default: none, score)",
        },
        False,
    ),
    (
        ("--list",),
        {
            "action": "store_true",
            "dest": "listing",
            "help": "list the test sets (with -t: its pairs and fields), and quit",
        },
        False,
    ),
    (
        ("--citation", "--cite"),
        {"action": "store_true", "help": "print the BibTeX of the test sets of -t, and quit"},
        False,
    ),
    (
        ("--download",),
        {
            "metavar": "TEST_SET",
            "help": "download a test set (of the pair of -l) into sacreBLEU's cache, and quit "
            "(default: none)",
        },
        False,
    ),
]


def setting_argument(option: Option[Any]) -> Argument:
    """An option's flags, stored under its own name, read as its kind reads them."""
    default = {} if "action" in option.kind.argument else {"default": option.default}
    keywords = {**default, "dest": option.name, "help": option.help, **option.kind.argument}
    return option.flags, keywords, False


#: The chrF settings' flags, one per option of the table (`chrf._options`).
CHRF_SETTINGS: list[Argument] = [setting_argument(option) for option in OPTIONS]

STATISTICS: list[Argument] = [
    (
        ("--confidence", "-ci"),
        {"action": "store_true", "help": "bootstrap 95%% confidence interval"},
        False,
    ),
    (
        ("--confidence-n", "-cin"),
        {
            "type": values.count,
            "default": 1000,
            "help": "bootstrap resamples (1 or less: none, as in sacreBLEU)",
        },
        False,
    ),
    (
        ("--paired-bs", "-pbs"),
        {
            "action": "store_true",
            "help": "paired bootstrap resampling test against the first system",
        },
        True,
    ),
    (
        ("--paired-ar", "-par"),
        {
            "action": "store_true",
            "help": "paired approximate randomization test against the first system",
        },
        True,
    ),
    (
        ("--paired-bs-n", "-pbsn"),
        {"type": values.positive_int, "default": 1000, "help": "paired bootstrap resamples"},
        False,
    ),
    (
        ("--paired-ar-n", "-parn"),
        {
            "type": values.positive_int,
            "default": 10000,
            "help": "approximate randomization trials",
        },
        False,
    ),
    (
        ("--paired-jobs", "-j"),
        {
            "type": int,
            "default": 1,
            "help": "accepted for sacreBLEU compatibility (work runs on CHRF_NUM_THREADS threads)",
        },
        False,
    ),
]

OUTPUT: list[Argument] = [
    (
        ("--format", "-f"),
        {
            "choices": ["json", "text", "latex"],
            "default": "json",
            "help": "output format ($SACREBLEU_FORMAT overrides it, as in sacreBLEU; latex: "
            "tables only)",
        },
        False,
    ),
    (
        ("--width", "-w"),
        {
            "type": values.width,
            "default": 1,
            "help": f"decimals (at most {values.MAX_WIDTH}, the last a double can have)",
        },
        False,
    ),
    (("--score-only", "-b"), {"action": "store_true", "help": "print the score alone"}, False),
    (("--short", "-sh"), {"action": "store_true", "help": "short signature"}, False),
    (
        ("--sentence-level", "-sl"),
        {"action": "store_true", "help": "one score per segment"},
        False,
    ),
    (
        ("--breakdown",),
        {
            "action": "store_true",
            "help": "per-order counts, precision, recall and F, exact and decimal",
        },
        False,
    ),
    (("--quiet", "-q"), {"action": "store_true", "help": "no progress bar"}, False),
    (
        ("--no-color", "-nc"),
        {"action": "store_true", "help": "accepted from sacreBLEU: no colours anyway"},
        False,
    ),
]

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


#: sacreBLEU's BLEU and TER options, accepted so that a copied command line keeps working, and
#: named in a note, since they change no chrF number (in sacreBLEU either).
OTHER_METRICS: list[Argument] = [
    (
        flags,
        {
            "help": "sacreBLEU's, for BLEU or TER"
            + ("" if options.get("action") == "store_true" else " (default: none)"),
            **options,
        },
        False,
    )
    for flags, options in OTHER_METRIC_OPTIONS
]

#: The scoring command's arguments, group by group (None: the parser's own), in --help's order.
SCORE_ARGUMENTS: list[tuple[str | None, list[Argument]]] = [
    (None, INPUTS),
    ("test sets (sacreBLEU's registry and cache, $SACREBLEU)", TEST_SETS),
    ("chrF settings", CHRF_SETTINGS),
    ("statistics (sacreBLEU's seeds: 12345, or $SACREBLEU_SEED)", STATISTICS),
    ("output", OUTPUT),
    ("sacreBLEU's BLEU and TER options: no effect on chrF", OTHER_METRICS),
    (None, [(("--version", "-V"), {"action": "version", "version": f"chrf {VERSION}"}, False)]),
]
