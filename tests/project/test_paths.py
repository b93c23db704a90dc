"""Every test file or folder that the guides, the docs, the scripts and the tests name exists: the
suite is grouped by area (tests/api, tests/cli, ...), and a moved file must not leave a stale
path behind in a command someone copies."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

#: Where a path under tests/ may be named. CHANGELOG.md records history, and keeps old paths.
NAMING = [
    ROOT / "README.md",
    ROOT / "CONTRIBUTING.md",
    ROOT / "pyproject.toml",
    ROOT / ".ci" / "run",
    *sorted((ROOT / "docs").glob("*.md")),
    *sorted((ROOT / "benches").glob("*.md")),
    *sorted((ROOT / "benches").glob("*.py")),
    *sorted((ROOT / "scripts").iterdir()),
    ROOT / "fuzz" / "README.md",
    *sorted((ROOT / "fuzz" / "python").glob("*.py")),
    *sorted((ROOT / "tests").rglob("*.py")),
    *sorted((ROOT / "tests").rglob("*.md")),
]

#: A path under tests/ or a Rust crate's tests/: a file (globs allowed, as in `test_mbr*.py`) or
#: a folder.
PATH = re.compile(r"(?<![\w/-])(?:rust/[\w-]+/)?tests/[\w*./-]*[\w*/]")


def named_paths(text: str) -> set[str]:
    return {match.rstrip("/.") for match in PATH.findall(text)}


def test_the_pattern_finds_files_folders_and_globs() -> None:
    text = (
        "see `tests/api/test_batch.py`, tests/mbr/test_mbr*.py, tests/support/ and"
        " rust/chrf-core/tests/out_of_memory.rs."
    )
    assert named_paths(text) == {
        "tests/api/test_batch.py",
        "tests/mbr/test_mbr*.py",
        "tests/support",
        "rust/chrf-core/tests/out_of_memory.rs",
    }


def test_every_named_test_path_exists() -> None:
    missing = sorted(
        f"{path.relative_to(ROOT)}: {name}"
        for path in NAMING
        if path.is_file()
        for name in named_paths(path.read_text(encoding="utf-8"))
        if not any(ROOT.glob(name)) and not (ROOT / name).exists()
    )
    assert missing == []
