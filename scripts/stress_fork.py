"""Fork while other threads score: every child must finish its own scoring call.

    python3 scripts/stress_fork.py [FORKS] [--timeout SECONDS]

Two threads loop `chrf.score` and `chrf.pairwise` while the main thread forks FORKS times; each
child scores once more and exits. A child still running after the timeout is a hang (a lock
copied held into the child): it is killed and counted (with STRESS_FORK_GDB=1, after gdb prints
its threads' stacks). Prints one JSON line; exits 1 if any child hung or failed.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import threading
import time

import chrf

HYPS = [f"sample {i} of the pool, {'abc' * (i % 7)}" for i in range(64)]


def _busy_once() -> None:
    chrf.score(HYPS, HYPS[::-1])
    chrf.pairwise(HYPS[:16], HYPS[:16], word_order=2)


def _busy(stop: threading.Event) -> None:
    while not stop.is_set():
        _busy_once()


def _child() -> None:
    try:
        ok = chrf.score(HYPS, HYPS) == 100.0 and chrf.pairwise(HYPS[:4], HYPS[:4]).shape == (4, 4)
    except BaseException:
        os._exit(3)
    os._exit(0 if ok else 2)


def _reap(pid: int, deadline: float) -> str:
    while time.monotonic() < deadline:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return "ok" if os.waitstatus_to_exitcode(status) == 0 else "failed"
        time.sleep(0.001)
    if os.environ.get("STRESS_FORK_GDB"):
        import subprocess

        subprocess.run(["gdb", "-p", str(pid), "-batch", "-ex", "thread apply all bt"], check=False)
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    return "hung"


def stress(forks: int, timeout: float) -> dict[str, int]:
    # Score once before any thread starts: CPython's per-module import locks are not reset in a
    # forked child, so a fork during another thread's first `import numpy` can hang in any library.
    _busy_once()
    stop = threading.Event()
    workers = [threading.Thread(target=_busy, args=(stop,)) for _ in range(2)]
    for worker in workers:
        worker.start()
    outcomes = {"ok": 0, "failed": 0, "hung": 0}
    try:
        for _ in range(forks):
            pid = os.fork()
            if pid == 0:
                _child()
            outcomes[_reap(pid, time.monotonic() + timeout)] += 1
    finally:
        stop.set()
        for worker in workers:
            worker.join()
    return outcomes


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("forks", type=int, nargs="?", default=3000)
    parser.add_argument("--timeout", type=float, default=10.0)
    args = parser.parse_args()
    started = time.monotonic()
    outcomes = stress(args.forks, args.timeout)
    print(json.dumps({**outcomes, "seconds": round(time.monotonic() - started, 1)}))
    return 0 if outcomes["ok"] == args.forks else 1


if __name__ == "__main__":
    raise SystemExit(main())
