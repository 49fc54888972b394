"""A mob's decisions (R173-R181): whatever the game waits for from a mob seat is decided here, with
the D8 procedures of ``mob``, inside ``flow.advance``. A mob is never prompted.

A mob on a Simpleton mat numbers the mat's 8 printed actions in order (Recruit 1 ... Library 8;
``data/simpleton.json``). Its actions need no building card and are no claims (R43, R173). The
rulings this module applies are listed in docs/rulings.md, "Mobs and Solo" (A50).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from domain.everaegis import artificers, consumables, reactive
from domain.everaegis import events as ev
from domain.everaegis.actions import barracks_choices, put_back, put_back_choices, sanction_choices
from domain.everaegis.alliances import war_targets_allowed
from domain.everaegis.blasphemy import settle_spoils
from domain.everaegis.cards import discard_card, reveal
from domain.everaegis.catalog import ACTIONS, CATALOG
from domain.everaegis.consumables import use as use_item
from domain.everaegis.context import Ctx
from domain.everaegis.effects import choose as choose_effect
from domain.everaegis.effects import decision as effect_decision
from domain.everaegis.items import brig_sources, item_label, items_in_play, sanction_sources
from domain.everaegis.mob import agree, choose_between, pick_object, pick_objects, pick_player, roll
from domain.everaegis.reactions import guard_means, pay, penalty_choices, proof_choices, prove, settle
from domain.everaegis.state import Card, GameState
from domain.everaegis.war import reveal_choices, reveal_for_war


def mob_step(ctx: Ctx, needs: Sequence[tuple[int, str]]) -> bool:
    """Make the first decision the game waits for from a mob. False if no mob is awaited. R178: a usable
    consumable comes before the action it could precede."""
    needs = sorted(needs, key=lambda need: need[1] != "use_item")
    for seat, kind in needs:
        if ctx.state.is_mob(seat):
            if kind not in DECIDE:  # pragma: no cover - config refuses mobs where other decisions arise
                raise AssertionError(f"a mob cannot decide {kind!r}")
            DECIDE[kind](ctx, seat)
            return True
    return False


# ----- the Action Phase (R173: the action is the number rolled) -----


def _targets(s: GameState, mob: int, action: str) -> dict[str, list[Any]]:
    """The candidates each part of ``action`` may pick for ``mob``; an empty dict: nothing to pick."""
    partner = s.partner(mob)
    others = [r for r in s.remaining() if r not in (mob, partner)]
    if action == "war":
        can = s.players[mob].soldiers >= 1 and not s.in_effect("no_war")
        others = [r for r in others if war_targets_allowed(s, mob, r)]  # Alliances: option ally_war (R163)
        return {"target": others if can else []}  # R77
    if action == "temple":
        return {"recipient": [r for r in others if _givable(s, mob, r)]}
    if action == "mason":
        wall_with_partner = partner is not None and s.wall == partner
        return {
            "discard": [(ref, holder) for ref, holder in items_in_play(s) if holder != partner],
            "give_wall": [] if wall_with_partner else [r for r in others if r != s.wall],
        }
    if action == "library":
        treaty_with_partner = partner is not None and s.treaty == partner
        return {
            "sanctions": [
                {"seat": p, "action": a} for p in s.in_turn_order(others) for a in ACTIONS if a not in s.players[p].sanctions
            ],
            "treaty": [] if treaty_with_partner else [r for r in others if r != s.treaty],
        }
    return {}


def _givable(s: GameState, mob: int, recipient: int) -> list[tuple[int, Card]]:
    """Temple: the revealed cards, in a line in turn order, that could go to ``recipient``."""
    partner = s.partner(mob)
    line = _card_line(s)
    return [(o, c) for o, c in line if c.revealed and o not in (partner, recipient)]


def _card_line(s: GameState) -> list[tuple[int, Card]]:
    return [(p, c) for p in s.in_turn_order(range(s.seats)) for c in s.players[p].cards]


def usable(s: GameState, mob: int, action: str) -> bool:
    """A50 ruling: an action that cannot be used (War without a soldier or a target, Temple with no
    revealed card to give, Library with nothing to sanction and nobody to give the TREATY) is rolled again.
    A SANCTIONED action is always used: it runs the SANCTION's text (R109, R110)."""
    if action in s.players[mob].sanctions:
        return True
    targets = _targets(s, mob, action)
    if action in ("war", "temple", "library"):
        return any(targets.values())
    return True


def _declare(ctx: Ctx, mob: int) -> None:
    s = ctx.state
    me = s.players[mob]
    while True:

        def outcome(total: int) -> str:
            action = ACTIONS[total - 1]
            text = f"action #{total}: {CATALOG.action(action).name}"
            if action in me.sanctions:
                return text + " (SANCTIONED)"
            return text if usable(s, mob, action) else text + ", which cannot be used: roll again"

        action = ACTIONS[roll(ctx, mob, "action", outcome) - 1]
        if action in me.sanctions:
            ctx.emit(ev.ActionDeclared(seat=mob, action=action, plan={}, claim=None, sanctioned=True))
            return
        if usable(s, mob, action):
            ctx.emit(ev.ActionDeclared(seat=mob, action=action, plan=_plan(ctx, mob, action), claim=None, sanctioned=False))
            return


def _plan(ctx: Ctx, mob: int, action: str) -> dict[str, Any]:
    s = ctx.state
    names = [p.name for p in s.players]
    targets = _targets(s, mob, action)
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


# ----- every other decision: Object Selection, Agreement, Player Selection (R175-R179) -----


def _own_card(ctx: Ctx, mob: int, choices: Sequence[Card]) -> Card:
    """R179: the mob's cards in a line; the count skips those that cannot be selected (E28)."""
    ids = {c.id for c in choices}
    return pick_object(ctx, mob, ctx.state.players[mob].cards, lambda c: c.id in ids, lambda c: f"card {c.id}")


def _choose_year(ctx: Ctx, mob: int) -> None:
    label, cards = pick_object(ctx, mob, ctx.state.years, lambda _: True, lambda y: f"year {y[0]} ({len(y[1])} cards)")
    ctx.emit(ev.YearMadeDeck(year=label, chosen_by=mob, size=len(cards)))


def _setup_reveal(ctx: Ctx, mob: int) -> None:
    reveal(ctx, mob, _own_card(ctx, mob, ctx.state.players[mob].unrevealed), full=True, reason="setup")


def _react(ctx: Ctx, mob: int) -> None:
    """A50 ruling: a mob never calls; it guards only with the WALL, and only on Agreement (R176). R178: a
    reactive item is used the moment the occasion occurs: the first action it may answer."""
    s = ctx.state
    w, act = s.window, s.act
    assert w is not None and act is not None
    items = reactive.reactions(s, mob) if w.about == "action" and mob in reactive.users(s, act) else []
    if items:
        ctx.emit(ev.ReactionGiven(window=w.id, seat=mob, answer="use", means=items[0], audience=[mob]))
        return
    wall = w.about == "action" and "wall" in guard_means(s, mob, act)
    if wall and agree(ctx, mob, "guard with the WALL"):
        ctx.emit(ev.ReactionGiven(window=w.id, seat=mob, answer="guard", means="wall", audience=[mob]))
    else:
        ctx.emit(ev.ReactionGiven(window=w.id, seat=mob, answer="pass", audience=[mob]))


def _prove(ctx: Ctx, mob: int) -> None:
    prove(ctx, _own_card(ctx, mob, proof_choices(ctx.state)))


def _pay(ctx: Ctx, mob: int) -> None:
    pay(ctx, _own_card(ctx, mob, penalty_choices(ctx.state)))


def _take_brig(ctx: Ctx, mob: int) -> None:
    source = pick_player(ctx, mob, brig_sources(ctx.state, mob))
    ctx.emit(ev.ItemGained(seat=mob, item="BRIG", source=source, reason="incorrect call (R58, R105)"))
    settle(ctx, correct=False)


def _take_sanction(ctx: Ctx, mob: int) -> None:
    s = ctx.state
    act = s.act
    assert act is not None
    target = act.todo[0]
    names = [p.name for p in s.players]
    source = pick_object(
        ctx,
        mob,
        sanction_sources(s, target),
        lambda _: True,
        lambda src: f"the SANCTION on {names[src['seat']]}'s {src['action'].title()}",
        lambda src: src["seat"],
    )
    ctx.emit(ev.SanctionPlaced(seat=target["seat"], action=target["action"], source=source, reason=f"{act.action} (R105)"))


def _sanction_discard(ctx: Ctx, mob: int) -> None:
    discard_card(ctx, mob, _own_card(ctx, mob, sanction_choices(ctx.state)), "sanction")


def _barracks_discard(ctx: Ctx, mob: int) -> None:
    discard_card(ctx, mob, _own_card(ctx, mob, barracks_choices(ctx.state)), "barracks")


def _put_back(ctx: Ctx, mob: int) -> None:
    """A21: 2 picks, the first goes on top."""
    s = ctx.state
    ids = {c.id for combo in put_back_choices(s) for c in combo}
    cards = pick_objects(ctx, mob, s.players[mob].cards, lambda c: c.id in ids, lambda c: f"card {c.id}", 2)
    put_back(ctx, tuple(cards))


def _war_reveal(ctx: Ctx, mob: int) -> None:
    """R83, E28: one card a roll; the next roll skips the card just revealed."""
    ids = {c.id for combo in reveal_choices(ctx.state) for c in combo}
    card = _own_card(ctx, mob, [c for c in ctx.state.players[mob].cards if c.id in ids])
    reveal_for_war(ctx, (card,))


def _spoils(ctx: Ctx, mob: int) -> None:
    """Blasphemy (R90, R171): taking a token is a yes-or-no choice, so Agreement decides (R176)."""
    settle_spoils(ctx, "take" if agree(ctx, mob, "take a Blasphemy token") else "leave")


def _effect_choice(ctx: Ctx, mob: int) -> None:
    """A choice a card effect asks of a mob, or the order of effects it must set: a player by Player Selection
    (R174, R175), anything else by Object Selection among the choices as offered (R179; Abundance past 8, R181)."""
    d = effect_decision(ctx.state)
    assert d is not None and d.seat == mob
    values = [v for _, v in d.options]
    if d.kind != "order" and all(isinstance(v, int) for v in values):  # a player: Player Selection (R175)
        value = pick_player(ctx, mob, values)
        if value is None:  # only the mob itself could be selected (R174 skips it)
            value = values[0]
    else:
        _label, value = pick_object(ctx, mob, list(d.options), lambda _: True, lambda o: str(o[0]))
    choose_effect(ctx, mob, value)


def _artificer_gift(ctx: Ctx, mob: int) -> None:
    """Artificers' setup gift (R172): Player Selection of the receiver (R175), then Object Selection of the item."""
    s = ctx.state
    to = pick_player(ctx, mob, artificers.receivers(s, mob))
    assert to is not None
    item = pick_object(ctx, mob, artificers.gift_kinds(s), lambda _: True, str)
    artificers.give(ctx, mob, item, to)


def _draw_reaction(ctx: Ctx, mob: int) -> None:
    """R178: a reactive item is used the moment the occasion occurs (E27: the next player's Draw Phase)."""
    items = reactive.draw_items(ctx.state, mob)
    reactive.draw_react(ctx, mob, "use" if items else "pass", items[0] if items else None)


def _use_item(ctx: Ctx, mob: int) -> None:
    """R178 Consumption: a mob uses a consumable as soon as the rules allow."""
    use_item(ctx, mob, consumables.usable(ctx.state, mob)[0])


def _undo(ctx: Ctx, mob: int) -> None:  # pragma: no cover - a mob never calls, so it is never offered an undo
    undo = ctx.state.undo
    assert undo is not None
    ctx.emit(ev.UndoWaived(seat=mob, window=undo.window))


DECIDE = {
    "declare": _declare,
    "choose_year": _choose_year,
    "setup_reveal": _setup_reveal,
    "react": _react,
    "prove": _prove,
    "pay": _pay,
    "take_brig": _take_brig,
    "take_sanction": _take_sanction,
    "sanction_discard": _sanction_discard,
    "barracks_discard": _barracks_discard,
    "put_back": _put_back,
    "war_reveal": _war_reveal,
    "undo": _undo,
    "effect_choice": _effect_choice,
    "effect_order": _effect_choice,
    "artificer_gift": _artificer_gift,
    "use_item": _use_item,
    "draw_reaction": _draw_reaction,
    "spoils": _spoils,
}
