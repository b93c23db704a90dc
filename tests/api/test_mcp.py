"""The tools over MCP with the official SDK's client, as an agent meets them: `chrf mcp` over
stdio, and `chrf serve`'s streamable HTTP endpoint at /mcp. Listing the tools, calling
``execute`` and each typed tool: the same answer as in-process."""

from __future__ import annotations

import json
import os
import sys
from typing import Any

import anyio
import jsonschema
import pytest

import test_contract
from chrf import contract, tools
from service_server import (
    ROOT,
    service_url,  # noqa: F401 (the shared server, a fixture)
)

mcp = pytest.importorskip("mcp")

REQUEST = {"hypotheses": ["Hello, world!", "aa"], "references": ["hello world.", "ab"], "beta": 3}


@pytest.fixture(scope="module")
def base_url(service_url: str) -> str:  # noqa: F811 (the fixture imported above)
    return service_url


async def session_checks(client: Any) -> None:
    listed = {tool.name: tool for tool in (await client.list_tools()).tools}
    assert set(listed) == {"execute", *(t.id for t in tools.TOOLS)}
    for tool in tools.TOOLS:
        doc = tools.document(tool.id, tool.version)
        assert listed[tool.id].input_schema == doc["input_schema"]
        assert listed[tool.id].output_schema == doc["output_schema"]
        assert "65,536" in (listed[tool.id].description or "")
        local = tools.execute(tool.id, tool.version, REQUEST)
        typed = await client.call_tool(tool.id, REQUEST)
        assert typed.structured_content == local
        assert typed.content[0].text == contract.dumps(local)
        assert not typed.is_error
        jsonschema.validate(typed.structured_content, doc["output_schema"])
        by_id = await client.call_tool(
            "execute", {"id": tool.id, "version": tool.version, "input": REQUEST}
        )
        assert by_id.structured_content == local
    seed = await client.call_tool(
        "execute", {"id": "chrf-components", "version": "1.0.0", "input": test_contract.EXAMPLE}
    )
    assert seed.content[0].text + "\n" == test_contract.CONTRACT_EXAMPLE_OUTPUT
    refused = await client.call_tool(
        "execute", {"id": "chrf-components", "version": "1.0.0", "input": {"hypotheses": ["a"]}}
    )
    assert refused.is_error
    assert refused.structured_content == contract.evaluate({"hypotheses": ["a"]})
    bad = {"hypotheses": ["a"], "references": ["a"], "beta": 17}
    typed_refusal = await client.call_tool("chrf-components", bad)
    assert typed_refusal.is_error  # the contract's own message, not the SDK's schema check
    assert typed_refusal.structured_content == contract.evaluate(bad)
    unknown = await client.call_tool(
        "execute", {"id": "chrf-components", "version": "9.0.0", "input": {}}
    )
    assert unknown.is_error
    assert unknown.structured_content["error"]["code"] == "not_found"


def test_over_streamable_http(base_url: str) -> None:
    async def main() -> None:
        async with mcp.Client(f"{base_url}/mcp") as client:
            await session_checks(client)

    anyio.run(main)


def test_over_stdio() -> None:
    parameters = mcp.StdioServerParameters(
        command=sys.executable,
        args=["-m", "chrf", "mcp"],
        cwd=str(ROOT),
        env={**os.environ},
    )

    async def main() -> None:
        async with mcp.Client(parameters) as client:
            await session_checks(client)

    anyio.run(main)


def test_the_mcp_endpoint_refuses_foreign_hosts_on_loopback(base_url: str) -> None:
    httpx = pytest.importorskip("httpx")
    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}
    answer = httpx.post(
        f"{base_url}/mcp",
        content=json.dumps(body),
        headers={
            "content-type": "application/json",
            "accept": "application/json, text/event-stream",
            "host": "evil.example:80",
        },
        timeout=30,
    )
    assert answer.status_code in (403, 421)
