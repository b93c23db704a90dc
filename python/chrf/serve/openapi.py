"""The service's OpenAPI 3.1 document, built from the tools' JSON Schema documents: each
execute route takes the tool's input schema and answers its output schema."""

from __future__ import annotations

from typing import Any

from chrf import __version__, tools
from chrf.serve.limits import Limits

__all__ = ["openapi_document"]

SERVICE_ERROR = {
    "type": "object",
    "additionalProperties": False,
    "required": ["error"],
    "properties": {
        "error": {
            "type": "object",
            "additionalProperties": False,
            "required": ["code", "message"],
            "properties": {
                "code": {
                    "enum": [
                        "invalid_input",
                        "timeout",
                        "busy",
                        "not_found",
                        "method_not_allowed",
                        "internal_error",
                    ]
                },
                "message": {"type": "string"},
            },
        }
    },
}
ANY_OBJECT = {"type": "object"}


def answer(description: str, schema: dict[str, Any]) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def schema_of(schema: dict[str, Any]) -> dict[str, Any]:
    """A JSON Schema document as an OpenAPI 3.1 schema object: without its own ``$schema`` and
    ``$id``, which would make it a separate resource."""
    return {key: value for key, value in schema.items() if key not in ("$schema", "$id")}


def tool_paths(tool: tools.Tool, limits: Limits) -> dict[str, Any]:
    doc = tools.document(tool.id, tool.version)
    route = f"/v1/tools/{tool.id}/versions/{tool.version}"
    output = schema_of(doc["output_schema"])
    execute = {
        "operationId": f"execute-{tool.id}-{tool.version}",
        "summary": doc["title"],
        "description": doc["description"],
        "requestBody": {
            "required": True,
            "content": {"application/json": {"schema": schema_of(doc["input_schema"])}},
        },
        "responses": {
            "200": answer("the result", output),
            "422": answer("invalid_input: the first field that fails, named", output),
            "408": answer(
                f"the body took over {limits.request_timeout} s to arrive", SERVICE_ERROR
            ),
            "413": answer(
                f"a body over {limits.max_body_bytes} bytes, refused unread", SERVICE_ERROR
            ),
            "415": answer("a Content-Type other than application/json", SERVICE_ERROR),
            "503": answer(
                "busy: concurrent work at its limit; retry after Retry-After", SERVICE_ERROR
            ),
        },
    }
    contract_route = {
        "operationId": f"contract-{tool.id}-{tool.version}",
        "summary": f"{doc['title']}: the machine-readable contract",
        "responses": {"200": answer("the tool's JSON Schema document", ANY_OBJECT)},
    }
    return {route: {"get": contract_route}, f"{route}/execute": {"post": execute}}


def openapi_document(limits: Limits) -> dict[str, Any]:
    """The OpenAPI 3.1 document of every route but ``/mcp`` (MCP describes its own tools)."""
    paths: dict[str, Any] = {
        "/v1/tools": {
            "get": {
                "operationId": "tools",
                "summary": "every tool, its versions and routes",
                "responses": {"200": answer("the tools", ANY_OBJECT)},
            }
        },
        "/healthz": {
            "get": {
                "operationId": "healthz",
                "summary": "the service is up",
                "responses": {"200": answer("ok", ANY_OBJECT)},
            }
        },
    }
    for tool in tools.TOOLS:
        paths.update(tool_paths(tool, limits))
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "chrf service",
            "version": __version__,
            "description": "chrF and chrF++ as exact tools: the chrf-components contract and "
            "its related tools (docs/service.md).",
        },
        "jsonSchemaDialect": "https://json-schema.org/draft/2020-12/schema",
        "paths": paths,
    }
