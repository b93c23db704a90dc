"""The public corpus functions: keyword options become settings here, the service layer
(``chrf._service``) reads the texts and scores them."""

from __future__ import annotations

from chrf import _service
from chrf._inputs import Layout, References, Texts, check_layout
from chrf._keywords import with_options_doc
from chrf._settings import (
    DEFAULT_SETTINGS,
    ExactOptions,
    Options,
    exact_settings,
    settings_of,
)

# Not typing's own: the first score would import typing (see chrf/__init__.py).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing_extensions import Unpack

    from chrf._components import Components
    from chrf._statistics import Statistics


@with_options_doc()
def score(
    hypotheses: Texts,
    references: References,
    *,
    layout: Layout | None = None,
    **options: Unpack[Options],
) -> float:
    """Corpus-level chrF (chrF++ with ``word_order=2``) on 0..100.

    Equal (``==``) to ``sacrebleu.metrics.CHRF(...).corpus_score(...).score`` under the same
    settings. ``references`` is one reference string per hypothesis, or a list of reference
    streams, each with one reference per hypothesis (sacreBLEU's layout), or with
    ``layout="per_hypothesis"`` the references of each hypothesis (evaluate's and
    torchmetrics' layout); ``None`` marks a missing reference. The keyword options and their
    defaults are below.
    """
    # Without options, no call: for one short pair, a call is a visible share of the time.
    settings = settings_of(options) if options else DEFAULT_SETTINGS
    if layout is not None:
        check_layout(layout)
    return _service.compiled_score(settings.compiled, hypotheses, references, layout)


@with_options_doc(exact=True)
def components(
    hypotheses: Texts,
    references: References,
    *,
    layout: Layout | None = None,
    **options: Unpack[ExactOptions],
) -> Components:
    """The corpus score with its per-order counts, precision, recall and F as exact fractions.

    Same arguments as :func:`score`, but for ``eps_smoothing``, which has no exact form.
    ``.to_dict()`` gives the ``chrf-components`` 1.0.0 output object.
    """
    settings = exact_settings(options)
    return _service.components(settings, _service.read(settings, hypotheses, references, layout))


@with_options_doc()
def statistics(
    hypotheses: Texts,
    references: References,
    *,
    layout: Layout | None = None,
    **options: Unpack[Options],
) -> Statistics:
    """The corpus statistics behind :func:`score`: per-order n-gram counts that add up.

    Statistics of shards add (``a + b``, ``sum(parts)``) to those of the whole corpus, pickle,
    and give ``.score()`` and ``.components()`` as the corpus would.
    """
    settings = settings_of(options)
    return _service.statistics(settings, _service.read(settings, hypotheses, references, layout))
