"""The service layer's explanations, comparisons and statistical tests over ``(Settings,
corpus)`` (see ``chrf._service``), and the public functions :func:`explain` and :func:`compare`.

The command line, the HTML report and the sacreBLEU facade's bootstrap call the functions over
corpora; :func:`explain` and :func:`compare` read their arguments and call the same.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

import numpy as np

from chrf import _core, _service
from chrf._compare import Comparison, Test, difference, order_components
from chrf._components import Components, components_of
from chrf._errors import InputError, InputTypeError, SettingsError
from chrf._explain import Explanation, counts_of, frozen, orders_of
from chrf._explained import explained
from chrf._inputs import Layout, References, Texts, as_list, whole_number
from chrf._keywords import with_options_doc
from chrf._messages import shown
from chrf._service import Corpus
from chrf._settings import Options, Settings, settings_of
from chrf._significance import Result, paired_bootstrap, paired_randomization

if TYPE_CHECKING:
    from typing_extensions import Unpack

__all__ = [
    "compare",
    "comparison",
    "explain",
    "explanation",
    "paired_test",
    "segment_components",
]


@with_options_doc()
def explain(
    hypotheses: Texts,
    references: References,
    top: int | None = None,
    *,
    layout: Layout | None = None,
    **options: Unpack[Options],
) -> Explanation:
    """Which n-grams and which segments cost the corpus score.

    Same arguments as :func:`chrf.score` (``layout`` included); ``top`` keeps the ``top`` most
    frequent missing and extra n-grams of each order (None: all of them). Per order, the missing
    counts sum to R - M and the extra counts to H - M of the corpus statistics, exactly.
    """
    if top is not None:
        top = whole_number(top, "top", optional=True)
        # No list is longer: such a top keeps every n-gram, as None says (and writes shortly).
        top = None if top > sys.maxsize else top
    settings = settings_of(options)
    return explanation(settings, _service.read(settings, hypotheses, references, layout), top)


def explanation(settings: Settings, corpus: Corpus, top: int | None) -> Explanation:
    """Why a corpus scores what it scores: its n-grams (the ``top`` of each list, all for
    None), its segments' statistics and scores, and each one's leave-one-out delta."""
    references, lists = explained(settings, corpus, top)
    stats = _service.segment_statistics(settings, corpus)
    score = _core.score_of(settings.compiled, list(counts_of(stats)))
    without = _core.swapped_scores(settings.compiled, stats)
    return Explanation(
        settings=settings,
        score=score,
        orders=orders_of(settings, stats, lists, top),
        references=frozen(np.asarray(references, dtype=np.int64)),
        segment_statistics=frozen(stats),
        sentence_scores=frozen(_service.sentence_scores_of(settings, corpus)),
        leave_one_out=frozen(np.asarray(score - without, dtype=np.float64)),
        top=top,
        _corpus=corpus,
    )


@with_options_doc()
def compare(
    systems: Mapping[str, Texts] | Sequence[Texts],
    references: References,
    top: int = 10,
    test: Test | None = "bs",
    trials: int | None = None,
    *,
    layout: Layout | None = None,
    **options: Unpack[Options],
) -> Comparison:
    """Compares systems (a mapping of names to outputs, or a sequence, named "system 1", ...)
    on the same references; the first is the baseline.

    ``test`` is sacreBLEU's paired bootstrap (``"bs"``, 1,000 resamples by default) or
    approximate randomization (``"ar"``, 10,000 trials), with sacreBLEU's seeds; None skips it.
    ``references`` and ``layout`` are read as by :func:`chrf.score`.
    ``top`` bounds the segments and the n-grams per order listed for each difference.
    """
    named = _named(systems)
    if len(named) < 2:
        raise InputError("compare needs at least two systems", argument="systems", reason="too_few")
    if not (test is None or (isinstance(test, str) and test in ("bs", "ar"))):
        raise SettingsError(
            f"test must be 'bs', 'ar' or None, not {shown(test)}",
            argument="test",
            reason="invalid_choice",
        )
    top = whole_number(top, "top")
    trials = _trials(trials)
    settings = settings_of(options)
    corpora = {
        name: _service.read(settings, hyps, references, layout) for name, hyps in named.items()
    }
    return comparison(settings, corpora, top, test, trials)


def comparison(
    settings: Settings,
    corpora: dict[str, Corpus],
    top: int,
    test: Test | None,
    trials: int | None,
) -> Comparison:
    """Systems' corpora on the same references compared with the first; one system alone gives
    no difference and no test."""
    explained = tuple(explanation(settings, c, None) for c in corpora.values())
    method = test if len(corpora) > 1 else None
    seed, results = _tested(settings, explained, method, trials)
    components = tuple(order_components(settings, e) for e in explained)
    differences = tuple(
        difference(
            name,
            explained[0],
            explained[k],
            (components[0], components[k]),
            results[k].p_value if results else None,
            top,
        )
        for k, name in enumerate(corpora)
        if k > 0
    )
    return Comparison(
        settings=settings,
        names=tuple(corpora),
        explanations=explained,
        components=components,
        test=test if results else None,
        seed=seed,
        results=tuple(results) or tuple(Result(e.score) for e in explained),
        differences=differences,
    )


def paired_test(
    settings: Settings, corpora: list[Corpus], method: Test, trials: int, progress: bool
) -> tuple[str, list[Result]]:
    """sacreBLEU's paired test (``"bs"``: bootstrap resampling, ``"ar"``: approximate
    randomization) of each corpus after the first against the first: the seed, and one row per
    corpus."""
    run = paired_bootstrap if method == "bs" else paired_randomization
    return run(settings, corpora[0], corpora[1:], trials, progress)


def segment_components(settings: Settings, corpus: Corpus) -> list[Components]:
    """Each segment's exact components, as :func:`chrf.components` gives them for it alone."""
    stats = _service.segment_statistics(settings, corpus)
    return [components_of(settings, counts_of(stats[i : i + 1]), 1) for i in range(len(stats))]


def _named(systems: Mapping[str, Texts] | Sequence[Texts]) -> dict[str, Texts]:
    if isinstance(systems, Mapping):
        named = dict(systems)
        for name in named:
            if not isinstance(name, str):
                raise InputTypeError(
                    f"system names must be str, not {type(name).__name__}",
                    argument="systems",
                    reason="wrong_type",
                )
        return named
    items = as_list(systems, "systems", "system outputs")
    return {f"system {k + 1}": hyps for k, hyps in enumerate(items)}  # type: ignore[misc]


def _trials(trials: object) -> int | None:
    """The number of resamples or trials: None for the test's default, else 1 or more (NumPy
    draws them as C integers)."""
    if trials is None:
        return None
    count = whole_number(trials, "trials", minimum=1, optional=True)
    if count > sys.maxsize:
        raise SettingsError(
            f"trials must be at most {sys.maxsize}, not {shown(count)}",
            argument="trials",
            reason="out_of_range",
        )
    return count


def _tested(
    settings: Settings, explained: tuple[Explanation, ...], test: Test | None, trials: int | None
) -> tuple[str | None, list[Result]]:
    if test is None:
        return None, []
    corpora = [e._corpus for e in explained]
    default = 1000 if test == "bs" else 10000
    return paired_test(settings, corpora, test, default if trials is None else trials, False)
