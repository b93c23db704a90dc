"""Worked examples shipped as data, re-run through the compiled path and the reference.

``chrf.selftest()`` and ``chrf selftest`` run them; the test suite does too. They do not run at
import, which would cost every ``import chrf`` their time and modules the first call does not
need.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from typing import Any

__all__ = ["Example", "SelfTestError", "examples", "selftest"]


EXAMPLES_FILE = os.path.join(os.path.dirname(__file__), "worked_examples.json")


class SelfTestError(RuntimeError):
    """A worked example came out different from its expected value: the arithmetic regressed."""


@dataclass(frozen=True)
class Example:
    name: str
    call: dict[str, Any]
    expected_components: dict[str, Any]
    expected_cross_checked: bool
    expected_score: float


def examples() -> list[Example]:
    """The worked examples of ``worked_examples.json`` (spec §1 and §6, and more corners)."""
    with open(EXAMPLES_FILE, encoding="utf-8") as handle:
        text = handle.read()
    return [
        Example(
            name=item["name"],
            call=item["call"],
            expected_components=item["expected"]["components"],
            expected_cross_checked=item["expected"]["cross_checked"],
            expected_score=item["expected"]["score"],
        )
        for item in json.loads(text)["examples"]
    ]


def _mismatches(example: Example, path: str, module: Any) -> list[str]:
    got = module.components(**example.call)
    problems = []
    if got.to_dict() != example.expected_components:
        problems.append(f"{example.name}: {path} components differ: {got.to_dict()}")
    if got.cross_checked != example.expected_cross_checked:
        problems.append(f"{example.name}: {path} cross_checked is {got.cross_checked}")
    value = module.score(**example.call)
    if value != example.expected_score:
        problems.append(f"{example.name}: {path} score {value!r} != {example.expected_score!r}")
    return problems


def selftest(*, reference: bool = True) -> int:
    """Runs every worked example through the compiled path (and the reference); returns the
    number of examples checked, or raises SelfTestError listing every mismatch."""
    from chrf import _api

    paths: list[tuple[str, Any]] = [("compiled", _api)]
    if reference:
        from chrf import _reference

        paths.append(("reference", _reference))
    cases = examples()
    problems = [p for ex in cases for name, module in paths for p in _mismatches(ex, name, module)]
    if problems:
        raise SelfTestError("worked examples failed:\n" + "\n".join(problems))
    return len(cases)
