"""The test command's scripts run every tool that a Python package installs through the
interpreter, as `python3 -m TOOL`, never by its command name: the interpreter's scripts folder need
not be on PATH. On a pyenv Python, a newly installed command is reached through a shim that only
`pyenv rehash` makes, and uv, which installs the test extras, does not run it; in a venv that is not
activated, the commands are outside PATH altogether."""

from __future__ import annotations

import functools
import importlib.metadata
import re
from pathlib import Path

import pytest
from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[2]

#: The bash scripts of the test command, the release's wheel checks and the integration suites.
SCRIPTS = sorted(
    path
    for path in [ROOT / ".ci" / "run", *(ROOT / "scripts").glob("*")]
    if path.read_text().startswith("#!/usr/bin/env bash")
)


def tool_distributions() -> list[str]:
    """What the scripts install: chrf's own requirements with its test and docs extras (from its
    installed metadata), and the build backend, which scripts/build_wheel installs."""
    requirements = [Requirement(text) for text in importlib.metadata.requires("chrf") or ()]
    names = {
        requirement.name
        for requirement in requirements
        for extra in ("test", "docs")
        if requirement.marker is None or requirement.marker.evaluate({"extra": extra})
    }
    return sorted(names | {"maturin"})


@functools.cache
def tool_commands() -> frozenset[str]:
    """The commands of every distribution the scripts install, read once for all the scripts."""
    return frozenset().union(*(commands_of(name) for name in tool_distributions()))


def commands_of(distribution: str) -> set[str]:
    """The commands a distribution installs: its console scripts, and binaries such as ruff's,
    which the wheel puts in the scripts folder itself."""
    try:
        dist = importlib.metadata.distribution(distribution)
    except importlib.metadata.PackageNotFoundError:
        return set()
    entry_points = {ep.name for ep in dist.entry_points if ep.group == "console_scripts"}
    files = [Path(str(file)) for file in dist.files or ()]
    return entry_points | {file.name for file in files if file.parent.name == "bin"}


def bare_calls(script: str, command: str) -> list[str]:
    """The lines of a bash script that run `command` by its name: at the start of a line (after
    variable assignments), or after `|`, `;`, `&&`, `||`, `(` or `$(`."""
    starts = r"(?:^|[|;&(]|\$\()\s*(?:\w+=\S*\s+)*"
    pattern = re.compile(starts + re.escape(command) + r"(?=\s|$|\))")
    lines = [line.split(" #")[0].strip() for line in script.splitlines()]
    return [line for line in lines if not line.startswith("#") and pattern.search(line)]


def test_bare_calls_finds_a_command_by_name_and_not_through_the_interpreter() -> None:
    script = "ruff check python\nx=$(maturin sdist)\nA=1 mypy\n# ruff\npython3 -m ruff format\n"
    assert bare_calls(script, "ruff") == ["ruff check python"]
    assert bare_calls(script, "maturin") == ["x=$(maturin sdist)"]
    assert bare_calls(script, "mypy") == ["A=1 mypy"]


def test_the_tools_installed_here_are_known_by_their_commands() -> None:
    """The check below looks for these names; an empty set would make it pass on nothing. (The
    build backend, maturin, is only installed here where scripts/build_wheel has run.)"""
    assert {"ruff", "mypy", "pytest", "auditwheel", "check-jsonschema"} <= tool_commands()


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda path: str(path.relative_to(ROOT)))
def test_a_script_runs_python_tools_through_the_interpreter(script: Path) -> None:
    text = script.read_text()
    found = {command: bare_calls(text, command) for command in sorted(tool_commands())}
    assert {command: lines for command, lines in found.items() if lines} == {}
