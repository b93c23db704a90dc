"""Bad arguments of explain, compare and their results, of unordered collections of segments, of
NumPy bools as options and of the JSON contract's text: a TypeError or ValueError naming the
argument, never another library's error, a silent default or items silently dropped."""

from __future__ import annotations

import contextlib
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import chrf
from chrf import contract
from fuzz_objects import Boom, anything, fresh

HYPS = ["the cat sat", "a dog ran", "xyz", "the mat"]
REFS = ["the cat is here", "the dog ran home", "xy", "mat the"]
OTHER = ["cat on the mat", "a dog ran home", "xy", "the mat"]


class BadRepr:
    def __repr__(self) -> str:
        raise RuntimeError("repr escaped")


HUGE = 10**5000  # beyond Python's int-to-str digit limit


@pytest.mark.parametrize(
    ("arguments", "error", "message"),
    [
        ({"top": "x"}, TypeError, "top must be an int, not str"),
        ({"top": 1.5}, TypeError, "top must be an int, not float"),
        ({"top": True}, TypeError, "top must be an int, not bool"),
        ({"top": -1}, ValueError, "top must not be negative, not -1"),
        ({"top": -HUGE}, ValueError, "top must not be negative, not a negative int of"),
        ({"trials": -5}, ValueError, "trials must be at least 1, not -5"),
        ({"trials": 0}, ValueError, "trials must be at least 1, not 0"),
        ({"trials": 1.5}, TypeError, "trials must be an int or None, not float"),
        ({"trials": "x"}, TypeError, "trials must be an int or None, not str"),
        ({"trials": HUGE}, ValueError, "trials must be at most"),
        ({"test": BadRepr()}, ValueError, "test must be 'bs', 'ar' or None, not a BadRepr"),
        ({"test": "x" * 10_000}, ValueError, r"not 'xxxx.*\.\.\.$"),
        ({"systems": {1: HYPS, 2: OTHER}}, TypeError, "system names must be str, not int"),
    ],
)
def test_bad_compare_arguments_are_named(
    arguments: dict[str, Any], error: type, message: str
) -> None:
    call: dict[str, Any] = {"systems": [HYPS, OTHER], "references": REFS, **arguments}
    with pytest.raises(error, match=message):
        chrf.compare(**call)


@pytest.mark.parametrize(
    ("top", "error", "message"),
    [
        ("x", TypeError, "top must be an int or None, not str"),
        (-1, ValueError, "top must not be negative, not -1"),
        (BadRepr(), TypeError, "top must be an int or None, not BadRepr"),
        pytest.param(
            -HUGE,
            ValueError,
            "top must not be negative, not a negative int of 16610 bits",
            id="huge",
        ),
    ],
)
def test_bad_explain_top_is_named(top: Any, error: type, message: str) -> None:
    with pytest.raises(error, match=message):
        chrf.explain(HYPS, REFS, top=top)


def test_huge_counts_mean_all_of_them() -> None:
    everything = chrf.explain(HYPS, REFS)
    for top in (10**30, HUGE, np.int64(2**62)):
        e = chrf.explain(HYPS, REFS, top=top)
        assert e.top == (top if top < 2**63 else None)
        assert repr(e).startswith("Explanation(")
        assert e.orders == everything.orders
        assert e.costliest(top) == everything.costliest(len(HYPS))
        assert (
            e.to_dict(segments=top)["costliest_segments"]
            == (everything.to_dict(segments=len(HYPS))["costliest_segments"])
        )
    c = chrf.compare([HYPS, OTHER], REFS, top=HUGE, test=None)
    assert c.differences == chrf.compare([HYPS, OTHER], REFS, top=10**6, test=None).differences


def test_bad_explanation_arguments_are_named() -> None:
    e = chrf.explain(HYPS, REFS)
    with pytest.raises(ValueError, match="k must not be negative, not -1"):
        e.costliest(-1)
    with pytest.raises(TypeError, match="k must be an int, not str"):
        e.costliest("3")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="segments must not be negative, not -1"):
        e.to_dict(segments=-1)
    with pytest.raises(TypeError, match="i must be an int, not float"):
        e.segment(1.0)  # type: ignore[arg-type]
    with pytest.raises(IndexError, match=r"segment index an int of .* out of range 0\.\.3"):
        e.segment(HUGE)
    with pytest.raises(TypeError, match=r"edges\[0\] must be an int, not str"):
        e.length_buckets(("10", "20"))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="edges must be a sequence of ints, not int"):
        e.length_buckets(10)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"edges must be increasing positive integers, not \(0,"):
        e.length_buckets((0, 5))
    with pytest.raises(TypeError, match=r"edges\[0\] must be an int, not BadRepr"):
        e.length_buckets((BadRepr(), 1))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="edges must be increasing positive integers, not a tuple"):
        e.length_buckets((HUGE, 5))
    assert [b.segments for b in e.length_buckets((HUGE,))] == [len(HYPS), 0]
    assert e.length_buckets((np.int64(50), 100)) == e.length_buckets((50, 100))
    assert e.costliest(np.int64(2)) == e.costliest(2)
    assert len(e.costliest(0)) == 0


@pytest.mark.parametrize(
    "unordered",
    [set(HYPS), frozenset(HYPS), dict.fromkeys(HYPS), dict.fromkeys(HYPS).keys()],
)
def test_unordered_collections_of_segments_are_refused(unordered: Any) -> None:
    kind = type(unordered).__name__
    with pytest.raises(TypeError, match=f"hypotheses must be a sequence of str, not {kind}"):
        chrf.score(unordered, REFS)
    with pytest.raises(TypeError, match=f"references must be a sequence of str, not {kind}"):
        chrf.explain(HYPS, unordered)
    with pytest.raises(TypeError, match=rf"references\[1\] must be a sequence of str, not {kind}"):
        chrf.score(HYPS, [REFS, unordered])
    with pytest.raises(TypeError, match=f"not {kind}"):
        chrf.pairwise(unordered, REFS)
    # Ordered iterables are read in their order.
    assert chrf.score(iter(HYPS), tuple(REFS)) == chrf.score(HYPS, REFS)
    assert chrf.score({h: h for h in HYPS}.values(), REFS) == chrf.score(HYPS, REFS)


def test_numpy_bools_are_bools() -> None:
    options = {"lowercase": np.bool_(True), "include_whitespace": np.True_}
    settings = chrf.Settings(**options)  # type: ignore[arg-type]
    assert settings == chrf.Settings(lowercase=True, include_whitespace=True)
    assert type(settings.lowercase) is bool
    assert chrf.score(HYPS, REFS, **options) == chrf.score(  # type: ignore[arg-type]
        HYPS, REFS, lowercase=True, include_whitespace=True
    )
    with pytest.raises(TypeError, match="lowercase must be a bool, not int64"):
        chrf.Settings(lowercase=np.int64(1))  # type: ignore[arg-type]


@pytest.mark.parametrize("text", [None, 3, ["{}"]])
def test_evaluate_json_names_its_argument(text: Any) -> None:
    with pytest.raises(TypeError, match="text must be a str or bytes"):
        contract.evaluate_json(text)
    assert "result" in contract.evaluate_json(
        bytearray(b'{"hypotheses": ["a"], "references": ["a"]}')
    )


EXPLANATION = chrf.explain(HYPS, REFS)


@settings(max_examples=min(300, settings.default.max_examples))
@given(
    st.sampled_from(["top", "trials", "test", "k", "segments", "edges", "i", "explain_top"]),
    anything,
)
def test_any_argument_value_is_a_result_or_a_clear_error(argument: str, recipe: Any) -> None:
    value = fresh(recipe)
    calls = {
        "top": lambda: chrf.compare([HYPS, OTHER], REFS, top=value, test=None),
        "trials": lambda: chrf.compare([HYPS, OTHER], REFS, trials=value, test=None),
        "test": lambda: chrf.compare([HYPS, OTHER], REFS, test=value, trials=20),
        "k": lambda: EXPLANATION.costliest(value),
        "segments": lambda: EXPLANATION.to_dict(segments=value),
        "edges": lambda: EXPLANATION.length_buckets(value),
        "i": lambda: EXPLANATION.segment(value),
        "explain_top": lambda: chrf.explain(HYPS, REFS, top=value),
    }
    # Anything else (OverflowError, AttributeError, NumPy's errors...) fails the test.
    with contextlib.suppress(TypeError, ValueError, IndexError, Boom):
        calls[argument]()
