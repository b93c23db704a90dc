"""A bounded load test of `chrf serve` on loopback: requests per second and p50/p99 latency of a
typical request (20 segments of WMT22 en-de, chrF++ components) at concurrency 1, 16 and 64, with
1 and 2 worker processes; the server's peak RSS; errors, and responses that differ from the
local result (each request has its own segments, so a mixed-up answer is caught).

    python3 -m pip install -e '.[serve,test]' && python3 benches/bench_service.py  # ~2 minutes
    python3 benches/bench_service.py --requests 200 --concurrency 1 16              # quicker

The client (httpx, asyncio, one process) runs on the same machine as the server, and shares
its CPUs: the figures are for the pair, as a sidecar deployment sees them.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
from wmt_data import wmt_dir

from chrf import tools

ROOT = Path(__file__).resolve().parent.parent
EXECUTE = "/v1/tools/chrf-components/versions/1.0.0/execute"
SEGMENTS = 20


def requests_of(count: int) -> list[tuple[bytes, bytes]]:
    """`count` requests of 20 consecutive en-de segments each, with the local answer's bytes."""
    pair = wmt_dir() / "generaltest2022.en-de"
    hyps = (pair / "hyp.Online-B.txt").read_text(encoding="utf-8").splitlines()
    refs = (pair / "ref.A.txt").read_text(encoding="utf-8").splitlines()
    made = []
    for i in range(count):
        start = (i * 7) % (len(hyps) - SEGMENTS)
        request = {
            "hypotheses": hyps[start : start + SEGMENTS],
            "references": refs[start : start + SEGMENTS],
            "word_order": 2,
        }
        body = json.dumps(request).encode()
        expected = tools.execute_json("chrf-components", "1.0.0", body)
        made.append((body, json.dumps(expected, ensure_ascii=False).encode()))
    return made


class Server:
    """`chrf serve --workers N` on a free loopback port, ended on exit."""

    def __init__(self, workers: int) -> None:
        command = [
            sys.executable,
            "-m",
            "chrf",
            "serve",
            "--port",
            "0",
            "--log-level",
            "info",
            "--workers",
            str(workers),
            "--max-waiting",
            "1024",
        ]
        self.process = subprocess.Popen(
            command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, cwd=ROOT
        )
        found: list[str] = []

        def read() -> None:
            assert self.process.stderr is not None
            for line in self.process.stderr:
                match = re.search(r"running on (http://127\.0\.0\.1:\d+)", line)
                if match and not found:
                    found.append(match.group(1))

        threading.Thread(target=read, daemon=True).start()
        deadline = time.monotonic() + 60
        while not found and time.monotonic() < deadline and self.process.poll() is None:
            time.sleep(0.05)
        if not found:
            sys.exit("chrf serve did not start")
        self.url = found[0]
        self.wait_until_ready(workers)

    def wait_until_ready(self, workers: int) -> None:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if len(self.pids()) >= workers + (workers > 1):
                try:
                    if httpx.get(f"{self.url}/healthz", timeout=5).status_code == 200:
                        return
                except httpx.HTTPError:
                    pass
            time.sleep(0.1)
        sys.exit("chrf serve did not answer")

    def pids(self) -> list[int]:
        children = Path(f"/proc/{self.process.pid}/task/{self.process.pid}/children")
        found = [self.process.pid]
        if children.exists():
            found += [int(p) for p in children.read_text().split()]
        return found

    def cpu_seconds(self) -> float:
        """User and system CPU time of the server's processes so far."""
        ticks = 0
        for pid in self.pids():
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            ticks += int(fields[11]) + int(fields[12])  # utime, stime
        return ticks / os.sysconf("SC_CLK_TCK")

    def peak_rss_mib(self) -> float:
        """Peak resident memory (VmHWM) summed over the server's processes."""
        total = 0
        for pid in self.pids():
            status = Path(f"/proc/{pid}/status").read_text()
            total += int(re.search(r"VmHWM:\s+(\d+) kB", status).group(1))  # type: ignore[union-attr]
        return total / 1024

    def __enter__(self) -> Server:
        return self

    def __exit__(self, *exc: object) -> None:
        self.process.terminate()
        self.process.wait(timeout=30)


async def load(
    url: str, work: list[tuple[bytes, bytes]], concurrency: int, budget: float
) -> dict[str, float]:
    """Sends `work` from `concurrency` tasks, each request once, for at most `budget` seconds."""
    latencies: list[float] = []
    errors = wrong = 0
    queue = list(reversed(work))
    limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)
    headers = {"content-type": "application/json"}
    async with httpx.AsyncClient(base_url=url, limits=limits, timeout=60) as client:
        stop = time.perf_counter() + budget

        async def worker() -> None:
            nonlocal errors, wrong
            while queue and time.perf_counter() < stop:
                body, expected = queue.pop()
                began = time.perf_counter()
                try:
                    answer = await client.post(EXECUTE, content=body, headers=headers)
                except httpx.HTTPError:
                    errors += 1
                    continue
                latencies.append(time.perf_counter() - began)
                if answer.status_code != 200:
                    errors += 1
                elif answer.content != expected:
                    wrong += 1

        began = time.perf_counter()
        await asyncio.gather(*(worker() for _ in range(concurrency)))
        elapsed = time.perf_counter() - began
    latencies.sort()
    return {
        "requests": len(latencies),
        "rps": len(latencies) / elapsed,
        "p50": statistics.median(latencies) * 1000,
        "p99": latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))] * 1000,
        "errors": errors,
        "wrong": wrong,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=1000, help="requests per row, at most")
    parser.add_argument("--seconds", type=float, default=15.0, help="time per row, at most")
    parser.add_argument("--concurrency", type=int, nargs="+", default=[1, 16, 64])
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    args = parser.parse_args()
    work = requests_of(args.requests)
    print(
        f"chrf serve on loopback, {os.cpu_count()} CPUs; each request {SEGMENTS} segments "
        f"of WMT22 en-de, chrF++ components; at most {args.requests} requests or "
        f"{args.seconds:g} s per row; load average {os.getloadavg()[0]:.1f} at the start"
    )
    print(
        "| workers | concurrency | requests | requests/s | p50 ms | p99 ms | server CPU ms "
        "| errors | wrong | peak RSS MiB |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    failures = 0
    for workers in args.workers:
        with Server(workers) as server:
            asyncio.run(load(server.url, work[:50], 4, 30))  # warm-up: imports, first calls
            for concurrency in args.concurrency:
                cpu = server.cpu_seconds()
                row = asyncio.run(load(server.url, work, concurrency, args.seconds))
                cpu_ms = (server.cpu_seconds() - cpu) * 1000 / max(1, row["requests"])
                failures += int(row["errors"] + row["wrong"])
                print(
                    f"| {workers} | {concurrency} | {row['requests']:,} | {row['rps']:,.0f} | "
                    f"{row['p50']:.1f} | {row['p99']:.1f} | {cpu_ms:.1f} | {row['errors']} | "
                    f"{row['wrong']} | {server.peak_rss_mib():.0f} |",
                    flush=True,
                )
    if failures:
        sys.exit(f"{failures} requests failed or were answered wrongly")


if __name__ == "__main__":
    main()
