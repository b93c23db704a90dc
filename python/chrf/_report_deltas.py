"""The report's difference view: each system's per-order precision, recall and F minus the
baseline's, with a 95% paired bootstrap interval of each difference.

The resamples are sacreBLEU's paired bootstrap draws (the same seed and indices as the paired
test's, one set shared by every system), applied to the segments' n-gram counts: a resample's
counts are the sum of its segments' counts, so each interval comes from the same resamples as
the test's p-value. Display only: the bars' values are the exact differences of
:class:`chrf.Comparison`, the intervals are floats.
"""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING, Any

import numpy as np

from chrf._compare import Comparison
from chrf._significance import resample_picks, sacrebleu_seed

if TYPE_CHECKING:
    from numpy.typing import NDArray
    from plotly.graph_objects import Figure

__all__ = ["delta_figure", "delta_intervals"]

FIELDS = ("precision", "recall", "f_score")
TITLES = ("Δ precision", "Δ recall", "Δ F")


def delta_intervals(c: Comparison, n_samples: int) -> NDArray[np.float64]:
    """The 2.5th and 97.5th percentiles of each system's per-order differences over
    ``n_samples`` paired resamples: shape (systems after the baseline, 2, 3 fields, orders),
    on 0..100 (NaN where an order is undefined in too many resamples)."""
    stats = [e.segment_statistics.astype(np.float64) for e in c.explanations]
    segments, orders = stats[0].shape[0], stats[0].shape[1]
    flat = [s.reshape(segments, orders * 3) for s in stats]
    beta2 = float(c.settings.beta_fraction**2)
    _, seed = sacrebleu_seed()
    deltas = []
    for picks in resample_picks(np.random.default_rng(seed), segments, n_samples):
        # How often each segment is drawn in each resample, then the resampled sums.
        weights = np.stack([np.bincount(row, minlength=segments) for row in picks]).astype(float)
        fields = [_fields((weights @ f).reshape(-1, orders, 3), beta2) for f in flat]
        deltas.append(np.stack([f - fields[0] for f in fields[1:]], axis=1))
    values = 100 * np.concatenate(deltas)  # (resamples, systems - 1, 3, orders)
    with warnings.catch_warnings():
        # An order undefined in every resample has no interval (NumPy warns "All-NaN slice").
        warnings.simplefilter("ignore", RuntimeWarning)
        bounds = np.nanpercentile(values, [2.5, 97.5], axis=0)
    result: NDArray[np.float64] = np.moveaxis(bounds, 0, 1)
    return result


def _fields(sums: NDArray[np.float64], beta2: float) -> NDArray[np.float64]:
    """Per-order precision, recall and F of summed counts: shape (resamples, 3, orders)."""
    hyp, ref, match = sums[..., 0], sums[..., 1], sums[..., 2]
    with np.errstate(all="ignore"):
        precision = np.where(hyp > 0, match / hyp, np.nan)
        recall = np.where(ref > 0, match / ref, np.nan)
        denominator = beta2 * precision + recall
        f = np.where(denominator > 0, (1 + beta2) * precision * recall / denominator, 0.0)
        f = np.where(np.isnan(precision) | np.isnan(recall), np.nan, f)
    result: NDArray[np.float64] = np.stack([precision, recall, f], axis=1)
    return result


def delta_figure(
    c: Comparison, labels: list[str], colors: list[str], intervals: NDArray[np.float64] | None
) -> Figure:
    """Bars of each system's per-order differences from the baseline (exact), with their
    interval as error bars where ``intervals`` are given."""
    from plotly.subplots import make_subplots

    figure = make_subplots(rows=1, cols=3, subplot_titles=TITLES)
    for k, d in enumerate(c.differences):
        for col, field in enumerate(FIELDS, 1):
            values = [_percent(getattr(o, field)) for o in d.orders]
            bar: dict[str, Any] = {}
            if intervals is not None:
                low, high = intervals[k, 0, col - 1], intervals[k, 1, col - 1]
                bar["error_y"] = {
                    "type": "data",
                    "symmetric": False,
                    "array": [_gap(h, v) for h, v in zip(high, values, strict=True)],
                    "arrayminus": [_gap(v, lo) for lo, v in zip(low, values, strict=True)],
                }
            figure.add_bar(
                x=labels,
                y=values,
                name=f"{d.system} - {c.names[0]}",
                legendgroup=d.system,
                showlegend=col == 1,
                marker_color=colors[k + 1],
                row=1,
                col=col,
                **bar,
            )
    figure.update_layout(barmode="group", height=380, margin={"t": 40})
    figure.add_hline(y=0, line_width=1, line_color="#888")
    return figure


def _percent(value: object) -> float | None:
    return None if value is None else 100 * float(value)  # type: ignore[arg-type]


def _gap(top: object, bottom: object) -> float | None:
    """The distance from ``bottom`` to ``top``, or None where either is missing or NaN (plotly
    draws no error bar there)."""
    if top is None or bottom is None:
        return None
    gap = float(top) - float(bottom)  # type: ignore[arg-type]
    return None if np.isnan(gap) else max(gap, 0.0)
