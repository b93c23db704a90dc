"""Corpus statistics as a value: add shards, pickle them, score the sum."""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterable
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any, TypeVar

from chrf import _core
from chrf._errors import InputError, InputTypeError, SettingsError, argument_of
from chrf._keywords import entry_point
from chrf._messages import shown
from chrf._numbers import is_bool
from chrf._settings import Settings, settings_of, state_dict

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray
    from typing_extensions import Unpack

    from chrf._components import Components
    from chrf._core import Counts
    from chrf._settings import Options

#: The compiled core counts in 128 bits.
MAX_COUNT = 2**128 - 1
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


@constructed_in_new
@dataclass(frozen=True)
class Statistics:
    """The per-order counts of a set of segments, with the settings that produced them.

    Statistics of disjoint shards add up to those of their union, so a corpus can be scored in
    pieces, anywhere, and merged: ``sum(shards).score() == chrf.score(whole corpus)``. Only
    statistics computed with equal settings add (β and eps smoothing choose among several
    references, so every setting counts). ``a - b`` takes a part back out (leave-one-out).

    ``counts[n]`` is order n's (hypothesis, reference, matching) n-gram counts, character
    orders first, as exact Python ints (chrf counts in 128 bits); :meth:`to_array` gives them as
    a NumPy array. Statistics computed elsewhere (one row of :func:`chrf.segment_statistics`,
    counts kept by another framework) become a value with :meth:`from_counts`.
    """

    settings: Settings
    counts: Counts
    segment_count: int

    # NumPy defers to our operators: `stats + array` is a TypeError, not an object array.
    __array_ufunc__ = None

    def __post_init__(self) -> None:
        """Checks what holds for every real statistics, so that tampered ones are refused:
        counts are ints of 128 bits at most, one triple per order, and matches never outnumber
        hypothesis or reference n-grams (under either rule of spec §1.4)."""
        if not isinstance(self.settings, Settings):
            raise InputTypeError(
                f"settings must be a chrf.Settings, not {type(self.settings).__name__}",
                argument="settings",
                reason="wrong_type",
            )
        counts = _counts(self.counts, self.settings.order_count)
        segment_count = _count(self.segment_count, "segment_count")
        if segment_count == 0 and any(any(order) for order in counts):
            raise InputError(
                "0 segments cannot have n-grams: counts must all be 0",
                argument="counts",
                reason="inconsistent",
            )
        object.__setattr__(self, "counts", counts)
        object.__setattr__(self, "segment_count", segment_count)

    def __reduce__(self) -> tuple[type[Statistics], tuple[Settings, Counts, int]]:
        # A constructor call, which runs every check: a pickle can hold anything.
        return Statistics, (self.settings, self.counts, self.segment_count)

    def __setstate__(self, state: dict[str, Any]) -> None:
        # Pickles of the form Python writes by default (an object, then its state), which
        # older versions wrote: checked as construction checks.
        checked = Statistics(**state_dict(state, "Statistics"))
        for field in fields(self):
            object.__setattr__(self, field.name, getattr(checked, field.name))

    def __add__(self, other: Statistics) -> Statistics:
        if not isinstance(other, Statistics):
            return NotImplemented
        self._check_same_settings(other, "add")
        counts = tuple(
            (h1 + h2, r1 + r2, m1 + m2)
            for (h1, r1, m1), (h2, r2, m2) in zip(self.counts, other.counts, strict=True)
        )
        return Statistics(self.settings, counts, self.segment_count + other.segment_count)

    def __sub__(self, other: Statistics) -> Statistics:
        """These statistics without ``other``, a part of them (leave-one-out)."""
        if not isinstance(other, Statistics):
            return NotImplemented
        self._check_same_settings(other, "subtract")
        counts = tuple(
            (h1 - h2, r1 - r2, m1 - m2)
            for (h1, r1, m1), (h2, r2, m2) in zip(self.counts, other.counts, strict=True)
        )
        try:
            return Statistics(self.settings, counts, self.segment_count - other.segment_count)
        except ValueError as error:
            raise InputError(
                f"cannot subtract statistics that are not part of these: {error}",
                reason="not_a_part",
            ) from None

    def __radd__(self, other: object) -> Statistics:
        # Lets the built-in sum() start from its default 0.
        if type(other) is int and other == 0:
            return self
        return NotImplemented

    def _check_same_settings(self, other: Statistics, verb: str) -> None:
        mine, theirs = self.settings, other.settings
        if mine != theirs:
            raise SettingsError(
                f"cannot {verb} statistics of different settings: {mine} and {theirs}",
                reason="mismatch",
            )

    @classmethod
    @entry_point
    def from_counts(
        cls, counts: object, *, segment_count: int, **options: Unpack[Options]
    ) -> Statistics:
        """Statistics from counts: ``counts[n]`` is order n's (hypothesis, reference, matching)
        n-gram counts, character orders first (a NumPy integer array of shape (orders, 3), or
        nested sequences of ints), of ``segment_count`` segments scored with ``options``
        (the keyword options of :func:`chrf.score`). Counts no statistics could hold are a
        ValueError: negative, matches above either count, the wrong number of orders."""
        return cls(settings_of(options), counts, segment_count)  # type: ignore[arg-type]

    def to_array(self) -> NDArray[np.uint64]:
        """The counts as a uint64 array of shape (orders, 3); OverflowError if one exceeds
        2**64 - 1 (``counts`` holds them exactly at any size)."""
        import numpy as np

        if any(value > 2**64 - 1 for order in self.counts for value in order):
            raise OverflowError("a count exceeds 2**64 - 1: use .counts, which is exact")
        return np.array(self.counts, dtype=np.uint64).reshape(len(self.counts), 3)

    @staticmethod
    def total(parts: Iterable[Statistics]) -> Statistics:
        """The sum of one or more statistics."""
        items = list(parts)
        if not items:
            raise InputError(
                "total() needs at least one Statistics", argument="parts", reason="empty"
            )
        for i, item in enumerate(items):
            if not isinstance(item, Statistics):
                raise InputTypeError(
                    f"parts[{i}] must be a Statistics, not {type(item).__name__}",
                    argument="parts",
                    reason="wrong_type",
                )
        return sum(items[1:], items[0])

    def score(self) -> float:
        """The float score, as :func:`chrf.score` gives it for these segments."""
        return _core.score_of(self.settings.compiled, list(self.counts))

    def components(self) -> Components:
        """The exact components, as :func:`chrf.components` gives them for these segments."""
        if self.settings.eps_smoothing:
            raise SettingsError(
                "statistics with eps_smoothing=True have a float score only",
                argument="eps_smoothing",
                reason="no_exact_form",
            )
        from chrf._components import components_of  # fractions: not needed for a float score

        return components_of(self.settings, self.counts, self.segment_count)


def _counts(counts: object, order_count: int) -> Counts:
    if isinstance(counts, (str, bytes)) or not isinstance(counts, Iterable):
        raise InputTypeError(
            f"counts must be a sequence of count triples, not {type(counts).__name__}",
            argument="counts",
            reason="wrong_type",
        )
    rows = list(counts)
    if len(rows) != order_count:
        raise InputError(
            f"counts hold {len(rows)} orders but the settings have {order_count}",
            argument="counts",
            reason="shape_mismatch",
        )
    return tuple(_order_counts(row, f"counts[{n}]") for n, row in enumerate(rows))


def _order_counts(row: object, name: str) -> tuple[int, int, int]:
    triple = f"{name} must be 3 counts (hypothesis, reference, matching n-grams)"
    if isinstance(row, (str, bytes)) or not isinstance(row, Iterable):
        raise InputTypeError(
            f"{triple}, not {type(row).__name__}", argument="counts", reason="wrong_type"
        )
    values = list(row)
    if len(values) != 3:
        raise InputError(f"{triple}, not {len(values)}", argument="counts", reason="shape_mismatch")
    hypothesis, reference, matching = (
        _count(value, f"{name} {kind} count")
        for value, kind in zip(values, ("hypothesis", "reference", "matching"), strict=True)
    )
    if matching > min(hypothesis, reference):
        raise InputError(
            f"{name} has {matching} matching n-grams but {hypothesis} hypothesis and "
            f"{reference} reference n-grams: matches cannot outnumber either",
            argument="counts",
            reason="inconsistent",
        )
    return hypothesis, reference, matching


def _count(value: object, name: str) -> int:
    """A count as a plain int: NumPy integers are taken exactly, bools and floats refused."""
    if is_bool(value):
        raise InputTypeError(
            f"{name} must be an int, not bool", argument=argument_of(name), reason="wrong_type"
        )
    try:
        count = operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        raise InputTypeError(
            f"{name} must be an int, not {type(value).__name__}",
            argument=argument_of(name),
            reason="wrong_type",
        ) from None
    if count < 0:
        raise InputError(
            f"{name} must not be negative, not {shown(count)}",
            argument=argument_of(name),
            reason="negative",
        )
    if count > MAX_COUNT:
        raise InputError(
            f"{name} must be at most 2**128 - 1, not {shown(count)}",
            argument=argument_of(name),
            reason="out_of_range",
        )
    return count
