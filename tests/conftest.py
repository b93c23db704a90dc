"""Shared test setup: hypothesis profiles, the WMT data (bundled, and the full sets), and the
two implementations of the Python API (`impl`)."""

from __future__ import annotations

import os
import signal
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import HealthCheck, settings

from implementations import IMPLEMENTATIONS
from soak import SOAK

# Every run, CI's included, tries hypothesis's 100 examples a property: each run draws new ones
# (no fixed seed), so the runs add up, and more a property would make them most of CI's run.
# The long run (CHRF_SOAK=1, tests/support/soak.py) tries 1,000. A property sets a count of its
# own only to try fewer, where an example costs much more.
settings.register_profile("dev", max_examples=100, deadline=None)
settings.register_profile(
    "soak",
    max_examples=1000,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile("soak" if SOAK else "dev")

# Started with SIGINT ignored (a shell's background job), the tests' children would inherit it,
# and no Ctrl-C test could interrupt them: a handled signal is reset to the default at exec, so
# that each child's Python installs its own KeyboardInterrupt handler.
if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

ROOT = Path(__file__).resolve().parent.parent

#: The first lines of six WMT22 test sets with sacreBLEU 2.6.0's numbers, in the repository
#: (tests/data/README.md; scripts/make_test_data.py made them): the real-data tests always run.
BUNDLED = ROOT / "tests" / "data" / "wmt"


def _full_data() -> Path | None:
    """The full WMT22 sets: $CHRF_DATA/wmt, else the nearest shared/data/wmt beside the checkout
    or one of its parents; None where there is none (a $CHRF_DATA without wmt/ in it too)."""
    if "CHRF_DATA" in os.environ:
        wmt = Path(os.environ["CHRF_DATA"]) / "wmt"
        return wmt if wmt.is_dir() else None
    for parent in ROOT.parents:
        if (parent / "shared" / "data" / "wmt").is_dir():
            return parent / "shared" / "data" / "wmt"
    return None


FULL = _full_data()

#: Every data root the real-data tests run on, with the id that names it in a test's id.
WMT_DIRS = [pytest.param(BUNDLED, id="bundled")]
if FULL is not None:
    WMT_DIRS.append(pytest.param(FULL, id="full"))


@pytest.fixture(scope="session", params=WMT_DIRS)
def wmt_dir(request: pytest.FixtureRequest) -> Path:
    """A folder of WMT22 test sets (tests/support/wmt.py reads them): each test that takes it runs
    on the bundled sets, and again on the full sets where they are present."""
    path: Path = request.param
    return path


@pytest.fixture(scope="session", params=IMPLEMENTATIONS)
def impl(request: pytest.FixtureRequest) -> ModuleType:
    """The Python API, compiled (`chrf`) and pure Python (`chrf._reference`): each test that
    takes it runs over both (tests/support/implementations.py). Session-scoped, so that hypothesis
    tests can take it."""
    module: ModuleType = request.param
    return module


def pytest_report_header() -> str:
    full = str(FULL) if FULL is not None else "not found (set CHRF_DATA to the folder holding wmt/)"
    return f"WMT data: bundled {BUNDLED}; full sets {full}"
