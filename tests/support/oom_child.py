"""One case of the out-of-memory sweep (`tests/support/oom_sweep.py`), in an interpreter of its own:
each entry point is called once per margin under an address-space limit of the interpreter's size
plus the margin, and each outcome is printed as a JSON line as soon as it is known."""

from __future__ import annotations

import contextlib
import gc
import json
import random
import resource
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import chrf


def address_space() -> int:
    with open("/proc/self/status") as status:
        line = next(line for line in status if line.startswith("VmSize:"))
    return int(line.split()[1]) * 1024


def texts(n: int, seed: int) -> list[str]:
    """Random words, upper and lower case, ASCII and not: lowercasing changes them."""
    rng = random.Random(seed)
    letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZäöüßÉÈŁŻŚĆŃĄĘ"
    words = ["".join(rng.choices(letters, k=rng.randint(1, 9))) for _ in range(3000)]
    return [" ".join(rng.choices(words, k=rng.randint(2, 12))) for _ in range(n)]


def column(kind: str, items: list[str]) -> Any:
    """`items` as the input kind `kind`."""
    if kind == "list":
        return items
    if kind == "polars":
        import polars as pl

        return pl.Series(items)
    import pyarrow as pa

    if kind == "dictionary":
        return pa.array(items).dictionary_encode()
    return pa.array(items, getattr(pa, kind)())


def head(kind: str, value: Any, n: int) -> Any:
    """The first `n` rows."""
    if kind == "list":
        return value[:n]
    return value.slice(0, n) if kind != "polars" else value.head(n)


#: The rows explain and pairwise take.
FEW = 1500


def text_call(entry: str, lc: bool, hyps: Any, refs: Any, kind: str) -> Callable[[], object]:
    if entry == "score":
        return lambda: chrf.score(hyps, refs, lowercase=lc)
    if entry == "sentence_scores":
        return lambda: chrf.sentence_scores(hyps, refs, lowercase=lc)
    if entry == "segment_statistics":
        return lambda: chrf.segment_statistics(hyps, refs, lowercase=lc)
    # Explain and pairwise take the first rows only: on these few the margins span the whole
    # call, from its first allocations to its result (explain's tables of every n-gram would
    # outgrow the largest margin on the whole column, which only ever saw its first phases).
    few_hyps, few_refs = head(kind, hyps, FEW), head(kind, refs, FEW)
    if entry == "explain":
        return lambda: chrf.explain(few_hyps, few_refs, lowercase=lc).to_dict(segments=20)
    return lambda: chrf.pairwise(few_hyps, few_refs, lowercase=lc)


def resampling_call(entry: str, hyps: Any, refs: Any, system: Any) -> Callable[[], object]:
    if entry == "bootstrap":
        return lambda: chrf.CHRF().corpus_score(hyps, [refs], n_bootstrap=200)
    test = entry.removeprefix("compare_")
    trials = 100 if test == "bs" else 400
    return lambda: chrf.compare([hyps, system], refs, test=test, trials=trials).to_dict()


def cli_call(entry: str, files: list[str]) -> Callable[[], object]:
    """The command line, in this interpreter: its status, and its stderr if not 0."""
    from chrf.cli import main

    ref, hyp, other = files
    args = {
        "cli_confidence": [ref, "-i", hyp, "--confidence", "--confidence-n", "200"],
        "cli_paired_bs": [ref, "-i", hyp, other, "--paired-bs", "--paired-bs-n", "100"],
        "cli_paired_ar": [ref, "-i", hyp, other, "--paired-ar", "--paired-ar-n", "400"],
    }[entry]

    def call() -> object:
        with open("stderr", "w+") as err, open("/dev/null", "w") as out:
            with contextlib.redirect_stderr(err), contextlib.redirect_stdout(out):
                status = main(args)
            err.seek(0)
            said = err.read()
        if status == 1 and said == "chrf: error: out of memory\n":
            raise MemoryError
        if status != 0:
            return f"status {status}: {said}"
        return None

    return call


def judged(call: Callable[[], object]) -> str:
    """What `call` ended in: "ok", "MemoryError", or what else it returned or raised."""
    try:
        result = call()
        return result if isinstance(result, str) else "ok"
    except MemoryError:
        return "MemoryError"
    except BaseException as error:  # reported, not raised: the parent judges every outcome
        return f"{type(error).__name__}: {error}"[:300]


def outcome(call: Callable[[], object], margin: int) -> str:
    gc.collect()
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    resource.setrlimit(resource.RLIMIT_AS, (address_space() + margin, hard))
    try:
        return judged(call)
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


def calls(spec: dict[str, Any], rows: int) -> dict[str, Callable[[], object]]:
    kind, lc = spec["kind"], spec["lowercase"]
    hyps, refs, system = (column(kind, texts(rows, seed)) for seed in (1, 2, 3))
    made: dict[str, Callable[[], object]] = {}
    for entry in spec["entries"]:
        if entry.startswith("cli_"):
            files = [f"{name}.txt" for name in ("ref", "hyp", "other")]
            for name, seed in zip(files, (2, 1, 3), strict=True):
                Path(name).write_text("\n".join(texts(rows, seed)) + "\n", encoding="utf-8")
            made[entry] = cli_call(entry, files)
        elif entry in ("bootstrap", "compare_bs", "compare_ar"):
            made[entry] = resampling_call(entry, hyps, refs, system)
        else:
            made[entry] = text_call(entry, lc, hyps, refs, kind)
    return made


def main() -> None:
    spec = json.loads(sys.argv[1])
    # Warm: every import (NumPy's random module, pyarrow's compute...), the thread pool and
    # NumPy's C API are made ready on small inputs of the same kind before any limit is set.
    for call in calls(spec, 50).values():
        call()
    for entry, call in calls(spec, spec["rows"]).items():
        for margin in spec["margins"]:
            print(json.dumps([entry, margin, outcome(call, margin)]), flush=True)


if __name__ == "__main__":
    main()
