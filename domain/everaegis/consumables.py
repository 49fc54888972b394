"""Using a consumable item (R103; docs/rulings.md "Classic items").

The book: its holder "may use it any time during their turn, no one else's (but not while executing an action
or while a war is occurring)", and not on the turn it was received ("only ... after any player's turn ends").
In this engine the turn offers it at the two moments of the holder's own turn that wait for them and are not
the execution of an action or a war: in the Action Phase before the action is declared (beside ``declare``),
and in the End Phase once the action is over and the End Phase's own effects (the DAGGER, ...) have resolved,
before the Demise Phase (beside ``end_phase``, which goes on without using one). The game waits at the End
Phase only for a player who holds a usable consumable. Its text applies once, then the item is discarded; its
holder may then be offered another. Only items whose printed text the engine plays can be used (the HAMMER).
A mob uses one as soon as it is offered (R178).
"""

from __future__ import annotations

from typing import Any

from aegis.domain.everaegis.context import Ctx
from aegis.domain.everaegis.effect_work import queue_effect
from aegis.domain.everaegis.state import GameState
from aegis.domain.everaegis.turns import phase_step
from aegis.domain.kernel.decisions import DecisionKind
from aegis.domain.kernel.prompts import Option, Prompt


def usable(s: GameState, seat: int) -> list[str]:
    """The consumable kinds ``seat`` may use now: on their own turn, before their action is declared or in
    their End Phase after it, while no action, war or effect is being executed (R103)."""
    if not s.items.held:  # no Classic item is held (always so in Simpleton): nothing to use
        return []
    if s.stage != "turn" or s.play.current != seat or s.play.act is not None or s.pending.effects or s.players[seat].eliminated:
        return []
    if not (s.play.phase == "action" and not s.play.action_done) and s.play.phase != "end":
        return []
    return [
        item
        for item in s.items_acting(seat, "used", "consumable")
        # R103: not on the turn it was received
        if s.items.held.get(item, {}).get(seat, 0) - s.items.fresh.get(item, {}).get(seat, 0) > 0
    ]


def _moment(s: GameState) -> str:
    if s.play.phase == "action":
        return "before you declare your action"
    return "now that your action is over, before the Demise Phase"


def _use_prompt(s: GameState, seat: int) -> Prompt:
    opts = tuple(
        Option(f"Use the {item} (then it is discarded)", {"type": "use_item", "seat": seat, "item": item}, "use_item")
        for item in usable(s, seat)
    )
    text = f"{s.players[seat].name}: you may use a consumable item {_moment(s)} (R103)"
    return Prompt(seat, "use_item", text, opts)


def use(ctx: Ctx, seat: int, item: str) -> None:
    s = ctx.state
    effect = s.item_effect(item, "used")
    assert effect is not None
    # "used once, and then it is discarded" (R103): its last step discards it, once its text has run
    queue_effect(ctx, seat, item, [*effect["steps"], {"step": "discard_used", "item": item}], "used (R103)")


def _consume(ctx: Ctx, mob: int) -> None:
    """R178 Consumption: a mob uses a consumable as soon as the rules allow, so whenever it is offered one."""
    use(ctx, mob, usable(ctx.state, mob)[0])


USE_ITEM = DecisionKind(
    "use_item",
    rule="R103",
    refusal="use a consumable item you hold, on your own turn: before you declare your action, or in your End Phase",
    fields={"item": str},
    docs={"item": {"description": "the consumable item you use (then it is discarded)"}},
    summary="use a consumable item on your own turn: before you declare your action, or in your End Phase after it",
    offer=_use_prompt,
    apply=lambda ctx, cmd: use(ctx, cmd["seat"], cmd["item"]),
    by_rules=_consume,
    asks="use an item",
    said=lambda cmd, who: f"use the {cmd.get('item')}",
)


def _end_phase_prompt(s: GameState, seat: int) -> Prompt:
    go_on = Option("Go on to the Demise Phase (keep your consumable items)", {"type": "end_phase", "seat": seat}, "end_phase")
    text = f"{s.players[seat].name}: your action is over; use a consumable item now (R103), or go on to the Demise Phase"
    return Prompt(seat, "end_phase", text, (go_on,))


def _go_on(ctx: Ctx, cmd: dict[str, Any]) -> None:
    """The End Phase's player uses no (more) consumable: the turn moves on as when nobody is waited for."""
    phase_step(ctx)


END_PHASE = DecisionKind(
    "end_phase",
    rule="R103",
    refusal="in your End Phase, with a consumable item you may use: go on to the Demise Phase without using it",
    summary="in your End Phase, holding a consumable item you may use: go on to the Demise Phase without using it",
    offer=_end_phase_prompt,
    apply=_go_on,
    by_rules=_consume,
    asks="use an item or end their End Phase",
    said=lambda cmd, who: "go on to the Demise Phase",
)
