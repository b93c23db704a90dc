"""`chrf serve`: the contract and its related tools over HTTP and MCP (docs/service.md).

``chrf.serve.app.create_app(limits)`` is the ASGI application (Starlette), which ``chrf serve``
runs with uvicorn; ``chrf mcp`` serves the same tools over MCP's stdio transport
(``chrf.serve.mcp``). Needs the ``serve`` extra: ``pip install 'chrf[serve]'``. The package
itself imports nothing, so that its limits are checked before the frameworks load.
"""
