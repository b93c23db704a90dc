"""The ASGI application: routes, the body read under its limits, scoring off the event loop.

Every answer is JSON. An execute route answers exactly ``chrf.contract.dumps`` of what
`chrf.tools.execute_json` answers for the body (200 for a result, 422 for ``invalid_input``);
the service's own refusals are error objects too, with their HTTP status (docs/service.md).
Nothing here reads or writes a file, and there is no CORS: browsers keep other origins out.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractAsyncContextManager

import anyio
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from chrf import tools
from chrf._messages import shown
from chrf.serve.limits import Limits
from chrf.serve.work import JSON, ServiceError, Work, error_response, json_response

__all__ = ["create_app", "create_app_from_environment"]


def check_content_type(request: Request) -> None:
    media = request.headers.get("content-type", "").split(";", 1)[0].strip().lower()
    if media != JSON and not (media.startswith("application/") and media.endswith("+json")):
        raise ServiceError(
            415,
            "invalid_input",
            f"the body must be JSON sent with Content-Type {JSON}, not {shown(media or None)}",
        )


def too_large(limit: int) -> ServiceError:
    return ServiceError(
        413, "invalid_input", f"input must be at most {limit} bytes, the most this service reads"
    )


async def read_body(request: Request, limits: Limits) -> bytes:
    """The body, refused (413) as soon as it is known to be over the limit: from its declared
    length before a byte is read, else while it streams in; 408 when it takes too long."""
    declared = request.headers.get("content-length", "")
    # A length of more digits than any limit is refused unconverted (int() of thousands of digits
    # raises); the HTTP parser has checked that it is digits.
    if declared.isdigit() and (len(declared) > 18 or int(declared) > limits.max_body_bytes):
        raise too_large(limits.max_body_bytes)
    chunks: list[bytes] = []
    size = 0
    try:
        with anyio.fail_after(limits.request_timeout):
            async for chunk in request.stream():
                size += len(chunk)
                if size > limits.max_body_bytes:
                    raise too_large(limits.max_body_bytes)
                chunks.append(chunk)
    except TimeoutError:
        raise ServiceError(
            408, "timeout", f"the request body did not arrive within {limits.request_timeout} s"
        ) from None
    except ClientDisconnect:  # nobody reads the answer: one to close the exchange with
        raise ServiceError(400, "invalid_input", "the client went away mid-request") from None
    return b"".join(chunks)


class BodyReadFirst:
    """An ASGI app given each POST body read under the service's limits (413, 408), whole, as
    one message: the MCP SDK reads bodies without a deadline of its own. (A class, so that
    Starlette's Route calls it as an ASGI app, not as a request handler.)"""

    def __init__(self, app: ASGIApp, limits: Limits) -> None:
        self.app, self.limits = app, limits

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "POST":
            await self.app(scope, receive, send)
            return
        try:
            body = await read_body(Request(scope, receive), self.limits)
        except ServiceError as error:
            await error_response(error)(scope, receive, send)
            return
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if replayed:
                return await receive()  # after the body: the disconnect, if it comes
            replayed = True
            return {"type": "http.request", "body": body, "more_body": False}

        await self.app(scope, replay, send)


def known_tool(request: Request) -> tuple[str, str]:
    tool_id, version = request.path_params["tool_id"], request.path_params["version"]
    try:
        tools.tool(tool_id, version)
    except tools.UnknownTool as error:
        raise ServiceError(404, "not_found", str(error)) from None
    return tool_id, version


def routes(limits: Limits, work: Work) -> list[BaseRoute]:
    async def execute(request: Request) -> Response:
        tool_id, version = known_tool(request)
        check_content_type(request)
        body = await read_body(request, limits)
        response = await work.run(tools.execute_json, tool_id, version, body)
        return json_response(response, 200 if "result" in response else 422)

    async def document(request: Request) -> Response:
        return json_response(tools.document(*known_tool(request)))

    async def index(request: Request) -> Response:
        return json_response(tools.index())

    async def healthz(request: Request) -> Response:
        return json_response({"status": "ok"})

    async def openapi(request: Request) -> Response:
        from chrf.serve.openapi import openapi_document

        return json_response(openapi_document(limits))

    tool = "/v1/tools/{tool_id}/versions/{version}"
    return [
        Route("/v1/tools", index, methods=["GET"]),
        Route(tool, document, methods=["GET"]),
        Route(f"{tool}/execute", execute, methods=["POST"]),
        Route("/healthz", healthz, methods=["GET"]),
        Route("/openapi.json", openapi, methods=["GET"]),
    ]


async def http_error(request: Request, error: Exception) -> Response:
    assert isinstance(error, HTTPException)
    code = {404: "not_found", 405: "method_not_allowed"}.get(error.status_code, "invalid_input")
    return error_response(
        ServiceError(error.status_code, code, str(error.detail), dict(error.headers or {}))
    )


async def service_error(request: Request, error: Exception) -> Response:
    assert isinstance(error, ServiceError)
    return error_response(error)


async def internal_error(request: Request, error: Exception) -> Response:
    """A defect, answered as an error object (the traceback goes to the server's log)."""
    message = f"internal error, please report it: {type(error).__name__}"
    return error_response(ServiceError(500, "internal_error", message))


def create_app(limits: Limits | None = None, *, mcp: bool = True) -> Starlette:
    """The service: the tools' routes under `limits`, and with `mcp` their MCP tools over
    streamable HTTP at ``/mcp``."""
    limits = limits or Limits()
    work = Work(limits)
    table = routes(limits, work)
    lifespan: Callable[[Starlette], AbstractAsyncContextManager[None]] | None = None
    if mcp:
        from chrf.serve.mcp import mcp_app

        endpoint, lifespan = mcp_app(work)
        table.append(
            Route("/mcp", BodyReadFirst(endpoint, limits), methods=["GET", "POST", "DELETE"])
        )
    return Starlette(
        routes=table,
        exception_handlers={
            HTTPException: http_error,
            ServiceError: service_error,
            Exception: internal_error,
        },
        lifespan=lifespan,
    )


def create_app_from_environment() -> Starlette:
    """The app of `chrf serve`'s worker processes: the limits come from the environment."""
    return create_app(Limits.from_environment())
