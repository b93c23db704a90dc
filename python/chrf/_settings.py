"""The settings every chrF number depends on, validated once for every entry point."""

from __future__ import annotations

import math
import sys

from chrf._core import Config
from chrf._errors import SettingsError, SettingsTypeError
from chrf._fields import constructor
from chrf._keywords import options_doc, resolved, with_paragraph
from chrf._messages import shown
from chrf._options import (
    AVERAGINGS,
    FIELDS,
    MAX_BETA_BITS,
    MAX_ORDER,
    OPTIONS,
    Averaging,
    Beta,
    ExactOptions,
    Options,
    OwnOptions,
    SettingsFields,
    ratio,
)

# Not typing's own: the first score would import typing (see chrf/__init__.py).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from fractions import Fraction
    from typing import Any

__all__ = [
    "AVERAGINGS",
    "MAX_BETA_BITS",
    "MAX_ORDER",
    "Averaging",
    "Beta",
    "ExactOptions",
    "Options",
    "OwnOptions",
    "Settings",
    "settings_of",
]


class Settings(SettingsFields):
    """chrF settings (sacreBLEU's defaults): what must be reported with a score.

    Two settings are equal when they score alike: the same fields, and β of the same kind (an
    int, a float or a Fraction). ``Settings(beta=2)``, ``Settings(beta=2.0)`` and
    ``Settings(beta=Fraction(2))`` differ: their scores are named chrF2 and chrF2.0, and a
    Fraction β takes sacreBLEU's bootstrap arithmetic into double precision.
    """

    # A plain class, not a dataclass: the first score would import dataclasses (and inspect).
    # The fields are in its __dict__ (``vars()`` gives them, as a dataclass's); the compiled
    # form is in a slot of its own, out of it.
    __slots__ = ("__dict__", "__weakref__", "compiled")

    # The fields, their defaults (class attributes, which sacreBLEU's drop-in reads) and the
    # constructor's arguments are the option table's (`SettingsFields`, chrf._options).
    #: The settings in the compiled core's terms, built once with them (never pickled: a
    #: pickle holds the fields alone).
    compiled: Config

    # In __new__ (made from the table by `chrf._fields.constructor`, below), not __init__:
    # unpickling calls __new__ alone, and no instance may exist that did not pass the checks.
    @staticmethod
    def _checked(cls: type[Settings], values: tuple[Any, ...]) -> Settings:
        self = object.__new__(cls)
        given = dict(zip(FIELDS, values, strict=True))
        # Python checks each option's type and range (by its kind, in the command line's order);
        # chrf-core checks the invariants (both orders 0, say) as it compiles them, below.
        checked = {option.name: option.kind.check(option, given[option.name]) for option in OPTIONS}
        vars(self).update((name, checked[name]) for name in FIELDS)  # vars() in the fields' order
        if self.eps_smoothing and self.averaging != "precision_recall":
            raise SettingsError(
                "eps_smoothing=True is sacreBLEU's own per-order averaging; "
                "it cannot be combined with averaging='per_order_f'",
                argument="eps_smoothing",
                reason="incompatible",
            )
        object.__setattr__(self, "compiled", Config(self))
        return self

    def __setattr__(self, name: str, value: object) -> None:
        from dataclasses import FrozenInstanceError  # on this error path only

        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        from dataclasses import FrozenInstanceError

        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in FIELDS)
        return f"{type(self).__qualname__}({fields})"

    def _identity(self) -> tuple[object, ...]:
        # β's kind with its value: 0.1 == Fraction(0.1), yet 1 + β² rounds differently for them.
        return (*(getattr(self, name) for name in FIELDS), type(self.beta))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Settings):
            return NotImplemented
        return self._identity() == other._identity()

    def __hash__(self) -> int:
        return hash(self._identity())

    def __reduce__(self) -> tuple[type[Settings], tuple[Any, ...]]:
        # A constructor call, which runs every check: a pickle can hold anything. The fields
        # alone: the compiled form is built again where it is used.
        return Settings, tuple(getattr(self, name) for name in FIELDS)

    def __getstate__(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in FIELDS}

    def __setstate__(self, state: dict[str, Any]) -> None:
        # Pickles of the form Python writes by default (an object, then its state), which
        # older versions wrote: checked as construction checks.
        checked = Settings(**state_dict(state, "Settings"))
        for name in (*FIELDS, "compiled"):
            object.__setattr__(self, name, getattr(checked, name))

    def __replace__(self, **changes: Any) -> Settings:
        # copy.replace() (Python 3.13), as on the dataclass Settings was.
        return Settings(**{**self.__getstate__(), **changes})

    def options(self) -> Options:
        """The keyword arguments that give these settings back (``Settings(**s.options())``)."""
        options: Options = self.__getstate__()  # type: ignore[assignment]  # its fields
        return options

    @property
    def beta_fraction(self) -> Fraction:
        """β exactly: a float β is taken at its exact binary value."""
        from fractions import Fraction  # not needed for a score

        return Fraction(self.beta)

    @property
    def beta_ratio(self) -> tuple[int, int]:
        """β exactly as its (numerator, denominator), in lowest terms (the core's form of it)."""
        return ratio(self.beta)

    @property
    def factor(self) -> float:
        """``float(beta ** 2)``: the β² sacreBLEU's float arithmetic multiplies by (0.0 when it
        underflows, as sacreBLEU's does; ``inf`` when it overflows, where sacreBLEU fails)."""
        return _float_of(lambda: self.beta**2)

    @property
    def one_plus_factor(self) -> float:
        """``float(1 + beta ** 2)``, as sacreBLEU's ``(1 + factor) * ...`` evaluates it."""
        return _float_of(lambda: 1 + self.beta**2)

    @property
    def beta_is_fraction(self) -> bool:
        """β is a ``Fraction``: in sacreBLEU's bootstrap a ``Fraction`` meeting a NumPy float32
        computes in double precision, where an int or a float computes in float32."""
        return not isinstance(self.beta, (int, float))  # checked: an int, a float or a Fraction

    def check_float(self) -> None:
        """Refuses what no float score can take: a β whose square overflows a float (sacreBLEU
        fails there too); the exact entry points take it."""
        if math.isinf(self.one_plus_factor):
            raise SettingsError(
                f"beta ** 2 is too large for a float score: beta={shown(self.beta)} "
                "(exact components take any beta)",
                argument="beta",
                reason="out_of_range",
            )

    @property
    def order_count(self) -> int:
        """The number of orders the statistics hold: character orders, then word orders."""
        return self.char_order + self.word_order


def score_name(beta: Beta, word_order: int) -> str:
    """sacreBLEU's name of a chrF score: ``chrF2``, ``chrF2++``."""
    return f"chrF{beta}" + "+" * word_order


#: Option values of these types are compared by value for `settings_of`'s cache; others (NumPy
#: integers, user classes) are validated afresh on every call.
_CACHED_TYPES = {int, bool, float, str}
#: At most this many option sets are remembered; the cache is emptied when it is full.
_CACHE_SIZE = 64
_recent: dict[tuple[tuple[str, type, object], ...], Settings] = {}


def settings_of(options: ExactOptions) -> Settings:
    """``Settings(**options)``, validated once per distinct options: a call on one short
    sentence pair must not spend its time checking the same keyword arguments again.

    Keys hold each value's type: equal values of different types are different settings
    (``beta=2`` and ``beta=2.0``) or no settings at all (``char_order=True`` is 1, but no order),
    and a key without the type would give the first one's settings for both.
    """
    if not options:
        return DEFAULT_SETTINGS
    key = tuple((name, type(value), value) for name, value in options.items())
    if not all(entry[1] in _CACHED_TYPES or _is_fraction_type(entry[1]) for entry in key):
        return Settings(**resolved(options, _FIELDS))
    settings = _recent.get(key)
    if settings is None:
        settings = Settings(**resolved(options, _FIELDS))
        if len(_recent) >= _CACHE_SIZE:
            _recent.clear()
        _recent[key] = settings
    return settings


def state_dict(state: object, name: str) -> dict[str, Any]:
    if not isinstance(state, dict) or not all(isinstance(key, str) for key in state):
        raise SettingsTypeError(
            f"the pickled state of a {name} must be a dict of its fields", reason="wrong_type"
        )
    return state


def exact_settings(options: ExactOptions) -> Settings:
    """Settings for an exact entry point, which refuses the float-only ``eps_smoothing``."""
    if "eps_smoothing" in options:
        raise SettingsTypeError(
            "eps_smoothing has no exact form: it is an option of chrf.score(), not of "
            "the exact entry points",
            argument="eps_smoothing",
            reason="no_exact_form",
        )
    return settings_of(options)


def _is_fraction_type(kind: type) -> bool:
    """``kind`` is ``fractions.Fraction``, found without importing fractions: a value of it
    exists only once fractions is loaded."""
    fractions = sys.modules.get("fractions")
    return fractions is not None and kind is fractions.Fraction


def _float_of(compute: Callable[[], int | Fraction | float]) -> float:
    """The computed value as the nearest float, or ``inf`` beyond the largest (where a float
    β's own arithmetic overflows, or an int or a Fraction is too large to convert)."""
    try:
        return float(compute())
    except OverflowError:
        return math.inf


# Type checkers see the same constructor in the table's declarations (`chrf._fields.fields`).
_new = constructor(SettingsFields, Settings._checked, "Settings")
setattr(Settings, "__new__", staticmethod(_new))  # noqa: B010
_FIELDS = frozenset(FIELDS)
# Built (and compiled, with chrf-core's checks) while this module is imported, so that no call
# builds the default settings.
DEFAULT_SETTINGS = Settings()

Settings.__doc__ = with_paragraph(Settings.__doc__ or "", options_doc())
