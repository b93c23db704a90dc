"""chrf compare, `chrf explain` and `chrf report`: differences that add up, and a report page that
a real headless browser (Debian's chromium) renders offline with its scores and charts."""

from __future__ import annotations

import html
import json
import os
import re
import shutil
import subprocess
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

import chrf
from chrf.cli import main
from wmt import read_lines

FIELDS = ("precision", "recall", "f_score")

ROOT = Path(__file__).resolve().parents[2]


def wmt_systems(wmt_dir: Path) -> tuple[list[Path], list[Path]]:
    folder = wmt_dir / "generaltest2022.en-de"
    return sorted(folder.glob("hyp.*.txt"))[:2], sorted(folder.glob("ref.*.txt"))[:1]


def test_comparison_deltas_are_exact(wmt_dir: Path) -> None:
    hyp_files, ref_files = wmt_systems(wmt_dir)
    hyps = [read_lines(p)[:300] for p in hyp_files]
    refs = [read_lines(p)[:300] for p in ref_files]
    c = chrf.compare(hyps, refs, word_order=2, test="bs", trials=200)
    base, other = (chrf.components(h, refs, word_order=2) for h in hyps)
    (d,) = c.differences
    assert d.score_delta == chrf.score(hyps[1], refs, word_order=2) - chrf.score(
        hyps[0], refs, word_order=2
    )
    for delta, b, o in zip(d.orders, base.orders, other.orders, strict=True):
        assert delta.recall == Fraction(o.recall) - Fraction(b.recall)  # type: ignore[arg-type]
        assert delta.f_score == Fraction(o.f_score) - Fraction(b.f_score)  # type: ignore[arg-type]
    swap = d.segments[0]
    mixed = [hyps[1][i] if i == swap.index else h for i, h in enumerate(hyps[0])]
    assert swap.delta == chrf.score(mixed, refs, word_order=2) - c.explanations[0].score
    assert c.results[1].p_value is not None
    assert 0 < c.results[1].p_value <= 1
    json.dumps(c.to_dict())
    with pytest.raises(ValueError, match="two systems"):
        chrf.compare([hyps[0]], refs)


def test_explain_command_prints_text_and_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    hyp, ref = ROOT / "examples" / "hyp.txt", ROOT / "examples" / "ref.txt"
    assert main(["explain", str(ref), "-i", str(hyp), "-cw", "2"]) == 0
    text = capsys.readouterr().out
    expected = chrf.score(read_lines(hyp), read_lines(ref), word_order=2)
    assert text.startswith(f"chrF2++ = {expected:.4f} on ")  # sacreBLEU's name of the metric
    assert "sentence chrF2++" in text
    assert "word 2" in text
    other = tmp_path / "other.txt"
    other.write_text("\n".join(line.upper() for line in read_lines(hyp)) + "\n", "utf-8")
    assert (
        main(["explain", str(ref), "-i", str(hyp), str(other), "-f", "json", "--trials", "50"]) == 0
    )
    data = json.loads(capsys.readouterr().out)
    assert data["metric"] == "chrF2"
    assert [e["metric"] for e in data["explanations"]] == ["chrF2", "chrF2"]
    assert [row["system"] for row in data["systems"]] == [str(hyp), str(other)]
    assert data["differences"][0]["p_value"] is not None


def test_breakdown_is_shown_with_sentence_level_and_several_systems(
    capsys: pytest.CaptureFixture[str],
) -> None:
    hyp, ref = str(ROOT / "examples" / "hyp.txt"), str(ROOT / "examples" / "ref.txt")
    lines = len(read_lines(Path(hyp)))
    assert main([ref, "-i", hyp, "-sl", "--breakdown", "-f", "text"]) == 0
    assert capsys.readouterr().out.count("char 6") == lines
    assert main([ref, "-i", hyp, ref, "--breakdown", "-f", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [row["breakdown"]["orders"][0]["type"] for row in rows] == ["char", "char"]


def chromium() -> str:
    """Debian's chromium: scripts/check installs it in CI, where its absence is a failure."""
    found = shutil.which("chromium")
    if found is None:
        if os.environ.get("CI"):
            pytest.fail("chromium is missing: scripts/check installs it (apt-get install chromium)")
        pytest.skip("no chromium here (apt-get install chromium); CI runs this test")
    return found


def browse(browser: str, page: Path, *arguments: str) -> subprocess.CompletedProcess[str]:
    # A proxy that refuses every connection: whatever the page asks of the network fails, so
    # charts that render were drawn offline.
    command = [
        browser,
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--proxy-server=127.0.0.1:9",
        "--virtual-time-budget=10000",
        *arguments,
        page.as_uri(),
    ]
    return subprocess.run(command, capture_output=True, text=True, timeout=120, check=True)


#: Chromium's flags that print the page's console messages (errors included) on stderr.
CONSOLE = ("--enable-logging=stderr", "--v=0")


def console_messages(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if ":CONSOLE" in line]


def test_a_console_error_is_seen(tmp_path: Path) -> None:
    """The check the report's test makes finds a page's console error."""
    browser = chromium()
    page = tmp_path / "broken.html"
    page.write_text("<html><body><script>undefinedFunction();</script></body></html>", "utf-8")
    (message,) = console_messages(browse(browser, page, "--dump-dom", *CONSOLE).stderr)
    assert "ReferenceError: undefinedFunction is not defined" in message


def test_report_renders_offline_in_a_headless_browser(wmt_dir: Path, tmp_path: Path) -> None:
    from PIL import Image

    browser = chromium()
    hyp_files, ref_files = wmt_systems(wmt_dir)
    page = tmp_path / "report.html"
    argv = ["report", *map(str, ref_files), "-i", *map(str, hyp_files), "-o", str(page)]
    assert main([*argv, "-cw", "2", "--trials", "100"]) == 0
    text = page.read_text("utf-8")
    # Nothing to fetch: no script from a file or URL, no link or image outside the scripts
    # (plotly.js itself holds map-tile URLs, fetched by map charts only).
    assert not re.search(r"<script[^>]*\ssrc=", text)
    markup = re.sub(r"<script[^>]*>.*?</script>", "", text, flags=re.DOTALL)
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", markup)
    shown = browse(browser, page, "--dump-dom", *CONSOLE)
    assert console_messages(shown.stderr) == []
    dom = shown.stdout
    hyps = [read_lines(p) for p in hyp_files]
    refs = [read_lines(p) for p in ref_files]
    for hyp in hyps:
        assert f"{chrf.score(hyp, refs, word_order=2):.4f}" in dom
    assert dom.count('class="main-svg"') >= 8  # plotly drew every chart (two svgs each)
    markup = re.sub(r"<script.*?</script>", "", dom, flags=re.DOTALL)
    visible = html.unescape(re.sub(r"<[^>]+>", " ", markup))
    first, second = (p.name for p in hyp_files)
    assert f"chrF2++ report: {first} vs {second} on {ref_files[0].name}" in visible
    assert (
        f"Per-order differences: system - {first} (the baseline), 95% paired bootstrap" in visible
    )
    for label in (f"baseline ({first})", f"system ({second})", "reference"):
        assert label in visible
    assert "|bs:100|seed:12345|" in visible  # the signature: resamples and seed
    shot = tmp_path / "shot.png"
    browse(browser, page, f"--screenshot={shot}", "--window-size=1280,2400")
    pixels = Image.open(shot).convert("L")
    histogram = pixels.histogram()
    assert max(histogram) < 0.97 * sum(histogram)  # not one flat colour


@pytest.mark.parametrize(
    ("options", "name"),
    [({}, "chrF2"), ({"word_order": 2}, "chrF2++"), ({"beta": 3, "word_order": 1}, "chrF3+")],
)
def test_every_score_is_labelled_with_the_metrics_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], options: dict[str, int], name: str
) -> None:
    """sacreBLEU's name (`CHRFScore.name`) on explain's text and JSON, compare's JSON and
    text, and the report's tables and charts."""
    hyps = ["the cat sat on the mat", "a dog barked", "x"]
    other = ["the cat sat", "dogs barked", "y"]
    refs = ["the cat sat on a mat", "the dog barked", "z"]
    assert chrf.CHRF(**options).sentence_score(hyps[0], [refs[0]]).name == name  # type: ignore[arg-type]
    paths = {}
    for label, lines in (("hyp", hyps), ("other", other), ("ref", refs)):
        paths[label] = tmp_path / f"{label}.txt"
        paths[label].write_text("\n".join(lines) + "\n", "utf-8")
    spelled = {"word_order": "-cw", "beta": "--chrf-beta"}
    flags = [part for key, value in options.items() for part in (spelled[key], str(value))]
    base = [str(paths["ref"]), "-i", str(paths["hyp"])]
    assert main(["explain", *base, *flags]) == 0
    assert capsys.readouterr().out.startswith(f"{name} = ")
    assert main(["explain", *base, *flags, "-f", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["metric"] == name
    assert main(["explain", *base, str(paths["other"]), *flags, "--trials", "20"]) == 0
    text = capsys.readouterr().out
    assert f"{name} (± 95% CI)" in text
    assert f"{paths['other']} against {paths['hyp']}: {name} " in text
    c = chrf.compare([hyps, other], [refs], trials=20, **options)  # type: ignore[arg-type]
    assert c.to_dict()["metric"] == name
    pytest.importorskip("plotly")
    from chrf._report import distribution_figure, length_figure, report_html

    page = report_html(c, "signature", ["ref.txt"])
    assert f"<title>{name} report: system 1 vs system 2 on ref.txt</title>" in page
    assert f"<th>system</th><th>{name}</th>" in page
    assert f"<th>sentence {name}</th>" in page
    assert f"Sentence scores ({name})" in page
    histogram = distribution_figure(c).layout
    assert (histogram.xaxis.title.text, histogram.yaxis.title.text) == (
        f"sentence {name}",
        "segments",
    )
    assert length_figure(c).layout.yaxis.title.text == name


def test_the_length_chart_draws_no_empty_bucket() -> None:
    pytest.importorskip("plotly")
    from chrf._report import length_figure

    refs = ["a short one", "x" * 120, "y" * 130]  # buckets [0, 50) and [100, 150) only
    c = chrf.compare([refs, ["a", "b", "c"]], [refs], test=None)
    figure = length_figure(c)
    for bar in figure.data:
        assert list(bar.x) == ["[0, 50)", "[100, 150)"]
        assert list(bar.text) == ["n=1", "n=2"]
        assert None not in bar.y
    assert list(figure.layout.xaxis.categoryarray) == ["[0, 50)", "[100, 150)"]


def test_each_highlighted_reference_is_named() -> None:
    """With several references, each highlighted one says which it is: the reference its
    segment's statistics were taken against."""
    pytest.importorskip("plotly")
    from chrf._report import differences_section, worst_section

    hyps = ["the cat sat on the mat", "green ideas sleep"]
    other = ["green ideas sleep", "the cat sat on the mat"]  # each segment takes the other ref
    refs_a = ["the cat sat on the mat", "a dog barked"]
    refs_b = ["colourless cats", "green ideas sleep furiously"]
    c = chrf.compare([hyps, other], [refs_a, refs_b], test=None, layout="streams")
    names = ["ref.A.txt", "ref.B.txt"]
    assert c.explanations[0].references.tolist() == [0, 1]
    worst = worst_section(c, names)
    assert "← reference 1 (ref.A.txt)" in worst
    assert "← reference 2 (ref.B.txt)" in worst
    # The baseline and the system took different references in every segment: both are shown.
    differences = differences_section(c, names)
    assert differences.count("← reference 1 (ref.A.txt)") == 2
    assert differences.count("← reference 2 (ref.B.txt)") == 2


def test_the_difference_view_brackets_each_exact_difference(
    wmt_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Per-order differences from the baseline with paired bootstrap intervals: the bars are
    the exact differences, each inside its interval; a system equal to the baseline differs by
    0 in every resample."""
    pytest.importorskip("plotly")
    from chrf._report_deltas import delta_figure, delta_intervals

    monkeypatch.delenv("SACREBLEU_SEED", raising=False)
    hyp_files, ref_files = wmt_systems(wmt_dir)
    hyps = [read_lines(p)[:300] for p in hyp_files]
    refs = [read_lines(p)[:300] for p in ref_files]
    c = chrf.compare([hyps[0], hyps[1], hyps[0]], refs, word_order=2, test=None)
    intervals = delta_intervals(c, 200)
    assert intervals.shape == (2, 2, 3, 8)  # systems, (low, high), (P, R, F), orders
    low, high = intervals[0]
    exact = np.array(
        [[100 * float(getattr(o, f)) for o in c.differences[0].orders] for f in FIELDS]
    )
    assert (low <= exact).all()
    assert (exact <= high).all()
    assert (low < high).all()
    assert (intervals[1] == 0).all()
    assert (delta_intervals(c, 200) == intervals).all()  # sacreBLEU's seed: the same draws
    figure = delta_figure(c, ["o"] * 8, ["#000"] * 3, intervals)
    assert [bar.name for bar in figure.data][:1] == [f"{c.names[1]} - {c.names[0]}"]
    assert figure.data[2].error_y.array is not None  # F of the first system: intervals drawn


def test_the_page_names_what_it_shows() -> None:
    pytest.importorskip("plotly")
    from chrf._report import report_html

    hyps = ["the cat sat on the mat", "a dog barked", "x y"]
    other = ["the cat sat", "dogs barked", "x y"]
    refs = ["the cat sat on a mat", "the dog barked", "x z"]
    c = chrf.compare({"a.txt": hyps, "b.txt": other}, [refs], trials=20)
    page = report_html(c, "nrefs:1|bs:20|seed:12345|case:mixed", ["ref.txt"], 20)
    title = "chrF2 report: a.txt vs b.txt on ref.txt"
    assert f"<title>{title}</title>" in page
    assert f"<h1>{title}</h1>" in page
    for label in ("baseline (a.txt)", "system (b.txt)", "reference"):
        assert f"<th class='label'>{label}</th>" in page
    assert "Per-order differences: system - a.txt (the baseline), 95% paired bootstrap" in page
    assert "bs:20|seed:12345" in page
    alone = chrf.compare({"a.txt": hyps, "b.txt": other}, [refs], test=None)
    assert "95% paired bootstrap" not in report_html(alone, "s", ["ref.txt"], None)
