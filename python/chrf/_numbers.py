"""Recognising NumPy scalars without importing NumPy: a value can only be a NumPy scalar if
NumPy is already imported, and importing it would double the cost of ``import chrf``."""

from __future__ import annotations

import sys

# Not typing's own: the first score would import typing (see chrf/__init__.py).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Protocol, TypeGuard

    class FloatScalar(Protocol):
        """What Python and NumPy floats share."""

        def as_integer_ratio(self) -> tuple[int, int]: ...
        def __float__(self) -> float: ...


def is_bool(value: object) -> bool:
    """A Python or NumPy bool (neither counts as a number here)."""
    numpy = sys.modules.get("numpy")
    return isinstance(value, bool) or (numpy is not None and isinstance(value, numpy.bool_))


def is_float(value: object) -> TypeGuard[FloatScalar]:
    """A Python float or a NumPy floating scalar of any width (long double included)."""
    numpy = sys.modules.get("numpy")
    return isinstance(value, float) or (numpy is not None and isinstance(value, numpy.floating))
