"""sacreBLEU's resampling statistics: the same seeds and random draws, scored in Rust."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from chrf import _core
from chrf._core import Corpus
from chrf._errors import SettingsError
from chrf._messages import shown
from chrf._settings import Settings

# Before NumPy's import (numpy.random is imported on first use): see _core.import_numpy.
_core.import_numpy("numpy.random")

import numpy as np  # noqa: E402

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
        raise SettingsError(
            f"SACREBLEU_SEED must be a non-negative integer or 'none', not {shown(text)}",
            reason="out_of_range",
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
    stats = c.segment_statistics(settings.compiled)
    picks = resample_picks(np.random.default_rng(seed), len(stats), n_samples)
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

#: Bytes of random draws (segments x resamples) held at a time, whatever the number of
#: segments and resamples. sacreBLEU draws them all at once (gigabytes for a few hundred
#: thousand segments); drawn in pieces from the same generator they are the same numbers.
DRAW_BYTES = 32 << 20


def rows_per_draw(n: int, item_bytes: int = 8) -> int:
    """Resamples or trials (rows of ``n`` draws of ``item_bytes`` each) drawn at a time."""
    return max(1, min(CHUNK, DRAW_BYTES // (max(n, 1) * item_bytes)))


def resample_picks(rng: np.random.Generator, n: int, n_samples: int) -> Iterator[NDArray[Any]]:
    """sacreBLEU's ``rng.choice(n, size=(n_samples, n), replace=True)``, a few rows at a time.

    The same numbers in the same order: NumPy draws each index in turn from the generator's
    stream, and keeps whatever it buffers in the generator, so drawing the rows in pieces
    continues exactly where the previous piece stopped (tests/reliability/test_memory.py
    compares them).
    """
    rows = rows_per_draw(n)
    for start in range(0, n_samples, rows):
        yield rng.choice(n, size=(min(rows, n_samples - start), n), replace=True)


def swap_draws(rng: np.random.Generator, n: int, n_trials: int) -> Iterator[NDArray[np.bool_]]:
    """sacreBLEU's ``rng.integers(2, size=(n_trials, n), dtype=bool)``, a few rows at a time.

    NumPy makes 32 booleans of each 32-bit draw and drops the bits a call leaves unused, so
    pieces of any other length would shift the stream: the booleans are drawn in whole 32-bit
    words, and the rows cut from them, what a row leaves over kept for the next.
    """
    rows = rows_per_draw(n, item_bytes=1)
    pending = np.empty(0, dtype=bool)
    for start in range(0, n_trials, rows):
        count = min(rows, n_trials - start)
        missing = count * n - len(pending)
        if missing > 0:
            words = -(-missing // 32)
            pending = np.concatenate([pending, rng.integers(2, size=32 * words, dtype=bool)])
        yield pending[: count * n].reshape(count, n)
        pending = pending[count * n :]


class Resampled:
    """Scores of resamples as they come, then as the NumPy array sacreBLEU builds from its
    Score objects: float32 values, and Python floats where a resample has no effective order."""

    def __init__(self, settings: Settings, stats: NDArray[np.uint64]) -> None:
        self.settings, self.stats = settings, stats
        self.values: list[float] = []
        self.flags: list[bool] = []

    def add(self, picks: NDArray[Any]) -> None:
        v, f = _core.resampled_scores(
            self.settings.compiled, self.stats, np.ascontiguousarray(picks)
        )
        self.values += v.tolist()
        self.flags += f.tolist()

    def array(self) -> NDArray[Any]:
        pairs = zip(self.values, self.flags, strict=True)
        return np.array([np.float32(v) if f else v for v, f in pairs])


def resampled_values(
    settings: Settings,
    stats: NDArray[np.uint64],
    picks: Iterable[NDArray[Any]],
    progress: Progress,
) -> NDArray[Any]:
    """The scores of the resamples whose rows ``picks`` yields, as :class:`Resampled` holds them."""
    scores = Resampled(settings, stats)
    for chunk in picks:
        scores.add(chunk)
        progress.advance(len(chunk))
    return scores.array()


def _total_score(settings: Settings, stats: NDArray[np.uint64]) -> float:
    counts = [(int(h), int(r), int(m)) for h, r, m in stats.sum(axis=0, dtype=object)]
    return _core.score_of(settings.compiled, counts)


def paired_bootstrap(
    settings: Settings, baseline: Corpus, systems: list[Corpus], n_samples: int, show: bool
) -> tuple[str, list[Result]]:
    """sacreBLEU's paired bootstrap resampling test (`--paired-bs`): the baseline's score and
    95% interval, then each system's score, interval and p-value against the baseline."""
    seed_text, seed = sacrebleu_seed()
    progress = Progress("paired bootstrap", n_samples * (1 + 2 * len(systems)), show)
    bl_stats = baseline.segment_statistics(settings.compiled)
    n = len(bl_stats)
    bl_score = _total_score(settings, bl_stats)
    picks = resample_picks(np.random.default_rng(seed), n, n_samples)
    mean, ci = estimate_ci(resampled_values(settings, bl_stats, picks, progress))
    results = [Result(bl_score, mean=mean, ci=ci)]
    for system in systems:
        # sacreBLEU draws again for every system, from a generator seeded alike (unless the
        # seed is 0 or "none", in which case each draw is fresh).
        rng = np.random.default_rng(seed if seed else None)
        sys_stats = system.segment_statistics(settings.compiled)
        sys_score = _total_score(settings, sys_stats)
        resampled_bl, resampled_sys = Resampled(settings, bl_stats), Resampled(settings, sys_stats)
        for chunk in resample_picks(rng, n, n_samples):
            resampled_bl.add(chunk)
            resampled_sys.add(chunk)
            progress.advance(2 * len(chunk))
        scores_bl, scores_sys = resampled_bl.array(), resampled_sys.array()
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
    bl_stats = baseline.segment_statistics(settings.compiled)
    bl_score = _total_score(settings, bl_stats)
    results = [Result(bl_score)]
    for system in systems:
        rng = np.random.default_rng(seed if seed else None)
        sys_stats = system.segment_statistics(settings.compiled)
        sys_score = _total_score(settings, sys_stats)
        scores_a, scores_b = [], []
        for chunk in swap_draws(rng, len(bl_stats), n_trials):
            swaps = np.ascontiguousarray(chunk)
            a, b = _core.randomization_scores(settings.compiled, bl_stats, sys_stats, swaps)
            scores_a.append(a)
            scores_b.append(b)
            progress.advance(len(chunk))
        deltas = np.abs(np.concatenate(scores_a) - np.concatenate(scores_b))
        results.append(Result(sys_score, compute_p_value(deltas, abs(bl_score - sys_score))))
    return seed_text, results
