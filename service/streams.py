"""What an event stream reads. Its reader is settled once, when the stream opens: a seat by its token or by a
stream ticket (``service/tickets.py``), the spectator with neither. From then on the stream reads the view
and the events as that reader, so a stream opened with a ticket runs on after the ticket expires."""

from __future__ import annotations

from uuid import UUID

from domain.kernel.redaction import Perspective
from service import tickets
from service.errors import BadRequest
from service.games import GameService


def reader_of(service: GameService, game_id: UUID, token: str | None, ticket: str | None) -> Perspective:
    """The seat of a token or a ticket, the spectator for neither; a wrong one is refused (401/403)."""
    if token and ticket is not None:
        raise BadRequest("open a stream with a seat token (Authorization header) or a ticket, not both")
    if ticket is not None:
        return tickets.check(service, game_id, ticket)
    return service.perspective_of(game_id, token)
