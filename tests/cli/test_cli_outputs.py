"""The command line prints what it printed before it was restructured: the outputs of
tests/support/cli_outputs.py's commands on the bundled examples, recorded in
tests/data/cli_outputs.json by the command line of commit 2f0e770 (stdout byte for byte, stderr,
exit status)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from cli_outputs import COLUMNS, RECORDED, ROOT, outcome

RECORDS = json.loads(RECORDED.read_text("utf-8"))


@pytest.mark.parametrize("record", RECORDS, ids=[" ".join(r["args"]) for r in RECORDS])
def test_the_command_line_prints_what_it_printed(
    record: dict[str, object], monkeypatch: pytest.MonkeyPatch
) -> None:
    if record["python"] not in (None, f"{sys.version_info[0]}.{sys.version_info[1]}"):
        pytest.skip(f"argparse's help as Python {record['python']} words it")
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("COLUMNS", COLUMNS)
    monkeypatch.delenv("SACREBLEU_FORMAT", raising=False)
    monkeypatch.delenv("CHRF_CLI_CHUNK", raising=False)
    assert outcome(list(record["args"])) == record  # type: ignore[arg-type]


def test_the_record_covers_every_scoring_mode() -> None:
    flags = {flag for record in RECORDS for flag in record["args"]}
    assert {"-sl", "--breakdown", "--confidence", "--paired-bs", "--paired-ar"} <= flags
    assert Path(ROOT / "examples" / "hyp.txt").is_file()
