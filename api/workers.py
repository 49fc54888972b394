"""The gunicorn worker classes of ``aegis serve --workers N``: uvicorn's (``Worker``), which serves ``api.asgi:app`` on an
event loop, with a bounded graceful shutdown: an event stream never ends by itself, so when shutdown begins the open
streams are ended cleanly (``Server``; their clients resume elsewhere with ``Last-Event-ID``), and whatever is still
running after ``GRACE_SECONDS`` is cancelled; and the threaded one of ``--server wsgi`` (``ThreadedWorker``).

Both boot while the event store does not answer: building the app opens the store, and gunicorn stops the whole
server (every worker, for good) when a worker fails to boot. So a worker started during a store outage (after a
crash, a kill or a reload) waits for the store instead, saying so in the log, and builds its app once it answers.
Meanwhile it serves (``StoreWait``): ``/healthz`` answers at once (the process is up), ``/readyz`` 503 with the
store's error, every other route 503 with ``Retry-After``, so that probes and load balancers see why, not a
connection nobody answers. A store that cannot come back by itself (no such database, no such folder) is refused
before any worker starts (``cli/serve.py``)."""

from __future__ import annotations

import asyncio
import json
import logging
import math
import sys
import threading
from collections.abc import Callable
from http import HTTPStatus
from typing import Any

import uvicorn
from eventsourcing.persistence import PersistenceError
from gunicorn.arbiter import Arbiter  # type: ignore[import-untyped]
from gunicorn.workers.gthread import ThreadWorker  # type: ignore[import-untyped]
from uvicorn_worker import UvicornWorker  # type: ignore[import-untyped]

from aegis.api import problems
from aegis.service.store_open import one_line

GRACE_SECONDS = 5
STREAMS_END_SECONDS = 2.0  # at shutdown, the open streams are ended and this long at most is given to them
log = logging.getLogger(__name__)
STORE_RETRY_SECONDS = (0.5, 10.0)  # the first wait for the store, and the longest


def _store_errors() -> tuple[type[BaseException], ...]:
    found: list[type[BaseException]] = [PersistenceError]
    try:
        import psycopg  # the PostgreSQL driver, when installed: its connection errors reach the app's start-up as is

        found.append(psycopg.OperationalError)
    except ImportError:  # pragma: no cover - installed with the service
        pass
    return tuple(found)


class StoreWait:
    """The app of a worker whose store did not answer when it started: answers at once while a thread builds the
    real app again and again (waiting ``STORE_RETRY_SECONDS``, doubling), then hands every request to it. As ASGI
    (called: the uvicorn worker: the real app's lifespan startup is run once it is built) and as WSGI (``wsgi``,
    the threaded worker)."""

    def __init__(self, build: Callable[[], Any], first: BaseException, log: Any, errors: tuple[type[BaseException], ...]):
        self._build = build
        self._log = log
        self._errors = errors
        self.app: Any = None  # the real app, once built (and, under ASGI, started)
        self.reason = one_line(str(first))
        self.delay = STORE_RETRY_SECONDS[0]
        self._stop = threading.Event()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._built: Any = None  # under ASGI: the real app, built, until its startup has run
        self._starting = False
        self._task: asyncio.Future[None] | None = None
        self._asgi = False
        self._thread = threading.Thread(target=self._retry, name="aegis-store-wait", daemon=True)

    def start(self, *, asgi: bool) -> StoreWait:
        self._asgi = asgi
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()

    def _retry(self) -> None:
        longest = STORE_RETRY_SECONDS[1]
        while True:
            self._log.warning("the event store does not answer (%s): starting again in %.1f s", self.reason, self.delay)
            if self._stop.wait(self.delay):
                return
            try:
                app = self._build()
            except self._errors as err:
                self.reason = one_line(str(err))
                self.delay = min(2 * self.delay, longest)
                continue
            except Exception as err:  # not the store's: said with its traceback, and tried again as the store
                self._log.exception("building the app failed")
                self.reason = f"{type(err).__name__}: {one_line(str(err))}"
                self.delay = longest
                continue
            self._log.warning("the event store answers: serving")
            if not self._asgi:
                self.app = app
                return
            self._built = app  # started on the event loop (now, or at the lifespan's startup if it has not come yet)
            loop = self._loop
            if loop is not None:
                loop.call_soon_threadsafe(self._begin)
            return

    def _begin(self) -> None:
        self._task = asyncio.ensure_future(self._started())  # kept: a task nobody holds may be collected mid-way

    async def _started(self) -> None:
        """Run the built app's lifespan startup (on the event loop), once, then hand it every request."""
        app = self._built
        if app is None or self._starting:
            return
        self._starting = True
        startup = getattr(app, "startup", None)
        if startup is not None:
            await startup()
        self.app = app

    def answer(self, path: str) -> tuple[int, bytes, list[tuple[str, str]]]:
        """What a request to ``path`` gets while the store does not answer."""
        if path == "/healthz":
            return 200, json.dumps({"status": "ok"}).encode(), [("Content-Type", "application/json")]
        wait = max(1, math.ceil(self.delay))
        if path == "/readyz":
            store = f"{self.reason}: this worker waits for the event store, trying again within {wait} s"
            return 503, json.dumps({"status": "unavailable", "store": store}).encode(), [("Content-Type", "application/json")]
        detail = "the event store does not answer; nothing was changed, try again"
        body = json.dumps(problems.document(503, "Service unavailable", detail, "unavailable", path)).encode()
        return 503, body, [("Content-Type", problems.PROBLEM), ("Retry-After", str(wait))]

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:  # ASGI (uvicorn tells it by this)
        app = self.app
        if app is not None and scope["type"] != "lifespan":
            await app(scope, receive, send)
            return
        if scope["type"] == "lifespan":
            await self._lifespan(receive, send)
            return
        if scope["type"] != "http":
            await send({"type": "websocket.close", "code": 1000})
            return
        status, body, headers = self.answer(scope["path"])
        head = [(k.lower().encode(), v.encode()) for k, v in [*headers, ("Content-Length", str(len(body)))]]
        await send({"type": "http.response.start", "status": status, "headers": head})
        await send({"type": "http.response.body", "body": body, "more_body": False})

    async def _lifespan(self, receive: Any, send: Any) -> None:
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                self._loop = asyncio.get_running_loop()
                await self._started()  # built before the server started: started now
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                self.stop()
                shutdown = getattr(self.app, "shutdown", None)
                if shutdown is not None:
                    shutdown()
                await send({"type": "lifespan.shutdown.complete"})
                return

    async def stop_streams(self) -> None:
        """Shutdown begins: the real app's streams end (``api/serving.py``); none are open while waiting."""
        stop = getattr(self.app, "stop_streams", None)
        if stop is not None:
            await stop()

    def wsgi(self, environ: dict[str, Any], start_response: Any) -> Any:
        app = self.app
        if app is not None:
            return app(environ, start_response)
        status, body, headers = self.answer(environ.get("PATH_INFO", ""))
        start_response(f"{status} {HTTPStatus(status).phrase}", [*headers, ("Content-Length", str(len(body)))])
        return [body]


class WaitsForTheStore:
    """Build the app; while the event store does not answer, serve a ``StoreWait`` that builds it in the background,
    keeping the worker's heartbeat (gunicorn's worker loop runs meanwhile)."""

    alive: bool  # gunicorn's Worker's, as are ``log``, ``app`` and ``wsgi``
    log: Any
    app: Any
    wsgi: Any
    asgi_worker = False

    def load_wsgi(self) -> None:
        errors = _store_errors()
        try:
            super().load_wsgi()  # type: ignore[misc]
        except errors as err:
            if not self.alive:
                raise
            wait = StoreWait(self.app.wsgi, err, self.log, errors).start(asgi=self.asgi_worker)
            self.wsgi = wait if self.asgi_worker else wait.wsgi


class Server(uvicorn.Server):
    """uvicorn's server, which tells the app that shutdown begins before it waits for the open connections: the app's
    event streams then end cleanly (``api/serving.py``'s ``stop_streams``: a comment and the end of the chunked
    body), instead of being cancelled after ``GRACE_SECONDS`` with an ERROR line ("Cancel 1 running task(s), timeout
    graceful shutdown exceeded") and a cut body. The app is the one given, not uvicorn's wrapping of it."""

    async def shutdown(self, sockets: Any = None) -> None:
        stop = getattr(self.config.app, "stop_streams", None)
        if stop is not None:
            try:
                await asyncio.wait_for(stop(), STREAMS_END_SECONDS)
            except TimeoutError:  # what is left is cancelled by uvicorn, as before
                log.warning("event streams still open %s s into the shutdown", STREAMS_END_SECONDS)
        await super().shutdown(sockets)


class Worker(WaitsForTheStore, UvicornWorker):  # type: ignore[misc]
    CONFIG_KWARGS = {"timeout_graceful_shutdown": GRACE_SECONDS}
    asgi_worker = True

    async def _serve(self) -> None:
        """uvicorn-worker's own, with the ``Server`` above."""
        self.config.app = self.wsgi
        server = Server(config=self.config)
        self._install_sigquit_handler()
        await server.serve(sockets=self.sockets)
        if not server.started:
            sys.exit(Arbiter.WORKER_BOOT_ERROR)


class ThreadedWorker(WaitsForTheStore, ThreadWorker):  # type: ignore[misc]
    pass
