"""Worked examples: shipped as data, agreeing through every path, failing loudly when wrong."""

from __future__ import annotations

import dataclasses
import subprocess
import sys

import pytest

import chrf
from chrf import _selftest


def test_selftest_runs_every_example_through_both_paths() -> None:
    assert chrf.selftest() == len(_selftest.examples()) >= 10


def test_the_contract_example_is_among_the_worked_examples() -> None:
    first = _selftest.examples()[0]
    assert first.call["hypotheses"] == ["aa"]
    assert first.call["references"] == ["ab"]
    assert first.expected_components["score"] == "25.000000"
    assert first.expected_components["score_fraction"] == "25/1"
    assert first.expected_score == 25.0


def test_a_wrong_expected_value_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    good = _selftest.examples()

    def corrupted() -> list[_selftest.Example]:
        first = good[0]
        bad = {**first.expected_components, "score": "25.000001"}
        return [dataclasses.replace(first, expected_components=bad), *good[1:]]

    monkeypatch.setattr(_selftest, "examples", corrupted)
    with pytest.raises(chrf.SelfTestError, match="compiled components differ"):
        chrf.selftest()


def test_selftest_from_the_command_line() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "chrf.cli", "selftest"], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert "worked examples agree" in done.stdout
