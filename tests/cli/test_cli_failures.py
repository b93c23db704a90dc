"""Every command against every common mistake: one line on stderr, a non-zero exit status, never
a traceback. Each case runs `chrf.cli.main` in this process (`cli_run`), except those that only
a process shows: a missing optional extra (the console script's code, in a subprocess, with the
extra's modules made unimportable) and a full disk (the interpreter's own flush at exit must not
fail a second time)."""

from __future__ import annotations

import json
import os
import pkgutil
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from cli_run import run_cli

#: The `chrf` console script's code; BLOCKED names modules made unimportable first (as if the
#: optional extra that brings them were not installed).
PROGRAM = """
import os, sys
for name in filter(None, os.environ.get("BLOCKED", "").split(",")):
    sys.modules[name] = None
from chrf.cli import main
sys.exit(main())
"""


@dataclass(frozen=True)
class Case:
    args: list[str]
    status: int
    part: str  # in the error line
    blocked: str = ""
    stdout: str = "pipe"  # or "full": /dev/full


def cases() -> dict[str, Case]:
    score = ["ref.txt", "-i"]
    found: dict[str, Case] = {
        "score: missing file": Case([*score, "missing.txt"], 1, "cannot read missing.txt"),
        "score: missing reference": Case(["missing.txt", "-i", "hyp.txt"], 1, "missing.txt"),
        "score: folder": Case([*score, "folder"], 1, "cannot read folder: Is a directory"),
        "score: folder as reference": Case(["folder", "-i", "hyp.txt"], 1, "cannot read folder"),
        "score: empty files": Case(["empty.txt", "-i", "empty.txt"], 1, "empty.txt is empty"),
        "score: empty system": Case([*score, "empty.txt"], 1, "empty.txt has 0 lines"),
        "score: line counts": Case([*score, "short.txt"], 1, "short.txt has 1 line,"),
        "score: -i forgotten": Case(["ref.txt", "hyp.txt"], 1, "hypotheses go after -i"),
        "score: full output": Case([*score, "hyp.txt"], 1, "No space left", stdout="full"),
        "score: no sacreBLEU for -t": Case(
            ["-t", "wmt22", "-l", "en-de"], 1, "pip install 'chrf[sacrebleu]'", "sacrebleu"
        ),
        "components: missing file": Case(["components", "--input", "missing.json"], 1, "cannot"),
        "components: folder": Case(["components", "--input", "folder"], 1, "cannot read folder"),
        "components: full output": Case(
            ["components", "--input", "request.json"], 1, "No space left", stdout="full"
        ),
        "selftest: a file given": Case(["selftest", "hyp.txt"], 2, "unrecognized arguments"),
        "selftest: full output": Case(["selftest"], 1, "No space left", stdout="full"),
    }
    for command in ("explain", "report"):
        out = ["-o", "page.html"] if command == "report" else []
        found |= {
            f"{command}: missing file": Case(
                [command, "ref.txt", "-i", "missing.txt", *out], 1, "cannot read missing.txt"
            ),
            f"{command}: missing reference": Case(
                [command, "missing.txt", "-i", "hyp.txt", *out], 1, "cannot read missing.txt"
            ),
            f"{command}: folder": Case(
                [command, "ref.txt", "-i", "folder", *out], 1, "cannot read folder"
            ),
            f"{command}: empty files": Case(
                [command, "empty.txt", "-i", "empty.txt", *out], 1, "must not be empty"
            ),
            f"{command}: empty system": Case(
                [command, "ref.txt", "-i", "empty.txt", *out], 1, "empty.txt has 0 lines"
            ),
            f"{command}: line counts": Case(
                [command, "ref.txt", "-i", "short.txt", *out], 1, "short.txt has 1 line,"
            ),
            f"{command}: no system": Case(
                [command, "ref.txt"], 2, "the following arguments are required: --input"
            ),
            f"{command}: no orders": Case(
                [command, "ref.txt", "-i", "hyp.txt", "-cc", "0", *out], 2, "must not both be 0"
            ),
            f"{command}: beta not a number": Case(
                [command, "ref.txt", "-i", "hyp.txt", "--chrf-beta", "nan", *out],
                2,
                "argument --chrf-beta/--beta: must be a finite number",
            ),
            f"{command}: --top too large": Case(
                [command, "ref.txt", "-i", "hyp.txt", "--top", "9" * 30, *out],
                2,
                "argument --top: must be an integer from 1 to",
            ),
        }
    report = ["report", "ref.txt", "-i", "hyp.txt", "-o"]
    return found | {
        "explain: full output": Case(
            ["explain", "ref.txt", "-i", "hyp.txt"], 1, "No space left", stdout="full"
        ),
        "report: output in a missing folder": Case(
            [*report, "nowhere/page.html"], 1, "there is no folder nowhere"
        ),
        "report: output under a file": Case([*report, "hyp.txt/page.html"], 1, "no folder"),
        "report: output is a folder": Case(
            [*report, "folder"], 1, "cannot write folder: it is a folder"
        ),
        # Read-only even for root: /proc takes no new files.
        "report: read-only output": Case([*report, "/proc/chrf-page.html"], 1, "cannot write"),
        "report: full disk": Case([*report, "/dev/full"], 1, "No space left on device"),
        "report: no plotly": Case(
            [*report, "page.html"], 1, "pip install 'chrf[report]'", "plotly"
        ),
    }


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    where = tmp_path_factory.mktemp("mistakes")
    (where / "ref.txt").write_text("the cat sat on the mat\na dog barked\n", "utf-8")
    (where / "hyp.txt").write_text("the cat sat on a mat\nthe dog barked\n", "utf-8")
    (where / "short.txt").write_text("the cat\n", "utf-8")
    (where / "empty.txt").write_text("", "utf-8")
    (where / "folder").mkdir()
    request = {"hypotheses": ["aa"], "references": ["ab"]}
    (where / "request.json").write_text(json.dumps(request), "utf-8")
    return where


def run_program(
    folder: Path, args: list[str], blocked: str = "", stdout: str = "pipe"
) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "BLOCKED": blocked}
    with open("/dev/full", "w") if stdout == "full" else open("/dev/null") as target:
        return subprocess.run(
            [sys.executable, "-c", PROGRAM, *args],
            cwd=folder,
            stdout=target if stdout == "full" else subprocess.PIPE,
            stderr=subprocess.PIPE,
            stdin=subprocess.DEVNULL,
            text=True,
            check=False,
            env=env,
            timeout=120,
        )


@pytest.mark.parametrize("name", list(cases()))
def test_each_mistake_is_one_line(folder: Path, name: str) -> None:
    case = cases()[name]
    if case.blocked or case.stdout == "full":
        done = run_program(folder, case.args, case.blocked, case.stdout)
    else:
        done = run_cli(case.args, folder)
    assert "Traceback" not in done.stderr, done.stderr
    assert done.returncode == case.status, done.stderr
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr
    assert re.match(r"chrf( \w+)?: error: ", lines[0]), lines[0]
    assert case.part in lines[0], lines[0]
    if case.stdout == "pipe":
        assert done.stdout == ""


@pytest.mark.parametrize(
    ("request_text", "message"),
    [
        ("", "not valid JSON"),
        ('{"hypotheses": ["a", "b"], "references": ["a"]}', "same number of segments"),
    ],
)
def test_components_answers_bad_requests_as_its_contract_says(
    folder: Path, request_text: str, message: str
) -> None:
    """`chrf components` answers a bad request with the contract's JSON error on stdout and
    exit status 2 (an empty or mismatched request is the contract's invalid_input)."""
    (folder / "bad.json").write_text(request_text, "utf-8")
    done = run_cli(["components", "--input", "bad.json"], folder)
    assert (done.returncode, done.stderr) == (2, "")
    error = json.loads(done.stdout)["error"]
    assert error["code"] == "invalid_input"
    assert message in error["message"]


def test_no_name_of_the_package_is_also_a_submodule() -> None:
    """Importing a submodule binds its name in the package, replacing a function of that name
    (`chrf.cli.report` once replaced the stderr writer with the report command's module)."""
    import chrf.cli

    names = {info.name for info in pkgutil.iter_modules(chrf.cli.__path__)}
    code = "import chrf.cli; print(*sorted(vars(chrf.cli)))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert not names & set(done.stdout.split())
