"""The keyword options of chrf's functions, from the option table (chrf._options): other
libraries' names of them (`names_in`, `renamed`, `named_by`: the drop-in's, the integrations'
and the JSON contract's mappings), aliases resolved and unknown names refused naming the called
function (issue 37), and the options paragraph appended to each entry point's docstring."""

from __future__ import annotations

import sys

from chrf._fields import Library, options_paragraph
from chrf._options import ALIASES, BY_NAME, DECLARED, OPTIONS

# Not typing's own: the first score would import typing (see chrf/__init__.py).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from types import FrameType
    from typing import Any, TypeVar

    Called = TypeVar("Called", bound=Callable[..., Any])

#: Other libraries' names of chrf's options, which the functions refuse naming the right one.
FOREIGN_NAMES = {
    other: option.name
    for option in OPTIONS
    for other in (*option.refused, *option.names.values())
    if other != option.name and other not in ALIASES
}


def names_in(library: Library) -> dict[str, str]:
    """`library`'s names of the options it has, each with chrf's name, in the table's order."""
    return {option.names[library]: option.name for option in OPTIONS if library in option.names}


def renamed(library: Library, values: Mapping[str, Any]) -> dict[str, Any]:
    """``values``, given under `library`'s names of the options (or chrf's, for an option that
    `library` lacks), under chrf's: `Settings`' keyword arguments."""
    names = names_in(library)
    return {names.get(name, name): value for name, value in values.items()}


def named_by(library: Library, values: Mapping[str, Any]) -> dict[str, Any]:
    """``values``, given under chrf's names, under `library`'s (chrf's, where it lacks one)."""
    return {BY_NAME[name].names.get(library, name): value for name, value in values.items()}


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
            # Imported on error only: the compiled module has imported chrf._errors already.
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
    import difflib  # only on this error path: importing it would be a share of the first call

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


def with_options_doc(*, exact: bool = False) -> Callable[[Called], Called]:
    """A decorator appending the options' meanings and defaults to a docstring, so that
    ``help()`` of every entry point explains them; ``exact`` leaves out the float-only ones."""

    def document(documented: Called) -> Called:
        entry_point(documented)
        documented.__doc__ = with_paragraph(documented.__doc__ or "", options_doc(exact=exact))
        return documented

    return document


def options_doc(*, exact: bool = False) -> str:
    """The paragraph `with_options_doc` appends: each option, its default and its meaning."""
    return options_paragraph(DECLARED, ALIASES, exact=exact)


def with_paragraph(doc: str, paragraph: str) -> str:
    # help() dedents a docstring by its lines' common indent: the paragraph takes the body's.
    body = [line for line in doc.splitlines()[1:] if line.strip()]
    indent = min((len(line) - len(line.lstrip()) for line in body), default=0)
    indented = "\n".join(" " * indent + line if line else line for line in paragraph.splitlines())
    return f"{doc.rstrip()}\n\n{indented}\n"
