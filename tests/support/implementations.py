"""The Python API's two implementations, which the tests taking the `impl` fixture
(tests/conftest.py) run over alike: the compiled path (`chrf`) and the pure-Python reference
(`chrf._reference`), with the same functions, signatures and result types. RapidFuzz tests its
C++ and Python backends this way; here it keeps the reference an oracle of the whole API, not
only of the functions a property test happens to compare.

The reference is slow on purpose: a test whose input it would take minutes over takes a
smaller input with it (`sized`), never a skip.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from types import ModuleType
from typing import Any, TypeVar

import pytest

import chrf
from chrf import _reference

IMPLEMENTATIONS = [pytest.param(chrf, id="compiled"), pytest.param(_reference, id="reference")]


def is_reference(impl: ModuleType) -> bool:
    return impl is _reference


def sized(impl: ModuleType, compiled: int, reference: int) -> int:
    """How much input a test takes: the reference's share where the whole would be slow."""
    return reference if is_reference(impl) else compiled


Item = TypeVar("Item")


def variety(impl: ModuleType, items: Sequence[Item], *keys: Callable[[Item], object]) -> list[Item]:
    """All items; for the reference, a few that still show every value of every key (the first
    item with a value not yet shown, items showing two new values first)."""
    if not is_reference(impl):
        return list(items)
    shown: list[set[object]] = [set() for _ in keys]
    picked: list[Item] = []
    for needed in (len(keys), 1):
        for item in items:
            new = sum(key(item) not in seen for key, seen in zip(keys, shown, strict=True))
            if new >= needed:
                picked.append(item)
                for key, seen in zip(keys, shown, strict=True):
                    seen.add(key(item))
    return picked


def error_of(
    function: Callable[..., Any], *args: Any, **kwargs: Any
) -> tuple[type[BaseException], str] | None:
    """The type and message of what `function(*args, **kwargs)` raises (None if it returns)."""
    try:
        function(*args, **kwargs)
    except Exception as error:  # every error: the two implementations must raise alike
        return builtin_class(error), str(error)
    return None


def builtin_class(error: BaseException) -> type[BaseException]:
    """The built-in class an error is: ValueError of a `chrf.InputError`. The reference raises
    the built-in classes; the family's own classes and fields are tested on the compiled path
    (tests/api/test_error_family.py)."""
    return next(cls for cls in type(error).__mro__ if cls.__module__ == "builtins")


def outcome(function: Callable[..., Any], *args: Any, **kwargs: Any) -> tuple[Any, ...]:
    """How `function(*args, **kwargs)` ends, comparable across implementations: its error's
    type and message, or its result (an array as its dtype and values)."""
    try:
        result = function(*args, **kwargs)
    except Exception as error:  # every error: the two implementations must raise alike
        return "error", builtin_class(error), str(error)
    if hasattr(result, "tolist"):
        return "array", str(result.dtype), result.shape, result.tolist()
    return "result", result
