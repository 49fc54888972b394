"""schemathesis against /api/openapi.json: no 5xx, and every response matches the documented statuses,
content types, headers and schemas (issue: fault and abuse tests).

Requests the schema allows but the rules refuse (a variant that does not exist, 2 seats, ...) are answered
with documented 400/422 problems; so the check that every schema-valid request is accepted is not run."""

from __future__ import annotations

import tempfile

import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis import checks

from benchmarks.harness import UNTHROTTLED
from tests.conftest import make_app

_TMP = tempfile.mkdtemp(prefix="aegis-schemathesis-")
# one app for every case, all from one address: schemathesis sends hundreds of games to create, far beyond the default
# rate limit, so the limit is set above that explicitly (tests/api/test_rate_limits.py checks the 429 against the document)
APP = make_app(
    {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": f"{_TMP}/api.sqlite", "AEGIS_DATA_DIR": _TMP},
    **UNTHROTTLED,
)
schema = schemathesis.openapi.from_wsgi("/api/openapi.json", APP)
CHECKS = [
    checks.not_a_server_error,
    checks.status_code_conformance,
    checks.content_type_conformance,
    checks.response_headers_conformance,
    checks.response_schema_conformance,
    checks.unsupported_method,
]


@schema.parametrize()
@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
def test_every_documented_route_answers_as_documented(case):
    response = case.call_and_validate(checks=CHECKS)
    assert response.status_code < 500
    if response.status_code >= 400:  # every refusal is an RFC 7807 problem
        assert response.headers["content-type"][0].startswith("application/problem+json"), response.headers
