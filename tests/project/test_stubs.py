"""The compiled module's type stubs (python/chrf/_chrf.pyi) against the module itself: mypy's
stubtest compares every name, signature, and class flag, so a binding change that the stubs do
not follow fails here rather than in a user's type checker."""

from __future__ import annotations

import os
import site
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

import chrf


def test_stubtest_finds_the_stubs_match_the_compiled_module(tmp_path: Path) -> None:
    pytest.importorskip("mypy.stubtest")
    # The stubs beside the module imported here, not another installed copy of the package: from
    # a source tree (an editable install) through MYPYPATH, which must not name an installed
    # package's own site-packages (stubtest refuses it, and finds that copy itself).
    package_root = Path(chrf.__file__).resolve().parent.parent
    paths = sysconfig.get_paths()
    site_dirs = {paths["purelib"], paths["platlib"], *site.getsitepackages()}
    environment = {key: value for key, value in os.environ.items() if key != "MYPYPATH"}
    if package_root not in {Path(directory).resolve() for directory in site_dirs}:
        environment["MYPYPATH"] = str(package_root)
    checked = subprocess.run(
        [sys.executable, "-m", "mypy.stubtest", "chrf._chrf", "--concise"],
        cwd=tmp_path,  # no project configuration: stubtest's own defaults
        env=environment,
        capture_output=True,
        text=True,
        check=False,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
