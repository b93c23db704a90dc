"""Arrow string columns as arguments: objects exporting Arrow's PyCapsule interface
(``__arrow_c_array__`` or ``__arrow_c_stream__``: pyarrow arrays and chunked arrays, polars
Series, ...) are read by the core in place, from their UTF-8 buffers, without a Python string
per row. Neither pyarrow nor polars is imported: the capsules are all the core needs.
"""

from __future__ import annotations

from collections.abc import Sequence

from chrf._core import ArrowColumn, ArrowLists, read_arrow

__all__ = ["ArrowColumn", "ArrowLists", "column", "column_or_lists", "exports_arrow"]


def exports_arrow(value: object) -> bool:
    """Whether ``value`` hands out its data through Arrow's PyCapsule interface."""
    kind = type(value)
    return hasattr(kind, "__arrow_c_stream__") or hasattr(kind, "__arrow_c_array__")


def column(value: object, name: str) -> ArrowColumn:
    """A column of strings (string, large_string or string_view), checked: a null is a
    ValueError naming its row (``name[i] is null``), another type a TypeError naming ``name``."""
    return read_arrow(value, name, False)


def column_or_lists(value: object, name: str) -> ArrowColumn | ArrowLists:
    """A column of strings, or a list<string> column: the references of each hypothesis, read
    into reference streams (nulls inside a list are sacreBLEU's placeholders for a missing
    reference; a null list is a ValueError naming its row)."""
    return read_arrow(value, name, True)


# A read-only sequence of str to Python's checks too (`isinstance(column, Sequence)`).
Sequence.register(ArrowColumn)
