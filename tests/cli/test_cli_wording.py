"""The command line's words say what happened (issue 37): counts with their noun in the right
number, and a hint where a forgotten ``-i`` left standard input empty."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest


def chrf_cli(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "chrf", *args],
        cwd=folder,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        check=False,
        env=dict(os.environ),
        timeout=120,
    )


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    where = tmp_path_factory.mktemp("wording")
    (where / "ref.txt").write_text("the cat sat on the mat\n", "utf-8")
    (where / "hyp.txt").write_text("the cat sat on a mat\n", "utf-8")
    (where / "two.txt").write_text("a\nb\n", "utf-8")
    return where


def test_one_segment_is_singular(folder: Path) -> None:
    done = chrf_cli(folder, "explain", "ref.txt", "-i", "hyp.txt")
    assert done.returncode == 0, done.stderr
    assert " on 1 segment\n" in done.stdout


def test_one_line_is_singular(folder: Path) -> None:
    done = chrf_cli(folder, "two.txt", "-i", "hyp.txt")
    assert done.returncode == 1
    assert "hyp.txt has 1 line, two.txt has 2 lines" in done.stderr


def test_a_forgotten_i_is_named(folder: Path) -> None:
    done = chrf_cli(folder, "ref.txt", "hyp.txt")
    assert done.returncode == 1
    assert done.stderr.startswith("chrf: error: no input on stdin (the 2 files named")
    assert "hypotheses go after -i" in done.stderr


def test_one_reference_file_and_an_empty_stdin_gives_no_hint(folder: Path) -> None:
    done = chrf_cli(folder, "ref.txt")
    assert done.returncode == 1
    assert done.stderr == "chrf: error: no input on stdin\n"
