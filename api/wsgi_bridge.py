"""The Flask (WSGI) app under the ASGI server: each request makes one trip to a pool thread and back.

a2wsgi's responder hands every piece of a response (its start, each chunk, its end) from the Flask thread to the
event loop and waits there for the loop to take it: three or more round trips between threads per request, each a
wake-up of the loop through its self-pipe and of the thread through a condition. Measured in-process, a ``GET
/healthz`` cost 560 us of CPU that way, most of it the trips. Here the thread runs the app and gathers the response
(its status, headers and first ``GATHER`` bytes of body) and the loop sends it at once. A longer body (the NDJSON
exports are generators) goes on a chunk at a time, each fetched from the app's iterator on a pool thread, so the
loop never blocks on the app and a slow client holds back only its own response.

The request body is read by the ASGI server before it gets here (``api/serving.py``); the environ is built by
a2wsgi's ``build_environ``.
"""

from __future__ import annotations

import asyncio
import io
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from a2wsgi.wsgi import build_environ

GATHER = 256 * 1024  # bytes of a response body sent with its start; the rest streams a chunk at a time
Send = Callable[[dict[str, Any]], Any]


class Started:
    """What the app's ``start_response`` was given."""

    def __init__(self) -> None:
        self.status = 500
        self.headers: list[tuple[bytes, bytes]] = []

    def __call__(self, status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Callable[[bytes], None]:
        self.status = int(status.split(" ", 1)[0])
        self.headers = [(k.strip().lower().encode("latin-1"), v.strip().encode("latin-1")) for k, v in headers]
        return _no_write


def _no_write(_: bytes) -> None:  # pragma: no cover - Flask never uses the write() callable
    raise NotImplementedError("write() is not supported: return the body")


class Gathered:
    """A response as the app began it: the start, the first bytes of the body, and what is left to iterate."""

    def __init__(self, started: Started, body: list[bytes], rest: Iterator[bytes] | None, iterable: Iterable[bytes]):
        self.started = started
        self.body = body
        self.rest = rest  # None: the body is whole
        self.iterable = iterable  # closed once the body is sent (WSGI)


class WsgiBridge:
    def __init__(self, app: Callable[..., Iterable[bytes]], *, threads: int):
        self.app = app
        self.executor = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="wsgi")

    async def __call__(self, scope: dict[str, Any], body: bytes, send: Send) -> None:
        environ = build_environ(scope, io.BytesIO(body))  # type: ignore[arg-type]
        loop = asyncio.get_running_loop()
        gathered = await loop.run_in_executor(self.executor, self._begin, environ)
        try:
            started = gathered.started
            await send({"type": "http.response.start", "status": started.status, "headers": started.headers})
            whole = gathered.rest is None
            await send({"type": "http.response.body", "body": b"".join(gathered.body), "more_body": not whole})
            while not whole:
                assert gathered.rest is not None
                chunk = await loop.run_in_executor(self.executor, next, gathered.rest, None)
                whole = chunk is None
                await send({"type": "http.response.body", "body": chunk or b"", "more_body": not whole})
        finally:
            if gathered.rest is not None:  # a whole body was closed on its thread already
                await loop.run_in_executor(self.executor, _close, gathered.iterable)

    def _begin(self, environ: Any) -> Gathered:
        """Run the app and gather its response up to ``GATHER`` bytes (on a pool thread)."""
        started = Started()
        iterable = self.app(environ, started)
        rest = iter(iterable)
        body: list[bytes] = []
        size = 0
        for chunk in rest:
            if chunk:
                body.append(chunk)
                size += len(chunk)
            if size >= GATHER:
                return Gathered(started, body, rest, iterable)
        _close(iterable)
        return Gathered(started, body, None, iterable)

    def shutdown(self) -> None:
        self.executor.shutdown(wait=False, cancel_futures=True)


def _close(iterable: Iterable[bytes]) -> None:
    """WSGI: the server closes the app's iterable once done with it (its ``call_on_close`` callbacks run then)."""
    close = getattr(iterable, "close", None)
    if close is not None:
        close()
