"""``GET /api/games/{id}/stream``: Server-Sent Events for one reader, and the tickets that open it.

First the reader's full view (``event: view``, ``id: <seq>``), then every new event as that reader may
see it (``id: <seq>``), keep-alive comments while nothing happens, and ``event: end`` once the game is
over. ``Last-Event-ID`` (or ``?last_event_id=``) resumes after that seq with no view, no gap and no
duplicate. ``?views=1``: the view also follows the new events of every read (see ``api/sse.py``).

A seat's stream opens with its token in ``Authorization: Bearer <token>``; a spectator's with no
credential. Browsers' EventSource cannot send headers, and a token in the URL would be written to every
access log on its way, so ``?token=`` is refused (400). Instead, ``POST /api/games/{id}/stream-ticket``
with the token in the header returns a ticket valid for ``service.tickets.TTL_SECONDS`` that opens that
seat's stream as ``?ticket=<ticket>`` (and nothing else); the stream runs on past its expiry. A client
that reconnects later asks for a new ticket and resumes with ``?last_event_id=``.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from collections import Counter
from collections.abc import Iterator

from flask import Blueprint, Response, current_app, request

from aegis.api import schemas, sse
from aegis.api.games import answer, body, token
from aegis.service import tickets
from aegis.service.games import GameService
from aegis.service.store_watch import WATCH_SECONDS, Looks, StoreWatch

log = logging.getLogger(__name__)

bp = Blueprint("stream", __name__, url_prefix="/api/games")


@bp.post("/<gid>/stream-ticket")
def stream_ticket(gid: str) -> Response:
    body(schemas.built(schemas.StreamTicketIn))
    issued = tickets.issue(current_app.extensions["aegis"], sse.game_id(gid), token())
    out = {"ticket": issued.text, "seat": issued.seat, "expires_at": issued.expires_at}
    return answer(schemas.built(schemas.StreamTicketOut), out, 201, **{"Cache-Control": "no-store"})


@bp.get("/<gid>/stream")
def stream(gid: str) -> Response:
    """The stream on this (threaded, WSGI) server: it holds a thread for as long as it runs. ``aegis serve``
    serves this route asynchronously instead (``api/asgi.py``), with the same frames (``api/sse.py``)."""
    opened = sse.opening(gid, request.args, request.headers.get("Authorization"), request.headers.get("Last-Event-ID"))
    svc = current_app.extensions["aegis"]
    broker = current_app.extensions["aegis.broker"]
    keepalive = svc.settings.keepalive_seconds
    who = sse.reader(svc, opened)
    gid_u = opened.game
    release = current_app.extensions["aegis.stream_slots"].take(request.remote_addr)  # 429 when none is free

    watch: ThreadedWatch | None = current_app.extensions["aegis.stream_watch"]
    held = watch.holding(str(gid_u)) if watch is not None else contextlib.nullcontext()

    def frames() -> Iterator[str]:
        # listen first, and watch the store from before the view: nothing saved from now on is missed
        with broker.listen(str(gid_u)) as listener, held:
            sent = opened.last
            if sent is None:
                opening, sent, done = sse.view_frames(svc.view_as(gid_u, who))
                yield from opening
                if done:
                    return
            first = opened.last is not None  # a resumed stream's first read brings the view (?views=1)
            while True:
                got = sse.read(svc, gid_u, {who: sent}, (who,) if opened.views else ())
                now = sse.step(sent, got.frames[who], got.seq, got.ended, got.views.get(who), first=first)
                first = False
                yield from now.frames
                sent = now.sent
                if now.done:
                    return
                if now.behind:
                    continue  # more than a batch behind
                if listener.get(timeout=keepalive) is None:
                    yield sse.KEEPALIVE

    response = Response(frames(), mimetype="text/event-stream", headers=sse.HEADERS)
    response.call_on_close(release)  # the server closes the response when the stream ends or its client goes
    return response


class ThreadedWatch:
    """Saves of other processes for this threaded server's streams when its notices stay in the process (no
    ``REDIS_URL``; ``service/store_watch.py``): while it holds streams, one thread looks at the store every
    ``WATCH_SECONDS`` and publishes a notice of each watched game another process saved, which wakes its streams as
    a notice of this process's own save does. The thread ends when the last stream does."""

    def __init__(self, service: GameService):
        self.service = service
        self.watch = StoreWatch(service)
        self.looks = Looks(self.watch)
        self.games: Counter[str] = Counter()  # game -> the streams held on it here
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None

    @contextlib.contextmanager
    def holding(self, game: str) -> Iterator[None]:
        """Watch ``game`` while a stream of it runs; entered before the stream reads its view."""
        with self._lock:
            self.games[game] += 1
            self.watch.streams += 1
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="stream-store-watch", daemon=True)
                self._thread.start()
        try:
            self.watch.mark()
            yield
        finally:
            with self._lock:
                self.games[game] -= 1
                if not self.games[game]:
                    del self.games[game]
                self.watch.streams -= 1

    def _run(self) -> None:
        broker = self.service.broker
        with broker.listen_all() as listener:
            while True:
                notices = listener.get(timeout=WATCH_SECONDS)
                with self._lock:
                    if not self.games:  # the last stream ended: so does the watch (the next stream starts it again)
                        self.watch.moved((), {})  # with no stream counted, this stops watching: the next one marks anew
                        self._thread = None
                        return
                    games = frozenset(self.games)
                try:
                    self.looks.heard(notices, games)
                    for game, seq in self.looks.look(games):
                        broker.publish(game, seq)
                except Exception:  # the store away: the streams still get their keep-alives; look again next time
                    log.warning("looking at the store for other processes' saves failed", exc_info=True)
