"""RFC 7807 problem+json for every refusal: the service's errors, malformed bodies, unknown routes."""

from __future__ import annotations

import logging
from typing import Any

from eventsourcing.persistence import PersistenceError
from flask import Flask, Response, json, request
from marshmallow import ValidationError
from werkzeug.exceptions import HTTPException

from api.schemas import ProblemOut
from service.errors import ServiceError

log = logging.getLogger(__name__)
PROBLEM = "application/problem+json"
_SCHEMA = ProblemOut()
RETRY_AFTER = 1  # seconds (service/postgres.py fails at once for as long after a failure, then tries again)


def problem(status: int, title: str, detail: str, kind: str, **extra: Any) -> Response:
    body = {"type": f"/api/problems/{kind}", "title": title, "status": status, "detail": detail, "instance": request.path}
    body.update({k: v for k, v in extra.items() if v is not None or k == "rule"})
    return Response(json.dumps(_SCHEMA.dump(body)), status=status, mimetype=PROBLEM)


def store_unavailable() -> Response:
    """503 with ``Retry-After``: the event store does not answer (or did not a moment ago)."""
    response = problem(
        503, "Service unavailable", "the event store does not answer; nothing was changed, try again", "unavailable"
    )
    response.headers["Retry-After"] = str(RETRY_AFTER)
    return response


def install(app: Flask) -> None:
    @app.errorhandler(ServiceError)
    def _service(err: ServiceError) -> Response:
        extra = dict(err.extra)
        kind = extra.pop("kind", err.kind)
        return problem(err.status, err.title, err.detail, kind, **extra)

    @app.errorhandler(ValidationError)
    def _invalid(err: ValidationError) -> Response:
        messages = err.messages if isinstance(err.messages, dict) else {"_schema": err.messages}
        fields = ", ".join(sorted(messages))
        return problem(400, "Malformed request", f"invalid field(s): {fields}", "malformed", errors=messages)

    @app.errorhandler(PersistenceError)
    def _store_unavailable(err: PersistenceError) -> Response:
        log.warning("event store error on %s %s: %s", request.method, request.path, err)
        return store_unavailable()

    @app.errorhandler(HTTPException)
    def _http(err: HTTPException) -> Response:
        status = err.code or 500
        response = problem(status, err.name, err.description or err.name, "http-" + str(status))
        for name, value in err.get_headers():  # e.g. 405's Allow (RFC 9110), kept with the problem body
            if name.lower() != "content-type":
                response.headers[name] = value
        return response

    @app.errorhandler(Exception)
    def _unexpected(err: Exception) -> Response:  # pragma: no cover - a bug; logged with its traceback
        log.exception("unhandled error on %s %s", request.method, request.path)
        return problem(500, "Internal error", "the service failed; the error is logged", "internal")
