"""The working context of one ``decide`` call: a private copy of the state, the events emitted so far,
and the clock reading the service passed with the command (``None`` in pure simulations)."""

from __future__ import annotations

import functools
from typing import NamedTuple

from aegis.domain.everaegis.evolve import apply
from aegis.domain.everaegis.state import GameState
from aegis.domain.kernel.events import Event
from aegis.domain.kernel.rng import SeededRng


class Need(NamedTuple):
    """A decision the game waits for: ``seat`` is asked for a decision of ``kind`` (a decision kind). A named
    tuple: the flow makes one for every seat it waits for, after every command."""

    seat: int
    kind: str


@functools.cache
def need(seat: int, kind: str) -> Need:
    """``Need(seat, kind)``, made once and then shared (it is a value): the flow asks for one per seat it waits
    for after every command (every seat of a reaction window, again after each answer), and a shared one is
    found in a list of needs by identity."""
    return Need(seat, kind)


@functools.cache
def needs(kind: str, seats: tuple[int, ...]) -> tuple[Need, ...]:
    """``need(seat, kind)`` for each of ``seats`` in order, the tuple made once per group of seats (a reaction
    window asks for the seats that have not answered yet, again after each answer)."""
    return tuple(need(seat, kind) for seat in seats)


class Unsettled(Exception):
    """A look at who is asked found the game still moving on by itself (``Ctx(..., looking=True)``)."""


class Ctx:
    __slots__ = ("_ids", "asked", "events", "looking", "now", "state")

    def __init__(self, state: GameState, now: float | None = None, looking: bool = False):
        self.state = state
        self.events: list[Event] = []
        self.now = now
        self.asked: list[Need] = []  # what the last step that stopped waits for
        self.looking = looking  # only looking at who is asked: nothing may be emitted
        self._ids: tuple[int, set[str]] | None = None  # the card ids in play, as of a seq (see new_card_id)

    def wait(self, *needs: Need) -> bool:
        """The game waits for these decisions: record them where the flow stops. Returns False (nothing moved)."""
        self.asked = list(needs)
        return False

    def emit(self, event: Event) -> None:
        """Number the event, apply it to the working state and keep it."""
        if self.looking:
            raise Unsettled(event.TYPE)
        state = self.state
        event = event.with_seq(state.seq + 1)  # a fresh event is numbered in place
        apply(state, event)
        self.events.append(event)

    def rng(self) -> SeededRng:
        """The game's random stream at its current position. The event that uses it must record
        ``[start, end]`` counters so that ``evolve`` advances the position (and a verifier can check)."""
        return SeededRng(self.state.seed, self.state.rng)

    def new_card_id(self, rng: SeededRng, also_taken: set[str] | None = None) -> str:
        """A fresh opaque id, unlike any card id in play (so a shuffled card cannot be followed)."""
        if self._ids is None or self._ids[0] != self.state.seq:  # setup makes dozens in one step: read them once
            self._ids = (self.state.seq, self.state.all_card_ids())
        taken = self._ids[1]
        while True:
            cid = "c" + rng.token("card", 8)
            if cid not in taken and (also_taken is None or cid not in also_taken):
                return cid
