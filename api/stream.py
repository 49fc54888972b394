"""``GET /api/games/{id}/stream``: Server-Sent Events for one reader.

First the reader's full view (``event: view``, ``id: <seq>``), then every new event as that reader may
see it (``id: <seq>``), keep-alive comments while nothing happens, and ``event: end`` once the game is
over. ``Last-Event-ID`` (or ``?last_event_id=``) resumes after that seq with no view, no gap and no
duplicate. Browsers' EventSource cannot send headers, so the token may also come as ``?token=``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from flask import Blueprint, Response, current_app, json, request

from api import schemas
from api.games import game_id, token
from service.errors import BadRequest

bp = Blueprint("stream", __name__, url_prefix="/api/games")
BATCH = 500


def _frame(data: Any, *, seq: int | None = None, event: str | None = None) -> str:
    head = (f"id: {seq}\n" if seq is not None else "") + (f"event: {event}\n" if event else "")
    return head + f"data: {json.dumps(data)}\n\n"


@bp.get("/<gid>/stream")
def stream(gid: str) -> Response:
    gid_u = game_id(gid)
    tok = token() or request.args.get("token") or None
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
    svc.perspective_of(gid_u, tok)  # and so is a wrong token (401)
    view_schema = schemas.ViewOut()

    def frames() -> Iterator[str]:
        with broker.listen(str(gid_u)) as listener:  # listen first: nothing saved from now on is missed
            sent = last
            if sent is None:
                view = svc.view(gid_u, tok)
                sent = view["seq"]
                yield _frame(view_schema.dump(view), seq=sent, event="view")
                if view["status"] == "finished":
                    yield _frame({"seq": sent}, event="end")
                    return
            while True:
                events, seq = svc.events(gid_u, tok, sent, BATCH)
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
