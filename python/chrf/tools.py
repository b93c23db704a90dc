"""The contract and its related tools as named, versioned tools (docs/service.md): what
``chrf serve`` and ``chrf mcp`` serve, callable in-process too.

``execute(id, version, input)`` answers as the HTTP service and the MCP tools answer: the
``chrf-components`` 1.0.0 contract (spec §6, `chrf.contract`), ``chrf-compute`` 1.0.0 (exact chrF,
the corpus and each segment) and ``chrf-plus-plus-compute`` 1.0.0 (exact chrF++, with each
segment's word tokens). ``document(id, version)`` is a tool's machine-readable contract: its
input and output as JSON Schema (draft 2020-12), shipped in the package (``chrf/schemas/``).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from chrf import contract

__all__ = ["TOOLS", "Tool", "UnknownTool", "document", "execute", "execute_json", "index"]


class UnknownTool(LookupError):
    """No tool of this id and version."""


@dataclass(frozen=True)
class Tool:
    """A tool's id and version, and the function that answers its decoded JSON input."""

    id: str
    version: str
    evaluate: Callable[[object], dict[str, Any]]


def _compute(request: object) -> dict[str, Any]:
    from chrf._related import COMPUTE

    return COMPUTE.evaluate(request)


def _plus_plus_compute(request: object) -> dict[str, Any]:
    from chrf._related import PLUS_PLUS_COMPUTE

    return PLUS_PLUS_COMPUTE.evaluate(request)


TOOLS = (
    Tool("chrf-components", "1.0.0", contract.evaluate),
    Tool("chrf-compute", "1.0.0", _compute),
    Tool("chrf-plus-plus-compute", "1.0.0", _plus_plus_compute),
)
"""Every tool served, the contract first."""


def tool(tool_id: str, version: str) -> Tool:
    """The tool of this id and version, or UnknownTool."""
    for known in TOOLS:
        if (known.id, known.version) == (tool_id, version):
            return known
    raise UnknownTool(f"no tool {tool_id!r} of version {version!r}; GET /v1/tools lists them")


@cache
def _document_text(tool_id: str, version: str) -> str:
    name = f"{tool_id}-{version}.json"
    return resources.files("chrf").joinpath("schemas").joinpath(name).read_text(encoding="utf-8")


def document(tool_id: str, version: str) -> dict[str, Any]:
    """The tool's machine-readable contract: id, version, title, description, its execute
    route, and ``input_schema`` and ``output_schema`` (JSON Schema, draft 2020-12); the input
    schema's ``x-limits`` and ``x-validation-order`` are the limits and the order of checks."""
    tool(tool_id, version)
    found: dict[str, Any] = json.loads(_document_text(tool_id, version))
    return found


def index() -> dict[str, Any]:
    """Every tool with its versions and routes: what ``GET /v1/tools`` answers."""
    tools = []
    for known in TOOLS:
        doc = document(known.id, known.version)
        route = f"/v1/tools/{known.id}/versions/{known.version}"
        tools.append(
            {
                "id": known.id,
                "version": known.version,
                "title": doc["title"],
                "description": doc["description"],
                "contract": route,
                "execute": f"{route}/execute",
            }
        )
    return {"tools": tools}


def execute(tool_id: str, version: str, request: object) -> dict[str, Any]:
    """The tool's answer to a decoded JSON input: ``{"result": ...}`` or ``{"error": ...}``
    (never raises on bad input; UnknownTool for an unknown id or version)."""
    return tool(tool_id, version).evaluate(request)


def execute_json(tool_id: str, version: str, text: str | bytes) -> dict[str, Any]:
    """:func:`execute` on JSON text, read as strictly as `chrf.contract.evaluate_json` reads it."""
    found = tool(tool_id, version)
    if found.evaluate is contract.evaluate:
        return contract.evaluate_json(text)
    try:
        request = contract._loads(text)
    except contract.ContractError as error:
        return {"error": {"code": "invalid_input", "message": str(error)}}
    return found.evaluate(request)
