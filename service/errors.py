"""Refusals of the service, as data. ``api/`` turns each into an RFC 7807 problem with its status."""

from __future__ import annotations

from typing import Any, ClassVar

from aegis.domain.kernel.errors import DomainError, GameOver, MalformedCommand, NothingThere, NotYourTurn, TooLate


class ServiceError(Exception):
    status = 400
    kind = "bad-request"
    title = "Bad request"
    headers: ClassVar[dict[str, str]] = {}  # sent with the problem (e.g. Retry-After)

    def __init__(self, detail: str, **extra: Any):
        super().__init__(detail)
        self.detail = detail
        self.extra = extra


class BadRequest(ServiceError):
    status, kind, title = 400, "malformed", "Malformed request"


class Unauthorized(ServiceError):
    status, kind, title = 401, "unauthorized", "Missing or unknown token"


class Forbidden(ServiceError):
    status, kind, title = 403, "forbidden", "Not yours to do"


class NotFound(ServiceError):
    status, kind, title = 404, "not-found", "Not found"


class Conflict(ServiceError):
    status, kind, title = 409, "conflict", "Conflict"


class Illegal(ServiceError):
    status, kind, title = 422, "illegal", "Illegal by the rules"


class Unavailable(ServiceError):
    status, kind, title = 503, "unavailable", "Service unavailable"


class ProjectionsUnavailable(Unavailable):
    """Redis, which holds the projections, does not answer: it comes back by itself, so try again shortly."""

    headers: ClassVar[dict[str, str]] = {"Retry-After": "1"}


def from_domain(err: DomainError, *, raced: bool = False) -> ServiceError:
    """Map a ruleset refusal to the service's answer. ``raced``: the game moved on while the command
    waited, so a refusal is a conflict with another command rather than the caller's mistake."""
    extra = {"rule": err.rule, "prompts": err.prompts}
    if isinstance(err, NothingThere):
        return NotFound(err.message, rule=err.rule)
    if isinstance(err, MalformedCommand):
        return BadRequest(err.message, rule=err.rule, **({"errors": err.errors} if err.errors else {}))
    if isinstance(err, GameOver):
        return Conflict(err.message, rule=err.rule)
    if isinstance(err, TooLate):
        return Conflict(err.message, **extra)
    if raced:
        return Conflict(f"the game moved on while your command waited: {err.message}", **extra)
    if isinstance(err, NotYourTurn):
        return Forbidden(err.message, **extra)
    return Illegal(err.message, **extra)
