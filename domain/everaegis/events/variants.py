"""The Alliances, Overlord and Blasphemy variants (R163, R170, R171): allies seated, the Overlord chosen
and scored, the Blasphemy card and its tokens gained and taken as the spoils of war.
"""

from __future__ import annotations

import dataclasses
from dataclasses import field
from typing import Any

from aegis.domain.everaegis.events.tables import Who, handler, narrator
from aegis.domain.everaegis.events.words import action_name, counted
from aegis.domain.everaegis.state import GameState
from aegis.domain.kernel.events import Event, event


@event
class AlliesSeated(Event):
    """Alliances: each seat's allies, the players immediately left and right at setup (R163)."""

    allies: list[list[int]] = field(default_factory=list)  # by seat


@handler(AlliesSeated)
def _evolve_allies_seated(s: GameState, e: AlliesSeated) -> None:
    s.variant.allies = {seat: tuple(allies) for seat, allies in enumerate(e.allies)}


@narrator(AlliesSeated)
def _narrate_allies_seated(e: dict[str, Any], who: Who) -> str:
    pairs = "; ".join(f"{who(seat)}: {' and '.join(who(a) for a in allies)}" for seat, allies in enumerate(e["allies"]))
    return f"Alliances: each player's allies sit to their left and right ({pairs})"


@event
class OverlordChosen(Event):
    """Overlord: the seat that plays alone against every other player and always goes last (R170)."""

    seat: int = 0
    method: str = ""


@handler(OverlordChosen)
def _evolve_overlord_chosen(s: GameState, e: OverlordChosen) -> None:
    s.variant.overlord = e.seat


@narrator(OverlordChosen)
def _narrate_overlord_chosen(e: dict[str, Any], who: Who) -> str:
    return f"{who(e['seat'])} is the Overlord, against every other player: {e['method']}"


@event
class BlasphemyCardSet(Event):
    """Blasphemy setup: cards revealed from the top of the deck until a building card; the others go to the
    bottom in the order revealed, the building is the Blasphemy card beside the deck (R171). All were shown."""

    card: str | None = None  # None: the deck held no building card (a rigged position only)
    name: str | None = None
    bottom: list[dict[str, str]] = field(default_factory=list)  # the other revealed cards, in order


@handler(BlasphemyCardSet)
def _evolve_blasphemy_card_set(s: GameState, e: BlasphemyCardSet) -> None:
    s.variant.tokens = [0] * s.seats
    if e.card is None:
        return
    shown = len(e.bottom)
    top, s.deck = s.deck[: shown + 1], s.deck[shown + 1 :]
    assert top[-1].id == e.card and [c.id for c in top[:-1]] == [c["id"] for c in e.bottom]
    s.variant.blasphemy = top[-1]
    s.deck.extend(dataclasses.replace(c, public=True) for c in top[:-1])  # everyone saw them go under


@narrator(BlasphemyCardSet)
def _narrate_blasphemy_card_set(e: dict[str, Any], who: Who) -> str:
    if e.get("card") is None:
        return "Blasphemy: the deck holds no building card, so there is no Blasphemy card"
    under = len(e.get("bottom") or [])
    verb = "goes" if under == 1 else "go"
    tail = f"; {counted(under, 'other revealed card')} {verb} to the bottom of the deck" if under else ""
    return f"Blasphemy: the {e['name']} from the top of the deck is the Blasphemy card{tail}"


@event
class BlasphemyTokenGained(Event):
    """A player used the Blasphemy card's action and nothing thwarted it (R171, A48 ruling)."""

    seat: int = 0
    action: str = ""
    total: int = 0


@handler(BlasphemyTokenGained)
def _evolve_blasphemy_token_gained(s: GameState, e: BlasphemyTokenGained) -> None:
    s.variant.tokens[e.seat] += 1
    s.variant.token_turn = s.play.turn


@narrator(BlasphemyTokenGained)
def _narrate_blasphemy_token_gained(e: dict[str, Any], who: Who) -> str:
    return (
        f"{who(e['seat'])} used the {action_name(e['action'])} of the Blasphemy card and gains a Blasphemy token ({e['total']})"
    )


@event
class BlasphemySpoilsOffered(Event):
    """The winner of a war may take 1 of the loser's Blasphemy tokens (R90, R171): the winner chooses."""

    winner: int = 0
    loser: int = 0


@handler(BlasphemySpoilsOffered)
def _evolve_blasphemy_spoils_offered(s: GameState, e: BlasphemySpoilsOffered) -> None:
    s.variant.offer = (e.winner, e.loser)
    s.variant.offer_turn = s.play.turn


@narrator(BlasphemySpoilsOffered)
def _narrate_blasphemy_spoils_offered(e: dict[str, Any], who: Who) -> str:
    return f"{who(e['winner'])} won the war and may take 1 of {who(e['loser'])}'s Blasphemy tokens"


@event
class BlasphemyTokenTaken(Event):
    seat: int = 0
    from_seat: int = 0


@handler(BlasphemyTokenTaken)
def _evolve_blasphemy_token_taken(s: GameState, e: BlasphemyTokenTaken) -> None:
    s.variant.tokens[e.from_seat] -= 1
    s.variant.tokens[e.seat] += 1
    s.variant.offer = None


@narrator(BlasphemyTokenTaken)
def _narrate_blasphemy_token_taken(e: dict[str, Any], who: Who) -> str:
    return f"{who(e['seat'])} takes a Blasphemy token from {who(e['from_seat'])}"


@event
class BlasphemySpoilsDeclined(Event):
    seat: int = 0
    loser: int = 0


@handler(BlasphemySpoilsDeclined)
def _evolve_blasphemy_spoils_declined(s: GameState, e: BlasphemySpoilsDeclined) -> None:
    s.variant.offer = None


@narrator(BlasphemySpoilsDeclined)
def _narrate_blasphemy_spoils_declined(e: dict[str, Any], who: Who) -> str:
    return f"{who(e['seat'])} leaves {who(e['loser'])}'s Blasphemy tokens"


@event
class OverlordScored(Event):
    """Overlord: the deck and every year are out of cards; each side's total of unrevealed cards (R170, A47)."""

    overlord: int = 0
    overlord_total: int = 0
    team: list[int] = field(default_factory=list)
    team_total: int = 0


@handler(OverlordScored)
def _evolve_overlord_scored(s: GameState, e: OverlordScored) -> None:
    pass  # the totals are told; the GameEnded that follows ends the game (R170)


@narrator(OverlordScored)
def _narrate_overlord_scored(e: dict[str, Any], who: Who) -> str:
    return (
        f"The deck and every year are out of cards: the team has {counted(e['team_total'], 'unrevealed card')}, "
        f"the Overlord {who(e['overlord'])} has {e['overlord_total']}"
    )
