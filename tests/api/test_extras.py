"""The optional pieces explain themselves (issue 37): an integration module imported without its
framework names the extra to install, and every extra the documents name exists."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

#: Each integration module, the first framework it imports, and the extra that brings it (the
#: first, so that the test means the same with the frameworks installed or not).
MODULES = [
    ("chrf.dask", "dask", "integrations"),
    ("chrf.torchmetrics", "torch", "integrations"),
    ("chrf.mbrs", "torch", "mbr"),
    ("chrf.zurich_mbr", "mbr", "mbr"),
]

# Blocks one package the way a missing one fails (`None` in sys.modules makes its import raise
# ModuleNotFoundError), then imports the module and prints what it raised.
PROGRAM = """
import json, sys
module, blocked = sys.argv[1:]
for name in list(sys.modules):
    if name == blocked or name.startswith(blocked + "."):
        del sys.modules[name]
sys.modules[blocked] = None
try:
    __import__(module)
except ImportError as error:
    print(json.dumps([type(error).__name__, str(error), error.name]))
else:
    print(json.dumps(None))
"""


@pytest.mark.parametrize(("module", "blocked", "extra"), MODULES)
def test_an_integration_without_its_framework_names_its_extra(
    module: str, blocked: str, extra: str
) -> None:
    done = subprocess.run(
        [sys.executable, "-c", PROGRAM, module, blocked],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    raised = json.loads(done.stdout)
    assert raised is not None, f"{module} imported with {blocked} missing"
    kind, message, name = raised
    assert kind == "ModuleNotFoundError"
    assert f"pip install 'chrf[{extra}]'" in message
    assert module in message
    assert blocked in message
    assert name == blocked


def test_the_evaluate_metric_ships_in_the_package() -> None:
    """``evaluate.load(chrf.evaluate_module())`` needs the metric's folder with its script named
    after it (evaluate's rule for a local metric); tests/api/test_integrations.py loads it."""
    import chrf

    folder = Path(chrf.evaluate_module())
    assert folder.is_dir()
    assert folder.parent == Path(chrf.__file__).parent
    script = folder / f"{folder.name}.py"
    source = script.read_text("utf-8")
    assert "chrf.compute(predictions, references" in source
    compile(source, str(script), "exec")


def extras() -> set[str]:
    """The extras pyproject.toml declares: the keys of its optional-dependencies table (read
    by hand: tomllib is Python 3.11's, and the tests run on 3.10 too)."""
    text = (ROOT / "pyproject.toml").read_text("utf-8")
    table = text.split("[project.optional-dependencies]\n", 1)[1].split("\n[", 1)[0]
    return set(re.findall(r"^([a-z][a-z0-9_-]*) = \[", table, re.MULTILINE))


def named_extras(text: str) -> set[str]:
    """The extras an install line names: ``chrf[a]``, ``'.[a,b]'``, ``-e '.[a]'``."""
    return {
        name.strip()
        for group in re.findall(r"(?:\bchrf|\.)\[([a-z_,\- ]+)\]", text)
        for name in group.split(",")
    }


def test_every_extra_the_documents_name_exists() -> None:
    texts = [ROOT / "README.md", ROOT / "CONTRIBUTING.md", *(ROOT / "docs").glob("*.md")]
    texts += sorted((ROOT / "python" / "chrf").rglob("*.py"))
    named = {
        path.relative_to(ROOT).as_posix(): named_extras(path.read_text("utf-8")) for path in texts
    }
    assert {path: names - extras() for path, names in named.items() if names - extras()} == {}
    assert "integrations" in named["docs/integrations.md"]  # the pattern finds them


def test_the_extra_finder_finds_each_form() -> None:
    text = "pip install 'chrf[mbr]' and -e '.[test,docs]' or chrf[ arrow ]; list[str] no"
    assert named_extras(text) == {"mbr", "test", "docs", "arrow"}


def test_the_home_page_lists_every_users_extra() -> None:
    table = (ROOT / "docs" / "index.md").read_text("utf-8")
    listed = set(re.findall(r"^\| `chrf\[(\w+)\]`", table, re.MULTILINE))
    assert listed == extras() - {"test", "bench"}


# Loads the package as mkdocstrings does, with the site's extension, while ``import chrf`` fails
# (as without the compiled extension), and prints the two docstrings the extension completes.
GRIFFE_PROGRAM = """
import json, sys
sys.modules["chrf"] = None
import griffe
sys.path.insert(0, "docs")
from griffe_chrf import ChrfDocstrings
extensions = griffe.Extensions(ChrfDocstrings())
package = griffe.load("chrf", search_paths=["python"], extensions=extensions)
print(json.dumps([package[p].docstring.value for p in ("_settings.Settings", "_api.score")]))
"""


def test_the_api_reference_needs_no_compiled_extension() -> None:
    pytest.importorskip("griffe")
    done = subprocess.run(
        [sys.executable, "-c", GRIFFE_PROGRAM],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    settings, score = json.loads(done.stdout)
    from chrf._settings import Settings  # the paragraph is the one help() shows

    assert "Keyword options (sacreBLEU's defaults):" in settings
    paragraph = (Settings.__doc__ or "").split("Keyword options (sacreBLEU's defaults):")[1]
    assert [line.strip() for line in paragraph.splitlines() if line.startswith("    ``")] == [
        line.strip()
        for line in settings.split("Keyword options")[1].splitlines()
        if line.startswith("``")
    ]
    assert "Keyword options (sacreBLEU's defaults):" not in score
    assert "those of [`chrf.Settings`][chrf.Settings]" in score


def test_the_docs_only_install_line_is_the_docs_extra() -> None:
    contributing = (ROOT / "CONTRIBUTING.md").read_text("utf-8")
    line = next(x for x in contributing.splitlines() if "'mkdocs>=" in x)
    pyproject = (ROOT / "pyproject.toml").read_text("utf-8")
    docs = pyproject.split("\ndocs = [\n", 1)[1].split("]\n", 1)[0]
    assert re.findall(r"'([^']+)'", line) == re.findall(r'"([^"]+)"', docs)
