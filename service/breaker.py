"""A circuit breaker: after a failure, refuse at once for a cooldown, then let one attempt through to try.

The PostgreSQL recorders (``service/postgres.py``) keep one per store, so that while the database is away
every statement of every request fails at once (the API answers 503 with ``Retry-After``) instead of each
waiting for a connection, and requests do not pile up behind each other.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable


class Breaker:
    def __init__(self, cooldown: float = 1.0, clock: Callable[[], float] = time.monotonic):
        self.cooldown = cooldown
        self.clock = clock
        self._lock = threading.Lock()
        self._open_until: float | None = None
        self._trial = False

    @property
    def is_open(self) -> bool:
        return self._open_until is not None

    def allow(self) -> str | None:
        """May an attempt be made now? ``"closed"``: yes; ``"trial"``: yes, as the one attempt after a cooldown
        (it must end with ``failed`` or ``succeeded``); None: no, fail at once."""
        if self._open_until is None:  # the common case, without the lock
            return "closed"
        with self._lock:
            if self._open_until is None:
                return "closed"
            if self._trial or self.clock() < self._open_until:
                return None
            self._trial = True
            return "trial"

    def failed(self) -> None:
        with self._lock:
            self._open_until = self.clock() + self.cooldown
            self._trial = False

    def succeeded(self) -> None:
        if self._open_until is None and not self._trial:
            return
        with self._lock:
            self._open_until = None
            self._trial = False
