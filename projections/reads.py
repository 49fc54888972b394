"""Reads served from the projections: the lobby list, registered players' records and games.

A projection is read only when the view store has applied every stored event (its position is the store's last
notification id), so a read is never older than the events; while it is behind, the read waits a little for the
worker. A game's view is not projected: the service computes it on read (``GameService.view``), from the events.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from aegis.projections import lobby
from aegis.projections.store import Moved, ViewStore
from aegis.projections.views import LOBBY, PLAYERS, player_games_key
from aegis.projections.worker import Worker
from aegis.service import names
from aegis.service.errors import ProjectionsUnavailable
from aegis.service.games import GameService

log = logging.getLogger(__name__)


class ProjectedReads:
    def __init__(self, service: GameService, store: ViewStore, worker: Worker | None, wait: float = 0.5):
        self.service = service
        self.store = store
        self.worker = worker  # in-process worker (embedded), or None when a separate worker runs
        self.wait = wait

    def fresh(self) -> bool:
        """Has the view store applied every stored event? (Catch up first when the worker is ours.)"""
        latest = self.service.store.recorder.max_notification_id() or 0
        if self.worker is not None:
            self.worker.catch_up_unless_busy()
        deadline = time.monotonic() + self.wait
        while self.store.position() < latest:
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.005)
        return True

    def lobby(self, **query: Any) -> tuple[list[dict[str, Any]], int] | None:
        """One page of the lobby list and how many games match (``projections.lobby.select``'s arguments), or None
        when the projection cannot answer (Redis away, or behind)."""
        try:
            if not self.fresh():
                return None
            if self.store.indexed():
                try:
                    return self.store.consistent(lambda index: lobby.page(index, **query))
                except Moved:
                    log.info("the lobby index moved on during every read: answering from a scan")
            else:
                log.warning("the lobby rows have no index (projected before it existed): run aegis rebuild-projections")
            return lobby.select(list(self.store.hgetall(LOBBY).values()), **query)
        except Exception as err:
            log.warning("projected lobby failed: %s", err)
            return None

    def player(self, name: str) -> dict[str, Any] | None:
        """A registered player's record (None: no such player); ``Unavailable`` when the views do not answer."""
        return self._ask("the player records", lambda: self.store.hget(PLAYERS, names.key(name)))

    def players(self) -> list[dict[str, Any]]:
        """Every registered player's record."""
        return list(self._ask("the player records", lambda: self.store.hgetall(PLAYERS)).values())

    def player_games(self, name: str) -> list[dict[str, Any]]:
        """A registered player's finished games, in the order they ended."""
        found = self._ask("the player's games", lambda: self.store.hgetall(player_games_key(names.key(name))))
        return sorted(found.values(), key=lambda g: (g["finished_at"], g["id"]))

    def _ask(self, what: str, read: Any) -> Any:
        try:
            self.fresh()
            return read()
        except Exception as err:
            log.warning("projected read of %s failed: %s", what, err)
            raise ProjectionsUnavailable(
                f"{what} are projected in Redis, which does not answer; games can still be played"
            ) from None
