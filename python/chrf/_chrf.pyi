"""Type stubs of the compiled module `chrf._chrf` (rust/chrf-py)."""

from collections.abc import Sequence
from fractions import Fraction
from typing import Literal, overload

import numpy as np
from numpy.typing import NDArray

from chrf._settings import Settings

__version__: str

class Config:
    """A chrf.Settings in the core's terms: reads the settings' attributes."""

    def __new__(cls, settings: Settings, /) -> Config: ...

class ExactOrder:
    kind: str
    n: int
    hypothesis: int
    reference: int
    matching: int
    effective: bool
    precision: Fraction | None
    recall: Fraction | None
    f_score: Fraction | None

class ExactComponents:
    orders: list[ExactOrder]
    effective_order_count: int
    average_precision: Fraction
    average_recall: Fraction
    score_fraction: Fraction
    score_text: str
    cross_checked: bool

class ArrowColumn(Sequence[str]):
    """A column of texts read from Arrow arrays in place; items are made on demand."""

    def __len__(self) -> int: ...
    @overload
    def __getitem__(self, index: int, /) -> str: ...
    @overload
    def __getitem__(self, index: slice, /) -> list[str]: ...
    def __contains__(self, item: object, /) -> bool: ...

class ArrowLists:
    """The references of each hypothesis, read from a list<string> column as streams."""

    streams: list[ArrowColumn]
    def __len__(self) -> int: ...

@overload
def read_arrow(value: object, name: str, lists: Literal[False], /) -> ArrowColumn: ...
@overload
def read_arrow(value: object, name: str, lists: bool, /) -> ArrowColumn | ArrowLists: ...
def corpus_statistics(
    config: Config, hypotheses: Sequence[object], references: list[Sequence[object]], nested: bool
) -> list[tuple[int, int, int]]: ...
def segment_statistics(
    config: Config, hypotheses: Sequence[object], references: list[Sequence[object]], nested: bool
) -> NDArray[np.uint64]: ...
def score_of(config: Config, counts: list[tuple[int, int, int]]) -> float: ...
def components_of(config: Config, counts: list[tuple[int, int, int]]) -> ExactComponents: ...
def resampled_scores(
    config: Config, segment_statistics: NDArray[np.uint64], picks: NDArray[np.int64]
) -> tuple[NDArray[np.float64], NDArray[np.bool_]]: ...
@overload
def sentence_score(config: Config, hypothesis: object, references: list[object]) -> float: ...
@overload
def sentence_score(config: Config, hypothesis: object, references: object) -> float | None: ...
def flat_sentence_scores(
    config: Config, hypotheses: object, references: object
) -> NDArray[np.float64] | None: ...
def sentence_score_list(
    config: Config, hypotheses: Sequence[object], references: list[Sequence[object]], nested: bool
) -> list[float]: ...
def sentence_scores(
    config: Config, hypotheses: Sequence[object], references: list[Sequence[object]], nested: bool
) -> NDArray[np.float64]: ...
def pairwise(
    config: Config, hypotheses: list[Sequence[object]], references: list[Sequence[object]]
) -> NDArray[np.float64]: ...
def aggregate(
    config: Config,
    hypotheses: list[Sequence[object]],
    references: list[Sequence[object]],
    weights: list[list[int] | None] | None,
) -> NDArray[np.float64]: ...
def expected_utility(
    config: Config,
    hypotheses: list[Sequence[object]],
    references: list[Sequence[object]],
    weights: list[list[int] | None] | None,
    batched: bool,
) -> NDArray[np.float64]: ...
def thread_count() -> int: ...
def set_thread_count(threads: int | None, /) -> None: ...
def max_thread_count() -> int: ...
def hold_numpy_for_fork() -> None: ...
def import_numpy(module: str, /) -> None: ...
def release_numpy_after_fork() -> None: ...
def randomization_scores(
    config: Config,
    baseline: NDArray[np.uint64],
    system: NDArray[np.uint64],
    swaps: NDArray[np.bool_],
) -> tuple[NDArray[np.float64], NDArray[np.float64]]: ...
def explain(
    config: Config,
    hypotheses: Sequence[object],
    references: list[Sequence[object]],
    nested: bool,
    top: int | None,
) -> bytes: ...
def swapped_scores(
    config: Config,
    segment_statistics: NDArray[np.uint64],
    replacement: NDArray[np.uint64] | None = None,
) -> NDArray[np.float64]: ...

class AlignedFiles:
    """A system's file and its reference files, read in step and scored chunk by chunk."""

    mismatch: list[int] | None
    failed: int | None

    def __new__(cls, paths: list[str], chunk_lines: int, /) -> AlignedFiles: ...
    def statistics(self, config: Config, /) -> tuple[int, list[tuple[int, int, int]]] | None: ...
    def sentence_scores(self, config: Config, /) -> list[float] | None: ...
