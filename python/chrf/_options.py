"""The option table: every chrF option declared once, with its default, its meaning, its
command-line flags and its names in sacreBLEU, evaluate, torchmetrics and mbrs.

From it come `Settings`' defaults and type checks (chrf._settings), the command line's flags and
their parsing (chrf.cli.arguments, chrf.cli.options), the drop-in's and the integrations'
mappings of their keyword arguments (`renamed`), the aliases and the refused names of the
functions' keywords (`resolved`), the signature's fields of the options sacreBLEU lacks
(chrf._signature), and the options paragraph of ``help()`` and of the API reference
(`options_paragraph`).

Standard library only, and nothing of chrf: the documentation site's Griffe extension
(docs/griffe_chrf.py) loads this file by its path, without the compiled extension.
"""

from __future__ import annotations

import sys

# Not typing's own: the first score would import typing (see chrf/__init__.py); type checkers
# take any constant of this name for typing's.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from fractions import Fraction
    from types import FrameType
    from typing import Any, Literal, TypeAlias, TypeVar
    from typing import Generic as _Generic

    Averaging: TypeAlias = Literal["precision_recall", "per_order_f"]
    Beta: TypeAlias = int | Fraction | float
    #: What an option's value is; `chrf._settings` checks each kind, `chrf.cli.arguments` parses it.
    Kind: TypeAlias = Literal["order", "beta", "bool", "choice"]
    #: The libraries whose names of the options the table holds; "contract" is the JSON
    #: contract's request (spec §6), whose fields are chrf's names of the options it has.
    Library: TypeAlias = Literal["sacrebleu", "evaluate", "torchmetrics", "mbrs", "contract"]
    Value = TypeVar("Value")
    Called = TypeVar("Called", bound=Callable[..., Any])
else:
    # Annotations only: the names exist for the modules that import them.
    Averaging = Beta = Kind = Library = Value = object

    class _Generic:
        """``typing.Generic`` at run time, where ``Option[int]`` appears in annotations alone."""

        def __class_getitem__(cls, item: object) -> type:
            return cls


AVERAGINGS: tuple[Averaging, ...] = ("precision_recall", "per_order_f")
#: `Settings`' fields in the order of its positional arguments, which pickles hold.
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


class Option(_Generic[Value]):
    """One option: `name` is chrf's (a field of `Settings`), `flags` the command line's (the
    first is the one its messages name), `names` the other libraries' (absent: they lack it).

    A plain class, not a dataclass: the first score would import dataclasses (and inspect)."""

    _FIELDS = (
        "name",
        "kind",
        "default",
        "meaning",
        "flags",
        "help",
        "names",
        "refused",
        "exact",
        "signature",
    )
    __slots__ = _FIELDS

    name: str
    kind: Kind
    default: Value
    meaning: str
    flags: tuple[str, ...]
    help: str
    names: Mapping[Library, str]
    #: Names other libraries give it that chrf's functions refuse, naming this one.
    refused: tuple[str, ...]
    #: The exact entry points take it (eps_smoothing is a float-only mode).
    exact: bool
    #: An option sacreBLEU lacks: its signature field's key, short key, and what a value other
    #: than the default shows (None: the value itself); the field is left out at the default,
    #: so that a default signature reads as sacreBLEU's (`chrf._signature.signature_info`).
    signature: tuple[str, str, str | None] | None

    def __init__(
        self,
        name: str,
        kind: Kind,
        default: Value,
        meaning: str,
        flags: tuple[str, ...],
        help: str,
        names: Mapping[Library, str],
        refused: tuple[str, ...] = (),
        exact: bool = True,
        signature: tuple[str, str, str | None] | None = None,
    ) -> None:
        values = (name, kind, default, meaning, flags, help, names, refused, exact, signature)
        for field, value in zip(self._FIELDS, values, strict=True):
            object.__setattr__(self, field, value)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"cannot assign to field {name!r}")

    def __repr__(self) -> str:
        return f"Option({self.name!r}, {self.kind!r}, default={self.default!r})"


_LIBRARIES: tuple[Library, ...] = ("sacrebleu", "evaluate", "torchmetrics", "mbrs")


def _same(name: str, *libraries: Library) -> dict[Library, str]:
    return dict.fromkeys(libraries, name)


CHAR_ORDER: Option[int] = Option(
    "char_order",
    "order",
    6,
    "character n-gram orders 1..char_order (0: none).",
    ("--chrf-char-order", "--char-order", "-cc"),
    "character n-gram orders",
    {
        **_same("char_order", "sacrebleu", "evaluate", "mbrs", "contract"),
        "torchmetrics": "n_char_order",
    },
)
WORD_ORDER: Option[int] = Option(
    "word_order",
    "order",
    0,
    "word n-gram orders 1..word_order (0: none; 2 is chrF++).",
    ("--chrf-word-order", "--word-order", "-cw"),
    "word n-gram orders (2: chrF++)",
    {
        **_same("word_order", "sacrebleu", "evaluate", "mbrs", "contract"),
        "torchmetrics": "n_word_order",
    },
)
BETA: Option[Beta] = Option(
    "beta",
    "beta",
    2,
    "weight of recall against precision (0: precision only): an int, a Fraction, or a "
    "float taken at its exact binary value.",
    ("--chrf-beta", "--beta"),
    "recall's weight: an integer, a fraction p/q or a decimal (0: precision only)",
    _same("beta", *_LIBRARIES, "contract"),
)
LOWERCASE: Option[bool] = Option(
    "lowercase",
    "bool",
    False,
    "lowercase with Python's str.lower() (full Unicode) before everything.",
    ("--chrf-lowercase",),
    "lowercase before scoring (Python's str.lower())",
    _same("lowercase", *_LIBRARIES, "contract"),
    refused=("lowercased", "lower"),
)
INCLUDE_WHITESPACE: Option[bool] = Option(
    "include_whitespace",
    "bool",
    False,
    "keep whitespace in character n-grams.",
    ("--chrf-whitespace", "--whitespace"),
    "keep whitespace in character n-grams",
    {**_same("whitespace", *_LIBRARIES), "contract": "include_whitespace"},
)
EPS_SMOOTHING: Option[bool] = Option(
    "eps_smoothing",
    "bool",
    False,
    "sacreBLEU's float eps smoothing of orders without matches; float scores only, it has no "
    "exact form.",
    ("--chrf-eps-smoothing", "--eps-smoothing"),
    "sacreBLEU's eps smoothing (float only)",
    _same("eps_smoothing", "sacrebleu", "evaluate", "mbrs"),
    refused=("eps",),
    exact=False,
)
AVERAGING: Option[Averaging] = Option(
    "averaging",
    "choice",
    "precision_recall",
    "'precision_recall' (sacreBLEU 2.x: average precision and recall over the orders, then F) "
    "or 'per_order_f' (Popović's chrF++.py: the mean of per-order F).",
    ("--averaging",),
    "sacreBLEU's F of mean precision and recall, or chrF++.py's mean per-order F",
    _same("averaging", "contract"),
    signature=("avg", "a", None),
)
COUNT_HYP_WITHOUT_REF: Option[bool] = Option(
    "count_hyp_without_ref",
    "bool",
    False,
    "spec §1.4's rule: with False (sacreBLEU's rule) a segment whose reference has no n-gram "
    "of order n contributes no hypothesis n-grams of that order; with True (the JSON "
    "contract's rule) every hypothesis n-gram counts.",
    ("--count-hyp-without-ref",),
    "count hypothesis n-grams of orders the reference lacks (the JSON contract's rule)",
    {},
    signature=("hypnoref", "hnr", "count"),
)

#: Every option, in the command line's order (`Settings`' fields keep the order of their
#: positional arguments, which pickles hold).
OPTIONS: tuple[Option[Any], ...] = (
    CHAR_ORDER,
    WORD_ORDER,
    BETA,
    LOWERCASE,
    INCLUDE_WHITESPACE,
    EPS_SMOOTHING,
    AVERAGING,
    COUNT_HYP_WITHOUT_REF,
)
BY_NAME: dict[str, Option[Any]] = {option.name: option for option in OPTIONS}
#: sacreBLEU's (and evaluate's, and torchmetrics') names that chrf's functions take as well.
ALIASES = {
    other: option.name
    for option in OPTIONS
    if (other := option.names.get("sacrebleu", option.name)) != option.name
}
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


# The keyword options of chrf's functions: aliases resolved, unknown names refused (issue 37).

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


# The options paragraph of help() and of the API reference.


def options_paragraph(order: tuple[str, ...], *, exact: bool = False) -> str:
    """The options paragraph: each option (named in ``order``), its default and meaning, and its
    other name; ``exact`` leaves out the options the exact entry points do not take."""
    lines = ["Keyword options (sacreBLEU's defaults):", ""]
    for option in (BY_NAME[name] for name in order):
        if exact and not option.exact:
            continue
        lines.append(f"``{option.name}={option.default!r}``")
        lines.extend(_wrapped(option.meaning, "    ", 92))
        others = [alias for alias, of in ALIASES.items() if of == option.name]
        if others:
            lines.extend(_wrapped(f"(Also ``{others[0]}``, sacreBLEU's name.)", "    ", 92))
    return "\n".join(lines)


def _wrapped(text: str, indent: str, width: int) -> list[str]:
    # Not textwrap: this runs at import, for every documented entry point, and must cost little.
    lines = [indent]
    for word in text.split():
        if len(lines[-1]) + 1 + len(word) > width and lines[-1] != indent:
            lines.append(indent)
        lines[-1] += word if lines[-1] == indent else " " + word
    return lines


def with_options_doc(*, exact: bool = False) -> Callable[[Called], Called]:
    """A decorator appending the options' meanings and defaults to a docstring, so that
    ``help()`` of every entry point explains them; ``exact`` leaves out ``eps_smoothing``."""

    def document(documented: Called) -> Called:
        entry_point(documented)
        documented.__doc__ = with_paragraph(documented.__doc__ or "", options_doc(exact=exact))
        return documented

    return document


def options_doc(*, exact: bool = False) -> str:
    """The paragraph `with_options_doc` appends: each option, its default and its meaning."""
    return options_paragraph(FIELDS, exact=exact)


def with_paragraph(doc: str, paragraph: str) -> str:
    # help() dedents a docstring by its lines' common indent: the paragraph takes the body's.
    body = [line for line in doc.splitlines()[1:] if line.strip()]
    indent = min((len(line) - len(line.lstrip()) for line in body), default=0)
    indented = "\n".join(" " * indent + line if line else line for line in paragraph.splitlines())
    return f"{doc.rstrip()}\n\n{indented}\n"
