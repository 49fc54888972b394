"""When a reader of a game's record sees what: the one place of that policy for replays, timelines, audits and
disputes.

- ``spectator``: anyone, any time.
- a seat: its own token holder during the game; anyone once the game is over (what that player knew).
- ``omniscient``: anyone once the game is over; nobody before, a rigged game's host included: what a rigged position
  leaves to chance (the cards a ``setup`` did not place, an ``as_known`` branch's new deal, every draw from a mixed
  seed) is as hidden from its host as from anyone.

Once a game is over everything is public (A53 ruling, ``domain.kernel.redaction.reader``), and so is every event
of it; during the game, each event and state is shown as the perspective may know it. The live reads (views,
event pages, streams) apply the same kernel rule to the game as it is now.
"""

from __future__ import annotations

from aegis.domain.kernel.redaction import OMNISCIENT, SPECTATOR, Perspective, reader
from aegis.service import tokens
from aegis.service.aggregate import Game
from aegis.service.errors import BadRequest, Forbidden, Unauthorized


def looking_as(game: Game, as_: str | None, token: str | None) -> Perspective:
    """Parse ``as`` (a seat, ``spectator``, ``omniscient``, or none) and check that the caller may look from there
    (403 otherwise): the perspective to show the record from. Without ``as``, a seat's token looks from its seat
    (as its view does), anyone else as a spectator. A token that is neither one of the game's seats' nor its
    host's is refused (401), as the view refuses it, rather than taken for no token."""
    finished = game.finished_seq is not None
    own = tokens.seat_of(game.seats, token)
    if token and own is None and not tokens.matches(token, game.host_token_hash):
        raise Unauthorized("unknown token: it is not a seat's or the host's token of this game")
    if as_ in (None, ""):
        return SPECTATOR if own is None else own
    if as_ == SPECTATOR:
        return SPECTATOR
    if as_ == OMNISCIENT:
        if finished:
            return OMNISCIENT
        raise Forbidden("the omniscient replay opens when the game is over, for everyone (a rigged game's host included)")
    if not as_.isdigit() or not 0 <= int(as_) < len(game.seats):
        raise BadRequest(f"'as' is a seat (0-{len(game.seats) - 1}), 'spectator' or 'omniscient', not {as_!r}")
    seat = int(as_)
    if finished or own == seat:
        return seat
    raise Forbidden(f"during the game only seat {seat}'s own token may replay what seat {seat} knew")


def at_event(game: Game, who: Perspective, seq: int) -> Perspective:
    """Who ``who`` effectively is for the event numbered ``seq``: everyone sees all of an event from the one that
    ended the game on (the end itself reveals what it names)."""
    return reader(who, finished=game.finished_seq is not None and game.finished_seq <= seq)


def now(game: Game, who: Perspective) -> Perspective:
    """Who ``who`` effectively is for the record as it stands: everyone sees everything once the game is over."""
    return reader(who, finished=game.finished_seq is not None)


def of_token(game: Game, token: str | None) -> Perspective:
    """Who a reader is without asking for a perspective (a dispute's reader): the seat whose token ``token`` is, else
    the spectator (no token, or another game's, a host's or a player's key); apply ``now`` for the record as it stands."""
    seat = tokens.seat_of(game.seats, token)
    return SPECTATOR if seat is None else seat
