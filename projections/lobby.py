"""The lobby list: one row per game (status, ruleset, variant, seats free, created), rebuilt from the
store's notification log and kept up to date by reading it from its last position before each query.

In-process by default; every API process follows the same log, so each sees every game.
"""

from __future__ import annotations

import threading
from typing import Any

from eventsourcing.application import Application

from service.aggregate import Game

STATUSES = ("lobby", "active", "finished")
BATCH = 1000


def _topic(name: str) -> str:
    return f"{Game.__module__}:Game.{name}"


class LobbyProjection:
    """Games by id, built from ``Created``, ``SeatTaken``, ``StartRequested`` and each ruleset's final event."""

    def __init__(self, store: Application, final_events: tuple[str, ...] = ("GameEnded",)):
        self.store = store
        self.position = 0
        self.games: dict[str, dict[str, Any]] = {}
        self._lock = threading.Lock()
        self._handlers = {
            _topic("Created"): self._created,
            _topic("SeatTaken"): self._seat_taken,
            _topic("StartRequested"): self._started,
            **{_topic(name): self._finished for name in final_events},
        }

    def catch_up(self) -> int:
        """Read every notification after the last one seen; returns how many were applied."""
        applied = 0
        with self._lock:
            while True:
                batch = self.store.recorder.select_notifications(
                    start=self.position + 1, limit=BATCH, topics=list(self._handlers)
                )
                for n in batch:
                    event = self.store.mapper.to_domain_event(n)
                    self._handlers[n.topic](str(n.originator_id), event)
                    self.position = n.id
                    applied += 1
                if len(batch) < BATCH:
                    return applied

    def _created(self, game_id: str, e: Any) -> None:
        self.games[game_id] = {
            "id": game_id,
            "ruleset": e.ruleset,
            "variant": "+".join(e.spec.get("variants", [])),
            "status": "lobby",
            "seats": e.spec["seats"],
            "seats_free": e.spec["seats"],
            "rigged": e.rig is not None,
            "created": e.created_at,
        }

    def _seat_taken(self, game_id: str, e: Any) -> None:
        self.games[game_id]["seats_free"] -= 1

    def _started(self, game_id: str, e: Any) -> None:
        self.games[game_id]["status"] = "active"

    def _finished(self, game_id: str, e: Any) -> None:
        self.games[game_id]["status"] = "finished"

    def query(
        self,
        *,
        status: str | None = None,
        ruleset: str | None = None,
        variant: str | None = None,
        open_seats: bool | None = None,
        offset: int = 0,
        limit: int = 20,
    ) -> tuple[list[dict[str, Any]], int]:
        """Games matching every filter given, newest first: (one page, how many match in all)."""
        self.catch_up()
        rows = [
            g
            for g in self.games.values()
            if (status is None or g["status"] == status)
            and (ruleset is None or g["ruleset"] == ruleset)
            and (variant is None or g["variant"] == variant)
            and (open_seats is None or (g["seats_free"] > 0) == open_seats)
        ]
        rows.sort(key=lambda g: (-g["created"], g["id"]))
        return [dict(g) for g in rows[offset : offset + limit]], len(rows)
