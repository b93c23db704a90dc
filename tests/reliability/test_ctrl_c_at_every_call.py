"""A Ctrl-C at any Python call of a process's first call into chrf, imports included, is a
KeyboardInterrupt (the command line's: exit status 130), and the next call works. A signal's
handler runs between bytecodes, so where a Ctrl-C lands is chance; here a trace function raises
KeyboardInterrupt at the call it is told to, which makes each moment reproducible. CPython turns
an exception raised in some hooks into another one (a descriptor's ``__set_name__`` into
RuntimeError, up to 3.11): chrf's first calls must run their code in none of them."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest

from soak import moments

HANG_BOUND = 120  # seconds, for each child: a busy machine may give one little CPU

# A fresh interpreter that never imports chrf itself; each moment is tried in a forked child,
# whose first call is its process's first. `PROGRAM ENTRY count` runs the entry once, traced,
# and prints its calls and the moments to try (each function's first call: the same code met
# again mostly repeats a moment already tried); `PROGRAM ENTRY 3,17,...` interrupts a child at
# each of those calls and prints what its first call gave and what its second returned.
PROGRAM = r"""
import importlib.util, json, os, select, sys, time

BOUND = float(sys.argv[3])  # a child's: a hang's
PACKAGE = os.path.dirname(importlib.util.find_spec("chrf").origin)


def score():
    import chrf
    return chrf.score(["a b c"], [["a b c"]])


def components():  # the first exact result: fractions.Fraction's first use
    import chrf
    return str(chrf.components(["a b c"], [["a b c"]]).score_fraction)


def pairwise():  # the first array: NumPy's import, made by chrf
    import chrf
    return chrf.pairwise(["a b"], ["a b"]).tolist()


def command_line():
    import contextlib, io
    from chrf.cli import main
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        status = main(["examples/ref.txt", "-i", "examples/hyp.txt", "-f", "text"])
    return [status, out.getvalue()]


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
    received = b""
    deadline = time.monotonic() + BOUND
    with os.fdopen(reader, "rb", buffering=0) as pipe:
        while select.select([pipe], [], [], max(0, deadline - time.monotonic()))[0]:
            block = pipe.read(1 << 16)
            if not block:
                break
            received += block
        else:
            os.kill(pid, 9)
            received = b'{"hung": true}'
    os.waitpid(pid, 0)
    return json.loads(received)


def traced(first_call, interrupt_at):
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
            first = ["returned", first_call()]
        except BaseException as error:
            first = f"{type(error).__name__}: {error}"
        finally:
            sys.settrace(None)
        return {"calls": calls, "first": first, "later": first_call()}

    return run


entry, asked = globals()[sys.argv[1]], sys.argv[2]
if asked == "count":
    counted = in_child(traced(entry, 0))
    calls = counted.get("calls", [])
    firsts = [at for at, call in enumerate(calls, 1) if call not in calls[: at - 1]]
    hooks = [at for at in firsts if calls[at - 1].rsplit(":", 1)[1].startswith("__")]
    print(json.dumps({"counted": counted, "points": firsts, "hooks": hooks}))
else:
    tried = {}
    for at in map(int, asked.split(",")):
        outcome = in_child(traced(entry, at))
        tried[at] = {"at": outcome.pop("calls", [None])[-1], **outcome}
    print(json.dumps(tried))
"""

ENTRIES = {
    "score": 100.0,
    "components": "100",
    "pairwise": [[100.0]],
    "command_line": [
        0,
        "chrF2|nrefs:1|case:mixed|eff:yes|nc:6|nw:0|space:no|version:chrf-0.1.0 = 76.2\n",
    ],
}


def run_program(entry: str, asked: str, children: int) -> Any:
    done = subprocess.run(
        [sys.executable, "-c", PROGRAM, entry, asked, str(HANG_BOUND)],
        capture_output=True,
        text=True,
        timeout=HANG_BOUND * (children + 1),
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout)


def interrupted_as_it_should(entry: str, first: Any) -> bool:
    if first == "KeyboardInterrupt: ":
        return True
    if entry != "command_line":
        return False
    # The command line: interrupted (status 130, with its output not yet written or written
    # whole), or, for a Ctrl-C after its output is written whole, done; never a half line.
    status, output = first[1]
    whole = ENTRIES[entry][1]
    return (status == 130 and output in ("", whole)) or (status == 0 and output == whole)


@pytest.mark.parametrize("entry", sorted(ENTRIES))
def test_a_ctrl_c_at_any_call_of_the_first_call_is_a_keyboard_interrupt(entry: str) -> None:
    report = run_program(entry, "count", 1)
    counted = report["counted"]
    assert counted["first"] == ["returned", ENTRIES[entry]], counted
    assert counted["later"] == ENTRIES[entry], counted
    # The package's modules, imported by the first call, run code of their own.
    assert any(call.endswith(":<module>") for call in counted["calls"]), counted["calls"]
    points = report["points"]
    assert len(points) >= 10, points
    # Every hook CPython calls itself (``__init__``, ``__set_name__``, ``__getattr__``...), where
    # it could turn the interrupt into something else; a spread of the other functions.
    chosen = sorted({*report["hooks"], *(points[at] for at in moments(len(points), 12))})
    tried = run_program(entry, ",".join(map(str, chosen)), len(chosen))
    assert len(tried) == len(chosen), tried
    for at, outcome in tried.items():
        assert interrupted_as_it_should(entry, outcome.get("first")), (at, outcome)
        assert outcome.get("later") == ENTRIES[entry], (at, outcome)
