"""`chrf refs.parquet:ref -i sys.parquet:hyp`: Parquet and Arrow IPC columns on the command line
score as the same lines in text files do, in every mode, and their mistakes are one line."""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path

import pyarrow as pa
import pyarrow.feather as feather
import pyarrow.parquet as pq
import pytest
from cli_run import run_cli
from test_cli_failures import run_program

BUNDLED = Path(__file__).resolve().parents[1] / "data" / "wmt" / "generaltest2022.en-de"


def lines(path: Path) -> list[str]:
    """As the command line reads a text file: split on newlines, right-stripped."""
    return [line.rstrip() for line in path.read_text("utf-8").split("\n")[:-1]]


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    where = tmp_path_factory.mktemp("arrow")
    hyp_a, hyp_b = lines(BUNDLED / "hyp.OpenNMT.txt"), lines(BUNDLED / "hyp.Online-B.txt")
    ref_a, ref_b = lines(BUNDLED / "ref.A.txt"), lines(BUNDLED / "ref.B.txt")
    for name, texts in {
        "hyp.txt": hyp_a,
        "hyp2.txt": hyp_b,
        "ref.txt": ref_a,
        "refB.txt": ref_b,
    }.items():
        (where / name).write_text("".join(t + "\n" for t in texts), "utf-8")
    # Row groups smaller than the command line's chunks, and not dividing them.
    pq.write_table(
        pa.table({"id": range(len(hyp_a)), "hyp": hyp_a, "hyp2": hyp_b}),
        where / "sys.parquet",
        row_group_size=7,
    )
    pq.write_table(
        pa.table({"ref": pa.array(ref_a, pa.large_string()), "refB": ref_b}),
        where / "refs.parquet",
    )
    feather.write_feather(pa.table({"ref": ref_a}), where / "refs.feather")
    table = pa.table({"ref": pa.array(ref_a, pa.string_view())})
    with pa.ipc.new_file(where / "refs.arrow", table.schema) as writer:
        for batch in table.to_batches(max_chunksize=5):
            writer.write_batch(batch)
    with (
        pa.OSFile(str(where / "refs.ipc"), "wb") as sink,
        pa.ipc.new_stream(sink, table.schema) as stream,
    ):
        stream.write_table(table)
    pq.write_table(pa.table({"hyp": [*hyp_a[:-3], None, *hyp_a[-2:]]}), where / "nulls.parquet")
    pq.write_table(pa.table({"hyp": hyp_a[:5]}), where / "short.parquet")
    return where


def ours(folder: Path, args: list[str], **env: str) -> str:
    done = run_cli(args, folder, **env)
    assert done.returncode == 0, done.stderr
    return done.stdout


@functools.cache
def from_lines(folder: Path, args: tuple[str, ...]) -> str:
    """The command's output on the text files: the same for every kind of column compared."""
    return ours(folder, list(args))


@pytest.mark.parametrize(
    "extra",
    [
        [],
        ["-cw", "2"],
        ["--chrf-lowercase", "-cw", "2", "-f", "text"],
        ["--sentence-level"],
        ["--sentence-level", "--chrf-lowercase", "-b"],
        ["--confidence", "--confidence-n", "20"],
        ["-b", "-f", "text"],
    ],
    ids=" ".join,
)
@pytest.mark.parametrize(
    "refs",
    [
        ["refs.parquet:ref"],
        ["refs.feather:ref"],
        ["refs.arrow:ref"],
        ["refs.ipc:ref"],
        ["ref.txt"],
        ["refs.parquet:ref", "refB.txt"],
        ["refs.parquet:ref", "refs.parquet:refB"],
    ],
    ids=" ".join,
)
def test_columns_score_as_their_lines(folder: Path, refs: list[str], extra: list[str]) -> None:
    text_refs = ("refB.txt" if "refB" in r else "ref.txt" for r in refs)
    expected = from_lines(folder, (*text_refs, "-i", "hyp.txt", *extra))
    for chunk in ("5", "4096"):
        got = ours(folder, [*refs, "-i", "sys.parquet:hyp", *extra], CHRF_CLI_CHUNK=chunk)
        assert got == expected


def test_several_systems_and_paired_tests(folder: Path) -> None:
    for extra in (["-f", "json"], ["--paired-bs", "--paired-bs-n", "30", "-f", "json"]):
        names = ["sys.parquet:hyp", "sys.parquet:hyp2"]
        got = ours(folder, ["refs.parquet:ref", "-i", *names, *extra])
        expected = ours(folder, ["ref.txt", "-i", "hyp.txt", "hyp2.txt", *extra])
        renamed = expected.replace("hyp2.txt", "sys.parquet:hyp2")
        assert got == renamed.replace("hyp.txt", "sys.parquet:hyp")


def test_chunks_of_n_segments_with_n_references(folder: Path) -> None:
    """Regression: a chunk of 2 segments with 2 reference streams (lowercasing sends it through
    Python) was refused as ambiguous between the two layouts of references."""
    args = ["ref.txt", "refB.txt", "-i", "hyp.txt", "--chrf-lowercase"]
    assert ours(folder, args, CHRF_CLI_CHUNK="2") == ours(folder, args)


def test_rows_are_read_in_batches(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Memory stays flat: taking a chunk reads the batches it needs, not the whole file."""
    from chrf.cli.columns import ArrowRows

    monkeypatch.setenv("CHRF_CLI_BATCH", "8")
    for path in ("sys.parquet", "refs.arrow"):
        column = "hyp" if path == "sys.parquet" else "ref"
        text = lines(folder / ("hyp.txt" if path == "sys.parquet" else "ref.txt"))
        rows = ArrowRows(str(folder / path), column)
        assert rows.take(10).to_pylist() == text[:10]
        assert rows._read in (10, 16)  # two batches of 8 (Parquet) or of 5 (the IPC file's own)
        assert rows.take(5).to_pylist() == text[10:15]
        assert rows.rest() == len(text) - 15


@pytest.mark.parametrize(
    ("args", "part"),
    [
        (["refs.parquet:nope", "-i", "sys.parquet:hyp"], "refs.parquet has no column 'nope'"),
        (["refs.parquet:ref", "-i", "sys.parquet:id"], "column 'id' holds int64, not strings"),
        (
            ["refs.parquet:ref", "-i", "nulls.parquet:hyp"],
            "nulls.parquet: column 'hyp' is null in row",
        ),
        (
            ["refs.parquet:ref", "-i", "short.parquet:hyp"],
            "differ in length: short.parquet:hyp has 5 lines, refs.parquet:ref has",
        ),
        (["ref.txt", "-i", "short.parquet:hyp"], "short.parquet:hyp has 5 lines, ref.txt has"),
        (["refs.parquet:ref", "-i", "missing.parquet:hyp"], "cannot read missing.parquet"),
        (["refs.parquet:ref", "-i", "hyp.txt.parquet:x"], "cannot read hyp.txt.parquet"),
    ],
)
def test_each_mistake_is_one_line(folder: Path, args: list[str], part: str) -> None:
    (folder / "hyp.txt.parquet").write_text("not parquet\n", "utf-8")
    for env in ({}, {"CHRF_CLI_CHUNK": "3"}):
        done = run_cli(args, folder, **env)
        assert done.returncode == 1, done.stderr
        assert "Traceback" not in done.stderr
        error = done.stderr.splitlines()
        assert len(error) == 1, done.stderr
        assert re.match(r"chrf: error: ", error[0]), error[0]
        assert part in error[0], error[0]


def test_the_null_row_is_counted_from_one_as_lines_are(folder: Path) -> None:
    count = len(lines(folder / "hyp.txt"))
    done = run_cli(["ref.txt", "-i", "nulls.parquet:hyp"], folder, CHRF_CLI_CHUNK="4")
    assert f"is null in row {count - 2}" in done.stderr


def test_the_program_reads_columns(folder: Path) -> None:
    """The console script's code, in a process of its own, reads Arrow columns as `main` does in
    this one (where the other tests run it)."""
    done = run_program(folder, ["refs.parquet:ref", "-i", "sys.parquet:hyp", "-f", "text"])
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout == ours(folder, ["ref.txt", "-i", "hyp.txt", "-f", "text"])
    assert done.stdout == ours(folder, ["refs.parquet:ref", "-i", "sys.parquet:hyp", "-f", "text"])


def test_without_pyarrow_the_error_names_the_extra(folder: Path) -> None:
    done = run_program(folder, ["refs.parquet:ref", "-i", "hyp.txt"], blocked="pyarrow")
    assert done.returncode == 1
    assert done.stderr.strip() == (
        "chrf: error: reading refs.parquet needs pyarrow: pip install 'chrf[arrow]'"
    )


def test_a_text_file_whose_name_has_a_colon_stays_a_text_file(folder: Path) -> None:
    (folder / "odd.parquet:ref").write_text((folder / "ref.txt").read_text("utf-8"), "utf-8")
    got = json.loads(ours(folder, ["odd.parquet:ref", "-i", "hyp.txt"]))
    assert got["score"] == json.loads(ours(folder, ["ref.txt", "-i", "hyp.txt"]))["score"]


def test_explain_reads_columns(folder: Path) -> None:
    got = ours(folder, ["explain", "refs.parquet:ref", "-i", "sys.parquet:hyp", "--top", "3"])
    expected = ours(folder, ["explain", "ref.txt", "-i", "hyp.txt", "--top", "3"])
    assert got == expected.replace("hyp.txt", "sys.parquet:hyp").replace(
        "ref.txt", "refs.parquet:ref"
    )


def test_dictionary_encoded_columns_score_as_their_lines(folder: Path) -> None:
    """Regression (issue 40): the command line refused dictionary-encoded string columns
    (pandas' categoricals, Parquet's dictionary pages read back as such), which the Python API
    reads."""
    hyp, ref = lines(folder / "hyp.txt"), lines(folder / "ref.txt")
    pq.write_table(
        pa.table({"hyp": pa.array(hyp).dictionary_encode()}),
        folder / "dict.parquet",
        row_group_size=7,
    )
    encoded = pa.array(ref, pa.large_string()).dictionary_encode()
    feather.write_feather(pa.table({"ref": encoded}), folder / "dict.feather")
    for extra in ([], ["--chrf-lowercase", "--sentence-level"]):
        expected = ours(folder, ["ref.txt", "-i", "hyp.txt", *extra])
        for chunk in ("5", "4096"):
            args = ["dict.feather:ref", "-i", "dict.parquet:hyp", *extra]
            assert ours(folder, args, CHRF_CLI_CHUNK=chunk) == expected
    nulls = pa.array([*hyp[:3], None, *hyp[4:]]).dictionary_encode()
    pq.write_table(pa.table({"hyp": nulls}), folder / "dict_nulls.parquet")
    done = run_cli(["ref.txt", "-i", "dict_nulls.parquet:hyp"], folder)
    assert done.returncode == 1
    assert done.stderr.strip() == "chrf: error: dict_nulls.parquet: column 'hyp' is null in row 4"
