"""Reactive consumable items used in the reaction window on an action (R104; docs/rulings.md).

A holder of a reactive item whose printed text the engine plays (the BIRD: "Thwart any action used by any
player.") is asked in the window on any action another player uses (Recruit and War included; a SANCTION's
text excepted), and may answer by using it, even on the turn it was received. A call on the same claim is
settled first; if the action survives it, the first user in turn order spends the item, and the action is
thwarted before it executes.
"""

from __future__ import annotations

from aegis.domain.everaegis import events as ev
from aegis.domain.everaegis.context import Ctx
from aegis.domain.everaegis.events.words import said_answer
from aegis.domain.everaegis.state import Act, GameState
from aegis.domain.kernel.decisions import DecisionKind
from aegis.domain.kernel.prompts import Option, Prompt


def reactions(s: GameState, seat: int) -> list[str]:
    """The reactive kinds ``seat`` holds whose text the engine plays."""
    return s.items_acting(seat, "reaction", "reactive consumable")


def users(s: GameState, act: Act) -> list[int]:
    """Who may answer ``act`` with a reactive item: never the declarer's TREATY partner, since the two "cannot
    affect each other with any abilities, actions, or consumable items" (R107)."""
    if act.sanctioned or not s.items.held:
        return []
    partner = s.partner(act.declarer)
    return [seat for seat in s.remaining() if seat not in (act.declarer, partner) and reactions(s, seat)]


def thwart_step(ctx: Ctx) -> bool:
    """Before the action executes: a reactive item used against it thwarts it. True if it did."""
    act = ctx.state.play.act
    assert act is not None
    if act.reacted is None:
        return False
    seat, item = act.reacted
    ctx.emit(ev.ItemDiscarded(seat=seat, item=item, reason="used in reaction (R104)"))
    # who used it is the seat of the ItemDiscarded just before: names are never inside events (a branch renames seats)
    ctx.emit(ev.ActionThwarted(seat=act.declarer, action=act.action, reason=f"{item}{ev.USED_IN_REACTION}"))
    return True


# ----- reactive items used in another player's Draw Phase (R104, R118; E21, E27) -----


def draw_items(s: GameState, seat: int) -> list[str]:
    return s.items_acting(seat, "draw")


def _draw_prompt(s: GameState, seat: int) -> Prompt:
    drawer = s.play.draw_queue[0][0]
    text = f"{s.players[seat].name}: {s.players[drawer].name} is about to draw in their Draw Phase (R104, R118)"
    return Prompt(seat, "draw_reaction", text, tuple(_draw_options(s, seat)))


def _draw_options(s: GameState, seat: int) -> list[Option]:
    drawer = s.play.draw_queue[0][0]
    base = {"type": "draw_reaction", "seat": seat}
    out = [Option(f"Let {s.players[drawer].name} draw", {**base, "answer": "pass"}, "pass")]
    for item in draw_items(s, seat):
        label = f"Use the {item}: {s.players[drawer].name} gains no card this Draw Phase (then it is discarded)"
        out.append(Option(label, {**base, "answer": "use", "item": item}, "use"))
    return out


def draw_react(ctx: Ctx, seat: int, answer: str, item: str | None) -> None:
    s = ctx.state
    if answer == "pass":
        ctx.emit(ev.DrawReactionPassed(seat=seat))
        return
    assert item is not None
    drawer = s.play.draw_queue[0][0]
    ctx.emit(ev.ItemDiscarded(seat=seat, item=item, reason="used in a Draw Phase (R104, R118)"))
    ctx.emit(ev.DrawStopped(seat=drawer, by=seat, item=item))


def _mob_draw(ctx: Ctx, mob: int) -> None:
    """R178: a reactive item is used the moment the occasion occurs (E27: the next player's Draw Phase)."""
    items = draw_items(ctx.state, mob)
    draw_react(ctx, mob, "use" if items else "pass", items[0] if items else None)


DRAW_REACTION = DecisionKind(
    "draw_reaction",
    rule="R118",
    refusal="let the player draw ('pass'), or 'use' a reactive item you hold",
    fields={"answer": str},
    optional={"item": str},
    docs={
        "answer": {"enum": ["pass", "use"], "description": "let the player draw, or use a reactive item"},
        "item": {"description": "with use: the reactive item you use"},
    },
    summary="a player is about to draw: let them, or stop the draw with a reactive item",
    offer=_draw_prompt,
    apply=lambda ctx, cmd: draw_react(ctx, cmd["seat"], cmd["answer"], cmd.get("item")),
    by_rules=_mob_draw,
    aliases=("draw_react",),
    asks="answer before a draw",
    said=said_answer,
)
