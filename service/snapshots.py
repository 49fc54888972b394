"""Snapshots of games: compressed, and written off the request's path.

A game is snapshotted each time its version passes a multiple of ``AEGIS_SNAPSHOT_INTERVAL``. The request that
saved it holds the game exactly as stored at that version, under the game's lock: it takes the snapshot from that
object and maps it to its stored form at once (the state encoded by its ruleset, JSON, compressed: a few hundred
microseconds once every interval), so nothing changes it afterwards. A background thread then writes it. Before,
the thread read the game back from the store and folded its events since the last snapshot: that cost about as
much CPU as the commands of the interval, competing with them for the interpreter. A snapshot that cannot be
written (the store away) is skipped: the next interval takes one, and a game loads from its events meanwhile.

Snapshots are compressed with the library's zlib compressor; snapshots written before compression (plain JSON)
are still read.
"""

from __future__ import annotations

import logging
import threading
import zlib
from collections.abc import Callable
from typing import Any
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
    """One background thread writing the snapshots handed to it, the latest of each game (``write`` stores one
    snapshot already in its stored form)."""

    def __init__(self, write: Callable[[Any], None]):
        self.write = write
        self._wanted: dict[UUID, tuple[int, Any]] = {}
        self._cond = threading.Condition()
        self._busy = False
        self._closed = False
        self.taken = 0
        self.failed = 0
        self._thread = threading.Thread(target=self._run, name="aegis-snapshots", daemon=True)
        self._thread.start()

    def ask(self, game_id: UUID, version: int, stored: Any) -> None:
        """Write ``stored`` (the snapshot of ``game_id`` at ``version``) soon, unless a later one comes first."""
        with self._cond:
            if version > self._wanted.get(game_id, (0, None))[0]:
                self._wanted[game_id] = (version, stored)
                self._cond.notify_all()

    def _run(self) -> None:
        while True:
            with self._cond:
                while not self._wanted and not self._closed:
                    self._cond.wait()
                if not self._wanted:
                    return
                game_id, (version, stored) = next(iter(self._wanted.items()))
                del self._wanted[game_id]
                self._busy = True
            try:
                self.write(stored)
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
