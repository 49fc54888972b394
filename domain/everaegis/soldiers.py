"""Soldier counts (R4, A23: counts with no supply limit; never below zero)."""

from __future__ import annotations

from aegis.domain.everaegis import events as ev
from aegis.domain.everaegis.context import Ctx
from aegis.domain.everaegis.state import GameState


def change_soldiers(ctx: Ctx, seat: int, delta: int, reason: str, *, loss: bool = True) -> None:
    """Add or remove soldiers. A removal that is a loss (not a gift, not an elimination's discard) is not
    made while the player holds an item that keeps their soldiers (``keep_soldiers``, E19)."""
    if delta < 0 and loss and ctx.state.players[seat].soldiers > 0:
        shield = protector(ctx.state, seat)
        if shield is not None:
            ctx.emit(ev.SoldiersKept(seat=seat, amount=min(-delta, ctx.state.players[seat].soldiers), item=shield, reason=reason))
            return
    current = ctx.state.players[seat].soldiers
    total = max(0, current + delta)
    if total != current:
        ctx.emit(ev.SoldiersChanged(seat=seat, delta=total - current, total=total, reason=reason))


def protector(s: GameState, seat: int) -> str | None:
    """The item, if any, by which ``seat`` keeps their soldiers (a ``while held`` condition ``keep_soldiers``)."""
    return next((item for holder, item, _ in s.holding("keep_soldiers") if holder == seat), None)


def casualties(n: int) -> int:
    """R84, A26: each side loses half its soldiers rounded up (3 -> 2 lost, 11 -> 6 lost)."""
    return (n + 1) // 2
