"""chrF for ZurichNLP's ``mbr`` (MBR decoding inside Hugging Face ``generate``), without evaluate.

``from chrf.zurich_mbr import MetricRunner`` replaces ``mbr.MetricRunner`` for the default metric,
chrF: pass ``metric_runner=MetricRunner(mbr_config, tokenizer)`` to ``generate``. mbr's own
runner loads evaluate's metric (``evaluate.load("chrf")``, from the Hub) and scores each sample
against each reference with a new sacreBLEU ``CHRF``; this one scores each batch item's samples
with :func:`chrf.expected_utility_batched`: sacreBLEU's numbers, their exact mean, no matrix.
``mbr_config.metric_kwargs`` takes evaluate's chrF arguments (``char_order``, ``word_order``,
``beta``, ``lowercase``, ``whitespace``, ``eps_smoothing``). Importing this module imports mbr
(and with it torch and transformers); ``import chrf`` does not.
"""

from __future__ import annotations

from typing import Any

from chrf import _service
from chrf._keywords import names_in
from chrf._messages import missing_extra
from chrf._settings import Settings, settings_of

try:
    import mbr
    import torch
    from mbr.metrics.base import MetricOutput
except ImportError as error:
    raise missing_extra("chrf.zurich_mbr", "mbr", error) from error

__all__ = ["MetricRunner"]

#: evaluate's chrF arguments, and chrf's names for them.
EVALUATE_OPTIONS = names_in("evaluate")


class MetricRunner(mbr.MetricRunner):  # type: ignore[misc]
    """mbr's ``MetricRunner`` for chrF, scored by chrf: ``scores`` (batch, num_samples) are
    each sample's exact mean chrF over the references, float64. ``scores_per_reference``
    (batch, num_samples, num_references) is computed only when ``mbr_config.output_metric_scores``
    asks for it (mbr returns it then); otherwise it is None and no matrix is built."""

    def __init__(self, mbr_config: Any, tokenizer: Any) -> None:
        # Not mbr.MetricRunner.__init__: it loads the metric with evaluate.
        metric = mbr_config.metric
        if isinstance(metric, str) and metric != "chrf":
            raise ValueError(f"this MetricRunner scores chrF; mbr_config.metric is {metric!r}")
        self.mbr_config = mbr_config
        self.tokenizer = tokenizer
        self.metric = None
        self.metric_is_source_based = False
        self.settings = _settings(dict(mbr_config.metric_kwargs or {}))

    def __call__(
        self,
        input_ids: torch.Tensor,
        sample_ids: tuple[torch.Tensor, ...],
        reference_ids: tuple[torch.Tensor, ...],
    ) -> Any:
        """The metric output of samples against references, as mbr's runner gives it:
        ``sample_ids`` holds one tensor (batch, length) per sample, ``reference_ids`` one per
        reference."""
        samples = [self.tokenizer.batch_decode(s, skip_special_tokens=True) for s in sample_ids]
        references = [
            self.tokenizer.batch_decode(r, skip_special_tokens=True) for r in reference_ids
        ]
        if len(samples[0]) != len(references[0]):
            raise ValueError("Batch size of samples and references must match")
        if len(samples) != self.mbr_config.num_samples:
            raise ValueError("Number of samples must match `mbr_config.num_samples`")
        if len(references) != self.mbr_config.num_references:
            raise ValueError("Number of references must match `mbr_config.num_references`")
        # Per batch item: its samples, its references.
        hypotheses = [list(item) for item in zip(*samples, strict=True)]
        pseudo_references = [list(item) for item in zip(*references, strict=True)]
        scores = _service.expected_utility_batched(self.settings, hypotheses, pseudo_references)
        per_reference = None
        if self.mbr_config.output_metric_scores:
            matrices = _service.pairwise_batched(self.settings, hypotheses, pseudo_references)
            per_reference = torch.from_numpy(matrices)
        return MetricOutput(scores=torch.from_numpy(scores), scores_per_reference=per_reference)


def _settings(metric_kwargs: dict[str, Any]) -> Settings:
    unknown = sorted(set(metric_kwargs) - set(EVALUATE_OPTIONS))
    if unknown:
        raise TypeError(
            f"mbr_config.metric_kwargs has {', '.join(map(repr, unknown))}; evaluate's chrF "
            f"takes {', '.join(EVALUATE_OPTIONS)}"
        )
    options = {EVALUATE_OPTIONS[name]: value for name, value in metric_kwargs.items()}
    return settings_of(options)  # type: ignore[arg-type]  # bad values fail here
