"""The README and the docs as a user meets them: every Python block runs as written, saved as a
script and run in a fresh interpreter (so that a block that needs ``if __name__ == "__main__":``,
as Dask's spawned workers do, must have it); the values its comments show are the values
returned; and the `$ chrf ...` examples on the bundled data print what they show. Docstrings:
every entry point's help() explains every option it takes."""

from __future__ import annotations

import ast
import inspect
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

import chrf
from chrf._options import BY_NAME

ROOT = Path(__file__).resolve().parents[2]
#: Every page a user reads: the README and the documentation site's sources.
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def _blocks(text: str, language: str) -> list[str]:
    return re.findall(rf"^```{language}\n(.*?)^```", text, flags=re.DOTALL | re.MULTILINE)


def _all_blocks(language: str) -> list[tuple[str, str]]:
    """(where, source) of every block of ``language``, where as "README.md #2"."""
    found = []
    for document in DOCUMENTS:
        text = document.read_text(encoding="utf-8")
        for i, block in enumerate(_blocks(text, language)):
            found.append((f"{document.relative_to(ROOT)} #{i + 1}", block))
    return found


README = (ROOT / "README.md").read_text(encoding="utf-8")
PYTHON_BLOCKS = _all_blocks("python")
SHELL_BLOCKS = _all_blocks("sh")


def _shown_value(comment: str) -> str | None:
    """The value a `# ...` comment shows for the expression before it, if it shows one: a
    number, a list, a quoted string, True/False/None or a repr such as `Fraction(...)`; None
    for prose."""
    if not re.match(r"[-\d'\"\[]|[A-Z]\w*\(|(True|False|None)\b", comment):
        return None
    # What follows the value explains it: "72.17 == CHRF()...", "72.69 (chrF++)", "'72.1': six".
    return re.split(r" ==|\s\(|:\s", comment, maxsplit=1)[0].rstrip(",")


#: The script's first statement: the checker that every commented expression is wrapped in.
CHECKER = "from _shown_values import check as __shown__; "
CHECKER_MODULE = """import sys


def check(value, shown, line):
    if not repr(value).startswith(shown):
        raise AssertionError(f"line {line}: the comment shows {shown}, the value is {value!r}")
    print(f"@@checked {line}", file=sys.stderr)
    return value
"""


def _as_script(source: str) -> tuple[str, int]:
    """The block as a script whose commented expressions (at any depth: a block may guard its
    work with ``if __name__ == "__main__":``) check their values; and how many there are.
    The lines stay where they are, so a traceback names the block's own line."""
    lines = source.splitlines()
    wrapped: list[tuple[int, int, int, int, str]] = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Expr) or node.end_lineno is None:
            continue
        line = lines[node.end_lineno - 1]
        comment = line.split("#", 1)[1].strip() if "#" in line else ""
        shown = _shown_value(comment)
        if shown is not None:
            assert node.end_col_offset is not None
            start = (node.value.lineno, node.value.col_offset)
            wrapped.append((*start, node.end_lineno, node.end_col_offset, shown))
    # From the last expression back, so that the offsets of those before stay valid.
    for first, start, last, end, shown in sorted(wrapped, reverse=True):
        tail = lines[last - 1].encode()
        lines[last - 1] = (tail[:end] + f", {shown!r}, {last})".encode() + tail[end:]).decode()
        head = lines[first - 1].encode()
        lines[first - 1] = (head[:start] + b"__shown__(" + head[start:]).decode()
    return CHECKER + "\n".join(lines) + "\n", len(wrapped)


def _run_as_script(source: str, folder: Path) -> tuple[subprocess.CompletedProcess[str], int]:
    """Saves the block as a script in ``folder`` and runs it there, as a user would."""
    script, expected = _as_script(source)
    (folder / "_shown_values.py").write_text(CHECKER_MODULE, encoding="utf-8")
    (folder / "block.py").write_text(script, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "block.py"], cwd=folder, capture_output=True, text=True, timeout=600
    )
    return done, expected


def test_the_documents_have_the_blocks_these_tests_read() -> None:
    assert len(_blocks(README, "python")) >= 3
    assert sum(1 for where, _ in PYTHON_BLOCKS if where.startswith("docs/")) >= 10
    assert any("$ chrf examples/" in block for _, block in SHELL_BLOCKS)


#: The first line of a block that needs an extra whose frameworks the test extra lacks, and the
#: marker of that extra's own test command (`pytest -m integrations`, `pytest -m mbr_integrations`).
NEEDS_EXTRA = {
    "# needs the integrations extra": pytest.mark.integrations,
    "# needs the mbr extra": pytest.mark.mbr_integrations,
}


def _block_params() -> list[object]:
    params = []
    for where, block in PYTHON_BLOCKS:
        marks = [mark for first, mark in NEEDS_EXTRA.items() if block.startswith(first)]
        params.append(pytest.param(block, marks=marks, id=where))
    return params


@pytest.mark.parametrize("block", _block_params())
def test_every_python_block_runs_as_a_script_and_shows_its_values(
    block: str, tmp_path: Path
) -> None:
    # Blocks read the bundled examples/ by relative path, as from the repository root; what
    # they write goes to a scratch folder.
    (tmp_path / "examples").symlink_to(ROOT / "examples")
    done, expected = _run_as_script(block, tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stderr.count("@@checked ") == expected, done.stderr


def test_values_shown_in_comments_are_checked() -> None:
    # A parser that skipped the values would pass the test above vacuously: the README's tour
    # alone shows more than ten.
    readme = [_as_script(block)[1] for block in _blocks(README, "python")]
    assert sum(readme) >= 10
    assert sum(_as_script(block)[1] for _, block in PYTHON_BLOCKS) >= 40


def test_a_wrong_shown_value_fails(tmp_path: Path) -> None:
    block = (
        'import chrf\nif __name__ == "__main__":\n    chrf.score(["ab"], ["ab"])  # 99.0 (wrong)\n'
    )
    done, expected = _run_as_script(block, tmp_path)
    assert expected == 1
    assert done.returncode != 0
    assert "the comment shows 99.0, the value is 100.0" in done.stderr


def test_a_block_that_fails_as_a_script_fails(tmp_path: Path) -> None:
    # What a REPL forgives and a script does not: a name used before it is defined.
    done, _ = _run_as_script("print(later)\nlater = 1\n", tmp_path)
    assert done.returncode != 0


def _shell_examples() -> list[object]:
    """`$ chrf ...` lines on bundled files, each with the output lines shown under it."""
    examples: list[object] = []
    for where, block in SHELL_BLOCKS:
        for chunk in re.split(r"^(?=\$ )", block, flags=re.MULTILINE):
            command, _, shown = chunk.partition("\n")
            if command.startswith("$ chrf ") and "examples/" in command:
                command = command[2:].split("#")[0].strip()
                examples.append(pytest.param(command, shown.splitlines(), id=where))
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
    readme_shell = _blocks(README, "sh")
    first = readme_shell[[i for i, b in enumerate(readme_shell) if "pip install ." in b][-1]]
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
    for field in inspect.signature(chrf.Settings).parameters.values():
        if documented is chrf.components and field.name == "eps_smoothing":
            assert "``eps_smoothing=" not in doc  # no exact form: not an option there
            continue
        assert f"``{field.name}={field.default!r}``" in doc, field.name
        meaning = " ".join(BY_NAME[field.name].meaning.split()[:4])
        assert meaning in " ".join(doc.split()), field.name
