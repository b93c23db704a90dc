"""How long Ctrl-C takes to stop each long call: from SIGINT to KeyboardInterrupt, or to the
command line's exit with status 130.

    python3 benches/bench_interrupt.py [--trials N] [--calls NAME ...]

Each trial starts a fresh interpreter on one long call and sends it SIGINT after a delay that
varies from trial to trial (so the signal lands in different phases: reading, preparation, the
work itself, a bootstrap's draws). An API call's latency runs from the signal to the moment the
child catches KeyboardInterrupt (both read the system's monotonic clock); the command line's, to
its exit. Prints a Markdown table: median and maximum latency per call, and the trials that
ended otherwise (finished before the signal, wrong status, no exit within a minute).
The tests only check a generous bound (tests/reliability/test_threads_and_signals.py); this
measures.
"""

from __future__ import annotations

import argparse
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CHILD = """
import random, sys, time, chrf
random.seed(1)
words = ["".join(random.choice("abcdefghij") for _ in range(random.randint(2, 8)))
         for _ in range(3000)]
def texts(count, length):
    return [" ".join(random.choice(words) for _ in range(length)) for _ in range(count)]
name = sys.argv[1]
if name == "pairwise":  # 4,000 x 4,000 of 200 words, chrF++: preparation, then the matrix
    pool = texts(4000, 200)
    call = lambda: chrf.pairwise(pool, pool, word_order=2)
elif name in ("score", "sentence_scores"):
    hyps = texts(4000, 25) * 2000
    call = lambda: getattr(chrf, name)(hyps, hyps[::-1])
elif name == "reading":  # lowercasing 16M short texts while reading them
    call = lambda: chrf.score(["Ab"] * 8_000_000, ["aB"] * 8_000_000, lowercase=True)
elif name == "one_segment":  # one segment of 50M characters a side
    hyp, ref = " ".join(texts(1, 10_000_000))[:50_000_000], None
    ref = hyp[::-1]
    call = lambda: chrf.score([hyp], [ref], word_order=2)
elif name == "long_order":  # one segment of 20M characters repeating itself, order 40
    text = " ".join(texts(1, 200_000))[:1_000_000]
    hyp, ref = text * 20, text[7:] * 20
    call = lambda: chrf.sentence_scores([hyp], [ref], char_order=40)
elif name == "bootstrap":  # the API's confidence interval over 300,000 segments
    hyps = texts(300_000, 12)
    refs = hyps[1:] + hyps[:1]
    call = lambda: chrf.CHRF().corpus_score(hyps, [refs], n_bootstrap=1000)
print("started", flush=True)
try:
    call()
except KeyboardInterrupt:
    print(f"interrupted at {time.monotonic()!r}", flush=True)
    sys.exit(0)
print("finished", flush=True)
"""

API_CALLS = [
    "pairwise",
    "score",
    "sentence_scores",
    "reading",
    "one_segment",
    "long_order",
    "bootstrap",
]
CLI_CALLS = {"cli -ci": ["--confidence"], "cli --paired-bs": ["--paired-bs"]}
#: The signal's delays, spread evenly over the trials: after an API call started, and after the
#: command line started (its first second or so is start-up and reading 300,000 lines; then
#: the statistics of every segment, the resamples' draws and their scores).
DELAYS = {"api": (0.5, 3.0), "cli": (1.5, 9.0)}


def api_trial(name: str, delay: float) -> tuple[str, float]:
    child = subprocess.Popen([sys.executable, "-c", CHILD, name], stdout=subprocess.PIPE, text=True)
    assert child.stdout is not None
    assert child.stdout.readline() == "started\n"
    time.sleep(delay)
    child.send_signal(signal.SIGINT)
    sent = time.monotonic()
    try:
        out, _ = child.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        child.kill()
        child.communicate()
        return "no exit within 60 s", 0.0
    if not out.startswith("interrupted at "):
        return f"ended otherwise: {out.strip()!r}, status {child.returncode}", 0.0
    return "ok", float(out.split()[-1]) - sent


def cli_files(folder: Path) -> tuple[Path, Path, Path]:
    """300,000 lines: a reference and two systems."""
    import random

    rng = random.Random(2)
    words = ["".join(rng.choices("abcdefghij", k=rng.randint(2, 8))) for _ in range(3000)]
    lines = [" ".join(rng.choices(words, k=12)) for _ in range(300_000)]
    paths = [folder / "ref.txt", folder / "a.txt", folder / "b.txt"]
    for path, shift in zip(paths, (0, 1, 2), strict=True):
        path.write_text("\n".join(lines[shift:] + lines[:shift]) + "\n", "utf-8")
    return paths[0], paths[1], paths[2]


def cli_trial(args: list[str], files: tuple[Path, Path, Path], delay: float) -> tuple[str, float]:
    ref, a, b = files
    systems = [a, b] if "--paired-bs" in args else [a]
    command = [sys.executable, "-m", "chrf.cli", str(ref), "-i", *map(str, systems), *args]
    child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(delay)
    child.send_signal(signal.SIGINT)
    sent = time.monotonic()
    try:
        status = child.wait(timeout=60)
    except subprocess.TimeoutExpired:
        child.kill()
        child.wait()
        return "no exit within 60 s", 0.0
    took = time.monotonic() - sent
    return ("ok", took) if status == 130 else (f"status {status}", 0.0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=10, help="trials per call")
    parser.add_argument("--calls", nargs="*", default=[*API_CALLS, *CLI_CALLS])
    args = parser.parse_args()
    print(f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}; latency in seconds")
    print("| call | trials | median | max | ended otherwise |\n|---|---:|---:|---:|---|")
    with tempfile.TemporaryDirectory() as tmp:
        files = cli_files(Path(tmp)) if any(c in CLI_CALLS for c in args.calls) else None
        for name in args.calls:
            latencies, other = [], []
            first, last = DELAYS["cli" if name in CLI_CALLS else "api"]
            for trial in range(args.trials):
                delay = first + (last - first) * trial / max(1, args.trials - 1)
                if name in CLI_CALLS:
                    assert files is not None
                    outcome, took = cli_trial(CLI_CALLS[name], files, delay)
                else:
                    outcome, took = api_trial(name, delay)
                if outcome == "ok":
                    latencies.append(took)
                else:
                    other.append(outcome)
            median = f"{statistics.median(latencies):.2f}" if latencies else "-"
            worst = f"{max(latencies):.2f}" if latencies else "-"
            print(
                f"| {name} | {args.trials} | {median} | {worst} | {'; '.join(other) or '-'} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
