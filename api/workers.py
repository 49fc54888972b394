"""The gunicorn worker classes of ``aegis serve --workers N``: uvicorn's (``Worker``), which serves ``api.asgi:app`` on an
event loop, with a bounded graceful shutdown: an event stream never ends by itself, so on shutdown the streams
still open after ``GRACE_SECONDS`` are closed (their clients resume elsewhere with ``Last-Event-ID``); and the
threaded one of ``--server wsgi`` (``ThreadedWorker``).

Both boot while the event store does not answer: building the app opens the store, and gunicorn stops the whole
server (every worker, for good) when a worker fails to boot. So a worker started during a store outage (after a
crash, a kill or a reload) waits for the store instead, saying so in the log, and boots once it answers."""

from __future__ import annotations

import time
from typing import Any

from eventsourcing.persistence import PersistenceError
from gunicorn.workers.gthread import ThreadWorker  # type: ignore[import-untyped]
from uvicorn_worker import UvicornWorker  # type: ignore[import-untyped]

GRACE_SECONDS = 5
STORE_RETRY_SECONDS = (0.5, 10.0)  # the first wait for the store, and the longest


def _store_errors() -> tuple[type[BaseException], ...]:
    found: list[type[BaseException]] = [PersistenceError]
    try:
        import psycopg  # the PostgreSQL driver, when installed: its connection errors reach the app's start-up as is

        found.append(psycopg.OperationalError)
    except ImportError:  # pragma: no cover - installed with the service
        pass
    return tuple(found)


class WaitsForTheStore:
    """Load the app again and again while the event store does not answer, keeping the worker's heartbeat."""

    alive: bool  # gunicorn's Worker's, as are ``log`` and ``notify``
    log: Any

    def load_wsgi(self) -> None:
        delay, longest = STORE_RETRY_SECONDS
        errors = _store_errors()
        while True:
            try:
                super().load_wsgi()  # type: ignore[misc]
                return
            except errors as err:
                if not self.alive:
                    raise
                self.log.warning("the event store does not answer (%s): starting again in %.1f s", err, delay)
                self.notify()  # type: ignore[attr-defined]  # the arbiter's heartbeat: waiting is not hanging
                time.sleep(delay)
                delay = min(2 * delay, longest)


class Worker(WaitsForTheStore, UvicornWorker):  # type: ignore[misc]
    CONFIG_KWARGS = {"timeout_graceful_shutdown": GRACE_SECONDS}


class ThreadedWorker(WaitsForTheStore, ThreadWorker):  # type: ignore[misc]
    pass
