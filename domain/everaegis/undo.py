"""The Undo rule (R155-R156, RULINGS "Undo"): a player whose window closed before they answered may claim an
undo before the End Phase: the pause that waits for them, the claim or waiver, and the pause's deadline."""

from __future__ import annotations

from typing import Any

from aegis.domain.everaegis import events as ev
from aegis.domain.everaegis.context import Ctx
from aegis.domain.everaegis.reactions import check_due
from aegis.domain.everaegis.state import GameState
from aegis.domain.kernel.decisions import DecisionKind
from aegis.domain.kernel.errors import TooLate
from aegis.domain.kernel.prompts import Option, Prompt


def pause_step(ctx: Ctx) -> bool:
    """Before the End Phase, wait for the players who may still claim an undo."""
    s = ctx.state
    undo = s.undo
    assert undo is not None
    if undo.paused:
        return False
    seconds = s.config.reaction_seconds
    deadline = ctx.now + seconds if ctx.now is not None and seconds > 0 else None
    ctx.emit(ev.UndoPauseBegan(window=undo.window, eligible=list(undo.waiting), deadline=deadline))
    return True


def _undo_prompt(s: GameState, seat: int) -> Prompt:
    undo = s.undo
    assert undo is not None
    base = {"type": "undo", "seat": seat, "window": undo.window}
    claimant = s.players[undo.claimant].name
    opts = (
        Option(f"Claim an undo: go back and call {claimant}'s bluff", {**base, "answer": "claim"}, "claim"),
        Option("Let the action stand", {**base, "answer": "waive"}, "waive"),
    )
    text = f"{s.players[seat].name}: the window closed before you answered; you may claim an undo (R155, RULINGS: Undo)"
    window = undo.snapshot.calls.window  # the window as it opened: the claim the undo would call
    about = {
        "window": undo.window,
        "claimant": undo.claimant,
        "claim": (window.claim or None) if window is not None else None,
        "about": window.about if window is not None else None,
    }
    return Prompt(seat, "undo", text, opts, deadline=undo.deadline, context=about)


def _answer(ctx: Ctx, cmd: dict[str, Any]) -> None:
    s = ctx.state
    seat = cmd["seat"]
    undo = s.undo
    assert undo is not None
    if cmd["answer"] == "waive":
        ctx.emit(ev.UndoWaived(seat=seat, window=undo.window))
        return
    answers = {**undo.answers, str(seat): {"answer": "call", "means": None}}
    ctx.emit(ev.UndoClaimed(seat=seat, window=undo.window, undone_from=undo.snapshot.seq + 1, undone_to=s.seq, answers=answers))


def _close(ctx: Ctx, cmd: dict[str, Any]) -> None:
    """The service ends an undo pause whose deadline has passed."""
    undo = ctx.state.undo
    if undo is None or not undo.paused or undo.window != cmd["window"]:
        raise TooLate(f"no undo is pending for window {cmd['window']}", rule="R155")
    no_deadline = "this pause has no deadline: it ends when every eligible player has answered"
    check_due(undo.deadline, ctx.now, no_deadline, "the undo pause ends")
    ctx.emit(ev.UndoExpired(window=undo.window, waiting=list(undo.waiting)))


UNDO = DecisionKind(
    "undo",
    rule="R155",
    refusal="answer 'claim' or 'waive' for the window of the pending undo",
    fields={"window": int, "answer": str},
    docs={
        "window": {"minimum": 1, "description": "the id of the window whose undo you answer"},
        "answer": {"enum": ["claim", "waive"], "description": "claim the undo (and call), or let the action stand"},
    },
    summary="the window closed before you answered: claim an undo, or let the action stand",
    offer=_undo_prompt,
    apply=_answer,
    window=True,
)  # no mob: a mob never calls, so it is never offered an undo (A50)
CLOSE_UNDO = DecisionKind(
    "close_undo",
    rule="R155",
    refusal="only the service ends an undo pause, at or after its deadline",
    fields={"window": int},
    handle=_close,
    system=True,
    seatless=True,
)
