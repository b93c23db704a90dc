"""A Ctrl-C at any Python call of the first score, imports included, is a KeyboardInterrupt, and
the next call works. A signal's handler runs between bytecodes, so where a Ctrl-C lands is
chance; here a trace function raises KeyboardInterrupt at the call it is told to, which makes
each moment reproducible. CPython turns an exception raised in some hooks into another one (a
descriptor's ``__set_name__`` into RuntimeError, up to 3.11): chrf's first call must run its
code in none of them."""

from __future__ import annotations

import json
import subprocess
import sys

from soak import SOAK

HANG_BOUND = 120  # seconds: a busy machine may give the program little CPU

# A fresh interpreter that never imports chrf itself: each moment is tried in a forked child,
# whose first call is its process's first. The child reports what its first call raised and what
# its second returned.
PROGRAM = r"""
import importlib.util, json, os, sys

PACKAGE = os.path.dirname(importlib.util.find_spec("chrf").origin)
EVERY = sys.argv[1] == "every"


def first_call():
    import chrf
    return chrf.score(["a b c"], [["a b c"]])


def in_child(run):
    reader, writer = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(reader)
        try:
            report = run()
        except BaseException as error:
            report = {"error": repr(error)}
        os.write(writer, json.dumps(report).encode())
        os._exit(0)
    os.close(writer)
    with os.fdopen(reader, "rb") as pipe:
        report = json.loads(pipe.read())
    os.waitpid(pid, 0)
    return report


def traced(interrupt_at):
    calls = []

    def tracer(frame, event, arg):
        if event == "call" and frame.f_code.co_filename.startswith(PACKAGE):
            calls.append(f"{frame.f_code.co_filename[len(PACKAGE):]}:{frame.f_code.co_name}")
            if len(calls) == interrupt_at:
                raise KeyboardInterrupt
        return None

    def run():
        sys.settrace(tracer)
        try:
            first_call()
            first = "returned"
        except BaseException as error:
            first = f"{type(error).__name__}: {error}"
        finally:
            sys.settrace(None)
        return {"calls": calls, "first": first, "later": first_call()}

    return run


counted = in_child(traced(0))
calls = counted["calls"]
# Each function's first call, unless every call is asked for: the same code met again mostly
# repeats a moment already tried.
points = [
    at for at, call in enumerate(calls, 1) if EVERY or call not in calls[: at - 1]
]
print(json.dumps({
    "counted": counted,
    "tried": [
        (at, calls[at - 1], {**in_child(traced(at)), "calls": None}) for at in points
    ],
}))
"""


def test_a_ctrl_c_at_any_call_of_the_first_score_is_a_keyboard_interrupt() -> None:
    done = subprocess.run(
        [sys.executable, "-c", PROGRAM, "every" if SOAK else "firsts"],
        capture_output=True,
        text=True,
        timeout=HANG_BOUND,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    report = json.loads(done.stdout)
    counted = report["counted"]
    assert counted["first"] == "returned", counted
    assert counted["later"] == 100.0, counted
    # The package's modules, imported by the first call, run code of their own.
    assert any(call.endswith(":<module>") for call in counted["calls"]), counted["calls"]
    assert len(report["tried"]) >= 10, report["tried"]
    for at, call, outcome in report["tried"]:
        assert outcome.get("first") == "KeyboardInterrupt: ", (at, call, outcome)
        assert outcome.get("later") == 100.0, (at, call, outcome)
