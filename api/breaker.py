"""Fail fast while the event store is away.

Without this, every request during a database outage waits for a connection (``POSTGRES_CONNECT_TIMEOUT``)
before its 503, and the requests pile up behind each other. After a store failure the breaker opens: for
``cooldown`` seconds every request that needs the store is answered 503 with ``Retry-After`` at once, then
one request is let through to try; its success closes the breaker, its failure opens it again. Each API
process has its own breaker; nothing is changed by a refused request.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from flask import Flask, Response, g, request

STORE_PATHS = ("/api/games", "/api/players")  # the routes that read or write the event store


class Breaker:
    def __init__(self, cooldown: float = 1.0, clock: Callable[[], float] = time.monotonic):
        self.cooldown = cooldown
        self.clock = clock
        self._lock = threading.Lock()
        self._open_until: float | None = None
        self._trial = False

    def is_open(self) -> bool:
        with self._lock:
            return self._open_until is not None

    def allow(self) -> str | None:
        """May a request use the store now? ``"closed"``: yes; ``"trial"``: yes, as the one request that tries
        the store after a cooldown (it must end with ``failed`` or ``succeeded``); None: no, answer 503."""
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
        with self._lock:
            self._open_until = None
            self._trial = False


def install(app: Flask, breaker: Breaker, refuse: Callable[[], Response]) -> None:
    """Refuse store requests while the breaker is open; ``refuse`` builds the 503. The app's handler of store
    errors calls ``breaker.failed()``."""

    @app.before_request
    def _fail_fast() -> Response | None:
        if not request.path.startswith(STORE_PATHS):
            return None
        state = breaker.allow()
        if state is None:
            return refuse()
        g.store_trial = state == "trial"
        return None

    @app.after_request
    def _closed(response: Response) -> Response:
        if response.status_code != 503 and request.path.startswith(STORE_PATHS) and breaker.is_open():
            breaker.succeeded()  # the store answered this request
        elif response.status_code == 503 and g.get("store_trial"):
            breaker.failed()  # the trial failed, whatever the reason: wait another cooldown
        return response
