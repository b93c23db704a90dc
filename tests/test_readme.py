"""The README as a user meets it: every Python block runs as written, the values its comments
show are the values returned, and its `$ chrf ...` examples on the bundled data print what it
shows. Docstrings: every entry point's help() explains every option it takes."""

from __future__ import annotations

import ast
import contextlib
import dataclasses
import inspect
import io
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

import chrf
from chrf._settings import OPTION_MEANINGS

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def _blocks(language: str) -> list[str]:
    return re.findall(rf"^```{language}\n(.*?)^```", README, flags=re.DOTALL | re.MULTILINE)


PYTHON_BLOCKS = _blocks("python")
SHELL_BLOCKS = _blocks("sh")


def _shown_value(comment: str) -> str | None:
    """The value a `# ...` comment shows for the expression before it, if it shows one: a
    number, a quoted string or a repr such as `Fraction(...)`; None for prose."""
    if not re.match(r"[-\d'\"]|[A-Z]\w*\(", comment):
        return None
    # What follows the value explains it: "72.17 == CHRF()...", "72.69 (chrF++)", "'72.1': six".
    return re.split(r" ==|\s\(|:\s", comment, maxsplit=1)[0].rstrip(",")


def _run_block(source: str) -> int:
    """Runs a block statement by statement; checks each commented expression's value."""
    namespace: dict[str, object] = {"__name__": "__readme__"}
    lines = source.splitlines()
    checked = 0
    for statement in ast.parse(source).body:
        code = compile(ast.Module([statement], []), "<README>", "exec")
        if not isinstance(statement, ast.Expr):
            with contextlib.redirect_stdout(io.StringIO()):
                exec(code, namespace)
            continue
        value = eval(compile(ast.Expression(statement.value), "<README>", "eval"), namespace)
        line = lines[(statement.end_lineno or statement.lineno) - 1]
        comment = line.split("#", 1)[1].strip() if "#" in line else ""
        shown = _shown_value(comment)
        if shown is not None:
            assert repr(value).startswith(shown), (line, repr(value))
            checked += 1
    return checked


def test_readme_has_the_blocks_these_tests_read() -> None:
    assert len(PYTHON_BLOCKS) >= 4
    assert any("$ chrf examples/" in block for block in SHELL_BLOCKS)


#: The first line of a block that needs the frameworks of the `integrations` extra: such blocks
#: run with the integrations' own test command (pytest -m integrations).
NEEDS_INTEGRATIONS = "# needs the integrations extra"


def _block_params() -> list[object]:
    return [
        pytest.param(i, marks=pytest.mark.integrations)
        if block.startswith(NEEDS_INTEGRATIONS)
        else i
        for i, block in enumerate(PYTHON_BLOCKS)
    ]


@pytest.mark.parametrize("index", _block_params())
def test_every_python_block_runs_as_written(
    index: int, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # Blocks read the bundled examples/ by relative path, as from the repository root; what
    # they write goes to a scratch folder.
    (tmp_path / "examples").symlink_to(ROOT / "examples")
    monkeypatch.chdir(tmp_path)
    _run_block(PYTHON_BLOCKS[index])


def test_values_shown_in_comments_are_checked(monkeypatch: pytest.MonkeyPatch) -> None:
    # The user's block shows 2 values, the API block 5: a parser that skipped them would pass
    # the test above vacuously.
    monkeypatch.chdir(ROOT)
    runnable = [block for block in PYTHON_BLOCKS if not block.startswith(NEEDS_INTEGRATIONS)]
    assert sum(_run_block(block) for block in runnable) >= 7


def test_a_wrong_shown_value_fails() -> None:
    with pytest.raises(AssertionError):
        _run_block('import chrf\nchrf.score(["ab"], ["ab"])  # 99.0 (wrong)\n')


def _shell_examples() -> list[tuple[str, list[str]]]:
    """`$ chrf ...` lines on bundled files, each with the output lines shown under it."""
    examples: list[tuple[str, list[str]]] = []
    for block in SHELL_BLOCKS:
        for chunk in re.split(r"^(?=\$ )", block, flags=re.MULTILINE):
            command, _, shown = chunk.partition("\n")
            if command.startswith("$ chrf ") and "examples/" in command:
                examples.append((command[2:].split("#")[0].strip(), shown.splitlines()))
    return examples


@pytest.mark.parametrize(("command", "shown"), _shell_examples())
def test_shell_examples_on_bundled_data_print_what_they_show(
    command: str, shown: list[str]
) -> None:
    argv = [sys.executable, "-m", "chrf.cli", *shlex.split(command)[1:]]
    printed = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, check=True).stdout
    for line in shown:
        if line == "...":
            continue
        head, dots, tail = line.partition("...")
        # A line with "..." elides its middle; the rest must be printed as shown.
        assert any(
            p.startswith(head) and p.endswith(tail) if dots else p == line
            for p in printed.splitlines()
        ), (command, line, printed)


def test_the_two_commands_run_the_cli_on_bundled_data() -> None:
    first = SHELL_BLOCKS[[i for i, b in enumerate(SHELL_BLOCKS) if "pip install ." in b][-1]]
    install_line = next(line for line in first.splitlines() if line.startswith("python3 -m pip"))
    commands = [c.strip() for c in install_line.split("&&")[1:]]
    assert commands
    assert all(c.startswith("chrf ") for c in commands)
    for command in commands:
        argv = [sys.executable, "-m", "chrf.cli", *shlex.split(command)[1:]]
        subprocess.run(argv, cwd=ROOT, capture_output=True, check=True)


def test_numpy_is_imported_only_when_a_function_returns_an_array() -> None:
    code = (
        "import sys, chrf\n"
        "chrf.score(['a b'], ['a c'])\n"
        "assert 'numpy' not in sys.modules, 'import chrf or score() imported numpy'\n"
        "chrf.sentence_scores(['a b'], ['a c'])\n"
        "assert 'numpy' in sys.modules\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


ENTRY_POINTS = [
    chrf.score,
    chrf.components,
    chrf.statistics,
    chrf.sentence_scores,
    chrf.pairwise,
    chrf.pairwise_batched,
    chrf.aggregate,
    chrf.aggregate_batched,
    chrf.expected_utility,
    chrf.expected_utility_batched,
    chrf.mbr,
    chrf.mbr_batched,
    chrf.segment_statistics,
    chrf.explain,
    chrf.compare,
]


def test_the_entry_points_listed_are_every_public_function_taking_options() -> None:
    taking = {
        name
        for name in chrf.__all__
        if inspect.isfunction(getattr(chrf, name))
        and "options" in inspect.signature(getattr(chrf, name)).parameters
    }
    assert taking == {f.__name__ for f in ENTRY_POINTS}


@pytest.mark.parametrize("documented", [*ENTRY_POINTS, chrf.Settings], ids=lambda f: f.__name__)
def test_help_explains_every_option_with_its_default(documented: object) -> None:
    doc = inspect.getdoc(documented) or ""
    for field in dataclasses.fields(chrf.Settings):
        if documented is chrf.components and field.name == "eps_smoothing":
            assert "``eps_smoothing=" not in doc  # no exact form: not an option there
            continue
        assert f"``{field.name}={field.default!r}``" in doc, field.name
        meaning = " ".join(OPTION_MEANINGS[field.name].split()[:4])
        assert meaning in " ".join(doc.split()), field.name
