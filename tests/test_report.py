"""chrf compare, `chrf explain` and `chrf report`: differences that add up, and a report page that
a real headless browser (Debian's chromium) renders offline with its scores and charts."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from fractions import Fraction
from pathlib import Path

import pytest

import chrf
from chrf.cli import main
from wmt import read_lines

ROOT = Path(__file__).resolve().parent.parent


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
    dom = browse(browser, page, "--dump-dom").stdout
    hyps = [read_lines(p) for p in hyp_files]
    refs = [read_lines(p) for p in ref_files]
    for hyp in hyps:
        assert f"{chrf.score(hyp, refs, word_order=2):.4f}" in dom
    assert dom.count('class="main-svg"') >= 6  # plotly drew every chart (two svgs each)
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
    assert f"<title>{name} report</title>" in page
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
