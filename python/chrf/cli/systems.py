"""What `explain` and `report` share past their arguments: the systems read whole against the
references, and the sacreBLEU signature of the settings they were scored with."""

from __future__ import annotations

from chrf._sacrebleu import CHRF
from chrf._settings import Settings
from chrf.cli.options import Inputs
from chrf.cli.reading import References, Segments, system_sources, whole_corpora

__all__ = ["read_inputs", "signature"]


def read_inputs(inputs: Inputs) -> list[Segments]:
    refs = References(list(inputs.refs), 1, inputs.encoding)
    systems = system_sources(
        inputs.systems, inputs.encoding, paired=False, ref_files=len(inputs.refs)
    )
    return whole_corpora(systems, refs)


def signature(
    settings: Settings,
    num_refs: int,
    test: str | None = None,
    trials: int | None = None,
    seed: str | None = None,
) -> str:
    """sacreBLEU's signature of the settings, with the statistical test's resamples or trials
    (``bs:1000``, ``ar:10000``) and seed (``rs:12345``) where one ran, as sacreBLEU adds them."""
    metric = CHRF.from_settings(settings)
    metric.num_refs = num_refs
    described = metric.get_signature()
    if test is not None:
        described.update("seed", seed)
        described.update(test, trials)
    return str(described.format(False))
