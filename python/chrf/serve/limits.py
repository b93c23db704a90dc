"""The service's limits (docs/service.md#limits): the request body, the time to receive it, and
the scoring work running and waiting at once."""

from __future__ import annotations

import os
from dataclasses import asdict, dataclass

__all__ = ["ENVIRONMENT", "Limits"]

#: How `chrf serve` hands its limits to each uvicorn worker process.
ENVIRONMENT = "CHRF_SERVE_LIMITS"


def _default_concurrency() -> int:
    return max(1, min(os.cpu_count() or 1, 8))


@dataclass(frozen=True)
class Limits:
    """``max_body_bytes``: a larger body is refused (413) before it is read whole; the default
    holds any valid request (its texts total 64 KiB, at most 384 KiB once JSON-escaped).
    ``request_timeout``: seconds to receive a request's head (else the connection is closed),
    and then its body (else 408). ``concurrency``: requests scored at once, each in a thread
    (the core releases the GIL); ``max_waiting``: requests waiting for one of those threads,
    beyond which a request is answered 503 at once. ``public``: bound to an address other than
    loopback, so MCP's Host check (against DNS rebinding) is off."""

    max_body_bytes: int = 2**20
    request_timeout: float = 10.0
    concurrency: int = _default_concurrency()
    max_waiting: int = 256
    #: Bound to an address other than loopback: MCP then accepts any Host header.
    public: bool = False

    def __post_init__(self) -> None:
        from chrf.contract import MAX_REQUEST_BYTES

        if not 1 <= self.max_body_bytes <= MAX_REQUEST_BYTES:
            raise ValueError(
                f"max_body_bytes must be from 1 to {MAX_REQUEST_BYTES}, not {self.max_body_bytes}"
            )
        if not self.request_timeout > 0:
            raise ValueError(f"request_timeout must be positive, not {self.request_timeout}")
        if self.concurrency < 1 or self.max_waiting < 0:
            raise ValueError("concurrency must be at least 1 and max_waiting at least 0")

    def to_environment(self) -> str:
        return ",".join(f"{key}={value}" for key, value in asdict(self).items())

    @classmethod
    def from_environment(cls) -> Limits:
        text = os.environ.get(ENVIRONMENT, "")
        values = dict(item.split("=", 1) for item in text.split(",") if item)
        return cls(
            max_body_bytes=int(values.get("max_body_bytes", cls.max_body_bytes)),
            request_timeout=float(values.get("request_timeout", cls.request_timeout)),
            concurrency=int(values.get("concurrency", _default_concurrency())),
            max_waiting=int(values.get("max_waiting", cls.max_waiting)),
            public=values.get("public") == "True",
        )
