"""RFC 7807 problem+json for every refusal: the service's errors, malformed bodies, unknown routes."""

from __future__ import annotations

import logging
from typing import Any

from eventsourcing.persistence import PersistenceError
from flask import Flask, Response, request
from marshmallow import ValidationError
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge

from aegis.api import jsonio
from aegis.api.schemas import ProblemOut
from aegis.service import store_health
from aegis.service.errors import ServiceError

log = logging.getLogger(__name__)
PROBLEM = "application/problem+json"
_SCHEMA = ProblemOut()
RETRY_AFTER = 1  # seconds (service/postgres.py fails at once for as long after a failure, then tries again)


def problem(status: int, title: str, detail: str, kind: str, **extra: Any) -> Response:
    body = document(status, title, detail, kind, request.path, **extra)
    return jsonio.response(body, status, PROBLEM)


def document(status: int, title: str, detail: str, kind: str, instance: str, **extra: Any) -> dict[str, Any]:
    """The problem+json body (also written outside Flask, by the asynchronous stream route)."""
    body = {"type": f"/api/problems/{kind}", "title": title, "status": status, "detail": detail, "instance": instance}
    body.update({k: v for k, v in extra.items() if v is not None})  # no rule named: no 'rule' (never a null)
    return _SCHEMA.dump(body)


def of_error(err: BaseException, instance: str) -> tuple[int, dict[str, Any], dict[str, str]] | None:
    """Status, problem body and headers for a refusal of the service or an unavailable store, as the Flask
    handlers below answer them; None for anything else (a bug: answer 500)."""
    if isinstance(err, ServiceError):
        extra = dict(err.extra)
        kind = extra.pop("kind", err.kind)
        return err.status, document(err.status, err.title, err.detail, kind, instance, **extra), dict(err.headers)
    if isinstance(err, PersistenceError):
        reason = store_health.cause(err)
        if reason is not None:
            detail = f"{store_health.WORDS[reason]}: nothing was changed; {store_health.FIX[reason]}"
            return 503, document(503, "Service unavailable", detail, f"store-{reason}", instance), {}
        detail = "the event store does not answer; nothing was changed, try again"
        return 503, document(503, "Service unavailable", detail, "unavailable", instance), {"Retry-After": str(RETRY_AFTER)}
    return None


def store_unavailable(err: BaseException | None = None) -> Response:
    """503: the event store does not answer (or did not a moment ago): try again after ``Retry-After``; or it
    cannot be written (a full disk, a read-only database), which retrying will not mend: the problem says which."""
    reason = store_health.cause(err) if err is not None else None
    if reason is not None:
        detail = f"{store_health.WORDS[reason]}: nothing was changed; {store_health.FIX[reason]}"
        return problem(503, "Service unavailable", detail, f"store-{reason}")
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
        response = problem(err.status, err.title, err.detail, kind, **extra)
        response.headers.update(err.headers)
        return response

    @app.errorhandler(ValidationError)
    def _invalid(err: ValidationError) -> Response:
        messages = dict(err.messages) if isinstance(err.messages, dict) else {"_schema": err.messages}
        # what is wrong with the body as a whole (two fields that exclude each other) is said in words, not under
        # marshmallow's own "_schema" key
        whole = messages.pop("_schema", [])
        said = [str(m) for m in (whole if isinstance(whole, list) else [whole])]
        if messages:
            said.append(f"invalid field(s): {', '.join(sorted(messages))}")
        return problem(400, "Malformed request", "; ".join(said), "malformed", errors=messages)

    @app.errorhandler(PersistenceError)
    def _store_unavailable(err: PersistenceError) -> Response:
        log.warning("event store error on %s %s: %s", request.method, request.path, err)
        return store_unavailable(err)

    @app.errorhandler(RequestEntityTooLarge)
    def _too_large(err: RequestEntityTooLarge) -> Response:
        limit = app.config.get("MAX_CONTENT_LENGTH")
        return problem(413, "Body too large", f"a request body may hold at most {limit} bytes (AEGIS_MAX_BODY)", "too-large")

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
