"""sacreBLEU's options of its BLEU and TER metrics: accepted, so that a copied command line
keeps working, and named in a note, since they change no chrF number (in sacreBLEU either)."""

from __future__ import annotations

import argparse

__all__ = ["add_other_metrics", "other_metric_notice"]

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
