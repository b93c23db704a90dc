"""The WMT22 excerpts bundled in tests/data: intact, small, and cut from the full sets."""

from __future__ import annotations

import hashlib
import json

from conftest import BUNDLED, FULL

from wmt import cases


def test_bundled_files_are_the_ones_expected_json_describes() -> None:
    sets = sorted(BUNDLED.glob("generaltest2022.*"))
    assert [s.name.split(".")[1] for s in sets] == [
        "cs-en",
        "en-de",
        "en-ja",
        "en-uk",
        "en-zh",
        "uk-en",
    ]
    total = 0
    for folder in sets:
        expected = json.loads((folder / "expected.json").read_text("utf-8"))
        assert sorted(expected["files"]) == sorted(p.name for p in folder.glob("*.txt"))
        for name, info in expected["files"].items():
            data = (folder / name).read_bytes()
            total += len(data)
            assert hashlib.sha256(data).hexdigest() == info["sha256"], name
            assert data.count(b"\n") == info["lines"] == expected["segments"], name
            if FULL is not None:  # an excerpt is the start of its full file, byte for byte
                source = (FULL / folder.name / name).read_bytes()
                assert hashlib.sha256(source).hexdigest() == info["source_sha256"], name
                assert source.startswith(data), name
        total += len((folder / "expected.json").read_bytes())
    assert total < 700_000  # the repository carries it: well under 2 MB
    assert sum(1 for _ in cases(BUNDLED)) == 68
