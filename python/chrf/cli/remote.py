"""`chrf components --base-url URL`: the request sent to a running `chrf serve`, whose answer
is printed as the local evaluation prints it (the service answers `chrf.contract.dumps` of the
same response). Standard library only: the client needs no extra."""

from __future__ import annotations

import json
import urllib.error
import urllib.request

from chrf.cli.io import CliError

__all__ = ["remote_response"]

EXECUTE = "/v1/tools/chrf-components/versions/1.0.0/execute"
#: Seconds to wait for the service: a request of the contract's size scores in far less.
TIMEOUT = 60


def remote_response(base_url: str, request: bytes) -> str:
    """The service's answer, a contract response as one line of JSON; CliError when the service
    cannot be reached or answers something that is not a contract response."""
    if not base_url.startswith(("http://", "https://")):
        raise CliError(f"--base-url must start with http:// or https://, not {base_url!r}")
    url = base_url.rstrip("/") + EXECUTE
    sent = urllib.request.Request(
        url, data=request, method="POST", headers={"Content-Type": "application/json"}
    )
    try:
        with urllib.request.urlopen(sent, timeout=TIMEOUT) as answer:
            body: bytes = answer.read()
    except urllib.error.HTTPError as error:  # 4xx and 5xx: the body may be a contract error
        body = error.read()
        status = error.code
    except (urllib.error.URLError, OSError) as error:
        reason = getattr(error, "reason", error)
        raise CliError(f"cannot reach the service at {base_url}: {reason}") from None
    else:
        status = 200
    return _contract_text(body, status, url)


def _contract_text(body: bytes, status: int, url: str) -> str:
    try:
        text = body.decode("utf-8")
        parsed = json.loads(text)
    except ValueError:
        parsed = None
    if not isinstance(parsed, dict) or not ({"result"} == set(parsed) or "error" in parsed):
        raise CliError(f"{url} answered HTTP {status} without a contract response")
    return text
