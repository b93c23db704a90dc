"""uvicorn's h11 protocol with a deadline for each request head: a connection that has not sent
a whole request head within `Limits.request_timeout` seconds of opening, or of its last answer,
is closed. uvicorn alone keeps such a connection open for as long as it trickles (a slowloris);
the body has its own deadline in the application (408)."""

from __future__ import annotations

import asyncio
from functools import cache

from uvicorn.protocols.http.h11_impl import H11Protocol

from chrf.serve.limits import Limits

__all__ = ["TimedH11Protocol"]


@cache
def _head_timeout() -> float:
    # Read in each worker process: `chrf serve` hands its limits over in the environment.
    return Limits.from_environment().request_timeout


class TimedH11Protocol(H11Protocol):
    """A deadline for every request head; everything else is uvicorn's."""

    _head_deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._await_head()

    def handle_events(self) -> None:
        cycle = self.cycle
        super().handle_events()
        if self.cycle is not cycle:  # a whole request head arrived: a new cycle began
            self._cancel_deadline()

    def on_response_complete(self) -> None:
        cycle = self.cycle
        super().on_response_complete()
        # A pipelined request may have begun its own cycle already; else wait for the next head.
        if self.cycle is cycle and not self.transport.is_closing():
            self._await_head()

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_deadline()
        super().connection_lost(exc)

    def _await_head(self) -> None:
        self._cancel_deadline()
        self._head_deadline = self.loop.call_later(_head_timeout(), self.transport.close)

    def _cancel_deadline(self) -> None:
        if self._head_deadline is not None:
            self._head_deadline.cancel()
            self._head_deadline = None
