"""A real `chrf serve` for the service tests: a uvicorn process on a free loopback port
(port 0: uvicorn binds one and logs it), started and stopped by the test."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
#: Seconds a server may take to start (import and bind) on a loaded machine.
START_TIMEOUT = 60
#: The process id of each running server, by base URL.
PIDS: dict[str, int] = {}


#: The shared test server's body timeout, short so that the slow-client tests end soon.
REQUEST_TIMEOUT = 2.0


@pytest.fixture(scope="session")
def service_url() -> Iterator[str]:
    """One `chrf serve` shared by the service tests (1 worker, 2 scoring threads)."""
    with running_server("--request-timeout", str(REQUEST_TIMEOUT), "--concurrency", "2") as url:
        yield url


@contextmanager
def running_server(*args: str) -> Iterator[str]:
    """The base URL of a `chrf serve ARGS` on 127.0.0.1; the process is ended afterwards."""
    pytest.importorskip("uvicorn")
    command = [sys.executable, "-m", "chrf", "serve", "--port", "0", "--log-level", "info", *args]
    process = subprocess.Popen(
        command,
        cwd=ROOT,
        stderr=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    try:
        url = _base_url(process)
        PIDS[url] = process.pid
        yield url
    finally:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def _base_url(process: subprocess.Popen[str]) -> str:
    found: list[str] = []
    log: list[str] = []

    def read() -> None:
        assert process.stderr is not None
        for line in process.stderr:
            log.append(line)
            match = re.search(r"running on (http://127\.0\.0\.1:\d+)", line)
            if match and not found:
                found.append(match.group(1))
        # the rest of the log is read and dropped, so that the pipe never fills

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    for _ in range(START_TIMEOUT * 10):
        if found or process.poll() is not None:
            break
        threading.Event().wait(0.1)
    if not found:
        raise RuntimeError(f"chrf serve did not start: {''.join(log)}")
    return found[0]
