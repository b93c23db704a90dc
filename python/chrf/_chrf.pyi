"""Type stubs of the compiled module `chrf._chrf` (rust/chrf-py)."""

from fractions import Fraction
from typing import TypeAlias

RawOrder: TypeAlias = tuple[
    str, int, int, int, int, bool, Fraction | None, Fraction | None, Fraction | None
]
RawComponents: TypeAlias = tuple[list[RawOrder], int, Fraction, Fraction, Fraction, str, bool]

class Config:
    def __new__(
        cls,
        *,
        char_order: int,
        word_order: int,
        beta_squared: Fraction,
        factor: float,
        one_plus_factor: float,
        lowercase: bool,
        include_whitespace: bool,
        averaging: str,
        eps_smoothing: bool,
        count_hyp_without_ref: bool,
    ) -> Config: ...

def corpus_score(
    config: Config, hypotheses: list[object], references: list[list[object]], nested: bool
) -> float: ...
def corpus_components(
    config: Config, hypotheses: list[object], references: list[list[object]], nested: bool
) -> RawComponents: ...
