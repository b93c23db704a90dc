"""`chrf explain REF [REF ...] -i SYS [SYS ...]`: which n-grams, which segments and, for several
systems, which differences make the score; as text tables or JSON."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from chrf import _analysis
from chrf._compare import Comparison, SystemDifference
from chrf._explain import Explanation
from chrf._messages import counted
from chrf._settings import Settings, score_name
from chrf.cli.io import write_line
from chrf.cli.options import Inputs, explain_options
from chrf.cli.render import render_table
from chrf.cli.systems import read_inputs, signature

__all__ = ["explain_command"]


def explain_command(argv: Sequence[str]) -> int:
    inputs, output_format = explain_options(argv)
    corpora = read_inputs(inputs)
    as_json = output_format == "json"
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


def metric_name(settings: Settings) -> str:
    """ "chrF2", "chrF2++", ...: as sacreBLEU names the metric."""
    return score_name(settings.beta, settings.word_order)


def shown(gram: str) -> str:
    return json.dumps(gram, ensure_ascii=False)


def text_of(e: Explanation, inputs: Inputs, name: str | None = None) -> str:
    top = inputs.top
    title = f"{name}: " if name else ""
    metric = metric_name(e.settings)
    lines = [f"{title}{metric} = {e.score:.4f} on {counted(e.segment_count, 'segment')}", ""]
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
