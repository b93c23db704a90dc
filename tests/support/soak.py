"""The long run's switch. `CHRF_SOAK=1 python3 -m pytest` (and `scripts/stress_signals`) is the
long run: properties try 1,000 examples, and the signal, fork and out-of-memory tests try every
moment and limit they have. Without it, as in the test command, each tries a spread of them."""

from __future__ import annotations

import os
import random

SOAK = os.environ.get("CHRF_SOAK") == "1"


def moments(every: int, spread: int) -> list[int]:
    """Which of a test's `every` moments (0 to every - 1) this run tries, in order: all of them in
    the long run; else the first, the last and `spread - 2` others drawn anew each run, so that
    each run covers the whole range and the runs add up, as hypothesis's examples do."""
    if SOAK or spread >= every:
        return list(range(every))
    inner = random.sample(range(1, every - 1), spread - 2)
    return [0, *sorted(inner), every - 1]
