"""Arbitrary Python objects for the fuzz tests: what callers may throw at the package.

Shared by tests/oracles/test_fuzz.py (hypothesis) and fuzz/python/fuzz_api.py (atheris). A drawn
value is a *recipe*: `fresh(recipe)` builds a new object from it for every call, so that one-shot
iterators are full each time and each call's inputs can be checked for mutation on their own.
"""

from __future__ import annotations

import math
import os
from collections.abc import Iterator
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

import numpy as np
from hypothesis import strategies as st

from strategies import CORNERS

#: Bounds of the smoke run, clear of the known memory and quadratic problems of huge orders;
#: the atheris long run (fuzz/python/fuzz_api.py) sets $CHRF_FUZZ_WIDE and goes up to the limits.
WIDE = bool(os.environ.get("CHRF_FUZZ_WIDE"))
MAX_ORDER = 65_536 if WIDE else 64
MAX_TEXT = 100_000 if WIDE else 2_000


class Boom(Exception):
    """Raised by hostile user objects: the package may let it through, and nothing else."""


class Text(str):
    """A str subclass."""


class LyingText(str):
    """A str subclass whose methods answer what no str would."""

    def lower(self) -> Any:  # type: ignore[override]
        return 42

    def split(self, *args: Any, **kwargs: Any) -> Any:  # type: ignore[override]
        return None

    def encode(self, *args: Any, **kwargs: Any) -> Any:  # type: ignore[override]
        return "not bytes"

    def __len__(self) -> int:
        return 10**6

    def __hash__(self) -> int:
        return 0

    def __eq__(self, other: object) -> bool:
        return True


class Index:
    """An int-like (`operator.index` takes it)."""

    def __init__(self, value: int) -> None:
        self.value = value

    def __index__(self) -> int:
        return self.value

    def __repr__(self) -> str:
        return f"Index({self.value})"


class Hostile:
    """Fails every protocol the package might try with Boom."""

    def __iter__(self) -> Iterator[Any]:
        raise Boom("__iter__")

    def __len__(self) -> int:
        raise Boom("__len__")

    def __index__(self) -> int:
        raise Boom("__index__")

    def __float__(self) -> float:
        raise Boom("__float__")

    def __bool__(self) -> bool:
        raise Boom("__bool__")

    def __eq__(self, other: object) -> bool:
        raise Boom("__eq__")

    __hash__ = object.__hash__

    def __repr__(self) -> str:
        return "Hostile()"


@dataclass(frozen=True)
class OneShot:
    """Recipe of a generator over the items."""

    items: tuple[Any, ...]


@dataclass(frozen=True)
class Deep:
    """Recipe of lists nested `depth` times around an item."""

    depth: int
    item: Any


@dataclass(frozen=True)
class Array:
    """Recipe of a NumPy array (arrays are mutable, so each call gets its own)."""

    values: Any
    dtype: Any


def fresh(recipe: Any) -> Any:
    """A new object from a recipe; immutable values are returned as they are."""
    if isinstance(recipe, OneShot):
        return (fresh(item) for item in recipe.items)
    if isinstance(recipe, Deep):
        value = fresh(recipe.item)
        for _ in range(recipe.depth):
            value = [value]
        return value
    if isinstance(recipe, Array):
        with np.errstate(over="ignore"):  # values past the dtype's range become inf on purpose
            return np.array(recipe.values, dtype=recipe.dtype)
    if type(recipe) is list:
        return [fresh(item) for item in recipe]
    if type(recipe) is tuple:
        return tuple(fresh(item) for item in recipe)
    if type(recipe) is dict:
        return {key: fresh(value) for key, value in recipe.items()}
    if type(recipe) is set:
        return set(recipe)
    return recipe


# Atoms ----------------------------------------------------------------------------------------

# (base, exponent, offset): 10**5000 itself has no repr() (Python's 4,300-digit limit), and
# hypothesis would fail describing a strategy that holds it.
huge_ints = st.sampled_from(
    [(10, 5000, 0), (-10, 5001, 0), (2, 128, 0), (2, 64, 0), (2, 64, -1), (2, 63, 0), (-2, 63, -1)]
).map(lambda p: p[0] ** p[1] + p[2])
ints = st.one_of(
    st.integers(), st.integers(-3, 80), huge_ints, st.builds(Index, st.integers(-2, 70))
)
floats = st.one_of(
    st.floats(),
    st.sampled_from([math.nan, math.inf, -math.inf, -0.0, 5e-324, 1.7976931348623157e308]),
)
numbers = st.one_of(
    ints,
    floats,
    st.fractions(),
    st.sampled_from([Decimal("NaN"), Decimal("1e999999"), Decimal("-0"), complex(1, 2)]),
)
numpy_scalars = st.one_of(
    st.sampled_from(
        [
            np.int8(-1),
            np.uint8(255),
            np.int64(2**63 - 1),
            np.uint64(2**64 - 1),
            np.float16(np.inf),
            np.float32(np.nan),
            np.float64(-0.0),
            np.longdouble("1e4000"),
            np.complex64(1j),
            np.bool_(True),
            np.str_("abc"),
            np.bytes_(b"ab"),
            np.datetime64("2024-01-01"),
            np.timedelta64(3, "D"),
            np.void(b"\x00\x01"),
        ]
    ),
    st.integers(0, 70).map(np.int32),
    st.integers(0, 2**64 - 1).map(np.uint64),
)
texts = st.one_of(
    st.lists(st.sampled_from(CORNERS) | st.characters(), max_size=40).map("".join),
    st.text(max_size=20),  # lone surrogates included
    # Long texts, up to the bound: a short text repeated (a few "words" make n-grams repeat).
    st.builds(
        lambda s, n: (s * n)[:MAX_TEXT],
        st.text(alphabet="ab .", min_size=1, max_size=8) | st.text(min_size=1, max_size=4),
        st.integers(1, MAX_TEXT),
    ),
)
strings = st.one_of(
    texts,
    texts.map(Text),
    texts.map(LyingText),
    texts.map(np.str_),
)
array_dtypes = st.sampled_from(
    [
        None,
        object,
        "U8",
        "S4",
        np.int8,
        np.uint64,
        np.float16,
        np.float32,
        np.complex128,
        "?",
        "M8[D]",
    ]
)
atoms = st.one_of(
    st.none(),
    st.booleans(),
    numbers,
    numpy_scalars,
    strings,
    st.binary(max_size=8),
    st.binary(max_size=8).map(bytearray),
    st.just(Hostile()),
    st.just(object()),
    st.just(NotImplemented),
    st.just(Ellipsis),
    st.just(print),
    st.just(range(3)),
    st.builds(Deep, st.sampled_from([2, 50, 5000]), texts),
)


def _array(values: Any, dtype: Any) -> Array:
    """The recipe of an array, or of an empty one where NumPy cannot build that array."""
    try:
        with np.errstate(over="ignore"):
            np.array(values, dtype=dtype)
    except Exception:
        return Array([], float)
    return Array(values, dtype)


arrays = st.builds(
    _array,
    st.one_of(
        st.lists(texts, max_size=4),
        st.lists(st.integers(-(2**63), 2**63 - 1), max_size=4),
        st.lists(st.floats(), max_size=4),
        st.lists(st.lists(texts, min_size=2, max_size=2), max_size=3),
        texts,
        st.lists(st.one_of(st.none(), st.integers(), st.floats(), texts), max_size=3),
    ),
    array_dtypes,
)


def _containers(inner: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return st.one_of(
        st.lists(inner, max_size=5),
        st.lists(inner, max_size=3).map(tuple),
        st.lists(inner, max_size=4).map(lambda items: OneShot(tuple(items))),
        st.dictionaries(st.one_of(texts, st.integers()), inner, max_size=3),
        st.sets(st.one_of(texts, st.integers()), max_size=3),
        arrays,
    )


anything = st.recursive(atoms, _containers, max_leaves=16)

# Plausible inputs, so that calls get past the first check often --------------------------------

segments = st.one_of(texts, texts.map(Text), st.just(""), anything)
text_lists = st.one_of(
    st.lists(texts, min_size=1, max_size=5),
    st.lists(segments, min_size=1, max_size=5),
    st.lists(texts, min_size=1, max_size=5).map(lambda items: OneShot(tuple(items))),
    st.lists(texts, min_size=1, max_size=5).map(lambda items: Array(items, object)),
    st.lists(texts, min_size=1, max_size=5).map(lambda items: Array(items, "U")),
    anything,
)
references = st.one_of(
    text_lists,
    st.lists(text_lists, min_size=1, max_size=3),
    st.lists(st.lists(texts, min_size=1, max_size=5), min_size=1, max_size=3).map(
        lambda streams: Array(streams, object) if len({len(s) for s in streams}) == 1 else streams
    ),
)
orders = st.one_of(st.integers(0, 8), st.integers(0, MAX_ORDER), ints, floats, anything)
betas = st.one_of(
    st.integers(0, 5), st.fractions(), floats, huge_ints, numpy_scalars, ints, anything
)
flags = st.one_of(st.booleans(), st.sampled_from([0, 1, None, np.bool_(True), "yes"]), anything)
OPTION_VALUES: dict[str, st.SearchStrategy[Any]] = {
    "char_order": orders,
    "word_order": orders,
    "beta": betas,
    "lowercase": flags,
    "include_whitespace": flags,
    "averaging": st.one_of(
        st.sampled_from(["precision_recall", "per_order_f", "PER_ORDER_F", "mean"]),
        strings,
        anything,
    ),
    "eps_smoothing": flags,
    "count_hyp_without_ref": flags,
}
options = st.fixed_dictionaries(
    {}, optional={**OPTION_VALUES, "weights": anything, "unknown": anything}
)
weights = st.one_of(
    st.none(),
    st.lists(st.one_of(st.integers(0, 5), st.fractions(0, 5), st.floats(0, 5)), max_size=6),
    st.lists(st.one_of(numbers, numpy_scalars), max_size=6),
    st.lists(st.integers(0, 2**64), max_size=4).map(lambda w: Array(w, object)),
    st.lists(st.integers(0, 2**64 - 1), max_size=4).map(lambda w: Array(w, np.uint64)),
    st.lists(st.floats(0, 1e300), max_size=4).map(lambda w: Array(w, np.float64)),
    anything,
)
