"""`chrf REF [REF ...] -i HYP [HYP ...]`: sacreBLEU's command line, for chrF and chrF++.

Same arguments (with sacreBLEU's `--chrf-*` spellings, and its test sets), same line reading
(`chrf.cli.reading`), same output for the same settings (JSON by default, width 1; its tables),
and the same seeds for `--confidence`, `--paired-bs` and `--paired-ar`, so that scores, intervals
and p-values are sacreBLEU's. Plain scoring streams the files: memory stays bounded whatever
their size.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from chrf import _service
from chrf._settings import Settings
from chrf._signature import CHRFScore, formatted, score_name, signature_info
from chrf._statistics import Statistics
from chrf.cli import render
from chrf.cli.io import CliError, write_line
from chrf.cli.options import Options, PairedTest, score_options
from chrf.cli.reading import (
    References,
    System,
    aligned_chunks,
    native_chunks,
    native_paths,
    system_sources,
    whole_corpora,
    whole_corpus,
)

__all__ = ["score", "score_command"]


def score_command(args: list[str], hint: str = "") -> int:
    """The scoring command on its arguments; `hint` ends argparse's errors (see
    `chrf.cli.outcome.command_of`)."""
    return score(score_options(args, hint))


def score(options: Options) -> int:
    """Scores as sacreBLEU's command line does; errors are raised for `chrf.cli.main`."""
    if options.listing or options.echo or options.citation or options.download:
        from chrf.cli.testsets import answer

        return answer(options)
    refs = (
        References(list(options.refs), options.num_refs, options.encoding)
        if options.test_set is None
        else test_set_references(options)
    )
    systems = system_sources(
        options.inputs,
        options.encoding,
        paired=options.paired is not None,
        ref_files=len(options.refs),
    )
    if options.breakdown and options.settings.eps_smoothing:
        raise CliError("--breakdown shows exact fractions, which --eps-smoothing does not have")
    if options.sentence_level:
        if len(systems) > 1 or options.confidence or options.paired:
            raise CliError("--sentence-level takes one system and no statistical test")
        return sentence_level(options, refs, systems[0])
    if options.paired:
        if len(systems) < 2:
            raise CliError("paired tests need several systems given to --input (-i)")
        return paired_test(options, options.paired, refs, systems)
    if options.confidence and len(systems) > 1:
        raise CliError("use paired tests (--paired-bs, --paired-ar) for several systems")
    if len(systems) == 1:
        return single_system(options, refs, systems[0])
    return many_systems(options, refs, systems)


def test_set_references(options: Options) -> References:
    from chrf.cli.testsets import test_set_references as of_test_set

    return of_test_set(str(options.test_set), str(options.langpair), options.encoding)


def single_system(options: Options, refs: References, system: System) -> int:
    """One system's corpus score (with a bootstrap interval under --confidence)."""
    settings = options.settings
    if options.confidence:
        info = signature_info(settings, refs.count)
        result, stats = confidence_score(options, info, refs, system)
    else:
        stats = streamed_statistics(settings, system, refs)
        info = signature_info(settings, refs.count)
        result = score_of(settings, stats.score())
    signature = formatted(info, options.short if options.format != "json" else False)
    breakdown = stats.components() if options.breakdown else None
    write_line(render.corpus_score(result, signature, options, breakdown))
    return 0


def confidence_score(
    options: Options, info: dict[str, Any], refs: References, system: System
) -> tuple[CHRFScore, Statistics]:
    """sacreBLEU's bootstrap interval, which needs every segment in memory to resample them; its
    resample count and seed go into the signature `info` (1 or less: no interval, as in
    sacreBLEU)."""
    settings = options.settings
    corpus = whole_corpus(system, refs).corpus(settings)
    result = score_of(settings, _service.score(settings, corpus))
    if options.confidence_n > 1:
        seed, samples = _service.bootstrap(
            settings, corpus, options.confidence_n, not options.quiet
        )
        result.estimate_ci(samples)
        info.update(bs=options.confidence_n, seed=seed)
    return result, _service.statistics(settings, corpus)


def streamed_statistics(settings: Settings, system: System, refs: References) -> Statistics:
    total: Statistics | None = None
    for part in statistics_chunks(settings, system, refs):
        total = part if total is None else total + part
    if total is None:
        raise CliError(f"{system.name} is empty")
    return total


def statistics_chunks(settings: Settings, system: System, refs: References) -> Iterator[Statistics]:
    """The statistics of each chunk, from files the core reads itself when it can."""
    paths = native_paths(system, refs, settings.lowercase)
    if paths is None:
        for chunk in aligned_chunks(system, refs):
            yield _service.statistics(settings, chunk.corpus(settings))
        return
    names = [system.name, *refs.files]  # `refs.names`: the core reads one reference a file
    yield from native_chunks(paths, names, lambda f: _service.files_statistics(settings, f))


def sentence_level(options: Options, refs: References, system: System) -> int:
    """One score per segment, written chunk by chunk as the files stream (as a list of
    floats: formatting them needs no NumPy, which only --breakdown loads)."""
    settings = options.settings
    signature = formatted(signature_info(settings, refs.count), options.short)
    if options.breakdown:
        return sentence_breakdowns(options, refs, system, signature)
    name = metric_name(settings)
    for scores in sentence_score_chunks(settings, system, refs):
        write_line(render.sentence_scores(scores, name, signature, options))
    return 0


def sentence_score_chunks(
    settings: Settings, system: System, refs: References
) -> Iterator[list[float]]:
    """The sentence scores of each chunk, from files the core reads itself when it can."""
    paths = native_paths(system, refs, settings.lowercase)
    if paths is None:
        for chunk in aligned_chunks(system, refs):
            yield _service.sentence_score_list(settings, chunk.corpus(settings))
        return
    names = [system.name, *refs.files]  # `refs.names`, as in `statistics_chunks`
    yield from native_chunks(paths, names, lambda f: _service.files_sentence_scores(settings, f))


def sentence_breakdowns(options: Options, refs: References, system: System, signature: str) -> int:
    from chrf._analysis import segment_components

    settings = options.settings
    for chunk in aligned_chunks(system, refs):
        corpus = chunk.corpus(settings)
        scores = _service.sentence_score_list(settings, corpus)
        results = [score_of(settings, value) for value in scores]
        parts = segment_components(settings, corpus)
        pairs = zip(results, parts, strict=True)
        write_line("\n".join(render.corpus_score(r, signature, options, b) for r, b in pairs))
    return 0


def many_systems(options: Options, refs: References, systems: list[System]) -> int:
    settings = options.settings
    totals = [streamed_statistics(settings, system, refs) for system in systems]
    scores = [total.score() for total in totals]
    signature = formatted(signature_info(settings, refs.count), options.short)
    names = [system.name for system in systems]
    blocks = render.systems_table(names, scores, metric_name(settings), signature, options)
    if options.breakdown:
        breakdowns = [total.components() for total in totals]
        blocks = render.systems_breakdowns(blocks, names, breakdowns, options)
    for block in blocks:
        write_line(block)
    return 0


def paired_test(options: Options, test: PairedTest, refs: References, systems: list[System]) -> int:
    """sacreBLEU's paired tests of every system against the first (the baseline)."""
    from chrf._analysis import paired_test as run

    settings = options.settings
    corpora = [segments.corpus(settings) for segments in whole_corpora(systems, refs)]
    seed, results = run(settings, corpora, test.method, test.trials, not options.quiet)
    signature = signature_info(settings, refs.count, seed=seed)
    signature[test.method] = test.trials
    names = (
        [f"Baseline: {systems[0].name}", *(s.name for s in systems[1:])]
        if options.inputs
        else ["Baseline", *(f"System {k}" for k in range(1, len(systems)))]  # sacreBLEU's stdin
    )
    blocks = render.paired_test(
        names, results, metric_name(settings), formatted(signature, options.short), test, options
    )
    if options.breakdown:
        breakdowns = [_service.components(settings, c) for c in corpora]
        blocks = render.systems_breakdowns(blocks, names, breakdowns, options)
    for block in blocks:
        write_line(block)
    return 0


def score_of(settings: Settings, value: float) -> CHRFScore:
    return CHRFScore(value, settings.char_order, settings.word_order, settings.beta)


def metric_name(settings: Settings) -> str:
    """ "chrF2", "chrF2++", ...: as sacreBLEU names the metric in tables."""
    return score_name(settings.beta, settings.word_order)
