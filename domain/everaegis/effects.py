"""The interpreter of card effects written in the vocabulary (``vocabulary.py``): the one place where a
card's text is executed. Cards are data; this module has no code path per card, nor per step: each step of
the vocabulary is declared once in ``effect_steps.py`` (its choice, its run, how a choice is applied, its
words), and ``decision``, ``effect_step`` and ``choose`` look the running step up there.

An effect is queued (``EffectQueued``) when a trigger estate is fully revealed (R92) or when a condition
estate's moment comes in its possessor's turn (R93, R26, R29). Queued effects run one at a time, before
anything else moves on; when several wait and none has started, the current player picks the one that
runs first (R131). Inside an effect, the possessor makes its choices (R124: even when eliminated), and a
player who must reveal or discard their own cards chooses which. An effect that cannot be done in full is
done as far as possible (A43). Conditions (``while revealed``) are read where they apply (``in_effect``).
The plans of a declared effect, found by running it on copies of the state, are in ``effect_plans.py``.
"""

from __future__ import annotations

from typing import Any

from aegis.domain.everaegis import events as ev
from aegis.domain.everaegis.context import Ctx
from aegis.domain.everaegis.effect_steps import STEP_KINDS, StepKind, bind_steps
from aegis.domain.everaegis.effect_steps import gain_item as gain_item  # where the rules of giving an item are (R105, R106)
from aegis.domain.everaegis.effect_work import Decision, Step, pick_first, picked, progress, queue_effect, start
from aegis.domain.everaegis.events.words import said_choice
from aegis.domain.everaegis.items import holder_of
from aegis.domain.everaegis.mob import pick_object, pick_player
from aegis.domain.everaegis.state import GameState, Pending
from aegis.domain.kernel.decisions import DecisionKind
from aegis.domain.kernel.prompts import Option, Prompt


def _queue(ctx: Ctx, owner: int, source: str, card: str, effect: dict[str, Any], reason: str) -> None:
    queue_effect(ctx, owner, source, effect["steps"], reason, card=card)


def at_phase(ctx: Ctx, seat: int, moment: str) -> None:
    """R93, R102, R26, R29: condition estates (while revealed) and condition items acting at their
    possessor's Begin or End Phase."""
    s = ctx.state
    if s.classic.components is None:  # a Simpleton game: no estate card, no Classic item, so nothing acts
        return
    for card in s.players[seat].revealed:
        entry = s.estate(card.name)
        if entry is not None and entry.get("effect") and entry["effect"]["when"] == moment:
            _queue(ctx, seat, card.name, card.id, entry["effect"], f"{moment} phase (R93)")
    acting = s.items_acting(seat, moment)
    for item in s.items_of(seat):  # each piece acts
        if item in acting:
            effect = s.item_effect(item, moment)
            assert effect is not None
            _queue(ctx, seat, item, "", effect, f"{moment} phase (R102)")


# ----- the running effect: a lookup of its step -----


def _running(s: GameState) -> tuple[Pending, Step, StepKind]:
    p = s.pending.effects[0]
    step = p.steps[p.index]
    return p, step, STEP_KINDS[step["step"]]


def decision(s: GameState) -> Decision | None:
    """The choice the first effect waits for, or None if it can go on by itself."""
    if not s.pending.effects:
        return None
    first = s.pending.effects[0]
    if len(s.pending.effects) > 1 and not first.started:
        names = [p.name for p in s.players]
        current = s.play.current if s.play.current is not None else (s.play.first_player or 0)
        opts = tuple((f"Resolve {p.source} ({names[p.owner]}{_why(p)}) first", p.id) for p in s.pending.effects)
        return Decision(current, opts, "several effects happen at once: choose which resolves first (R131)", "order")
    if first.index >= len(first.steps):
        return None
    p, step, kind = _running(s)
    if kind.picking(p):
        return pick_first(s, p, step, kind.pick_label, kind.describe(step))
    return kind.decision(s, p, step)


def _why(p: Pending) -> str:
    """What set an effect off, as its order's option says it: ", as the AXE was discarded" (two effects of one ability
    told apart, R131); nothing for an effect queued with no reason given."""
    return f", as {p.reason}" if p.reason else ""


def effect_step(ctx: Ctx) -> bool:
    """Run the first effect one step further. False when a player must choose (see ``decision``)."""
    s = ctx.state
    d = decision(s)
    if d is not None:
        p = s.pending.effects[0]
        if p.plan is None or d.kind == "order":
            return False
        return _use_plan(ctx, p, d)
    p = s.pending.effects[0]
    if p.index >= len(p.steps):
        ctx.emit(ev.EffectEnded(id=p.id, source=p.source))
        return True
    p, step, kind = _running(s)
    if kind.picking(p):
        start(ctx, p, step)
    else:
        assert kind.run is not None, step["step"]  # a step without a run always waits for a choice
        kind.run(ctx, p, step)
    return True


def choose(ctx: Ctx, seat: int, value: Any) -> None:
    """Apply a choice the running effect (or the order of effects) waited for; ``value`` is an offered one."""
    s = ctx.state
    d = decision(s)
    assert d is not None and d.seat == seat
    if d.kind == "order":
        ctx.emit(ev.EffectsOrdered(seat=seat, first=value))
        return
    p, step, kind = _running(s)
    if kind.picking(p):
        picked(ctx, p, step, value)
    else:
        assert kind.choose is not None, step["step"]  # only a step with a choose waits for a choice
        kind.choose(ctx, p, step, value)


def _use_plan(ctx: Ctx, p: Pending, d: Decision) -> bool:
    """A declared action's effect takes the next choice its declaration made; one that is no longer among
    the options (the position changed during the window) skips that step (A43)."""
    assert p.plan is not None
    value = p.plan[0] if p.plan else None
    offered = [v for _, v in d.options]
    if p.plan:
        ctx.emit(ev.EffectPlanUsed(id=p.id))
    if value is None or value not in offered:
        progress(ctx, ctx.state.pending.effects[0], p.index + 1, None)
        return True
    choose(ctx, d.seat, value)
    return True


# ----- effects queued by a leader's ability, and named after a leader's action -----


def fire_triggers(ctx: Ctx) -> None:
    """Abilities acting on an opponent's discarded item (VIGILANTE): queued as effects, "$discarded" bound to
    the item. Only an item the ability can hand back is offered: a Classic item, the WALL, a BRIG or a SANCTION
    (taken, it is placed at once on an action of the taker's choice, p. 23); not a TREATY, which needs its giver
    (R107-R108)."""
    s = ctx.state
    for t in list(s.pending.triggers):
        seat = t["seat"]
        if t["mat"] not in s.abilities(seat):  # eliminated, or no longer theirs, since the discard
            continue
        entry = s.leader_entry(t["mat"]) or {}
        effect = entry["effects"]["ability"]
        if "item" in t:
            offerable = t["item"] in ("WALL", "BRIG", "SANCTION") or s.item_entry(t["item"]) is not None
            steps = bind_steps(effect["steps"], t["item"], offerable)
            reason = f"the {t['item']} was discarded"  # whose: the event just before says (no name inside an event)
        else:
            steps, reason = list(effect["steps"]), f"the {t['card']} was revealed"
        leader = t["mat"]
        name = (entry.get("ability") or {}).get("name", "ability")
        queue_effect(ctx, seat, f"{leader}'s {name}", steps, reason)
    ctx.emit(ev.TriggersFired(count=len(s.pending.triggers)))


def leader_source(s: GameState, seat: int, action: str) -> str:
    """How a leader's own action is named as the source of its effect: "Hooded Fox's Laboratory"."""
    return f"{s.players[seat].leader}'s {action.title()}"


# ----- the decisions: a choice the running effect waits for, and the order of effects (R131) -----


def _effect_prompt(s: GameState, seat: int) -> Prompt:
    d = decision(s)
    assert d is not None
    kind, key = ("effect_order", "first") if d.kind == "order" else ("effect_choice", "choice")
    opts = tuple(Option(label, {"type": kind, "seat": seat, key: value}, kind) for label, value in d.options)
    return Prompt(seat, kind, f"{s.players[seat].name}: {d.text}", opts)


def _mob_effect(ctx: Ctx, mob: int) -> None:
    """A choice a card effect asks of a mob, or the order of effects it must set: a player by Player Selection
    (R174, R175), anything else by Object Selection among the choices as offered (R179): past 8 held by players, a
    Player Selection among their holders first, then an Object Selection among that one's (R180 Narrowing, E29);
    past 8 otherwise, Abundance (R181)."""
    d = decision(ctx.state)
    assert d is not None and d.seat == mob
    values = [v for _, v in d.options]
    if d.kind != "order" and all(isinstance(v, int) for v in values):  # a player: Player Selection (R175)
        value = pick_player(ctx, mob, values)
        if value is None:  # only the mob itself could be selected (R174 skips it)
            value = values[0]
    else:
        s = ctx.state
        owner = None if d.kind == "order" else (lambda o: holder_of(s, o[1]))
        _label, value = pick_object(ctx, mob, list(d.options), lambda _: True, lambda o: str(o[0]), owner)
    choose(ctx, mob, value)


EFFECT_CHOICE = DecisionKind(
    "effect_choice",
    rule="R38",
    refusal="choose one of the choices the effect offers",
    fields={"choice": (str, int)},
    docs={
        "choice": {
            "description": "the option's value: a seat, a card id, an item, an action, an index, or a word such as none or stop"
        }
    },
    summary="make the choice a card effect asks of you",
    offer=_effect_prompt,
    apply=lambda ctx, cmd: choose(ctx, cmd["seat"], cmd["choice"]),
    by_rules=_mob_effect,
    asks="make an effect's choice",
    said=said_choice,
)
EFFECT_ORDER = DecisionKind(
    "effect_order",
    rule="R131",
    refusal="choose which of the waiting effects resolves first",
    fields={"first": int},
    docs={"first": {"description": "the id of the waiting effect that resolves first"}},
    summary="several effects happen at once: choose which resolves first",
    offer=_effect_prompt,
    apply=lambda ctx, cmd: choose(ctx, cmd["seat"], cmd["first"]),
    by_rules=_mob_effect,
    asks="choose which effect resolves first",
    said=said_choice,
)
