"""Branches: a game that begins from the position after a step of another game's record (``branching.py``). The
events before ``BranchBegan`` are that game's, copied; ``BranchBegan`` marks the branch point (the seats' new names,
the open clocks started again, the game rigged from here on), and ``CardsDealtAgain`` re-deals, from a fresh secret
seed, the cards one player could not name there (a branch "as known").
"""

from __future__ import annotations

import dataclasses
from dataclasses import field
from typing import Any

from aegis.domain.everaegis.events.tables import Who, handler, narrator
from aegis.domain.everaegis.events.words import counted
from aegis.domain.everaegis.state import Card, GameState
from aegis.domain.kernel.events import Event, event


@event
class BranchBegan(Event):
    """From here on this game is a branch of ``game`` after its step ``step``: its seats are ``names``, a reaction
    window or undo pause open there gets its full time again from now (``window_deadline``, ``undo_deadline``), and
    the game is rigged: the original's record, public once it ended, tells its draws."""

    game: str = ""
    step: int = 0
    deal: str = "same"  # "same": the original's seed goes on; "as_known": CardsDealtAgain follows
    knower: int | None = None  # "as_known": the seat whose knowledge is kept
    names: list[str] = field(default_factory=list)
    window_deadline: float | None = None
    undo_deadline: float | None = None


@handler(BranchBegan)
def _evolve_branch_began(s: GameState, e: BranchBegan) -> None:
    s.rigged = True
    s.commitment = ""  # a rigged game publishes no commitment
    if e.names:
        s.config = dataclasses.replace(s.config, names=tuple(e.names))
        for player, name in zip(s.players, e.names, strict=True):
            player.name = name
    if s.calls.window is not None and e.window_deadline is not None:
        s.calls.window.deadline = e.window_deadline
    if s.undo is not None and s.undo.paused and e.undo_deadline is not None:
        s.undo.deadline = e.undo_deadline


@narrator(BranchBegan)
def _narrate_branch_began(e: dict[str, Any], who: Who) -> str:
    copied = f"The branch begins: steps 1-{e['step']} are the original game's"
    original = f"(the original: game {e['game']})"
    if e.get("deal") == "as_known":
        return (
            f"{copied}; the cards {who(e['knower'])} could not name there are dealt again, so what those steps say of "
            f"them held in the original only {original}"
        )
    return f"{copied}, with the same deal {original}"


@event
class CardsDealtAgain(Event):
    """The cards ``knower`` could not name are dealt again: each card id in ``names`` now is the card named there
    (names moved only among cards of the same public origin: a year, a deck formed of years, the estate deck). The
    game's later shuffles come from ``seed`` (fresh, secret until the game is over) from ``rng``'s end on."""

    knower: int = 0
    cards: int = 0  # how many cards were dealt again: public
    names: dict[str, str] = field(default_factory=dict)  # card id -> its name now
    seed: str = ""
    rng: list[int] = field(default_factory=list)
    SECRET = ("names", "seed")


@handler(CardsDealtAgain)
def _evolve_cards_dealt_again(s: GameState, e: CardsDealtAgain) -> None:
    rename(s, e.names)
    s.seed = e.seed
    s.rng = e.rng[1]


@narrator(CardsDealtAgain)
def _narrate_cards_dealt_again(e: dict[str, Any], who: Who) -> str:
    verb = "is" if e["cards"] == 1 else "are"
    return f"The {counted(e['cards'], 'card')} {who(e['knower'])} could not name {verb} dealt again at random"


def rename(s: GameState, names: dict[str, str], depth: int = 0) -> None:
    """Give every card of ``s`` whose id is in ``names`` that name (the rewind points of Undo too)."""

    def again(cards: list[Card]) -> list[Card]:
        return [dataclasses.replace(c, name=names[c.id]) if c.id in names else c for c in cards]

    for p in s.players:
        p.cards = again(p.cards)
    s.deck = again(s.deck)
    s.years = [(label, again(cards)) for label, cards in s.years]
    s.classic.estate_deck = again(s.classic.estate_deck)
    s.rubble = again(s.rubble)
    if s.variant.blasphemy is not None:
        s.variant.blasphemy = again([s.variant.blasphemy])[0]
    if depth < 4:  # a rewind point is a state taken earlier: it is never changed in place (shared), but replaced
        if s.calls.window_snapshot is not None:
            s.calls.window_snapshot = _renamed(s.calls.window_snapshot, names, depth)
        if s.undo is not None:
            s.undo = dataclasses.replace(s.undo, snapshot=_renamed(s.undo.snapshot, names, depth))


def _renamed(s: GameState, names: dict[str, str], depth: int) -> GameState:
    copy = s.clone()
    copy.calls.window_snapshot = s.calls.window_snapshot
    rename(copy, names, depth + 1)
    return copy
