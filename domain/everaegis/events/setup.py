"""Setup: the game begins with its seed committed, the years and the deck are formed, the first player is
chosen, the starting cards are to be drawn and, in a Quick Game, each player reveals one of them (R14, R16, R162,
R164, R166).
"""

from __future__ import annotations

from dataclasses import field
from typing import Any

from aegis.domain.everaegis.catalog import CATALOG
from aegis.domain.everaegis.config import Config
from aegis.domain.everaegis.events.moves import cards_from
from aegis.domain.everaegis.events.tables import Who, handler, narrator
from aegis.domain.everaegis.events.words import counted
from aegis.domain.everaegis.state import GameState, Player
from aegis.domain.kernel.events import Event, event


@event
class GameStarted(Event):
    ruleset: str = "ever-aegis"
    config: dict[str, Any] = field(default_factory=dict)
    commitment: str = ""
    seed: str = ""
    rigged: bool = False  # a chosen position (teaching, dispute reproduction) or seed: never counted nor rated
    SECRET = ("seed",)


@handler(GameStarted)
def _evolve_game_started(s: GameState, e: GameStarted) -> None:
    s.config = Config.from_dict(e.config)
    s.seed = e.seed
    s.commitment = e.commitment
    s.rigged = e.rigged
    names = s.config.names or tuple(f"Seat {i}" for i in range(s.config.seats))
    s.players = [Player(i, names[i]) for i in range(s.config.seats)]
    s.items.sanction_supply = CATALOG.item_count["SANCTION"]
    s.items.brig_supply = CATALOG.item_count["BRIG"]
    s.status = "setup"
    s.stage = "setup"


@narrator(GameStarted)
def _narrate_game_started(e: dict[str, Any], who: Who) -> str:
    if e.get("rigged") and e.get("commitment"):
        return (
            "A rigged game begins: its creator chose the position; the cards it does not place come from a seed "
            "committed to before it, whose commitment is published"
        )
    if e.get("rigged"):
        return "A rigged game begins: its creator chose the position or the seed, so no seed commitment is published"
    return "The game begins; the seed's commitment is published"


STOCK = "hands"  # a rigged setup's hands, dealt at once face down: held like a year, but only its size is public


@event
class YearsFormed(Event):
    """The years are made (R14, R162); their counts per building are public (A53), their order is not."""

    years: list[dict[str, Any]] = field(default_factory=list)  # [{year, size, composition}]
    cards: list[list[dict[str, str]]] = field(default_factory=list)  # per year, top first
    rng: list[int] = field(default_factory=list)
    SECRET = ("cards",)


@handler(YearsFormed)
def _evolve_years_formed(s: GameState, e: YearsFormed) -> None:
    s.years = [(y["year"], cards_from(cards)) for y, cards in zip(e.years, e.cards, strict=True)]
    s.rng = e.rng[1]


@narrator(YearsFormed)
def _narrate_years_formed(e: dict[str, Any], who: Who) -> str:
    years = [y for y in e.get("years", []) if y.get("year") != STOCK]  # a rigged table's hands are held as one: no year
    return f"{len(years)} years are formed and shuffled"


@event
class DeckFormed(Event):
    """Two years shuffled together make the deck (R16)."""

    years: list[str] = field(default_factory=list)
    size: int = 0
    cards: list[dict[str, str]] = field(default_factory=list)
    rng: list[int] = field(default_factory=list)
    SECRET = ("cards",)


@handler(DeckFormed)
def _evolve_deck_formed(s: GameState, e: DeckFormed) -> None:
    s.years = [(label, cards) for label, cards in s.years if label not in e.years]
    s.deck = cards_from(e.cards)
    s.rng = e.rng[1]


@narrator(DeckFormed)
def _narrate_deck_formed(e: dict[str, Any], who: Who) -> str:
    return f"The deck is formed: {e['size']} cards"


@event
class FirstPlayerChosen(Event):
    seat: int = 0
    method: str = "random"
    rng: list[int] = field(default_factory=list)


@handler(FirstPlayerChosen)
def _evolve_first_player_chosen(s: GameState, e: FirstPlayerChosen) -> None:
    s.play.first_player = e.seat
    if e.rng:
        s.rng = e.rng[1]


@narrator(FirstPlayerChosen)
def _narrate_first_player_chosen(e: dict[str, Any], who: Who) -> str:
    return f"{who(e['seat'])} plays first"


@event
class SetupDealt(Event):
    """Starting cards are to be drawn (Quick: 3 each, Survival: up to 6 each; R164, R166)."""

    cards_each: int = 0


@handler(SetupDealt)
def _evolve_setup_dealt(s: GameState, e: SetupDealt) -> None:
    order = [seat for seat in s.turn_order_from(s.play.first_player or 0) if not s.players[seat].eliminated]  # S2: not resigned
    for _ in range(e.cards_each):
        s.play.draw_queue.extend((seat, "setup") for seat in order)
    s.stage = "deal"
    s.status = "active"  # from here on players make decisions (Quick reveals, Empty Deck choices)


@narrator(SetupDealt)
def _narrate_setup_dealt(e: dict[str, Any], who: Who) -> str:
    return f"Everyone starts with {counted(e['cards_each'], 'card')}" if e["cards_each"] else "Setup is done"


@event
class SetupRevealsBegan(Event):
    """Quick Game: in turn order each player must reveal 1 of their cards (R164)."""

    order: list[int] = field(default_factory=list)


@handler(SetupRevealsBegan)
def _evolve_setup_reveals_began(s: GameState, e: SetupRevealsBegan) -> None:
    s.play.reveal_queue = list(e.order)
    s.stage = "quick_reveal"


@narrator(SetupRevealsBegan)
def _narrate_setup_reveals_began(e: dict[str, Any], who: Who) -> str:
    return "Each player reveals a card before play"
