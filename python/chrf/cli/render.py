"""What the command line prints, as sacreBLEU prints it: JSON or text scores, tables of systems,
signatures, and the per-order breakdown behind a score."""

from __future__ import annotations

import json
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from chrf._components import Components, fraction_text, six_decimals
from chrf._signature import CHRFScore
from chrf.cli.options import Options, PairedTest

if TYPE_CHECKING:
    from chrf._significance import Result

__all__ = [
    "breakdown_table",
    "corpus_score",
    "paired_test",
    "sentence_scores",
    "systems_table",
]


def corpus_score(
    result: CHRFScore, signature: str, options: Options, breakdown: Components | None
) -> str:
    """One system's score, with its breakdown when asked: a JSON field or a table below."""
    as_json = options.format == "json"
    text = result.format(options.width, options.score_only, signature, as_json)
    if breakdown is None:
        return text
    if as_json and not options.score_only:
        data = json.loads(text)
        data["breakdown"] = breakdown.to_dict()
        return json.dumps(data, indent=1, ensure_ascii=False)
    return text + "\n" + breakdown_table(breakdown)


def sentence_scores(scores: list[float], name: str, signature: str, options: Options) -> str:
    """One line per score, as `CHRFScore.format` writes a sentence score (no interval, not
    JSON), without a score object per line. printf-style "%.Nf" rounds as f"{x:.Nf}" does
    (both are Python's float formatting), and takes less time."""
    prefix = "" if options.score_only else f"{name}|{signature} = " if signature else f"{name} = "
    line = prefix.replace("%", "%%") + f"%.{options.width}f"
    return "\n".join([line % score for score in scores])


def breakdown_table(c: Components) -> str:
    """The per-order table behind a score: counts, then precision, recall and F, each as an
    exact fraction and as a decimal rounded to six places."""
    header = ["order", "hyp n-grams", "ref n-grams", "matches", "precision", "recall", "F"]
    rows = [
        [
            f"{o.type} {o.n}" + ("" if o.effective else " *"),
            str(o.hypothesis_ngrams),
            str(o.reference_ngrams),
            str(o.matching_ngrams),
            exact_cell(o.precision),
            exact_cell(o.recall),
            exact_cell(o.f_score),
        ]
        for o in c.orders
    ]
    out = aligned([header, *rows], "  ", left_first=True)
    if any(not o.effective for o in c.orders):
        out.append("* not effective (no n-grams on one side): left out of the averages")
    out.append(f"effective orders: {c.effective_order_count}")
    out.append(f"average precision: {exact_cell(c.average_precision)}")
    out.append(f"average recall:    {exact_cell(c.average_recall)}")
    out.append(f"score: {c.score} ({fraction_text(c.score_fraction)})")
    return "\n".join(out)


def exact_cell(value: Fraction | None) -> str:
    if value is None:
        return "undefined"
    return f"{six_decimals(value)} ({fraction_text(value)})"


def systems_table(
    names: list[str], scores: list[float], metric_name: str, signature: str, options: Options
) -> list[str]:
    """Several systems' scores: JSON, or sacreBLEU's table and its signature."""
    width = options.width
    if options.format == "json":
        rows = [
            {"system": n, metric_name: f"{v:.{width}f}"} for n, v in zip(names, scores, strict=True)
        ]
        return [json.dumps(rows, indent=4)]
    cells = [f"{v:.{width}f}" for v in scores]
    return [
        sacrebleu_table({"System": names, metric_name: cells}, options),
        signatures({metric_name: signature}),
    ]


def paired_test(
    names: list[str],
    results: list[Result],
    metric_name: str,
    signature: str,
    test: PairedTest,
    options: Options,
) -> list[str]:
    """A paired test's rows: JSON, or sacreBLEU's table, its account of the test, and the
    signature."""
    if options.format == "json":
        rows = [
            {"system": n, metric_name: result_dict(r)} for n, r in zip(names, results, strict=True)
        ]
        return [json.dumps(rows, indent=4)]
    bootstrap = test.method == "bs"
    title = f"{metric_name} (μ ± 95% CI)" if bootstrap else metric_name
    p_value_break = "\n" if options.format == "text" else " "
    cells = [paired_cell(r, options.width, p_value_break) for r in results]
    return [
        sacrebleu_table({"System": names, title: cells}, options),
        # sacreBLEU names the baseline only when it has a file name ("Baseline: NAME").
        paired_test_account(test, names[0] if names[0].startswith("Baseline:") else ""),
        signatures({metric_name: signature}),
    ]


def sacrebleu_table(columns: dict[str, list[str]], options: Options) -> str:
    """sacreBLEU's `print_results_table`: tabulate's fancy_grid for text, latex_booktabs for
    latex, with its alignments, followed by an empty line (as sacreBLEU prints it, without
    colours)."""
    from tabulate import tabulate

    table = tabulate(
        columns,
        headers="keys",
        tablefmt="fancy_grid" if options.format == "text" else "latex_booktabs",
        colalign=("right",),
        stralign="center",
        numalign="center",
        floatfmt=f".{options.width}f",
    )
    return str(table) + "\n"


def paired_test_account(test: PairedTest, baseline: str) -> str:
    """What sacreBLEU prints below a paired test's table, word for word."""
    bootstrap = test.method == "bs"
    kind = "bootstrap resampling" if bootstrap else "approximate randomization"
    trials = "resampling trials" if bootstrap else "trials"
    message = f"Paired {kind} test with {test.trials} {trials}"
    rule = "-" * len(message)
    scores = (
        "Actual system score / bootstrap estimated true mean / 95% CI are provided for each metric."
        if bootstrap
        else "Actual system score is provided for each metric."
    )
    return "\n".join(
        [
            rule,
            message,
            rule,
            f" - Each system is pairwise compared to {baseline}.",
            f"   {scores}",
            "",
            " - Null hypothesis: the system and the baseline translations are essentially",
            "   generated by the same underlying process. For a given system and the baseline,",
            "   the p-value is roughly the probability of the absolute score difference (delta)",
            "   or higher occurring due to chance, under the assumption that the null hypothesis"
            " is correct.",
            "",
            " - Assuming a significance threshold of 0.05, the null hypothesis can be rejected",
            '   for p-values < 0.05 (marked with "*"). This means that the delta is unlikely to be'
            " attributed",
            '   to chance, hence the system is significantly "different" than the baseline.',
            # sacreBLEU adds "Otherwise, the p-values are highlighted in red.": chrf colours
            # nothing, so the sentence would point at nothing.
            "",
            ' - NOTE: Significance does not tell whether a system is "better" than the baseline'
            " but rather",
            '   emphasizes the "difference" of the systems in terms of the replicability of the'
            " delta.",
            "",
        ]
    )


def paired_cell(r: Result, width: int, p_value_break: str) -> str:
    """sacreBLEU's `_format_score_lines`: the p-value on a line of its own in text tables."""
    text = f"{r.score:.{width}f}"
    if r.mean is not None:
        text += f" ({r.mean:.{width}f} ± {r.ci:.{width}f})"
    if r.p_value is not None:
        text += p_value_break + f"(p = {r.p_value:.4f})" + ("" if r.p_value > 0.05 else "*")
    return text


def result_dict(r: Result) -> dict[str, Any]:
    def plain(value: Any) -> Any:
        return None if value is None else float(value)

    return {"score": r.score, "p_value": r.p_value, "mean": plain(r.mean), "ci": plain(r.ci)}


def render_table(header: list[str], rows: list[list[str]]) -> str:
    """A plain ruled table (chrf's own commands; sacreBLEU's tables use `sacrebleu_table`)."""
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


def signatures(by_metric: dict[str, str]) -> str:
    lines = [f" - {name:<10} {signature}" for name, signature in by_metric.items()]
    return "\n".join(["-----------------\nMetric signatures\n-----------------", *lines])


def systems_breakdowns(
    blocks: list[str], names: list[str], breakdowns: list[Components], options: Options
) -> list[str]:
    """`blocks` (a systems table, or a paired test's) with each system's breakdown: a
    "breakdown" field of its JSON row, or a titled table after the text."""
    if options.format == "json":
        rows = json.loads(blocks[0])
        for row, breakdown in zip(rows, breakdowns, strict=True):
            row["breakdown"] = breakdown.to_dict()
        return [json.dumps(rows, indent=4, ensure_ascii=False), *blocks[1:]]
    tables = [f"\n{name}\n{breakdown_table(b)}" for name, b in zip(names, breakdowns, strict=True)]
    return [*blocks, *tables]
