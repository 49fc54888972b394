"""Saves of other processes, found in the store itself, for a process whose notices stay in the process (no
``REDIS_URL``) while other processes write to the same store: ``aegis serve --workers N`` on one SQLite file, or
several processes on one PostgreSQL database without Redis. Without it, a stream held on one process would hear of
the commands another process saved only at its next keep-alive (15 s by default).

The streams' hub (``api/hub.py``) looks every ``WATCH_SECONDS`` while it holds streams: at the log's last
notification id, and when it moved, at the notifications since the last look (their game and version only). A
process that holds no stream does not look. A stream counts itself in ``streams`` and then, before it reads its
view, asks for a ``mark``: when nothing was watched, the looks start from where the log ends then, so a save between
that view and the next look is never missed. A game
with streams here whose stored version is newer than the latest this process heard of (its own saves' notices
carry their version) is read once, which brings this process's copy up to date and gives its seq for the notice.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Collection, Mapping
from typing import Any
from uuid import UUID

from aegis.service.games import GameService

WATCH_SECONDS = 0.2  # how often the hub looks while it holds streams: the most a stream lags behind another process
FOLLOW_SECONDS = 1.0  # while Redis carries the notices: how often the place to look from moves to the log's end
BATCH = 1000  # notifications read at a time


class StoreWatch:
    def __init__(self, service: GameService):
        self.service = service
        self.streams = 0  # the streams held: counted by the event loop's thread alone, before each one's mark
        self._position: int | None = None  # the last notification id looked at; None: not watching
        self._lock = threading.Lock()  # the hub's notices thread looks; its stream readers mark

    def mark(self) -> None:
        """Watch from the log's end as it is now, unless already watching (a stream, counted, before its view)."""
        with self._lock:
            if self._position is None:
                self._position = self.service.store.recorder.max_notification_id() or 0

    def skip(self) -> None:
        """Look from the log's end as it is now, not from the last look: the saves until now reached this process
        otherwise (Redis carried their notices). With no stream held, watching stops, as in ``moved``."""
        with self._lock:
            if self.streams == 0:
                self._position = None
            elif self._position is not None:
                self._position = self.service.store.recorder.max_notification_id() or 0

    def moved(self, games: Collection[str], known: Mapping[str, int]) -> list[tuple[str, int, int]]:
        """The games among ``games`` stored at a newer version than ``known`` gives (the latest version this process
        heard of), as (game, seq, version): saved by another process since the last look. With no stream held,
        nothing: watching stops until the next ``mark``."""
        with self._lock:
            return self._moved(games, known)

    def _moved(self, games: Collection[str], known: Mapping[str, int]) -> list[tuple[str, int, int]]:
        if self.streams == 0:  # read under the lock: a stream counted later marks after this
            self._position = None
            return []
        if self._position is None:
            return []  # a stream is opening: its mark comes before its view
        recorder = self.service.store.recorder
        top = recorder.max_notification_id() or 0
        if top < self._position:  # the store was emptied: from here on
            self._position = top
            return []
        newest: dict[str, int] = {}
        while self._position < top:
            batch = recorder.select_notifications(self._position, BATCH, stop=top, inclusive_of_start=False)
            if not batch:
                break
            for n in batch:
                game = str(n.originator_id)
                if game in games and n.originator_version > newest.get(game, 0):
                    newest[game] = n.originator_version
            self._position = batch[-1].id
        moved = []
        for game, version in newest.items():
            if version > known.get(game, 0):
                seq = self.service.read(UUID(game), lambda g: g.seq)  # reads the new events into this process's copy
                moved.append((game, seq, version))
        return moved


class Looks:
    """What a process keeps between its looks at the store: the latest version it heard of each watched game (its own
    saves' notices carry it, ``heard``), and when it may look next: at most once per ``WATCH_SECONDS``, however many
    notices wake it. The streams' hub looks with it (``api/hub.py``), and so does the threaded server's stream route
    (``api/stream.py``)."""

    def __init__(self, watch: StoreWatch):
        self.watch = watch
        self.known: dict[str, int] = {}
        self._next = 0.0
        self._next_follow = 0.0

    def heard(self, notices: list[Any], games: Collection[str]) -> None:
        """The versions this process's own saves reached, of the games it watches."""
        for n in notices:
            if n.version is not None and n.game_id in games:
                self.known[n.game_id] = max(self.known.get(n.game_id, 0), n.version)

    def look(self, games: Collection[str]) -> list[tuple[str, int]]:
        """The games among ``games`` another process saved since the last look, each with its seq now (nothing when
        the last look was less than ``WATCH_SECONDS`` ago)."""
        now = time.monotonic()
        if now < self._next:
            return []
        self._next = now + WATCH_SECONDS
        for game in [g for g in self.known if g not in games]:
            del self.known[game]
        moved = self.watch.moved(games, self.known)
        for game, _, version in moved:
            self.known[game] = version
        return [(game, seq) for game, seq, _ in moved]

    def follow(self) -> None:
        """While Redis carries every process's notices, nothing is looked for; the place to look from moves to the
        log's end once per ``FOLLOW_SECONDS``, so that when Redis goes away the looks start about where its notices
        stopped, not from the first stream's opening."""
        now = time.monotonic()
        if now < self._next_follow:
            return
        self._next_follow = now + FOLLOW_SECONDS
        self._next = 0.0  # the first look once Redis is away comes at once
        self.watch.skip()
