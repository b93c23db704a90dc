"""The `chrf` command started as a test that sends it signals needs it: told when its `main` has
started, so that a signal sent then lands in chrf's own handling, never in the interpreter's
start-up (where a Ctrl-C gets Python's default handling, out of chrf's reach)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

#: The `chrf` console script's code (`from chrf.cli import main; sys.exit(main())`), which
#: tells the test, on the file descriptor it is given, when `main` has started: when it first
#: imports a module of its own (an audit event). Before, the interpreter starts, and imports
#: `chrf` and `chrf.cli` themselves (which import nothing more than `os` and `sys`).
PROGRAM = """
import os, sys

def tell(event, args):
    if event == "import" and args[0] == "chrf.cli.outcome":
        os.write(int(os.environ["READY_FD"]), b".")

sys.addaudithook(tell)
from chrf.cli import main
sys.exit(main())
"""


def start(
    args: list[str], cwd: Path, program: str = PROGRAM, **kwargs: object
) -> subprocess.Popen[bytes]:
    """The program, once its `main` has started."""
    ready, told = os.pipe()
    process = subprocess.Popen(  # type: ignore[call-overload]
        [sys.executable, "-c", program, *args],
        cwd=cwd,
        env={**os.environ, "READY_FD": str(told)},
        pass_fds=(told,),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        **kwargs,
    )
    os.close(told)
    assert os.read(ready, 1) == b"."
    os.close(ready)
    return process  # type: ignore[no-any-return]
