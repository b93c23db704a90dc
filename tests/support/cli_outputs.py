"""The command line's outputs on the bundled examples, recorded once (`python3
tests/support/cli_outputs.py` writes `tests/data/cli_outputs.json`) and compared by
tests/cli/test_cli_outputs.py: a restructured command line prints the same bytes, the same errors
and exits with the same statuses."""

from __future__ import annotations

import contextlib
import io
import json
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RECORDED = ROOT / "tests" / "data" / "cli_outputs.json"

REF, HYP = "examples/ref.txt", "examples/hyp.txt"
#: Every scoring mode and output format, the chrF flags of each kind, and refused arguments.
COMMANDS: list[list[str]] = [
    [REF, "-i", HYP],
    [REF, "-i", HYP, "-f", "text"],
    [REF, "-i", HYP, "-f", "text", "-cw", "2", "-w", "4"],
    [REF, "-i", HYP, "-b", "-w", "6", "--chrf-eps-smoothing"],
    [REF, "-i", HYP, "-f", "text", "-sh", "--chrf-lowercase", "--chrf-whitespace"],
    [REF, "-i", HYP, "--chrf-beta", "1/3", "-cc", "4", "-cw", "1"],
    [REF, "-i", HYP, "--chrf-beta", "0.5", "--averaging", "per_order_f"],
    [REF, "-i", HYP, "-f", "text", "--breakdown"],
    [REF, "-i", HYP, "--breakdown", "-cw", "2"],
    [REF, "-i", HYP, "-sl"],
    [REF, "-i", HYP, "-sl", "-f", "text", "-w", "3"],
    [REF, "-i", HYP, "-sl", "--breakdown"],
    [REF, "-i", HYP, "--confidence", "-cin", "50", "-q"],
    [REF, "-i", HYP, "--confidence", "-cin", "50", "-q", "-f", "text"],
    [REF, "-i", HYP, REF, "-f", "text"],
    [REF, "-i", HYP, REF, "-f", "latex"],
    [REF, "-i", HYP, REF, "--breakdown"],
    [REF, "-i", HYP, REF, "--paired-bs", "-pbsn", "50", "-q"],
    [REF, "-i", HYP, REF, "--paired-ar", "-parn", "50", "-q", "-f", "text"],
    [REF, REF, "-i", HYP],
    [REF, "-i", HYP, "-lc", "-tok", "13a"],
    [REF, "-i", HYP, "-cc", "0", "-cw", "0"],
    [REF, "-i", HYP, "--chrf-beta", "x"],
    [REF, "-i", HYP, "--chrf-beta", "-1"],
    [REF, "-i", HYP, "-cc", "70000"],
    [REF, "-i", HYP, "--averaging", "mean"],
    [REF, "-i", HYP, "-m", "bleu"],
    [REF, "-i", HYP, "--chrf-eps-smoothing", "--averaging", "per_order_f"],
    [REF, "-i", HYP, "--chrf-eps-smoothing", "--breakdown"],
    [REF, "-i", HYP, HYP],
    [REF, "-i", "examples/missing.txt"],
    ["-i", HYP],
    [REF, "-i", HYP, "-e", "nonesuch"],
    [REF, "-i", HYP, "-sl", "--confidence"],
    [REF, "-i", HYP, "--confidence", "-i", HYP, REF],
    ["--help"],
    ["explain", "--help"],
    ["report", "--help"],
    ["components", "--help"],
]


def outcome(args: list[str]) -> dict[str, object]:
    """stdout, stderr and the exit status of `chrf.cli.main(args)`, run in the repository."""
    from chrf.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = main(args)
        except SystemExit as exit:  # argparse's errors
            status = exit.code
    return {
        "args": args,
        "stdout": out.getvalue(),
        "stderr": err.getvalue(),
        "status": status,
        "python": f"{sys.version_info[0]}.{sys.version_info[1]}" if "--help" in args else None,
    }


#: argparse's help depends on the terminal's width and on Python's version: recorded at this
#: width, and compared on the Python that recorded it.
COLUMNS = "100"


def record() -> None:
    os.chdir(ROOT)
    os.environ["COLUMNS"] = COLUMNS
    outcomes = [outcome(args) for args in COMMANDS]
    RECORDED.write_text(json.dumps(outcomes, indent=1, ensure_ascii=False) + "\n", "utf-8")


if __name__ == "__main__":
    record()
    sys.exit(0)
