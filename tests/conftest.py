"""Shared test setup: hypothesis profiles and the real WMT data of ../shared/data."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

# CI runs every property with 1,000 examples (2,000 took the whole CI run to about 19 of its 20
# minutes); locally 200 keep the loop fast. HYPOTHESIS_PROFILE=ci runs CI's count anywhere.
settings.register_profile(
    "ci",
    max_examples=1000,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("dev", max_examples=200, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))

ROOT = Path(__file__).resolve().parent.parent


def _data_dir() -> Path:
    """$CHRF_DATA, else the nearest shared/data beside the checkout or one of its parents."""
    if "CHRF_DATA" in os.environ:
        return Path(os.environ["CHRF_DATA"])
    for parent in ROOT.parents:
        if (parent / "shared" / "data").is_dir():
            return parent / "shared" / "data"
    return ROOT.parent / "shared" / "data"


DATA = _data_dir()


@pytest.fixture(scope="session")
def wmt_dir() -> Path:
    """../shared/data/wmt; tests skip without it, except in CI, where its absence fails."""
    wmt = DATA / "wmt"
    if not wmt.is_dir():
        if os.environ.get("CI"):
            pytest.fail(f"CI needs the WMT data at {wmt}")
        _SKIPPED_FOR_DATA.append(str(wmt))
        pytest.skip(f"no WMT data at {wmt}")
    return wmt


_SKIPPED_FOR_DATA: list[str] = []


def pytest_unconfigure(config: pytest.Config) -> None:
    """Says loudly, as the very last lines of the run, that the sacreBLEU parity on real data did
    not run (a green run without it proves much less)."""
    if _SKIPPED_FOR_DATA:
        writer = config.get_terminal_writer()
        writer.sep("!", "WMT DATA MISSING", red=True, bold=True)
        writer.line(
            "the tests comparing with sacreBLEU on real WMT data were SKIPPED: no data at "
            f"{_SKIPPED_FOR_DATA[0]} (set CHRF_DATA to the folder that holds wmt/)",
            red=True,
            bold=True,
        )
