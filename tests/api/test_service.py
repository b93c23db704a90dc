"""`chrf serve` as users run it: a real uvicorn process on a loopback port, a real HTTP client.
Every execute answer is byte for byte `chrf.contract.dumps` of the in-process answer; bad input
and bad clients get one error object, never a 5xx, and the server keeps serving."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import test_contract
from chrf import contract, tools
from service_server import (
    PIDS,
    ROOT,
    service_url,  # noqa: F401 (the shared server, a fixture)
)
from test_contract_schema import held_cases

httpx = pytest.importorskip("httpx")

EXECUTE = "/v1/tools/{}/versions/1.0.0/execute"
COMPONENTS = EXECUTE.format("chrf-components")
MAX_BODY = 2**20
WMT = ROOT / "tests" / "data" / "wmt" / "generaltest2022.en-de"


@pytest.fixture(scope="module")
def base_url(service_url: str) -> str:  # noqa: F811 (the fixture imported above)
    return service_url


@pytest.fixture(scope="module")
def client(base_url: str) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=base_url, timeout=30) as http:
        yield http


def post(
    client: httpx.Client, body: bytes, path: str = COMPONENTS, **headers: str
) -> httpx.Response:
    return client.post(path, content=body, headers={"content-type": "application/json", **headers})


def still_serving(client: httpx.Client) -> None:
    answer = post(client, json.dumps(test_contract.EXAMPLE).encode())
    assert answer.status_code == 200
    assert answer.text + "\n" == test_contract.CONTRACT_EXAMPLE_OUTPUT


def test_the_seed_example_byte_for_byte(client: httpx.Client) -> None:
    answer = post(client, b'{"hypotheses":["aa"],"references":["ab"],"beta":3}')
    assert answer.status_code == 200
    assert answer.headers["content-type"] == "application/json"
    assert answer.content + b"\n" == test_contract.CONTRACT_EXAMPLE_OUTPUT.encode()


def wmt_request(count: int) -> dict[str, object]:
    hyps = (WMT / "hyp.Online-B.txt").read_text(encoding="utf-8").splitlines()[:count]
    refs = (WMT / "ref.A.txt").read_text(encoding="utf-8").splitlines()[:count]
    return {"hypotheses": hyps, "references": refs, "word_order": 2}


REQUESTS = [*held_cases(), wmt_request(20), wmt_request(256)]


@pytest.mark.parametrize(("tool_id", "version"), [(t.id, t.version) for t in tools.TOOLS])
def test_every_answer_is_the_in_process_answer_byte_for_byte(
    client: httpx.Client, tool_id: str, version: str
) -> None:
    for request in REQUESTS:
        body = json.dumps(request).encode()
        answer = post(client, body, EXECUTE.format(tool_id))
        local = tools.execute_json(tool_id, version, body)
        assert answer.text == contract.dumps(local)
        assert answer.status_code == (200 if "result" in local else 422)


HUGE_INTEGER = b'{"hypotheses": ["a"], "references": ["a"], "beta": 1' + b"0" * 100_000 + b"}"
BAD_BODIES = [
    (b"{", 422, "not valid JSON"),
    (b"", 422, "not valid JSON"),
    (b"[1, 2]", 422, "input must be a JSON object"),
    (b'"text"', 422, "input must be a JSON object"),
    (b'{"hypotheses": ["\xff"], "references": ["a"]}', 422, "not valid UTF-8"),
    (b'{"hypotheses": ["\\ud800"], "references": ["a"]}', 422, "lone surrogate (U+D800)"),
    (b"[" * 100_000 + b"]" * 100_000, 422, "nested too deeply"),
    (b'{"a": ' * 50_000 + b"1" + b"}" * 50_000, 422, "nested too deeply"),
    (HUGE_INTEGER, 422, "beta must be an integer from 1 to 16"),
    (
        b'{"hypotheses": ["a"], "references": ["a"], "beta": 2, "beta": 3}',
        422,
        "duplicate key 'beta'",
    ),
    (b'{"hypotheses": ["a"], "references": ["a"], "beta": NaN}', 422, "NaN is not a JSON number"),
    (
        json.dumps({"hypotheses": ["a"] * 257, "references": ["a"] * 257}).encode(),
        422,
        "at most 256 segments",
    ),
    (
        json.dumps({"hypotheses": ["a" * 65_536], "references": ["a"]}).encode(),
        422,
        "at most 65536 UTF-8 bytes",
    ),
    (b" " * (MAX_BODY + 1), 413, f"at most {MAX_BODY} bytes"),
]


@pytest.mark.parametrize(("body", "status", "message"), BAD_BODIES)
def test_bad_input_is_one_error_object_and_the_server_keeps_serving(
    client: httpx.Client, body: bytes, status: int, message: str
) -> None:
    answer = post(client, body)
    assert answer.status_code == status
    error = answer.json()
    assert list(error) == ["error"]
    assert error["error"]["code"] == "invalid_input"
    assert message in error["error"]["message"]
    still_serving(client)


@pytest.mark.parametrize("content_type", [None, "text/plain", "application/x-www-form-urlencoded"])
def test_a_body_that_is_not_sent_as_json_is_refused(
    client: httpx.Client, content_type: str | None
) -> None:
    headers = {} if content_type is None else {"content-type": content_type}
    answer = client.post(COMPONENTS, content=json.dumps(test_contract.EXAMPLE), headers=headers)
    assert answer.status_code == 415
    assert answer.json()["error"]["code"] == "invalid_input"
    assert "Content-Type application/json" in answer.json()["error"]["message"]


def test_a_body_over_the_limit_is_refused_while_it_streams(client: httpx.Client) -> None:
    sent: list[int] = []

    def chunks() -> Iterator[bytes]:  # no Content-Length: the server counts as it reads
        for _ in range(64):
            sent.append(1)
            yield b" " * 65_536

    answer = client.post(COMPONENTS, content=chunks(), headers={"content-type": "application/json"})
    assert answer.status_code == 413
    assert answer.json()["error"]["message"].startswith(f"input must be at most {MAX_BODY} bytes")
    still_serving(client)


def raw_request(base_url: str, head: bytes) -> socket.socket:
    host, port = base_url.removeprefix("http://").split(":")
    connection = socket.create_connection((host, int(port)), timeout=30)
    connection.sendall(head)
    return connection


def read_answer(connection: socket.socket) -> str:
    """One HTTP answer, head and body (its Content-Length), as text."""
    data = b""
    while b"\r\n\r\n" not in data:
        data += connection.recv(65_536)
    head, _, body = data.partition(b"\r\n\r\n")
    length = int(head.lower().split(b"content-length: ")[1].split(b"\r\n")[0])
    while len(body) < length:
        body += connection.recv(65_536)
    return (head + b"\r\n\r\n" + body).decode()


def head_of(length: int | str) -> bytes:
    return (
        f"POST {COMPONENTS} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        f"Content-Length: {length}\r\n\r\n"
    ).encode()


def test_an_oversized_declared_length_is_refused_before_the_body_is_sent(
    base_url: str, client: httpx.Client
) -> None:
    connection = raw_request(base_url, head_of(MAX_BODY + 1))
    with connection:
        answer = read_answer(connection)
    assert answer.startswith("HTTP/1.1 413")
    assert '"code": "invalid_input"' in answer
    # A length of 5,000 digits is not HTTP: uvicorn's parser answers 400 before the app runs.
    with raw_request(base_url, head_of("9" * 5000)) as connection:
        assert connection.recv(65_536).startswith(b"HTTP/1.1 400 ")
    still_serving(client)


def test_json_with_a_charset_is_json(client: httpx.Client) -> None:
    body = json.dumps(test_contract.EXAMPLE).encode()
    answer = post(client, body, **{"content-type": "application/json; charset=utf-8"})
    assert answer.status_code == 200


def server_rss_mib(base_url: str) -> float:
    """The server process's resident memory (one worker: the process itself)."""
    text = Path(f"/proc/{PIDS[base_url]}/status").read_text()
    return int(text.split("VmRSS:")[1].split()[0]) / 1024


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads /proc")
def test_a_thousand_open_connections_keep_memory_bounded_and_others_served(
    base_url: str, client: httpx.Client
) -> None:
    body = json.dumps(test_contract.EXAMPLE).encode()
    before = server_rss_mib(base_url)
    held = [raw_request(base_url, head_of(len(body)) + body[:3]) for _ in range(1000)]
    try:
        still_serving(client)
        # Each connection holds a few bytes of body: far from a MiB each.
        assert server_rss_mib(base_url) - before < 200
    finally:
        for connection in held:
            connection.close()
    still_serving(client)


def test_slow_and_vanishing_clients_do_not_block_others(
    base_url: str, client: httpx.Client
) -> None:
    body = json.dumps(test_contract.EXAMPLE).encode()
    trickling = [raw_request(base_url, head_of(len(body)) + body[:1]) for _ in range(20)]
    vanished = [raw_request(base_url, head_of(len(body)) + body[:5]) for _ in range(20)]
    for connection in vanished:
        connection.close()
    idle = [raw_request(base_url, b"") for _ in range(200)]
    for _ in range(5):  # served while every slow client still holds its connection
        still_serving(client)
    for connection in trickling:
        connection.sendall(body[1:2])
    for connection in trickling:  # the rest never comes: 408 after the body timeout
        with connection:
            answer = read_answer(connection)
        assert answer.startswith("HTTP/1.1 408"), answer
        assert '"code": "timeout"' in answer
    for connection in idle:
        connection.close()
    # On a new connection: the client's own, idle since its fifth request, reaches the head
    # deadline about when the slow clients' bodies reach theirs, and the server may close it
    # just as a request is sent on it (a POST, which httpx does not send again).
    with httpx.Client(base_url=base_url, timeout=30) as again:
        still_serving(again)


def closed(connection: socket.socket) -> bool:
    """True once the server has closed the connection (waiting up to the socket's timeout)."""
    try:
        return connection.recv(65_536) == b""
    except ConnectionResetError:
        return True


def test_a_request_head_that_never_completes_is_closed_after_the_timeout(base_url: str) -> None:
    idle = raw_request(base_url, b"")
    partial = raw_request(base_url, f"POST {COMPONENTS} HTTP/1.1\r\nHost: x\r\n".encode())
    again = raw_request(base_url, b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\nGET /heal")
    assert read_answer(again).startswith("HTTP/1.1 200")  # then its second head stalls
    for connection in (idle, partial, again):
        with connection:
            assert closed(connection)


def test_the_mcp_endpoint_reads_bodies_under_the_same_limits(
    base_url: str, client: httpx.Client
) -> None:
    head = (
        "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        "Accept: application/json, text/event-stream\r\nContent-Length: {}\r\n\r\n"
    )
    with raw_request(base_url, head.format(100).encode() + b"{") as trickling:
        answer = read_answer(trickling)  # the rest never comes
    assert answer.startswith("HTTP/1.1 408")
    assert '"code": "timeout"' in answer
    with raw_request(base_url, head.format(MAX_BODY + 1).encode()) as oversized:
        assert read_answer(oversized).startswith("HTTP/1.1 413")
    still_serving(client)


def test_the_contract_the_tool_list_health_and_openapi(client: httpx.Client) -> None:
    for tool in tools.TOOLS:
        route = f"/v1/tools/{tool.id}/versions/{tool.version}"
        assert client.get(route).json() == tools.document(tool.id, tool.version)
    assert client.get("/v1/tools").json() == tools.index()
    assert client.get("/healthz").json() == {"status": "ok"}
    document = client.get("/openapi.json").json()
    assert document["openapi"] == "3.1.0"
    assert set(document["paths"]) >= {COMPONENTS, "/v1/tools", "/healthz"}


@pytest.mark.parametrize(
    ("method", "path", "status", "code"),
    [
        ("GET", "/nowhere", 404, "not_found"),
        ("GET", "/v1/tools/chrf-components/versions/9.9.9", 404, "not_found"),
        ("POST", "/v1/tools/nothing/versions/1.0.0/execute", 404, "not_found"),
        ("GET", COMPONENTS, 405, "method_not_allowed"),
        ("DELETE", "/v1/tools", 405, "method_not_allowed"),
    ],
)
def test_unknown_routes_and_methods_are_error_objects(
    client: httpx.Client, method: str, path: str, status: int, code: str
) -> None:
    answer = client.request(method, path, headers={"content-type": "application/json"})
    assert answer.status_code == status
    assert answer.json()["error"]["code"] == code


def test_no_cors_and_loopback_only(base_url: str, client: httpx.Client) -> None:
    answer = client.options(
        COMPONENTS,
        headers={"Origin": "http://example.com", "Access-Control-Request-Method": "POST"},
    )
    assert "access-control-allow-origin" not in answer.headers
    assert base_url.startswith("http://127.0.0.1:")


def test_components_base_url_prints_what_the_local_run_prints(base_url: str) -> None:
    def run(*args: str) -> subprocess.CompletedProcess[str]:
        command = [sys.executable, "-m", "chrf", "components", "--input", *args]
        stdin = json.dumps(test_contract.EXAMPLE)
        return subprocess.run(
            command, cwd=ROOT, input=stdin, capture_output=True, text=True, check=False
        )

    for request in ("examples/contract.json", "-"):
        local = run(request)
        remote = run(request, "--base-url", base_url)
        assert (remote.stdout, remote.returncode) == (local.stdout, local.returncode)
    bad = Path("tests") / "data" / "nonexistent.json"
    assert run(str(bad), "--base-url", base_url).returncode == 1


def test_the_readme_starts_and_queries_the_service(base_url: str) -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    start = next(line for line in readme.splitlines() if line.startswith("chrf serve"))
    query = next(line for line in readme.splitlines() if "--base-url" in line)
    assert start.split("#")[0].split() == ["chrf", "serve", "&"]
    argv = query.split("#")[0].split()[1:]
    argv[argv.index("--base-url") + 1] = base_url
    done = subprocess.run(
        [sys.executable, "-m", "chrf", *argv], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert done.stdout == test_contract.CONTRACT_EXAMPLE_OUTPUT


def test_work_beyond_its_limits_is_refused_at_once_with_503() -> None:
    import threading

    import anyio

    from chrf.serve.limits import Limits
    from chrf.serve.work import ServiceError, Work

    release = threading.Event()
    work = Work(Limits(concurrency=1, max_waiting=1))

    def held() -> dict[str, object]:
        release.wait(30)
        return {}

    async def main() -> ServiceError:
        async with anyio.create_task_group() as group:
            group.start_soon(work.run, held)  # runs
            group.start_soon(work.run, held)  # waits for the one thread
            while work.admitted < 2:
                await anyio.sleep(0.01)
            try:
                await work.run(held)
            except ServiceError as error:
                return error
            finally:
                release.set()
        raise AssertionError("a third request was admitted")

    refused = anyio.run(main)
    assert (refused.status, refused.code, refused.headers) == (503, "busy", {"Retry-After": "1"})
    assert work.admitted == 0


def test_limits_are_checked_and_pass_to_the_workers(monkeypatch: pytest.MonkeyPatch) -> None:
    from chrf.serve.limits import ENVIRONMENT, Limits

    limits = Limits(
        max_body_bytes=1000, request_timeout=1.5, concurrency=3, max_waiting=0, public=True
    )
    monkeypatch.setenv(ENVIRONMENT, limits.to_environment())
    assert Limits.from_environment() == limits
    with pytest.raises(ValueError, match="max_body_bytes must be from 1 to 16777216"):
        Limits(max_body_bytes=contract.MAX_REQUEST_BYTES + 1)


def chrf_command(*args: str, code: str = "") -> subprocess.CompletedProcess[str]:
    """`chrf ARGS` in a child, after `code` (which may hide a package)."""
    program = f"import sys\n{code}\nfrom chrf.cli import main\nsys.exit(main({list(args)!r}))"
    return subprocess.run(
        [sys.executable, "-c", program], cwd=ROOT, capture_output=True, text=True, timeout=120
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["serve", "--port", "70000"], "argument --port: must be from 0 to 65535, not 70000"),
        (["serve", "--max-body-bytes", "99999999"], "max-body-bytes must be from 1 to 16777216"),
        (["serve", "--workers", "0"], "argument --workers"),
        (["mcp", "--port", "1"], "unrecognized arguments: --port 1"),
    ],
)
def test_bad_serve_arguments_are_one_line_and_status_2(args: list[str], message: str) -> None:
    done = chrf_command(*args)
    assert done.returncode == 2
    assert message in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize("command", ["serve", "mcp"])
def test_without_the_serve_extra_the_commands_say_how_to_get_it(command: str) -> None:
    done = chrf_command(command, code="sys.modules['uvicorn'] = sys.modules['mcp'] = None")
    assert done.returncode == 1
    assert "pip install 'chrf[serve]'" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_port_in_use_is_one_error_line(base_url: str) -> None:
    port = base_url.rsplit(":", 1)[1]
    done = chrf_command("serve", "--port", port)
    assert done.returncode == 1
    assert "chrf: error: the server could not start" in done.stderr
    assert "address already in use" in done.stderr
