"""chrF as a Hugging Face evaluate metric, computed by chrf.

``evaluate.load(chrf.evaluate_module())`` loads it from the installed package, offline, in place
of the Hub's ``evaluate.load("chrf")``.

Its features are those evaluate's "chrf" metric declares (a list of references per prediction, or
one string each), so the references reach :func:`chrf.compute` as evaluate hands them over, and
``compute`` takes evaluate's arguments (``char_order``, ``word_order``, ``beta``, ``lowercase``,
``whitespace``, ``eps_smoothing``) and returns its dict. evaluate copies this file into its own
module cache and imports it from there: it is not a module of the chrf package, and it needs
evaluate (``pip install 'chrf[integrations]'``).
"""

from __future__ import annotations

from typing import Any

import datasets
import evaluate

import chrf

__all__ = ["EvaluateChrf"]


class EvaluateChrf(evaluate.Metric):  # type: ignore[misc]
    """evaluate's "chrf" metric: the same inputs, arguments and output dict, sacreBLEU's score."""

    def _info(self) -> Any:
        text = datasets.Value("string", id="sequence")
        return evaluate.MetricInfo(
            description="chrF and chrF++ computed by chrf (sacreBLEU's numbers)",
            citation="",
            inputs_description="predictions: list of str; references: list of lists of str",
            features=[
                datasets.Features(
                    {"predictions": text, "references": datasets.Sequence(text, id="references")}
                ),
                datasets.Features({"predictions": text, "references": text}),
            ],
        )

    def _compute(self, predictions: Any, references: Any, **options: Any) -> Any:
        return chrf.compute(predictions, references, **options)
