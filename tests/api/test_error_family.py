"""The error family: each kind of bad argument raises its class of `chrf.ChrfError` with the
argument, the segment's index and a reason code, keeps its built-in base and its message, and
pickles with its fields."""

from __future__ import annotations

import pickle
import re
from fractions import Fraction
from pathlib import Path
from typing import Any

import pyarrow as pa
import pytest
from hypothesis import given
from hypothesis import strategies as st

import chrf
from chrf import _errors

CLASSES = [
    (chrf.InputError, ValueError),
    (chrf.InputTypeError, TypeError),
    (chrf.SettingsError, ValueError),
    (chrf.SettingsTypeError, TypeError),
]


@pytest.mark.parametrize(("cls", "builtin"), CLASSES)
def test_each_class_keeps_its_builtin_base(cls: type, builtin: type) -> None:
    assert issubclass(cls, chrf.ChrfError)
    assert issubclass(cls, builtin)
    other = TypeError if builtin is ValueError else ValueError
    assert not issubclass(cls, other)  # `except ValueError` catches no more than it did
    assert cls.__module__ == "chrf._errors"
    assert {"ChrfError", cls.__name__} <= set(chrf.__all__)


# (call, class, argument, index, reason, message): one case per kind of raise site, in Rust and
# in Python.
CASES: list[tuple[Any, type, str | None, int | None, str, str]] = [
    (
        lambda: chrf.score(["a", None], ["a", "b"]),
        chrf.InputTypeError,
        "hypotheses",
        1,
        "not_a_string",
        "hypotheses[1] must be str, not NoneType",
    ),
    (
        lambda: chrf.score(["a"], [["a"], ["b"], [3]]),
        chrf.InputTypeError,
        "references",
        0,
        "not_a_string",
        "references[2][0] must be str, not int",
    ),
    (
        lambda: chrf.score(["a", "b"], [["x", "\ud800"], ["y"]], layout="per_hypothesis"),
        chrf.InputError,
        "references",
        0,
        "lone_surrogate",
        "references[0][1] is not valid Unicode text: it contains a lone surrogate",
    ),
    (
        lambda: chrf.score("abc", ["a"]),
        chrf.InputTypeError,
        "hypotheses",
        None,
        "not_a_sequence",
        "hypotheses must be a sequence of str, not str",
    ),
    (
        lambda: chrf.score(["a", "b"], [["a", "b"], {"a", "b"}], layout="per_hypothesis"),
        chrf.InputTypeError,
        "references",
        1,
        "not_a_sequence",
        "references[1] must be a sequence of str, not set (an unordered collection)",
    ),
    (
        lambda: chrf.score([], []),
        chrf.InputError,
        "hypotheses",
        None,
        "empty",
        "hypotheses must not be empty",
    ),
    (
        lambda: chrf.score(["a", "b"], [["a"]]),
        chrf.InputError,
        "references",
        None,
        "length_mismatch",
        "references[0] has 1 segments but hypotheses has 2",
    ),
    (
        lambda: chrf.score(["a", "b"], [["a", None]]),
        chrf.InputError,
        "references",
        1,
        "no_reference",
        "segment 1 has no reference",
    ),
    (
        lambda: chrf.score(["a", "b"], [["a", "b"], ["a", "b"]]),
        chrf.InputError,
        "references",
        None,
        "ambiguous_layout",
        "references is ambiguous",
    ),
    (
        lambda: chrf.score(["a", "b"], pa.array(["a", None])),
        chrf.InputError,
        "references",
        1,
        "null",
        "references[1] is null",
    ),
    (
        lambda: chrf.pairwise_batched([["a"], ["a", "b"]], [["a"], ["a"]]),
        chrf.InputError,
        "hypotheses",
        1,
        "length_mismatch",
        "hypotheses[1] has 2 texts but hypotheses[0] has 1",
    ),
    (
        lambda: chrf.aggregate(["a"], ["a", "b"], weights=[1, 2, 3]),
        chrf.InputError,
        "weights",
        None,
        "length_mismatch",
        "weights has 3 values but there are 2 references",
    ),
    (
        lambda: chrf.aggregate(["a"], ["a", "b"], weights=[1, True]),
        chrf.InputTypeError,
        "weights",
        None,
        "wrong_type",
        "weights[1] must be a number, not bool",
    ),
    (
        lambda: chrf.Statistics(chrf.Settings(), [(1, 1, 2)] * 6, 1),
        chrf.InputError,
        "counts",
        None,
        "inconsistent",
        "counts[0] has 2 matching n-grams",
    ),
    (
        lambda: chrf.score(["a"], ["a"], char_order=0),
        chrf.SettingsError,
        None,
        None,
        "orders_both_zero",
        "char_order and word_order must not both be 0",
    ),
    (
        lambda: chrf.score(["a"], ["a"], beta=-1),
        chrf.SettingsError,
        "beta",
        None,
        "negative",
        "beta must not be negative, not -1",
    ),
    (
        lambda: chrf.score(["a"], ["a"], word_order="2"),
        chrf.SettingsTypeError,
        "word_order",
        None,
        "wrong_type",
        "word_order must be an int, not str",
    ),
    (
        lambda: chrf.score(["a"], ["a"], eps=True),
        chrf.SettingsTypeError,
        "eps",
        None,
        "unknown_option",
        "chrf.score() got an unexpected keyword argument 'eps'; did you mean 'eps_smoothing'?",
    ),
    (
        lambda: chrf.score(["a"], ["a"], layout="rows"),
        chrf.SettingsError,
        "layout",
        None,
        "invalid_choice",
        "layout must be 'streams', 'per_hypothesis' or None, not 'rows'",
    ),
    (
        lambda: chrf.components(["a"], ["a"], eps_smoothing=True),
        chrf.SettingsTypeError,
        "eps_smoothing",
        None,
        "no_exact_form",
        "eps_smoothing has no exact form",
    ),
    (
        lambda: chrf.set_num_threads(0),
        chrf.SettingsError,
        "threads",
        None,
        "out_of_range",
        "threads must be from 1 to",
    ),
]


@pytest.mark.parametrize(("call", "cls", "argument", "index", "reason", "message"), CASES)
def test_each_raise_site_gives_its_class_and_fields(
    call: Any, cls: type, argument: str | None, index: int | None, reason: str, message: str
) -> None:
    with pytest.raises(chrf.ChrfError) as raised:
        call()
    error = raised.value
    assert type(error) is cls
    assert (error.argument, error.index, error.reason) == (argument, index, reason)
    assert str(error).startswith(message)
    builtin = ValueError if issubclass(cls, ValueError) else TypeError
    with pytest.raises(builtin):  # the built-in base catches it, as before the family
        call()


@given(
    segments=st.integers(1, 6),
    data=st.data(),
    bad=st.sampled_from([None, 3, 2.5, b"ab", "a\ud800b"]),
    where=st.sampled_from(["hypotheses", "streams", "per_hypothesis"]),
)
def test_a_bad_text_anywhere_names_its_segment(
    segments: int, data: st.DataObject, bad: object, where: str
) -> None:
    i = data.draw(st.integers(0, segments - 1), label="segment")
    if bad is None and where != "hypotheses":
        bad = 3  # a None reference is sacreBLEU's placeholder, not an error
    hyps: list[Any] = ["a b"] * segments
    refs: list[Any] = ["a c"] * segments
    if where == "hypotheses":
        hyps[i] = bad
        call = lambda: chrf.score(hyps, [refs])  # noqa: E731
    elif where == "streams":
        refs[i] = bad
        call = lambda: chrf.score(hyps, [["a"] * segments, refs], layout="streams")  # noqa: E731
    else:
        rows: list[Any] = [["a", "b"] for _ in range(segments)]
        rows[i] = ["a", bad]
        call = lambda: chrf.score(hyps, rows, layout="per_hypothesis")  # noqa: E731
    with pytest.raises(chrf.ChrfError) as raised:
        call()
    error = raised.value
    expected = chrf.InputError if isinstance(bad, str) else chrf.InputTypeError
    assert type(error) is expected
    assert error.index == i
    assert error.argument == ("hypotheses" if where == "hypotheses" else "references")
    assert error.reason == ("lone_surrogate" if isinstance(bad, str) else "not_a_string")


@pytest.mark.parametrize(("cls", "builtin"), CLASSES)
def test_errors_pickle_with_their_fields(cls: type, builtin: type) -> None:
    error = cls("references[1] is null", argument="references", index=1, reason="null")
    copy = pickle.loads(pickle.dumps(error))
    assert type(copy) is cls
    assert str(copy) == "references[1] is null"
    assert (copy.argument, copy.index, copy.reason) == ("references", 1, "null")


def test_a_raised_error_pickles_with_its_fields() -> None:
    with pytest.raises(chrf.InputTypeError) as raised:
        chrf.components(["a", "b", 3], ["a", "b", "c"], beta=Fraction(1, 2))
    copy = pickle.loads(pickle.dumps(raised.value))
    assert (type(copy), str(copy)) == (chrf.InputTypeError, "hypotheses[2] must be str, not int")
    assert (copy.argument, copy.index, copy.reason) == ("hypotheses", 2, "not_a_string")


def test_fields_default_to_none() -> None:
    error = chrf.ChrfError("bad")
    assert (str(error), error.argument, error.index, error.reason) == ("bad", None, None, None)
    assert _errors.argument_of("weights[2][0]") == "weights"


def test_every_reason_raised_is_documented() -> None:
    root = Path(__file__).resolve().parents[2]
    python = (root / "python" / "chrf").rglob("*.py")
    reasons = {r for path in python for r in re.findall(r'reason="([a-z_]+)"', path.read_text())}
    # errors.rs's own: the reason of each core error, the last of its (kind, argument, reason).
    mapping = (root / "rust" / "chrf-py" / "src" / "errors.rs").read_text()
    reasons |= set(re.findall(r', "([a-z_]+)"\)', mapping))
    # chrf-core's settings rules carry their own reason codes (`SettingsRule::reason`).
    rules = (root / "rust" / "chrf-core" / "src" / "settings.rs").read_text()
    reasons |= set(re.findall(r'=> "([a-z_]+)",', rules))
    assert "orders_both_zero" in reasons  # the patterns find what they look for
    documented = (root / "docs" / "python-api.md").read_text()
    assert sorted(r for r in reasons if f"`{r}`" not in documented) == []
