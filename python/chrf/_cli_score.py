"""`chrf REF [REF ...] -i HYP [HYP ...]`: sacreBLEU's command line, for chrF and chrF++.

Same arguments (with sacreBLEU's `--chrf-*` spellings), same line reading (UTF-8, lines split
on "\\n" only and right-stripped), same output for the same settings (JSON by default, width 1),
and the same seeds for `--confidence`, `--paired-bs` and `--paired-ar`, so that scores, intervals
and p-values are sacreBLEU's. Plain scoring streams the files: memory stays bounded whatever
their size.
"""

from __future__ import annotations

import argparse
import io
import json
import math
import os
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import islice, tee, zip_longest
from typing import Any

from chrf._api import statistics
from chrf._cli_io import (
    CliError,
    Parser,
    non_negative_int,
    positive_int,
    reading,
    write_line,
)
from chrf._components import Components, fraction_text, six_decimals
from chrf._inputs import Corpus, corpus
from chrf._messages import shown
from chrf._sacrebleu import CHRF, VERSION, CHRFScore
from chrf._settings import AVERAGINGS, Settings
from chrf._statistics import Statistics

__all__ = ["score_main"]


def chunk_segments() -> int:
    """Segments scored per step when streaming ($CHRF_CLI_CHUNK, for tests): memory stays
    bounded by this, not by file size."""
    text = os.environ.get("CHRF_CLI_CHUNK", "4096")
    try:
        return positive_int(text)
    except argparse.ArgumentTypeError as error:
        raise CliError(f"CHRF_CLI_CHUNK {error}") from None


def parser() -> argparse.ArgumentParser:
    p = Parser(
        prog="chrf",
        description="chrF and chrF++ with sacreBLEU's command line. Other commands: "
        "'chrf components --input FILE' (the JSON contract), 'chrf selftest'.",
    )
    p.add_argument("refs", nargs="*", metavar="REF", help="reference files, one per stream")
    p.add_argument(
        "--input",
        "-i",
        nargs="*",
        metavar="HYP",
        help="system outputs (default: stdin, tab-separated systems)",
    )
    p.add_argument(
        "--metrics",
        "-m",
        nargs="+",
        default=["chrf"],
        help="accepted for sacreBLEU compatibility: only chrf",
    )
    p.add_argument(
        "--num-refs",
        "-nr",
        type=positive_int,
        default=1,
        help="references per line of a single tab-separated reference file",
    )
    p.add_argument(
        "--encoding", "-e", default="utf-8", help="input encoding (default: %(default)s)"
    )
    c = p.add_argument_group("chrF settings")
    c.add_argument(
        "--chrf-char-order", "--char-order", "-cc", type=int, default=6, dest="char_order"
    )
    c.add_argument(
        "--chrf-word-order", "--word-order", "-cw", type=int, default=0, dest="word_order"
    )
    c.add_argument(
        "--chrf-beta",
        "--beta",
        default="2",
        dest="beta",
        help="an integer, a fraction p/q or a decimal",
    )
    c.add_argument("--chrf-lowercase", "--lowercase", "-lc", action="store_true", dest="lowercase")
    c.add_argument("--chrf-whitespace", "--whitespace", action="store_true", dest="whitespace")
    c.add_argument(
        "--chrf-eps-smoothing", "--eps-smoothing", action="store_true", dest="eps_smoothing"
    )
    c.add_argument("--averaging", choices=AVERAGINGS, default="precision_recall")
    c.add_argument(
        "--count-hyp-without-ref",
        action="store_true",
        help="count hypothesis n-grams of orders the reference lacks (the JSON contract's rule)",
    )
    s = p.add_argument_group("statistics (sacreBLEU's seeds: 12345, or $SACREBLEU_SEED)")
    s.add_argument(
        "--confidence", "-ci", action="store_true", help="bootstrap 95%% confidence interval"
    )
    s.add_argument(
        "--confidence-n",
        "-cin",
        type=int,
        default=1000,
        help="bootstrap resamples (default: %(default)s)",
    )
    pair = s.add_mutually_exclusive_group()
    pair.add_argument(
        "--paired-bs",
        "-pbs",
        action="store_true",
        help="paired bootstrap resampling test against the first system",
    )
    pair.add_argument(
        "--paired-ar",
        "-par",
        action="store_true",
        help="paired approximate randomization test against the first system",
    )
    s.add_argument("--paired-bs-n", "-pbsn", type=positive_int, default=1000)
    s.add_argument("--paired-ar-n", "-parn", type=positive_int, default=10000)
    s.add_argument(
        "--paired-jobs",
        "-j",
        type=int,
        default=1,
        help="accepted for sacreBLEU compatibility (work runs on CHRF_NUM_THREADS threads)",
    )
    r = p.add_argument_group("output")
    r.add_argument("--format", "-f", choices=["json", "text"], default="json")
    r.add_argument(
        "--width", "-w", type=non_negative_int, default=1, help="decimals (default: %(default)s)"
    )
    r.add_argument("--score-only", "-b", action="store_true")
    r.add_argument("--short", "-sh", action="store_true", help="short signature")
    r.add_argument("--sentence-level", "-sl", action="store_true")
    r.add_argument(
        "--breakdown",
        action="store_true",
        help="per-order counts, precision, recall and F, exact and decimal",
    )
    r.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    p.add_argument("--version", "-V", action="version", version=f"chrf {VERSION}")
    return p


def score_main(argv: Sequence[str]) -> int:
    """Scores as sacreBLEU's command line does; errors are raised for `chrf.cli.main`."""
    args = parser().parse_args(argv)
    if args.format == "json" and os.environ.get("SACREBLEU_FORMAT", "").lower() == "text":
        args.format = "text"
    return run(args)


def run(args: argparse.Namespace) -> int:
    if [m.lower() for m in args.metrics] != ["chrf"]:
        raise CliError("only the chrf metric is available (-m chrf)")
    if not args.refs:
        raise CliError("give at least one reference file")
    check_encoding(args.encoding)
    settings = settings_of(args)
    refs = References(args.refs, args.num_refs, args.encoding)
    systems = system_sources(args)
    paired = args.paired_bs or args.paired_ar
    if args.sentence_level:
        if len(systems) > 1 or args.confidence or paired:
            raise CliError("--sentence-level takes one system and no statistical test")
        return sentence_level(args, settings, refs, systems[0])
    if paired:
        if len(systems) < 2:
            raise CliError("paired tests need several systems given to --input (-i)")
        return paired_test(args, settings, refs, systems)
    if args.confidence and len(systems) > 1:
        raise CliError("use paired tests (--paired-bs, --paired-ar) for several systems")
    if len(systems) == 1:
        return single_system(args, settings, refs, systems[0])
    return many_systems(args, settings, refs, systems)


def settings_of(args: argparse.Namespace) -> Settings:
    return Settings(
        char_order=args.char_order,
        word_order=args.word_order,
        beta=parse_beta(args.beta),
        lowercase=args.lowercase,
        include_whitespace=args.whitespace,
        averaging=args.averaging,
        eps_smoothing=args.eps_smoothing,
        count_hyp_without_ref=args.count_hyp_without_ref,
    )


def parse_beta(text: str) -> int | Fraction | float:
    """An integer, a fraction p/q or a decimal, each read exactly as written."""
    try:
        if "/" in text:
            return Fraction(text)
        return int(text)
    except (ValueError, ZeroDivisionError):  # also: 1/0, and more digits than Python converts
        pass
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value):
        raise CliError(f"--beta must be a number (an integer, p/q or a decimal), not {shown(text)}")
    return value


def check_encoding(name: str) -> None:
    try:
        io.TextIOWrapper(io.BytesIO(), encoding=name)
    except (LookupError, ValueError):  # unknown, not a text encoding, or not a name at all
        raise CliError(f"--encoding: {shown(name)} is not a text encoding Python knows") from None


def metric_of(settings: Settings, num_refs: int) -> CHRF:
    metric = CHRF.from_settings(settings)
    metric.num_refs = num_refs
    return metric


# Reading ---------------------------------------------------------------------------------


def read_lines(path: str, encoding: str) -> Iterator[str]:
    """sacreBLEU's reading: lines split on "\\n" only, each right-stripped of whitespace."""
    with reading(path), open(path, encoding=encoding, newline="\n") as handle:
        for line in handle:
            yield line.rstrip()


def stdin_lines(encoding: str) -> Iterator[str]:
    """Standard input, read as `read_lines` reads a file."""
    if sys.stdin is None:
        raise CliError("standard input is closed: give the system output with --input (-i)")
    with reading("standard input"):
        for line in io.TextIOWrapper(sys.stdin.buffer, encoding=encoding, newline="\n"):
            yield line.rstrip()


@dataclass
class References:
    files: list[str]
    num_refs: int
    encoding: str

    @property
    def count(self) -> int:
        return len(self.files) if self.num_refs == 1 else self.num_refs

    @property
    def names(self) -> list[str]:
        return (
            self.files
            if self.num_refs == 1
            else [f"{self.files[0]} (field {k + 1})" for k in range(self.num_refs)]
        )

    def streams(self) -> list[Iterator[str]]:
        """One line iterator per reference stream."""
        if self.num_refs == 1:
            return [read_lines(path, self.encoding) for path in self.files]
        if len(self.files) != 1:
            raise CliError("--num-refs needs exactly one tab-separated reference file")
        return split_fields(read_lines(self.files[0], self.encoding), self.num_refs, self.files[0])


def split_fields(lines: Iterator[str], count: int, name: str) -> list[Iterator[str]]:
    rows = (split_row(line, count, name, number) for number, line in enumerate(lines, 1))
    return unzip(rows, count)


def split_row(line: str, count: int, name: str, number: int) -> list[str]:
    fields = line.split("\t", maxsplit=count - 1)
    if len(fields) != count:
        raise CliError(
            f"{name} line {number}: expected {count} tab-separated fields, found {len(fields)}"
        )
    return fields


def unzip(rows: Iterator[list[str]], count: int) -> list[Iterator[str]]:
    """Splits one iterator of rows into `count` column iterators. Consumed in lockstep (as the
    references are, by `zip`), `tee` buffers one row; consumed one after another (several systems
    on stdin), it keeps the rows the later columns have not reached yet."""
    return [column(copy, k) for k, copy in enumerate(tee(rows, count))]


def column(rows: Iterator[list[str]], k: int) -> Iterator[str]:
    for row in rows:
        yield row[k]


@dataclass
class System:
    name: str
    lines: Iterator[str]


def system_sources(args: argparse.Namespace) -> list[System]:
    if args.input:
        names = list(dict.fromkeys(args.input))
        if len(names) != len(args.input) and not (args.paired_bs or args.paired_ar):
            raise CliError("the same system file is given twice")
        return [System(name, read_lines(name, args.encoding)) for name in names]
    return stdin_systems(stdin_lines(args.encoding))


def stdin_systems(lines: Iterator[str]) -> list[System]:
    """sacreBLEU's stdin: one system, or several as tab-separated fields of each line."""
    first = next(lines, None)
    if first is None:
        raise CliError("no input on stdin")
    fields = first.split("\t")
    count = len(fields)
    rows = (check_fields(line.split("\t"), count, n) for n, line in enumerate(lines, 2))
    columns = unzip(_prepend(fields, rows), count)
    names = ["stdin"] if count == 1 else [f"System {k + 1}" for k in range(count)]
    return [
        System(name, (field.rstrip() for field in lines_of_system))
        for name, lines_of_system in zip(names, columns, strict=True)
    ]


def _prepend(first: list[str], rows: Iterator[list[str]]) -> Iterator[list[str]]:
    yield first
    yield from rows


def check_fields(fields: list[str], count: int, number: int) -> list[str]:
    if len(fields) != count:
        raise CliError(
            f"stdin line {number}: {len(fields)} tab-separated systems, "
            f"where the first line has {count}"
        )
    return fields


@dataclass
class Segments:
    """Aligned hypotheses and reference streams (`references[k][i]`)."""

    hypotheses: list[str]
    references: list[list[str]]

    def corpus(self) -> Corpus:
        return corpus(self.hypotheses, self.references)


def aligned_chunks(system: System, refs: References) -> Iterator[Segments]:
    """The system and its references in chunks of aligned segments; a length mismatch is an
    error naming every stream and its line count."""
    rows = zip_longest(system.lines, *refs.streams())
    complete = 0
    size = chunk_segments()
    while chunk := list(islice(rows, size)):
        if any(value is None for row in chunk for value in row):
            raise length_error([system.name, *refs.names], complete, [*chunk, *rows])
        complete += len(chunk)
        yield Segments(
            [row[0] for row in chunk], [[row[k] for row in chunk] for k in range(1, len(chunk[0]))]
        )


def length_error(names: list[str], complete: int, rest: list[tuple[str | None, ...]]) -> CliError:
    counts = [complete + sum(row[k] is not None for row in rest) for k in range(len(names))]
    return mismatch(names, counts)


def mismatch(names: list[str], counts: list[int]) -> CliError:
    described = ", ".join(
        f"{name} has {count} lines" for name, count in zip(names, counts, strict=True)
    )
    return CliError(f"the system and its references differ in length: {described}")


def whole_corpus(system: System, refs: References) -> Segments:
    """All segments in memory: for the statistical tests, which resample segments."""
    return whole_corpora([system], refs)[0]


def whole_corpora(systems: list[System], refs: References) -> list[Segments]:
    """Every system's segments in memory, the references read once and shared by all."""
    references = [list(stream) for stream in refs.streams()]
    corpora = []
    for system in systems:
        hypotheses = list(system.lines)
        counts = [len(hypotheses), *(len(stream) for stream in references)]
        if len(set(counts)) != 1:
            raise mismatch([system.name, *refs.names], counts)
        corpora.append(Segments(hypotheses, references))
    return corpora


# Modes -------------------------------------------------------------------------------------


def streamed_statistics(settings: Settings, system: System, refs: References) -> Statistics:
    total: Statistics | None = None
    for chunk in aligned_chunks(system, refs):
        part = statistics(chunk.hypotheses, chunk.references, **settings.options())
        total = part if total is None else total + part
    if total is None:
        raise CliError(f"{system.name} is empty")
    return total


def single_system(
    args: argparse.Namespace, settings: Settings, refs: References, system: System
) -> int:
    metric = metric_of(settings, refs.count)
    if args.breakdown and settings.eps_smoothing:
        raise CliError("--breakdown shows exact fractions, which --eps-smoothing does not have")
    if args.confidence:
        c = whole_corpus(system, refs)
        result = metric.corpus_score(
            c.hypotheses, c.references, n_bootstrap=args.confidence_n, progress=not args.quiet
        )
        stats = statistics(c.hypotheses, c.references, **settings.options())
    else:
        stats = streamed_statistics(settings, system, refs)
        result = CHRFScore(stats.score(), settings.char_order, settings.word_order, settings.beta)
    signature = metric.get_signature().format(args.short if args.format != "json" else False)
    text = result.format(args.width, args.score_only, signature, args.format == "json")
    if args.breakdown:
        components = stats.components()
        if args.format == "json" and not args.score_only:
            data = json.loads(text)
            data["breakdown"] = components.to_dict()
            text = json.dumps(data, indent=1, ensure_ascii=False)
        else:
            text += "\n" + breakdown_table(components)
    write_line(text)
    return 0


def breakdown_table(c: Components) -> str:
    """The per-order table behind a score: counts, then precision, recall and F, each as an
    exact fraction and as a decimal rounded to six places."""

    def cell(value: Fraction | None) -> str:
        if value is None:
            return "undefined"
        return f"{six_decimals(value)} ({fraction_text(value)})"

    header = ["order", "hyp n-grams", "ref n-grams", "matches", "precision", "recall", "F"]
    rows = [
        [
            f"{o.type} {o.n}" + ("" if o.effective else " *"),
            str(o.hypothesis_ngrams),
            str(o.reference_ngrams),
            str(o.matching_ngrams),
            cell(o.precision),
            cell(o.recall),
            cell(o.f_score),
        ]
        for o in c.orders
    ]
    out = aligned([header, *rows], "  ", left_first=True)
    if any(not o.effective for o in c.orders):
        out.append("* not effective (no n-grams on one side): left out of the averages")
    out.append(f"effective orders: {c.effective_order_count}")
    out.append(f"average precision: {cell(c.average_precision)}")
    out.append(f"average recall:    {cell(c.average_recall)}")
    out.append(f"score: {c.score} ({fraction_text(c.score_fraction)})")
    return "\n".join(out)


def sentence_level(
    args: argparse.Namespace, settings: Settings, refs: References, system: System
) -> int:
    from chrf._batch import sentence_scores

    metric = metric_of(settings, refs.count)
    signature = metric.get_signature().format(args.short)
    for chunk in aligned_chunks(system, refs):
        scores = sentence_scores(chunk.hypotheses, chunk.references, **settings.options())
        results = (
            CHRFScore(float(value), settings.char_order, settings.word_order, settings.beta)
            for value in scores
        )
        write_line("\n".join(r.format(args.width, args.score_only, signature) for r in results))
    return 0


def many_systems(
    args: argparse.Namespace, settings: Settings, refs: References, systems: list[System]
) -> int:
    metric = metric_of(settings, refs.count)
    name = CHRFScore(0.0, settings.char_order, settings.word_order, settings.beta).name
    scores = [streamed_statistics(settings, system, refs).score() for system in systems]
    signature = metric.get_signature().format(args.short)
    if args.format == "json":
        rows = [
            {"system": s.name, name: f"{v:.{args.width}f}"}
            for s, v in zip(systems, scores, strict=True)
        ]
        write_line(json.dumps(rows, indent=4))
        return 0
    table = [[s.name, f"{v:.{args.width}f}"] for s, v in zip(systems, scores, strict=True)]
    write_line(render_table(["System", name], table))
    print_signatures({name: signature})
    return 0


def paired_test(
    args: argparse.Namespace, settings: Settings, refs: References, systems: list[System]
) -> int:
    from chrf._significance import paired_bootstrap, paired_randomization

    corpora = [segments.corpus() for segments in whole_corpora(systems, refs)]
    show = not args.quiet
    if args.paired_bs:
        seed, results = paired_bootstrap(settings, corpora[0], corpora[1:], args.paired_bs_n, show)
    else:
        seed, results = paired_randomization(
            settings, corpora[0], corpora[1:], args.paired_ar_n, show
        )
    metric = metric_of(settings, refs.count)
    signature = metric.get_signature()
    signature.update("seed", seed)
    signature.update(
        "bs" if args.paired_bs else "ar", args.paired_bs_n if args.paired_bs else args.paired_ar_n
    )
    name = CHRFScore(0.0, settings.char_order, settings.word_order, settings.beta).name
    names = [f"Baseline: {systems[0].name}", *(s.name for s in systems[1:])]
    if args.format == "json":
        rows = [{"system": n, name: result_dict(r)} for n, r in zip(names, results, strict=True)]
        write_line(json.dumps(rows, indent=4))
        return 0
    width = args.width
    title = f"{name} (μ ± 95% CI)" if args.paired_bs else name
    table = []
    for n, r in zip(names, results, strict=True):
        text = f"{r.score:.{width}f}"
        if r.mean is not None:
            text += f" ({r.mean:.{width}f} ± {r.ci:.{width}f})"
        if r.p_value is not None:
            text += f" (p = {r.p_value:.4f})" + ("*" if r.p_value <= 0.05 else "")
        table.append([n, text])
    write_line(render_table(["System", title], table))
    test = "bootstrap resampling" if args.paired_bs else "approximate randomization"
    trials = (
        f"{args.paired_bs_n} resampling trials" if args.paired_bs else f"{args.paired_ar_n} trials"
    )
    write_line(
        f"\nPaired {test} test with {trials} against {names[0]}; p-values marked * are <= 0.05."
    )
    print_signatures({name: signature.format(args.short)})
    return 0


def result_dict(r: Any) -> dict[str, Any]:
    def plain(value: Any) -> Any:
        return None if value is None else float(value)

    return {"score": r.score, "p_value": r.p_value, "mean": plain(r.mean), "ci": plain(r.ci)}


def render_table(header: list[str], rows: list[list[str]]) -> str:
    lines = aligned([header, *rows], " | ", left_first=False)
    rule = "-" * len(lines[0])
    return "\n".join([rule, lines[0], rule, *lines[1:], rule])


def aligned(rows: list[list[str]], separator: str, *, left_first: bool) -> list[str]:
    """Rows as lines of padded columns: the first column left-aligned (or right-aligned),
    the others right-aligned."""
    widths = [max(len(row[k]) for row in rows) for k in range(len(rows[0]))]

    def line(row: list[str]) -> str:
        cells = [
            value.ljust(width) if k == 0 and left_first else value.rjust(width)
            for k, (value, width) in enumerate(zip(row, widths, strict=True))
        ]
        return separator.join(cells).rstrip()

    return [line(row) for row in rows]


def print_signatures(signatures: dict[str, str]) -> None:
    lines = [f" - {name:<10} {signature}" for name, signature in signatures.items()]
    write_line("\n".join(["\n-----------------\nMetric signatures\n-----------------", *lines]))
