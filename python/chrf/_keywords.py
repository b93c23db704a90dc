"""Keyword options under other names: the aliases chrf's functions take (sacreBLEU's names),
and the names they refuse with a pointer to the right one (issue 37: one vocabulary)."""

from __future__ import annotations

import difflib
import sys
from collections.abc import Callable, Mapping
from types import FrameType
from typing import Any, TypeVar

#: sacreBLEU's (and evaluate's, and torchmetrics') names that chrf's functions take as well.
ALIASES = {"whitespace": "include_whitespace"}
#: Other libraries' names of chrf's options, which the functions refuse naming the right one.
FOREIGN_NAMES = {
    "eps": "eps_smoothing",
    "n_char_order": "char_order",
    "n_word_order": "word_order",
    "lowercased": "lowercase",
    "lower": "lowercase",
}
Called = TypeVar("Called", bound=Callable[..., Any])

#: The functions that take the options, by their code, with the names users call them by: an
#: unknown keyword is reported as the function's own, not as ``Settings``'.
_ENTRY_POINTS: dict[object, str] = {}


def entry_point(function: Called) -> Called:
    """Registers a function that takes the options, under the name users call it by."""
    module = function.__module__
    public = "chrf" if module.startswith("chrf._") else module
    _ENTRY_POINTS[getattr(function, "__code__", None)] = f"{public}.{function.__qualname__}"
    return function


def resolved(options: Mapping[str, Any], fields: frozenset[str]) -> dict[str, Any]:
    """The options under the names ``Settings`` takes (its ``fields``): aliases resolved, and an
    unknown name refused with a TypeError naming the called function and the keyword it takes
    instead."""
    found: dict[str, Any] = {}
    for name, value in options.items():
        field = ALIASES.get(name, name)
        if field not in fields:
            # Imported on error only: this module stays loadable alone, by its path
            # (docs/griffe_chrf.py); the compiled module has imported chrf._errors already.
            from chrf._errors import SettingsTypeError

            raise SettingsTypeError(
                _unknown_keyword(name, fields), argument=name, reason="unknown_option"
            )
        if field in found:
            alias = next(alias for alias, of in ALIASES.items() if of == field)
            from chrf._errors import SettingsTypeError

            raise SettingsTypeError(
                f"{_caller()} got both {field!r} and {alias!r}: one option under two names "
                f"({alias!r} is sacreBLEU's), give it once",
                argument=name,
                reason="duplicate_option",
            )
        found[field] = value
    return found


def _unknown_keyword(name: str, fields: frozenset[str]) -> str:
    message = f"{_caller()} got an unexpected keyword argument {name!r}"
    known = sorted(fields | ALIASES.keys())
    close = FOREIGN_NAMES.get(name) or next(iter(difflib.get_close_matches(name, known, 1)), None)
    return f"{message}; did you mean {close!r}?" if close else f"{message}; it takes {known}"


def _caller() -> str:
    """``chrf.score()``, when the options came through a documented function, found on the stack
    (only on the error path: an ordinary call pays nothing for it)."""
    frame: FrameType | None = sys._getframe(1)
    while frame is not None:
        name = _ENTRY_POINTS.get(frame.f_code)
        if name is not None:
            return f"{name}()"
        frame = frame.f_back
    return "a chrf function"
