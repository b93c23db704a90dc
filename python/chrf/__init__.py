"""chrF and chrF++ for machine translation: sacreBLEU's numbers bit for bit, exact fractions, fast.

>>> import chrf
>>> chrf.score(["aa"], ["ab"], beta=3)
25.0
>>> chrf.components(["aa"], ["ab"], beta=3).score
'25.000000'
"""

from chrf._api import components, score
from chrf._components import Components, OrderComponents
from chrf._selftest import SelfTestError, check_at_import, selftest
from chrf._settings import Settings

__all__ = [
    "Components",
    "OrderComponents",
    "SelfTestError",
    "Settings",
    "components",
    "score",
    "selftest",
]

check_at_import()
