"""Resigning: a player leaves the game of their own accord (service ruling S2; docs/rulings.md "Resigning").

- ``{"type": "resign", "seat": N}`` is the seat's own command, accepted at any moment of a started game, on
  anyone's turn, with no prompt for it. It is never a prompt option: bots choose from prompts and never resign.
- Only a remaining player may resign (an eliminated one, under Vengeance too, is already out); a mob cannot,
  it is played by the D8 (R173).
- ``PlayerResigned``, then the seat is eliminated as R123 says (R11, R12, A36, A51 then decide whether the game
  is over). The Overlord cannot be eliminated (R170): it concedes, and the team wins at once.
- Asked in an open window and not answered yet: they pass. They never call again (``GameState.may_call``).
- On their own turn, the turn ends at once: a window on their action closes without effect, the action is
  thwarted (nothing more of it happens, R73), their Draw Phase draw is dropped, then ``TurnEnded``.
- A resignation cannot be undone and ends any undo that could still be claimed (R155, R156; ``evolve``).
- What the game still waits for from them stays their decision, made by the service for them
  (``GameState.autoplayed``); what would ask them later drops them (``evolve`` of ``PlayerResigned``). Effects
  of their items or ability still under way end (R123, R130); an estate card's effect still runs (R124).
"""

from __future__ import annotations

from typing import Any

from aegis.domain.everaegis import events as ev
from aegis.domain.everaegis.context import Ctx
from aegis.domain.everaegis.overlord import opponents
from aegis.domain.everaegis.state import GameState
from aegis.domain.everaegis.turns import check_last_remaining, eliminate, end_game
from aegis.domain.kernel.decisions import DecisionKind
from aegis.domain.kernel.errors import IllegalCommand, TooLate


def check(s: GameState, seat: int) -> None:
    """Refuse a resignation the rules do not allow, naming the rule."""
    if seat in s.departures.resigned:
        raise TooLate("you have already resigned: you are out of the game", rule="S2")
    if s.players[seat].eliminated:
        raise TooLate("you are already eliminated: only a player still in the game can resign", rule="S2")
    if s.is_mob(seat):
        raise IllegalCommand("this seat is a mob: the D8 plays it, and nobody can resign for it", rule="R173")


def resign(ctx: Ctx, seat: int) -> None:
    s = ctx.state
    own_turn = s.stage == "turn" and s.play.current == seat and s.play.phase != "over"
    ctx.emit(ev.PlayerResigned(seat=seat))
    if seat == s.variant.overlord:  # R170: the Overlord cannot be eliminated, so resigning concedes
        end_game(ctx, "win", opponents(s), "the Overlord resigned: the team wins (S2, R170)")
        return
    w = s.calls.window
    if own_turn:
        _end_action(ctx, "the declarer resigned: nothing more of the action happens (S2, R73)")
    elif w is not None and seat in w.waiting_for:  # asked and not answered yet: a pass
        ctx.emit(ev.ReactionGiven(window=w.id, seat=seat, answer="pass", means=None, audience=[seat]))
    if seat in s.items.draw_asked:  # R118: they let the draw happen
        ctx.emit(ev.DrawReactionPassed(seat=seat))
    for p in list(s.pending.effects):  # R123, R130: their items are discarded and their ability is deactivated
        if p.owner == seat and s.estate(p.source) is None:  # an estate card's effect still runs (R124)
            ctx.emit(ev.EffectEnded(id=p.id, source=p.source, outcome="its holder resigned (S2)"))
    eliminate(ctx, seat, "resigned (S2)")
    check_last_remaining(ctx)
    if own_turn and s.status != "finished":
        ctx.emit(ev.TurnEnded(seat=seat, turn=s.play.turn))


def _end_action(ctx: Ctx, reason: str) -> None:
    """The resigning player's own turn: an open window closes without effect, the action is thwarted (R73)."""
    s = ctx.state
    w = s.calls.window
    if w is not None:
        answers = {str(seat): dict(a) for seat, a in sorted(w.answers.items())}
        ctx.emit(ev.ReactionWindowClosed(window=w.id, answers=answers, timed_out=w.waiting_for, by="resigned"))
    act = s.play.act
    if act is not None:
        ctx.emit(ev.ActionThwarted(seat=act.declarer, action=act.action, reason=reason))


def _resign(ctx: Ctx, cmd: dict[str, Any]) -> None:
    check(ctx.state, cmd["seat"])
    resign(ctx, cmd["seat"])


RESIGN = DecisionKind(
    "resign",
    rule="S2",
    refusal="a player still in the game may resign, at any moment",
    summary="leave the game, at any moment of a started game (no prompt offers it); the server decides what still waits for you",
    handle=_resign,
)  # S2: a seat's own command, on anyone's turn, never a prompt option
