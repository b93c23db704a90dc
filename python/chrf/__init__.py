"""chrF and chrF++ for machine translation: sacreBLEU's numbers bit for bit, exact fractions, fast.

>>> import chrf
>>> chrf.score(["aa"], ["ab"], beta=3)
25.0
>>> chrf.components(["aa"], ["ab"], beta=3).score
'25.000000'
"""

import importlib
from typing import TYPE_CHECKING, Any

from chrf import _sacrebleu
from chrf._api import components, score, statistics
from chrf._batch import (
    aggregate,
    aggregate_batched,
    pairwise,
    pairwise_batched,
    segment_statistics,
    sentence_scores,
)
from chrf._components import Components, OrderComponents
from chrf._evaluate import compute
from chrf._sacrebleu import CHRF, CHRFScore, CHRFSignature
from chrf._selftest import SelfTestError, check_at_import, selftest
from chrf._settings import Settings
from chrf._statistics import Statistics
from chrf._threads import configure_from_environment, get_num_threads, set_num_threads

if TYPE_CHECKING:
    from chrf._compare import Comparison, compare
    from chrf._explain import Explanation, explain

__version__ = _sacrebleu.VERSION

#: Loaded on first use, with NumPy: `import chrf` stays light.
_LAZY = {
    "Comparison": "chrf._compare",
    "compare": "chrf._compare",
    "Explanation": "chrf._explain",
    "explain": "chrf._explain",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'chrf' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)


__all__ = [
    "CHRF",
    "CHRFScore",
    "CHRFSignature",
    "Comparison",
    "Components",
    "Explanation",
    "OrderComponents",
    "SelfTestError",
    "Settings",
    "Statistics",
    "aggregate",
    "aggregate_batched",
    "compare",
    "components",
    "compute",
    "explain",
    "get_num_threads",
    "pairwise",
    "pairwise_batched",
    "score",
    "segment_statistics",
    "selftest",
    "sentence_scores",
    "set_num_threads",
    "statistics",
]

configure_from_environment()
check_at_import()
