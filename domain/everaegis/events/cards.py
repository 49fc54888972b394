"""Cards: drawn, dealt by a rig, not gained when nothing is left (A29), revealed and turned face down again
(R58, R63), discarded into the deck (R96), moved by the Temple (R46), put on the deck by the Simpleton Laboratory
(R52, A21); and a year made into the deck when the deck is empty (R34).
"""

from __future__ import annotations

from dataclasses import field
from typing import Any

from aegis.domain.everaegis.card import exposed_in_deck
from aegis.domain.everaegis.events.end import ELIMINATION_REVEAL
from aegis.domain.everaegis.events.moves import discard_done, replace_card, take_card
from aegis.domain.everaegis.events.tables import Who, handler, narrator
from aegis.domain.everaegis.events.words import a_card, capital, effect_of, the_effect
from aegis.domain.everaegis.state import Card, GameState
from aegis.domain.kernel.events import Event, event

PROOF = "proof"  # the reason of a proof's reveal and unreveal: shown, then face down at once, never a full reveal (R63)


@event
class YearMadeDeck(Event):
    """Empty Deck Rule: the current player makes a year into the deck (R34)."""

    year: str = ""
    chosen_by: int = 0
    size: int = 0
    forced: bool = False


@handler(YearMadeDeck)
def _evolve_year_made_deck(s: GameState, e: YearMadeDeck) -> None:
    for i, (label, cards) in enumerate(s.years):
        if label == e.year:
            s.deck = cards
            del s.years[i]
            return
    raise ValueError(f"no year {e.year}")


@narrator(YearMadeDeck)
def _narrate_year_made_deck(e: dict[str, Any], who: Who) -> str:
    how = "the last year left" if e.get("forced") else f"chosen by {who(e['chosen_by'])}"
    return f"The deck is empty: year {e['year']} ({e['size']} cards) becomes the deck, {how}"


@event
class CardDrawn(Event):
    seat: int = 0
    card: str = ""
    name: str = ""
    knowers: list[int] = field(default_factory=list)
    reason: str = ""
    deck_left: int = 0
    PRIVATE = {"name": "knowers"}


@handler(CardDrawn)
def _evolve_card_drawn(s: GameState, e: CardDrawn) -> None:
    card = s.deck.pop(0)
    assert card.id == e.card
    s.players[e.seat].cards.append(card)
    if s.play.draw_queue:
        s.play.draw_queue.pop(0)


@narrator(CardDrawn)
def _narrate_card_drawn(e: dict[str, Any], who: Who) -> str:
    return f"{who(e['seat'])} draws {a_card(e)}"


@event
class CardDealt(Event):
    """Rigged setup: a card placed in a player's possession as the rig says."""

    seat: int = 0
    card: str = ""
    name: str = ""
    revealed: bool = False
    knowers: Any = field(default_factory=list)
    PRIVATE = {"name": "knowers"}


@handler(CardDealt)
def _evolve_card_dealt(s: GameState, e: CardDealt) -> None:
    for i, (_label, cards) in enumerate(s.years):
        for j, c in enumerate(cards):
            if c.id == e.card:
                del cards[j]
                if not cards:
                    del s.years[i]
                s.players[e.seat].cards.append(c.flip(e.revealed))
                return
    raise ValueError(f"card {e.card} is not in the rig's stock")


@narrator(CardDealt)
def _narrate_card_dealt(e: dict[str, Any], who: Who) -> str:
    return f"{who(e['seat'])} is dealt {a_card(e)}" + (" face up" if e.get("revealed") else "")


@event
class CardNotGained(Event):
    """Nothing is left anywhere to gain a card from (A29)."""

    seat: int = 0
    reason: str = ""


@handler(CardNotGained)
def _evolve_card_not_gained(s: GameState, e: CardNotGained) -> None:
    if s.play.draw_queue:
        s.play.draw_queue.pop(0)


@narrator(CardNotGained)
def _narrate_card_not_gained(e: dict[str, Any], who: Who) -> str:
    return f"{who(e['seat'])} gains no card: the deck and every year are empty"


@event
class CardRevealed(Event):
    seat: int = 0
    card: str = ""
    name: str = ""
    full: bool = True  # R63: a proof shown and unrevealed at once is not a full reveal
    reason: str = ""


@handler(CardRevealed)
def _evolve_card_revealed(s: GameState, e: CardRevealed) -> None:
    if e.full:
        _note_estate_revealed(s, e.seat, e.name)
    card = s.players[e.seat].card(e.card)
    assert card is not None
    replace_card(s, e.seat, card.flip(True))
    if e.reason == "setup" and s.play.reveal_queue and s.play.reveal_queue[0] == e.seat:
        s.play.reveal_queue.pop(0)
    war = s.play.act.war if s.play.act is not None else None
    # a war's loser who resigns reveals every card (R123): that meets the reveals still due (S2)
    for_war = e.reason == "war" or (e.reason == ELIMINATION_REVEAL and war is not None and e.seat == war.loser)
    if for_war and war is not None and war.stage == "reveal":
        war.due -= 1
        if war.due <= 0:
            war.stage = "casualties"


def _note_estate_revealed(s: GameState, seat: int, name: str) -> None:
    """Abilities that act whenever an estate card is revealed fire next (R92, R131; E15)."""
    if s.estate(name) is None:
        return
    for p in s.players:
        for mat in s.abilities(p.seat, "estate revealed"):
            s.pending.triggers.append({"seat": p.seat, "mat": mat, "card": name, "holder": seat})


@narrator(CardRevealed)
def _narrate_card_revealed(e: dict[str, Any], who: Who) -> str:
    if not e.get("full", True):
        return f"{who(e['seat'])} shows {a_card(e)} to prove the claim"
    why = {
        "war": " after losing the war",
        "incorrect call": " for an incorrect call",
        "eliminated": " on elimination",
        "bluff exposed": " to answer the call",  # BluffExposed then says what it shows
    }
    reason = next((v for k, v in why.items() if str(e.get("reason", "")).startswith(k)), "")
    by = effect_of(e.get("reason"))
    if by is not None:  # another's effect may have chosen the card (the AXE): say what did it, not that they did
        return f"{capital(the_effect(by))} reveals {_whose(e, who)}"
    return f"{who(e['seat'])} reveals {a_card(e)}{reason}"


def _whose(e: dict[str, Any], who: Who) -> str:
    """The event's card as its possessor's, as the reader may know it: "Fred's Chapel", "one of Fred's cards"."""
    return f"{who(e['seat'])}'s {e['name']}" if e.get("name") else f"one of {who(e['seat'])}'s cards"


@event
class CardUnrevealed(Event):
    seat: int = 0
    card: str = ""
    name: str = ""
    reason: str = ""


@handler(CardUnrevealed)
def _evolve_card_unrevealed(s: GameState, e: CardUnrevealed) -> None:
    card = s.players[e.seat].card(e.card)
    assert card is not None
    # Everyone saw it: its identity stays public while it is face down (R58).
    from dataclasses import replace

    # A card fully revealed, then turned face down, is still in play: revealed again, it does not act again (A30);
    # a proof was never a full reveal (R63)
    replace_card(s, e.seat, replace(card, revealed=False, public=True, shown=card.shown or e.reason != PROOF))


@narrator(CardUnrevealed)
def _narrate_card_unrevealed(e: dict[str, Any], who: Who) -> str:
    by = effect_of(e.get("reason"))
    if by is not None:  # the Tailor's possessor turned it, not the card's
        return f"{capital(the_effect(by))} turns {_whose(e, who)} face down again"
    return f"{who(e['seat'])} turns {a_card(e)} face down again"


@event
class CardDiscarded(Event):
    """A discarded card is shuffled into the deck at a random position, unseen, with a new id (R96)."""

    seat: int = 0
    card: str = ""
    name: str = ""
    knowers: list[int] = field(default_factory=list)
    was_revealed: bool = False
    reason: str = ""
    new_card: str = ""
    position: int = 0
    deck_size: int = 0
    rng: list[int] = field(default_factory=list)
    renewed: list[str] = field(default_factory=list)  # new ids, in deck order, of the cards it made nobody's to name
    PRIVATE = {"name": "knowers"}
    SECRET = ("new_card", "position", "rng", "renewed")


@handler(CardDiscarded)
def _evolve_card_discarded(s: GameState, e: CardDiscarded) -> None:
    card = take_card(s, e.seat, e.card)
    if e.renewed:  # rules version 3: what anyone knew of the deck's order is gone, and the ids they knew it by
        fresh = iter(e.renewed)
        s.deck = [Card(next(fresh), c.name) if exposed_in_deck(c) else c for c in s.deck]
    s.deck.insert(e.position, Card(e.new_card, card.name))
    s.rng = e.rng[1]
    discard_done(s, e.seat, e.reason)


@narrator(CardDiscarded)
def _narrate_card_discarded(e: dict[str, Any], who: Who) -> str:
    by = effect_of(e.get("reason"))
    if by is not None:  # the HAMMER's possessor discarded it, not the card's
        return f"{capital(the_effect(by))} discards {_whose(e, who)}; it is shuffled into the deck"
    return f"{who(e['seat'])} discards {a_card(e)}; it is shuffled into the deck"


@event
class CardMoved(Event):
    """Temple: a revealed card changes possessor (R46)."""

    card: str = ""
    name: str = ""
    from_seat: int = 0
    to_seat: int = 0
    reason: str = ""


@handler(CardMoved)
def _evolve_card_moved(s: GameState, e: CardMoved) -> None:
    card = take_card(s, e.from_seat, e.card)
    s.players[e.to_seat].cards.append(card)
    if s.play.act is not None:
        s.play.act.step += 1


@narrator(CardMoved)
def _narrate_card_moved(e: dict[str, Any], who: Who) -> str:
    return f"{who(e['from_seat'])}'s revealed {e.get('name') or 'card'} goes to {who(e['to_seat'])}"


@event
class CardPutOnDeck(Event):
    """Simpleton Laboratory: an unrevealed card goes on top of the deck (R52, A21)."""

    seat: int = 0
    card: str = ""
    name: str = ""
    knowers: list[int] = field(default_factory=list)
    PRIVATE = {"name": "knowers"}


@handler(CardPutOnDeck)
def _evolve_card_put_on_deck(s: GameState, e: CardPutOnDeck) -> None:
    from dataclasses import replace

    card = take_card(s, e.seat, e.card)
    known = set(card.known) | {e.seat}
    s.deck.insert(0, replace(card, known=frozenset(known), shown=False))  # it leaves play: new to it when drawn (A30)


@narrator(CardPutOnDeck)
def _narrate_card_put_on_deck(e: dict[str, Any], who: Who) -> str:
    return f"{who(e['seat'])} puts {a_card(e)} on top of the deck"
