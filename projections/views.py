"""The projector: stored game events in, views out. Derived only from events.

For every game an event touches it writes: a view per seat and one for spectators (the same
``service.views.view_of`` the API computes), the game's row in the lobby, and per-player statistics.
It folds each game's events into a ``Game`` aggregate in memory; after a restart a game it has not
seen yet is loaded from the store at the version just before the first event it must apply.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from uuid import UUID

from eventsourcing.application import Application
from eventsourcing.persistence import Notification

from domain.kernel.redaction import SPECTATOR
from projections.stats import STATS
from projections.store import PREFIX, Batch
from service.aggregate import Game
from service.views import summary_of, view_of

LOBBY = PREFIX + "lobby"


def view_key(game_id: str, who: int | str) -> str:
    return f"{PREFIX}view:{game_id}:{'spectator' if who == SPECTATOR else f'seat:{who}'}"


def seats_key(game_id: str) -> str:
    return f"{PREFIX}seats:{game_id}"


def stats_key(player: str) -> str:
    return f"{PREFIX}stats:{player}"


class Projector:
    def __init__(self, app: Application):
        self.app = app
        self.games: dict[UUID, Game] = {}

    def forget(self) -> None:
        self.games.clear()

    def project(self, notifications: Sequence[Notification]) -> Batch:
        """The writes for a run of notifications (in order)."""
        batch = Batch()
        touched: dict[UUID, Game] = {}
        for n in notifications:
            event = self.app.mapper.to_domain_event(n)
            gid = UUID(str(event.originator_id))
            game = self.games.get(gid)
            if game is None and event.originator_version > 1:
                game = self.app.repository.get(gid, version=event.originator_version - 1)
            if isinstance(event, Game.Recorded) and game is not None:
                self._count(batch, game, event.payload)
            game = event.mutate(game)
            self.games[gid] = game
            touched[gid] = game
        for gid, game in touched.items():
            self._views(batch, game)
            if game.status == "finished":
                self.games.pop(gid, None)  # its views are final
        return batch

    def _count(self, batch: Batch, game: Game, payload: dict[str, Any]) -> None:
        counter = STATS.get(game.ruleset)
        if counter is None or game.config is None:
            return
        names = [s["name"] for s in game.seats]
        for player, field in counter(game.state, payload, names):
            batch.incr(stats_key(player), field)

    def _views(self, batch: Batch, game: Game) -> None:
        gid = str(game.id)
        batch.set(view_key(gid, SPECTATOR), view_of(game, SPECTATOR))
        for s in game.seats:
            batch.set(view_key(gid, s["seat"]), view_of(game, s["seat"]))
            if s["token_hash"]:
                batch.hset(seats_key(gid), s["token_hash"], s["seat"])  # hashes only: tokens are never stored
        batch.hset(LOBBY, gid, summary_of(game))
