"""``evolve(state, event) -> state``: apply one event. Nothing here decides anything.

``apply`` mutates a state that the caller owns (a clone); ``evolve`` clones first, so states handed
out are never changed; ``fold`` builds a state from a whole log with a single working copy. Each event's handler is
declared beside its class, in the module of its concern (``events/``), and entered in ``events.tables.HANDLERS``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from aegis.domain.everaegis import events as ev
from aegis.domain.everaegis.config import Config
from aegis.domain.everaegis.events.end import ELIMINATION_REVEAL as ELIMINATION_REVEAL
from aegis.domain.everaegis.events.tables import HANDLERS
from aegis.domain.everaegis.state import GameState
from aegis.domain.kernel.events import Event

_APPLY = HANDLERS  # every event's handler, entered as the events package is imported


def initial_state(config: Config) -> GameState:
    return GameState(config=config)


# Events after which the table is no longer "quiet" for the stalemate ruling (see docs/rulings.md).
_PROGRESS = (
    ev.CardDrawn,
    ev.CardDealt,
    ev.CardRevealed,
    ev.CardUnrevealed,
    ev.CardDiscarded,
    ev.CardMoved,
    ev.CardPutOnDeck,
    ev.PlayerEliminated,
    ev.CardToRubble,
)


# Events after which an undo can no longer be claimed: a card revealed, gained or seen (R156).
# Under Rubble Rouser a discard is face up: a card revealed (R158). A resignation cannot be undone (S2).
# Each with what it did, in words (no card named: the audit says it, and may be read while the game is on).
UNDO_CLOSERS_SAID = {
    ev.CardDrawn.TYPE: "a card was drawn",
    ev.CardDealt.TYPE: "a card was dealt",
    ev.CardRevealed.TYPE: "a card was revealed",
    ev.CardPutOnDeck.TYPE: "a card was put on the deck",
    ev.CardMoved.TYPE: "a card was gained",
    ev.CardToRubble.TYPE: "a card went to the rubble",
    ev.PlayerResigned.TYPE: "a player resigned",
}
UNDO_CLOSERS = frozenset(UNDO_CLOSERS_SAID)


def closes_undo(event: dict[str, Any]) -> bool:
    """RULINGS "Undo": after this event (as a dict) an undo can no longer be claimed; so does the End Phase."""
    return _closes_undo(event["type"], event.get("phase"))


def _closes_undo(event_type: str, phase: Any) -> bool:
    """``closes_undo`` of an event by its type and phase: what ``apply`` asks of an event object, without making
    a dict of it."""
    return event_type in UNDO_CLOSERS or (event_type == "PhaseBegan" and phase == "end")


_PROGRESS_TYPES = frozenset(_PROGRESS)  # looked up by the event's own class (no event class has subclasses)


def apply(state: GameState, event: Event) -> None:
    """Apply ``event`` to ``state`` in place. Only for a state the caller owns."""
    cls = type(event)
    handler = _APPLY.get(cls)
    if handler is None:
        raise TypeError(f"no evolve rule for {event.TYPE}")
    handler(state, event)
    if cls in _PROGRESS_TYPES:
        state.outcome.quiet_turns = 0
    if state.undo is not None and _closes_undo(event.TYPE, getattr(event, "phase", None)):
        state.undo = None  # RULINGS "Undo": too late now
    state.seq = event.seq


def evolve(state: GameState, event: Event) -> GameState:
    new = state.clone()
    apply(new, event)
    return new


def fold(config: Config, events: Iterable[Event]) -> GameState:
    state = initial_state(config)
    for e in events:
        apply(state, e)
    return state
