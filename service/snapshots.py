"""Snapshots of games: compressed, and taken off the request's path.

A game is snapshotted each time its version passes a multiple of ``AEGIS_SNAPSHOT_INTERVAL``. The request that
saved it only leaves the game's id and version here; a background thread then takes the snapshot the library's
way (``Application.take_snapshot``: the game as stored at that version, read apart from the live object) and
stores it. A snapshot that cannot be taken (the store away) is skipped: the next interval takes one, and a game
loads from its events meanwhile.

Snapshots are compressed with the library's zlib compressor; snapshots written before compression (plain JSON)
are still read.
"""

from __future__ import annotations

import logging
import threading
import zlib
from collections.abc import Callable
from uuid import UUID

from eventsourcing.compressor import ZlibCompressor

log = logging.getLogger(__name__)


class SnapshotCompressor(ZlibCompressor):
    """zlib, and plain JSON as it was stored before snapshots were compressed."""

    def decompress(self, data: bytes) -> bytes:
        if data[:1] == b"{":  # a JSON object: zlib output never starts with "{" (its first byte is 0x78)
            return data
        return zlib.decompress(data)


def crossed(interval: int, before: int, after: int) -> bool:
    """Did a game's version pass a multiple of ``interval`` going from ``before`` to ``after``?"""
    return interval > 0 and after // interval > before // interval


class Snapshotter:
    """One background thread taking the snapshots asked for, the latest version of each game."""

    def __init__(self, take: Callable[[UUID, int], None]):
        self.take = take
        self._wanted: dict[UUID, int] = {}
        self._cond = threading.Condition()
        self._busy = False
        self._closed = False
        self.taken = 0
        self.failed = 0
        self._thread = threading.Thread(target=self._run, name="aegis-snapshots", daemon=True)
        self._thread.start()

    def ask(self, game_id: UUID, version: int) -> None:
        with self._cond:
            if version > self._wanted.get(game_id, 0):
                self._wanted[game_id] = version
                self._cond.notify_all()

    def _run(self) -> None:
        while True:
            with self._cond:
                while not self._wanted and not self._closed:
                    self._cond.wait()
                if not self._wanted:
                    return
                game_id, version = next(iter(self._wanted.items()))
                del self._wanted[game_id]
                self._busy = True
            try:
                self.take(game_id, version)
                self.taken += 1
            except Exception as err:  # the store away, or a race with a closing store: the next interval retries
                self.failed += 1
                log.warning("snapshot of game %s at version %s skipped: %s: %s", game_id, version, type(err).__name__, err)
            finally:
                with self._cond:
                    self._busy = False
                    self._cond.notify_all()

    def flush(self, timeout: float = 10.0) -> bool:
        """Wait until every snapshot asked for is stored (or skipped); False if that took longer than ``timeout``."""
        with self._cond:
            return self._cond.wait_for(lambda: not self._wanted and not self._busy, timeout)

    def close(self, timeout: float = 10.0) -> None:
        """Take what was asked for (up to ``timeout``), then stop."""
        self.flush(timeout)
        with self._cond:
            self._closed = True
            self._wanted.clear()
            self._cond.notify_all()
        self._thread.join(timeout)
