"""Alliances (R163, R138, A51): allies are the players immediately left and right; they share victories.

Rulings (docs/rulings.md, "Alliances"):
- Allies are fixed at setup among the occurring players (R139): the seat before and the seat after yours.
  An ally who is eliminated stays your ally (and cannot share a victory); nobody gains a new ally.
- Allies are not opponents (R138): whatever targets "opponents" leaves them out (Barracks, an estate's
  "each opponent" / "an opponent"). Texts that say "another player" or "any player" (War, Temple, Mason,
  Library) may still pick an ally; War only while the game option ``ally_war`` is 1 (the default).
- A winner's remaining allies win with them ("unless you are eliminated"). Allies of allies do not.
- A51: once every remaining player is an ally of every other remaining player, they would all share any
  victory, so the game ends and they all win.
"""

from __future__ import annotations

from aegis.domain.everaegis import events as ev
from aegis.domain.everaegis.context import Ctx
from aegis.domain.everaegis.state import GameState


def seat_allies(ctx: Ctx) -> None:
    """R163: left and right neighbours, with 5 or more seats (checked at creation)."""
    n = ctx.state.seats
    ctx.emit(ev.AlliesSeated(allies=[sorted({(seat - 1) % n, (seat + 1) % n}) for seat in range(n)]))


def share(s: GameState, winners: list[int]) -> list[int]:
    """R163: each winner's allies win too, unless eliminated."""
    out = set(winners)
    for w in winners:
        out.update(a for a in s.variant.allies.get(w, ()) if not s.players[a].eliminated)
    return sorted(out)


def all_allied(s: GameState) -> bool:
    """A51: two or more players remain and each is an ally of every other one."""
    if not s.variant.allies:  # not an Alliances game (asked at every Demise Phase): nothing to work out
        return False
    remaining = s.remaining()
    if len(remaining) < 2:
        return False
    return all(s.variant.allied(a, b) for a in remaining for b in remaining if a != b)
