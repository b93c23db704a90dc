"""The tools as MCP tools (the official ``mcp`` SDK): ``execute`` takes
``{"id", "version", "input"}``, and each tool has a typed twin named by its id, whose input
schema is the tool's JSON Schema and whose structured output is the tool's answer. Served over
stdio (`chrf mcp`) and over streamable HTTP at ``/mcp`` in `chrf serve`."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import Any

import anyio
import mcp_types as types
from mcp.server.lowlevel import Server
from mcp.server.streamable_http_manager import StreamableHTTPASGIApp, StreamableHTTPSessionManager
from mcp.server.transport_security import TransportSecuritySettings

from chrf import __version__, contract, tools
from chrf.serve.limits import Limits
from chrf.serve.work import Work

__all__ = ["mcp_app", "mcp_server", "serve_stdio"]

EXECUTE_INPUT = {
    "type": "object",
    "additionalProperties": False,
    "required": ["id", "version", "input"],
    "properties": {
        "id": {"enum": sorted({t.id for t in tools.TOOLS}), "description": "the tool's id"},
        "version": {"type": "string", "description": "the tool's version, e.g. 1.0.0"},
        "input": {"type": "object", "description": "the tool's input object"},
    },
}


def tool_list() -> list[types.Tool]:
    listed = [
        types.Tool(
            name="execute",
            title="Execute a chrf tool",
            description="Runs one of the tools by id and version on its input: "
            + "; ".join(f"{t.id} {t.version}" for t in tools.TOOLS)
            + '. The answer is the tool\'s {"result": ...} or {"error": ...}.',
            input_schema=EXECUTE_INPUT,
            output_schema={"type": "object"},
        )
    ]
    for tool in tools.TOOLS:
        doc = tools.document(tool.id, tool.version)
        listed.append(
            types.Tool(
                name=tool.id,
                title=doc["title"],
                description=f"{doc['description']} (version {tool.version})",
                input_schema=doc["input_schema"],
                output_schema=doc["output_schema"],
            )
        )
    return listed


def answer_of(response: dict[str, Any]) -> types.CallToolResult:
    return types.CallToolResult(
        content=[types.TextContent(type="text", text=contract.dumps(response))],
        structured_content=response,
        is_error="error" in response,
    )


def mcp_server(work: Work) -> Server[Any]:
    """The MCP server of the tools; the scoring runs in `work`'s threads."""

    async def list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
        return types.ListToolsResult(tools=tool_list())

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        arguments = params.arguments or {}
        if params.name == "execute":
            tool_id, version = arguments.get("id"), arguments.get("version")
            request = arguments.get("input")
        else:
            tool_id, version = params.name, _version_of(params.name)
            request = arguments
        try:
            found = tools.tool(str(tool_id), str(version))
        except tools.UnknownTool as error:
            error_answer = {"error": {"code": "not_found", "message": str(error)}}
            return answer_of(error_answer)
        return answer_of(await work.run(found.evaluate, request))

    return Server(
        "chrf",
        version=__version__,
        instructions="Exact chrF and chrF++ of machine translation output: the chrf-components "
        "contract and its related tools.",
        on_list_tools=list_tools,
        on_call_tool=call_tool,
    )


def _version_of(tool_id: str) -> str:
    return next((t.version for t in tools.TOOLS if t.id == tool_id), "")


def mcp_app(
    work: Work,
) -> tuple[StreamableHTTPASGIApp, Callable[[Any], AbstractAsyncContextManager[None]]]:
    """The streamable HTTP endpoint (stateless, JSON answers), and the lifespan that runs its
    session manager. Bound to loopback, it accepts loopback Host and Origin headers only (DNS
    rebinding protection)."""
    security = None
    if not work.limits.public:
        security = TransportSecuritySettings(
            enable_dns_rebinding_protection=True,
            allowed_hosts=["127.0.0.1:*", "localhost:*", "[::1]:*"],
            allowed_origins=["http://127.0.0.1:*", "http://localhost:*", "http://[::1]:*"],
        )
    manager = StreamableHTTPSessionManager(
        app=mcp_server(work),
        json_response=True,
        stateless=True,
        security_settings=security,
        max_request_body_size=work.limits.max_body_bytes,
    )

    @asynccontextmanager
    async def lifespan(app: Any) -> AsyncIterator[None]:
        async with manager.run():
            yield

    return StreamableHTTPASGIApp(manager), lifespan


def serve_stdio() -> None:
    """`chrf mcp`: the tools over standard input and output until the client closes them."""
    from mcp.server.stdio import stdio_server

    server = mcp_server(Work(Limits()))

    async def run() -> None:
        async with stdio_server() as (read, write):
            await server.run(read, write, server.create_initialization_options())

    anyio.run(run)
