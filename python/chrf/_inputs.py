"""Argument shapes shared by every entry point, and the checks of arguments that are not texts.

Texts are read and checked in one place, the compiled core's reader (see ``chrf._core``); this
module names their shapes for type hints and documentation.
"""

from __future__ import annotations

import operator

from chrf._core import listed
from chrf._errors import SettingsError, SettingsTypeError
from chrf._messages import shown
from chrf._numbers import is_bool

# Not typing's own: the first score would import typing (see chrf/__init__.py).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import Literal, Protocol, TypeAlias

    class ArrowArray(Protocol):
        """An Arrow column exported as one array (pyarrow's Array)."""

        def __arrow_c_array__(self, requested_schema: object = None) -> tuple[object, object]: ...

    class ArrowStream(Protocol):
        """An Arrow column exported as a stream of arrays (pyarrow's ChunkedArray, polars'
        Series)."""

        def __arrow_c_stream__(self, requested_schema: object = None) -> object: ...

    #: A column of Arrow's PyCapsule interface, read in place from its UTF-8 buffers.
    ArrowColumnLike: TypeAlias = ArrowArray | ArrowStream
    #: Segments: any iterable of str (a lone str is refused, not split into characters), or an
    #: Arrow string column.
    Texts: TypeAlias = Iterable[str] | ArrowColumnLike
    #: One reference per hypothesis, reference streams (sacreBLEU), or the references of each
    #: hypothesis (evaluate, torchmetrics); ``None`` marks a missing reference in either nesting.
    #: Arrow: a string column, several (streams), or a list<string> column (per hypothesis).
    References: TypeAlias = (
        Iterable[str] | Iterable[Iterable[str | None] | ArrowColumnLike] | ArrowColumnLike
    )
    #: How nested references are read: ``references[k][i]`` is reference k of hypothesis i
    #: ("streams", sacreBLEU's layout) or reference k of hypothesis i is ``references[i][k]``
    #: ("per_hypothesis", the layout of Hugging Face evaluate and torchmetrics).
    Layout: TypeAlias = Literal["streams", "per_hypothesis"]
else:
    # Annotations only: the names exist for the modules that import them.
    ArrowColumnLike = Texts = References = Layout = object
LAYOUTS = ("streams", "per_hypothesis")

#: The items of a sequence argument as a list (a list itself, not copied); a lone str, a set or
#: a mapping is refused with the message every sequence argument gives.
as_list = listed


def check_layout(layout: object) -> None:
    """Refuses a ``layout`` that is none of None, "streams" and "per_hypothesis"."""
    if layout is not None and not (isinstance(layout, str) and layout in LAYOUTS):
        raise SettingsError(
            f"layout must be 'streams', 'per_hypothesis' or None, not {shown(layout)}",
            argument="layout",
            reason="invalid_choice",
        )


def whole_number(value: object, name: str, *, minimum: int = 0, optional: bool = False) -> int:
    """An int argument (NumPy integers welcome, bools refused) of at least ``minimum``."""
    if not is_bool(value):
        try:
            number = operator.index(value)  # type: ignore[arg-type]
        except TypeError:
            pass
        else:
            if number < minimum:
                bound = "must not be negative" if minimum == 0 else f"must be at least {minimum}"
                raise SettingsError(
                    f"{name} {bound}, not {shown(number)}", argument=name, reason="out_of_range"
                )
            return number
    kinds = "an int or None" if optional else "an int"
    raise SettingsTypeError(
        f"{name} must be {kinds}, not {type(value).__name__}", argument=name, reason="wrong_type"
    )
