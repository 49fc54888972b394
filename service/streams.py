"""What an event stream reads. Its reader is settled once, when the stream opens: a seat by its token or by a
stream ticket (``service/tickets.py``), the spectator with neither. From then on the stream reads the view
and the events as that reader, so a stream opened with a ticket runs on after the ticket expires."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from uuid import UUID

from domain.kernel.redaction import Perspective
from service import tickets
from service.aggregate import Game
from service.errors import BadRequest
from service.games import GameService


def reader_of(service: GameService, game_id: UUID, token: str | None, ticket: str | None) -> Perspective:
    """The seat of a token or a ticket, the spectator for neither; a wrong one is refused (401/403)."""
    if token and ticket is not None:
        raise BadRequest("open a stream with a seat token (Authorization header) or a ticket, not both")
    if ticket is not None:
        return tickets.check(service, game_id, ticket)
    return service.perspective_of(game_id, token)


def read_new(
    service: GameService, game_id: UUID, wanted: Mapping[Perspective, int], limit: int
) -> tuple[dict[Perspective, list[dict[str, Any]]], int, int | None]:
    """For each reader, up to ``limit`` events after its seq as it may see them, all from ONE read of the game
    (one lock, one load), with the game's seq and the seq that ended it (None while it goes on). A process
    that holds many streams of a game reads it once per notice and redacts once per perspective."""

    def read(game: Game) -> tuple[dict[Perspective, list[dict[str, Any]]], int, int | None]:
        out = {who: service._events(game, who, after, limit)[0] for who, after in wanted.items()}
        return out, game.seq, game.finished_seq

    return service._read(game_id, read)
