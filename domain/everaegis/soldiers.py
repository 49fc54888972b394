"""Soldier counts (R4, A23: counts with no supply limit; never below zero)."""

from __future__ import annotations

from domain.everaegis import events as ev
from domain.everaegis.context import Ctx


def change_soldiers(ctx: Ctx, seat: int, delta: int, reason: str) -> None:
    current = ctx.state.players[seat].soldiers
    total = max(0, current + delta)
    if total != current:
        ctx.emit(ev.SoldiersChanged(seat=seat, delta=total - current, total=total, reason=reason))


def casualties(n: int) -> int:
    """R84, A26: each side loses half its soldiers rounded up (3 -> 2 lost, 11 -> 6 lost)."""
    return (n + 1) // 2
