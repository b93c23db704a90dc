"""Type stubs of the compiled module `chrf._chrf` (rust/chrf-py)."""

from fractions import Fraction
from typing import TypeAlias

import numpy as np
from numpy.typing import NDArray

RawOrder: TypeAlias = tuple[
    str, int, int, int, int, bool, Fraction | None, Fraction | None, Fraction | None
]
RawComponents: TypeAlias = tuple[list[RawOrder], int, Fraction, Fraction, Fraction, str, bool]

__version__: str

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

def corpus_statistics(
    config: Config, hypotheses: list[object], references: list[list[object]], nested: bool
) -> list[tuple[int, int, int]]: ...
def segment_statistics(
    config: Config, hypotheses: list[object], references: list[list[object]], nested: bool
) -> NDArray[np.uint64]: ...
def score_of(config: Config, counts: list[tuple[int, int, int]]) -> float: ...
def components_of(config: Config, counts: list[tuple[int, int, int]]) -> RawComponents: ...
def resampled_scores(
    config: Config, segment_statistics: NDArray[np.uint64], picks: NDArray[np.int64]
) -> tuple[NDArray[np.float64], NDArray[np.bool_]]: ...
def sentence_scores(
    config: Config, hypotheses: list[object], references: list[list[object]], nested: bool
) -> NDArray[np.float64]: ...
def pairwise(
    config: Config, hypotheses: list[list[object]], references: list[list[object]]
) -> NDArray[np.float64]: ...
def aggregate(
    config: Config,
    hypotheses: list[list[object]],
    references: list[list[object]],
    weights: list[list[int] | None] | None,
) -> NDArray[np.float64]: ...
def thread_count() -> int: ...
def set_thread_count(threads: int | None, /) -> None: ...
def max_thread_count() -> int: ...
def randomization_scores(
    config: Config,
    baseline: NDArray[np.uint64],
    system: NDArray[np.uint64],
    swaps: NDArray[np.bool_],
) -> tuple[NDArray[np.float64], NDArray[np.float64]]: ...
