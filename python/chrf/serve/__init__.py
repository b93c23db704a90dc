"""`chrf serve`: the contract and its related tools over HTTP and MCP (docs/service.md).

``create_app(limits)`` is the ASGI application (Starlette); ``chrf serve`` runs it with uvicorn,
and ``chrf mcp`` serves the same tools over MCP's stdio transport. Needs the ``serve`` extra:
``pip install 'chrf[serve]'``.
"""

from __future__ import annotations

from chrf.serve.app import create_app, create_app_from_environment
from chrf.serve.limits import Limits

__all__ = ["Limits", "create_app", "create_app_from_environment"]
