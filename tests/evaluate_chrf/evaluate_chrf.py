"""A local Hugging Face evaluate metric backed by chrf.compute, loaded in tests with
evaluate.load(path) offline: its features are those evaluate's "chrf" metric declares, so the
references reach chrf.compute as evaluate hands them over."""

import datasets
import evaluate

import chrf


class EvaluateChrf(evaluate.Metric):
    def _info(self) -> evaluate.MetricInfo:
        text = datasets.Value("string", id="sequence")
        return evaluate.MetricInfo(
            description="chrF and chrF++ computed by chrf",
            citation="",
            inputs_description="predictions: list of str; references: list of lists of str",
            features=[
                datasets.Features(
                    {"predictions": text, "references": datasets.Sequence(text, id="references")}
                ),
                datasets.Features({"predictions": text, "references": text}),
            ],
        )

    def _compute(self, predictions, references, **options):  # type: ignore[no-untyped-def]
        return chrf.compute(predictions, references, **options)
