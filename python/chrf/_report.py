"""One self-contained HTML page explaining the scores of one or more systems.

Charts are plotly figures with plotly.js embedded in the page (the ``report`` extra), so the page
loads no resource from the network and works offline. plotly is imported here only, when a
report is built, never by ``import chrf``.
"""

from __future__ import annotations

import html
from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from chrf._compare import Comparison
from chrf._explain import Explanation
from chrf._settings import Settings, score_name

if TYPE_CHECKING:
    from plotly.graph_objects import Figure

__all__ = ["highlighted", "report_html"]

STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 1200px; color: #222; }
table { border-collapse: collapse; margin: 0.5em 0 1.5em; }
td, th { border: 1px solid #ccc; padding: 0.25em 0.6em; text-align: right; vertical-align: top; }
td.text { text-align: left; font-family: ui-monospace, monospace; white-space: pre-wrap; }
.hit { background: #c8f0c8; } .miss { background: #f8c8c8; }
.note { color: #555; font-size: 0.9em; }
.ref { color: #555; font-style: normal; font-size: 0.85em; }
code { font-size: 0.9em; }
th.label { text-align: left; font-weight: normal; color: #555; white-space: nowrap; }
"""


def report_html(
    c: Comparison, signature: str, references: Sequence[str] = (), resamples: int | None = None
) -> str:
    """The page: scores with intervals and the paired test, per-order P/R/F and, with several
    systems, each one's per-order differences from the baseline (with 95% intervals from
    ``resamples`` paired bootstrap resamples, where given), sentence-score distributions,
    length buckets, the costliest segments and the largest system differences with matched and
    unmatched characters marked, each against the reference it was matched with (named after
    `references`, the names of the reference streams, where given), and the settings'
    signature. Every score is labelled with the metric's name (``chrF2++``); the title names
    the systems and the references."""
    metric = metric_name(c)
    title = html.escape(page_title(c, references))
    sections = [
        f"<h1>{title}</h1>",
        scores_section(c),
        figure_section(
            f"Per-order precision, recall and F ({metric}'s orders)", order_figure(c), first=True
        ),
        deltas_section(c, resamples),
        figure_section(f"Sentence scores ({metric})", distribution_figure(c)),
        figure_section(f"Scores by reference length ({metric})", length_figure(c)),
        worst_section(c, references),
        differences_section(c, references),
        f"<h2>Settings</h2><p><code id='signature'>{html.escape(signature)}</code></p>",
    ]
    body = "\n".join(sections)
    return (
        f"<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>{title}</title>"
        f"<style>{STYLE}</style></head><body>{body}</body></html>"
    )


def page_title(c: Comparison, references: Sequence[str]) -> str:
    """ "chrF2++ report: a.txt vs b.txt on ref.txt": the metric, the systems, the references."""
    on = f" on {', '.join(references)}" if references else ""
    return f"{metric_name(c)} report: {' vs '.join(c.names)}{on}"


def deltas_section(c: Comparison, resamples: int | None) -> str:
    """Each system's per-order differences from the baseline, where there are several."""
    if not c.differences:
        return ""
    from chrf._report_deltas import delta_figure, delta_intervals

    intervals = None if resamples is None else delta_intervals(c, resamples)
    colors = [color(k) for k in range(len(c.names))]
    figure = delta_figure(c, order_labels(c.settings), colors, intervals)
    bars = f", 95% paired bootstrap intervals of {resamples} resamples" if resamples else ""
    title = f"Per-order differences: system - {c.names[0]} (the baseline){bars}"
    return figure_section(title, figure)


def metric_name(c: Comparison) -> str:
    """ "chrF2", "chrF2++", ...: as sacreBLEU names the metric."""
    return score_name(c.settings.beta, c.settings.word_order)


def scores_section(c: Comparison) -> str:
    test = {"bs": "paired bootstrap resampling", "ar": "paired approximate randomization"}
    rows = []
    for k, (name, result) in enumerate(zip(c.names, c.results, strict=True)):
        ci = "" if result.ci is None else f"{float(result.ci):.2f}"
        mean = "" if result.mean is None else f"{float(result.mean):.2f}"
        p = "" if result.p_value is None else f"{result.p_value:.4f}"
        rows.append(
            f"<tr><td class='text'>{html.escape(name)}</td>"
            f"<td class='score' data-system='{k}'>{result.score:.4f}</td>"
            f"<td>{mean}</td><td>{ci}</td><td>{p}</td></tr>"
        )
    described = test.get(c.test or "", "no paired test")
    return (
        f"<h2>Corpus scores</h2><table id='scores'><tr><th>system</th><th>{metric_name(c)}</th>"
        "<th>bootstrap mean</th><th>95% CI ±</th><th>p-value</th></tr>"
        + "".join(rows)
        + f"</table><p class='note'>{described} against the first system"
        + (f", seed {html.escape(c.seed)}" if c.seed else "")
        + ".</p>"
    )


def figure_section(title: str, figure: Figure, *, first: bool = False) -> str:
    # plotly.js is embedded once, with the first figure; the others use it.
    chart = figure.to_html(full_html=False, include_plotlyjs=first, config={"displaylogo": False})
    return f"<h2>{html.escape(title)}</h2>{chart}"


def order_labels(settings: Settings) -> list[str]:
    return [f"char {n}" for n in range(1, settings.char_order + 1)] + [
        f"word {n}" for n in range(1, settings.word_order + 1)
    ]


def order_figure(c: Comparison) -> Figure:
    from plotly.subplots import make_subplots

    figure = make_subplots(rows=1, cols=3, subplot_titles=("precision", "recall", "F"))
    labels = order_labels(c.settings)
    for k, (name, components) in enumerate(zip(c.names, c.components, strict=True)):
        for col, field in enumerate(("precision", "recall", "f_score"), 1):
            values = [
                None if getattr(o, field) is None else 100 * float(getattr(o, field))
                for o in components.orders
            ]
            figure.add_bar(
                x=labels,
                y=values,
                name=name,
                legendgroup=name,
                showlegend=col == 1,
                marker_color=color(k),
                row=1,
                col=col,
            )
    figure.update_layout(barmode="group", height=380, margin={"t": 40})
    return figure


def distribution_figure(c: Comparison) -> Figure:
    import plotly.graph_objects as go

    figure = go.Figure()
    for k, (name, e) in enumerate(zip(c.names, c.explanations, strict=True)):
        figure.add_histogram(
            x=e.sentence_scores.tolist(),
            name=name,
            xbins={"start": 0, "end": 100, "size": 5},
            opacity=0.6,
            marker_color=color(k),
        )
    figure.update_layout(
        barmode="overlay",
        height=340,
        xaxis_title=f"sentence {metric_name(c)}",
        yaxis_title="segments",
    )
    return figure


def length_figure(c: Comparison) -> Figure:
    """Each system's score by its segments' reference length, grouped by length bucket (each
    system's segments fall in its buckets by the reference each took, so the counts, shown on
    the bars, may differ); an empty bucket has no score and no bar."""
    import plotly.graph_objects as go

    figure = go.Figure()
    order: list[str] = []
    for k, (name, e) in enumerate(zip(c.names, c.explanations, strict=True)):
        buckets = [b for b in e.length_buckets() if b.segments]
        labels = [f"[{b.low}, {'∞' if b.high is None else b.high})" for b in buckets]
        order += [label for label in labels if label not in order]
        figure.add_bar(
            x=labels,
            y=[b.score for b in buckets],
            text=[f"n={b.segments}" for b in buckets],
            name=name,
            marker_color=color(k),
        )
    unit = "characters" if c.settings.char_order else "words"
    figure.update_layout(
        barmode="group",
        height=340,
        xaxis_title=f"reference length ({unit})",
        yaxis_title=metric_name(c),
    )
    # In length order, whichever system has a bucket that the first one lacks.
    figure.update_xaxes(categoryorder="array", categoryarray=sorted(order, key=_bucket_low))
    return figure


def _bucket_low(label: str) -> int:
    return int(label[1:].partition(",")[0])


def color(k: int) -> str:
    palette = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b"]
    return palette[k % len(palette)]


def worst_section(c: Comparison, references: Sequence[str], count: int = 5) -> str:
    metric = metric_name(c)
    parts = ["<h2>Costliest segments</h2>"]
    parts.append(
        "<p class='note'>Δ: corpus score minus the corpus score without the segment. "
        "<span class='hit'>green</span>: characters in a matched n-gram of the highest "
        "character order; <span class='miss'>red</span>: in none. Below each hypothesis, in "
        "italics, the reference its statistics were taken against (of several, sacreBLEU's "
        "best for the segment).</p>"
    )
    for name, e in zip(c.names, c.explanations, strict=True):
        rows = "".join(
            segment_rows(e, cost.index, f"{cost.delta:+.4f}", references)
            for cost in e.costliest(count)
        )
        parts.append(
            f"<h3>{html.escape(name)}</h3><table><tr><th>line</th><th>Δ</th>"
            f"<th>sentence {metric}</th><th>hypothesis / reference</th></tr>{rows}</table>"
        )
    return "".join(parts)


def segment_rows(e: Explanation, i: int, delta: str, references: Sequence[str]) -> str:
    hyp, ref = texts_of(e, i)
    hyp_html, ref_html = highlighted(hyp, ref, e.settings)
    return (
        f"<tr><td>{i + 1}</td><td>{delta}</td><td>{e.sentence_scores[i]:.2f}</td>"
        f"<td class='text'>{hyp_html}<br>{reference_row(ref_html, e, i, references)}</td></tr>"
    )


def texts_of(e: Explanation, i: int) -> tuple[str, str]:
    hypothesis, references = e._corpus.segment_texts(i)
    return hypothesis, str(references[int(e.references[i])])


def reference_row(ref_html: str, e: Explanation, i: int, references: Sequence[str]) -> str:
    """The highlighted reference, and which one it is: "reference 2 (ref.B.txt)"."""
    k = int(e.references[i])
    named = f" ({html.escape(references[k])})" if k < len(references) else ""
    return f"<i>{ref_html}</i> <span class='ref'>← reference {k + 1}{named}</span>"


def differences_section(c: Comparison, references: Sequence[str], count: int = 5) -> str:
    if not c.differences:
        return ""
    metric = metric_name(c)
    parts = ["<h2>Largest system differences</h2>"]
    base = c.explanations[0]
    for d, e in zip(c.differences, c.explanations[1:], strict=True):
        rows = []
        for s in d.segments[:count]:
            base_hyp, base_ref = texts_of(base, s.index)
            sys_hyp, sys_ref = texts_of(e, s.index)
            base_html, base_ref_html = highlighted(base_hyp, base_ref, c.settings)
            sys_html, ref_html = highlighted(sys_hyp, sys_ref, c.settings)
            texts = [
                (f"baseline ({c.names[0]})", base_html),
                (f"system ({d.system})", sys_html),
                ("reference", reference_row(ref_html, e, s.index, references)),
            ]
            if base.references[s.index] != e.references[s.index]:  # each against its own
                baseline_ref = reference_row(base_ref_html, base, s.index, references)
                texts[1:1] = [("baseline's reference", baseline_ref)]
            scores = f"{s.baseline_sentence_score:.2f} → {s.system_sentence_score:.2f}"
            rows.append(labelled_rows([str(s.index + 1), f"{s.delta:+.4f}", scores], texts))
        parts.append(
            f"<h3>{html.escape(d.system)} against {html.escape(c.names[0])}: "
            f"{metric} {d.score_delta:+.4f}</h3><p class='note'>Δ: the baseline's corpus score "
            "had it output this system's segment, minus its score. Rows: the baseline, the "
            "system, and in italics the reference they were matched against (the baseline's "
            "own, labelled, where the two took different references).</p><table><tr>"
            f"<th>line</th><th>Δ</th><th>sentence {metric}</th><th>row</th><th>text</th></tr>"
            + "".join(rows)
            + "</table>"
        )
    return "".join(parts)


def labelled_rows(cells: list[str], texts: list[tuple[str, str]]) -> str:
    """One segment's rows: its cells once (spanning the rows), then each text under its label
    (HTML already; the labels are escaped here)."""
    span = f" rowspan='{len(texts)}'"
    first = "".join(f"<td{span}>{cell}</td>" for cell in cells)
    return "".join(
        f"<tr>{first if k == 0 else ''}<th class='label'>{html.escape(label)}</th>"
        f"<td class='text'>{text}</td></tr>"
        for k, (label, text) in enumerate(texts)
    )


def highlighted(hypothesis: str, reference: str, settings: Settings) -> tuple[str, str]:
    """Both texts as HTML with each character unit marked matched (in an n-gram of the highest
    character order that has a clipped match, taken left to right) or unmatched. Display only:
    whitespace stays unmarked, and under ``lowercase`` units compare by ``str.lower()`` one at
    a time."""
    n = settings.char_order
    if n == 0:
        return html.escape(hypothesis), html.escape(reference)
    hyp_units, ref_units = units(hypothesis, settings), units(reference, settings)
    hyp_hit = matched(hyp_units, ref_units, n)
    ref_hit = matched(ref_units, hyp_units, n)
    return marked(hypothesis, hyp_units, hyp_hit), marked(reference, ref_units, ref_hit)


def units(text: str, settings: Settings) -> list[tuple[int, str]]:
    """(position, unit) of every character unit (spec §1.1)."""
    keep = settings.include_whitespace
    return [
        (k, ch.lower() if settings.lowercase else ch)
        for k, ch in enumerate(text)
        if keep or not ch.isspace()
    ]


def matched(side: list[tuple[int, str]], other: list[tuple[int, str]], n: int) -> list[bool]:
    n = min(n, len(side), len(other))
    hit = [False] * len(side)
    if n == 0:
        return hit
    budget = Counter(tuple(u for _, u in other[k : k + n]) for k in range(len(other) - n + 1))
    for k in range(len(side) - n + 1):
        gram = tuple(u for _, u in side[k : k + n])
        if budget[gram] > 0:
            budget[gram] -= 1
            hit[k : k + n] = [True] * n
    return hit


def marked(text: str, side: list[tuple[int, str]], hit: list[bool]) -> str:
    state = {position: flag for (position, _), flag in zip(side, hit, strict=True)}
    out: list[str] = []
    for k, ch in enumerate(text):
        flag: Any = state.get(k)
        escaped = html.escape(ch)
        out.append(
            escaped
            if flag is None
            else f"<span class='{'hit' if flag else 'miss'}'>{escaped}</span>"
        )
    return "".join(out)


def single_system_results(c: Comparison, n: int) -> Comparison:
    """A one-system comparison whose row carries sacreBLEU's bootstrap mean and interval."""
    from dataclasses import replace

    from chrf._service import bootstrap
    from chrf._significance import estimate_ci

    e = c.explanations[0]
    seed, values = bootstrap(c.settings, e._corpus, n)
    mean, ci = estimate_ci(np.array(values))
    return replace(c, results=(replace(c.results[0], mean=mean, ci=ci),), seed=seed)
