"""How the option table (chrf._options) declares `Settings`' fields: `option`, the field
specifier, `Kind`, what an option's value is (its check and its command-line reading), and
`fields`, the class decorator that turns the declarations into the table and a constructor.

As attrs' ``field`` and pydantic's ``Field``: each option is a typed class attribute, and type
checkers see the constructor from the annotations (PEP 681's ``dataclass_transform``). Nothing
here is edited when an option is added.

Standard library only, and nothing of chrf: the documentation site's Griffe extension
(docs/griffe_chrf.py) loads the table by its path, without the compiled extension.
"""

from __future__ import annotations

# Not typing's own: the first score would import typing (see chrf/__init__.py); type checkers
# take any constant of this name for typing's.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Mapping
    from typing import Any, Generic, Literal, TypeAlias, TypeVar

    from typing_extensions import dataclass_transform

    #: The libraries whose names of the options the table holds; "contract" is the JSON
    #: contract's request (spec §6), whose fields are chrf's names of the options it has.
    Library: TypeAlias = Literal["sacrebleu", "evaluate", "torchmetrics", "mbrs", "contract"]
    Value = TypeVar("Value")
    Declared = TypeVar("Declared", bound=type)
else:
    # Annotations only: the names exist for the modules that import them.
    Library = Value = object

    def dataclass_transform(**_: object) -> Callable[[Declared], Declared]:
        return lambda decorator: decorator

    class Generic:
        """``typing.Generic`` at run time, where ``Kind[int]`` appears in annotations alone."""

        def __class_getitem__(cls, item: object) -> type:
            return cls


class Kind(Generic[Value]):
    """What an option's value is: `check` takes any value a user gives (naming the option in its
    error) and returns it in `Settings`' form; `argument` is argparse's keywords that read it
    from the command line (a ``type=`` function raising ``argparse.ArgumentTypeError``, or
    ``choices``, or ``action``)."""

    __slots__ = ("argument", "check", "name")

    name: str
    check: Callable[[Option[Value], object], Value]
    argument: Mapping[str, Any]

    def __init__(
        self,
        name: str,
        check: Callable[[Option[Value], object], Value],
        argument: Mapping[str, Any],
    ) -> None:
        for field, value in (("name", name), ("check", check), ("argument", argument)):
            object.__setattr__(self, field, value)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"cannot assign to field {name!r}")

    def __repr__(self) -> str:
        return f"Kind({self.name!r})"


class Option(Generic[Value]):
    """One option: `name` is chrf's (a field of `Settings`, given by its attribute), `flags` the
    command line's (the first is the one its messages name), `names` the other libraries'
    (absent: they lack it).

    A plain class, not a dataclass: the first score would import dataclasses (and inspect)."""

    _FIELDS = (
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
    __slots__ = ("name", *_FIELDS)

    name: str
    kind: Kind[Value]
    default: Value
    meaning: str
    flags: tuple[str, ...]
    help: str
    names: Mapping[Library, str]
    #: Names other libraries give it that chrf's functions refuse, naming this one.
    refused: tuple[str, ...]
    #: The exact entry points take it (a float-only mode, which has no exact form, is not).
    exact: bool
    #: An option sacreBLEU lacks: its signature field's key, short key, and what a value other
    #: than the default shows (None: the value itself); the field is left out at the default,
    #: so that a default signature reads as sacreBLEU's (`chrf._signature.signature_info`).
    signature: tuple[str, str, str | None] | None

    def __init__(self, *values: object) -> None:
        # Its attribute's, set by `fields`: not by ``__set_name__``, in which CPython 3.11 turns
        # a Ctrl-C into a RuntimeError.
        object.__setattr__(self, "name", "")
        for field, value in zip(self._FIELDS, values, strict=True):
            object.__setattr__(self, field, value)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"cannot assign to field {name!r}")

    def __repr__(self) -> str:
        return f"Option({self.name!r}, {self.kind.name!r}, default={self.default!r})"


def option(
    kind: Kind[Value],
    *,
    default: Value,
    meaning: str,
    flags: tuple[str, ...],
    help: str,
    names: Mapping[Library, str],
    refused: tuple[str, ...] = (),
    exact: bool = True,
    signature: tuple[str, str, str | None] | None = None,
) -> Value:
    """Declares one field of `Settings` (a class attribute of a `fields` class). Typed as its
    value, as attrs' and pydantic's field specifiers are: the class attribute is the default
    once `fields` has read the declaration."""
    declared: Option[Value] = Option(
        kind, default, meaning, flags, help, names, refused, exact, signature
    )
    return declared  # type: ignore[return-value]  # an Option until `fields` reads it


@dataclass_transform(frozen_default=True, eq_default=False, field_specifiers=(option,))
def fields(declared: Declared) -> Declared:
    """Reads a class's `option` declarations, in their order, into its ``__options__``, and
    leaves each default as its class attribute. The class's constructor is its subclass's
    (`chrf._settings.Settings`), made by `constructor` from ``__options__``."""
    named = {name: each for name, each in vars(declared).items() if isinstance(each, Option)}
    for name, each in named.items():
        object.__setattr__(each, "name", name)
        setattr(declared, name, each.default)
    options = tuple(named.values())
    match_args = tuple(each.name for each in options)  # type checkers make theirs alike
    for name, value in (("__options__", options), ("__match_args__", match_args)):
        setattr(declared, name, value)
    return declared


def constructor(declared: type, build: Callable[..., Any], returns: str) -> Any:
    """``__new__(cls, <each option of the `fields` class, annotated, with its default>)``,
    calling ``build(cls, values)`` with the values in the options' order, annotated as returning
    ``returns`` (the class it makes, by name): a real signature, for
    ``help()``, ``inspect`` and argument errors as Python words them, made as dataclasses make
    theirs (no import of inspect)."""
    options: tuple[Option[Any], ...] = vars(declared)["__options__"]
    annotations = vars(declared).get("__annotations__", {})
    names = [each.name for each in options]
    scope: dict[str, Any] = {f"_default_{each.name}": each.default for each in options}
    parameters = ", ".join(
        f"{name}: {annotations.get(name, 'object')} = _default_{name}" for name in names
    )
    source = (
        f"def __new__(cls, {parameters}) -> {returns}:\n"
        f"    return _build(cls, ({', '.join(names)},))\n"
    )
    # The source is the table's names, not input; compiled under this module's
    # ``from __future__ import annotations``, its annotations stay the declarations' texts.
    exec(source, {**scope, "_build": build}, scope)
    return scope["__new__"]


def options_paragraph(
    options: Iterable[Option[Any]], aliases: Mapping[str, str], *, exact: bool = False
) -> str:
    """The options paragraph of ``help()`` and of the API reference: each option, its default
    and meaning, and its sacreBLEU name (among ``aliases``); ``exact`` leaves out the options
    the exact entry points do not take."""
    lines = ["Keyword options (sacreBLEU's defaults):", ""]
    for each in options:
        if exact and not each.exact:
            continue
        lines.append(f"``{each.name}={each.default!r}``")
        lines.extend(_wrapped(each.meaning, "    ", 92))
        others = [alias for alias, of in aliases.items() if of == each.name]
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
