"""atheris harness of the Python package: the fuzz tests of tests/oracles/test_fuzz.py, driven by
libFuzzer's coverage-guided bytes instead of hypothesis's random ones, with wider bounds.

    python fuzz/python/fuzz_api.py [libFuzzer options] [CORPUS_DIR ...]

Each input's first byte picks a test, the rest is decoded by hypothesis into the test's
arguments (`fuzz_one_input`), so both use the same strategies and the same checks. Coverage is
that of the package's Python code (the compiled core is not instrumented; fuzz/ fuzzes it with
cargo fuzz). `$CHRF_FUZZ_TEST=NAME` runs one test only. atheris is not a test dependency of
the package: `pip install atheris` first (fuzz/README.md).
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("CHRF_FUZZ_WIDE", "1")
# test_fuzz and the helpers it imports by name
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tests" / "oracles"))
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tests" / "support"))

import atheris
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

# Every module of the package, the lazily imported ones too, is imported here to be instrumented.
with atheris.instrument_imports(include=["chrf"]):
    import test_fuzz

    import chrf._cli_score
    import chrf._reference
    import chrf._significance  # noqa: F401

FILES = test_fuzz.write_cli_files(Path(tempfile.mkdtemp(prefix="chrf-fuzz-cli-")))


@given(data=st.data())
def test_cli(data: st.DataObject) -> None:
    test_fuzz.check_cli(FILES, data)


TESTS = {
    name: settings(
        database=None, deadline=None, suppress_health_check=list(HealthCheck), max_examples=1
    )(test)
    for name, test in [
        ("corpus", test_fuzz.test_corpus_functions),
        ("batch", test_fuzz.test_batch_functions),
        ("settings", test_fuzz.test_settings),
        ("statistics", test_fuzz.test_statistics),
        ("dropin", test_fuzz.test_chrf_dropin),
        ("contract", test_fuzz.test_contract),
        ("cli", test_cli),
    ]
    if os.environ.get("CHRF_FUZZ_TEST", name) == name
}
CHOICES = list(TESTS.values())


def one_input(data: bytes) -> None:
    if data:
        CHOICES[data[0] % len(CHOICES)].hypothesis.fuzz_one_input(data[1:])  # type: ignore[attr-defined]


if __name__ == "__main__":
    if not CHOICES:
        sys.exit(
            f"no test named {os.environ['CHRF_FUZZ_TEST']!r}; choose from corpus, batch, "
            "settings, statistics, dropin, contract, cli"
        )
    atheris.Setup(sys.argv, one_input)
    atheris.Fuzz()
