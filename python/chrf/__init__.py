"""chrF and chrF++ for machine translation: sacreBLEU's numbers bit for bit, exact fractions, fast.

>>> import chrf
>>> chrf.score(["aa"], ["ab"], beta=3)
25.0
>>> chrf.components(["aa"], ["ab"], beta=3).score
'25.000000'
"""

from __future__ import annotations

import importlib

from chrf._core import VERSION
from chrf._threads import (
    configure_from_environment,
    get_num_threads,
    register_fork_hook,
    set_num_threads,
)

# Not typing's own: ``import chrf`` would import typing, most of its cost where the interpreter
# has not imported it yet. Type checkers take any constant of this name for typing's.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from chrf._analysis import compare, explain
    from chrf._api import components, score, statistics
    from chrf._batch import (
        aggregate,
        aggregate_batched,
        pairwise,
        pairwise_batched,
        segment_statistics,
        sentence_scores,
    )
    from chrf._compare import Comparison
    from chrf._components import Components, OrderComponents
    from chrf._errors import (
        ChrfError,
        InputError,
        InputTypeError,
        SettingsError,
        SettingsTypeError,
    )
    from chrf._evaluate import compute, evaluate_module
    from chrf._explain import Explanation
    from chrf._mbr import MBRResult, expected_utility, expected_utility_batched, mbr, mbr_batched
    from chrf._sacrebleu import CHRF, CHRFScore, CHRFSignature
    from chrf._selftest import SelfTestError, selftest
    from chrf._settings import Settings
    from chrf._statistics import Statistics
    from chrf._words import words

__version__ = VERSION

#: Where each public name lives. They are imported on first use: ``import chrf`` loads the
#: compiled module and the thread settings only, and each entry point pays for its own modules
#: (dataclasses, fractions, json, NumPy) when it is first called.
_HOMES = {
    "CHRF": "chrf._sacrebleu",
    "CHRFScore": "chrf._sacrebleu",
    "CHRFSignature": "chrf._sacrebleu",
    "ChrfError": "chrf._errors",
    "Comparison": "chrf._compare",
    "Components": "chrf._components",
    "Explanation": "chrf._explain",
    "InputError": "chrf._errors",
    "InputTypeError": "chrf._errors",
    "MBRResult": "chrf._mbr",
    "OrderComponents": "chrf._components",
    "SelfTestError": "chrf._selftest",
    "Settings": "chrf._settings",
    "SettingsError": "chrf._errors",
    "SettingsTypeError": "chrf._errors",
    "Statistics": "chrf._statistics",
    "aggregate": "chrf._batch",
    "aggregate_batched": "chrf._batch",
    "compare": "chrf._analysis",
    "components": "chrf._api",
    "compute": "chrf._evaluate",
    "evaluate_module": "chrf._evaluate",
    "expected_utility": "chrf._mbr",
    "expected_utility_batched": "chrf._mbr",
    "explain": "chrf._analysis",
    "mbr": "chrf._mbr",
    "mbr_batched": "chrf._mbr",
    "pairwise": "chrf._batch",
    "pairwise_batched": "chrf._batch",
    "score": "chrf._api",
    "segment_statistics": "chrf._batch",
    "selftest": "chrf._selftest",
    "sentence_scores": "chrf._batch",
    "statistics": "chrf._api",
    "words": "chrf._words",
}

#: Public submodules without heavy dependencies, imported on first use as ``chrf.NAME`` (the
#: others, such as ``chrf.torchmetrics``, are imported by name, as their frameworks are).
_SUBMODULES = frozenset({"rewards"})

__all__ = [
    "CHRF",
    "CHRFScore",
    "CHRFSignature",
    "ChrfError",
    "Comparison",
    "Components",
    "Explanation",
    "InputError",
    "InputTypeError",
    "MBRResult",
    "OrderComponents",
    "SelfTestError",
    "Settings",
    "SettingsError",
    "SettingsTypeError",
    "Statistics",
    "aggregate",
    "aggregate_batched",
    "compare",
    "components",
    "compute",
    "evaluate_module",
    "expected_utility",
    "expected_utility_batched",
    "explain",
    "get_num_threads",
    "mbr",
    "mbr_batched",
    "pairwise",
    "pairwise_batched",
    "score",
    "segment_statistics",
    "selftest",
    "sentence_scores",
    "set_num_threads",
    "statistics",
    "words",
]


def __getattr__(name: str) -> Any:
    if name in _SUBMODULES:
        return importlib.import_module(f"chrf.{name}")  # the import sets the attribute
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'chrf' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value  # the next lookup is an ordinary attribute
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_HOMES, *_SUBMODULES})


configure_from_environment()
register_fork_hook()
