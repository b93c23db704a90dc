"""chrF for mbrs (naist-nlp's MBR decoding library), computed by chrf.

``from chrf.mbrs import MetricChrF`` registers the metric under the name ``"chrf_exact"`` in
mbrs' registry (``mbrs.metrics.get_metric("chrf_exact")``). It implements mbrs'
``MetricAggregatable`` with mbrs' ``MetricChrF.Config`` options, so it drops into every decoder:
the scores are sacreBLEU's (as mbrs' default backend gives them), chrF++ and model weights
(``reference_lprobs``) included, which mbrs' fastchrf backend refuses. ``expected_scores`` is
:func:`chrf.expected_utility` (no n x m matrix), ``expected_scores_reference_aggregation`` is
:func:`chrf.aggregate`. Scores are float64 tensors. Importing this module imports mbrs and torch;
``import chrf`` does not.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from chrf import _service
from chrf._keywords import names_in
from chrf._lprobs import weights_of_lprobs
from chrf._messages import missing_extra
from chrf._settings import settings_of

try:
    import torch
    from mbrs.metrics import Metric, MetricAggregatable, register
except ImportError as error:
    raise missing_extra("chrf.mbrs", "mbr", error) from error

if TYPE_CHECKING:
    from numpy.typing import NDArray

__all__ = ["NAME", "MetricChrF", "weights_of_lprobs"]

#: The metric's name in mbrs' registry.
NAME = "chrf_exact"


@register(NAME)
class MetricChrF(MetricAggregatable):  # type: ignore[misc]
    """chrF / chrF++ for mbrs, computed by chrf: mbrs' ``MetricChrF`` with sacreBLEU's scores
    from every method, without the pairwise matrix where mbrs only needs its row means."""

    @dataclass
    class Config(Metric.Config):  # type: ignore[misc]
        """mbrs' chrF options: ``char_order`` (6), ``word_order`` (0; 2 is chrF++), ``beta`` (2),
        ``lowercase``, ``whitespace`` (keep whitespace in character n-grams), ``eps_smoothing``.
        """

        char_order: int = 6
        word_order: int = 0
        beta: int = 2
        lowercase: bool = False
        whitespace: bool = False
        eps_smoothing: bool = False

    cfg: Config

    def __init__(self, cfg: MetricChrF.Config) -> None:
        super().__init__(cfg)
        options = {name: getattr(cfg, theirs) for theirs, name in names_in("mbrs").items()}
        self.settings = settings_of(options)  # type: ignore[arg-type]  # bad options fail here

    def score(self, hypothesis: str, reference: str, *_: object, **__: object) -> float:
        """sacreBLEU's sentence score of the hypothesis against the reference."""
        return float(_service.sentence_scores(self.settings, [hypothesis], [reference])[0])

    def scores(
        self, hypotheses: list[str], references: list[str], *_: object, **__: object
    ) -> torch.Tensor:
        """The sentence score of each hypothesis against its reference: shape (N,)."""
        return _tensor(_service.sentence_scores(self.settings, hypotheses, references))

    def pairwise_scores(
        self, hypotheses: list[str], references: list[str], *_: object, **__: object
    ) -> torch.Tensor:
        """Every hypothesis against every reference: shape (H, R)."""
        return _tensor(_service.pairwise(self.settings, hypotheses, references))

    def expected_scores(
        self,
        hypotheses: list[str],
        references: list[str],
        source: str | None = None,
        reference_lprobs: torch.Tensor | NDArray[np.float64] | None = None,
    ) -> torch.Tensor:
        """Each hypothesis's mean score over the references (weighted by the softmax of
        ``reference_lprobs``), exact and without the (H, R) matrix: shape (H,)."""
        weights = weights_of_lprobs(reference_lprobs, len(references))
        return _tensor(_service.expected_utility(self.settings, hypotheses, references, weights))

    def expected_scores_reference_aggregation(
        self,
        hypotheses: list[str],
        references: list[str],
        source: str | None = None,
        reference_lprobs: torch.Tensor | NDArray[np.float64] | None = None,
    ) -> torch.Tensor:
        """Each hypothesis against the references' mean n-gram bag (weighted by the softmax
        of ``reference_lprobs``, exactly however far apart): shape (H,)."""
        weights = weights_of_lprobs(reference_lprobs, len(references))
        return _tensor(_service.aggregate(self.settings, hypotheses, references, weights))

    def corpus_score(
        self,
        hypotheses: list[str],
        references_lists: list[list[str]],
        sources: list[str] | None = None,
    ) -> float:
        """sacreBLEU's corpus score; ``references_lists`` holds reference streams."""
        corpus = _service.read(self.settings, hypotheses, references_lists, "streams")
        return _service.score(self.settings, corpus)


def _tensor(array: NDArray[np.float64]) -> torch.Tensor:
    return torch.from_numpy(np.ascontiguousarray(array))
