"""``GET /api/games/{id}/stream``: Server-Sent Events for one reader, and the tickets that open it.

First the reader's full view (``event: view``, ``id: <seq>``), then every new event as that reader may
see it (``id: <seq>``), keep-alive comments while nothing happens, and ``event: end`` once the game is
over. ``Last-Event-ID`` (or ``?last_event_id=``) resumes after that seq with no view, no gap and no
duplicate.

A seat's stream opens with its token in ``Authorization: Bearer <token>``; a spectator's with no
credential. Browsers' EventSource cannot send headers, and a token in the URL would be written to every
access log on its way, so ``?token=`` is refused (400). Instead, ``POST /api/games/{id}/stream-ticket``
with the token in the header returns a ticket valid for ``service.tickets.TTL_SECONDS`` that opens that
seat's stream as ``?ticket=<ticket>`` (and nothing else); the stream runs on past its expiry. A client
that reconnects later asks for a new ticket and resumes with ``?last_event_id=``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from flask import Blueprint, Response, current_app, json, request

from api import schemas
from api.games import answer, body, game_id, token
from service import streams, tickets
from service.errors import BadRequest

bp = Blueprint("stream", __name__, url_prefix="/api/games")
BATCH = 500
TOKEN_IN_URL = (  # .format(game=...)
    "a token in the URL is written to access logs, so the stream refuses ?token=: send it as "
    "'Authorization: Bearer <token>', or (from a browser's EventSource, which cannot send headers) get a ticket "
    "with POST /api/games/{game}/stream-ticket and that header, then open the stream with ?ticket=<ticket>"
)


def _frame(data: Any, *, seq: int | None = None, event: str | None = None) -> str:
    head = (f"id: {seq}\n" if seq is not None else "") + (f"event: {event}\n" if event else "")
    return head + f"data: {json.dumps(data)}\n\n"


@bp.post("/<gid>/stream-ticket")
def stream_ticket(gid: str) -> Response:
    body(schemas.StreamTicketIn())
    issued = tickets.issue(current_app.extensions["aegis"], game_id(gid), token())
    out = {"ticket": issued.text, "seat": issued.seat, "expires_at": issued.expires_at}
    return answer(schemas.StreamTicketOut(), out, 201, **{"Cache-Control": "no-store"})


@bp.get("/<gid>/stream")
def stream(gid: str) -> Response:
    if "token" in request.args:
        raise BadRequest(TOKEN_IN_URL.format(game=gid), kind="token-in-url")
    gid_u = game_id(gid)
    tok = token()
    ticket = request.args.get("ticket")
    raw_last = request.headers.get("Last-Event-ID") or request.args.get("last_event_id")
    last: int | None = None
    if raw_last is not None:
        if not raw_last.strip().isdigit():
            raise BadRequest("Last-Event-ID must be a seq (a whole number)")
        last = int(raw_last)
    svc = current_app.extensions["aegis"]
    broker = current_app.extensions["aegis.broker"]
    keepalive = svc.settings.keepalive_seconds
    svc.finished_at(gid_u)  # an unknown game is a 404 before the stream starts
    who = streams.reader_of(svc, gid_u, tok, ticket)  # and so is a wrong token or ticket (401)
    view_schema = schemas.ViewOut()

    def frames() -> Iterator[str]:
        with broker.listen(str(gid_u)) as listener:  # listen first: nothing saved from now on is missed
            sent = last
            if sent is None:
                view = svc.view_as(gid_u, who)
                sent = view["seq"]
                yield _frame(view_schema.dump(view), seq=sent, event="view")
                if view["status"] == "finished":
                    yield _frame({"seq": sent}, event="end")
                    return
            while True:
                events, seq = svc.events_as(gid_u, who, sent, BATCH)
                for e in events:
                    yield _frame(e, seq=e["seq"])
                    sent = e["seq"]
                ended = svc.finished_at(gid_u)
                if ended is not None and sent >= ended:
                    yield _frame({"seq": sent}, event="end")
                    return
                if sent < seq:
                    continue  # more than a batch behind
                if listener.get(timeout=keepalive) is None:
                    yield ": keep-alive\n\n"

    headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
    return Response(frames(), mimetype="text/event-stream", headers=headers)
