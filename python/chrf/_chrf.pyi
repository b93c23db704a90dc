"""Type stubs of the compiled module `chrf._chrf` (rust/chrf-py)."""

from fractions import Fraction
from typing import Literal, final

import numpy as np
from numpy.typing import NDArray

from chrf._settings import Settings

__version__: str
__all__ = [
    "AlignedFiles",
    "Batch",
    "Config",
    "Corpus",
    "__version__",
    "components_of",
    "corpus_score",
    "force_baseline_isa",
    "import_numpy",
    "listed",
    "max_thread_count",
    "randomization_scores",
    "read",
    "read_batch",
    "reference_streams",
    "release_numpy_after_fork",
    "resampled_scores",
    "score_of",
    "sentence_score",
    "sentence_scores",
    "set_thread_count",
    "settle_before_fork",
    "smallest_integers",
    "swapped_scores",
    "thread_count",
]

_Counts = list[tuple[int, int, int]]
_Fraction = Fraction | None
#: One order of exact components: the fields of chrf.OrderComponents, in order.
_ExactOrder = tuple[
    Literal["char", "word"], int, int, int, int, bool, _Fraction, _Fraction, _Fraction
]
#: Exact components: the fields of chrf.Components from `orders` on, in order.
_ExactComponents = tuple[list[_ExactOrder], int, Fraction, Fraction, Fraction, str, bool]
#: Per segment, the reference it was explained against; per order, the missing n-grams, their
#: counts, the extra n-grams and theirs.
_Explained = tuple[list[int], list[tuple[list[str], list[int], list[str], list[int]]]]
#: Per batch item, each reference's weight as an exact ratio (numerator, denominator), the
#: core scales them to integers in the same proportions.
_WeightRatios = list[list[tuple[int, int]] | None] | None

@final
class Config:
    """A chrf.Settings in the core's terms: reads the settings' attributes."""

    def __new__(cls, settings: Settings) -> Config: ...

@final
class Corpus:
    """Hypotheses and reference streams, read and checked by `read`."""

    reference_count: int

    def __len__(self) -> int: ...
    def statistics(self, config: Config) -> _Counts: ...
    def score(self, config: Config) -> float: ...
    def components(self, config: Config) -> _ExactComponents: ...
    def segment_statistics(self, config: Config) -> NDArray[np.uint64]: ...
    def sentence_scores(self, config: Config) -> NDArray[np.float64]: ...
    def sentence_score_list(self, config: Config) -> list[float]: ...
    def explain(self, config: Config, top: int | None) -> _Explained: ...
    def segment(self, i: int) -> Corpus: ...
    def texts(self) -> tuple[list[str], list[list[str | None]]]: ...
    def segment_texts(self, i: int) -> tuple[str, list[str | None]]: ...

def read(hypotheses: object, references: object, layout: str | None, lowercase: bool) -> Corpus: ...
def reference_streams(references: object) -> tuple[list[list[object]], int]: ...
def listed(value: object, name: str, items: str | None = None) -> list[object]: ...

@final
class Batch:
    """Batch items of hypotheses and references, read and checked by `read_batch`."""

    reference_counts: list[int]

    def texts(self) -> tuple[list[list[str]], list[list[str]]]: ...
    def pairwise(self, config: Config) -> NDArray[np.float64]: ...
    def aggregate(self, config: Config, weights: _WeightRatios) -> NDArray[np.float64]: ...
    def expected_utility(self, config: Config, weights: _WeightRatios) -> NDArray[np.float64]: ...

def read_batch(
    hypotheses: object, references: object, purpose: str, batched: bool, lowercase: bool
) -> Batch: ...
def sentence_scores(
    config: Config, hypotheses: object, references: object, layout: str | None
) -> NDArray[np.float64]: ...
def sentence_score(
    config: Config, hypothesis: object, references: object, metric: object
) -> float: ...
def corpus_score(
    config: Config, hypotheses: object, references: object, layout: str | None
) -> float: ...
def score_of(config: Config, counts: _Counts) -> float: ...
def components_of(config: Config, counts: _Counts) -> _ExactComponents: ...
def resampled_scores(
    config: Config, segment_statistics: NDArray[np.uint64], picks: NDArray[np.int64]
) -> tuple[NDArray[np.float64], NDArray[np.bool_]]: ...
def randomization_scores(
    config: Config,
    baseline: NDArray[np.uint64],
    system: NDArray[np.uint64],
    swaps: NDArray[np.bool_],
) -> tuple[NDArray[np.float64], NDArray[np.float64]]: ...
def swapped_scores(
    config: Config,
    segment_statistics: NDArray[np.uint64],
    replacement: NDArray[np.uint64] | None = None,
) -> NDArray[np.float64]: ...
def thread_count() -> int: ...
def set_thread_count(threads: int | None, /) -> None: ...
def max_thread_count() -> int: ...
def settle_before_fork() -> None: ...
def smallest_integers(ratios: list[tuple[int, int]]) -> list[int]: ...
def force_baseline_isa(baseline: bool, /) -> bool: ...
def import_numpy(module: str) -> None: ...
def release_numpy_after_fork() -> None: ...

@final
class AlignedFiles:
    """A system's file and its reference files, read in step and scored chunk by chunk."""

    mismatch: list[int] | None
    failed: int | None

    def __new__(cls, paths: list[str], chunk_lines: int) -> AlignedFiles: ...
    def statistics(self, config: Config) -> tuple[int, _Counts] | None: ...
    def sentence_scores(self, config: Config) -> list[float] | None: ...
