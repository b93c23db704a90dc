"""The `chrf` command started as a test that sends it signals needs it: told when its `main` has
started, so that a signal sent then lands in chrf's own handling, never in the interpreter's
start-up (where a Ctrl-C gets Python's default handling, out of chrf's reach)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

#: How long a run may take to end once signalled, in wall time: a bound that detects a hang,
#: not a speed, so it allows for a machine busy enough to give the run a sliver of a core.
HANG_BOUND = 300

#: The `chrf` console script's code (`from chrf.cli import main; sys.exit(main())`), which
#: tells the test, on the file descriptor it is given, when `main` has started: when it first
#: imports a module of its own (an audit event). Before, the interpreter starts, and imports
#: `chrf` and `chrf.cli` themselves (which import nothing more than `os` and `sys`).
PROGRAM = """
import faulthandler, os, sys

faulthandler.register(10, all_threads=True)  # SIGUSR1: the stacks of a run that hangs (`hung`)

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


def _stat(pid: int) -> tuple[str, float]:
    """A process's scheduler state and the CPU time it and all its threads have used so far
    (once it has ended, and before it is reaped, its whole CPU time), from /proc."""
    with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return fields[0], (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    return _stat(pid)[1]


def cpu_at_the_end(process: subprocess.Popen[bytes]) -> float:
    """Waits for the process to end, without reaping it, and gives its whole CPU time: a bound
    on how long it took that a busy machine does not change (its wall time, a busy machine
    stretches without limit). Its output must fit in the pipes, which are read after."""
    deadline = time.monotonic() + HANG_BOUND
    while os.waitid(os.P_PID, process.pid, os.WEXITED | os.WNOWAIT | os.WNOHANG) is None:
        if time.monotonic() > deadline:
            raise AssertionError(hung(process))
        time.sleep(0.01)
    return cpu_seconds(process.pid)


def hung(process: subprocess.Popen[bytes]) -> str:
    """What a run that did not end by HANG_BOUND was doing: its scheduler state (S: waiting, R:
    runnable but starved of CPU) and CPU time, then its Python stacks (faulthandler's, printed
    on SIGUSR1 by PROGRAM), read after it is killed."""
    state, cpu = _stat(process.pid)
    process.send_signal(10)
    time.sleep(2)
    process.kill()
    _, err = process.communicate()
    return (
        f"no end {HANG_BOUND} s after the signal: state {state}, {cpu:.2f} s of CPU\n"
        + err.decode(errors="replace")[-6000:]
    )
