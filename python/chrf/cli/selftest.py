"""`chrf selftest`: the worked examples through the compiled path and the reference."""

from __future__ import annotations

from chrf._selftest import SelfTestError, selftest
from chrf.cli.io import report, write_line

__all__ = ["run_selftest"]


def run_selftest() -> int:
    try:
        count = selftest()
    except SelfTestError as error:
        report(f"chrf: error: {error}")
        return 1
    write_line(
        f"selftest: {count} worked examples agree (compiled path, reference, expected values)"
    )
    return 0
