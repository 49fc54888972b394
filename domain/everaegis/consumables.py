"""Using a consumable item (R103; docs/rulings.md "Classic items").

A consumable is used only during its holder's own turn, not while an action or a war is being executed,
and not on the turn it was received ("only ... after any player's turn ends"): in this engine, in the
Action Phase before the action is declared. Its text applies once, then the item is discarded. Only items
whose printed text the engine plays can be used (the HAMMER).
"""

from __future__ import annotations

from domain.everaegis import events as ev
from domain.everaegis.context import Ctx
from domain.everaegis.state import GameState
from domain.kernel.decisions import DecisionKind
from domain.kernel.prompts import Option, Prompt


def usable(s: GameState, seat: int) -> list[str]:
    """The consumable kinds ``seat`` may use now."""
    if s.stage != "turn" or s.current != seat or s.phase != "action" or s.act is not None or s.action_done:
        return []
    if s.effects or s.players[seat].eliminated:
        return []
    return [
        item
        for item in s.items_acting(seat, "used", "consumable")
        # R103: not on the turn it was received
        if s.held.get(item, {}).get(seat, 0) - s.fresh.get(item, {}).get(seat, 0) > 0
    ]


def _use_prompt(s: GameState, seat: int) -> Prompt:
    opts = tuple(
        Option(f"Use the {item} (then it is discarded)", {"type": "use_item", "seat": seat, "item": item}, "use_item")
        for item in usable(s, seat)
    )
    text = f"{s.players[seat].name}: you may use a consumable item before you declare your action (R103)"
    return Prompt(seat, "use_item", text, opts)


def use(ctx: Ctx, seat: int, item: str) -> None:
    s = ctx.state
    entry = s.item_entry(item)
    assert entry is not None and entry.get("effect")
    ctx.emit(
        ev.EffectQueued(
            id=s.effects_queued + 1, source=item, owner=seat, steps=list(entry["effect"]["steps"]), reason="used (R103)"
        )
    )
    ctx.emit(ev.ItemDiscarded(seat=seat, item=item, reason="used (R103)"))


USE_ITEM = DecisionKind(
    "use_item",
    rule="R103",
    refusal="use a consumable item you hold, before you declare your action",
    fields={"item": str},
    docs={"item": {"description": "the consumable item you use (then it is discarded)"}},
    summary="use a consumable item before you declare your action",
    offer=_use_prompt,
    apply=lambda ctx, cmd: use(ctx, cmd["seat"], cmd["item"]),
    mob=lambda ctx, mob: use(ctx, mob, usable(ctx.state, mob)[0]),  # R178 Consumption: as soon as the rules allow
)
