"""`chrf explain REF [REF ...] -i SYS [SYS ...]`: which n-grams, which segments and, for several
systems, which differences make the score; as text tables or JSON."""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from chrf import _analysis
from chrf._compare import Comparison, SystemDifference
from chrf._explain import Explanation
from chrf._sacrebleu import CHRF
from chrf._settings import Settings, score_name
from chrf.cli.arguments import add_chrf_settings
from chrf.cli.io import CliError, Parser, write_line
from chrf.cli.options import check_encoding, settings_of
from chrf.cli.reading import References, Segments, system_sources, whole_corpora
from chrf.cli.render import render_table
from chrf.cli.values import positive_int

__all__ = ["Inputs", "add_input_arguments", "explain_command", "inputs_of", "read_inputs"]


@dataclass(frozen=True)
class Inputs:
    """Reference files, system files and settings, as `explain` and `report` take them."""

    refs: tuple[str, ...]
    systems: tuple[str, ...]
    encoding: str
    settings: Settings
    top: int
    test: Literal["bs", "ar"] | None
    trials: int | None


def add_input_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("refs", nargs="+", metavar="REF", help="reference files, one per stream")
    p.add_argument("--input", "-i", nargs="+", required=True, metavar="SYS", help="systems")
    p.add_argument("--encoding", "-e", default="utf-8")
    p.add_argument("--top", type=positive_int, default=10, help="n-grams and segments listed")
    test = p.add_mutually_exclusive_group()
    test.add_argument("--paired-bs", "-pbs", action="store_true", help="paired bootstrap (default)")
    test.add_argument("--paired-ar", "-par", action="store_true", help="approximate randomization")
    test.add_argument("--no-test", action="store_true", help="no paired test")
    p.add_argument("--trials", type=positive_int, help="resamples or trials of the paired test")
    add_chrf_settings(p.add_argument_group("chrF settings"))


def inputs_of(parser: argparse.ArgumentParser, args: argparse.Namespace) -> Inputs:
    check_encoding(args.encoding)
    if len(set(args.input)) != len(args.input):
        raise CliError("the same system file is given twice")
    test: Literal["bs", "ar"] | None = None if args.no_test else "ar" if args.paired_ar else "bs"
    return Inputs(
        tuple(args.refs),
        tuple(args.input),
        args.encoding,
        settings_of(parser, args),
        args.top,
        test,
        args.trials,
    )


def read_inputs(inputs: Inputs) -> list[Segments]:
    refs = References(list(inputs.refs), 1, inputs.encoding)
    systems = system_sources(inputs.systems, inputs.encoding, paired=False)
    return whole_corpora(systems, refs)


def explain_command(argv: Sequence[str]) -> int:
    p = Parser(
        prog="chrf explain",
        description="Explain a chrF score: per order the missing and extra n-grams, the "
        "segments that cost it most, scores by reference length; with several systems, their "
        "differences against the first and a paired test.",
    )
    add_input_arguments(p)
    p.add_argument("--format", "-f", choices=["text", "json"], default="text")
    args = p.parse_args(argv)
    inputs = inputs_of(p, args)
    corpora = read_inputs(inputs)
    as_json = args.format == "json"
    settings = inputs.settings
    if len(corpora) == 1:
        e = _analysis.explanation(settings, corpora[0].corpus(settings), inputs.top)
        data: dict[str, Any] = e.to_dict(inputs.top)
        write_line(json.dumps(data, ensure_ascii=False) if as_json else text_of(e, inputs))
        return 0
    named = {name: c.corpus(settings) for name, c in zip(inputs.systems, corpora, strict=True)}
    c = _analysis.comparison(settings, named, inputs.top, inputs.test, inputs.trials)
    if as_json:
        write_line(json.dumps(comparison_dict(c, inputs.top), ensure_ascii=False))
    else:
        write_line(
            "\n\n".join(
                [text_of(e, inputs, name) for name, e in zip(c.names, c.explanations, strict=True)]
                + [comparison_text(c, inputs)]
            )
        )
    return 0


def signature(settings: Settings, num_refs: int) -> str:
    metric = CHRF.from_settings(settings)
    metric.num_refs = num_refs
    return str(metric.get_signature().format(False))


def metric_name(settings: Settings) -> str:
    """ "chrF2", "chrF2++", ...: as sacreBLEU names the metric."""
    return score_name(settings.beta, settings.word_order)


def shown(gram: str) -> str:
    return json.dumps(gram, ensure_ascii=False)


def text_of(e: Explanation, inputs: Inputs, name: str | None = None) -> str:
    top = inputs.top
    title = f"{name}: " if name else ""
    metric = metric_name(e.settings)
    lines = [f"{title}{metric} = {e.score:.4f} on {e.segment_count} segments", ""]
    order_rows = [
        [
            f"{o.type} {o.n}",
            str(o.hypothesis_ngrams),
            str(o.reference_ngrams),
            str(o.matching_ngrams),
            str(o.missing_total),
            str(o.extra_total),
            " ".join(f"{shown(g)}:{c}" for g, c in o.missing[: min(top, 5)]),
            " ".join(f"{shown(g)}:{c}" for g, c in o.extra[: min(top, 5)]),
        ]
        for o in e.orders
    ]
    header = ["order", "hyp", "ref", "matches", "missing", "extra", "top missing", "top extra"]
    lines += ["Per order (missing = R - M, extra = H - M):", render_table(header, order_rows), ""]
    cost_rows = [
        [str(c.index + 1), f"{c.delta:+.4f}", f"{c.sentence_score:.2f}"] for c in e.costliest(top)
    ]
    lines += [
        "Costliest segments (corpus score minus the score without the segment; lines from 1):",
        render_table(["line", "delta", f"sentence {metric}"], cost_rows),
        "",
    ]
    bucket_rows = [
        [
            f"[{b.low}, {'∞' if b.high is None else b.high})",
            str(b.segments),
            "-" if b.score is None else f"{b.score:.2f}",
            "-" if b.mean_sentence_score is None else f"{b.mean_sentence_score:.2f}",
        ]
        for b in e.length_buckets()
    ]
    unit = "characters" if e.settings.char_order else "words"
    lines += [
        f"By reference length ({unit}):",
        render_table(["length", "segments", metric, f"mean sentence {metric}"], bucket_rows),
    ]
    if name is None:
        lines += ["", signature(e.settings, len(inputs.refs))]
    return "\n".join(lines)


def comparison_text(c: Comparison, inputs: Inputs) -> str:
    rows = []
    for name, result in zip(c.names, c.results, strict=True):
        ci = "" if result.ci is None else f" ± {float(result.ci):.4f}"
        p = "" if result.p_value is None else f"{result.p_value:.4f}"
        rows.append([name, f"{result.score:.4f}{ci}", p])
    test = {"bs": "paired bootstrap", "ar": "approximate randomization", None: "no test"}[c.test]
    header = ["system", f"{metric_name(c.settings)} (± 95% CI)", "p-value"]
    lines = [render_table(header, rows), f"({test})", ""]
    for difference in c.differences:
        lines += difference_text(difference, c.names[0], metric_name(c.settings))
    lines.append(signature(c.settings, len(inputs.refs)))
    return "\n".join(lines)


def difference_text(d: SystemDifference, baseline: str, metric: str) -> list[str]:
    def delta(value: Any) -> str:  # in points of the 0..100 scale, as the scores
        return "-" if value is None else f"{100 * float(value):+.2f}"

    order_rows = [
        [f"{o.type} {o.n}", delta(o.precision), delta(o.recall), delta(o.f_score)] for o in d.orders
    ]
    segment_rows = [
        [
            str(s.index + 1),
            f"{s.delta:+.4f}",
            f"{s.baseline_sentence_score:.2f}",
            f"{s.system_sentence_score:.2f}",
        ]
        for s in d.segments
    ]
    lines = [
        f"{d.system} against {baseline}: {metric} {d.score_delta:+.4f}",
        render_table(["order", "Δ precision", "Δ recall", "Δ F"], order_rows),
        "Segments moving the baseline's score most if it took this system's output:",
        render_table(
            ["line", "delta", f"baseline's sentence {metric}", f"system's sentence {metric}"],
            segment_rows,
        ),
        "N-grams whose missing counts differ most (baseline → system), per order:",
    ]
    for order, shifts in zip(d.orders, d.missing, strict=True):
        listed = " ".join(f"{shown(g)} {b}→{s}" for g, b, s in shifts[:5])
        lines.append(f"  {order.type} {order.n}: {listed}")
    return [*lines, ""]


def comparison_dict(c: Comparison, top: int) -> dict[str, Any]:
    return c.to_dict() | {
        "explanations": [
            {"system": name} | e.to_dict(top)
            for name, e in zip(c.names, c.explanations, strict=True)
        ]
    }
