"""A mob's Action Phase (R173-R181): its action is the number rolled, its targets are picked with the D8
procedures of ``mob``. Every other decision a mob makes is declared with its decision kind, in the module
that owns that rule (its ``mob``); ``flow.advance`` makes them. A mob is never prompted.

A mob on a Simpleton mat numbers the mat's 8 printed actions in order (Recruit 1 ... Library 8;
``data/simpleton.json``). Its actions need no building card and are no claims (R43, R173). The
rulings this module applies are listed in docs/rulings.md, "Mobs and Solo" (A50).
"""

from __future__ import annotations

from typing import Any

from aegis.domain.everaegis import events as ev
from aegis.domain.everaegis.catalog import ACTIONS, CATALOG
from aegis.domain.everaegis.context import Ctx
from aegis.domain.everaegis.items import item_label, items_in_play
from aegis.domain.everaegis.mob import choose_between, pick_object, pick_objects, pick_player, roll
from aegis.domain.everaegis.state import Act, Card, GameState
from aegis.domain.everaegis.war import NO_SOLDIERS
from aegis.domain.everaegis.war_bans import war_targets

# ----- the Action Phase (R173: the action is the number rolled) -----


def _targets(s: GameState, mob: int, action: str) -> dict[str, list[Any]]:
    """The candidates each part of ``action`` may pick for ``mob``; an empty dict: nothing to pick."""
    partner = s.partner(mob)
    others = [r for r in s.remaining() if r not in (mob, partner)]
    if action == "war":
        can = s.players[mob].soldiers >= 1
        return {"target": war_targets(s, mob) if can else []}  # R77; who may be attacked: war_bans
    if action == "temple":
        return {"recipient": [r for r in others if _givable(s, mob, r)]}
    if action == "mason":
        wall_with_partner = partner is not None and s.items.wall == partner
        return {
            "discard": [(ref, holder) for ref, holder in items_in_play(s) if holder != partner],
            "give_wall": [] if wall_with_partner else [r for r in others if r != s.items.wall],
        }
    if action == "library":
        treaty_with_partner = partner is not None and s.items.treaty == partner
        return {
            "sanctions": [
                {"seat": p, "action": a} for p in s.in_turn_order(others) for a in ACTIONS if a not in s.players[p].sanctions
            ],
            "treaty": [] if treaty_with_partner else [r for r in others if r != s.items.treaty],
        }
    return {}


def _givable(s: GameState, mob: int, recipient: int) -> list[tuple[int, Card]]:
    """Temple: the revealed cards, in a line in turn order, that could go to ``recipient``."""
    partner = s.partner(mob)
    line = _card_line(s)
    return [(o, c) for o, c in line if c.revealed and o not in (partner, recipient)]


def _card_line(s: GameState) -> list[tuple[int, Card]]:
    return [(p, c) for p in s.in_turn_order(range(s.seats)) for c in s.players[p].cards]


# A50 ruling: what a mob's action does when it has nothing it could select (it is used all the same)
NOTHING = {
    "war": "no player it may go to war with",
    "temple": "no revealed card it could give",
    "library": "no action it could SANCTION and nobody it could give the TREATY",
}


def idle(s: GameState, act: Act) -> bool:
    """A mob's War, Temple or Library declared with nothing it could select (an empty plan): R173 "use the
    action that corresponds to the number rolled", so it is used, and does nothing (A43, A50 ruling)."""
    return act.action in NOTHING and not act.plan and not act.sanctioned and s.is_mob(act.declarer)


def mob_declare(ctx: Ctx, mob: int) -> None:
    """R173: "roll the D8 and use the action that corresponds to the number rolled", never another: its
    targets by the D8 procedures. A War with no soldiers is thwarted at once (R75, R80: "If the attacker has
    0 soldiers, the war is thwarted"), which ends the Action Phase (R73); an action with nothing it could
    select is used and does nothing (A43, A50 ruling)."""
    s = ctx.state
    me = s.players[mob]

    def outcome(total: int) -> str:
        action = ACTIONS[total - 1]
        text = f"action #{total}: {CATALOG.action(action).name}"
        if action in me.sanctions:
            return text + " (SANCTIONED)"
        if action == "war" and me.soldiers < 1:
            return text + ", with no soldiers: the war is thwarted (R80)"
        if action in NOTHING and not any(_targets(s, mob, action).values()):
            return text + f", with {NOTHING[action]}: it does nothing (A43)"
        return text

    action = ACTIONS[roll(ctx, mob, "action", outcome) - 1]
    if action in me.sanctions:
        ctx.emit(ev.ActionDeclared(seat=mob, action=action, plan={}, claim=None, sanctioned=True))
        return
    ctx.emit(ev.ActionDeclared(seat=mob, action=action, plan=_plan(ctx, mob, action), claim=None, sanctioned=False))
    if action == "war" and me.soldiers < 1:  # R75: thwarted as it is declared; no player is selected (R45)
        ctx.emit(ev.ActionThwarted(seat=mob, action=action, reason=NO_SOLDIERS))


def _plan(ctx: Ctx, mob: int, action: str) -> dict[str, Any]:
    """The choices of the rolled ``action``: none (an empty plan) when it has nothing it could select."""
    s = ctx.state
    names = [p.name for p in s.players]
    targets = _targets(s, mob, action)
    if action in NOTHING and not any(targets.values()):
        return {}
    if action == "war":
        return {"target": pick_player(ctx, mob, targets["target"], "player selection: war")}
    if action == "temple":
        recipient = pick_player(ctx, mob, targets["recipient"], "player selection: Temple recipient")
        assert recipient is not None
        givable = {c.id for _, c in _givable(s, mob, recipient)}
        _, card = pick_object(
            ctx,
            mob,
            _card_line(s),
            lambda oc: oc[1].id in givable,
            lambda oc: f"{names[oc[0]]}'s revealed {oc[1].name}",
            lambda oc: oc[0],
        )
        return {"recipient": recipient, "card": card.id}
    if action == "mason":
        pieces, wall_to = targets["discard"], targets["give_wall"]
        if not pieces and not wall_to:
            return {"discard": []}
        choice = 1 if not wall_to else 2 if not pieces else choose_between(ctx, mob, "discard items", "give the WALL")
        if choice == 2:
            return {"give_wall": pick_player(ctx, mob, wall_to, "player selection: WALL recipient")}
        # A50 ruling: a mob does as much as its text allows, so "up to 2" items are 2 when there are 2
        picked = pick_objects(ctx, mob, pieces, lambda _: True, lambda p: item_label(s, p[0]), 2, lambda p: p[1])
        return {"discard": sorted(ref for ref, _ in picked)}
    if action == "library":
        slots, receivers = targets["sanctions"], targets["treaty"]
        choice = 1 if not receivers else 2 if not slots else choose_between(ctx, mob, "2 SANCTIONS", "give the TREATY")
        if choice == 2:
            return {"treaty": pick_player(ctx, mob, receivers, "player selection: TREATY")}
        label = lambda t: f"{names[t['seat']]}'s {t['action'].title()}"  # noqa: E731
        return {"sanctions": pick_objects(ctx, mob, slots, lambda _: True, label, 2, lambda t: t["seat"])}
    return {}  # Recruit, Barracks, Treasury, Laboratory need no plan
