"""The errors chrf raises for what it is given: one family under `ChrfError`, each class keeping
the built-in base (ValueError or TypeError) that callers already catch.

The compiled module raises these same classes (it looks them up once, when it is loaded), so an
error has the same class and fields whichever layer found it. This module imports nothing of the
package: the compiled module imports it while it loads.
"""

from __future__ import annotations


class ChrfError(Exception):
    """The base of the errors chrf raises for a bad argument.

    Its subclasses keep the built-in base that chrf raised before they existed, so
    ``except ValueError`` and ``except TypeError`` still catch them. Out-of-memory stays
    `MemoryError`, and a count beyond 128 bits `OverflowError`: neither is in this family.

    Attributes:
        argument: The public argument at fault, as the caller named it (``"hypotheses"``,
            ``"references"``, ``"char_order"``), or None when the fault lies between
            arguments or in no one of them.
        index: For an error in one segment, its index (hypothesis ``i``, whatever the
            references' layout); otherwise None.
        reason: A short machine-readable code of what is wrong (``"not_a_string"``,
            ``"empty"``, ``"orders_both_zero"``; docs/python-api.md lists them), or None.
    """

    argument: str | None
    index: int | None
    reason: str | None

    def __init__(
        self,
        message: str,
        *,
        argument: str | None = None,
        index: int | None = None,
        reason: str | None = None,
    ) -> None:
        super().__init__(message)
        self.argument = argument
        self.index = index
        self.reason = reason


class InputError(ChrfError, ValueError):
    """A value of the texts or data scored (hypotheses, references, weights, statistics) that
    chrf refuses: an empty text, a stream of the wrong length, a segment with no reference."""


class InputTypeError(ChrfError, TypeError):
    """A text or data argument of the wrong type: a hypothesis that is not a str, a set where a
    sequence is needed."""


class SettingsError(ChrfError, ValueError):
    """A setting outside its domain (``char_order=99``, ``beta=-1``), or settings that do not go
    together (both orders 0)."""


class SettingsTypeError(ChrfError, TypeError):
    """A setting of the wrong type (``char_order="6"``), or a keyword no function takes."""


def argument_of(name: str) -> str:
    """The public argument of an item's name: ``weights`` of ``weights[2][0]``."""
    return name.partition("[")[0]
