"""The option table: `Settings`' fields, each declared once with its default, its meaning, its
command-line flags, its names in sacreBLEU, evaluate, torchmetrics and mbrs, and its kind: what
its value is, how Python checks it and how the command line reads it.

From it come `Settings`' constructor, checks, defaults, repr, equality and pickles
(chrf._settings), the typed keywords of the functions (`Options`, here: type checkers need them
written out), the command line's flags and their parsing (chrf.cli.arguments, chrf.cli.options),
the drop-in's and the integrations' mappings of their keyword arguments, the aliases and the
refused names of the functions' keywords (chrf._keywords), the signature's fields of the
options sacreBLEU lacks (chrf._signature), and the options paragraph of ``help()`` and of the API
reference (chrf._fields.options_paragraph). How a declaration becomes all that: chrf._fields.

Standard library only at import, and nothing of chrf but chrf._fields (the kinds import chrf's
errors when they raise one): the documentation site's Griffe extension (docs/griffe_chrf.py)
loads this file by its path, without the compiled extension.
"""

from __future__ import annotations

import math
import operator
from numbers import Integral, Rational

from chrf._fields import Kind, Option, fields, option

# Not typing's own: the first score would import typing (see chrf/__init__.py); type checkers
# take any constant of this name for typing's.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from fractions import Fraction
    from typing import Any, Literal, NoReturn, TypeAlias, TypedDict

    from chrf._fields import Library

    Averaging: TypeAlias = Literal["precision_recall", "per_order_f"]
    Beta: TypeAlias = int | Fraction | float

    class OwnOptions(TypedDict, total=False):
        """The options sacreBLEU lacks: the drop-in `CHRF`'s keyword arguments."""

        averaging: Averaging
        count_hyp_without_ref: bool

    class ExactOptions(OwnOptions, total=False):
        """The keyword arguments of every entry point; each one is documented on `Settings`
        (``whitespace`` is sacreBLEU's name of ``include_whitespace``)."""

        char_order: int
        word_order: int
        beta: Beta
        lowercase: bool
        include_whitespace: bool
        whitespace: bool

    class Options(ExactOptions, total=False):
        """`ExactOptions` plus the float-only `eps_smoothing`."""

        eps_smoothing: bool

else:
    # Annotations only: the names exist for the modules that import them.
    Averaging = Beta = Library = object
    ExactOptions = Options = OwnOptions = dict

AVERAGINGS: tuple[Averaging, ...] = ("precision_recall", "per_order_f")
#: β's numerator and denominator may have this many bits: enough for the exact ratio of every
#: float, and few enough that signatures, "p/q" texts and error messages can write them out.
MAX_BETA_BITS = 4096
#: Orders above this are refused: every order adds a row per segment, and no segment has
#: n-grams that long anyway.
MAX_ORDER = 65_536


# The kinds: each one's check (Python's, of any value a user gives) and its command-line reading
# (an argparse `type=` function: a bad value is argparse's one-line error naming the flag, with
# exit status 2, before any input is read). chrf-core checks the invariants across options.


def _refused(message: str, name: str, reason: str, *, wrong_type: bool = False) -> NoReturn:
    from chrf._errors import SettingsError, SettingsTypeError  # on error only

    raise (SettingsTypeError if wrong_type else SettingsError)(
        message, argument=name, reason=reason
    )


def _shown(value: object) -> str:
    from chrf._messages import shown  # on error only

    return shown(value)


def _unreadable(message: str) -> Exception:
    import argparse  # on the command line's error only (it has imported argparse already)

    return argparse.ArgumentTypeError(message)


def check_order(option: Option[int], value: object) -> int:
    """An order as a plain int (NumPy integers welcome; bools and floats refused)."""
    name = option.name
    if isinstance(value, bool):
        _refused(f"{name} must be an int, not bool", name, "wrong_type", wrong_type=True)
    try:
        order = operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        message = f"{name} must be an int, not {type(value).__name__}"
        _refused(message, name, "wrong_type", wrong_type=True)
    if not 0 <= order <= MAX_ORDER:
        _refused(f"{name} must be from 0 to {MAX_ORDER}, not {_shown(order)}", name, "out_of_range")
    return order


def read_order(text: str) -> int:
    """-cc and -cw: the orders Settings takes."""
    try:
        value: int | None = int(text)
    except ValueError:  # not an integer, or more digits than Python converts
        value = None
    if value is None or not 0 <= value <= MAX_ORDER:
        raise _unreadable(f"must be an integer from 0 to {MAX_ORDER}, not {_shown(text)}")
    return value


def check_bool(option: Option[bool], value: object) -> bool:
    from chrf._numbers import is_bool  # NumPy bools welcome, as NumPy integers are for orders

    if not is_bool(value):
        message = f"{option.name} must be a bool, not {type(value).__name__}"
        _refused(message, option.name, "wrong_type", wrong_type=True)
    return bool(value)


def check_averaging(option: Option[Averaging], value: object) -> Averaging:
    if not isinstance(value, str) or value not in AVERAGINGS:
        message = f"averaging must be 'precision_recall' or 'per_order_f', not {_shown(value)}"
        _refused(message, "averaging", "invalid_choice")
    return value


def check_beta(option: Option[Beta], beta: object) -> Beta:
    """β as an int, a Fraction or a float, so that `beta ** 2` is exact Python arithmetic."""
    value = _exact_beta(beta)
    if value < 0:
        _refused(f"beta must not be negative, not {_shown(beta)}", "beta", "negative")
    if max(part.bit_length() for part in ratio(value)) > MAX_BETA_BITS:
        message = (
            f"beta must be a ratio of integers of at most {MAX_BETA_BITS} bits, not {_shown(beta)}"
        )
        _refused(message, "beta", "out_of_range")
    return value


def _exact_beta(beta: object) -> Beta:
    if isinstance(beta, bool):
        message = "beta must be an int, a Fraction or a float, not bool"
        _refused(message, "beta", "wrong_type", wrong_type=True)
    if isinstance(beta, Integral):
        return int(beta)
    if isinstance(beta, Rational):
        from fractions import Fraction  # only for a rational β: fractions is loaded already

        return Fraction(int(beta.numerator), int(beta.denominator))
    if isinstance(beta, float):
        if not math.isfinite(beta):
            _refused(f"beta must be finite, not {beta}", "beta", "not_finite")
        return float(beta)
    message = f"beta must be an int, a Fraction or a float, not {type(beta).__name__}"
    _refused(message, "beta", "wrong_type", wrong_type=True)


def ratio(beta: Beta) -> tuple[int, int]:
    """A checked β (an int, a float or a Fraction) as its numerator and denominator, reduced."""
    if isinstance(beta, int):
        return beta, 1
    if isinstance(beta, float):
        return beta.as_integer_ratio()
    return beta.numerator, beta.denominator


def read_beta(text: str) -> Beta:
    """--chrf-beta: an integer, a fraction p/q (read exactly) or a decimal (read as the nearest
    float), at least 0 (0 is chrF0, precision only), finite, and a ratio of integers of at most
    `MAX_BETA_BITS` bits as Settings requires."""
    from fractions import Fraction

    value = _beta_value(text)
    if value < 0:
        raise _unreadable(f"must not be negative, not {_shown(text)}")
    exact = Fraction(value)
    if max(exact.numerator.bit_length(), exact.denominator.bit_length()) > MAX_BETA_BITS:
        raise _too_wide(text)
    return value if value != 0 else type(value)(0)  # -0.0 is 0.0


def _beta_value(text: str) -> Beta:
    import re  # the command line's only: a score imports no re

    if "/" in text:
        from fractions import Fraction

        try:
            return Fraction(text)
        except (ValueError, ZeroDivisionError):  # also more digits than Python converts
            raise _unreadable(
                f"must be p/q with integers p and q, q not 0, not {_shown(text)}"
            ) from None
    if re.fullmatch(r"\s*[+-]?\d[\d_]*\s*", text):
        try:
            return int(text)
        except ValueError:  # more digits than Python converts: far wider than MAX_BETA_BITS
            raise _too_wide(text) from None
    try:
        value = float(text)
    except ValueError:
        raise _unreadable(
            f"must be a number (an integer, p/q or a decimal), not {_shown(text)}"
        ) from None
    if not math.isfinite(value):
        raise _unreadable(
            f"must be a finite number, not {_shown(text)}"
            + ("" if re.search(r"(?i)nan|inf", text) else " (beyond the largest float)")
        )
    if value == 0 and re.search(r"[1-9]", text.lower().partition("e")[0]):
        raise _unreadable(
            f"{_shown(text)} is too small for a float (it would be 0, chrF0): write it as p/q"
        )
    return value


def _too_wide(text: str) -> Exception:
    return _unreadable(
        f"must be a ratio of integers of at most {MAX_BETA_BITS} bits, not {_shown(text)}"
    )


ORDER: Kind[int] = Kind("order", check_order, {"type": read_order})
BETA: Kind[Beta] = Kind("beta", check_beta, {"type": read_beta})
BOOL: Kind[bool] = Kind("bool", check_bool, {"action": "store_true"})
CHOICE: Kind[Averaging] = Kind("choice", check_averaging, {"choices": AVERAGINGS})


def _same(name: str, *libraries: Library) -> dict[Library, str]:
    return dict.fromkeys(libraries, name)


_LIBRARIES: tuple[Library, ...] = ("sacrebleu", "evaluate", "torchmetrics", "mbrs")


@fields
class SettingsFields:
    """`Settings`' fields, in the order of its positional arguments (which pickles hold): each
    option's declaration. `chrf._settings.Settings` is this class with its behaviour."""

    __slots__ = ()

    char_order: int = option(
        ORDER,
        default=6,
        meaning="character n-gram orders 1..char_order (0: none).",
        flags=("--chrf-char-order", "--char-order", "-cc"),
        help="character n-gram orders",
        names={
            **_same("char_order", "sacrebleu", "evaluate", "mbrs", "contract"),
            "torchmetrics": "n_char_order",
        },
    )
    word_order: int = option(
        ORDER,
        default=0,
        meaning="word n-gram orders 1..word_order (0: none; 2 is chrF++).",
        flags=("--chrf-word-order", "--word-order", "-cw"),
        help="word n-gram orders (2: chrF++)",
        names={
            **_same("word_order", "sacrebleu", "evaluate", "mbrs", "contract"),
            "torchmetrics": "n_word_order",
        },
    )
    beta: Beta = option(
        BETA,
        default=2,
        meaning="weight of recall against precision (0: precision only): an int, a Fraction, or "
        "a float taken at its exact binary value.",
        flags=("--chrf-beta", "--beta"),
        help="recall's weight: an integer, a fraction p/q or a decimal (0: precision only)",
        names=_same("beta", *_LIBRARIES, "contract"),
    )
    lowercase: bool = option(
        BOOL,
        default=False,
        meaning="lowercase with Python's str.lower() (full Unicode) before everything.",
        flags=("--chrf-lowercase",),
        help="lowercase before scoring (Python's str.lower())",
        names=_same("lowercase", *_LIBRARIES, "contract"),
        refused=("lowercased", "lower"),
    )
    include_whitespace: bool = option(
        BOOL,
        default=False,
        meaning="keep whitespace in character n-grams.",
        flags=("--chrf-whitespace", "--whitespace"),
        help="keep whitespace in character n-grams",
        names={**_same("whitespace", *_LIBRARIES), "contract": "include_whitespace"},
    )
    averaging: Averaging = option(
        CHOICE,
        default="precision_recall",
        meaning="'precision_recall' (sacreBLEU 2.x: average precision and recall over the "
        "orders, then F) or 'per_order_f' (Popović's chrF++.py: the mean of per-order F).",
        flags=("--averaging",),
        help="sacreBLEU's F of mean precision and recall, or chrF++.py's mean per-order F",
        names=_same("averaging", "contract"),
        signature=("avg", "a", None),
    )
    eps_smoothing: bool = option(
        BOOL,
        default=False,
        meaning="sacreBLEU's float eps smoothing of orders without matches; float scores only, "
        "it has no exact form.",
        flags=("--chrf-eps-smoothing", "--eps-smoothing"),
        help="sacreBLEU's eps smoothing (float only)",
        names=_same("eps_smoothing", "sacrebleu", "evaluate", "mbrs"),
        refused=("eps",),
        exact=False,
    )
    count_hyp_without_ref: bool = option(
        BOOL,
        default=False,
        meaning="spec §1.4's rule: with False (sacreBLEU's rule) a segment whose reference has "
        "no n-gram of order n contributes no hypothesis n-grams of that order; with True (the "
        "JSON contract's rule) every hypothesis n-gram counts.",
        flags=("--count-hyp-without-ref",),
        help="count hypothesis n-grams of orders the reference lacks (the JSON contract's rule)",
        names={},
        signature=("hypnoref", "hnr", "count"),
    )


#: Each option, in `Settings`' order of its fields.
DECLARED: tuple[Option[Any], ...] = SettingsFields.__options__  # type: ignore[attr-defined]
#: `Settings`' fields in the order of its positional arguments, which pickles hold.
FIELDS = tuple(option.name for option in DECLARED)
#: Every option, in the command line's order: sacreBLEU's first, then the options it lacks.
OPTIONS: tuple[Option[Any], ...] = tuple(
    sorted(DECLARED, key=lambda option: "sacrebleu" not in option.names)
)
BY_NAME: dict[str, Option[Any]] = {option.name: option for option in OPTIONS}
#: sacreBLEU's (and evaluate's, and torchmetrics') names that chrf's functions take as well.
ALIASES = {
    other: option.name
    for option in OPTIONS
    if (other := option.names.get("sacrebleu", option.name)) != option.name
}
