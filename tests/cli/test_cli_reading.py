"""The command line's two ways of reading files agree: the core's (plain UTF-8 files, see
`chrf.cli.reading.native_paths`) and Python's (everything else), line by line and error by error,
and both agree with sacreBLEU's command line on files full of line-ending and whitespace traps."""

from __future__ import annotations

import gzip
import io
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

import chrf
from chrf._sacrebleu import SIGNATURE_VERSION, CHRFScore
from chrf._service import files_statistics
from chrf.cli import render
from chrf.cli.io import CliError
from chrf.cli.options import score_options
from chrf.cli.reading import (
    References,
    System,
    aligned_chunks,
    native_chunks,
    native_paths,
    read_lines,
    stdin_lines,
    stdin_systems,
)

#: Each line's whitespace counts: trailing whitespace left by a wrong strip changes the counts.
SETTINGS = chrf.Settings(word_order=2, include_whitespace=True)

#: Line-ending and whitespace traps, one per line: CRLF, a lone CR (not a line end in a file),
#: trailing tabs and Unicode spaces (U+0085, U+00A0, U+3000, U+001C are Python whitespace;
#: U+200B is not), a byte-order mark (kept, as Python's "utf-8" codec keeps it), empty and blank
#: lines, inner tabs, U+2028 (a line end for str.splitlines, not for files).
TRAPS = [
    "\ufeffthe cat sat \r",
    "a dog\rbarked\t\t",
    "",
    "  \t \x0b\x0c",
    "über  alles\u3000\u0085\u00a0",
    "zero\u200b width\u200b",
    "in\tner tabs \x1c\x1d\x1e\x1f",
    "line\u2028separator \r\r",
    "spaces  ",
]


def traps(shift: int) -> str:
    """The traps in another order (so that hypothesis and reference lines differ), the last
    line without a newline."""
    return "\n".join(TRAPS[shift:] + TRAPS[:shift])


def python_chunks(paths: list[str]) -> Iterator[chrf.Statistics]:
    system = System(paths[0], read_lines(paths[0], "utf-8"), paths[0])
    refs = References(paths[1:], 1, "utf-8")
    for chunk in aligned_chunks(system, refs):
        yield chrf.statistics(chunk.hypotheses, chunk.references, **SETTINGS.options())


def native(paths: list[str]) -> Iterator[chrf.Statistics]:
    names = paths
    yield from native_chunks(paths, names, lambda f: files_statistics(SETTINGS, f))


def outcome(chunks: Iterator[chrf.Statistics]) -> list[chrf.Statistics] | str:
    try:
        return list(chunks)
    except CliError as error:
        return str(error)


def write(folder: Path, name: str, data: bytes) -> str:
    path = folder / name
    path.write_bytes(data)
    return str(path)


@pytest.mark.parametrize("chunk", ["1", "4", "4096"])
def test_both_readers_give_the_same_lines(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, chunk: str
) -> None:
    monkeypatch.setenv("CHRF_CLI_CHUNK", chunk)
    hyp = write(tmp_path, "hyp.txt", traps(4).encode())
    refs = [write(tmp_path, f"ref{k}.txt", traps(k).encode()) for k in (0, 6)]
    paths = [hyp, *refs]
    assert native_paths(System(hyp, iter([]), hyp), References(refs, 1, "utf-8"), False) == paths
    ours = outcome(native(paths))
    assert isinstance(ours, list)
    assert len(ours) == -(-len(TRAPS) // int(chunk))
    assert ours == outcome(
        python_chunks(paths)
    )  # chunk by chunk, so with CHRF_CLI_CHUNK=1 line by line


@pytest.mark.parametrize(
    ("hyp", "ref", "message"),
    [
        (
            b"ok\ncaf\xe9 au lait\nok\n",
            b"a\nb\nc\n",
            "hyp.txt is not valid utf-8: invalid continuation byte",
        ),
        (b"a\nb\nc\n", b"a\nb\n\xff\n", "ref.txt is not valid utf-8: invalid start byte"),
        (b"a\nb\nc\xe2\x82", b"a\nb\nc\n", "hyp.txt is not valid utf-8: unexpected end of data"),
        (
            b"a\nb\nc\xed\xa0\x80\n",
            b"a\nb\nc\n",
            "hyp.txt is not valid utf-8: invalid continuation byte",
        ),
        (b"a\nb\n", b"a\nb\nc\nd", "hyp.txt has 2 lines, ref.txt has 4 lines"),
        (b"a\nb\nc\n" * 5, b"a\n" * 14, "hyp.txt has 15 lines, ref.txt has 14 lines"),
        (b"", b"", ""),
    ],
)
def test_both_readers_fail_alike(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, hyp: bytes, ref: bytes, message: str
) -> None:
    monkeypatch.setenv("CHRF_CLI_CHUNK", "2")
    paths = [write(tmp_path, "hyp.txt", hyp), write(tmp_path, "ref.txt", ref)]
    ours = outcome(native(paths))
    assert ours == outcome(python_chunks(paths))
    if message:
        assert isinstance(ours, str)
        assert message in ours.replace(f"{tmp_path}{os.sep}", "")
    else:
        assert ours == []


def test_only_plain_utf8_files_are_read_natively(tmp_path: Path) -> None:
    plain = write(tmp_path, "plain.txt", b"x\n")
    packed = write(tmp_path, "packed.txt.gz", gzip.compress(b"x\n"))
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)

    def paths(
        hyp: str | None,
        ref: str,
        *,
        lowercase: bool = False,
        encoding: str = "utf-8",
        num_refs: int = 1,
        parts: list[list[str]] | None = None,
    ) -> list[str] | None:
        refs = References([ref], num_refs, encoding, parts)
        return native_paths(System(hyp or "stdin", iter([]), hyp), refs, lowercase)

    assert paths(plain, plain, encoding="UTF8") == [plain, plain]
    assert paths(None, plain) is None  # standard input
    assert paths(plain, packed) is None
    assert paths(plain, str(fifo)) is None
    assert paths(plain, str(tmp_path / "missing")) is None  # Python's reading reports it
    assert paths(plain, plain, lowercase=True) is None  # Python's str.lower
    assert paths(plain, plain, encoding="latin-1") is None
    assert paths(plain, plain, num_refs=2) is None
    assert paths(plain, plain, parts=[[plain]]) is None


def test_the_command_line_reads_the_traps_as_sacrebleu_does(tmp_path: Path) -> None:
    (tmp_path / "hyp.txt").write_bytes(traps(4).encode())
    (tmp_path / "ref.txt").write_bytes(traps(0).encode())
    for extra in (["--sentence-level", "-w", "6"], ["-f", "text", "-w", "6"]):
        args = ["ref.txt", "-i", "hyp.txt", "--chrf-whitespace", "-cw", "2", *extra]
        ours, theirs = (
            subprocess.run(
                [sys.executable, "-m", *command],
                cwd=tmp_path,
                capture_output=True,
                text=True,
                check=True,
            ).stdout
            for command in (["chrf.cli", *args], ["sacrebleu", *args, "-m", "chrf"])
        )
        assert ours.replace(SIGNATURE_VERSION, "2.6.0") == theirs


@pytest.mark.parametrize("score_only", [False, True])
@pytest.mark.parametrize("signature", ["", "nrefs:1|100%|version:x"])
def test_sentence_lines_are_written_as_score_objects_format_them(
    score_only: bool, signature: str
) -> None:
    scores = [0.0, 0.125, 2.675, 62.5, 99.99999, 100.0, 1 / 3]
    for width in (0, 1, 2, 4):
        options = score_options(["ref", "-i", "hyp", "-w", str(width), *["-b"] * score_only])
        expected = [
            CHRFScore(score, 6, 0, 2).format(width, score_only, signature) for score in scores
        ]
        lines = render.sentence_scores(scores, "chrF2", signature, options)
        assert lines.split("\n") == expected


@pytest.mark.skipif(sys.platform != "linux", reason="file names of arbitrary bytes")
def test_a_file_name_that_is_not_utf8_is_read(tmp_path: Path) -> None:
    (tmp_path / "ref.txt").write_text("the cat sat\na dog\n", "utf-8")
    (tmp_path / "hyp.txt").write_text("the cat sits\na dog\n", "utf-8")
    odd = os.fsdecode(b"hyp-caf\xe9.txt")
    (tmp_path / odd).write_text("the cat sits\na dog\n", "utf-8")
    hyp, ref = str(tmp_path / odd), str(tmp_path / "ref.txt")
    assert native_paths(System(hyp, iter([]), hyp), References([ref], 1, "utf-8"), False)
    outputs = [
        subprocess.run(
            [sys.executable, "-m", "chrf.cli", "ref.txt", "-i", hyp, "-b", "-w", "6"],
            cwd=tmp_path,
            capture_output=True,
            check=False,
        )
        for hyp in (odd, "hyp.txt")
    ]
    assert outputs[0].returncode == 0, outputs[0].stderr
    assert outputs[0].stdout == outputs[1].stdout


def reader_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name == "chrf-reader"]


def test_the_reader_thread_stops_when_its_caller_does(tmp_path: Path) -> None:
    """Regular files are read one chunk ahead on a thread, which is no daemon: a caller that
    stops early (an error, Ctrl-C) stops it, and its files are closed, before the interpreter
    could shut down with it still reading."""
    lines = "".join(f"line {i}\n" for i in range(50_000)).encode()
    paths = [write(tmp_path, name, lines) for name in ("hyp.txt", "ref.txt")]
    system = System(paths[0], read_lines(paths[0], "utf-8"), paths[0])
    chunks = aligned_chunks(system, References(paths[1:], 1, "utf-8"))
    first = next(chunks)
    assert len(first.hypotheses) == 4096
    (reader,) = reader_threads()
    assert not reader.daemon
    chunks.close()
    assert not reader.is_alive()
    assert reader_threads() == []


def test_a_pipe_is_read_in_the_callers_thread(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Standard input as a pipe: no reader thread, since a read from a pipe can wait for
    ever and only the main thread's reads end at a Ctrl-C."""
    read_end, write_end = os.pipe()
    os.write(write_end, b"a b\nc d\n")
    os.close(write_end)
    with open(read_end, "rb") as pipe:
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(pipe))
        (system,) = stdin_systems(stdin_lines("utf-8"))
        ref = write(tmp_path, "ref.txt", b"a b\nc e\n")
        chunks = aligned_chunks(system, References([ref], 1, "utf-8"))
        assert next(chunks).hypotheses == ["a b", "c d"]
        assert reader_threads() == []
        assert list(chunks) == []


def test_a_line_without_end_is_refused_at_the_limit_not_read_forever(tmp_path: Path) -> None:
    # Regression: `chrf ref.txt -i /dev/zero` read one line for ever, its memory growing
    # without bound. The limit, lowered here so that the test reads little: the line that
    # passes it is named, and the command ends with status 1. An address-space limit ends the
    # old behaviour quickly instead of letting it fill the machine.
    ref = tmp_path / "ref.txt"
    ref.write_text("a b c\n" * 3, "utf-8")
    env = {**os.environ, "CHRF_CLI_MAX_LINE": "100000"}
    limit = "import resource; resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30)); "
    main = "import sys; from chrf.cli import main; sys.exit(main(sys.argv[1:]))"
    for args, name in [(["-i", "/dev/zero"], "/dev/zero"), ([], "standard input")]:
        with open(os.devnull if args else "/dev/zero", "rb") as stdin:
            done = subprocess.run(
                [sys.executable, "-c", limit + main, str(ref), *args],
                stdin=stdin,
                capture_output=True,
                text=True,
                env=env,
                timeout=120,
                check=False,
            )
        message = f"chrf: error: {name} line 1: longer than 100,000 characters"
        assert done.stderr.startswith(message), done.stderr
        assert done.returncode == 1
    # Lines up to the limit are read, the one past it named by its number, in every reader.
    lines = tmp_path / "lines.txt"
    lines.write_text("x" * 100_000 + "\ny\n" + "z" * 100_001 + "\n", "utf-8")
    os.environ["CHRF_CLI_MAX_LINE"] = "100000"
    try:
        read = read_lines(str(lines), "utf-8")
        assert [len(next(read)), next(read)] == [100_000, "y"]
        with pytest.raises(CliError, match=rf"^{lines} line 3: longer than 100,000 characters"):
            next(read)
    finally:
        del os.environ["CHRF_CLI_MAX_LINE"]
