"""The documentation's own checks: a short README for users, no lab notes in what users read or
in code comments, a changelog and a contributing guide, the site's pages, and a docstring on
every public name. (tests/project/test_readme.py runs the code the documents show.)"""

from __future__ import annotations

import ast
import inspect
import io
import re
import shlex
import tokenize
from pathlib import Path

import pytest
import yaml

import chrf

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
USER_DOCUMENTS = [README, *sorted((ROOT / "docs").glob("*.md"))]

# ---------------------------------------------------------------------------------------------
# The README and the user documents


def test_the_readme_is_at_most_300_lines() -> None:
    assert len(README.read_text(encoding="utf-8").splitlines()) <= 300


#: Wording that belongs in a lab notebook (benches/NOTES.md), not in what users read: relative
#: history ("last round"), experiments, and the circumstances of a measurement's day.
HISTORY_WORDING = [
    r"\bthis round\b",
    r"\blast round\b",
    r"\bnext round\b",
    r"\bprevious round\b",
    r"\brounds? ago\b",
    r"\bthe round before\b",
    r"\btried and not kept\b",
    r"\bnot kept\b",
    r"\bwe tried\b",
    r"\bwhen the issue was filed\b",
    r"\bin the issue\b",
    r"\bissue \d+\b",
    r"\bno such service\b",
    r"\bon this machine\b",
    r"\bas against\b",
    r"\bwas \d",
    r"\bused to be\b",
    r"\bno longer\b",
    r"\bbefore the change\b",
    r"\bat the last code commit\b",
]
HISTORY = re.compile("|".join(HISTORY_WORDING), flags=re.IGNORECASE)


@pytest.mark.parametrize("document", USER_DOCUMENTS, ids=lambda p: str(p.relative_to(ROOT)))
def test_user_documents_carry_no_history(document: Path) -> None:
    found = [
        f"{document.name}:{number}: {line.strip()}"
        for number, line in enumerate(document.read_text(encoding="utf-8").splitlines(), 1)
        if HISTORY.search(line)
    ]
    assert not found, "\n".join(found)


@pytest.mark.parametrize(
    "line",
    [
        "0.65 µs; 7,437 instructions a call (7,405 last round; 19.5 µs when the issue was filed)",
        "This round (what was left of en-zh's growth; the core unchanged)",
        "Two rounds ago (long segments; callgrind with rep strings counted)",
        "It cannot run here (no such service on this machine)",
        "(0.05 s and 37 MB, as against 3 s before",
        "Tried and not kept: sorting the windows of long texts by induction",
    ],
)
def test_the_history_check_finds_lab_notes(line: str) -> None:
    assert HISTORY.search(line)


def test_the_two_commands_are_those_ci_runs() -> None:
    readme = README.read_text(encoding="utf-8")
    assert re.findall(r"^scripts/check$", readme, re.M) == ["scripts/check"]
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert ci[-1] == "scripts/check"


def test_the_test_command_builds_the_extension_once_and_tests_that_wheel() -> None:
    check = (ROOT / "scripts" / "check").read_text(encoding="utf-8").splitlines()
    builds = [
        line for line in check if "build_wheel" in line and not line.startswith(("step", "#"))
    ]
    assert builds == ['wheel=$(scripts/build_wheel "$dist" | tail -n 1)']
    assert 'python3 -m uv pip install --quiet --python python3 "$wheel[test,docs]"' in check
    assert not [line for line in check if "pip install -e" in line or "maturin develop" in line]
    pytest = next(i for i, line in enumerate(check) if line.startswith("python3 -m pytest"))
    assert check.index('scripts/check_wheel "$dist"') > pytest


def test_the_test_command_builds_the_site_strictly() -> None:
    check = (ROOT / "scripts" / "check").read_text(encoding="utf-8")
    builds = [
        line for line in check.splitlines() if line.strip().startswith(("mkdocs", "NO_MKDOCS"))
    ]
    assert builds
    assert all("mkdocs build --strict" in line for line in builds)
    assert shlex.split(builds[0])


# ---------------------------------------------------------------------------------------------
# The changelog, the contributing guide, the site


def test_the_changelog_keeps_a_changelog() -> None:
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert text.startswith("# Changelog\n")
    assert "Keep a Changelog" in text
    assert "## [Unreleased]" in text
    releases = re.findall(r"^## \[(\d+\.\d+\.\d+)\]", text, flags=re.MULTILINE)
    assert chrf.__version__ in releases
    assert "### Added" in text
    headings = set(re.findall(r"^### (\w+)", text, flags=re.MULTILINE))
    assert headings <= {"Added", "Changed", "Deprecated", "Removed", "Fixed", "Security"}


def test_contributing_says_how_to_set_up_check_measure_and_find_things() -> None:
    text = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    headings = re.findall(r"^## (.+)$", text, flags=re.MULTILINE)
    for needed in ("Set-up", "The checks", "Benchmarks and how speed is measured", "Layout"):
        assert needed in headings
    for mentioned in ("scripts/check", "callgrind", "benches/NOTES.md", "mkdocs build --strict"):
        assert mentioned in text, mentioned


#: The pages the site must have, at least.
PAGES = [
    "index.md",
    "python-api.md",
    "api.md",
    "command-line.md",
    "integrations.md",
    "rewards.md",
    "mbr.md",
    "explain.md",
    "contract.md",
    "specification.md",
    "performance.md",
    "how-it-works.md",
    "reliability.md",
]


def _nav_pages(nav: object) -> list[str]:
    if isinstance(nav, str):
        return [nav]
    if isinstance(nav, list):
        return [page for item in nav for page in _nav_pages(item)]
    if isinstance(nav, dict):
        return [page for value in nav.values() for page in _nav_pages(value)]
    return []


def test_the_site_has_every_page_in_its_nav() -> None:
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    assert config["theme"]["name"] == "material"
    assert any("mkdocstrings" in plugin for plugin in config["plugins"])
    pages = _nav_pages(config["nav"])
    for page in PAGES:
        assert page in pages, page
        assert (ROOT / "docs" / page).is_file(), page
    assert all((ROOT / "docs" / page).is_file() for page in pages)


def test_the_api_reference_documents_every_public_name() -> None:
    text = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    documented = set(re.findall(r"^::: ([\w.]+)$", text, flags=re.MULTILINE))
    for name in chrf.__all__:
        assert f"chrf.{name}" in documented, name
    for module in PUBLIC_MODULES:
        assert module in documented, module


# ---------------------------------------------------------------------------------------------
# Every public name has a docstring

#: The public modules beside ``chrf`` itself. chrf.torchmetrics needs torch, which the test
#: extra does not install: names are found in the source, as mkdocstrings finds them.
PUBLIC_MODULES = ["chrf.contract", "chrf.tools", "chrf.dask", "chrf.torchmetrics", "chrf.rewards"]


def _module_path(module: str) -> Path:
    return ROOT / "python" / (module.replace(".", "/") + ".py")


def _undocumented(source: str, names: list[str]) -> list[str]:
    """Of ``names`` defined at the top of ``source``, those without a docstring, and the public
    methods of their classes without one. A constant's docstring is the string after it."""
    body = ast.parse(source).body
    missing: list[str] = []
    for name in names:
        for i, node in enumerate(body):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                if node.name != name:
                    continue
                if not ast.get_docstring(node):
                    missing.append(name)
                if isinstance(node, ast.ClassDef):
                    missing += [
                        f"{name}.{item.name}"
                        for item in node.body
                        if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef))
                        and not item.name.startswith("_")
                        and not ast.get_docstring(item)
                    ]
                break
            targets = node.targets if isinstance(node, ast.Assign) else []
            if isinstance(node, ast.AnnAssign):
                targets = [node.target]
            if any(isinstance(t, ast.Name) and t.id == name for t in targets):
                after = body[i + 1] if i + 1 < len(body) else None
                if not (
                    isinstance(after, ast.Expr)
                    and isinstance(after.value, ast.Constant)
                    and isinstance(after.value.value, str)
                ):
                    missing.append(name)
                break
        else:
            missing.append(f"{name} (not defined)")
    return missing


def _exported(module: str) -> list[str]:
    for node in ast.parse(_module_path(module).read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets
        ):
            return list(ast.literal_eval(node.value))
    raise AssertionError(f"{module} has no __all__")


def test_every_name_of_chrf_has_a_docstring() -> None:
    homes: dict[str, list[str]] = {}
    for name in chrf.__all__:
        homes.setdefault(getattr(chrf, name).__module__, []).append(name)
    missing = [
        f"{module}.{name}"
        for module, names in homes.items()
        for name in _undocumented(_module_path(module).read_text(encoding="utf-8"), names)
    ]
    assert not missing


@pytest.mark.parametrize("module", PUBLIC_MODULES)
def test_every_name_of_the_public_modules_has_a_docstring(module: str) -> None:
    source = _module_path(module).read_text(encoding="utf-8")
    assert ast.get_docstring(ast.parse(source))
    assert not _undocumented(source, _exported(module))


def test_the_docstring_check_finds_what_has_none() -> None:
    source = (
        'LIMIT = 3\nNAME = "x"\n"""The name."""\n'
        'def f():\n    """Documented."""\n'
        "def g():\n    pass\n"
        'class C:\n    """Documented."""\n    def m(self):\n        pass\n'
    )
    assert _undocumented(source, ["LIMIT", "NAME", "f", "g", "C", "h"]) == [
        "LIMIT",
        "g",
        "C.m",
        "h (not defined)",
    ]


def test_every_public_name_has_a_docstring_at_run_time() -> None:
    # What help() shows: the docstrings of the objects themselves, not only their source.
    for name in chrf.__all__:
        assert inspect.getdoc(getattr(chrf, name)), name


# ---------------------------------------------------------------------------------------------
# Code comments say why, not what was measured when (the architecture check)

#: Figures of a measurement: instruction counts, timings compared, speed-ups, shares. Constants
#: a design rests on ("a 1 MiB table", "every 50 ms", "2^18 windows", "95% CI") are not.
MEASUREMENT = re.compile(
    "|".join(
        [
            r"\b\d[\d,.]*\s*k?\s*instructions?\b",  # 9 instructions a character, 340 of 9,800 ...
            r"\b\d[\d,.]*\s*(?:µs|us|ns)\b",  # microseconds and nanoseconds are always measured
            r"\b\d[\d,.]*\s*m?s\s+(?:against|instead of|vs\b|->|→|to \d)",  # 20 ms against 25.5
            r"\b(?:took|takes|cost|costs|costing)\b[^.;]{0,40}?\b\d[\d,.]*\s*(?:ms|s)\b",
            r"\b\d[\d.]*\s*x\s+(?:faster|slower|fewer|more|less|the)\b",  # 3x faster, 1.29x the
            r"\b\d[\d.]*\s*%\s+(?:of|fewer|more|less|faster|slower)\b",  # 13% fewer
            r"\b(?:this|last|next|previous) round\b|\brounds? ago\b|\bround before\b",
            r"\btried and not kept\b|\bwhen the issue was filed\b|\bwas \d[\d,.]*\s*\w",
            r"\b(?:was|were|took|cost) (?:a|one) (?:half|quarter|third|tenth|twelfth)\b",
            r"\bhalf the time\b|\bpeaked at \d|\bmeasured (?:with|on) (?:callgrind|one)\b",
        ]
    ),
    flags=re.IGNORECASE,
)

#: Where code lives. benches/ is left out: a benchmark's own text is about measuring.
CODE = [
    *(ROOT / "rust").rglob("*.rs"),
    *(ROOT / "python").rglob("*.py"),
    *(ROOT / "tests").rglob("*.py"),
    *(ROOT / "fuzz" / "src").rglob("*.rs"),
    *(ROOT / "fuzz" / "fuzz_targets").rglob("*.rs"),
    *(ROOT / "fuzz" / "python").rglob("*.py"),
    ROOT / "docs" / "griffe_chrf.py",
]


def _rust_comments(text: str) -> list[tuple[int, str]]:
    comments = []
    for number, line in enumerate(text.splitlines(), 1):
        for match in re.finditer(r"//", line):
            # Outside a string literal: an even number of unescaped quotes before it.
            if len(re.findall(r'(?<!\\)"', line[: match.start()])) % 2 == 0:
                comments.append((number, line[match.start() :]))
                break
    return comments


def _python_comments(text: str) -> list[tuple[int, str]]:
    comments = [
        (token.start[0], token.string)
        for token in tokenize.generate_tokens(io.StringIO(text).readline)
        if token.type == tokenize.COMMENT
    ]
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            doc = ast.get_docstring(node, clean=False)
            if doc:
                start = getattr(node, "lineno", 1)
                comments += [(start, line) for line in doc.splitlines()]
    return comments


def _measurement_logs(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    comments = _rust_comments(text) if path.suffix == ".rs" else _python_comments(text)
    return [
        f"{path.relative_to(ROOT)}:{number}: {comment.strip()}"
        for number, comment in comments
        if MEASUREMENT.search(comment)
    ]


def test_code_comments_carry_no_measurement_log() -> None:
    # A comment says why the code is as it is; what was measured, when, goes to benches/NOTES.md.
    # This file's own patterns and examples are the check, not a log.
    logs = [log for path in CODE if path.name != "test_docs.py" for log in _measurement_logs(path)]
    assert not logs, "\n".join(logs)


@pytest.mark.parametrize(
    "comment",
    [
        "/// segment 250.5 instructions a character against 245.8, a 461k-character German one",
        "/// 13% fewer instructions on a 450,000-character segment, the same on sentences).",
        "/// (callgrind, benches/floor), took 20 ms against 25.5, and from 128,000 characters on",
        "// with shifts known only at run time cost a Chinese segment 9 instructions a character",
        "// The common case, read without a vector (340 of 9,800 instructions).",
        "at import: that cost every ``import chrf`` 2 ms and the modules the first call",
        "# the same): calling a class with a Python __init__ was a quarter of a short pair's call.",
        "(both are Python's float formatting), in about half the time.",
        "# one short pair: 0.65 µs (was 19.5 µs when the issue was filed)",
        "# 3x faster than the round before",
        "/// per 2^digits. Measured with callgrind on one long German segment",
        "# Typically ~40 MB; one loaded CI-profile run peaked at 332 MB (cause not found). The old",
    ],
)
def test_the_measurement_check_finds_logs(comment: str) -> None:
    assert MEASUREMENT.search(comment)


@pytest.mark.parametrize(
    "comment",
    [
        "/// Most bits of the keys the counting pass buckets by: a 1 MiB table, for texts of 2^18",
        "/// and more (whose keys and their scatter target take 4 MiB at least).",
        "// the calling thread checks for signals every 50 ms",
        "# bootstrap the mean and 95% half-interval; p-values against the baseline",
        "// 5 x 32,768 against 500 outgrows it anyway.",
        '/// precision/recall F prefers "b" (5/6 against 1/2); chrF++.py\'s mean F prefers "ba".',
        "//! On x86_64 a step is a handful of SSE2 instructions on one register per array",
        "/// Doubles k from 1 until every suffix has a rank of its own: each round sorts by",
        "# Units and windows of 10M characters need ~ 400 MB",
    ],
)
def test_the_measurement_check_leaves_constants_alone(comment: str) -> None:
    assert not MEASUREMENT.search(comment)


def test_the_comment_readers_find_comments_not_code() -> None:
    rust = 'let url = "http://x"; // why: a reason\nlet a = 1;\n/// doc\n'
    assert _rust_comments(rust) == [(1, "// why: a reason"), (3, "/// doc")]
    python = '"""Module doc."""\nx = "# not a comment"  # a comment\n'
    assert sorted(c for _, c in _python_comments(python)) == ["# a comment", "Module doc."]
