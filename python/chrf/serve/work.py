"""Scoring off the event loop under the service's limits, and the service's own refusals."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import anyio
import anyio.to_thread
from starlette.responses import Response

from chrf import contract
from chrf.serve.limits import Limits

__all__ = ["JSON", "ServiceError", "Work", "error_response", "json_response"]

JSON = "application/json"


class ServiceError(Exception):
    """A refusal of the service itself, answered as ``{"error": {"code", "message"}}``."""

    def __init__(
        self, status: int, code: str, message: str, headers: dict[str, str] | None = None
    ) -> None:
        super().__init__(message)
        self.status, self.code, self.headers = status, code, headers


def json_response(
    value: dict[str, Any], status: int = 200, headers: dict[str, str] | None = None
) -> Response:
    return Response(contract.dumps(value), status, headers, media_type=JSON)


def error_response(error: ServiceError) -> Response:
    body = {"error": {"code": error.code, "message": str(error)}}
    return json_response(body, error.status, error.headers)


class Work:
    """Scoring in worker threads, `Limits.concurrency` at once, at most `Limits.max_waiting`
    more waiting; beyond that a request is refused at once (503), so that a burst cannot queue
    without bound. A thread runs to its end even when its client has gone."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.admitted = 0
        self._limiter: anyio.CapacityLimiter | None = None

    async def run(self, function: Callable[..., dict[str, Any]], *args: Any) -> dict[str, Any]:
        if self.admitted >= self.limits.concurrency + self.limits.max_waiting:
            raise ServiceError(
                503,
                "busy",
                "the service is at its limit of concurrent work; retry shortly",
                {"Retry-After": "1"},
            )
        if self._limiter is None:  # made in the event loop, which anyio needs
            self._limiter = anyio.CapacityLimiter(self.limits.concurrency)
        self.admitted += 1
        try:
            return await anyio.to_thread.run_sync(function, *args, limiter=self._limiter)
        finally:
            self.admitted -= 1
