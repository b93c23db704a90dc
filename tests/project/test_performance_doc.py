"""Every table of figures in docs/performance.md names the benchmark command that produced it and
the commit its figures were recorded at, and that command is one the current benchmarks run: a
comment before the table, ``<!-- produced by `python3 benches/NAME.py ARGS` at COMMIT -->``, one
per command when several made it. A table printed as the bench prints it has the bench's header
row, which must still be in the bench's source; a table the figures were rearranged into (a
pivot, a ratio taken from two rows) says so: ``... at COMMIT, rearranged -->``.
(benches/README.md describes the convention.)"""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PERFORMANCE = ROOT / "docs" / "performance.md"
MARKER = re.compile(
    r"<!-- produced by `(?P<command>[^`]+)` at (?P<commit>[0-9a-f]{7,40})(?P<rearranged>, "
    r"rearranged)? -->"
)


def tables(text: str) -> list[tuple[int, str, list[re.Match[str]]]]:
    """Each table's line number, header row, and the markers between it and the table before."""
    lines = text.splitlines()
    found: list[tuple[int, str, list[re.Match[str]]]] = []
    markers: list[re.Match[str]] = []
    for number, line in enumerate(lines):
        markers += [m for m in [MARKER.search(line)] if m]
        following = lines[number + 1] if number + 1 < len(lines) else ""
        starts = line.startswith("|") and re.fullmatch(r"\|(\s*:?-+:?\s*\|)+", following)
        if starts and not (number and lines[number - 1].startswith("|")):
            found.append((number + 1, line, markers))
            markers = []
    return found


TABLES = tables(PERFORMANCE.read_text(encoding="utf-8"))


def bench_of(command: str) -> Path:
    words = shlex.split(command)
    scripts = [word for word in words if word.startswith("benches/") and word.endswith(".py")]
    assert scripts, f"{command!r} runs no script of benches/"
    return ROOT / scripts[0]


def test_the_document_has_tables() -> None:
    assert len(TABLES) >= 8


@pytest.mark.parametrize(("line", "header", "markers"), TABLES, ids=[str(t[0]) for t in TABLES])
def test_every_table_names_the_bench_that_produced_it(
    line: int, header: str, markers: list[re.Match[str]]
) -> None:
    assert markers, f"docs/performance.md:{line}: no '<!-- produced by ... -->' before the table"
    for marker in markers:
        bench = bench_of(marker["command"])
        assert bench.is_file(), f"docs/performance.md:{line}: {bench} does not exist"
        source = bench.read_text(encoding="utf-8")
        for option in re.findall(r"(?<!\S)--[a-z][a-z-]*", marker["command"]):
            assert f'"{option}"' in source, f"{bench.name} takes no {option}"
    if not any(marker["rearranged"] for marker in markers):
        sources = [bench_of(marker["command"]).read_text(encoding="utf-8") for marker in markers]
        assert any(header in source for source in sources), (
            f"docs/performance.md:{line}: the header {header!r} is not printed by "
            f"{[marker['command'] for marker in markers]} (or mark the table 'rearranged')"
        )


def in_git_checkout() -> bool:
    if shutil.which("git") is None:
        return False
    done = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "--is-inside-work-tree"],
        capture_output=True,
        text=True,
        check=False,
    )
    return done.returncode == 0 and done.stdout.strip() == "true"


@pytest.mark.skipif(not in_git_checkout(), reason="needs the git history of a checkout")
def test_every_commit_named_is_in_the_history() -> None:
    commits = {marker["commit"] for _, _, markers in TABLES for marker in markers}
    for commit in commits:
        done = subprocess.run(
            ["git", "-C", str(ROOT), "cat-file", "-e", f"{commit}^{{commit}}"],
            capture_output=True,
            check=False,
        )
        assert done.returncode == 0, f"docs/performance.md names {commit}, not a commit here"


@pytest.mark.parametrize(
    "text",
    [
        "| a | b |\n|---|---|\n| 1 | 2 |\n",  # no marker
        "<!-- produced by `python3 benches/nothing.py` at 0000000 -->\n| a |\n|---|\n",
        "<!-- produced by `python3 benches/bench_mbr.py --no-such` at 0000000 -->\n| a |\n|---|\n",
        "<!-- produced by `python3 benches/bench_mbr.py` at 0000000 -->\n| no such |\n|---|\n",
    ],
)
def test_the_check_finds_a_table_without_its_bench(text: str) -> None:
    [(line, header, markers)] = tables(text)
    with pytest.raises(AssertionError):
        test_every_table_names_the_bench_that_produced_it(line, header, markers)
