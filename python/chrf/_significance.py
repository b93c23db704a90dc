"""sacreBLEU's resampling statistics: the same seeds and random draws, scored in Rust."""

from __future__ import annotations

import os
from typing import Any

from chrf import _chrf
from chrf._api import config
from chrf._inputs import Corpus
from chrf._settings import Settings

__all__ = ["bootstrap_scores", "sacrebleu_seed"]


def sacrebleu_seed() -> tuple[str, int | None]:
    """sacreBLEU's seed: $SACREBLEU_SEED, default 12345; "none" draws entropy from the OS."""
    text = os.environ.get("SACREBLEU_SEED", "12345").lower()
    return text, None if text == "none" else int(text)


def bootstrap_scores(settings: Settings, c: Corpus, n_samples: int) -> tuple[str, list[Any]]:
    """The seed and the scores of ``n_samples`` bootstrap resamples, as sacreBLEU draws them.

    The random indices come from NumPy exactly as in sacreBLEU's ``_bootstrap_resample``; the
    resampled sums and scores are computed in Rust with sacreBLEU's float32 arithmetic, and
    returned as the NumPy float32 (or Python float) values sacreBLEU would hold.
    """
    import numpy as np

    seed_text, seed = sacrebleu_seed()
    cfg = config(settings)
    stats = _chrf.segment_statistics(cfg, c.hypotheses, c.streams, c.nested)
    rng = np.random.default_rng(seed)
    picks = rng.choice(len(stats), size=(n_samples, len(stats)), replace=True)
    values, is_float32 = _chrf.resampled_scores(cfg, stats, picks)
    if is_float32.any():
        # A resample with no effective order scores a Python 0.0 in sacreBLEU, which then
        # cannot average it with float32s (statistics.mean raises TypeError). 0.0 is exact in
        # float32, so holding every score as float32 gives the mean sacreBLEU means.
        return seed_text, list(values.astype(np.float32))
    return seed_text, values.tolist()
