"""Command lines copied from sacreBLEU give sacreBLEU's text: its flags (-lc, -t, -l, --echo,
--list), its reading (stdin's universal newlines and stripping, .gz files) and its tables. Each
test runs the real `python -m sacrebleu` 2.6.0 beside `chrf` (`chrf.cli.main` in this process,
see `cli_run`) on small data made here."""

from __future__ import annotations

import gzip
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from cli_run import run_cli

from chrf._sacrebleu import SIGNATURE_VERSION
from chrf.cli.specs import score_parser

OURS = [sys.executable, "-m", "chrf.cli"]
SACREBLEU = [sys.executable, "-m", "sacrebleu"]


def run(
    command: list[str], cwd: Path, stdin: bytes = b"", **env: str
) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        command, cwd=cwd, input=stdin, capture_output=True, check=False, env={**os.environ, **env}
    )


def ours_run(
    args: list[str], cwd: Path, stdin: bytes = b"", **env: str
) -> subprocess.CompletedProcess[bytes]:
    """`chrf ARGS` in this process, or in a new one where sacreBLEU's cache folder is set:
    sacreBLEU reads $SACREBLEU when it is imported, which this process did long ago."""
    if "SACREBLEU" in env:
        return run([*OURS, *args], cwd, stdin, **env)
    return run_cli(args, cwd, stdin, text=False, **env)


HIGHLIGHTED = "   Otherwise, the p-values are highlighted in red."


def both(cwd: Path, args: list[str], stdin: bytes = b"", **env: str) -> tuple[str, str, str]:
    """Our stdout (with sacreBLEU's version in the signature), sacreBLEU's, and our stderr."""
    ours = ours_run(args, cwd, stdin, **env)
    theirs = run([*SACREBLEU, *args, "-m", "chrf"], cwd, stdin, **env)
    assert ours.returncode == theirs.returncode == 0, ours.stderr + theirs.stderr
    text = ours.stdout.decode().replace(SIGNATURE_VERSION, "2.6.0")
    # chrf colours nothing, so it leaves out the sentence about the colour (a listed difference).
    theirs_text = theirs.stdout.decode().replace(f"{HIGHLIGHTED}\n", "")
    return text, theirs_text, ours.stderr.decode()


@pytest.fixture(scope="module")
def texts(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A reference and three systems of 40 mixed-case lines, some close to the reference."""
    folder = tmp_path_factory.mktemp("texts")
    rng = random.Random(12)
    words = ["The", "cat", "Sat", "on", "THE", "mat", "a", "Dog", "ran", "home", "quickly", "."]
    ref = [" ".join(rng.choices(words, k=rng.randint(3, 12))) for _ in range(40)]

    def noisy(line: str, rate: float) -> str:
        return " ".join(w.lower() if rng.random() < rate else w for w in line.split()[1:])

    (folder / "ref.txt").write_text("\n".join(ref) + "\n")
    for name, rate in [("a", 0.2), ("b", 0.6), ("c", 0.9)]:
        (folder / f"{name}.txt").write_text("\n".join(noisy(r, rate) for r in ref) + "\n")
    return folder


def test_lc_is_bleus_flag_and_chrf_lowercase_lowercases(texts: Path) -> None:
    ours, theirs, notice = both(texts, ["ref.txt", "-i", "a.txt", "-lc", "-f", "text"])
    assert ours == theirs
    assert "case:mixed" in ours
    assert notice.count("\n") == 1
    assert "-lc" in notice
    assert "--chrf-lowercase" in notice
    lowered, theirs, quiet = both(texts, ["ref.txt", "-i", "a.txt", "--chrf-lowercase", "-b"])
    assert lowered == theirs
    assert quiet == ""
    assert lowered != both(texts, ["ref.txt", "-i", "a.txt", "-b"])[0]  # the flag matters here


def test_no_option_is_taken_by_a_prefix(texts: Path) -> None:
    # -l is sacreBLEU's language pair (used by BLEU alone), never a short -lc.
    ours, theirs, _ = both(texts, ["ref.txt", "-i", "a.txt", "-l", "en-de", "-b"])
    assert ours == theirs
    done = ours_run(["ref.txt", "-i", "a.txt", "--chrf-lower"], texts)
    assert done.returncode == 2
    assert b"unrecognized arguments: --chrf-lower" in done.stderr


def test_only_chrf_is_computed(texts: Path) -> None:
    done = ours_run(["ref.txt", "-i", "a.txt", "-m", "bleu", "chrf"], texts)
    assert done.returncode == 1
    assert (
        done.stderr
        == b"chrf: error: chrf computes chrF only, not bleu (-m chrf; sacreBLEU has BLEU and TER)\n"
    )


@pytest.fixture
def cache(tmp_path: Path) -> Path:
    """sacreBLEU's cache with wmt14 en-de's text files in place: sacreBLEU reads
    `$SACREBLEU/wmt14/wmt14.en-de.FIELD` for each of the test set's fields and downloads
    nothing when all of them exist."""
    folder = tmp_path / "cache" / "wmt14"
    folder.mkdir(parents=True)
    fields = {
        "src": "Hello world\nGood day\nSee you\n",
        "ref": "Hallo Welt\nGuten Tag\nBis bald\n",
        "docid": "d1\nd1\nd2\n",
        "genre": "news\nnews\nnews\n",
        "origlang": "en\nde\nen\n",
    }
    for field, text in fields.items():
        (folder / f"wmt14.en-de.{field}").write_text(text)
    return tmp_path / "cache"


def test_test_sets_come_from_sacrebleus_cache(cache: Path) -> None:
    env = {"SACREBLEU": str(cache)}
    hyps = b"Hallo Welt!\nGuten Morgen\nbis bald\n"
    for args in (
        ["-t", "wmt14", "-l", "en-de"],
        ["-t", "wmt14,wmt14", "-l", "en-de", "-f", "text"],
    ):
        stdin = hyps * 2 if "wmt14,wmt14" in args else hyps
        ours, theirs, _ = both(cache, args, stdin, **env)
        assert ours == theirs
    for args in (
        ["-t", "wmt14", "-l", "en-de", "--echo", "src", "ref"],
        ["-t", "wmt14", "-l", "en-de", "--echo", "all"],
        ["-t", "wmt14", "-l", "en-de", "--list"],
        ["--list"],
        ["--list", "-l", "en-de"],
    ):
        ours, theirs, _ = both(cache, args, **env)
        assert ours == theirs, args
    assert "\n" not in str(list(cache.iterdir()))  # nothing was added beside wmt14
    assert [p.name for p in cache.iterdir()] == ["wmt14"]


def test_citation_and_download(cache: Path) -> None:
    from sacrebleu.dataset import DATASETS

    env = {"SACREBLEU": str(cache)}
    done = ours_run(["-t", "wmt14", "--citation"], cache, **env)
    assert done.returncode == 0
    assert done.stdout.decode() == DATASETS["wmt14"].citation + "\n"  # sacreBLEU's own fails
    done = ours_run(["--download", "wmt14", "-l", "en-de"], cache, **env)  # all in place
    assert (done.returncode, done.stdout, done.stderr) == (0, b"", b"")


def test_test_set_failures_are_one_line(cache: Path) -> None:
    env = {"SACREBLEU": str(cache)}
    (cache / "wmt13").write_text("")  # sacreBLEU cannot make its folder: no download is tried
    done = ours_run(["-t", "wmt13", "-l", "en-de"], cache, b"x\n", **env)
    assert done.returncode == 1
    assert done.stderr.count(b"\n") == 1
    assert done.stderr.startswith(b"chrf: error: cannot get the references of wmt13 (en-de)")
    assert str(cache).encode() in done.stderr
    for args, message in [
        (["--download", "wmt13", "-l", "en-de"], b"cannot get wmt13 (en-de) from sacreBLEU's"),
        (["-t", "nosuchset", "-l", "en-de"], b"unknown test set 'nosuchset'"),
        (["-t", "wmt14"], b"needs a language pair (-l)"),
        (["-t", "wmt14", "-l", "xx-yy"], b"has no language pair 'xx-yy'"),
        (["ref.txt", "-t", "wmt14", "-l", "en-de"], b"either reference files or a test set"),
    ]:
        done = ours_run(args, cache, b"x\n", **env)
        assert done.returncode == 1, done.stderr
        assert message in done.stderr, done.stderr
    no_sacrebleu = (
        "import sys; sys.modules['sacrebleu'] = None; from chrf.cli import main; sys.exit(main())"
    )
    done = run([sys.executable, "-c", no_sacrebleu, "-t", "wmt14", "-l", "en-de"], cache, b"x\n")
    assert done.returncode == 1
    assert b"install sacreBLEU (pip install 'chrf[sacrebleu]')" in done.stderr


def test_stdin_is_read_as_sacrebleu_reads_it(tmp_path: Path) -> None:
    (tmp_path / "one.txt").write_text("x\n")
    (tmp_path / "two.txt").write_text("x y\nab\n")
    # The first line is stripped whole only: "x " keeps its space (83.3 in sacreBLEU).
    for stdin, args in [
        (b"x \tx\n", ["one.txt", "--chrf-whitespace"]),
        (b"x y \tx y\nab \tab \n", ["two.txt", "--chrf-whitespace"]),
        (b"x y\rab\r\n", ["two.txt"]),  # a bare \r ends a line on stdin
        (b"x y\r\nab\n", ["two.txt", "-f", "text"]),
    ]:
        ours, theirs, _ = both(tmp_path, args, stdin)
        assert ours == theirs, stdin


def test_gz_files_are_read_through_gzip(texts: Path, tmp_path: Path) -> None:
    for name in ("ref.txt", "a.txt"):
        (tmp_path / f"{name}.gz").write_bytes(gzip.compress((texts / name).read_bytes()))
    ours, theirs, _ = both(tmp_path, ["ref.txt.gz", "-i", "a.txt.gz", "-f", "text", "-w", "4"])
    assert ours == theirs
    (tmp_path / "cut.gz").write_bytes(gzip.compress(b"x\n" * 100)[:-9])
    done = ours_run(["cut.gz", "-i", "a.txt.gz"], tmp_path)
    assert done.returncode == 1
    assert done.stderr.startswith(b"chrf: error: cannot read cut.gz")


@pytest.mark.parametrize(
    "args",
    [
        ["-i", "a.txt", "b.txt", "c.txt", "-f", "text"],
        ["-i", "a.txt", "b.txt", "c.txt", "-f", "latex", "-w", "3"],
        ["-i", "a.txt", "b.txt", "c.txt", "-f", "text", "--paired-bs", "-pbsn", "200"],
        ["-i", "a.txt", "b.txt", "-f", "latex", "--paired-bs", "-pbsn", "200"],
        ["-i", "a.txt", "b.txt", "c.txt", "-f", "text", "--paired-ar", "-parn", "500"],
    ],
)
def test_tables_are_sacrebleus_text(texts: Path, args: list[str]) -> None:
    ours, theirs, _ = both(texts, ["ref.txt", "-q", *args])
    assert ours == theirs


def test_no_sentence_points_at_a_colour_nothing_has(texts: Path) -> None:
    args = ["ref.txt", "-q", "-i", "a.txt", "b.txt", "-f", "text", "--paired-bs", "-pbsn", "200"]
    ours = ours_run(args, texts)
    theirs = run([*SACREBLEU, *args, "-m", "chrf"], texts)
    assert HIGHLIGHTED in theirs.stdout.decode()
    assert "highlighted" not in ours.stdout.decode()
    assert "\x1b[" not in ours.stdout.decode()


def test_tables_of_systems_on_stdin(texts: Path) -> None:
    rows = zip(*((texts / f"{n}.txt").read_text().splitlines() for n in "abc"), strict=True)
    stdin = "".join("\t".join(row) + "\n" for row in rows).encode()
    for args in (["-f", "text"], ["-f", "text", "--paired-ar", "-parn", "200"]):
        ours, theirs, _ = both(texts, ["ref.txt", "-q", *args], stdin)
        assert ours == theirs


def test_help_shows_every_default() -> None:
    parser = score_parser()
    text = parser.format_help()
    options = [
        a
        for a in parser._actions
        if (a.option_strings or a.nargs == "*") and a.dest not in ("help", "version")
    ]
    assert all(a.help for a in options)
    assert text.count("(default:") == len(options)
    for shown in [
        "(default: 6)",
        "(default: 2)",
        "(default: utf-8)",
        "(default: json)",
        "(default: 1000)",
    ]:
        assert shown in text
    # Every other command is named, so that --help leads to it.
    from chrf.cli.outcome import COMMANDS

    assert all(f"'chrf {command}" in " ".join(text.split()) for command in COMMANDS)


@pytest.mark.parametrize("name", ["components", "selftest", "explain", "report", "serve", "mcp"])
def test_a_reference_file_named_like_a_command_is_a_reference(
    texts: Path, tmp_path: Path, name: str
) -> None:
    """The one rule: a command's name that is also a file or folder here is that file, a
    reference, as in sacreBLEU, with a note saying how to choose; `--command NAME` always runs
    the command, `./NAME` always names the file, without the note."""
    (tmp_path / name).write_bytes((texts / "ref.txt").read_bytes())
    (tmp_path / "a.txt").write_bytes((texts / "a.txt").read_bytes())
    ours, theirs, notes = both(tmp_path, [name, "-i", "a.txt", "-f", "text"])
    assert ours == theirs
    assert notes == (
        f"chrf: note: (./{name} is a file here, so it was read as a reference file, as "
        f"sacreBLEU reads it: `chrf --command {name} ...` runs the {name} command, "
        f"`chrf ./{name} ...` names the file without this note)\n"
    )
    ours, theirs, notes = both(tmp_path, [f"./{name}", "-i", "a.txt", "-f", "text"])
    assert (ours, notes) == (theirs, "")
    # Where no such file exists, or after --command, the name is the command.
    for folder, first in [(texts, [name]), (tmp_path, ["--command", name])]:
        if name == "components":
            done = ours_run([*first, "--input", "-"], folder, b"{}")
            assert (done.returncode, b'"invalid_input"' in done.stdout) == (2, True)
        elif name == "selftest":
            done = ours_run(first, folder)
            assert (done.returncode, done.stdout.startswith(b"selftest: ")) == (0, True)
        else:
            done = ours_run([*first, "--help"], folder)
            assert (done.returncode, f"usage: chrf {name}".encode() in done.stdout) == (0, True)


@pytest.mark.parametrize("kind", ["file", "folder"])
def test_an_error_after_a_command_name_read_as_a_file_says_how_to_choose(
    texts: Path, tmp_path: Path, kind: str
) -> None:
    """`chrf report REF -i SYS -o page.html` where ./report exists: scored against ./report,
    the command line fails, and its one line says why and what to write instead."""
    if kind == "file":
        (tmp_path / "report").write_text("one line\n")
    else:
        (tmp_path / "report").mkdir()
    (tmp_path / "a.txt").write_bytes((texts / "a.txt").read_bytes())
    hint = (
        f"(./report is a {kind} here, so it was read as a reference file, as sacreBLEU reads "
        "it: `chrf --command report ...` runs the report command, `chrf ./report ...` names "
        "the file without this note)"
    )
    for args, status in [
        (["report", "a.txt", "-i", "a.txt", "-o", "page.html"], 2),  # -o: no scoring option
        (["report", "-i", "a.txt"], 1),  # a line-count mismatch, or a folder
    ]:
        done = ours_run(args, tmp_path)
        lines = done.stderr.decode().splitlines()
        assert (done.returncode, len(lines)) == (status, 1), lines
        assert lines[0].startswith("chrf: error: ")
        assert lines[0].endswith(hint)
    done = ours_run(["--command", "report", "a.txt", "-i", "a.txt", "-o", "page.html"], tmp_path)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "page.html").exists()
    done = ours_run(["--command", "reports", "a.txt"], tmp_path)
    assert done.returncode == 2
    assert done.stderr.decode().startswith("chrf: error: argument --command: must be one of ")


@pytest.mark.parametrize(
    ("files", "args", "stdin"),
    [
        # Two systems on the first line of stdin, one on the second.
        ({"ref.txt": "a\nc\n"}, ["ref.txt"], b"a\tb\nc\n"),
        ({"ref.txt": "a\nc\n"}, ["ref.txt"], b"a\nc\td\n"),
        # -nr: a line with too few, or too many, tab-separated references.
        (
            {"refs.tsv": "a\tb\nc\n", "hyp.txt": "a\nc\n"},
            ["refs.tsv", "-nr", "2", "-i", "hyp.txt"],
            b"",
        ),
        (
            {"refs.tsv": "a\tb\nc\td\n", "hyp.txt": "a\nc\n"},
            ["refs.tsv", "-nr", "3", "-i", "hyp.txt"],
            b"",
        ),
    ],
)
def test_lines_with_the_wrong_number_of_fields_exit_17_as_in_sacrebleu(
    tmp_path: Path, files: dict[str, str], args: list[str], stdin: bytes
) -> None:
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    ours = ours_run(args, tmp_path, stdin)
    theirs = run([*SACREBLEU, *args, "-m", "chrf"], tmp_path, stdin)
    assert ours.returncode == theirs.returncode == 17, theirs.stderr
    assert ours.stdout == b""
    (line,) = ours.stderr.decode().splitlines()
    assert line.startswith("chrf: error: ")
    assert "tab-separated" in line
