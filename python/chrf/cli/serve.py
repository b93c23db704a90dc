"""`chrf serve` (the tools over HTTP and MCP, run by uvicorn) and `chrf mcp` (the tools over
MCP's stdio transport): docs/service.md. Both need the ``serve`` extra."""

from __future__ import annotations

import argparse
import os
from collections.abc import Sequence
from typing import Any

from chrf.cli.io import CliError, Parser
from chrf.cli.values import positive_int

__all__ = ["mcp_command", "serve_command"]

EXTRA = "pip install 'chrf[serve]'"


def port_number(text: str) -> int:
    """A TCP port, 0 to 65535 (0: any free one)."""
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be an integer, not {text!r}") from None
    if not 0 <= port <= 65_535:
        raise argparse.ArgumentTypeError(f"must be from 0 to 65535, not {port}")
    return port


def serve_parser() -> argparse.ArgumentParser:
    p = Parser(
        allow_abbrev=False,
        prog="chrf serve",
        description="Serve the chrf-components contract and its related tools over HTTP "
        "(and MCP at /mcp). Binds to loopback unless --host says otherwise; no CORS; no file "
        "is read or written. Needs the serve extra: " + EXTRA + ".",
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
    )
    p.add_argument("--host", default="127.0.0.1", help="address to bind (0.0.0.0: every one)")
    p.add_argument(
        "--port", type=port_number, default=8000, help="port to listen on (0: any free one)"
    )
    p.add_argument("--workers", type=positive_int, default=1, help="worker processes")
    p.add_argument(
        "--max-body-bytes",
        type=positive_int,
        default=2**20,
        metavar="N",
        help="a larger request body is refused (413) before it is read whole",
    )
    p.add_argument(
        "--request-timeout",
        type=float,
        default=10.0,
        metavar="SECONDS",
        help="time to receive a request's head (else the connection is closed), and then its "
        "body (else 408)",
    )
    p.add_argument(
        "--concurrency",
        type=positive_int,
        default=None,
        metavar="N",
        help="requests scored at once per worker (default: the CPUs, at most 8)",
    )
    p.add_argument(
        "--max-waiting",
        type=int,
        default=256,
        metavar="N",
        help="requests waiting to be scored per worker, beyond which 503",
    )
    p.add_argument(
        "--max-connections",
        type=positive_int,
        default=1024,
        metavar="N",
        help="open connections and requests per worker, beyond which 503",
    )
    p.add_argument(
        "--log-level", default="info", choices=["critical", "error", "warning", "info", "debug"]
    )
    return p


def serve_command(argv: Sequence[str]) -> int:
    parser = serve_parser()
    args = parser.parse_args(argv)
    try:
        import uvicorn

        import chrf.serve.mcp  # noqa: F401 (each worker imports it: missing, say so here)
        from chrf.serve.limits import ENVIRONMENT, Limits
    except ImportError as error:
        raise CliError(f"chrf serve needs the serve extra ({error}): {EXTRA}") from None
    try:
        limits = Limits(
            max_body_bytes=args.max_body_bytes,
            request_timeout=args.request_timeout,
            max_waiting=args.max_waiting,
            public=args.host not in ("127.0.0.1", "localhost", "::1"),
            **({"concurrency": args.concurrency} if args.concurrency else {}),
        )
    except ValueError as error:
        parser.error(str(error).replace("_", "-"))
    os.environ[ENVIRONMENT] = limits.to_environment()  # read by each worker process
    try:
        run(uvicorn, args)
    except SystemExit as stop:  # uvicorn's own exit when it cannot bind or start
        if stop.code not in (0, None):
            raise CliError(
                f"the server could not start or stopped (status {stop.code}): its log says why"
            ) from None
    return 0


def run(uvicorn: Any, args: argparse.Namespace) -> None:
    from chrf.serve.protocol import TimedH11Protocol

    uvicorn.run(
        "chrf.serve.app:create_app_from_environment",
        factory=True,
        host=args.host,
        port=args.port,
        workers=args.workers,
        limit_concurrency=args.max_connections,
        timeout_keep_alive=5,
        log_level=args.log_level,
        server_header=False,
        http=TimedH11Protocol,
    )


def mcp_parser() -> argparse.ArgumentParser:
    """`chrf mcp` takes no arguments, but answers --help."""
    return Parser(
        allow_abbrev=False,
        prog="chrf mcp",
        description="Serve the chrf-components contract and its related tools as MCP tools "
        "over standard input and output, for a desktop agent to start. Needs the serve "
        "extra: " + EXTRA + ".",
    )


def mcp_command(argv: Sequence[str]) -> int:
    mcp_parser().parse_args(argv)
    try:
        from chrf.serve.mcp import serve_stdio
    except ImportError as error:
        raise CliError(f"chrf mcp needs the serve extra ({error}): {EXTRA}") from None
    serve_stdio()
    return 0
