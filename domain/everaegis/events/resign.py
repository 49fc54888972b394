"""Resigning and timeouts (service rulings S2, S3; docs/rulings.md): a player resigns, a decision's clock
runs out and the server decides for them, a seat whose decisions keep timing out is played by a bot.
"""

from __future__ import annotations

from dataclasses import field
from typing import Any

from aegis.domain.everaegis.events.tables import Who, handler, narrator
from aegis.domain.everaegis.state import GameState
from aegis.domain.kernel.events import Event, event


@event
class PlayerResigned(Event):
    """A player leaves the game of their own accord (S2). From here on they take no further part: they are
    dropped from every queue that would ask them later (Barracks discards, Quick reveals, card draws still to
    come, the Freeform and Drafting order, the Artificers gifts), no undo point forms from a window open now
    and none can be claimed any more. The events that follow eliminate them as R123 says (or, for the
    Overlord, end the game: R170)."""

    seat: int = 0


@handler(PlayerResigned)
def _evolve_player_resigned(s: GameState, e: PlayerResigned) -> None:
    """S2: what would ask the seat later drops them; a decision awaited from them now stays theirs."""
    seat = e.seat
    s.departures.resigned.append(seat)
    s.calls.window_snapshot = None  # the window's snapshot predates the resignation: no undo point forms from it (R156)
    if s.play.draw_queue and s.play.draw_queue[0] == (seat, "draw phase"):
        s.items.draw_asked = []  # their Draw Phase draw is dropped, so nobody is asked whether to stop it
    s.play.draw_queue = [entry for entry in s.play.draw_queue if entry[0] != seat]  # they gain no more cards
    s.play.reveal_queue = [other for other in s.play.reveal_queue if other != seat]  # Quick Game: all their cards are revealed
    if s.play.act is not None:
        s.play.act.queue = [other for other in s.play.act.queue if other != seat]  # Barracks: no longer an opponent to affect
    s.classic.selecting = [other for i, other in enumerate(s.classic.selecting) if other != seat or i == 0]  # Freeform, Drafting
    s.classic.gifting = [other for i, other in enumerate(s.classic.gifting) if other != seat or i == 0]  # Artificers (R172)
    if s.variant.offer is not None and s.variant.offer[1] == seat and s.config.option("vengeance"):
        s.variant.offer = None  # R159: nobody takes a Blasphemy token from an eliminated player


@narrator(PlayerResigned)
def _narrate_player_resigned(e: dict[str, Any], who: Who) -> str:
    return f"{who(e['seat'])} resigns and leaves the game"


@event
class DecisionTimedOut(Event):
    """The clock on ``seat``'s decision of prompt kind ``kind`` ran out at ``deadline`` (S3): the service's
    cautious bot made it. ``played`` is the command it chose, which may name a card or an answer; only
    ``audience`` (the seat) sees it until the game is over. ``count``: decisions in a row that timed out."""

    seat: int = 0
    kind: str = ""
    deadline: float = 0.0
    count: int = 1
    played: dict[str, Any] = field(default_factory=dict)
    audience: list[int] = field(default_factory=list)
    PRIVATE = {"played": "audience"}


@handler(DecisionTimedOut)
def _evolve_decision_timed_out(s: GameState, e: DecisionTimedOut) -> None:
    pass  # the events of the play the bot chose follow


@narrator(DecisionTimedOut)
def _narrate_decision_timed_out(e: dict[str, Any], who: Who) -> str:
    what = who.asked(e["kind"])
    text = f"{who(e['seat'])} ran out of time to {what}; the server decided for them ({e['count']} in a row)"
    if "played" in e:  # only the seat itself sees what was played (redaction)
        text += f": {who.command(e['played'])}"
    return text


@event
class SeatAbandoned(Event):
    """``seat`` let ``count`` decisions in a row time out: a bot plays it for the rest of the game (S3)."""

    seat: int = 0
    count: int = 0


@handler(SeatAbandoned)
def _evolve_seat_abandoned(s: GameState, e: SeatAbandoned) -> None:
    if e.seat not in s.departures.abandoned:
        s.departures.abandoned.append(e.seat)


@narrator(SeatAbandoned)
def _narrate_seat_abandoned(e: dict[str, Any], who: Who) -> str:
    return f"{who(e['seat'])} let {e['count']} decisions in a row run out of time: a bot plays for them for the rest of the game"
