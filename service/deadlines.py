"""The deadline keeper: a thread that closes reaction windows when their deadline passes.

After every save the service tells the keeper the game's next deadline; the keeper sleeps until the
earliest one and asks the service to close that window (a ``close_window`` command of the server,
recorded like any other). Several processes may run a keeper: the first to close a window wins and
the others find nothing to do. On start the keeper looks at every active game once, so a restart
loses no deadline.
"""

from __future__ import annotations

import heapq
import logging
import threading
from collections.abc import Callable, Iterable
from uuid import UUID

from service.errors import ServiceError
from service.games import GameService

log = logging.getLogger(__name__)


class DeadlineKeeper:
    def __init__(self, service: GameService, active_games: Callable[[], Iterable[UUID]] | None = None):
        self.service = service
        self.active_games = active_games
        self._heap: list[tuple[float, str]] = []
        self._wake = threading.Condition()
        self._stop = False
        self._thread: threading.Thread | None = None
        service.after_save.append(self._after_save)

    def _after_save(self, game: object) -> None:
        game_id = game.id  # type: ignore[attr-defined]
        due = self.service.deadline_in(game)  # type: ignore[arg-type]
        if due is not None:
            self.schedule(game_id, due)

    def schedule(self, game_id: UUID, at: float) -> None:
        with self._wake:
            heapq.heappush(self._heap, (at, str(game_id)))
            self._wake.notify()

    def start(self) -> DeadlineKeeper:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="aegis-deadlines", daemon=True)
            self._thread.start()
        return self

    def stop(self) -> None:
        with self._wake:
            self._stop = True
            self._wake.notify()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def _recover(self) -> None:
        for game_id in self.active_games() if self.active_games else ():
            try:
                due = self.service.deadline_of(game_id)
            except ServiceError:
                continue
            if due is not None:
                self.schedule(game_id, due)

    def _run(self) -> None:
        try:
            self._recover()
        except Exception:  # pragma: no cover - the keeper must outlive a bad start
            log.exception("deadline keeper: could not look at the active games")
        while True:
            with self._wake:
                while not self._stop and (not self._heap or self._heap[0][0] > self.service.clock()):
                    timeout = None if not self._heap else max(0.0, self._heap[0][0] - self.service.clock())
                    self._wake.wait(timeout=timeout if timeout is None else min(timeout, 5.0))
                if self._stop:
                    return
                _, game_id = heapq.heappop(self._heap)
            try:
                self.service.close_due_window(UUID(game_id))
            except ServiceError as err:
                log.info("deadline keeper: game %s: %s", game_id, err.detail)
            except Exception:  # pragma: no cover - logged, and the keeper goes on with other games
                log.exception("deadline keeper: closing a window of game %s failed", game_id)
