"""Where the benchmarks find the WMT22 test sets (the tests find them the same way).

The full sets: ``$CHRF_DATA/wmt``, else the nearest ``shared/data/wmt`` beside the checkout or one
of its parents. Without them, the first lines of six sets bundled in ``tests/data/wmt``: every
benchmark still runs, but its figures are for a few hundred segments and do not compare with the
README's, which are for the full sets.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BUNDLED = ROOT / "tests" / "data" / "wmt"


def full_wmt() -> Path | None:
    """The full sets' wmt/ folder, or None."""
    if "CHRF_DATA" in os.environ:
        wmt = Path(os.environ["CHRF_DATA"]) / "wmt"
        return wmt if wmt.is_dir() else None
    for parent in ROOT.parents:
        if (parent / "shared" / "data" / "wmt").is_dir():
            return parent / "shared" / "data" / "wmt"
    return None


def wmt_dir(given: str | None = None) -> Path:
    """``given``/wmt (a folder holding wmt/, as a command-line argument names it), else the full
    sets, else the bundled ones (saying so on stderr)."""
    if given is not None:
        return Path(given) / "wmt"
    full = full_wmt()
    if full is not None:
        return full
    print(
        f"no full WMT22 sets (set CHRF_DATA): using the bundled excerpts in {BUNDLED}; "
        "the figures are not comparable with the README's",
        file=sys.stderr,
    )
    return BUNDLED


def full_wmt_or_exit(script: str) -> Path:
    """The full sets, for a benchmark whose figures need whole test sets."""
    full = full_wmt()
    if full is None:
        sys.exit(f"{script} needs the full WMT22 sets: set CHRF_DATA to the folder holding wmt/")
    return full
