"""A property-based fuzz of the HTTP API from its own OpenAPI document (schemathesis), against a
real `chrf serve`: no 5xx, every answer within the schema its status declares, and every request
that breaks the input schema refused (4xx)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, settings

from service_server import service_url  # noqa: F401 (the shared server, a fixture)

schemathesis = pytest.importorskip("schemathesis")

from chrf.serve.limits import Limits  # noqa: E402 (needs the serve extra, as schemathesis)
from chrf.serve.openapi import openapi_document  # noqa: E402

SCHEMA = schemathesis.openapi.from_dict(openapi_document(Limits()))
CHECKS = [
    schemathesis.checks.not_a_server_error,
    schemathesis.checks.status_code_conformance,
    schemathesis.checks.content_type_conformance,
    schemathesis.checks.response_schema_conformance,
    schemathesis.checks.negative_data_rejection,
]


@pytest.fixture(scope="module")
def base_url(service_url: str) -> str:  # noqa: F811 (the fixture imported above)
    return service_url


@SCHEMA.parametrize()
@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
def test_the_api_answers_every_generated_request_within_its_schema(
    case: schemathesis.Case, base_url: str
) -> None:
    case.call_and_validate(base_url=base_url, checks=CHECKS)
