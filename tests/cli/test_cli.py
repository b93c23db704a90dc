"""The command line against sacreBLEU's: same scores, strings, intervals and p-values."""

from __future__ import annotations

import json
import os
import pty
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from cli_run import run_cli

import chrf
from chrf._sacrebleu import SIGNATURE_VERSION

OURS = [sys.executable, "-m", "chrf.cli"]
SACREBLEU = [sys.executable, "-m", "sacrebleu"]


def run(
    command: list[str], cwd: Path, stdin: bytes | None = None, **env: str
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        command,
        cwd=cwd,
        input=None if stdin is None else stdin.decode(),
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, **env},
    )


def same_as_sacrebleu(cwd: Path, args: list[str], stdin: bytes | None = None, **env: str) -> str:
    ours = run_cli(args, cwd, stdin, **env)
    theirs = run([*SACREBLEU, *args], cwd, stdin, **env)
    assert ours.returncode == theirs.returncode == 0, ours.stderr + theirs.stderr
    expected = theirs.stdout.replace("version:2.6.0", f"version:{SIGNATURE_VERSION}")
    expected = expected.replace('"version": "2.6.0"', f'"version": "{SIGNATURE_VERSION}"')
    expected = expected.replace("|v:2.6.0", f"|v:{SIGNATURE_VERSION}")
    assert ours.stdout == expected
    return ours.stdout


@pytest.fixture(scope="module")
def en_de(wmt_dir: Path) -> Path:
    return wmt_dir / "generaltest2022.en-de"


@pytest.mark.parametrize(
    ("args", "stdin"),
    [
        (["ref.A.txt", "-i", "hyp.Online-B.txt"], None),
        (["ref.A.txt", "ref.B.txt", "-f", "text", "-cw", "2"], "hyp.OpenNMT.txt"),
        (["ref.A.txt", "-i", "hyp.Online-B.txt", "hyp.OpenNMT.txt", "-f", "latex"], None),
        (["ref.A.txt", "-i", "hyp.Online-B.txt", "-sl", "-f", "text", "-w", "3"], None),
        (["ref.A.txt", "-i", "hyp.Online-B.txt", "-b", "--breakdown"], None),
        (["ref.A.txt", "-i", "missing.txt"], None),
        (["ref.A.txt", "-i", "hyp.Online-B.txt", "-cc", "x"], None),
    ],
)
def test_the_program_prints_what_main_prints(
    en_de: Path, args: list[str], stdin: str | None
) -> None:
    """The program (`python -m chrf.cli`, the console script's code) prints, in each output
    format, the bytes that `chrf.cli.main` prints in this process (`run_cli`), where the other
    tests of what the command line prints run it, and exits with the same status."""
    data = None if stdin is None else (en_de / stdin).read_bytes()
    process = subprocess.run(
        [*OURS, *args], cwd=en_de, input=data, capture_output=True, check=False
    )
    in_process = run_cli(args, en_de, data, text=False)
    assert (process.returncode, process.stdout, process.stderr) == (
        in_process.returncode,
        in_process.stdout,
        in_process.stderr,
    )


@pytest.mark.parametrize(
    "extra",
    [
        [],
        ["-f", "text"],
        ["-f", "text", "-w", "4", "-cw", "2"],
        ["-b", "-w", "6", "--chrf-eps-smoothing"],
        ["-f", "text", "-sh", "--chrf-lowercase", "--chrf-whitespace"],
        ["-f", "text", "-cc", "4", "-cw", "3", "--chrf-beta", "1"],
        ["--confidence", "-w", "3"],
        ["--confidence", "-f", "text", "-cin", "200", "-cw", "2"],
    ],
)
def test_one_system_prints_what_sacrebleu_prints(en_de: Path, extra: list[str]) -> None:
    same_as_sacrebleu(en_de, ["ref.A.txt", "-i", "hyp.Online-B.txt", "-m", "chrf", *extra])


def test_the_seed_comes_from_sacrebleu_seed(en_de: Path) -> None:
    args = ["ref.A.txt", "-i", "hyp.OpenNMT.txt", "-m", "chrf", "--confidence", "-w", "4"]
    seven = same_as_sacrebleu(en_de, args, SACREBLEU_SEED="7")
    assert '"seed": "7"' in seven
    assert seven != same_as_sacrebleu(en_de, args)


def test_several_references_and_stdin(en_de: Path) -> None:
    same_as_sacrebleu(
        en_de, ["ref.A.txt", "ref.B.txt", "-i", "hyp.OpenNMT.txt", "-m", "chrf", "-f", "text"]
    )
    hyp = (en_de / "hyp.OpenNMT.txt").read_bytes()
    same_as_sacrebleu(en_de, ["ref.A.txt", "-m", "chrf", "-f", "text", "-cw", "2"], stdin=hyp)


def test_tab_separated_references(en_de: Path, tmp_path: Path) -> None:
    refs = [(en_de / f"ref.{k}.txt").read_text("utf-8").splitlines() for k in "AB"]
    joined = tmp_path / "refs.tsv"
    joined.write_text("\n".join(f"{a}\t{b}" for a, b in zip(*refs, strict=True)) + "\n", "utf-8")
    args = [
        str(joined),
        "-nr",
        "2",
        "-i",
        str(en_de / "hyp.Online-B.txt"),
        "-m",
        "chrf",
        "-f",
        "text",
    ]
    same_as_sacrebleu(en_de, args)


def test_sentence_level_prints_what_sacrebleu_prints(en_de: Path, tmp_path: Path) -> None:
    lines = (en_de / "hyp.JDExploreAcademy.txt").read_text("utf-8").splitlines()[:300]
    refs = (en_de / "ref.A.txt").read_text("utf-8").splitlines()[:300]
    (tmp_path / "h.txt").write_text("\n".join(lines) + "\n", "utf-8")
    (tmp_path / "r.txt").write_text("\n".join(refs) + "\n", "utf-8")
    out = same_as_sacrebleu(
        tmp_path, ["r.txt", "-i", "h.txt", "-m", "chrf", "--sentence-level", "-w", "5"]
    )
    assert len(out.splitlines()) == len(lines)


def test_many_systems_json_matches_sacrebleu(en_de: Path) -> None:
    args = ["ref.A.txt", "-i", "hyp.Online-B.txt", "hyp.OpenNMT.txt", "-m", "chrf", "-w", "3"]
    same_as_sacrebleu(en_de, args)


def system_rows(text: str, names: list[str]) -> list[tuple[float, ...]]:
    """The numbers of each system's row: score, mean and CI, then p, as printed (sacreBLEU puts
    the p-value on the line after the system's name)."""
    lines = text.splitlines()
    rows = []
    for name in names:
        at = next(i for i, line in enumerate(lines) if name in line)
        row = lines[at]
        following = lines[at + 1] if at + 1 < len(lines) else ""
        if "(p =" in following and not any(other in following for other in names):
            row += following
        rows.append(tuple(float(x) for x in re.findall(r"\d+\.\d+", row)))
    return rows


@pytest.mark.parametrize("test", [["--paired-bs"], ["--paired-ar", "-parn", "3000"]])
def test_paired_tests_give_sacrebleus_numbers(en_de: Path, test: list[str]) -> None:
    systems = ["hyp.Online-B.txt", "hyp.JDExploreAcademy.txt", "hyp.OpenNMT.txt"]
    args = ["ref.A.txt", "-i", *systems, "-m", "chrf", "-f", "text", "-w", "4", *test]
    ours = run_cli(args, en_de)
    theirs = run([*SACREBLEU, *args], en_de)
    assert ours.returncode == 0, ours.stderr
    assert system_rows(ours.stdout, systems) == system_rows(theirs.stdout, systems)
    signature = re.search(r"nrefs:\S+", theirs.stdout)
    assert signature is not None
    assert signature.group(0).replace("2.6.0", SIGNATURE_VERSION) in ours.stdout


def test_paired_json_is_valid_and_exact(en_de: Path) -> None:
    args = [
        "ref.A.txt",
        "-i",
        "hyp.Online-B.txt",
        "hyp.OpenNMT.txt",
        "-m",
        "chrf",
        "--paired-bs",
        "-pbsn",
        "300",
    ]
    rows = json.loads(run_cli(args, en_de).stdout)
    assert rows[0]["system"] == "Baseline: hyp.Online-B.txt"
    assert rows[0]["chrF2"]["p_value"] is None
    assert 0 < rows[1]["chrF2"]["p_value"] <= 1
    hyps = (en_de / "hyp.OpenNMT.txt").read_text("utf-8").splitlines()
    refs = (en_de / "ref.A.txt").read_text("utf-8").splitlines()
    assert rows[1]["chrF2"]["score"] == chrf.score(hyps, refs)


def test_line_count_mismatch_names_files_and_counts(en_de: Path, tmp_path: Path) -> None:
    short = tmp_path / "short.txt"
    short.write_text("a line\nanother\n", "utf-8")
    done = run_cli(["ref.A.txt", "-i", str(short)], en_de)
    assert done.returncode == 1
    lines = len((en_de / "ref.A.txt").read_text("utf-8").splitlines())
    assert f"{short} has 2 lines, ref.A.txt has {lines} lines" in done.stderr
    paired = run_cli(["ref.A.txt", "-i", "hyp.Online-B.txt", str(short), "--paired-bs"], en_de)
    assert paired.returncode == 1
    assert f"{short} has 2 lines, ref.A.txt has {lines} lines" in paired.stderr


def test_breakdown_shows_the_exact_components(en_de: Path) -> None:
    done = run_cli(
        ["ref.A.txt", "-i", "hyp.Online-B.txt", "-cw", "2", "-f", "text", "--breakdown"], en_de
    )
    hyps = (en_de / "hyp.Online-B.txt").read_text("utf-8").splitlines()
    refs = (en_de / "ref.A.txt").read_text("utf-8").splitlines()
    c = chrf.components(hyps, refs, word_order=2)
    for order in c.orders:
        counts = (order.hypothesis_ngrams, order.reference_ngrams, order.matching_ngrams)
        pattern = r"\s+".join([f"{order.type} {order.n}", *map(str, counts)]) + r"\s"
        assert re.search(pattern, done.stdout)
    assert (
        f"score: {c.score} ({c.score_fraction.numerator}/{c.score_fraction.denominator})"
        in done.stdout
    )
    as_json = json.loads(
        run_cli(["ref.A.txt", "-i", "hyp.Online-B.txt", "--breakdown"], en_de).stdout
    )
    assert as_json["breakdown"] == chrf.components(hyps, refs).to_dict()


def test_breakdown_with_a_confidence_interval_from_stdin(en_de: Path) -> None:
    hyp = (en_de / "hyp.Online-B.txt").read_bytes()
    done = run_cli(
        ["ref.A.txt", "--confidence", "-cin", "50", "--breakdown", "-f", "text"], en_de, hyp
    )
    assert done.returncode == 0, done.stderr
    expected = json.loads((en_de / "expected.json").read_text("utf-8"))
    score = expected["systems"]["Online-B"]["scores_by_reference"]["ref.A.txt"]["chrF"]["score"]
    assert re.search(rf"= {score:.1f} \(μ = \d+\.\d ± \d+\.\d\)", done.stdout)
    assert f"score: {score:.6f} (" in done.stdout


def test_chunks_do_not_change_the_score(en_de: Path) -> None:
    args = ["ref.A.txt", "ref.B.txt", "-i", "hyp.Online-B.txt", "-cw", "2", "-b", "-w", "12"]
    whole = run_cli(args, en_de).stdout
    assert run_cli(args, en_de, CHRF_CLI_CHUNK="7").stdout == whole


PEAK_MEMORY = """
import resource, subprocess, sys
subprocess.run(sys.argv[1:], check=True, stdout=subprocess.DEVNULL)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
"""


def test_plain_scoring_streams_large_files(tmp_path: Path) -> None:
    line = "the quick brown fox jumps over the lazy dog near the river bank " * 2
    hyp, ref = tmp_path / "hyp.txt", tmp_path / "ref.txt"
    with hyp.open("w") as h, ref.open("w") as r:
        for i in range(400_000):
            h.write(f"{i} {line}\n")
            r.write(f"{line} {i}\n")
    file_mb = hyp.stat().st_size / 2**20
    command = [sys.executable, "-c", PEAK_MEMORY, *OURS, str(ref), "-i", str(hyp), "-b"]
    peak_mb = int(run(command, tmp_path).stdout) / 1024  # ru_maxrss is in KiB on Linux
    # Loading both files would take several times their 100+ MB; streaming stays far below
    # the size of one of them (the interpreter alone is about 20 MB).
    assert file_mb > 50
    assert peak_mb < file_mb, (peak_mb, file_mb)


def test_bad_arguments_are_errors_not_tracebacks(en_de: Path) -> None:
    for args, status, message in [
        (["ref.A.txt", "-i", "missing.txt"], 1, "cannot read missing.txt"),
        (["ref.A.txt", "-i", "hyp.Online-B.txt", "--chrf-beta", "x"], 2, "--beta: must be a"),
        (["ref.A.txt", "-i", "hyp.Online-B.txt", "-cc", "0"], 2, "must not both be 0"),
        (
            ["ref.A.txt", "-i", "hyp.Online-B.txt", "--paired-bs"],
            1,
            "paired tests need several systems",
        ),
        (["-i", "hyp.Online-B.txt"], 1, "at least one reference"),
    ]:
        done = run_cli(args, en_de)
        assert done.returncode == status
        assert message in done.stderr
        assert "Traceback" not in done.stderr


def test_a_progress_bar_is_drawn_only_on_a_terminal(en_de: Path) -> None:
    args = [*OURS, "ref.A.txt", "-i", "hyp.Online-B.txt", "hyp.OpenNMT.txt", "--paired-bs"]
    main, terminal = pty.openpty()
    with subprocess.Popen(args, cwd=en_de, stdout=subprocess.PIPE, stderr=terminal) as process:
        os.close(terminal)
        drawn = b""
        while True:
            try:
                piece = os.read(main, 4096)
            except OSError:  # the terminal closed
                break
            if not piece:
                break
            drawn += piece
        process.wait()
    os.close(main)
    assert b"paired bootstrap [" in drawn
    assert b"3000/3000" in drawn
    piped = run_cli(args[len(OURS) :], en_de)  # the same check of stderr, not a terminal
    assert piped.returncode == 0
    assert "paired bootstrap" not in piped.stderr


# Clean errors: one line on stderr, a non-zero exit, never a traceback ----------------------


@pytest.fixture
def small(tmp_path: Path) -> Path:
    (tmp_path / "ref.txt").write_text("the cat sat on the mat\na dog barked\n", "utf-8")
    (tmp_path / "hyp.txt").write_text("the cat sat on a mat\nthe dog barked\n", "utf-8")
    (tmp_path / "hyp2.txt").write_text("a cat sat on the mat\ndogs barked\n", "utf-8")
    return tmp_path


def assert_one_line_error(done: subprocess.CompletedProcess[str], status: int, part: str) -> None:
    assert done.returncode == status, done.stderr
    assert done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("chrf: error: "), lines[0]
    assert part in lines[0], lines[0]


@pytest.mark.parametrize(
    ("args", "env", "status", "part"),
    [
        # Every bad option value is argparse's error naming the option, exit status 2.
        (["--beta", "1/0"], {}, 2, "argument --chrf-beta/--beta: must be p/q"),
        (["--beta", "9" * 5000], {}, 2, "--beta: must be a ratio of integers of at most 4096"),
        (["--beta", "9" * 4000], {}, 2, "--beta: must be a ratio of integers of at most 4096"),
        (["--beta", "1/" + "9" * 5000], {}, 2, "argument --chrf-beta/--beta: must be p/q"),
        (["--chrf-beta", "nan"], {}, 2, "--beta: must be a finite number, not 'nan'"),
        (["--chrf-beta", "inf"], {}, 2, "--beta: must be a finite number, not 'inf'"),
        (["--chrf-beta", "-1"], {}, 2, "--beta: must not be negative"),
        (["--chrf-beta", "1e400"], {}, 2, "beyond the largest float"),
        (["--chrf-beta", "1e-400"], {}, 2, "'1e-400' is too small for a float"),
        (["--chrf-beta", "x"], {}, 2, "--beta: must be a number"),
        (["-cc", "-1"], {}, 2, "argument --chrf-char-order/--char-order/-cc: must be an"),
        (["-cc", "1000000"], {}, 2, "-cc: must be an integer from 0 to 65536"),
        (["-cc", "9" * 4000], {}, 2, "-cc: must be an integer from 0 to 65536"),
        (["-cc", "9" * 5000], {}, 2, "argument --chrf-char-order"),
        (["-cw", "65537"], {}, 2, "-cw: must be an integer from 0 to 65536"),
        (["-cc", "0", "-cw", "0"], {}, 2, "--chrf-char-order and --chrf-word-order must not"),
        (["-nr", "99999999999"], {}, 2, "argument --num-refs/-nr: must be an integer from 1"),
        (["-nr", "10001"], {}, 2, "argument --num-refs/-nr: must be an integer from 1 to 10000"),
        (["-w", "99999999999"], {}, 2, "argument --width/-w: must be an integer from 0 to 1074"),
        (["-w", "1075"], {}, 2, "argument --width/-w"),
        (["-ci", "-cin", "9" * 30], {}, 2, "argument --confidence-n/-cin: must be an integer from"),
        (["-i", "hyp.txt", "hyp2.txt", "-pbs", "-pbsn", "9" * 30], {}, 2, "--paired-bs-n"),
        (["-e", "bogus"], {}, 1, "bogus"),
        (["-e", "rot13"], {}, 1, "rot13"),
        (["-w", "-3"], {}, 2, "argument --width/-w"),
        (["-nr", "-1"], {}, 2, "argument --num-refs/-nr"),
        (["-nr", "0"], {}, 2, "argument --num-refs/-nr"),
        (["-i", "hyp.txt", "hyp2.txt", "--paired-bs", "-pbsn", "0"], {}, 2, "--paired-bs-n"),
        (["-i", "hyp.txt", "hyp2.txt", "--paired-ar", "-parn", "0"], {}, 2, "--paired-ar-n"),
        (["--confidence"], {"SACREBLEU_SEED": "abc"}, 1, "SACREBLEU_SEED"),
        (["--confidence"], {"SACREBLEU_SEED": "-1"}, 1, "SACREBLEU_SEED"),
        (["--confidence"], {"SACREBLEU_SEED": "9" * 5000}, 1, "SACREBLEU_SEED"),
        (
            ["-i", "hyp.txt", "hyp2.txt", "--paired-ar"],
            {"SACREBLEU_SEED": "x"},
            1,
            "SACREBLEU_SEED",
        ),
        ([], {"CHRF_CLI_CHUNK": "abc"}, 1, "CHRF_CLI_CHUNK"),
        ([], {"CHRF_CLI_CHUNK": "0"}, 1, "CHRF_CLI_CHUNK"),
        (["--no-such-option"], {}, 2, "unrecognized arguments"),
        (["-i", "missing.txt"], {}, 1, "cannot read missing.txt"),
        (["-i", "."], {}, 1, "cannot read ."),
    ],
)
def test_bad_arguments_get_one_line(
    small: Path, args: list[str], env: dict[str, str], status: int, part: str
) -> None:
    args = args if "-i" in args else [*args, "-i", "hyp.txt"]
    assert_one_line_error(run_cli(["ref.txt", *args], small, **env), status, part)


def test_bad_input_files_get_one_line(small: Path) -> None:
    (small / "latin1.txt").write_bytes(b"caf\xe9\nok\n")
    done = run_cli(["ref.txt", "-i", "latin1.txt"], small)
    assert_one_line_error(done, 1, "latin1.txt is not valid utf-8")
    done = run_cli(["ref.txt"], small, b"caf\xe9\nok\n")
    assert_one_line_error(done, 1, "standard input is not valid utf-8")
    (small / "new\nline.txt").write_text("a\nb\nc\n", "utf-8")
    done = run_cli(["ref.txt", "-i", "hyp.txt", "new\nline.txt", "--paired-bs"], small)
    assert_one_line_error(done, 1, "new line.txt has 3 lines")


def test_a_closed_stdin_is_an_error(small: Path) -> None:
    done = subprocess.run(
        ["sh", "-c", 'exec "$@" <&-', "sh", *OURS, "ref.txt"],
        cwd=small,
        capture_output=True,
        text=True,
        check=False,
    )
    assert_one_line_error(done, 1, "standard input is closed")


def test_a_closed_stdout_is_an_error(small: Path) -> None:
    for args in (["ref.txt", "-i", "hyp.txt"], ["selftest"], ["--version"]):
        done = subprocess.run(
            ["sh", "-c", 'exec "$@" >&-', "sh", *OURS, *args],
            cwd=small,
            capture_output=True,
            text=True,
            check=False,
        )
        assert done.returncode == 1
        assert done.stderr == "chrf: error: standard output is closed\n"


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize(
    "args",
    [
        ["ref.txt", "-i", "hyp.txt"],
        ["ref.txt", "-i", "hyp.txt", "-sl"],
        ["components", "--input", "request.json"],
        ["selftest"],
        ["--help"],
    ],
)
def test_a_full_disk_is_an_error(small: Path, args: list[str]) -> None:
    (small / "request.json").write_text('{"hypotheses": ["aa"], "references": ["ab"]}')
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [*OURS, *args], cwd=small, stdout=full, stderr=subprocess.PIPE, text=True, check=False
        )
    assert done.returncode == 1
    assert done.stderr == (
        "chrf: error: cannot write to standard output: No space left on device\n"
    )


def test_python_m_chrf_runs_the_command_line(small: Path) -> None:
    args = ["ref.txt", "-i", "hyp.txt", "-b", "-w", "4"]
    hyps, refs = (
        ["the cat sat on a mat", "the dog barked"],
        ["the cat sat on the mat", "a dog barked"],
    )
    expected = f"{chrf.score(hyps, refs):.4f}\n"
    for module in ("chrf", "chrf.cli"):
        done = run([sys.executable, "-m", module, *args], small)
        assert (done.returncode, done.stdout, done.stderr) == (0, expected, "")


def test_a_pipe_closed_before_any_output_ends_quietly(small: Path) -> None:
    with subprocess.Popen(
        [*OURS, "ref.txt", "-i", "hyp.txt", "-sl"],
        cwd=small,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    ) as process:
        assert process.stdout is not None
        assert process.stderr is not None
        process.stdout.close()  # before the command writes anything
        error = process.stderr.read()
        status = process.wait()
    # As sacreBLEU (which restores SIGPIPE's default action), `yes` or `seq`: SIGPIPE ends it.
    assert status == -signal.SIGPIPE
    assert error == ""


@pytest.mark.parametrize("python_reader", [False, True])
def test_head_ends_the_output_quietly_with_sacrebleus_status(
    tmp_path: Path, python_reader: bool
) -> None:
    """`chrf ... | head -1`: one line, nothing on stderr, and the status sacreBLEU and every
    other command have there (141 in a shell: killed by SIGPIPE), with the files read in the
    core or by Python's reader thread (--chrf-lowercase)."""
    lines = [f"line {i} of a long file, with words in it" for i in range(30_000)]
    (tmp_path / "ref.txt").write_text("\n".join(lines) + "\n", "utf-8")
    (tmp_path / "hyp.txt").write_text("\n".join(lines[::-1]) + "\n", "utf-8")
    args = ["ref.txt", "-i", "hyp.txt", "-sl", *(["--chrf-lowercase"] if python_reader else [])]
    script = 'set -o pipefail; "$@" | head -1; echo "${PIPESTATUS[@]}"'
    done = {
        name: subprocess.run(
            ["bash", "-c", script, "bash", *command],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            check=False,
        )
        for name, command in [
            ("ours", [*OURS, *args]),
            ("sacrebleu", [*SACREBLEU, *args, "-m", "chrf"]),
        ]
    }
    ours = done["ours"]
    assert ours.stderr == ""
    first, statuses = ours.stdout.splitlines()
    assert first.startswith("chrF2|nrefs:1|")
    assert statuses == "141 0"
    assert done["sacrebleu"].stdout.splitlines()[1] == statuses


def test_an_interrupt_exits_130_after_whole_lines(tmp_path: Path) -> None:
    lines = [f"line {i} of a long file, with words in it" for i in range(300_000)]
    (tmp_path / "ref.txt").write_text("\n".join(lines) + "\n", "utf-8")
    (tmp_path / "hyp.txt").write_text("\n".join(lines[::-1]) + "\n", "utf-8")
    with subprocess.Popen(
        [*OURS, "ref.txt", "-i", "hyp.txt", "-sl", "-w", "4"],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        bufsize=0,  # no read-ahead: communicate() below reads the file descriptor itself
    ) as process:
        assert process.stdout is not None
        first = process.stdout.read(100_000)  # scoring has started, and the pipe fills up
        process.send_signal(signal.SIGINT)
        rest, error = process.communicate(timeout=60)
    assert process.returncode == 130
    assert error.decode() == "chrf: interrupted\n"
    out = (first + rest).decode()
    assert out.endswith("\n")
    assert 0 < len(out.splitlines()) < len(lines)
    for line in out.splitlines():
        assert re.fullmatch(
            r"chrF2\|nrefs:1\|case:mixed\|eff:yes\|nc:6\|nw:0\|space:no\|"
            r"version:\S+ = \d+\.\d{4}",
            line,
        ), line


def contract_cli(cwd: Path, args: list[str], stdin: bytes = b"") -> tuple[int, object, int]:
    """Exit status, the JSON printed, and the peak memory (MiB) of `chrf components`."""
    command = [sys.executable, "-c", PEAK_MEMORY_OF_ONE, *OURS, "components", *args]
    done = subprocess.run(command, cwd=cwd, input=stdin, capture_output=True, check=False)
    status, peak_kib = map(int, done.stderr.decode().split()[-2:])
    return status, json.loads(done.stdout), peak_kib // 1024


PEAK_MEMORY_OF_ONE = """
import resource, subprocess, sys
done = subprocess.run(sys.argv[1:])
print(done.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, file=sys.stderr)
"""


def test_a_huge_contract_file_is_refused_unread(tmp_path: Path) -> None:
    huge = tmp_path / "huge.json"
    with huge.open("wb") as handle:
        handle.truncate(2**30)  # sparse: a 1 GiB file that takes no disk space
    status, response, peak_mib = contract_cli(tmp_path, ["--input", str(huge)])
    assert status == 2
    assert response == {
        "error": {
            "code": "invalid_input",
            "message": "input must be at most 16777216 bytes (16 MiB), the most a request may take",
        }
    }
    assert peak_mib < 200
    status, response, _ = contract_cli(tmp_path, ["--input", "-"], b" " * (2**24 + 1))
    assert status == 2
    assert "16 MiB" in response["error"]["message"]  # type: ignore[index]


def test_a_deeply_nested_contract_request_is_invalid_input(tmp_path: Path) -> None:
    status, response, _ = contract_cli(tmp_path, ["--input", "-"], b"[" * 100_000)
    assert status == 2
    assert response["error"]["code"] == "invalid_input"  # type: ignore[index]


def test_beta_is_read_as_written_and_zero_is_passed_on() -> None:
    """--chrf-beta: integers and p/q exactly, decimals as the nearest float; 0 (chrF0) is
    handed to Settings, which decides, as are a negative zero's sign-free value and a decimal
    with an exponent that a float holds."""
    from fractions import Fraction

    from chrf._options import read_beta as beta

    assert (beta("3/2"), beta("2"), beta("0.5"), beta("1e-300")) == (Fraction(3, 2), 2, 0.5, 1e-300)
    assert type(beta("2")) is int
    assert (beta("0"), beta("0/5"), beta("0e7")) == (0, 0, 0.0)
    assert str(beta("-0.0")) == "0.0"
