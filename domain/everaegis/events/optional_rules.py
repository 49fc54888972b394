"""The optional rules Rubble Rouser and Discovery (R158, R160, docs/rulings.md): a discard face up
onto the rubble and the rubble shuffled into the deck; the discovery token on a card that was revealed.
"""

from __future__ import annotations

import dataclasses
from dataclasses import field
from typing import Any

from aegis.domain.everaegis.events.moves import cards_from, discard_done, replace_card, take_card
from aegis.domain.everaegis.events.tables import Who, handler, narrator
from aegis.domain.everaegis.events.words import a_card
from aegis.domain.everaegis.state import Card, GameState
from aegis.domain.kernel.events import Event, event


@event
class CardToRubble(Event):
    """Rubble Rouser: a discarded card goes face up onto the rubble, the public discard pile (R158).
    It keeps its id there: its identity is public from now on."""

    seat: int = 0
    card: str = ""
    name: str = ""
    was_revealed: bool = False
    reason: str = ""


@handler(CardToRubble)
def _evolve_card_to_rubble(s: GameState, e: CardToRubble) -> None:
    card = take_card(s, e.seat, e.card)
    s.rubble.append(Card(card.id, card.name))  # face up: the zone is public (R158)
    discard_done(s, e.seat, e.reason)


@narrator(CardToRubble)
def _narrate_card_to_rubble(e: dict[str, Any], who: Who) -> str:
    return f"{who(e['seat'])} discards {a_card(e)} face up onto the rubble"


@event
class RubbleShuffled(Event):
    """Rubble Rouser: a card must be gained from an empty deck, so the rubble is shuffled to form the deck,
    before any year (R158). Its composition was public; the order and the cards' new ids are not."""

    size: int = 0
    composition: dict[str, int] = field(default_factory=dict)
    cards: list[dict[str, str]] = field(default_factory=list)  # top first, with new ids
    rng: list[int] = field(default_factory=list)
    SECRET = ("cards",)


@handler(RubbleShuffled)
def _evolve_rubble_shuffled(s: GameState, e: RubbleShuffled) -> None:
    assert not s.deck and len(e.cards) == len(s.rubble)
    s.deck = cards_from(e.cards)
    s.rubble = []
    s.rng = e.rng[1]


@narrator(RubbleShuffled)
def _narrate_rubble_shuffled(e: dict[str, Any], who: Who) -> str:
    return f"The deck is empty: the rubble ({e['size']} cards) is shuffled to form the deck"


@event
class DiscoveryTokenPlaced(Event):
    """Discovery: a revealed card was unrevealed, so a discovery token on it shows everyone what it is (R160)."""

    seat: int = 0
    card: str = ""
    name: str = ""
    reason: str = ""


@handler(DiscoveryTokenPlaced)
def _evolve_discovery_token_placed(s: GameState, e: DiscoveryTokenPlaced) -> None:
    card = s.players[e.seat].card(e.card)
    assert card is not None
    replace_card(s, e.seat, dataclasses.replace(card, discovered=True, public=True))


@narrator(DiscoveryTokenPlaced)
def _narrate_discovery_token_placed(e: dict[str, Any], who: Who) -> str:
    return f"A discovery token marks {who(e['seat'])}'s face-down {e.get('name') or 'card'}"


@event
class DiscoveryTokenRemoved(Event):
    """Discovery: the card leaves its possessor for the deck or the rubble; its token goes back (R160 ruling)."""

    seat: int = 0
    card: str = ""
    name: str = ""
    reason: str = ""


@handler(DiscoveryTokenRemoved)
def _evolve_discovery_token_removed(s: GameState, e: DiscoveryTokenRemoved) -> None:
    card = s.players[e.seat].card(e.card)
    assert card is not None
    replace_card(s, e.seat, dataclasses.replace(card, discovered=False))


@narrator(DiscoveryTokenRemoved)
def _narrate_discovery_token_removed(e: dict[str, Any], who: Who) -> str:
    return f"The discovery token leaves {who(e['seat'])}'s {e.get('name') or 'card'}: it goes to the deck or the rubble"
