"""The deadline keeper: a thread that acts on every game's deadlines when they pass.

A game's next deadline is the earliest of: its open reaction window or undo pause closing, a seat's decision
clock running out (``turn_seconds``), its lobby expiring. The keeper learns them from notices: the service's
own saves in this process, and, with Redis, every process's saves (``Broker.listen_all``). It sleeps until the
earliest and asks the service to act (``enforce_deadlines``: closing a window, deciding for a seat whose clock ran
out, expiring a lobby), recorded like any other change. Several processes may keep the same deadline: the first
to act wins and the others find nothing due. When it starts, the keeper reads every open game from the event store
itself (not from a view that may lag behind) and schedules its deadline, so a restart loses none.
"""

from __future__ import annotations

import heapq
import logging
import threading
from typing import Any
from uuid import UUID

from aegis.service.bounded import LRU
from aegis.service.broker import Notice
from aegis.service.errors import ServiceError
from aegis.service.games import GameService

log = logging.getLogger(__name__)
RETRY = 1.0  # seconds before trying again a game whose deadline could not be enforced (the store away)
LISTEN = 0.25  # seconds between looks at the stop flag while listening
RECENT = 4096  # games whose latest notice seq is remembered (at least; or AEGIS_CACHE_GAMES)
COMPACT_SLACK = 64  # stale heap entries tolerated beyond one per live deadline


class DeadlineKeeper:
    def __init__(self, service: GameService):
        self.service = service
        self._heap: list[tuple[float, str]] = []  # (deadline, game); an entry no longer in ``_due`` is stale
        self._due: dict[str, float] = {}  # game -> its next deadline as last heard (only games that have one)
        # game -> the seq of the latest notice heard, to ignore an older one arriving late (another process's,
        # through Redis): for every game in ``_due``, and for the most recent others (games over, or waiting for
        # no clock), so nothing is kept per game ever seen; a late notice about a forgotten game costs one look
        self._seq: dict[str, int] = {}
        self._recent: LRU[str, int] = LRU(max(RECENT, service.settings.cache_games))
        self._wake = threading.Condition()
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []
        service.after_save.append(self._after_save)

    def _after_save(self, game: Any, deadline: float | None) -> None:
        self.heard(Notice(str(game.id), game.seq, deadline))

    def heard(self, notice: Notice) -> None:
        """A game moved on: its next deadline is ``notice.deadline`` (unless a later notice already spoke)."""
        gid = notice.game_id
        with self._wake:
            known = self._seq.get(gid)
            if known is None:
                known = self._recent.get(gid)
            if known is not None and (notice.seq < known or (notice.seq == known and self._due.get(gid) == notice.deadline)):
                return  # older than what we know, or the same notice again (heard directly and through the broker)
            if notice.deadline is None:  # the game is over, or waits for nobody's clock
                self._forget(gid, notice.seq)
                return
            self._recent.pop(gid)
            self._seq[gid] = notice.seq
            self._due[gid] = notice.deadline
            self._push(notice.deadline, gid)

    def _forget(self, game_id: str, seq: int | None) -> None:
        """The game has no deadline now: keep only its seq, among the recent (under ``_wake``)."""
        self._due.pop(game_id, None)
        known = self._seq.pop(game_id, None)
        seq = known if seq is None else seq
        if seq is not None:
            self._recent[game_id] = seq

    def _push(self, at: float, game_id: str) -> None:
        """Add a deadline to the heap (under ``_wake``). Replaced deadlines stay in the heap until they come up, so
        when they outnumber the live ones the heap is rebuilt from ``_due``: at most about two entries per game
        that has a deadline."""
        sooner = not self._heap or at < self._heap[0][0]
        heapq.heappush(self._heap, (at, game_id))
        if len(self._heap) > 2 * len(self._due) + COMPACT_SLACK:
            self._heap = [(due, gid) for gid, due in self._due.items()]
            heapq.heapify(self._heap)
        if sooner:  # the keeper sleeps until the earliest deadline: a later one does not need to wake it
            self._wake.notify()

    def schedule(self, game_id: UUID | str, at: float) -> None:
        """Act on ``game_id`` at ``at`` whatever notices said (recovery, a retry)."""
        with self._wake:
            gid = str(game_id)
            self._due[gid] = min(at, self._due.get(gid, at))
            self._push(self._due[gid], gid)

    def start(self) -> DeadlineKeeper:
        if not self._threads:
            self._threads = [threading.Thread(target=self._run, name="aegis-deadlines", daemon=True)]
            if self.service.broker.crosses_processes:  # in one process every save is heard directly (_after_save)
                self._threads.append(threading.Thread(target=self._listen, name="aegis-deadlines-listen", daemon=True))
            for t in self._threads:
                t.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        with self._wake:
            self._wake.notify()
        for t in self._threads:
            t.join(timeout=5)

    def recover(self) -> int:
        """Schedule the deadline of every open game in the store; returns how many have one."""
        found = 0
        for game_id in self.service.open_games():
            if self._stop.is_set():
                break
            try:
                due = self.service.deadline_of(game_id)
            except ServiceError:
                continue
            if due is not None:
                self.schedule(game_id, due)
                found += 1
        return found

    def _listen(self) -> None:
        """Every process's notices (through Redis; in one process the saves are heard directly)."""
        try:
            with self.service.broker.listen_all() as listener:
                while not self._stop.is_set():
                    for notice in listener.get(timeout=LISTEN):
                        self.heard(notice)
        except Exception:  # pragma: no cover - the keeper still has its own saves and the recovery
            log.exception("deadline keeper: listening to other processes' notices failed")

    def _next(self) -> str | None:
        """Wait for the earliest deadline to pass; the game whose it is (None: stopping)."""
        with self._wake:
            while not self._stop.is_set():
                now = self.service.clock()
                while self._heap and self._due.get(self._heap[0][1]) != self._heap[0][0]:
                    heapq.heappop(self._heap)  # an older deadline of a game that has a newer one
                if self._heap and self._heap[0][0] <= now:
                    _, game_id = heapq.heappop(self._heap)
                    self._forget(game_id, None)
                    return game_id
                timeout = 5.0 if not self._heap else min(5.0, max(0.0, self._heap[0][0] - now))
                self._wake.wait(timeout=timeout)
            return None

    def _run(self) -> None:
        try:
            self.recover()
        except Exception:  # pragma: no cover - the keeper must outlive a bad start
            log.exception("deadline keeper: could not read the open games")
        while True:
            game_id = self._next()
            if game_id is None:
                return
            try:
                self.service.enforce_deadlines(UUID(game_id))
            except ServiceError as err:
                log.info("deadline keeper: game %s: %s", game_id, err.detail)
            except Exception:  # the store away, say: try again in a moment
                log.exception("deadline keeper: acting on game %s failed; trying again", game_id)
                self.schedule(game_id, self.service.clock() + RETRY)
