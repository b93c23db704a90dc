"""Makes tests/data/wmt: the first lines of several WMT22 test sets, with sacreBLEU 2.6.0's numbers.

    python3 scripts/make_test_data.py [SOURCE]

SOURCE is the folder that holds the full sets' wmt/ (default: $CHRF_DATA, else the nearest
shared/data beside the checkout). For each set of SETS it copies the first lines of the chosen
systems and of every reference, byte for byte, and writes an expected.json of the same shape as
the full sets' (tests/support/wmt.py reads both): corpus chrF and chrF++ with one reference, with
all of them and with them reversed, signatures, corpus statistics, and sentence-level scores of the
first 50 segments and of the segments holding unusual characters, all computed by the real
sacreBLEU 2.6.0 from the copied lines. The output is deterministic: running it again on the same
source rewrites the same bytes.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import unicodedata
from pathlib import Path
from typing import Any

import sacrebleu
from sacrebleu.metrics import CHRF

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "data" / "wmt"

#: Set -> (lines taken from the start, systems). Every reference of a set is taken. The sets
#: cover two references (cs-en, en-de, en-zh), Chinese and Japanese (no spaces, full-width
#: punctuation, U+3000), Cyrillic (en-uk), and a byte order mark at the start of a file (uk-en's
#: PROMT). en-de keeps all three systems: the command-line tests compare three of them.
SETS: dict[str, tuple[int, list[str]]] = {
    "generaltest2022.cs-en": (200, ["ALMAnaCH-Inria", "Online-W"]),
    "generaltest2022.en-de": (300, ["JDExploreAcademy", "Online-B", "OpenNMT"]),
    "generaltest2022.en-ja": (150, ["KYB", "Online-W"]),
    "generaltest2022.en-uk": (120, ["HuaweiTSC", "Online-G"]),
    "generaltest2022.en-zh": (150, ["HuaweiTSC", "Online-W"]),
    "generaltest2022.uk-en": (150, ["Online-B", "PROMT"]),
}

CONFIGS = {"chrF": {"word_order": 0}, "chrF++": {"word_order": 2}}
CONFIG_TEXT = {"chrF": "CHRF()", "chrF++": "CHRF(word_order=2)"}
LINE_READING = (
    "strict UTF-8 (BOM kept as U+FEFF), drop one final '\\n', split on '\\n' only, no stripping"
)
#: At most this many segments with unusual characters get their sentence scores recorded.
EDGE_SEGMENTS = 20

#: Characters counted per file (the full sets' expected.json counts the same classes).
CLASSES = {
    "nbsp_U+00A0": lambda c: c == "\u00a0",
    "tab": lambda c: c == "\t",
    "zero_width_not_whitespace(U+200B-200D,U+2060,U+FEFF)": lambda c: (
        c in "\u200b\u200c\u200d\u2060\ufeff"
    ),
    "ideographic_space_U+3000": lambda c: c == "\u3000",
    "fullwidth_ascii(U+FF01-FF5E)": lambda c: "\uff01" <= c <= "\uff5e",
    "non_bmp(>U+FFFF)": lambda c: ord(c) > 0xFFFF,
    "combining_or_variation_mark(Mn/Me)": lambda c: unicodedata.category(c) in ("Mn", "Me"),
}
#: The classes that make a segment an edge segment: whitespace that Python's str.split() and
#: chrF's whitespace removal treat differently, invisible characters, surrogate pairs in UTF-16.
EDGE_CLASSES = {name for name in CLASSES if not name.startswith("fullwidth")}


def source_dir() -> Path:
    if len(sys.argv) > 1:
        return Path(sys.argv[1]) / "wmt"
    if os.environ.get("CHRF_DATA"):
        return Path(os.environ["CHRF_DATA"]) / "wmt"
    for parent in ROOT.parents:
        if (parent / "shared" / "data" / "wmt").is_dir():
            return parent / "shared" / "data" / "wmt"
    sys.exit("no source: pass the folder that holds wmt/, or set CHRF_DATA")


def read_lines(data: bytes) -> list[str]:
    """tests/support/wmt.py's reading: strict UTF-8, BOM kept, one final newline dropped, split
    on \\n."""
    text = data.decode("utf-8")
    return (text[:-1] if text.endswith("\n") else text).split("\n")


def first_lines(path: Path, count: int) -> bytes:
    """The first `count` lines of a file, each with its newline, byte for byte."""
    kept = path.read_bytes().split(b"\n")[:count]
    return b"".join(line + b"\n" for line in kept)


def edge_cases(lines: list[str]) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for name, test in CLASSES.items():
        hits = [(i, c) for i, line in enumerate(lines) for c in line if test(c)]
        if hits:
            first_line, first = hits[0]
            found[name] = {
                "count": len(hits),
                "first_line_index": first_line,
                "first_codepoint": f"U+{ord(first):04X}",
            }
    empty = [i for i, line in enumerate(lines) if not line]
    if empty:
        found["empty_lines"] = {"count": len(empty), "line_indices": empty}
    double = sum("  " in line for line in lines)
    if double:
        found["lines_with_double_space"] = double
    if lines and lines[0].startswith("\ufeff"):
        found["utf8_bom_at_start"] = True
    return found


def is_edge(line: str) -> bool:
    return not line or "  " in line or any(CLASSES[name](c) for c in line for name in EDGE_CLASSES)


def edge_segments(texts: list[list[str]]) -> list[int]:
    """Segments where some file has an unusual character, spread evenly, and the last one."""
    count = len(texts[0])
    found = [i for i in range(count) if any(is_edge(lines[i]) for lines in texts)]
    if len(found) > EDGE_SEGMENTS - 1:
        step = len(found) / (EDGE_SEGMENTS - 1)
        found = [found[int(k * step)] for k in range(EDGE_SEGMENTS - 1)]
    return sorted({*found, count - 1})


def column_sums(stats: list[list[int]]) -> list[int]:
    """sacreBLEU's corpus statistics: the segments' statistics summed, as Python integers."""
    return [sum(int(row[k]) for row in stats) for k in range(len(stats[0]))]


def expected_scores(
    hyps: list[str], refs: list[list[str]], config: str, edges: list[int]
) -> dict[str, Any]:
    metric = CHRF(**CONFIGS[config])
    result = metric.corpus_score(hyps, refs)
    stats = metric._extract_corpus_statistics(hyps, refs)
    totals = column_sums(stats)
    stripped = metric.corpus_score(
        [h.rstrip() for h in hyps], [[r.rstrip() for r in s] for s in refs]
    )

    def sentence(i: int) -> float:
        return float(metric.sentence_score(hyps[i], [s[i] for s in refs]).score)

    return {
        "score": result.score,
        "score_str": str(result),
        "signature": str(metric.get_signature()),
        "corpus_stats_hyp_ref_match_per_order": [
            [int(n) for n in totals[k : k + 3]] for k in range(0, len(totals), 3)
        ],
        "cli_rstrip_same": stripped.score == result.score,
        "sentence_scores_first_50": [sentence(i) for i in range(min(50, len(hyps)))],
        "sentence_scores_edge_segments": {str(i): sentence(i) for i in edges},
    }


def reversed_order(hyps: list[str], refs: list[list[str]], config: str) -> dict[str, Any]:
    """The numbers with the references in reverse order: sacreBLEU keeps the first of equally
    good references, so a segment's statistics, and the score, may change."""
    metric = CHRF(**CONFIGS[config])
    backward = refs[::-1]
    before = metric._extract_corpus_statistics(hyps, refs)
    after = metric._extract_corpus_statistics(hyps, backward)
    totals = column_sums(after)
    result = metric.corpus_score(hyps, backward)
    return {
        "score": result.score,
        "score_str": str(result),
        "corpus_stats_hyp_ref_match_per_order": [
            [int(n) for n in totals[k : k + 3]] for k in range(0, len(totals), 3)
        ],
        "segments_whose_stats_change": sum(
            list(a) != list(b) for a, b in zip(before, after, strict=True)
        ),
    }


def make_set(source: Path, name: str, count: int, systems: list[str]) -> dict[str, Any]:
    folder, out = source / name, OUT / name
    out.mkdir(parents=True, exist_ok=True)
    ref_files = sorted(p.name for p in folder.glob("ref.*.txt"))
    hyp_files = [f"hyp.{system}.txt" for system in systems]
    texts: dict[str, list[str]] = {}
    files: dict[str, Any] = {}
    for file in ref_files + hyp_files:
        data = first_lines(folder / file, count)
        (out / file).write_bytes(data)
        texts[file] = read_lines(data)
        files[file] = {
            "lines": len(texts[file]),
            "bytes": len(data),
            "sha256": hashlib.sha256(data).hexdigest(),
            "source_sha256": hashlib.sha256((folder / file).read_bytes()).hexdigest(),
            "edge_cases": edge_cases(texts[file]),
        }
    edges = edge_segments(list(texts.values()))
    combos = [[ref] for ref in ref_files] + ([ref_files] if len(ref_files) > 1 else [])
    found: dict[str, Any] = {}
    for system, hyp_file in zip(systems, hyp_files, strict=True):
        by_reference: dict[str, Any] = {}
        for combo in combos:
            hyps, refs = texts[hyp_file], [texts[r] for r in combo]
            by_config = {}
            for config in CONFIGS:
                scores = expected_scores(hyps, refs, config, edges)
                if len(combo) > 1:
                    scores["reversed_ref_order"] = reversed_order(hyps, refs, config)
                by_config[config] = scores
            by_reference["+".join(combo)] = by_config
        found[system] = {"file": hyp_file, "scores_by_reference": by_reference}
    return {
        "set": name,
        "sacrebleu_version": sacrebleu.__version__,
        "segments": count,
        "taken": f"the first {count} lines of each file of {name} (wmt22-news-systems, txt/)",
        "line_reading": LINE_READING,
        "configs": CONFIG_TEXT,
        "references": ref_files,
        "files": files,
        "sentence_segment_indices_edge": edges,
        "systems": found,
    }


def dumps(value: Any, indent: str = "") -> str:
    """JSON with one key a line and lists of numbers on one line: small, and readable in a diff."""
    inner = indent + " "
    if isinstance(value, dict) and value:
        items = [f"{inner}{json.dumps(k)}: {dumps(v, inner)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + indent + "}"
    if isinstance(value, list) and any(isinstance(v, (dict, list)) for v in value):
        items = [f"{inner}{dumps(v, inner)}" for v in value]
        return "[\n" + ",\n".join(items) + "\n" + indent + "]"
    return json.dumps(value, ensure_ascii=False)


def main() -> None:
    assert sacrebleu.__version__ == "2.6.0", "the expected numbers are sacreBLEU 2.6.0's"
    source = source_dir()
    for name, (count, systems) in SETS.items():
        expected = make_set(source, name, count, systems)
        text = dumps(expected) + "\n"
        (OUT / name / "expected.json").write_text(text, "utf-8")
        print(f"{name}: {count} lines, {len(systems)} systems", flush=True)


if __name__ == "__main__":
    main()
