"""Artificers (R172): before the game, in turn order, each player gives an opponent an item until
everyone holds 3 or no one-piece kind is left (A49).
"""

from __future__ import annotations

from dataclasses import field
from typing import Any

from aegis.domain.everaegis.events.moves import receive_item
from aegis.domain.everaegis.events.tables import Who, handler, narrator
from aegis.domain.everaegis.state import GameState
from aegis.domain.kernel.events import Event, event


@event
class ArtificersBegan(Event):
    """Artificers: before the game, in turn order, each player gives an opponent an item (R172)."""

    order: list[int] = field(default_factory=list)


@handler(ArtificersBegan)
def _evolve_artificers_began(s: GameState, e: ArtificersBegan) -> None:
    s.classic.gifting = list(e.order)
    s.stage = "artificers"
    s.status = "active"


@narrator(ArtificersBegan)
def _narrate_artificers_began(e: dict[str, Any], who: Who) -> str:
    return "Artificers: in turn order, each player gives an opponent an item until everyone holds 3"


@event
class ArtificerGave(Event):
    """An item of a one-piece kind, from the reserve, to an opponent holding fewer than 3 (R172). The TREATY is
    then gained with its INK QUILL by ``ItemGained`` events, as a Library gives it (R107, R108)."""

    seat: int = 0
    to: int = 0
    item: str = ""


@handler(ArtificerGave)
def _evolve_artificer_gave(s: GameState, e: ArtificerGave) -> None:
    if e.item == "WALL":
        s.items.wall = e.to
    elif e.item != "TREATY":  # the TREATY and its INK QUILL move with the ItemGained events that follow (R108)
        receive_item(s, e.item, e.to)  # usable once the first turn has ended (R103)
    _next_giver(s, e.seat)


@narrator(ArtificerGave)
def _narrate_artificer_gave(e: dict[str, Any], who: Who) -> str:
    return f"{who(e['seat'])} gives {who(e['to'])} the {e['item']}"


@event
class ArtificerPassed(Event):
    seat: int = 0
    reason: str = ""


@handler(ArtificerPassed)
def _evolve_artificer_passed(s: GameState, e: ArtificerPassed) -> None:
    _next_giver(s, e.seat)


def _next_giver(s: GameState, seat: int) -> None:
    """The giver goes to the back of the round, unless they resigned: then they give no more (S2)."""
    s.classic.gifting = [*s.classic.gifting[1:], *([] if s.players[seat].eliminated else [seat])]


@narrator(ArtificerPassed)
def _narrate_artificer_passed(e: dict[str, Any], who: Who) -> str:
    return f"{who(e['seat'])} has nobody to give an item to ({e['reason']})"


@event
class ArtificersDone(Event):
    """The setup gifts are over: every player holds 3 items, or no one-piece kind is left (A49)."""


@handler(ArtificersDone)
def _evolve_artificers_done(s: GameState, e: ArtificersDone) -> None:
    s.classic.gifting = []
    s.stage = "setup"
    s.classic.artificers_done = True


@narrator(ArtificersDone)
def _narrate_artificers_done(e: dict[str, Any], who: Who) -> str:
    return "The Artificers' gifts are done"
