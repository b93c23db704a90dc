"""The first score of a process imports no module it does not need (issue 42): typing,
dataclasses (with inspect, ast and dis), fractions (with decimal), re and enum stay off the
path of ``import chrf`` and the first ``chrf.score``, and load with the functions that use them."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import chrf

#: Modules the first score must not import; each was imported by it before issue 42.
HEAVY = ("typing", "dataclasses", "inspect", "ast", "dis", "fractions", "decimal", "re", "enum")


def first_call_imports(call: str) -> list[str]:
    """The modules of `HEAVY` that ``call`` imports after ``import chrf`` in a fresh
    ``python3 -S`` (no ``site``, which may import typing or re itself)."""
    parent = str(Path(chrf.__file__).resolve().parent.parent)
    probe = (
        f"import sys; sys.path.insert(0, {parent!r}); import chrf; "
        f"before = set(sys.modules); {call}; "
        f"print(' '.join(m for m in {HEAVY!r} if m in set(sys.modules) - before))"
    )
    done = subprocess.run(
        [sys.executable, "-S", "-c", probe], capture_output=True, text=True, check=True
    )
    return done.stdout.split()


def test_the_first_score_imports_none_of_the_heavy_modules() -> None:
    assert first_call_imports("chrf.score(['a b'], ['a c'])") == []
    assert first_call_imports("chrf.score(['a b'], ['a c'], word_order=2, beta=1)") == []
    assert first_call_imports("chrf.Settings(beta=0.5) == chrf.Settings()") == []


def test_the_functions_returning_fractions_still_load_them() -> None:
    assert "fractions" in first_call_imports("chrf.components(['a b'], ['a c'])")
    assert "fractions" in first_call_imports("chrf.Settings(beta=0.5).beta_fraction")
