"""Values as error messages show them: short, and never an error of their own."""

from __future__ import annotations

import sys

TYPE_CHECKING = False  # not typing's own: the first score would import typing
if TYPE_CHECKING:
    from fractions import Fraction

#: Characters of a value's repr an error message shows; the rest is elided.
SHOWN_CHARS = 60
#: Integers wider than this are described, not written out: writing them takes time quadratic in
#: their length, and beyond Python's int-to-str digit limit it raises ValueError.
SHOWN_BITS = 256


def shown(value: object) -> str:
    """A short form of any value for an error message: its repr, cut to `SHOWN_CHARS`
    characters, or a description when the repr is huge or fails."""
    if isinstance(value, int) and value.bit_length() > SHOWN_BITS:
        return f"{'a negative' if value < 0 else 'an'} int of {value.bit_length()} bits"
    fractions = sys.modules.get("fractions")  # a Fraction exists only once fractions is loaded
    if fractions and isinstance(value, fractions.Fraction) and _bits(value) > SHOWN_BITS:
        return f"a Fraction with a {_bits(value)}-bit numerator or denominator"
    try:
        text = repr(value)
    except Exception:  # a failing repr: a list holding a huge int, a broken __repr__
        return f"a {type(value).__name__} that cannot be shown"
    return text if len(text) <= SHOWN_CHARS else text[: SHOWN_CHARS - 3] + "..."


def counted(count: int, noun: str) -> str:
    """``1 segment``, ``2 segments``: a count with its noun in the right number."""
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def _bits(value: Fraction) -> int:
    return max(value.numerator.bit_length(), value.denominator.bit_length())


def missing_extra(module: str, extra: str, error: ImportError) -> ImportError:
    """The error an integration module raises when its framework does not import: it names the
    extra whose pins give a working set (the bare error names a package deep in the framework's
    own imports, or a version clash, and says nothing of chrf's extras)."""
    message = f"{module} needs the {extra!r} extra: pip install 'chrf[{extra}]' ({error})"
    if isinstance(error, ModuleNotFoundError):
        return ModuleNotFoundError(message, name=error.name)
    return ImportError(message, name=error.name)
