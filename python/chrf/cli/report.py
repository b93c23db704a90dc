"""`chrf report REF [REF ...] -i SYS [SYS ...] -o report.html`: the explanation of `chrf explain`
as one self-contained HTML page with charts (needs the `report` extra: plotly)."""

from __future__ import annotations

import os
from collections.abc import Sequence

from chrf import _analysis
from chrf.cli.io import CliError, write_line
from chrf.cli.options import report_options
from chrf.cli.systems import read_inputs, signature

__all__ = ["report_command"]


def report_command(argv: Sequence[str]) -> int:
    inputs, output = report_options(argv)
    check_output(output)
    try:  # the charts' library, which the page needs at the end: missing, say so first
        import plotly.graph_objects
        import plotly.subplots  # noqa: F401

        from chrf._report import report_html, single_system_results
    except ImportError as error:  # plotly missing
        raise CliError(f"chrf report needs plotly: pip install 'chrf[report]' ({error})") from None
    corpora = read_inputs(inputs)
    settings = inputs.settings
    names = display_names(inputs.systems)
    named = {name: c.corpus(settings) for name, c in zip(names, corpora, strict=True)}
    comparison = _analysis.comparison(settings, named, inputs.top, inputs.test, inputs.trials)
    # The test's resamples (sacreBLEU's defaults: 1,000 resamples, 10,000 randomization
    # trials); the differences' intervals are bootstrap ones, of the test's count for bootstrap.
    test = None if inputs.test is None else "bs" if len(named) == 1 else inputs.test
    trials = inputs.trials or (1000 if test == "bs" else 10000)
    if len(named) == 1 and test is not None:
        comparison = single_system_results(comparison, trials)
    resamples = None if test is None else trials if test == "bs" else 1000
    full = signature(inputs.settings, len(inputs.refs), test, trials, comparison.seed)
    page = report_html(comparison, full, display_names(inputs.refs), resamples)
    try:
        with open(output, "w", encoding="utf-8") as handle:
            handle.write(page)
    except OSError as error:
        raise CliError(f"cannot write {output}: {error.strerror}") from None
    write_line(f"wrote {output}")
    return 0


def check_output(path: str) -> None:
    """Fails before the work where the page could not be written at all (the write itself
    still reports what only it can find: a full disk, a permission that `os.access` does not
    see)."""
    folder = os.path.dirname(path) or os.curdir
    if os.path.isdir(path):
        raise CliError(f"cannot write {path}: it is a folder")
    if not os.path.isdir(folder):
        raise CliError(f"cannot write {path}: there is no folder {folder}")
    if not os.access(path if os.path.exists(path) else folder, os.W_OK):
        raise CliError(f"cannot write {path}: permission denied")


def display_names(paths: tuple[str, ...]) -> list[str]:
    """File names without their folders, unless that makes two alike."""
    names = [os.path.basename(path) or path for path in paths]
    return names if len(set(names)) == len(names) else list(paths)
