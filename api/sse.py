"""The frames of ``GET /api/games/{id}/stream``, whichever server holds the stream: the Flask route
(``api/stream.py``: the test client, a plain WSGI server) and the asynchronous one (``api/asgi.py``: what
``aegis serve`` runs). Both parse the request with ``opening``, settle the reader with ``reader``, send
``view_frames`` first (unless resuming) and then, after every read of new events, what ``step`` says.

The contract: first the reader's view (``event: view``, ``id: <seq>``), then every new event as that reader may
see it (``id: <seq>``), keep-alive comments while nothing happens, ``event: end`` once the game is over;
``Last-Event-ID`` (or ``?last_event_id=``) resumes after that seq with no view, no gap and no duplicate. With
``?views=1`` the reader's view also follows the new events of every read that brings the stream up to date (and
the first read of a resumed stream): a client that keeps no rules of its own holds its current view, prompts
included, without fetching it.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from typing import Any
from uuid import UUID

from aegis.api import jsonio
from aegis.api.games import bearer, game_id
from aegis.domain.kernel.redaction import Perspective
from aegis.service import streams
from aegis.service.errors import BadRequest
from aegis.service.games import GameService

BATCH = 500  # events per read: a reader further behind gets them in several reads, at once
KEEPALIVE = ": keep-alive\n\n"
KEEPALIVE_BYTES = KEEPALIVE.encode()
# the last words of a stream the server ends because it is shutting down (not the game's end: no ``event: end``)
GOING_AWAY_BYTES = b": the server is shutting down; resume with Last-Event-ID\n\n"
MEDIA_TYPE = "text/event-stream; charset=utf-8"
HEADERS = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
TOKEN_IN_QUERY = (  # every route's refusal of a token in its URL (api/__init__.py), the stream's own below
    "a token in the URL is written to access logs, so the service refuses ?token=: send it as "
    "'Authorization: Bearer <token>'"
)
TOKEN_IN_URL = TOKEN_IN_QUERY + (  # .format(game=...)
    ", or (from a browser's EventSource, which cannot send headers) get a ticket "
    "with POST /api/games/{game}/stream-ticket and that header, then open the stream with ?ticket=<ticket>"
)


TOKEN_PARAMETERS = frozenset({"token", "access_token"})  # as a query parameter, in any case: refused everywhere


def frame(data: Any, *, seq: int | None = None, event: str | None = None) -> str:
    head = (f"id: {seq}\n" if seq is not None else "") + (f"event: {event}\n" if event else "")
    return head + f"data: {jsonio.text(data)}\n\n"


@dataclass(frozen=True)
class Opening:
    game: UUID
    token: str | None
    ticket: str | None
    last: int | None  # resume after this seq (no view), or None: start with the view
    views: bool = False  # ?views=1: the view again after every read that brings the stream up to date


VIEWS_VALUES = {"1": True, "true": True, "0": False, "false": False}


def opening(gid: str, args: Mapping[str, str], authorization: str | None, last_event_id: str | None) -> Opening:
    """What a stream request asks for; refused (400, 401, 404) before anything is read."""
    if any(name.lower() in TOKEN_PARAMETERS for name in args):
        raise BadRequest(TOKEN_IN_URL.format(game=gid), kind="token-in-url")
    views = VIEWS_VALUES.get(args.get("views", "0").strip().lower())
    if views is None:
        raise BadRequest("views must be 1 (your view after every update) or 0 (events only, the default)")
    gid_u = game_id(gid)
    tok = bearer(authorization)
    raw_last = last_event_id or args.get("last_event_id")
    last: int | None = None
    if raw_last is not None:
        if not raw_last.strip().isdigit():
            raise BadRequest("Last-Event-ID must be a seq (a whole number)")
        last = int(raw_last)
    return Opening(gid_u, tok, args.get("ticket"), last, views)


def reader(service: GameService, opened: Opening) -> Perspective:
    """The stream's reader (reads the store): an unknown game is a 404, a wrong token or ticket a 401, and a
    ``Last-Event-ID`` past the game's last event a 400 (a seq only grows: no event of this game has it yet, so the
    client holds another game's id, or a corrupt one, and resuming from it would wait in silence)."""
    seq = service.read(opened.game, lambda game: game.seq)
    if opened.last is not None and opened.last > seq:
        raise BadRequest(
            f"Last-Event-ID {opened.last} is past this game's last event (seq {seq}): no event of the game has it, so "
            "there is nothing to resume after; open the stream without it to start with your view"
        )
    return streams.reader_of(service, opened.game, opened.token, opened.ticket)


def view_frame(view: dict[str, Any]) -> str:
    # the view is built in ViewOut's shape already (tests/api/test_view_shape.py): sent as it is, like GET /view
    return frame(view, seq=view["seq"], event="view")


def view_frames(view: dict[str, Any]) -> tuple[list[str], int, bool]:
    """The first frames (the view, and the end if the game is over), the seq sent, and whether that is all."""
    sent = view["seq"]
    out = [view_frame(view)]
    if view["status"] == "finished":
        out.append(frame({"seq": sent}, event="end"))
        return out, sent, True
    return out, sent, False


def event_frames(events: list[dict[str, Any]]) -> list[tuple[int, str]]:
    """Events (redacted for one perspective) as (seq, frame): written once, sent to every stream of that reader."""
    return [(e["seq"], frame(e, seq=e["seq"])) for e in events]


@dataclass(frozen=True)
class Step:
    frames: list[str]
    sent: int
    done: bool  # the game is over and its end was sent
    behind: bool  # more events are stored than were read: read again at once


def step(
    sent: int, batch: list[tuple[int, str]], game_seq: int, ended: int | None, view: str | None = None, *, first: bool = False
) -> Step:
    """What a stream that has sent up to ``sent`` sends after a read: the batch's events after ``sent`` (a batch
    shared by several streams may start earlier), then (``?views=1``: ``view`` is the reader's view frame as of
    ``game_seq``) the view if the stream is then up to date and this read sent an event or is the ``first`` of a
    resumed stream, then the end once the game's last event is sent."""
    out = []
    for seq, text in batch:
        if seq == sent + 1:
            out.append(text)
            sent = seq
    if view is not None and sent == game_seq and (out or first):
        out.append(view)
    if ended is not None and sent >= ended:
        out.append(frame({"seq": sent}, event="end"))
        return Step(out, sent, True, False)
    return Step(out, sent, False, sent < game_seq)


Frames = dict[Perspective, list[tuple[int, str]]]


@dataclass(frozen=True)
class Read:
    """One read of a game for its streams, as frames: each reader's new events, the game's seq, the seq that ended
    it, and the view frame of each reader that asked for views (``?views=1``)."""

    frames: Frames
    seq: int
    ended: int | None
    views: dict[Perspective, str]
    _steps: dict[tuple[Perspective, int, bool, bool], tuple[Step, bytes]] = field(
        default_factory=dict, compare=False, repr=False
    )

    def step_for(self, who: Perspective, sent: int, views: bool, first: bool) -> tuple[Step, bytes]:
        """What a stream of ``who`` that has sent up to ``sent`` sends after this read (``step``; ``views``: it asked
        for views), and those frames as bytes: worked out once for all the streams of a process that share the read
        and stand at the same seq (most of a reader's streams)."""
        key = (who, sent, views, first)
        found = self._steps.get(key)
        if found is None:
            view = self.views.get(who) if views else None
            now = step(sent, self.frames[who], self.seq, self.ended, view, first=first)
            found = self._steps[key] = (now, "".join(now.frames).encode())
        return found


def read(
    service: GameService, game: UUID, wanted: Mapping[Perspective, int], views: Collection[Perspective] = ()
) -> Read:
    """New events for each reader (and the view of each in ``views``) from one read of the game
    (``service.streams.read_new``), as frames: each written once, for every stream of that reader."""
    new = streams.read_new(service, game, wanted, BATCH, views)
    frames = {who: event_frames(evs) for who, evs in new.events.items()}
    return Read(frames, new.seq, new.ended, {who: view_frame(v) for who, v in new.views.items()})
