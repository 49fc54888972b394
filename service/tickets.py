"""Stream tickets: short-lived credentials that open one seat's event stream, and nothing else.

Browsers' EventSource cannot send an ``Authorization`` header, and a token in a URL is written to every
access log it passes (the server's, a proxy's). So a seat trades its token, sent in the header, for a
ticket (``POST /api/games/{id}/stream-ticket``) and opens ``GET /api/games/{id}/stream?ticket=<ticket>``.

A ticket is ``v1.<seat>.<expires>.<mac>``: ``expires`` in whole seconds since the epoch and ``mac`` the
HMAC-SHA256 (hex) of ``v1:<game id>:<seat>:<expires>`` keyed with the seat's stored token hash. It is
stateless: any API process, on any machine, checks it against the game's own record, with no secret to
share and no ticket to store. It is bound to one game and one seat, refused once expired, and only opens a
stream (no route takes it as a token); a stream opened with it runs on past the expiry. Whoever reads a
ticket in a log may open that seat's stream until it expires: hence ``TTL_SECONDS``. The key is why token
hashes never leave the store (``replay/records.py`` removes them from exports).
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass
from uuid import UUID

from aegis.service import tokens
from aegis.service.aggregate import Game
from aegis.service.errors import Forbidden, Unauthorized
from aegis.service.games import GameService

TTL_SECONDS = 60
VERSION = "v1"
MAX_NUMBER_DIGITS = 12  # a seat or an expiry (epoch seconds) never needs more
NEW_TICKET = "POST /api/games/{game}/stream-ticket with 'Authorization: Bearer <seat token>'"


@dataclass(frozen=True)
class Ticket:
    text: str
    seat: int
    expires_at: int


def _mac(key: str, game_id: UUID, seat: int, expires_at: int) -> str:
    message = f"{VERSION}:{game_id}:{seat}:{expires_at}".encode()
    return hmac.new(key.encode(), message, hashlib.sha256).hexdigest()


def mint(key: str, game_id: UUID, seat: int, expires_at: int) -> str:
    """The ticket of ``seat`` in ``game_id`` valid until ``expires_at``, keyed with the seat's token hash."""
    return f"{VERSION}.{seat}.{expires_at}.{_mac(key, game_id, seat, expires_at)}"


def issue(service: GameService, game_id: UUID, token: str | None, *, ttl: int = TTL_SECONDS) -> Ticket:
    """A ticket for the seat whose token this is. The host token and no token get none (401/403)."""
    if not token:
        raise Unauthorized(
            "a stream ticket is issued for a seat token (Authorization: Bearer <seat token>); "
            "a spectator opens the stream without any credential"
        )

    def read(game: Game) -> tuple[int, str]:
        if tokens.matches(token, game.host_token_hash):
            raise Forbidden("the host token gets no stream ticket: a seat token does (the host may watch as a spectator)")
        seat = service._seat_of(game, token)
        return seat, game.seats[seat]["token_hash"]

    seat, key = service.read(game_id, read)
    expires_at = int(service.clock()) + ttl
    return Ticket(mint(key, game_id, seat, expires_at), seat, expires_at)


def check(service: GameService, game_id: UUID, ticket: str) -> int:
    """The seat a ticket opens the stream of, or 401 (malformed, altered, another game's or seat's, expired)."""
    how = NEW_TICKET.format(game=game_id)
    parts = ticket.split(".")
    if (
        len(parts) != 4
        or parts[0] != VERSION
        or not all(p.isascii() and p.isdecimal() and len(p) <= MAX_NUMBER_DIGITS for p in parts[1:3])
        or not parts[3].isascii()  # compare_digest takes ASCII text only
    ):
        raise Unauthorized(f"this is not a stream ticket ({VERSION}.<seat>.<expires>.<signature>); get one with {how}")
    seat, expires_at, mac = int(parts[1]), int(parts[2]), parts[3]

    def key_of(game: Game) -> str | None:
        return game.seats[seat]["token_hash"] if seat < len(game.seats) else None

    key = service.read(game_id, key_of)
    if key is None or not hmac.compare_digest(_mac(key, game_id, seat, expires_at), mac):
        raise Unauthorized(
            f"this stream ticket does not open a stream of seat {seat} of this game (it was issued for another game "
            f"or seat, or altered); get one with {how}"
        )
    now = service.clock()
    if now >= expires_at:
        raise Unauthorized(
            f"this stream ticket expired {int(now - expires_at)} s ago (tickets last {TTL_SECONDS} s); get a new one with {how}",
            kind="ticket-expired",
        )
    return seat
