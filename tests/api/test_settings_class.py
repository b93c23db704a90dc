"""`Settings` is a plain class (issue 42: a dataclass imported dataclasses, inspect, ast and dis
with the first score) that behaves as the frozen dataclass it was: its signature, defaults,
repr, ``vars()``, equality, hash, immutability, weak references and copies."""

from __future__ import annotations

import copy
import dataclasses
import inspect
import pickle
import weakref
from fractions import Fraction

import pytest

import chrf

FIELDS = (
    "char_order",
    "word_order",
    "beta",
    "lowercase",
    "include_whitespace",
    "averaging",
    "eps_smoothing",
    "count_hyp_without_ref",
)


def test_its_signature_and_defaults_are_the_dataclass_fields() -> None:
    parameters = inspect.signature(chrf.Settings).parameters
    assert tuple(parameters) == FIELDS
    assert {name: getattr(chrf.Settings, name) for name in FIELDS} == {
        name: parameter.default for name, parameter in parameters.items()
    }
    assert chrf.Settings.__match_args__ == FIELDS


def test_repr_and_vars_list_the_fields_in_order() -> None:
    settings = chrf.Settings(word_order=2, beta=Fraction(1, 3))
    assert repr(settings) == (
        "Settings(char_order=6, word_order=2, beta=Fraction(1, 3), lowercase=False, "
        "include_whitespace=False, averaging='precision_recall', eps_smoothing=False, "
        "count_hyp_without_ref=False)"
    )
    assert tuple(vars(settings)) == FIELDS  # the compiled form is not among them
    assert settings.compiled is settings.compiled


def test_it_is_frozen() -> None:
    settings = chrf.Settings()
    with pytest.raises(dataclasses.FrozenInstanceError, match="cannot assign to field 'beta'"):
        settings.beta = 3  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        del settings.char_order  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        settings.compiled = None  # type: ignore[assignment]
    assert settings.beta == 2


def test_equality_hash_copies_and_weak_references() -> None:
    a, b = chrf.Settings(beta=0.5, word_order=2), chrf.Settings(word_order=2, beta=0.5)
    assert a == b
    assert hash(a) == hash(b)
    assert a != chrf.Settings(beta=Fraction(1, 2), word_order=2)  # β's kind counts
    for copied in (copy.copy(a), copy.deepcopy(a), pickle.loads(pickle.dumps(a))):
        assert copied == a
        assert type(copied.beta) is float
    assert a.__replace__(beta=2) == chrf.Settings(word_order=2)
    assert weakref.ref(a)() is a
