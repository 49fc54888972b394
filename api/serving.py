"""The ASGI application that ``aegis serve`` runs (under uvicorn): ``GET /api/games/{id}/stream`` is served
asynchronously (``api/hub.py``): an open stream costs a coroutine, not a thread. Every other request goes to the
Flask app, on a pool of threads (``api/wsgi_bridge.py``), once its whole body is here: a client that sends its headers
or its body slowly holds a coroutine (the server parses headers asynchronously), never one of those threads.

The stream answers exactly as the Flask route does (``api/sse.py``): the same frames, the same refusals as
problem+json. A body over ``AEGIS_MAX_BODY`` is not read further: Flask refuses it (413) from its length.
"""

from __future__ import annotations

import asyncio
import logging
import re
from typing import Any
from urllib.parse import parse_qsl

from flask import Flask

from aegis.api import jsonio, log_masking, problems, sse
from aegis.api.hub import Hub
from aegis.api.wsgi_bridge import WsgiBridge
from aegis.domain.kernel.redaction import Perspective

log = logging.getLogger(__name__)
STREAM = re.compile(r"/api/games/([^/]+)/stream")
THREADS = 8  # the Flask app's threads per process (aegis serve --threads)
BODY_SECONDS = 30.0  # a request body must arrive within this (408 otherwise)
Scope = dict[str, Any]
Receive = Any
Send = Any


class Server:
    """ASGI: the stream route here, the rest to Flask."""

    def __init__(self, flask_app: Flask, *, threads: int = THREADS):
        self.flask = flask_app
        self.service = flask_app.extensions["aegis"]
        self.hub = Hub(self.service)
        self.slots = flask_app.extensions["aegis.stream_slots"]
        self.wsgi = WsgiBridge(flask_app, threads=threads)
        self.max_body = self.service.settings.max_body
        self.streams_open = 0  # streams being served now
        self._stopping: asyncio.Event | None = None  # set when the server's shutdown begins (``stop_streams``)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await self._lifespan(receive, send)
            return
        if scope["type"] != "http":  # no websockets here
            await send({"type": "websocket.close", "code": 1000})
            return
        match = STREAM.fullmatch(scope["path"])
        if match is not None and scope["method"] == "GET":
            await self._stream(scope, receive, send, match.group(1))
        else:
            await self._flask(scope, receive, send)

    async def _lifespan(self, receive: Receive, send: Send) -> None:
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                await self.startup()
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                self.shutdown()
                await send({"type": "lifespan.shutdown.complete"})
                return

    async def startup(self) -> None:
        """What the server's lifespan startup does (also called by a worker that built the app late, once the store
        answered: ``api/workers.py``)."""
        log_masking.install()  # the server has set its loggers up by now
        await self.hub.start()

    def shutdown(self) -> None:
        self.hub.stop()
        self.wsgi.shutdown()

    def _stop_event(self) -> asyncio.Event:
        if self._stopping is None:
            self._stopping = asyncio.Event()
        return self._stopping

    async def stop_streams(self) -> None:
        """Shutdown begins (``api/workers.py``'s ``Server``, before uvicorn waits for its connections): every open
        stream, and any opened from now on, ends at once, cleanly (a comment, then the end of its chunked body),
        instead of being cancelled when uvicorn's graceful shutdown runs out. Returns once none is open."""
        self._stop_event().set()
        while self.streams_open:
            await asyncio.sleep(0.01)

    async def _flask(self, scope: Scope, receive: Receive, send: Send) -> None:
        headers = [(k.lower(), v) for k, v in scope["headers"]]
        declared = next((v for k, v in headers if k == b"content-length"), None)
        body = bytearray()
        if declared is None or not declared.isdigit() or int(declared) <= self.max_body:  # else Flask refuses (413) unread
            try:
                async with asyncio.timeout(BODY_SECONDS):
                    while True:
                        message = await receive()
                        if message["type"] == "http.disconnect":
                            return
                        body += message.get("body", b"")
                        if len(body) > self.max_body or not message.get("more_body", False):
                            break
            except TimeoutError:
                detail = f"the request body did not arrive within {BODY_SECONDS:g} s"
                await _problem(send, 408, problems.document(408, "Request Timeout", detail, "http-408", scope["path"]))
                return
            if declared is None and body:  # chunked: Flask reads a body of a known length (over the limit: a 413)
                scope = {**scope, "headers": [*scope["headers"], (b"content-length", str(len(body)).encode())]}
        await self.wsgi(scope, bytes(body), send)

    async def _stream(self, scope: Scope, receive: Receive, send: Send, gid: str) -> None:
        headers: dict[str, str] = {}
        for k, v in scope["headers"]:
            headers.setdefault(k.decode("latin-1").lower(), v.decode("latin-1"))
        args: dict[str, str] = {}
        for k, v in parse_qsl(scope["query_string"].decode("latin-1"), keep_blank_values=True):
            args.setdefault(k, v)
        try:
            opened = sse.opening(gid, args, headers.get("authorization"), headers.get("last-event-id"))
            who = await self.hub.run(sse.reader, self.service, opened)
            release = self.slots.take((scope.get("client") or (None,))[0])
        except Exception as err:
            answer = problems.of_error(err, scope["path"])
            if answer is None:
                log.exception("unhandled error on GET %s", scope["path"])
                detail = "the service failed; the error is logged"
                answer = (500, problems.document(500, "Internal error", detail, "internal", scope["path"]), {})
            await _problem(send, *answer)
            return
        try:
            await self._serve(opened, who, receive, send)
        finally:
            release()

    async def _serve(self, opened: sse.Opening, who: Perspective, receive: Receive, send: Send) -> None:
        """The stream's frames until its game ends or its client goes."""
        gid = opened.game
        start = [(b"content-type", sse.MEDIA_TYPE.encode())]
        start += [(k.lower().encode(), v.encode()) for k, v in sse.HEADERS.items()]
        await send({"type": "http.response.start", "status": 200, "headers": start})

        async def pump() -> None:
            async for chunk in self.hub.frames(opened, who):
                await send({"type": "http.response.body", "body": chunk, "more_body": True})

        async def gone() -> None:
            while (await receive())["type"] != "http.disconnect":
                pass

        self.streams_open += 1
        try:
            streaming, watching = asyncio.create_task(pump()), asyncio.create_task(gone())
            ending = asyncio.create_task(self._stop_event().wait())  # the server's shutdown
            try:
                await asyncio.wait({streaming, watching, ending}, return_when=asyncio.FIRST_COMPLETED)
            finally:
                for task in (streaming, watching, ending):
                    task.cancel()
                await asyncio.gather(streaming, watching, ending, return_exceptions=True)
            client_here = not watching.done() or watching.cancelled()
            if streaming.done() and not streaming.cancelled():
                failure = streaming.exception()
                if failure is not None:  # after the headers: the stream just ends, its client resumes with Last-Event-ID
                    log.warning("a stream of game %s ended on an error: %r", gid, failure)
                if client_here:
                    await send({"type": "http.response.body", "body": b"", "more_body": False})
            elif client_here:  # the server is shutting down: the stream ends whole, its client resumes elsewhere
                await send({"type": "http.response.body", "body": sse.GOING_AWAY_BYTES, "more_body": False})
        finally:
            self.streams_open -= 1


async def _problem(send: Send, status: int, body: dict[str, Any], headers: dict[str, str] | None = None) -> None:
    raw = jsonio.dumps(body)
    head = [(b"content-type", problems.PROBLEM.encode()), (b"content-length", str(len(raw)).encode())]
    head += [(k.lower().encode(), v.encode()) for k, v in (headers or {}).items()]
    await send({"type": "http.response.start", "status": status, "headers": head})
    await send({"type": "http.response.body", "body": raw, "more_body": False})


def create_asgi_app(flask_app: Flask | None = None, *, threads: int = THREADS) -> Server:
    """The ASGI app over ``flask_app`` (by default one built from the environment, as ``api.wsgi`` builds it)."""
    if flask_app is None:
        from aegis.api import create_app

        flask_app = create_app()
    return Server(flask_app, threads=threads)
