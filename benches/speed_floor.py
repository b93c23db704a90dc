"""The speed targets of issue 14, measured in one run against sacreBLEU, fastchrf and the floor.

    python3 benches/speed_floor.py            # about 3 minutes on an idle 2-core machine
    python3 benches/speed_floor.py --full     # 4096 x 4096 against fastchrf too (~10 min more)

1. Per call: one short sentence pair through ``CHRF().sentence_score`` and ``sentence_scores``,
   against sacreBLEU's ``CHRF().sentence_score`` and ``fastchrf.pairwise_chrf``; and the
   instructions of one call of each (callgrind), which do not depend on the machine's load.
2. ``import chrf`` over a bare interpreter (hyperfine when installed, else repeated runs).
3. ``pairwise`` on real WMT sentences against fastchrf, and its peak memory over its result
   (resident set of a child process, so nothing else of this run counts).
4. Instructions per character (callgrind) of chrf-core's corpus statistics against the floor of
   ``benches/floor`` ("decode, give dense ids, hash each n-gram once"; for chrF++ the same with
   the words split, given dense ids and their n-grams hashed) and against the decode pass (decode
   the UTF-8 and drop the whitespace, nothing else), on short segments and on the same text as
   one long segment; the CPU time per character of the decode pass, chrF and chrF++ in the
   harness (one thread, reading excluded); and how one segment's cost grows as it doubles in
   length (en-de, and en-zh's thousands of distinct characters), in instructions and in
   ``chrf.score``'s wall time per character.
5. The command line on 1M lines: plain scoring and ``--sentence-level``, time and peak memory.

Timings are the best of several runs; every comparison first checks that the numbers agree.
Callgrind counts do not depend on the machine's load, which is why the core is measured so.
Callgrind counts each byte a ``rep stosb`` or ``rep movsb`` moves as one instruction, and glibc
takes those for every memset and memcpy of more than a few KiB: zeroing a long segment's
buffers then counted 14 (en-de) to 30 (en-zh) instructions a character that the processor does
in a few dozen cycles. ``CALLGRIND_ENV`` raises glibc's thresholds for them, so that memset and
memcpy run their vector loops, which callgrind counts as the processor runs them.
"""

from __future__ import annotations

import argparse
import itertools
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import timeit
from pathlib import Path

from wmt_data import BUNDLED, full_wmt, full_wmt_or_exit

ROOT = Path(__file__).resolve().parent.parent
# Its figures are the README's, for whole test sets: main() stops at once without them.
WMT = full_wmt() or BUNDLED
EN_DE = WMT / "generaltest2022.en-de"
HYP, REF = "The cat sat on the mat.", "The cat sat on a mat."
CALLGRIND = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"]
NO_REP_STRINGS = "glibc.cpu.x86_rep_stosb_threshold=0x7fffffffffffffff:" + (
    "glibc.cpu.x86_rep_movsb_threshold=0x7fffffffffffffff"
)
CALLGRIND_ENV = {**os.environ, "GLIBC_TUNABLES": NO_REP_STRINGS, "OPENBLAS_NUM_THREADS": "1"}


def lines(path: Path) -> list[str]:
    text = path.read_text("utf-8")
    return (text[:-1] if text.endswith("\n") else text).split("\n")


def per_call(number: int = 20000) -> list[str]:
    import fastchrf
    from sacrebleu.metrics import CHRF as SacreCHRF

    import chrf

    ours, theirs = chrf.CHRF(), SacreCHRF()
    assert ours.sentence_score(HYP, [REF]).score == theirs.sentence_score(HYP, [REF]).score
    assert (
        chrf.sentence_scores([HYP], [REF])[0] == fastchrf.pairwise_chrf([[HYP]], [[REF]])[0][0][0]
    )

    def best(work: object) -> float:
        return min(timeit.repeat(work, number=number, repeat=7)) / number  # type: ignore[arg-type]

    calls = {
        "chrf CHRF().sentence_score": best(lambda: ours.sentence_score(HYP, [REF])),
        "chrf sentence_scores([h], [r])": best(lambda: chrf.sentence_scores([HYP], [REF])),
        "sacreBLEU CHRF().sentence_score": best(lambda: theirs.sentence_score(HYP, [REF])),
        "fastchrf pairwise_chrf([[h]], [[r]])": best(
            lambda: fastchrf.pairwise_chrf([[HYP]], [[REF]])
        ),
    }
    slowest_ours = max(calls["chrf CHRF().sentence_score"], calls["chrf sentence_scores([h], [r])"])
    rows = [f"| per call: {name} | {t * 1e6:.2f} µs |" for name, t in calls.items()]
    sacre = calls["sacreBLEU CHRF().sentence_score"] / slowest_ours
    fast = calls["fastchrf pairwise_chrf([[h]], [[r]])"] / slowest_ours
    rows.append(
        f"| per call: ratio (slower chrf path) | {sacre:.0f}x sacreBLEU, {fast:.0f}x fastchrf |"
    )
    return rows


CALLS_CHILD = """
import sys
import chrf
hyp, ref, calls, path = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
def run():  # in a function, as timeit runs its statement: module-level names cost lookups
    if path == "CHRF().sentence_score":
        score, refs = chrf.CHRF().sentence_score, [ref]
        for _ in range(calls):
            score(hyp, refs)
    else:
        scores, hyps, refs = chrf.sentence_scores, [hyp], [ref]
        for _ in range(calls):
            scores(hyps, refs)
run()
"""


def per_call_instructions() -> list[str]:
    """Instructions of one call (callgrind): 11,000 calls less 1,000, over 10,000."""
    if not shutil.which("valgrind"):
        return ["| per call: instructions | valgrind is not installed |"]

    def count(calls: int, path: str) -> int:
        done = subprocess.run(
            [*CALLGRIND, sys.executable, "-c", CALLS_CHILD, HYP, REF, str(calls), path],
            capture_output=True,
            text=True,
            check=True,
            env=CALLGRIND_ENV,
        )
        return int(re.search(r"Collected : (\d+)", done.stderr).group(1))  # type: ignore[union-attr]

    return [
        f"| per call: chrf {path}, instructions (callgrind) | "
        f"{(count(11_000, path) - count(1_000, path)) / 10_000:,.0f} |"
        for path in ("CHRF().sentence_score", "sentence_scores([h], [r])")
    ]


def import_time() -> list[str]:
    python = sys.executable
    if shutil.which("hyperfine"):
        import json

        with tempfile.NamedTemporaryFile(suffix=".json") as export:
            subprocess.run(
                [
                    "hyperfine",
                    "-N",
                    "-w",
                    "5",
                    "-r",
                    "40",
                    "--style",
                    "none",
                    "--export-json",
                    export.name,
                    f"{python} -c pass",
                    f"{python} -c 'import chrf'",
                ],
                capture_output=True,
                check=True,
            )
            results = json.loads(Path(export.name).read_text())["results"]
        wall = [r["min"] * 1e3 for r in results]
        cpu = [(r["user"] + r["system"]) * 1e3 for r in results]
    else:
        wall, cpu = [], []
        for code in ("pass", "import chrf"):
            best, spent = float("inf"), []
            for _ in range(30):
                before = resource.getrusage(resource.RUSAGE_CHILDREN)
                start = timeit.default_timer()
                subprocess.run([python, "-c", code], check=True)
                best = min(best, timeit.default_timer() - start)
                after = resource.getrusage(resource.RUSAGE_CHILDREN)
                spent.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
            wall.append(best * 1e3)
            cpu.append(sorted(spent)[len(spent) // 2] * 1e3)
    own = [
        int(m)
        for _ in range(15)
        for m in re.findall(
            r"\|\s+(\d+) \| chrf$",
            subprocess.run(
                [python, "-X", "importtime", "-c", "import chrf"], capture_output=True, text=True
            ).stderr,
            flags=re.M,
        )
    ]
    return [
        f"| import chrf: wall, best of runs | {wall[1]:.0f} ms against {wall[0]:.0f} ms bare: "
        f"+{wall[1] - wall[0]:.0f} ms |",
        f"| import chrf: CPU (user + sys) | +{cpu[1] - cpu[0]:.0f} ms over a bare interpreter |",
        f"| import chrf: -X importtime, cumulative, best of 15 | {min(own) / 1e3:.1f} ms |",
    ]


PEAK_CHILD = """
import re, sys, time
import chrf
texts = sys.stdin.read().split("\\n")
chrf.pairwise(texts[:4], texts[:4])
def kib(field):
    return int(re.search(field + r":\\s+(\\d+)", open("/proc/self/status").read()).group(1))
with open("/proc/self/clear_refs", "w") as handle:
    handle.write("5")  # resets the peak (VmHWM) to the present resident set
before = kib("VmRSS")
start = time.perf_counter()
matrix = chrf.pairwise(texts, texts)
took = time.perf_counter() - start
print(took, (kib("VmHWM") - before) * 1024 / matrix.nbytes, matrix.nbytes)
"""


def real_sentences(count: int) -> list[str]:
    files = ["hyp.Online-B.txt", "ref.A.txt", "hyp.OpenNMT.txt", "ref.B.txt"]
    texts = [t for name in files for t in lines(EN_DE / name) if t and "\n" not in t]
    return texts[:count]


def pairwise(sizes: list[int], fastchrf_size: int) -> list[str]:
    import fastchrf
    import numpy as np

    import chrf

    rows = []
    sample = real_sentences(fastchrf_size)
    start = timeit.default_timer()
    ours = chrf.pairwise(sample, sample)
    took_ours = timeit.default_timer() - start
    start = timeit.default_timer()
    theirs = fastchrf.pairwise_chrf([sample], [sample])[0]
    took_theirs = timeit.default_timer() - start
    assert np.array_equal(ours, np.asarray(theirs))
    rows.append(
        f"| pairwise {fastchrf_size}x{fastchrf_size}, real en-de sentences | "
        f"{took_ours:.2f} s against {took_theirs:.2f} s (fastchrf): "
        f"{took_theirs / took_ours:.0f}x |"
    )
    for size in sizes:
        texts = real_sentences(size)
        done = subprocess.run(
            [sys.executable, "-c", PEAK_CHILD],
            input="\n".join(texts),
            capture_output=True,
            text=True,
            check=True,
        ).stdout.split()
        took, peak, nbytes = float(done[0]), float(done[1]), int(done[2])
        rows.append(
            f"| pairwise {size}x{size}: time; peak memory over the result "
            f"({nbytes / 2**20:.0f} MiB) | {took:.2f} s; {peak:.2f}x |"
        )
    return rows


FLOOR = ROOT / "target" / "release" / "chrf-floor"


def instructions(mode: str, hyp: str, ref: str, *extra: str) -> tuple[int, int]:
    """Callgrind's instructions for one run of the floor harness, and the characters it read."""
    done = subprocess.run(
        [*CALLGRIND, FLOOR, mode, hyp, ref, *extra],
        capture_output=True,
        text=True,
        check=True,
        env=CALLGRIND_ENV,
    )
    counted = int(re.search(r"Collected : (\d+)", done.stderr).group(1))  # type: ignore[union-attr]
    chars = int(re.search(r"(\d+) characters", done.stdout).group(1))  # type: ignore[union-attr]
    return counted, chars


def per_char(mode: str, hyp: str, ref: str, *extra: str) -> float:
    """Instructions per character of a mode, reading the files subtracted."""
    base, chars = instructions("read", hyp, ref, *extra)
    return (instructions(mode, hyp, ref, *extra)[0] - base) / chars


def floor() -> list[str]:
    if not shutil.which("valgrind"):
        return ["| floor | valgrind is not installed |"]
    subprocess.run(["cargo", "build", "-q", "--release", "-p", "chrf-floor"], cwd=ROOT, check=True)
    hyp, ref = str(EN_DE / "hyp.Online-B.txt"), str(EN_DE / "ref.A.txt")
    rows = []
    for layout, extra in (("2037 segments", ()), ("one segment", ("--one-segment",))):
        modes = ("decode", "floor", "chrf", "floor++", "chrf++")
        cost = {m: per_char(m, hyp, ref, *extra) for m in modes}
        rows.append(
            f"| instructions per character, en-de Online-B vs A, {layout} | chrF "
            f"{cost['chrf']:.1f} against floor {cost['floor']:.1f} "
            f"({cost['chrf'] / cost['floor']:.3f}x) and the decode pass {cost['decode']:.1f} "
            f"({cost['chrf'] / cost['decode']:.2f}x); chrF++ {cost['chrf++']:.1f} "
            f"against floor++ {cost['floor++']:.1f} "
            f"({cost['chrf++'] / cost['floor++']:.3f}x) and the decode pass "
            f"({cost['chrf++'] / cost['decode']:.2f}x) |"
        )
    rows.append(decode_cpu_time(hyp, ref))
    return rows + growth()


def decode_cpu_time(hyp: str, ref: str) -> str:
    """CPU time a character of the decode pass and of chrF and chrF++ in the floor harness
    (`--timed`: the thread's own CPU time, reading excluded): best of 3 runs each, the modes
    alternating, so that all see the same load."""
    best = {m: float("inf") for m in ("decode", "chrf", "chrf++")}
    chars = 0
    for _ in range(3):
        for mode in best:
            done = subprocess.run(
                [FLOOR, mode, hyp, ref, "--timed"], capture_output=True, text=True, check=True
            )
            took = float(re.search(r"([\d.]+) ns", done.stdout).group(1))  # type: ignore[union-attr]
            chars = int(re.search(r"(\d+) characters", done.stdout).group(1))  # type: ignore[union-attr]
            best[mode] = min(best[mode], took)
    ns = {m: best[m] / chars for m in ("decode", "chrf", "chrf++")}
    return (
        f"| CPU time per character, en-de Online-B vs A, 2037 segments, one thread | decode pass "
        f"{ns['decode']:.2f} ns; chrF {ns['chrf']:.2f} ns ({ns['chrf'] / ns['decode']:.2f}x the "
        f"decode pass); chrF++ {ns['chrf++']:.2f} ns ({ns['chrf++'] / ns['decode']:.2f}x) |"
    )


# The first lines of a test set joined into one segment, at about doubling lengths. Past the
# whole test set, several systems' outputs are joined against both references: en-de's longest
# repeats Online-B and both references once, en-zh's HuaweiTSC and both references.
EN_DE_SYSTEMS = ["hyp.Online-B.txt", "hyp.JDExploreAcademy.txt", "hyp.OpenNMT.txt"]
EN_ZH_SYSTEMS = ["hyp.HuaweiTSC.txt", "hyp.LanguageX.txt", "hyp.Online-W.txt"]
BOTH_REFS = ["ref.A.txt", "ref.B.txt"]
GROWTH = {
    "en-de (Online-B vs A)": [
        (EN_DE, ["hyp.Online-B.txt"], ["ref.A.txt"], n) for n in (255, 509, 1018, 2037)
    ]
    + [
        (EN_DE, EN_DE_SYSTEMS[:2], BOTH_REFS, 4074),
        (EN_DE, [*EN_DE_SYSTEMS, EN_DE_SYSTEMS[0]], BOTH_REFS * 2, 8148),
    ],
    "en-zh (HuaweiTSC vs A)": [
        (WMT / "generaltest2022.en-zh", ["hyp.HuaweiTSC.txt"], ["ref.A.txt"], n)
        for n in (250, 500, 1000, 2037)
    ]
    + [
        (WMT / "generaltest2022.en-zh", EN_ZH_SYSTEMS[:2], BOTH_REFS, 4074),
        (WMT / "generaltest2022.en-zh", [*EN_ZH_SYSTEMS, EN_ZH_SYSTEMS[0]], BOTH_REFS * 2, 8148),
    ],
}


def growth() -> list[str]:
    """chrF's instructions per character of one segment, as the segment doubles in length; and
    the wall time per character of ``chrf.score`` on it, buffers warm (best of several calls)."""
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, prefixes in GROWTH.items():
            points, times = [], []
            for folder, hyps, refs, count in prefixes:
                paths, segment = [], []
                for side, files in (("hyp", hyps), ("ref", refs)):
                    joined = [line for f in files for line in lines(folder / f)][:count]
                    path = Path(tmp) / f"{side}.txt"
                    path.write_text("\n".join(joined) + "\n", "utf-8")
                    paths.append(str(path))
                    segment.append(" ".join(joined))  # as the harness's --one-segment joins
                _, chars = instructions("read", *paths, "--one-segment")
                cost = per_char("chrf", *paths, "--one-segment")
                points.append(f"{chars / 1000:.0f}k: {cost:.1f}")
                times.append(f"{ns_per_char(*segment, chars):.1f}")
            rows.append(
                f"| one segment's growth, chrF, {name} | {', '.join(points)} instructions a "
                f"character; `chrf.score` {', '.join(times)} ns a character |"
            )
    return rows


def ns_per_char(hyp: str, ref: str, chars: int) -> float:
    """The best wall time of ``chrf.score`` on one segment, per character (at least 9 calls)."""
    import chrf

    calls = max(9, 4_000_000 // chars)
    seconds = min(timeit.repeat(lambda: chrf.score([hyp], [[ref]]), number=1, repeat=calls))
    return seconds * 1e9 / chars


CLI_CHILD = """
import re, runpy, sys
sys.argv = sys.argv[1:]
try:
    runpy.run_module("chrf.cli", run_name="__main__")
finally:  # VmHWM, not ru_maxrss: Linux carries ru_maxrss over from the forked parent
    status = open("/proc/self/status").read()
    print(re.search(r"VmHWM:\\s+(\\d+)", status).group(1), file=sys.stderr)
"""


def command_line(count: int) -> list[str]:
    hyps, refs = lines(EN_DE / "hyp.Online-B.txt"), lines(EN_DE / "ref.A.txt")
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        paths = []
        for name, texts in (("hyp.txt", hyps), ("ref.txt", refs)):
            path = Path(tmp) / name
            path.write_text("\n".join(itertools.islice(itertools.cycle(texts), count)) + "\n")
            paths.append(str(path))
        for label, extra in (("plain", []), ("--sentence-level", ["--sentence-level"])):
            argv = ["chrf", paths[1], "-i", paths[0], "-f", "text", *extra]
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            start = timeit.default_timer()
            done = subprocess.run(
                [sys.executable, "-c", CLI_CHILD, *argv],
                check=True,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
                text=True,
            )
            took = timeit.default_timer() - start
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
            peak = int(done.stderr.split()[-1]) / 1024
            rows.append(
                f"| command line, {count:,} lines, {label} | {took:.1f} s wall, {cpu:.1f} s CPU, "
                f"peak {peak:.0f} MB |"
            )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--full", action="store_true", help="also pairwise 4096 x 4096, fastchrf too (~10 min)"
    )
    parser.add_argument("--lines", type=int, default=1_000_000, help="command-line input size")
    args = parser.parse_args()
    full_wmt_or_exit("benches/speed_floor.py")
    os.environ.setdefault("PYTHONHASHSEED", "0")
    print("| target | measured |\n|---|---|")
    sizes = [1024, 4096] if args.full else [1024]
    for section in (
        per_call,
        per_call_instructions,
        import_time,
        lambda: pairwise(sizes, sizes[-1] if args.full else 512),
        floor,
        lambda: command_line(args.lines),
    ):
        for row in section():
            print(row, flush=True)


if __name__ == "__main__":
    main()
