"""sacreBLEU's resampling statistics: the same seeds and random draws, scored in Rust."""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from chrf import _core
from chrf._inputs import Corpus
from chrf._messages import shown
from chrf._settings import Settings

if TYPE_CHECKING:
    from numpy.typing import NDArray

__all__ = [
    "Result",
    "bootstrap_scores",
    "paired_bootstrap",
    "paired_randomization",
    "sacrebleu_seed",
]


def sacrebleu_seed() -> tuple[str, int | None]:
    """sacreBLEU's seed: $SACREBLEU_SEED, default 12345; "none" draws entropy from the OS."""
    text = os.environ.get("SACREBLEU_SEED", "12345").lower()
    if text == "none":
        return text, None
    try:
        seed = int(text)
    except ValueError:  # not a number, or more digits than Python converts
        seed = -1
    if seed < 0:  # NumPy's generators take no negative seed
        raise ValueError(
            f"SACREBLEU_SEED must be a non-negative integer or 'none', not {shown(text)}"
        )
    return text, seed


def bootstrap_scores(
    settings: Settings, c: Corpus, n_samples: int, show: bool = False
) -> tuple[str, list[Any]]:
    """The seed and the scores of ``n_samples`` bootstrap resamples, as sacreBLEU draws them.

    The random indices come from NumPy exactly as in sacreBLEU's ``_bootstrap_resample``; the
    resampled sums and scores are computed in Rust with sacreBLEU's float32 arithmetic, and
    returned as the NumPy float32 (or Python float) values sacreBLEU would hold.
    """
    seed_text, seed = sacrebleu_seed()
    stats = _core.segment_statistics(settings, c)
    rng = np.random.default_rng(seed)
    picks = rng.choice(len(stats), size=(n_samples, len(stats)), replace=True)
    values = resampled_values(settings, stats, picks, Progress("bootstrap", n_samples, show))
    if any(isinstance(v, np.float32) for v in values):
        # A resample with no effective order scores a Python 0.0 in sacreBLEU, which then
        # cannot average it with float32s (statistics.mean raises TypeError). 0.0 is exact in
        # float32, so holding every score as float32 gives the mean sacreBLEU means.
        return seed_text, [np.float32(v) for v in values]
    return seed_text, values.tolist()


@dataclass
class Result:
    """One system's row of a paired test, as sacreBLEU's `significance.Result`."""

    score: float
    p_value: float | None = None
    mean: Any = None
    ci: Any = None


def estimate_ci(scores: NDArray[Any]) -> tuple[Any, Any]:
    """sacreBLEU's `significance.estimate_ci`: NumPy mean and half the central 95% range."""
    scores = np.sort(scores)
    n = len(scores)
    lower_idx = n // 40
    upper_idx = n - lower_idx - 1
    lower, upper = scores[lower_idx], scores[upper_idx]
    ci = 0.5 * (upper - lower)
    return (scores.mean(), ci)


def compute_p_value(stats: NDArray[Any], real_difference: float) -> float:
    """sacreBLEU's `_compute_p_value` (after multeval): (count of larger deltas + 1) / (n + 1)."""
    c = np.sum(stats > real_difference).item()
    return float((c + 1) / (len(stats) + 1))


class Progress:
    """A one-line progress bar on stderr, drawn only when stderr is a terminal."""

    def __init__(self, label: str, total: int, enabled: bool) -> None:
        self.label, self.total, self.done = label, total, 0
        self.enabled = enabled and sys.stderr is not None and sys.stderr.isatty()

    def advance(self, amount: int) -> None:
        self.done += amount
        if self.enabled:
            filled = 30 * self.done // max(self.total, 1)
            bar = "#" * filled + "." * (30 - filled)
            sys.stderr.write(f"\r{self.label} [{bar}] {self.done}/{self.total}")
            if self.done >= self.total:
                sys.stderr.write("\n")
            sys.stderr.flush()


#: Resamples or trials per call into Rust: small enough for a smooth progress bar.
CHUNK = 100


def resampled_values(
    settings: Settings, stats: NDArray[np.uint64], picks: NDArray[np.int64], progress: Progress
) -> NDArray[Any]:
    """The resampled scores as the NumPy array sacreBLEU builds from its Score objects: float32
    values, and Python floats where a resample has no effective order."""
    values, flags = [], []
    for start in range(0, len(picks), CHUNK):
        chunk = np.ascontiguousarray(picks[start : start + CHUNK])
        v, f = _core.resampled_scores(settings, stats, chunk)
        values += v.tolist()
        flags += f.tolist()
        progress.advance(len(chunk))
    return np.array([np.float32(v) if f else v for v, f in zip(values, flags, strict=True)])


def _total_score(settings: Settings, stats: NDArray[np.uint64]) -> float:
    counts = [(int(h), int(r), int(m)) for h, r, m in stats.sum(axis=0, dtype=object)]
    return _core.score_of(settings, tuple(counts))


def paired_bootstrap(
    settings: Settings, baseline: Corpus, systems: list[Corpus], n_samples: int, show: bool
) -> tuple[str, list[Result]]:
    """sacreBLEU's paired bootstrap resampling test (`--paired-bs`): the baseline's score and
    95% interval, then each system's score, interval and p-value against the baseline."""
    seed_text, seed = sacrebleu_seed()
    progress = Progress("paired bootstrap", n_samples * (1 + 2 * len(systems)), show)
    bl_stats = _core.segment_statistics(settings, baseline)
    n = len(bl_stats)
    bl_score = _total_score(settings, bl_stats)
    picks = np.random.default_rng(seed).choice(n, size=(n_samples, n), replace=True)
    mean, ci = estimate_ci(resampled_values(settings, bl_stats, picks, progress))
    results = [Result(bl_score, mean=mean, ci=ci)]
    for system in systems:
        # sacreBLEU draws again for every system, from a generator seeded alike (unless the
        # seed is 0 or "none", in which case each draw is fresh).
        rng = np.random.default_rng(seed if seed else None)
        picks = rng.choice(n, size=(n_samples, n), replace=True)
        sys_stats = _core.segment_statistics(settings, system)
        sys_score = _total_score(settings, sys_stats)
        scores_bl = resampled_values(settings, bl_stats, picks, progress)
        scores_sys = resampled_values(settings, sys_stats, picks, progress)
        sys_mean, sys_ci = estimate_ci(scores_sys)
        sample_diffs = np.abs(scores_sys - scores_bl)
        stats = sample_diffs - sample_diffs.mean()
        p = compute_p_value(stats, abs(bl_score - sys_score))
        results.append(Result(sys_score, p, sys_mean, sys_ci))
    return seed_text, results


def paired_randomization(
    settings: Settings, baseline: Corpus, systems: list[Corpus], n_trials: int, show: bool
) -> tuple[str, list[Result]]:
    """sacreBLEU's paired approximate randomization test (`--paired-ar`): each system's score
    and p-value against the baseline."""
    seed_text, seed = sacrebleu_seed()
    progress = Progress("approximate randomization", n_trials * len(systems), show)
    bl_stats = _core.segment_statistics(settings, baseline)
    bl_score = _total_score(settings, bl_stats)
    results = [Result(bl_score)]
    for system in systems:
        rng = np.random.default_rng(seed if seed else None)
        swaps = rng.integers(2, size=(n_trials, len(bl_stats)), dtype=bool)
        sys_stats = _core.segment_statistics(settings, system)
        sys_score = _total_score(settings, sys_stats)
        scores_a, scores_b = [], []
        for start in range(0, n_trials, CHUNK):
            chunk = np.ascontiguousarray(swaps[start : start + CHUNK])
            a, b = _core.randomization_scores(settings, bl_stats, sys_stats, chunk)
            scores_a.append(a)
            scores_b.append(b)
            progress.advance(len(chunk))
        deltas = np.abs(np.concatenate(scores_a) - np.concatenate(scores_b))
        results.append(Result(sys_score, compute_p_value(deltas, abs(bl_score - sys_score))))
    return seed_text, results
