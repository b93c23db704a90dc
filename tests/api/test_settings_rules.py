"""Each rule of chrf-core's settings (`SettingsRule`, rust/chrf-core/src/settings.rs, with its
message, reason and argument) reaches Python as its error class with its `argument` and
`reason`, mapped alike for every rule in rust/chrf-py/src/errors.rs, and its message
unchanged."""

from __future__ import annotations

import math
from types import SimpleNamespace
from typing import Any

import pytest

import chrf
from chrf import _core
from chrf._options import FIELDS


def config_of(**changed: Any) -> _core.Config:
    """The binding's Config of the default settings with ``changed`` attributes, bypassing the
    Python checks so that the core's own are reached."""
    settings = chrf.Settings()
    names = (*FIELDS, "factor", "one_plus_factor", "beta_ratio", "beta_is_fraction")
    attributes = {name: getattr(settings, name) for name in names}
    return _core.Config(SimpleNamespace(**{**attributes, **changed}))


RULES = [
    (
        lambda: config_of(beta_ratio=(-1, 2)),
        chrf.SettingsError,
        "beta",
        "negative",
        "beta must not be negative",
    ),
    (
        lambda: config_of(beta_ratio=(1, 0)),
        chrf.SettingsError,
        "beta",
        "out_of_range",
        "beta's denominator must not be 0",
    ),
    (
        lambda: config_of(char_order=0, word_order=0),
        chrf.SettingsError,
        None,
        "orders_both_zero",
        "char_order and word_order must not both be 0",
    ),
    (
        lambda: config_of(char_order=2**64 - 1, word_order=1),
        chrf.SettingsError,
        None,
        "out_of_range",
        "char_order + word_order must fit in a usize",
    ),
    (
        lambda: config_of(factor=math.nan),
        chrf.SettingsError,
        "beta",
        "out_of_range",
        "beta ** 2 must be a float of at least 0 (or +inf) for the float score",
    ),
    (
        lambda: config_of(one_plus_factor=0.5),
        chrf.SettingsError,
        "beta",
        "out_of_range",
        "1 + beta ** 2 must be at least 1 and at least beta ** 2",
    ),
    (
        lambda: _core.sentence_scores(
            config_of(factor=math.inf, one_plus_factor=math.inf), ["a"], ["a"], None
        ),
        chrf.SettingsError,
        "beta",
        "out_of_range",
        "beta ** 2 is too large for a float score (exact components take any beta)",
    ),
    (
        lambda: chrf.aggregate(["a"], ["a", "b"], weights=[2**64, 1], averaging="per_order_f"),
        chrf.InputError,
        "weights",
        "out_of_range",
        "per_order_f averaging takes reference aggregation's weights only as integers below "
        "2**64 in the same proportions",
    ),
    (
        lambda: _core.components_of(config_of(eps_smoothing=True), [(1, 1, 1)] * 6),
        chrf.SettingsError,
        "eps_smoothing",
        "no_exact_form",
        "eps_smoothing is a float-only mode with no exact fraction; use the float score",
    ),
    (
        lambda: _core.smallest_integers([(0, 1), (0, 3)]),
        chrf.InputError,
        "weights",
        "all_zero",
        "weights must not all be zero",
    ),
]


@pytest.mark.parametrize(("call", "cls", "argument", "reason", "message"), RULES)
def test_each_core_rule_gives_its_class_argument_and_reason(
    call: Any, cls: type, argument: str | None, reason: str, message: str
) -> None:
    with pytest.raises(chrf.ChrfError) as raised:
        call()
    error = raised.value
    assert type(error) is cls
    assert (error.argument, error.index, error.reason) == (argument, None, reason)
    assert str(error) == message


def test_the_public_orders_rule_is_the_cores() -> None:
    with pytest.raises(chrf.SettingsError) as raised:
        chrf.Settings(char_order=0, word_order=0)
    assert (raised.value.argument, raised.value.reason) == (None, "orders_both_zero")
    assert str(raised.value) == "char_order and word_order must not both be 0"
