"""Ctrl-C ends the command line with `chrf: interrupted` and exit status 130 whenever it lands:
during start-up's imports, while a pipe is read, while files are read ahead on a thread, or
after the work is done (then the work's own status). Never a traceback, never "Fatal Python
error". Every test sends its signals at many moments and accepts each of the outcomes that
moment may give, so none depends on timing to pass."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cli_program import HANG_BOUND, PROGRAM, hung, start
from soak import moments

INTERRUPTED = "chrf: interrupted\n"


def outcome(process: subprocess.Popen[bytes], stdin_fd: int | None = None) -> tuple[int, str, str]:
    try:
        out, err = process.communicate(timeout=HANG_BOUND)
    except subprocess.TimeoutExpired:
        raise AssertionError(hung(process)) from None
    finally:
        if stdin_fd is not None:
            os.close(stdin_fd)
    return process.returncode, out.decode(), err.decode()


def assert_clean_interrupt(status: int, out: str, err: str) -> None:
    assert "Traceback" not in err, err
    assert "Fatal Python error" not in err, err
    assert (status, err) == (130, INTERRUPTED), (status, err)
    assert out == "" or out.endswith("\n")  # whole lines only


@pytest.fixture(scope="module")
def small(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("small")
    (folder / "ref.txt").write_text("the cat sat on the mat\na dog barked\n", "utf-8")
    (folder / "hyp.txt").write_text("the cat sat on a mat\nthe dog barked\n", "utf-8")
    return folder


#: Runs in a row that finished before their signal, after which a test's later moments are
#: left out: they come later still, after the end too, and would repeat that outcome.
FINISHED_FIRST = 2


def test_a_ctrl_c_during_start_up_is_one_line_and_130(small: Path) -> None:
    """The signal lands at up to 40 moments (a spread of them outside the long run,
    tests/support/soak.py) from `main`'s start on: during its imports
    (NumPy's, the compiled core's, argparse's), the scoring, the output, the exit. Each run is
    either interrupted (one line, 130) or finished first (the whole output, 0)."""
    args = ["ref.txt", "-i", "hyp.txt", "-cw", "2"]
    expected = subprocess.run(
        [sys.executable, "-m", "chrf", *args], cwd=small, capture_output=True, text=True, check=True
    ).stdout
    seen = []
    for k in moments(40, 14):
        process = start(args, small)
        time.sleep(0.0125 * k * k / 40)  # denser early, where the imports are: 0 to 0.5 s
        process.send_signal(signal.SIGINT)
        status, out, err = outcome(process)
        if status == 0:
            assert (out, err) == (expected, "")
        else:
            assert_clean_interrupt(status, out, err)
        seen.append(status)
        if seen[-FINISHED_FIRST:] == [0] * FINISHED_FIRST:
            break
    assert 130 in seen  # the signal did land while chrf was running


def test_a_ctrl_c_while_a_pipe_is_read_leaves_no_reader_behind(small: Path) -> None:
    """`cat hyp | chrf ref`, then Ctrl-C while the pipe is still open and idle: a thread left
    waiting in standard input's read held its lock at the interpreter's shutdown, which then
    aborted ("Fatal Python error: _enter_buffered_busy", status -6). 30 runs (a spread of them
    outside the long run), each interrupted with a different amount of input read and at a
    different moment."""
    lines = b"".join(b"the cat sat on line %d\n" % i for i in range(60_000))
    for trial in moments(30, 10):
        stdin, feed = os.pipe()
        process = start(["ref.txt", "-cw", "2"], small, stdin=stdin)
        os.close(stdin)
        # Returns once the command has read all but the pipe's buffer: it is reading.
        os.write(feed, lines[: len(lines) * trial // 29])
        time.sleep(0.01 * (trial % 5))
        process.send_signal(signal.SIGINT)
        assert_clean_interrupt(*outcome(process, feed))


@pytest.mark.parametrize("lowercase", [True, False])
def test_a_ctrl_c_while_files_are_read_ahead_leaves_no_reader_behind(
    tmp_path: Path, lowercase: bool
) -> None:
    """Regular files read by Python's reader thread (--chrf-lowercase; without it, the core
    reads them): interrupted at up to 20 moments (a spread outside the long run), each run ends
    cleanly, or finishes first."""
    ref = "".join(f"The Cat sat on line {i} of the mat\n" for i in range(150_000))
    (tmp_path / "ref.txt").write_text(ref, "utf-8")
    (tmp_path / "hyp.txt").write_text(ref.replace("Cat", "dog"), "utf-8")
    args = ["ref.txt", "-i", "hyp.txt", *(["--chrf-lowercase"] if lowercase else [])]
    seen = []
    for k in moments(20, 8):
        process = start(args, tmp_path)
        time.sleep(0.05 * k)
        process.send_signal(signal.SIGINT)
        status, out, err = outcome(process)
        if status == 0:
            assert (json.loads(out)["name"], err) == ("chrF2", "")
        else:
            assert_clean_interrupt(status, out, err)
        seen.append(status)
        if seen[-FINISHED_FIRST:] == [0] * FINISHED_FIRST:
            break
    assert 130 in seen


def test_a_second_ctrl_c_while_the_first_is_reported_changes_nothing(small: Path) -> None:
    for k in moments(10, 5):
        process = start(["ref.txt", "-i", "hyp.txt"], small)
        time.sleep(0.02 * k)
        for _ in range(5):
            if process.poll() is not None:
                break
            process.send_signal(signal.SIGINT)
            time.sleep(0.0005 * k)
        status, out, err = outcome(process)
        if status != 0:
            assert_clean_interrupt(status, out, err)


#: The program, with a real Ctrl-C (a SIGINT) at every other Python call from `main`'s first
#: import of its own on: the first one, and more at each step of handling it, as a finger held
#: on Ctrl-C gives, at the worst moments. A trace function sends them; the interrupt it raises
#: unsets it (CPython unsets a trace function that raises), and a profile function, which never
#: raises, sets it again at the next call.
CTRL_C_AT_EVERY_CALL = (
    """
import signal, sys

def again(frame, event, arg):
    if event == "call":
        signal.raise_signal(signal.SIGINT)

def keep_sending(frame, event, arg):
    if sys.gettrace() is None:
        sys.settrace(again)

def start_sending(event, args):
    if event == "import" and args[0] == "chrf.cli.outcome":
        sys.setprofile(keep_sending)

sys.addaudithook(start_sending)
"""
    + PROGRAM
)


def test_a_ctrl_c_cpython_reports_as_ignored_once_ctrl_c_is_ignored_prints_nothing() -> None:
    # A SIGINT that arrives as `signal.signal` ignores Ctrl-C (after its check of pending
    # signals, before the handler changes) is reported by CPython as the unraisable
    # OSError "Signal 2 ignored due to race condition": one more Ctrl-C, which the program
    # ignores as it ignores the others, without a traceback (found by scripts/stress_signals).
    from types import SimpleNamespace

    from chrf import cli

    passed_on: list[object] = []
    hook = cli._redelivered_interrupts(passed_on.append)
    race = OSError(f"Signal {int(signal.SIGINT)} ignored due to race condition")
    other = OSError("another")
    before = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        for error in (race, other):
            hook(SimpleNamespace(exc_type=OSError, exc_value=error, exc_traceback=None))  # type: ignore[arg-type]
    finally:
        signal.signal(signal.SIGINT, before)
    assert [args.exc_value for args in passed_on] == [other]  # type: ignore[attr-defined]


def test_ctrl_c_at_every_call_once_the_first_has_come_is_still_one_line_and_130(
    small: Path,
) -> None:
    # The second Ctrl-C landed where the first was being handled (in `interrupted`, in the
    # `finally` that ignores the next ones, in `signal.signal`'s Python wrapper), the third in
    # the excepthook that reported the second: "Error in sys.excepthook", a traceback and status
    # -2 (scripts/stress_signals found it, with five SIGINTs sent 0.5 ms apart).
    process = start(["ref.txt", "-i", "hyp.txt"], small, program=CTRL_C_AT_EVERY_CALL)
    assert_clean_interrupt(*outcome(process))


def test_started_with_ctrl_c_ignored_the_command_goes_on_ignoring_it(small: Path) -> None:
    # A shell starts a background job (`chrf ... &` in a script, nohup) with SIGINT ignored, so
    # that Ctrl-C at the terminal leaves it running: the command must not take Ctrl-C back.
    stdin, feed = os.pipe()
    process = start(
        ["ref.txt"],
        small,
        stdin=stdin,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN),
    )
    os.close(stdin)
    process.send_signal(signal.SIGINT)
    time.sleep(0.2)
    with contextlib.suppress(BrokenPipeError):  # ended by the Ctrl-C, it reads no more
        os.write(feed, (small / "hyp.txt").read_bytes())
    os.close(feed)
    status, out, err = outcome(process)
    assert (status, err) == (0, ""), (status, err)
    assert out.startswith("{"), out


#: The program, with a Ctrl-C that CPython drops: raised in a `__del__` as `main` imports the
#: module named by $DROP_AT, where CPython prints "Exception ignored" and goes on. A Ctrl-C landing
#: in importlib's own callbacks (its module locks' weakref callbacks) ends the same way. The
#: switch interval is so long that no other thread runs until the main one gives up the GIL.
DROPPED = """
import faulthandler, os, sys
faulthandler.register(10, all_threads=True)
sys.setswitchinterval(1000)

class Dropped:
    def __del__(self):
        raise KeyboardInterrupt

def tell(event, args):
    if event == "import" and args[0] == "chrf.cli.outcome":
        os.write(int(os.environ["READY_FD"]), b".")
    if event == "import" and args[0] == os.environ["DROP_AT"]:
        Dropped()

sys.addaudithook(tell)
from chrf.cli import main
sys.exit(main())
"""


def test_a_ctrl_c_that_cpython_drops_still_ends_the_command(
    small: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DROP_AT", "chrf.cli.outcome")
    process = start(["ref.txt", "-i", "hyp.txt"], small, program=DROPPED)
    assert_clean_interrupt(*outcome(process))


def test_a_dropped_ctrl_c_ends_a_command_waiting_on_an_idle_pipe(
    small: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Dropped just before `main` waits on standard input (at the import of `_locale`, which
    # wrapping the input in a text reader makes). Redelivered with `_thread.interrupt_main`, which
    # only sets Python's flag, the interrupt never reached a main thread already waiting in the
    # pipe's read: the command hung until the pipe closed (scripts/stress_signals found it).
    # Five runs: the old code hung in most.
    monkeypatch.setenv("DROP_AT", "_locale")
    for _ in range(5):
        stdin, feed = os.pipe()
        process = start(["ref.txt"], small, program=DROPPED, stdin=stdin)
        os.close(stdin)
        assert_clean_interrupt(*outcome(process, feed))


#: The program, with a Ctrl-C whose signal comes just as `main` starts to wait on a pipe (standard
#: input, or a named pipe given as a file): once the main thread calls a read of a pipe and sleeps
#: there, another thread sets Python's interrupt flag as the signal's handler does
#: (`interrupt_main`), and the read goes on waiting. A real Ctrl-C does the same when it arrives
#: after the interpreter last looked at the flag and before the read's system call began.
INTERRUPTED_AS_A_PIPE_IS_READ = """
import _thread, faulthandler, io, os, stat, sys, time
faulthandler.register(10, all_threads=True)
main_thread = _thread.get_native_id()

def asleep():
    with open(f"/proc/self/task/{main_thread}/stat") as status:
        return status.read().rsplit(")", 1)[1].split()[0] == "S"

def interrupt_once_asleep():
    samples = 0
    while samples < 3:
        samples = samples + 1 if asleep() else 0
        time.sleep(0.01)
    _thread.interrupt_main()

def reads_a_pipe(method):
    try:
        return stat.S_ISFIFO(os.fstat(method.__self__.fileno()).st_mode)
    except Exception:
        return False

def watch(frame, event, arg):
    if event == "c_call" and arg.__name__ in ("read", "read1") and reads_a_pipe(arg):
        sys.setprofile(None)
        _thread.start_new_thread(interrupt_once_asleep, ())

def tell(event, args):
    if event == "import" and args[0] == "chrf.cli.outcome":
        os.write(int(os.environ["READY_FD"]), b".")

sys.addaudithook(tell)
from chrf.cli import main
sys.setprofile(watch)
sys.exit(main())
"""


@pytest.mark.parametrize(
    "args",
    [
        ["ref.txt"],
        ["components", "--input", "-"],
        ["ref.txt", "-i", "pipe"],
        ["components", "--input", "pipe"],
        ["ref.txt", "-i", "pipe.gz"],
    ],
    ids=["stdin", "contract-stdin", "named-pipe", "contract-named-pipe", "gzip-named-pipe"],
)
def test_a_ctrl_c_as_a_read_of_an_idle_pipe_begins_ends_the_command(
    small: Path, args: list[str]
) -> None:
    # The read of the idle pipe waited on with the interrupt pending, until the pipe closed
    # (scripts/stress_signals found it: 300 s, then killed). A .gz one too, until gzip read it
    # through chrf's own reader.
    pipes = [small / "pipe", small / "pipe.gz"]
    for pipe in pipes:
        if not pipe.exists():
            os.mkfifo(pipe)
    # Writers that write nothing and stay: idle pipes.
    writers = [os.open(pipe, os.O_RDWR) for pipe in pipes]
    stdin, feed = os.pipe()
    try:
        process = start(args, small, program=INTERRUPTED_AS_A_PIPE_IS_READ, stdin=stdin)
        os.close(stdin)
        assert_clean_interrupt(*outcome(process, feed))
    finally:
        for writer in writers:
            os.close(writer)


#: The program, interrupted at `main`'s first import of its own; it reports on stderr every
#: module imported after that. Each import is a window where a further Ctrl-C lands in Python's
#: import machinery, whose finders run Python code.
IMPORTS_AFTER_A_CTRL_C = """
import os, sys

interrupted = []

def interrupt(event, args):
    if event != "import":
        return
    if interrupted:
        os.write(2, f"imported {args[0]}\\n".encode())
    elif args[0] == "chrf.cli.outcome":
        os.write(int(os.environ["READY_FD"]), b".")
        interrupted.append(True)
        raise KeyboardInterrupt

sys.addaudithook(interrupt)
from chrf.cli import main
sys.exit(main())
"""


def test_handling_a_ctrl_c_imports_nothing(small: Path) -> None:
    # Handling the first Ctrl-C imported `signal` (to ignore the next ones): Ctrl-C pressed again
    # and again landed in that import, then in the hook that reported it, and ended in "Error in
    # sys.excepthook", tracebacks and status -2 (scripts/stress_signals found it).
    process = start(["ref.txt", "-i", "hyp.txt"], small, program=IMPORTS_AFTER_A_CTRL_C)
    assert_clean_interrupt(*outcome(process))
