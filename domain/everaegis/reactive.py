"""Reactive consumable items used in the reaction window on an action (R104; docs/rulings.md).

A holder of a reactive item whose printed text the engine plays (the BIRD: "Thwart any action used by any
player.") is asked in the window on any action another player uses (Recruit and War included; a SANCTION's
text excepted), and may answer by using it, even on the turn it was received. A call on the same claim is
settled first; if the action survives it, the first user in turn order spends the item, and the action is
thwarted before it executes.
"""

from __future__ import annotations

from domain.everaegis import events as ev
from domain.everaegis.context import Ctx
from domain.everaegis.state import Act, GameState


def reactions(s: GameState, seat: int) -> list[str]:
    """The reactive kinds ``seat`` holds whose text the engine plays."""
    out = []
    for item in sorted(set(s.items_of(seat))):
        entry = s.item_entry(item)
        if entry and entry.get("class") == "reactive consumable" and (entry.get("effect") or {}).get("when") == "reaction":
            out.append(item)
    return out


def users(s: GameState, act: Act) -> list[int]:
    if act.sanctioned:
        return []
    return [seat for seat in s.remaining() if seat != act.declarer and reactions(s, seat)]


def thwart_step(ctx: Ctx) -> bool:
    """Before the action executes: a reactive item used against it thwarts it. True if it did."""
    act = ctx.state.act
    assert act is not None
    if act.reacted is None:
        return False
    seat, item = act.reacted
    ctx.emit(ev.ItemDiscarded(seat=seat, item=item, reason="used in reaction (R104)"))
    ctx.emit(ev.ActionThwarted(seat=act.declarer, action=act.action, reason=f"{item} used by {ctx.state.players[seat].name}"))
    return True
