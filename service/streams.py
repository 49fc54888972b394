"""What an event stream reads. Its reader is settled once, when the stream opens: a seat by its token or by a
stream ticket (``service/tickets.py``), the spectator with neither. From then on the stream reads the view
and the events as that reader, so a stream opened with a ticket runs on after the ticket expires."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any, NamedTuple
from uuid import UUID

from aegis.domain.kernel.redaction import Perspective
from aegis.service import tickets
from aegis.service.aggregate import Game
from aegis.service.errors import BadRequest
from aegis.service.games import GameService


def reader_of(service: GameService, game_id: UUID, token: str | None, ticket: str | None) -> Perspective:
    """The seat of a token or a ticket, the spectator for neither; a wrong one is refused (401/403)."""
    if token and ticket is not None:
        raise BadRequest("open a stream with a seat token (Authorization header) or a ticket, not both")
    if ticket is not None:
        return tickets.check(service, game_id, ticket)
    return service.perspective_of(game_id, token)


class NewEvents(NamedTuple):
    """What one read of a game gives its streams: each reader's new events, the game's seq, the seq that ended it
    (None while it goes on) and, for the readers that asked, their view as of the game's seq."""

    events: dict[Perspective, list[dict[str, Any]]]
    seq: int
    ended: int | None
    views: dict[Perspective, dict[str, Any]]


def read_new(
    service: GameService,
    game_id: UUID,
    wanted: Mapping[Perspective, int],
    limit: int,
    views: Collection[Perspective] = (),
) -> NewEvents:
    """For each reader, up to ``limit`` events after its seq as it may see them, all from ONE read of the game
    (one lock, one load), with the view of each reader in ``views`` from the same read (so a view is never ahead
    of or behind the events read with it). A process that holds many streams of a game reads it once per notice
    and redacts once per perspective."""

    def read(game: Game) -> NewEvents:
        out = {who: service._events(game, who, after, limit)[0] for who, after in wanted.items()}
        seen = {who: service.views.view(game, who) for who in views}
        return NewEvents(out, game.seq, game.finished_seq, seen)

    return service.read(game_id, read)
