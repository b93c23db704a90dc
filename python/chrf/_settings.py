"""The settings every chrF number depends on, validated once for every entry point."""

from __future__ import annotations

import math
import operator
from collections.abc import Callable
from dataclasses import dataclass, fields
from fractions import Fraction
from numbers import Integral, Rational
from typing import Any, TypedDict, TypeVar, overload

from chrf import _options
from chrf._core import Config
from chrf._errors import SettingsError, SettingsTypeError
from chrf._messages import shown
from chrf._numbers import is_bool
from chrf._options import (
    AVERAGINGS,
    OPTIONS,
    Averaging,
    Beta,
    Option,
    entry_point,
    options_paragraph,
    resolved,
    with_paragraph,
)

__all__ = ["AVERAGINGS", "Averaging", "Beta", "Settings", "settings_of"]
#: β's numerator and denominator may have this many bits: enough for the exact ratio of every
#: float, and few enough that signatures, "p/q" texts and error messages can write them out.
MAX_BETA_BITS = 4096
#: Orders above this are refused: every order adds a row per segment, and no segment has
#: n-grams that long anyway.
MAX_ORDER = 65_536


class ExactOptions(TypedDict, total=False):
    """The keyword arguments of every entry point; each one is documented on `Settings`
    (``whitespace`` is sacreBLEU's name of ``include_whitespace``)."""

    char_order: int
    word_order: int
    beta: Beta
    lowercase: bool
    include_whitespace: bool
    whitespace: bool
    averaging: Averaging
    count_hyp_without_ref: bool


class Options(ExactOptions, total=False):
    """`ExactOptions` plus the float-only `eps_smoothing`."""

    eps_smoothing: bool


Checked = TypeVar("Checked", bound=type)


def constructed_in_new(cls: Checked) -> Checked:
    """Moves a dataclass's generated ``__init__`` (with its ``__post_init__`` checks) into
    ``__new__``: unpickling calls ``__new__`` without ``__init__`` (pickle's NEWOBJ opcodes and
    ``copyreg.__newobj__``), and an instance made that way would skip every check. Now no
    instance exists that did not pass them: a pickle without its state, or with arguments no
    constructor takes, is refused on load. (Pickles the class writes itself call the
    constructor, see ``__reduce__``.)"""
    init: Callable[..., None] = vars(cls)["__init__"]

    def __new__(klass: type, *args: Any, **kwargs: Any) -> object:
        self: object = object.__new__(klass)
        init(self, *args, **kwargs)
        return self

    __new__.__wrapped__ = init  # type: ignore[attr-defined]  # help() shows init's signature
    setattr(cls, "__new__", staticmethod(__new__))  # noqa: B010 (mypy refuses the assignment)
    delattr(cls, "__init__")  # object.__init__ ignores the arguments once __new__ took them
    return cls


class _CompiledForm:
    """``Settings.compiled``: built on first use and stored in the instance's ``__dict__``,
    where later lookups find it without a call (a descriptor without ``__set__`` yields to it).

    Not ``functools.cached_property``: on Python 3.11 it holds a lock while it builds, and a
    process forked meanwhile copies that lock held by a thread the child does not have, so the
    child's first score would wait forever. Two threads racing here build equal configs.
    """

    @overload
    def __get__(self, instance: None, owner: type) -> _CompiledForm: ...
    @overload
    def __get__(self, instance: Settings, owner: type | None = None) -> Config: ...
    def __get__(
        self, instance: Settings | None, owner: type | None = None
    ) -> Config | _CompiledForm:
        if instance is None:
            return self
        config = Config(instance)
        instance.__dict__["compiled"] = config
        return config


@constructed_in_new
@dataclass(frozen=True, eq=False)
class Settings:
    """chrF settings (sacreBLEU's defaults): what must be reported with a score.

    Two settings are equal when they score alike: the same fields, and β of the same kind (an
    int, a float or a Fraction). ``Settings(beta=2)``, ``Settings(beta=2.0)`` and
    ``Settings(beta=Fraction(2))`` differ: their scores are named chrF2 and chrF2.0, and a
    Fraction β takes sacreBLEU's bootstrap arithmetic into double precision.
    """

    # Positional order: the pickles of `__reduce__` hold the fields in it.
    char_order: int = _options.CHAR_ORDER.default
    word_order: int = _options.WORD_ORDER.default
    beta: Beta = _options.BETA.default
    lowercase: bool = _options.LOWERCASE.default
    include_whitespace: bool = _options.INCLUDE_WHITESPACE.default
    averaging: Averaging = _options.AVERAGING.default
    eps_smoothing: bool = _options.EPS_SMOOTHING.default
    count_hyp_without_ref: bool = _options.COUNT_HYP_WITHOUT_REF.default

    def __post_init__(self) -> None:
        # Python checks each option's type and range (by the table's kind of it); chrf-core
        # checks the invariants (both orders 0, say), with their messages, below.
        for option in OPTIONS:
            checked = _CHECKS[option.kind](option, getattr(self, option.name))
            object.__setattr__(self, option.name, checked)
        if self.eps_smoothing and self.averaging != "precision_recall":
            raise SettingsError(
                "eps_smoothing=True is sacreBLEU's own per-order averaging; "
                "it cannot be combined with averaging='per_order_f'",
                argument="eps_smoothing",
                reason="incompatible",
            )
        Config(self)  # chrf-core's checks; the compiled form itself is built on first use

    def _identity(self) -> tuple[object, ...]:
        # β's kind with its value: 0.1 == Fraction(0.1), yet 1 + β² rounds differently for them.
        return (*(getattr(self, field.name) for field in fields(self)), type(self.beta))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Settings):
            return NotImplemented
        return self._identity() == other._identity()

    def __hash__(self) -> int:
        return hash(self._identity())

    #: The settings in the compiled core's terms, built on first use and kept with them (never
    #: pickled: a pickle holds the fields alone).
    compiled = _CompiledForm()

    def __reduce__(self) -> tuple[type[Settings], tuple[Any, ...]]:
        # A constructor call, which runs every check: a pickle can hold anything. The fields
        # alone: the compiled form is built again where it is used.
        return Settings, tuple(getattr(self, field.name) for field in fields(self))

    def __getstate__(self) -> dict[str, Any]:
        return {field.name: getattr(self, field.name) for field in fields(self)}

    def __setstate__(self, state: dict[str, Any]) -> None:
        # Pickles of the form Python writes by default (an object, then its state), which
        # older versions wrote: checked as construction checks.
        checked = Settings(**state_dict(state, "Settings"))
        for field in fields(self):
            object.__setattr__(self, field.name, getattr(checked, field.name))

    def options(self) -> Options:
        """The keyword arguments that give these settings back (``Settings(**s.options())``)."""
        options: Options = self.__getstate__()  # type: ignore[assignment]  # its fields
        return options

    @property
    def beta_fraction(self) -> Fraction:
        """β exactly: a float β is taken at its exact binary value."""
        return Fraction(self.beta)

    @property
    def beta_ratio(self) -> tuple[int, int]:
        """β as its (numerator, denominator), in lowest terms: the binding's form of it."""
        return self.beta_fraction.as_integer_ratio()

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
        return isinstance(self.beta, Fraction)

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
_CACHED_TYPES = frozenset({int, bool, float, str, Fraction})
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
    if not all(entry[1] in _CACHED_TYPES for entry in key):
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


Documented = TypeVar("Documented", bound=Callable[..., Any])


def with_options_doc(*, exact: bool = False) -> Callable[[Documented], Documented]:
    """A decorator appending the options' meanings and defaults to a docstring, so that
    ``help()`` of every entry point explains them; ``exact`` leaves out ``eps_smoothing``."""

    def document(documented: Documented) -> Documented:
        entry_point(documented)
        documented.__doc__ = with_paragraph(documented.__doc__ or "", options_doc(exact=exact))
        return documented

    return document


def options_doc(*, exact: bool = False) -> str:
    """The paragraph `with_options_doc` appends: each option, its default and its meaning."""
    return options_paragraph(tuple(field.name for field in fields(Settings)), exact=exact)


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


def _order(option: Option[int], value: object) -> int:
    """An order as a plain int (NumPy integers welcome; bools and floats refused)."""
    name = option.name
    if isinstance(value, bool):
        raise SettingsTypeError(
            f"{name} must be an int, not bool", argument=name, reason="wrong_type"
        )
    try:
        order = operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        raise SettingsTypeError(
            f"{name} must be an int, not {type(value).__name__}", argument=name, reason="wrong_type"
        ) from None
    if not 0 <= order <= MAX_ORDER:
        raise SettingsError(
            f"{name} must be from 0 to {MAX_ORDER}, not {shown(order)}",
            argument=name,
            reason="out_of_range",
        )
    return order


def _bool(option: Option[bool], value: object) -> bool:
    if not is_bool(value):  # NumPy bools welcome, as NumPy integers are for the orders
        raise SettingsTypeError(
            f"{option.name} must be a bool, not {type(value).__name__}",
            argument=option.name,
            reason="wrong_type",
        )
    return bool(value)


def _averaging(option: Option[Averaging], value: object) -> Averaging:
    if not isinstance(value, str) or value not in AVERAGINGS:
        raise SettingsError(
            f"averaging must be 'precision_recall' or 'per_order_f', not {shown(value)}",
            argument="averaging",
            reason="invalid_choice",
        )
    return value


def _beta(option: Option[Beta], beta: object) -> Beta:
    """β as an int, a Fraction or a float, so that `beta ** 2` is exact Python arithmetic."""
    value = _exact_beta(beta)
    if value < 0:
        raise SettingsError(
            f"beta must not be negative, not {shown(beta)}", argument="beta", reason="negative"
        )
    exact = Fraction(value)
    if max(exact.numerator.bit_length(), exact.denominator.bit_length()) > MAX_BETA_BITS:
        raise SettingsError(
            f"beta must be a ratio of integers of at most {MAX_BETA_BITS} bits, not {shown(beta)}",
            argument="beta",
            reason="out_of_range",
        )
    return value


def _exact_beta(beta: object) -> Beta:
    if isinstance(beta, bool):
        raise SettingsTypeError(
            "beta must be an int, a Fraction or a float, not bool",
            argument="beta",
            reason="wrong_type",
        )
    if isinstance(beta, Integral):
        return int(beta)
    if isinstance(beta, Rational):
        return Fraction(int(beta.numerator), int(beta.denominator))
    if isinstance(beta, float):
        if not math.isfinite(beta):
            raise SettingsError(
                f"beta must be finite, not {beta}", argument="beta", reason="not_finite"
            )
        return float(beta)
    raise SettingsTypeError(
        f"beta must be an int, a Fraction or a float, not {type(beta).__name__}",
        argument="beta",
        reason="wrong_type",
    )


def _float_of(compute: Callable[[], int | Fraction | float]) -> float:
    """The computed value as the nearest float, or ``inf`` beyond the largest (where a float
    β's own arithmetic overflows, or an int or a Fraction is too large to convert)."""
    try:
        return float(compute())
    except OverflowError:
        return math.inf


_CHECKS: dict[str, Callable[[Any, object], Any]] = {
    "order": _order,
    "beta": _beta,
    "bool": _bool,
    "choice": _averaging,
}
_FIELDS = frozenset(field.name for field in fields(Settings))
DEFAULT_SETTINGS = Settings()
# Compiled while this module is imported (the fork hook, `chrf._threads.before_fork`, waits
# for an import under way), not in a call that a fork from another thread could interrupt.
_ = DEFAULT_SETTINGS.compiled

Settings.__doc__ = with_paragraph(Settings.__doc__ or "", options_doc())
