"""Classic: the components a game uses, the estate deck and the estate cards made into the deck, leader
selection (R13-R22, R35, A29, A54), and the Dictator's mat whose ability every player shares (R168).
"""

from __future__ import annotations

from dataclasses import field
from typing import Any

from aegis.domain.everaegis.events.moves import cards_from
from aegis.domain.everaegis.events.tables import Who, handler, narrator
from aegis.domain.everaegis.state import GameState
from aegis.domain.kernel.events import Event, event


@event
class ComponentsChosen(Event):
    """The estate cards and leader mats this Classic game uses, with their texts and how much of each the
    catalog knows (``plain``: played without effect, A54). Recorded so a replay never depends on today's catalog."""

    source: str = "shipped"
    estates: list[dict[str, Any]] = field(default_factory=list)
    leaders: list[dict[str, Any]] = field(default_factory=list)
    items: list[dict[str, Any]] = field(default_factory=list)  # the Classic items: count, class, effect


@handler(ComponentsChosen)
def _evolve_components_chosen(s: GameState, e: ComponentsChosen) -> None:
    s.classic.components = {"source": e.source, "estates": list(e.estates), "leaders": list(e.leaders), "items": list(e.items)}


@narrator(ComponentsChosen)
def _narrate_components_chosen(e: dict[str, Any], who: Who) -> str:
    estates = e.get("estates", [])
    plain = sum(1 for x in estates if x.get("plain"))
    leaders = e.get("leaders", [])
    text = f"Classic components: {len(estates)} estate cards ({plain} played plain: their text is not printed)"
    return text + (f", {len(leaders)} leader mats to select from" if leaders else ", Simpleton sides for every player")


@event
class EstateDeckFormed(Event):
    """The estate cards left after 2 went into each year, face down, in an order nobody knows (R13, R15)."""

    size: int = 0
    cards: list[dict[str, str]] = field(default_factory=list)
    rng: list[int] = field(default_factory=list)
    SECRET = ("cards",)


@handler(EstateDeckFormed)
def _evolve_estate_deck_formed(s: GameState, e: EstateDeckFormed) -> None:
    s.classic.estate_deck = cards_from(e.cards)


@narrator(EstateDeckFormed)
def _narrate_estate_deck_formed(e: dict[str, Any], who: Who) -> str:
    return f"The estate deck is formed: {e['size']} cards, face down"


@event
class EstatesMadeDeck(Event):
    """No year is left: the top 8 estate cards (fewer if fewer remain) become the deck (R35, A29)."""

    size: int = 0
    chosen_by: int = 0


@handler(EstatesMadeDeck)
def _evolve_estates_made_deck(s: GameState, e: EstatesMadeDeck) -> None:
    s.deck, s.classic.estate_deck = s.classic.estate_deck[: e.size], s.classic.estate_deck[e.size :]


@narrator(EstatesMadeDeck)
def _narrate_estates_made_deck(e: dict[str, Any], who: Who) -> str:
    return f"No year is left: the top {e['size']} estate cards become the deck"


@event
class LeaderSelectionBegan(Event):
    """Leader selection starts (R17): ``mode`` is limited, drafting or freeform (R19-R21)."""

    mode: str = "limited"
    order: list[int] = field(default_factory=list)  # freeform and drafting: who chooses first, then next
    rng: list[int] = field(default_factory=list)


@handler(LeaderSelectionBegan)
def _evolve_leader_selection_began(s: GameState, e: LeaderSelectionBegan) -> None:
    s.stage = "leaders"
    s.status = "active"  # players decide from here on
    s.classic.selecting = list(e.order)
    if e.rng:
        s.rng = e.rng[1]


@narrator(LeaderSelectionBegan)
def _narrate_leader_selection_began(e: dict[str, Any], who: Who) -> str:
    return f"Leader selection begins ({e['mode']})"


@event
class LeaderMatsDealt(Event):
    """Mats a player draws without revealing them (Limited, R19) or draws to draft from (R20)."""

    seat: int = 0
    mats: list[str] = field(default_factory=list)
    knowers: list[int] = field(default_factory=list)
    rng: list[int] = field(default_factory=list)
    PRIVATE = {"mats": "knowers"}


@handler(LeaderMatsDealt)
def _evolve_leader_mats_dealt(s: GameState, e: LeaderMatsDealt) -> None:
    s.players[e.seat].mats = list(e.mats)
    s.rng = e.rng[1]


@narrator(LeaderMatsDealt)
def _narrate_leader_mats_dealt(e: dict[str, Any], who: Who) -> str:
    mats = e.get("mats")
    return f"{who(e['seat'])} draws leader mats" + (f": {', '.join(mats)}" if mats else "")


@event
class LeaderKept(Event):
    """Limited Selection: a player places 1 of their mats face down (R19); the others go back to the box."""

    seat: int = 0
    mat: str = ""
    knowers: list[int] = field(default_factory=list)
    PRIVATE = {"mat": "knowers"}


@handler(LeaderKept)
def _evolve_leader_kept(s: GameState, e: LeaderKept) -> None:
    p = s.players[e.seat]
    p.kept = e.mat
    p.mats = []  # R19: the others go back in the box


@narrator(LeaderKept)
def _narrate_leader_kept(e: dict[str, Any], who: Who) -> str:
    mat = e.get("mat")
    return f"{who(e['seat'])} keeps a mat face down" + (f": {mat}" if mat else "")


@event
class LeaderChosen(Event):
    """A player's leader, shown to all: Freeform and Drafting picks (R20, R21), and every Limited mat when the
    game begins (R19). Drafting: ``passed`` mats go to ``passed_to``, who picks next (A45 ruling)."""

    seat: int = 0
    mat: str = ""
    plain: bool = False
    passed_to: int | None = None
    passed: list[str] = field(default_factory=list)
    knowers: list[int] = field(default_factory=list)
    PRIVATE = {"passed": "knowers"}


@handler(LeaderChosen)
def _evolve_leader_chosen(s: GameState, e: LeaderChosen) -> None:
    p = s.players[e.seat]
    p.leader = e.mat
    p.kept = None
    p.mats = []
    if s.classic.selecting and s.classic.selecting[0] == e.seat:
        s.classic.selecting.pop(0)
    if e.passed_to is not None:
        s.players[e.passed_to].mats = list(e.passed)
        s.classic.selecting = [e.passed_to]


@narrator(LeaderChosen)
def _narrate_leader_chosen(e: dict[str, Any], who: Who) -> str:
    text = f"{who(e['seat'])} leads with {e['mat']}" + (" (plain: text not printed)" if e.get("plain") else "")
    if e.get("passed_to") is not None:
        text += f" and passes the other mats to {who(e['passed_to'])}"
    return text


@event
class DictatorChosen(Event):
    """Dictator: a leader mat nobody leads goes to the reserve; every player shares its ability (R168)."""

    mat: str = ""
    plain: bool = False
    rng: list[int] = field(default_factory=list)


@handler(DictatorChosen)
def _evolve_dictator_chosen(s: GameState, e: DictatorChosen) -> None:
    s.classic.dictator = e.mat
    if e.rng:
        s.rng = e.rng[1]


@narrator(DictatorChosen)
def _narrate_dictator_chosen(e: dict[str, Any], who: Who) -> str:
    shared = "no ability (its text is not printed)" if e.get("plain") else "its ability"
    return f"Dictator: {e['mat']} goes to the reserve; every player shares {shared}"
