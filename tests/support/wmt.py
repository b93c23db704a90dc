"""WMT22 test sets with sacreBLEU 2.6.0's expected numbers: tests/data/wmt, or the full sets."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

CONFIGS = {"chrF": {"word_order": 0}, "chrF++": {"word_order": 2}}


@cache
def read_lines(path: Path) -> list[str]:
    """expected.json's line reading: strict UTF-8, BOM kept, one final newline dropped,
    split on newline only, nothing stripped."""
    text = path.read_bytes().decode("utf-8")
    if text.endswith("\n"):
        text = text[:-1]
    return text.split("\n")


@dataclass(frozen=True)
class Case:
    """One system scored against one combination of references under one configuration."""

    test_set: str
    system: str
    hypothesis_file: Path
    reference_files: tuple[Path, ...]
    config: str
    expected: dict[str, Any]

    @property
    def id(self) -> str:
        refs = "+".join(p.name for p in self.reference_files)
        return f"{self.test_set}/{self.system}/{refs}/{self.config}"

    @property
    def options(self) -> dict[str, Any]:
        return CONFIGS[self.config]

    def hypotheses(self) -> list[str]:
        return read_lines(self.hypothesis_file)

    def references(self) -> list[list[str]]:
        return [read_lines(path) for path in self.reference_files]


def cases(wmt: Path) -> Iterator[Case]:
    """Every (system, references, configuration) of every expected.json, reversed multi-reference
    orders included (they exercise sacreBLEU's first-wins tie rule)."""
    for expected_file in sorted(wmt.glob("*/expected.json")):
        folder = expected_file.parent
        data = json.loads(expected_file.read_text("utf-8"))
        for system, info in data["systems"].items():
            for ref_key, by_config in info["scores_by_reference"].items():
                refs = tuple(folder / name for name in ref_key.split("+"))
                for config, expected in by_config.items():
                    hyp = folder / info["file"]
                    yield Case(folder.name, system, hyp, refs, config, expected)
                    if "reversed_ref_order" in expected:
                        reversed_expected = {**expected, **expected["reversed_ref_order"]}
                        yield Case(folder.name, system, hyp, refs[::-1], config, reversed_expected)
