"""chrF as a ``torchmetrics.Metric`` whose states are chrf's integer statistics.

``from chrf.torchmetrics import CHRFScore`` replaces ``torchmetrics.text.CHRFScore``: the same
constructor arguments and defaults (chrF++ by default: ``n_word_order=2``), the same inputs
(``target[i]`` holds the references of ``preds[i]``) and the same 0..1 scale, with sacreBLEU's
numbers. The states are n-gram counts, summed across processes, so a DDP run gives exactly the
single-process result. Importing this module imports torch and torchmetrics; ``import chrf``
does not.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from chrf import _service
from chrf._keywords import renamed
from chrf._messages import missing_extra
from chrf._settings import settings_of
from chrf._statistics import Statistics

try:
    import torch
    from torchmetrics import Metric
except ImportError as error:
    raise missing_extra("chrf.torchmetrics", "integrations", error) from error

#: A count is kept as LIMBS int64 tensors of LIMB_BITS bits each. torchmetrics sums states
#: across processes in int64: limbs below 2**32 summed over fewer than 2**31 processes stay
#: below 2**63, so the sum never wraps, and 4 limbs hold every 128-bit count chrf produces.
LIMB_BITS = 32
LIMBS = 4
_LIMB_MASK = (1 << LIMB_BITS) - 1

__all__ = ["CHRFScore"]


class CHRFScore(Metric):
    """Corpus chrF/chrF++ on 0..1: ``sacrebleu.metrics.CHRF(...).corpus_score(...).score / 100``.

    Args are those of ``torchmetrics.text.CHRFScore``: ``n_char_order`` (6), ``n_word_order``
    (2: chrF++), ``beta`` (2.0), ``lowercase``, ``whitespace``, ``return_sentence_level_score``
    (then ``compute()`` also returns sacreBLEU's sentence score / 100 of every segment, in
    update order, ranks concatenated in order under DDP), and torchmetrics' Metric kwargs.

    Scores are float64 tensors. The states are ``counts`` (orders x 3 x LIMBS int64 limbs of
    the hypothesis, reference and matching n-gram counts) and ``segments``, reduced by sum.
    """

    is_differentiable = False
    higher_is_better = True
    full_state_update = False
    plot_lower_bound = 0.0
    plot_upper_bound = 1.0

    counts: torch.Tensor
    segments: torch.Tensor
    sentence_scores: list[torch.Tensor]

    def __init__(
        self,
        n_char_order: int = 6,
        n_word_order: int = 2,
        beta: float = 2.0,
        lowercase: bool = False,
        whitespace: bool = False,
        return_sentence_level_score: bool = False,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        options = {
            "n_char_order": n_char_order,
            "n_word_order": n_word_order,
            "beta": beta,
            "lowercase": lowercase,
            "whitespace": whitespace,
        }
        self.settings = settings_of(renamed("torchmetrics", options))  # type: ignore[arg-type]
        self.return_sentence_level_score = return_sentence_level_score
        zeros = torch.zeros((self.settings.order_count, 3, LIMBS), dtype=torch.int64)
        self.add_state("counts", zeros, dist_reduce_fx="sum")
        self.add_state("segments", torch.zeros(LIMBS, dtype=torch.int64), dist_reduce_fx="sum")
        if return_sentence_level_score:
            self.add_state("sentence_scores", [], dist_reduce_fx="cat")

    def update(self, preds: str | Sequence[str], target: Sequence[str | Sequence[str]]) -> None:
        """Adds a batch: ``target[i]`` is the reference (a str) or references of ``preds[i]``.

        As in torchmetrics, a lone prediction may come as a str, and then a list of str
        ``target`` is its references. ``None`` marks a missing reference, as in sacreBLEU.
        """
        hypotheses = [preds] if isinstance(preds, str) else list(preds)
        references: list[object] = list(target)
        if len(hypotheses) == 1 and references and all(_is_reference(t) for t in references):
            references = [references]
        c = _service.read(self.settings, hypotheses, references, "per_hypothesis")
        total = self._statistics() + _service.statistics(self.settings, c)
        self.counts = _limbs(total.counts, self.counts.device)
        self.segments = _limbs(total.segment_count, self.segments.device)
        if self.return_sentence_level_score:
            scores = _service.sentence_scores_of(self.settings, c)
            self.sentence_scores.append(torch.from_numpy(scores / 100).to(self.counts.device))

    def compute(self) -> torch.Tensor | tuple[torch.Tensor, torch.Tensor]:
        """The corpus score of everything added (on every process, once synced)."""
        score = self._statistics().score() / 100
        value = torch.tensor(score, dtype=torch.float64, device=self.counts.device)
        if not self.return_sentence_level_score:
            return value
        scores = self.sentence_scores
        if isinstance(scores, torch.Tensor):  # torchmetrics concatenates a synced list state
            return value, scores
        if not scores:
            return value, torch.zeros(0, dtype=torch.float64, device=self.counts.device)
        return value, torch.cat(scores)

    def _statistics(self) -> Statistics:
        counts = _integers(self.counts)
        return Statistics(self.settings, counts, _integers(self.segments))


def _is_reference(target: object) -> bool:
    """A str, or sacreBLEU's None placeholder for a missing reference."""
    return target is None or isinstance(target, str)


def _limbs(value: Any, device: torch.device) -> torch.Tensor:
    """Python ints (nested sequences of them) split into LIMBS base-2**32 digits, low first."""
    return torch.tensor(_split(value), dtype=torch.int64, device=device)


def _split(value: Any) -> Any:
    if isinstance(value, int):
        return [(value >> (LIMB_BITS * j)) & _LIMB_MASK for j in range(LIMBS)]
    return [_split(item) for item in value]


def _integers(limbs: torch.Tensor) -> Any:
    """The exact Python ints of limb tensors, whose limbs may exceed 2**32 after a sum."""
    return _join(limbs.tolist())


def _join(value: Any) -> Any:
    if isinstance(value[0], int):
        return sum(limb << (LIMB_BITS * j) for j, limb in enumerate(value))
    return [_join(item) for item in value]
