"""`chrf selftest`: the worked examples through the compiled path and the reference."""

from __future__ import annotations

from collections.abc import Sequence

from chrf._selftest import SelfTestError, selftest
from chrf.cli.io import CliError, write_line
from chrf.cli.options import check_selftest_arguments

__all__ = ["selftest_command"]


def selftest_command(argv: Sequence[str]) -> int:
    """`chrf selftest` takes no arguments, but answers --help."""
    check_selftest_arguments(argv)
    try:
        count = selftest()
    except SelfTestError as error:
        raise CliError(str(error)) from None
    write_line(
        f"selftest: {count} worked examples agree (compiled path, reference, expected values)"
    )
    return 0
