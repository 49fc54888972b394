"""What the evolve handlers of several concerns do alike: make cards from an event's list, take a card from a
player or replace it there, settle what a discard settles wherever the card goes, and give a player a Classic item.
"""

from __future__ import annotations

from aegis.domain.everaegis.state import Card, GameState


def cards_from(raw: list[dict[str, str]]) -> list[Card]:
    return [Card(c["id"], c["name"]) for c in raw]


def take_card(state: GameState, seat: int, card_id: str) -> Card:
    player = state.players[seat]
    for i, c in enumerate(player.cards):
        if c.id == card_id:
            return player.cards.pop(i)
    raise ValueError(f"seat {seat} has no card {card_id}")


def replace_card(state: GameState, seat: int, card: Card) -> None:
    cards = state.players[seat].cards
    for i, c in enumerate(cards):
        if c.id == card.id:
            cards[i] = card
            return
    raise ValueError(f"seat {seat} has no card {card.id}")


def discard_done(s: GameState, seat: int, reason: str) -> None:
    """What a discard settles, wherever the card goes: a Barracks victim's turn, a SANCTION's price."""
    act = s.play.act
    if act is not None and reason == "barracks" and act.queue and act.queue[0] == seat:
        act.queue.pop(0)
        act.discarded += 1
    elif act is not None and reason == "sanction":
        act.stage = "sanction paid"


def receive_item(s: GameState, item: str, seat: int) -> None:
    """A Classic item joins the seat's; not usable on the turn it was received (R103)."""
    by = s.items.held.setdefault(item, {})
    by[seat] = by.get(seat, 0) + 1
    fresh = s.items.fresh.setdefault(item, {})
    fresh[seat] = fresh.get(seat, 0) + 1
