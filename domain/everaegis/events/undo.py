"""The Undo rule (R155-R157, docs/rulings.md "Undo"): the pause after an action while an undo may still be
claimed, and the undo waived, let expire or claimed.
"""

from __future__ import annotations

import dataclasses
from dataclasses import field
from typing import Any

from aegis.domain.everaegis.events.tables import Who, handler, narrator
from aegis.domain.everaegis.state import GameState
from aegis.domain.kernel.events import Event, event


@event
class UndoPauseBegan(Event):
    """The action is over but an undo may still be claimed: the game waits for the eligible players."""

    window: int = 0
    eligible: list[int] = field(default_factory=list)
    deadline: float | None = None


@handler(UndoPauseBegan)
def _evolve_undo_pause_began(s: GameState, e: UndoPauseBegan) -> None:
    assert s.undo is not None
    s.undo.paused = True
    s.undo.deadline = e.deadline


@narrator(UndoPauseBegan)
def _narrate_undo_pause_began(e: dict[str, Any], who: Who) -> str:
    return f"{', '.join(who(s) for s in e['eligible'])} may still claim an undo"


@event
class UndoWaived(Event):
    seat: int = 0
    window: int = 0


@handler(UndoWaived)
def _evolve_undo_waived(s: GameState, e: UndoWaived) -> None:
    assert s.undo is not None
    s.undo.waived.append(e.seat)
    if not s.undo.waiting:
        s.undo = None


@narrator(UndoWaived)
def _narrate_undo_waived(e: dict[str, Any], who: Who) -> str:
    return f"{who(e['seat'])} lets the action stand"


@event
class UndoExpired(Event):
    """The pause's deadline passed with no claim; the turn goes on."""

    window: int = 0
    waiting: list[int] = field(default_factory=list)


@handler(UndoExpired)
def _evolve_undo_expired(s: GameState, e: UndoExpired) -> None:
    s.undo = None


@narrator(UndoExpired)
def _narrate_undo_expired(e: dict[str, Any], who: Who) -> str:
    return "No undo was claimed in time"


@event
class UndoClaimed(Event):
    """The game goes back to the moment ``window`` opened (events ``undone_from``..``undone_to`` are void) and
    the claimant's call is added to the answers the window had."""

    seat: int = 0
    window: int = 0
    undone_from: int = 0
    undone_to: int = 0
    answers: dict[str, dict[str, Any]] = field(default_factory=dict)


@handler(UndoClaimed)
def _evolve_undo_claimed(s: GameState, e: UndoClaimed) -> None:
    """Back to the moment the window opened; its answers again, with the claimant's call added."""
    assert s.undo is not None
    restored = s.undo.snapshot.clone()
    departures = s.departures  # S2, S3: nothing takes a seat back from resigning or from its bot
    # the ids given so far stay given: a window or an effect opened after the undo never takes the id of one it voided
    windows, effects = s.calls.windows_opened, s.pending.effects_queued
    # and the random stream goes on (rules version 4): what the undone span drew is on the record, a mob's D8 for all
    # to see, so reading those blocks again would tell a later draw in advance (a die, where a discard goes)
    stream = s.rng
    for f in dataclasses.fields(GameState):
        setattr(s, f.name, getattr(restored, f.name))
    s.departures = departures
    s.calls.windows_opened, s.pending.effects_queued = windows, effects
    s.rng = stream
    s.calls.window_snapshot = None
    s.undo = None
    assert s.calls.window is not None
    s.calls.window.answers = {int(seat): dict(a) for seat, a in e.answers.items()}
    s.calls.window.asked = sorted(int(seat) for seat in e.answers)  # the others stay as they were: no answer
    s.calls.window.closing = "undo"


@narrator(UndoClaimed)
def _narrate_undo_claimed(e: dict[str, Any], who: Who) -> str:
    # what it voids is the span from the window's opening but for the answers given in the window, which stand (the
    # timeline marks each event); the event holds the whole span, so the words name the window, not the numbers
    claimant = who(e["seat"])
    return f"{claimant} claims an undo: what followed window {e['window']}'s answers is undone, and {claimant} calls the bluff"
