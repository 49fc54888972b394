"""What an event stream reads. Its reader is settled once, when the stream opens: a seat by its token or by a
stream ticket (``service/tickets.py``), the spectator with neither. From then on the stream reads the view
and the events as that reader, so a stream opened with a ticket runs on after the ticket expires."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from domain.kernel.redaction import Perspective
from service import tickets
from service.aggregate import Game
from service.errors import BadRequest
from service.games import GameService
from service.views import view_of


def reader_of(service: GameService, game_id: UUID, token: str | None, ticket: str | None) -> Perspective:
    """The seat of a token or a ticket, the spectator for neither; a wrong one is refused (401/403)."""
    if token and ticket is not None:
        raise BadRequest("open a stream with a seat token (Authorization header) or a ticket, not both")
    if ticket is not None:
        return tickets.check(service, game_id, ticket)
    return service.perspective_of(game_id, token)


def view_as(service: GameService, game_id: UUID, who: Perspective) -> dict[str, Any]:
    return service._read(game_id, lambda game: view_of(game, who))


def events_as(service: GameService, game_id: UUID, who: Perspective, after: int, limit: int) -> tuple[list[dict[str, Any]], int]:
    """Up to ``limit`` events after seq ``after`` as ``who`` may see them, and the game's seq."""

    def read(game: Game) -> tuple[list[dict[str, Any]], int]:
        last = min(game.seq, after + limit)
        return service._answer(game, after + 1, last, who) if after < last else [], game.seq

    return service._read(game_id, read)
