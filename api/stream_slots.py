"""How many event streams one client may hold open at once in one server process (``AEGIS_STREAMS_PER_CLIENT``).

A stream costs little while it waits (no thread on the asynchronous server), but each one holds a socket, a place in
its game's feed and a read on every notice: one client opening streams without end could still exhaust a process.
The client is its remote address, as for the rate limits (``api/limits.py``). A stream over the limit is refused
before it opens with 429 (``/api/problems/rate-limited``) and ``Retry-After``; closing one frees its slot.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import ClassVar

from aegis.service.errors import ServiceError

RETRY_SECONDS = 5  # a hint: a slot frees when one of the client's streams closes, which nobody can foresee


class TooManyStreams(ServiceError):
    status, kind, title = 429, "rate-limited", "Too many requests"
    headers: ClassVar[dict[str, str]] = {"Retry-After": str(RETRY_SECONDS)}


class StreamSlots:
    def __init__(self, per_client: int | None):
        self.per_client = per_client  # None: no limit
        self._open: dict[str, int] = {}
        self._lock = threading.Lock()

    def take(self, client: str | None) -> Callable[[], None]:
        """Take one of ``client``'s slots for a stream about to open; ``TooManyStreams`` if none is free. Returns
        the release (call it once the stream is over; calling it again does nothing)."""
        key = client or "?"
        with self._lock:
            count = self._open.get(key, 0)
            if self.per_client is not None and count >= self.per_client:
                raise TooManyStreams(
                    f"your address holds {count} open event streams on this server process, the most it may "
                    f"(AEGIS_STREAMS_PER_CLIENT); close one, or try again in {RETRY_SECONDS} s"
                )
            self._open[key] = count + 1
        released = False

        def release() -> None:
            nonlocal released
            with self._lock:
                if released:
                    return
                released = True
                left = self._open[key] - 1
                if left:
                    self._open[key] = left
                else:
                    del self._open[key]

        return release

    def holding(self, client: str) -> int:
        with self._lock:
            return self._open.get(client, 0)
