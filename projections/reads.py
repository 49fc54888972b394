"""Reads served from the projections: views, the lobby list, registered players' records and games.

A projected view is served only when the view store has applied every stored event (its position is
the store's last notification id), so a read is never older than the events; while it is behind, the
read waits a little for the worker and then falls back to computing the view from the events. If the
view store is away (Redis down), reads fall back the same way: the events are the truth.
"""

from __future__ import annotations

import logging
import time
from typing import Any
from uuid import UUID

from eventsourcing.persistence import PersistenceError

from domain.kernel.redaction import SPECTATOR
from projections.store import ViewStore
from projections.views import LOBBY, PLAYERS, player_games_key, seats_key, view_key
from projections.worker import Worker
from service import names, tokens
from service.errors import NotFound, Unauthorized, Unavailable
from service.games import GameService

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

    def view(self, game_id: UUID, token: str | None) -> tuple[dict[str, Any], str]:
        """(the reader's view, where it came from: "projection" or "events")."""
        try:
            if self.fresh():
                who: int | str = SPECTATOR
                if token:
                    seat = self.store.hgetall(seats_key(str(game_id))).get(tokens.token_hash(token))
                    if seat is None:
                        raise LookupError("token not in the projection")  # a host token, a wrong token: ask the events
                    who = seat
                found = self.store.get(view_key(str(game_id), who))
                if found is not None:
                    return found, "projection"
        except (NotFound, Unauthorized, PersistenceError):
            raise  # a refusal, or the event store itself is away: the events cannot answer either
        except LookupError:
            pass
        except Exception as err:  # the view store is away: the events answer
            log.warning("projected read failed, answering from the events: %s", err)
        return self.service.view(game_id, token), "events"

    def lobby(self) -> list[dict[str, Any]] | None:
        """Every game's lobby row, or None when the projection cannot answer (then the caller asks the events)."""
        try:
            if not self.fresh():
                return None
            return list(self.store.hgetall(LOBBY).values())
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
            raise Unavailable(f"{what} are projected in Redis, which does not answer; games can still be played") from None
