"""The interpreter of card effects written in the vocabulary (``vocabulary.py``): the one place where a
card's text is executed. Cards are data; this module has no code path per card.

An effect is queued (``EffectQueued``) when a trigger estate is fully revealed (R92) or when a condition
estate's moment comes in its possessor's turn (R93, R26, R29). Queued effects run one at a time, before
anything else moves on; when several wait and none has started, the current player picks the one that
runs first (R131). Inside an effect, the possessor makes its choices (R124: even when eliminated), and a
player who must reveal or discard their own cards chooses which. An effect that cannot be done in full is
done as far as possible (A43). Conditions (``while revealed``) are read where they apply (``in_effect``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from domain.everaegis import events as ev
from domain.everaegis.cards import discard_card, place_token, reveal
from domain.everaegis.catalog import ACTIONS
from domain.everaegis.context import Ctx
from domain.everaegis.items import discard_item, item_label, items_in_play
from domain.everaegis.mob import pick_object, pick_player
from domain.everaegis.soldiers import change_soldiers
from domain.everaegis.state import Card, GameState, Pending
from domain.kernel.decisions import DecisionKind
from domain.kernel.prompts import Option, Prompt

PICK_ONE = ("any player", "an opponent")


@dataclass(frozen=True)
class Decision:
    """What the running effect waits for: who chooses, and the choices as (label, value)."""

    seat: int
    options: tuple[tuple[str, Any], ...]
    text: str
    kind: str = "choice"  # or "order": which of several waiting effects runs first (R131)


def _queue(ctx: Ctx, owner: int, source: str, card: str, effect: dict[str, Any], reason: str) -> None:
    s = ctx.state
    ctx.emit(
        ev.EffectQueued(
            id=s.effects_queued + 1, source=source, owner=owner, card=card, steps=list(effect["steps"]), reason=reason
        )
    )


def on_revealed(ctx: Ctx, seat: int, card: Card) -> None:
    """R92: a trigger estate's text runs once, right after it is fully revealed (plain cards do nothing)."""
    entry = ctx.state.estate(card.name)
    if entry is not None and entry.get("effect") and entry["effect"]["when"] == "revealed":
        _queue(ctx, seat, card.name, card.id, entry["effect"], "revealed (R92)")


def at_phase(ctx: Ctx, seat: int, moment: str) -> None:
    """R93, R102, R26, R29: condition estates (while revealed) and condition items acting at their
    possessor's Begin or End Phase."""
    s = ctx.state
    for card in s.players[seat].revealed:
        entry = s.estate(card.name)
        if entry is not None and entry.get("effect") and entry["effect"]["when"] == moment:
            _queue(ctx, seat, card.name, card.id, entry["effect"], f"{moment} phase (R93)")
    acting = s.items_acting(seat, moment)
    for item in s.items_of(seat):  # each piece acts
        if item in acting:
            _queue(ctx, seat, item, "", (s.item_entry(item) or {})["effect"], f"{moment} phase (R102)")


# ----- the running effect -----


def _players(s: GameState, p: Pending, who: str) -> list[int]:
    remaining = s.remaining()
    if who == "self":
        return [p.owner]
    if who in ("each opponent", "an opponent"):
        # R138, R163: allies are not opponents
        return s.in_turn_order([seat for seat in remaining if seat != p.owner and not s.variant.allied(p.owner, seat)])
    return s.in_turn_order(remaining)  # any player, all players


def _targets(s: GameState, p: Pending, who: str) -> list[int]:
    """The players a step may be about: a standing guard keeps a player out, never the possessor (R66)."""
    return [t for t in _players(s, p, who) if t not in p.guarded or t == p.owner]


def _start_work(s: GameState, p: Pending, step: dict[str, Any]) -> dict[str, Any] | None:
    """The progress a step starts with, or None if the possessor must first pick the player."""
    left = step.get("count", step.get("amount", 1))
    if "who" not in step:
        return {"targets": [], "left": left}
    targets = _targets(s, p, step["who"])
    if step["who"] in PICK_ONE and len(targets) > 1:
        return None
    return {"targets": targets[:1] if step["who"] in PICK_ONE else targets, "left": left}


def _progress(ctx: Ctx, p: Pending, index: int, work: dict[str, Any] | None) -> None:
    ctx.emit(ev.EffectProgressed(id=p.id, index=index, work=work))


def _next_target(ctx: Ctx, p: Pending, step: dict[str, Any], work: dict[str, Any]) -> None:
    rest = work["targets"][1:]
    if rest:
        _progress(ctx, p, p.index, {"targets": rest, "left": step.get("count", step.get("amount", 1))})
    else:
        _progress(ctx, p, p.index + 1, None)


def _revealed_in_play(s: GameState) -> list[tuple[int, Card]]:
    return [(p.seat, c) for p in s.players for c in p.cards if c.revealed]


def decision(s: GameState) -> Decision | None:
    """The choice the first effect waits for, or None if it can go on by itself."""
    if not s.effects:
        return None
    first = s.effects[0]
    names = [p.name for p in s.players]
    if len(s.effects) > 1 and not first.started:
        current = s.current if s.current is not None else (s.first_player or 0)
        opts = tuple((f"Resolve {p.source} ({names[p.owner]}) first", p.id) for p in s.effects)
        return Decision(current, opts, "several effects happen at once: choose which resolves first (R131)", "order")
    p = first
    if p.index >= len(p.steps):
        return None
    step = p.steps[p.index]
    name = step["step"]
    if name == "choose":
        opts = tuple((describe_steps(option), i) for i, option in enumerate(step["options"]))
        if step["may"]:
            opts += (("Do none of these", "none"),)
        return Decision(p.owner, opts, f"{p.source}: choose one")
    if name == "bomb_soldier":
        if _bomb_guarded(s, p):
            return None
        opts = (("Add an unused soldier to the BOMB", "add"),)
        if s.item_soldiers.get("BOMB", 0) > 0:
            opts += (("Remove a soldier from the BOMB", "remove"),)
        if step["may"]:
            opts += (("Leave the BOMB as it is", "leave"),)
        return Decision(p.owner, opts, f"{p.source}: the BOMB")  # even a single way is said in the declaration
    if name == "discard_any_cards":
        cards = _cards_in_play(s, p)
        if (p.work or {}).get("left", step["count"]) <= 0 or not cards:
            return None
        opts = tuple((_card_choice_label(s, p.owner, o, c), c.id) for o, c in cards)
        return Decision(p.owner, opts, f"{p.source}: discard a card in play")
    if name == "discard_item_in_play":
        refs = _discardable(s, p)
        if (p.work or {}).get("left", step["count"]) <= 0 or not refs:
            return None
        return Decision(p.owner, tuple((f"Discard {item_label(s, r)}", r) for r in refs), f"{p.source}: discard an item in play")
    if p.work is None:
        if _start_work(s, p, step) is not None:
            return None
        targets = _targets(s, p, step["who"])
        if name == "give_item" and len(step["items"]) == 1:
            opts = tuple((f"Give {names[t]} the {step['items'][0]}", t) for t in targets)
        else:
            opts = tuple((names[t], t) for t in targets)
        return Decision(p.owner, opts, f"{p.source}: choose {step['who']} ({name})")
    work = p.work
    if name in ("reveal", "discard_unrevealed"):
        if not work["targets"] or work["left"] <= 0:
            return None
        seat = work["targets"][0]
        cards = s.players[seat].unrevealed
        if len(cards) <= 1:
            return None
        verb = "reveal" if name == "reveal" else "discard"
        return Decision(seat, tuple((f"{verb.title()} {c.name} ({c.id})", c.id) for c in cards), f"{p.source}: {verb} 1 card")
    if name == "unreveal_any":
        cards = _revealed_in_play(s)
        if work["left"] <= 0 or len(cards) <= 1:
            return None
        opts = tuple((f"Unreveal {names[o]}'s {c.name} ({c.id})", c.id) for o, c in cards)
        return Decision(p.owner, opts, f"{p.source}: unreveal 1 revealed card in play")
    if name == "sanction":
        if not work["targets"] or work["left"] <= 0:
            return None
        target = work["targets"][0]
        free = [a for a in ACTIONS if a not in s.players[target].sanctions]
        if len(free) <= 1:
            return None
        opts = tuple((f"SANCTION {names[target]}'s {a.title()}", a) for a in free)
        return Decision(p.owner, opts, f"{p.source}: choose the action to SANCTION (R109)")
    if name == "give_item":
        if not work["targets"] or len(step["items"]) <= 1:
            return None
        target = work["targets"][0]
        opts = tuple((f"Give {names[target]} the {item}", item) for item in step["items"])
        return Decision(p.owner, opts, f"{p.source}: choose the item to give (R143: or)")
    if name == "discard_soldiers_in_play":
        holders = [q.seat for q in s.players if q.soldiers > 0]
        if work["left"] <= 0 or not holders or (len(holders) == 1 and not step["up_to"]):
            return None
        opts = tuple((f"Discard 1 of {names[t]}'s soldiers", t) for t in holders)
        if step["up_to"]:
            opts += (("Stop discarding soldiers", "stop"),)
        return Decision(p.owner, opts, f"{p.source}: discard up to {work['left']} soldiers in play")
    return None


def effect_step(ctx: Ctx) -> bool:
    """Run the first effect one step further. False when a player must choose (see ``decision``)."""
    s = ctx.state
    d = decision(s)
    if d is not None:
        p = s.effects[0]
        if p.plan is None or d.kind == "order":
            return False
        return _use_plan(ctx, p, d)
    p = s.effects[0]
    if p.index >= len(p.steps):
        ctx.emit(ev.EffectEnded(id=p.id, source=p.source))
        return True
    step = p.steps[p.index]
    name = step["step"]
    if name == "bomb_soldier":  # guarded (R66): the BOMB is left as it is
        _progress(ctx, p, p.index + 1, None)
        return True
    if name == "discard_any_cards":
        _progress(ctx, p, p.index + 1, None)  # nothing left to choose from (A43)
        return True
    if name == "discard_item_in_play":
        work = p.work or {"left": step["count"]}
        refs = _discardable(s, p)
        if work["left"] <= 0 or not refs:
            _progress(ctx, p, p.index + 1, None)
        else:
            _discard_ref(ctx, p, work, refs[0])
        return True
    if p.work is None:
        work = _start_work(s, p, step)
        assert work is not None
        _progress(ctx, p, p.index, work)
        return True
    work = p.work
    if name in ("gain_soldiers", "lose_soldiers"):
        for seat in work["targets"]:
            have = s.players[seat].soldiers
            amount = step["amount"] if name == "gain_soldiers" else -min(step["amount"], have)
            if amount:
                change_soldiers(ctx, seat, amount, f"{p.source} (card effect)")
        _progress(ctx, p, p.index + 1, None)
    elif name == "gain_card":
        ctx.emit(ev.CardsToGain(seats=list(work["targets"]), count=step["count"], reason=p.source))
        _progress(ctx, p, p.index + 1, None)
    elif name in ("reveal", "discard_unrevealed"):
        if not work["targets"]:
            _progress(ctx, p, p.index + 1, None)
            return True
        cards = s.players[work["targets"][0]].unrevealed
        if work["left"] <= 0 or not cards:
            _next_target(ctx, p, step, work)
        else:
            _act_on_card(ctx, p, name, work["targets"][0], cards[0])
    elif name == "unreveal_any":
        cards = _revealed_in_play(s)
        if work["left"] <= 0 or not cards:
            _progress(ctx, p, p.index + 1, None)
        else:
            _unreveal(ctx, p, *cards[0])
    elif name == "discard_soldiers_in_play":
        holders = [q.seat for q in s.players if q.soldiers > 0]
        if work["left"] <= 0 or not holders:
            _progress(ctx, p, p.index + 1, None)
        else:
            _take_soldier(ctx, p, holders[0])
    elif name == "give_item":
        if not work["targets"]:
            _progress(ctx, p, p.index + 1, None)
        else:
            _give(ctx, p, step, work["targets"][0], step["items"][0])
    elif name == "war":
        target = work["targets"][0] if work["targets"] else None
        partner = s.partner(p.owner)
        if target is not None and s.act is None and not s.in_effect("no_war") and target != partner:
            ctx.emit(ev.EffectWarBegan(attacker=p.owner, defender=target, source=p.source))
        _progress(ctx, ctx.state.effects[0], p.index + 1, None)
    elif name == "sanction":
        free = [a for a in ACTIONS if work["targets"] and a not in s.players[work["targets"][0]].sanctions]
        if not work["targets"]:
            _progress(ctx, p, p.index + 1, None)
        elif work["left"] <= 0 or not free:  # A19: every action already carries one
            _next_target(ctx, p, step, work)
        else:
            _sanction(ctx, p, step, work["targets"][0], free[0])
    elif name == "sacrifice_to_leader":
        to = s.seat_led_by(step["leader"])
        amount = min(step["amount"], s.players[p.owner].soldiers)
        if to is not None and to != p.owner and not s.players[to].eliminated and amount > 0:
            ctx.emit(ev.SacrificesGiven(seat=p.owner, to=to, amount=amount, reason=f"{p.source} (R115, R149)"))
        _progress(ctx, p, p.index + 1, None)
    else:  # pragma: no cover - the catalog check admits only the vocabulary
        raise AssertionError(name)
    return True


def _act_on_card(ctx: Ctx, p: Pending, name: str, seat: int, card: Card) -> None:
    work = dict(p.work or {})
    if name == "reveal":
        reveal(ctx, seat, card, full=True, reason=f"{p.source} (card effect)")
    else:
        discard_card(ctx, seat, card, f"{p.source} (card effect)")
    first = ctx.state.effects[0]
    if first.id == p.id:
        _progress(ctx, first, first.index, {**work, "left": work["left"] - 1})


def _unreveal(ctx: Ctx, p: Pending, seat: int, card: Card) -> None:
    ctx.emit(ev.CardUnrevealed(seat=seat, card=card.id, name=card.name, reason=f"{p.source} (card effect)"))
    place_token(ctx, seat, card, f"{p.source} (card effect)")  # Discovery (R160)
    if ctx.state.players[seat].eliminated:  # R125: still eliminated, so the card is revealed again at once
        again = ctx.state.players[seat].card(card.id)
        assert again is not None
        reveal(ctx, seat, again, full=True, reason="eliminated players keep every card revealed (R125)", trigger=False)
    work = dict(p.work or {})
    _progress(ctx, p, p.index, {**work, "left": work["left"] - 1})


def _holding(s: GameState, item: str) -> tuple[int, dict[int, int], int]:
    """(pieces in the box, pieces per holder, pieces in the reserve) of an item the effects may give."""
    if item == "WALL":
        held = {s.wall: 1} if s.wall is not None else {}
        return 1, held, 1 - len(held)
    if item == "BRIG":
        held = {p.seat: p.brigs for p in s.players if p.brigs}
        return s.brig_supply + sum(held.values()), held, s.brig_supply
    entry = s.item_entry(item)
    return (entry["count"] if entry else 0), s.held.get(item, {}), s.supply(item)


def gain_item(ctx: Ctx, receiver: int, item: str, reason: str) -> None:
    """R105, R106: from the reserve, or taken from another holder (the first in turn order, a ruling); a
    player who already holds a one-piece item gains nothing; an eliminated receiver discards it (R124)."""
    s = ctx.state
    count, held, supply = _holding(s, item)
    if count == 1 and held.get(receiver):
        ctx.emit(ev.ItemNotGained(seat=receiver, item=item, reason="already theirs: no item gain (R106)"))
        return
    if supply > 0:
        source: Any = "reserve"
    else:
        vengeance = s.config.option("vengeance")  # R159: nothing is taken from an eliminated player
        holders = s.in_turn_order([seat for seat in held if seat != receiver and not (vengeance and s.players[seat].eliminated)])
        if not holders:
            ctx.emit(ev.ItemNotGained(seat=receiver, item=item, reason="no piece left to take (R105, A43)"))
            return
        source = holders[0]
    ctx.emit(ev.ItemGained(seat=receiver, item=item, source=source, reason=reason))
    if s.players[receiver].eliminated:
        ctx.emit(ev.ItemDiscarded(seat=receiver, item=item, reason="an eliminated player discards any item received (R124)"))


def _give(ctx: Ctx, p: Pending, step: dict[str, Any], receiver: int, item: str) -> None:
    if receiver not in p.guarded or receiver == p.owner:  # R66: a standing guard keeps the receiver out
        gain_item(ctx, receiver, item, f"{p.source} (card effect)")
    work = dict(ctx.state.effects[0].work or {})
    _next_target(ctx, ctx.state.effects[0], step, work)


def _sanction(ctx: Ctx, p: Pending, step: dict[str, Any], seat: int, action: str) -> None:
    """R109, R105: from the reserve, else taken from another player's mat (the first in turn order, a ruling)."""
    s = ctx.state
    if s.sanction_supply > 0:
        source: Any = "reserve"
    else:
        mats = [{"seat": q, "action": a} for q in s.in_turn_order(range(s.seats)) if q != seat for a in s.players[q].sanctions]
        source = mats[0] if mats else None
    if source is None:
        ctx.emit(ev.SanctionNotPlaced(seat=seat, action=action, reason="no SANCTION left anywhere (A43)"))
    else:
        ctx.emit(ev.SanctionPlaced(seat=seat, action=action, source=source, reason=f"{p.source} (card effect)"))
    _next_target(ctx, ctx.state.effects[0], step, dict(ctx.state.effects[0].work or {}))


def _take_soldier(ctx: Ctx, p: Pending, seat: int) -> None:
    change_soldiers(ctx, seat, -1, f"{p.source} (card effect)")
    work = dict(p.work or {})
    _progress(ctx, p, p.index, {**work, "left": work["left"] - 1})


def choose(ctx: Ctx, seat: int, value: Any) -> None:
    """Apply a choice the running effect (or the order of effects) waited for; ``value`` is an offered one."""
    s = ctx.state
    d = decision(s)
    assert d is not None and d.seat == seat
    if d.kind == "order":
        ctx.emit(ev.EffectsOrdered(seat=seat, first=value))
        return
    p = s.effects[0]
    step = p.steps[p.index]
    name = step["step"]
    if name == "choose":
        chosen = [] if value == "none" else list(step["options"][value])
        steps = p.steps[: p.index] + chosen + p.steps[p.index + 1 :]
        ctx.emit(ev.EffectProgressed(id=p.id, index=p.index, work=None, steps=steps))
    elif name == "bomb_soldier":
        if value != "leave":
            ctx.emit(ev.ItemSoldiersChanged(item="BOMB", delta=1 if value == "add" else -1, reason=p.source))
        _progress(ctx, p, p.index + 1, None)
    elif name == "discard_item_in_play":
        _discard_ref(ctx, p, p.work or {"left": step["count"]}, value)
    elif name == "discard_any_cards":
        work = p.work or {"left": step["count"]}
        owner = s.owner_of(value)
        assert owner is not None
        card = s.players[owner].card(value)
        assert card is not None
        discard_card(ctx, owner, card, f"{p.source} (card effect)")
        _progress(ctx, ctx.state.effects[0], p.index, {**work, "left": work["left"] - 1})
    elif p.work is None:
        _progress(ctx, p, p.index, {"targets": [value], "left": step.get("count", step.get("amount", 1))})
    elif name in ("reveal", "discard_unrevealed"):
        target = p.work["targets"][0]
        card = s.players[target].card(value)
        assert card is not None
        _act_on_card(ctx, p, name, target, card)
    elif name == "unreveal_any":
        owner = s.owner_of(value)
        assert owner is not None
        card = s.players[owner].card(value)
        assert card is not None
        _unreveal(ctx, p, owner, card)
    elif name == "give_item":
        _give(ctx, p, step, p.work["targets"][0], value)
    elif name == "sanction":
        _sanction(ctx, p, step, p.work["targets"][0], value)
    elif name == "discard_soldiers_in_play":
        if value == "stop":
            _progress(ctx, p, p.index + 1, None)
        else:
            _take_soldier(ctx, p, value)


# ----- steps on items in play, the BOMB, and declared choices -----


def _bomb_guarded(s: GameState, p: Pending) -> bool:
    holder = next(iter(s.held.get("BOMB", {})), None)
    return holder is not None and holder in p.guarded and holder != p.owner


def _discardable(s: GameState, p: Pending) -> list[str]:
    return sorted(ref for ref, holder in items_in_play(s) if holder not in p.guarded or holder == p.owner)


def _cards_in_play(s: GameState, p: Pending) -> list[tuple[int, Card]]:
    return [(q.seat, c) for q in s.players for c in q.cards if q.seat not in p.guarded or q.seat == p.owner]


def _card_choice_label(s: GameState, chooser: int, owner: int, card: Card) -> str:
    """A card as its chooser may know it: a hidden card by its owner and id only (A53)."""
    whose = "your" if owner == chooser else f"{s.players[owner].name}'s"
    if card.known_to(chooser, owner):
        return f"Discard {whose} {'revealed ' if card.revealed else ''}{card.name} ({card.id})"
    return f"Discard {whose} unrevealed card ({card.id})"


def _discard_ref(ctx: Ctx, p: Pending, work: dict[str, Any], ref: str) -> None:
    discard_item(ctx, ref, f"{p.source} (card effect)", by=p.owner)
    _progress(ctx, ctx.state.effects[0], p.index, {**work, "left": work["left"] - 1})


def _use_plan(ctx: Ctx, p: Pending, d: Decision) -> bool:
    """A declared action's effect takes the next choice its declaration made; one that is no longer among
    the options (the position changed during the window) skips that step (A43)."""
    assert p.plan is not None
    value = p.plan[0] if p.plan else None
    offered = [v for _, v in d.options]
    if p.plan:
        ctx.emit(ev.EffectPlanUsed(id=p.id))
    if value is None or value not in offered:
        _progress(ctx, ctx.state.effects[0], p.index + 1, None)
        return True
    choose(ctx, d.seat, value)
    return True


def fire_triggers(ctx: Ctx) -> None:
    """Abilities acting on an opponent's discarded item (VIGILANTE): queued as effects, "$discarded" bound to
    the item. Only an item the ability can hand back is offered: a Classic item, the WALL or a BRIG (a TREATY
    needs its giver, R107-R108; a SANCTION is discarded from a mat, not held, R109-R111)."""
    s = ctx.state
    for t in list(s.triggers):
        seat = t["seat"]
        if t["mat"] not in s.abilities(seat):  # eliminated, or no longer theirs, since the discard
            continue
        entry = s.leader_entry(t["mat"]) or {}
        effect = entry["effects"]["ability"]
        if "item" in t:
            offerable = t["item"] in ("WALL", "BRIG") or s.item_entry(t["item"]) is not None
            steps = _bind(effect["steps"], t["item"], offerable)
            reason = f"{s.players[t['holder']].name}'s {t['item']} was discarded"
        else:
            steps, reason = list(effect["steps"]), f"{s.players[t['holder']].name}'s {t['card']} was revealed"
        leader = t["mat"]
        name = (entry.get("ability") or {}).get("name", "ability")
        ctx.emit(
            ev.EffectQueued(id=ctx.state.effects_queued + 1, source=f"{leader}'s {name}", owner=seat, steps=steps, reason=reason)
        )
    ctx.emit(ev.TriggersFired(count=len(s.triggers)))


def _bind(steps: list[dict[str, Any]], item: str, offerable: bool) -> list[dict[str, Any]]:
    out = []
    for step in steps:
        if step["step"] == "choose":
            options = [_bind(o, item, offerable) for o in step["options"] if offerable or not _mentions_discarded(o)]
            out.append({**step, "options": options})
        elif step["step"] == "give_item":
            out.append({**step, "items": [item if i == "$discarded" else i for i in step["items"]]})
        else:
            out.append(step)
    return out


def _mentions_discarded(steps: list[dict[str, Any]]) -> bool:
    return any("$discarded" in step.get("items", []) for step in steps)


def describe_steps(steps: list[dict[str, Any]]) -> str:
    return "; ".join(describe(step) for step in steps)


def describe(step: dict[str, Any]) -> str:
    name = step["step"]
    if name == "give_item":
        return f"give {step['who']} the {' or the '.join(step['items'])}"
    if name in ("gain_soldiers", "lose_soldiers"):
        return f"{step['who']}: {name.replace('_', ' ')} {step['amount']}"
    if name == "discard_item_in_play":
        return f"discard {step['count']} item(s) in play"
    return name.replace("_", " ")


def leader_source(s: GameState, seat: int, action: str) -> str:
    """How a leader's own action is named as the source of its effect: "Hooded Fox's Laboratory"."""
    return f"{s.players[seat].leader}'s {action.title()}"


def _trial(s: GameState, owner: int, source: str, steps: list[dict[str, Any]], choices: list[Any]) -> Ctx:
    """A copy of the game with only this effect queued, to run with the given choices."""
    ctx = Ctx(s.clone())
    ctx.state.effects = []
    ctx.emit(ev.EffectQueued(id=ctx.state.effects_queued + 1, source=source, owner=owner, steps=steps, plan=list(choices)))
    return ctx


def run_dry(s: GameState, owner: int, source: str, steps: list[dict[str, Any]], choices: list[Any]) -> GameState | None:
    """The state after the effect runs with ``choices`` (None if it would wait for more choices)."""
    ctx = _trial(s, owner, source, steps, choices)
    for _ in range(1000):
        if not ctx.state.effects or ctx.state.effects[0].source != source:
            return ctx.state
        if ctx.state.draw_queue:
            return ctx.state
        if not effect_step(ctx):
            return None
    raise AssertionError("an effect did not settle")  # pragma: no cover


def plans(s: GameState, owner: int, source: str, steps: list[dict[str, Any]], limit: int = 400) -> list[tuple[list[Any], str]]:
    """Every full set of choices the effect can be declared with (RULINGS: the coherent declaration), with
    a label; found by running it on copies of the state and branching at each choice."""
    out: list[tuple[list[Any], str]] = []

    def walk(choices: list[Any], labels: list[tuple[str, bool]]) -> None:
        """``labels``: each choice's words, and whether what follows says it better (then left out)."""
        if len(out) >= limit:
            return
        ctx = _trial(s, owner, source, steps, choices)
        for _ in range(1000):
            st = ctx.state
            if not st.effects or st.effects[0].source != source or st.draw_queue:
                said = [text for i, (text, later) in enumerate(labels) if not (later and i < len(labels) - 1)]
                out.append((choices, "; ".join(said)))
                return
            p = st.effects[0]
            if p.plan:
                effect_step(ctx)
                continue
            d = decision(st)
            if d is None:
                effect_step(ctx)
                continue
            step = p.steps[p.index] if p.index < len(p.steps) else {}
            # a choice between lists of steps, or of the player before the item, is said by what follows
            said_later = step.get("step") == "choose" or (step.get("step") == "give_item" and p.work is None)
            for label, value in d.options:
                walk([*choices, value], [*labels, (label, said_later)])
            return

    walk([], [])
    return out


def affected_by(s: GameState, owner: int, source: str, steps: list[dict[str, Any]], choices: list[Any]) -> set[int]:
    """The players (other than the owner) whose soldiers, cards or items the declared effect would change."""
    after = run_dry(s, owner, source, steps, choices)
    if after is None:
        return set()
    out = set()
    for before, now in zip(s.players, after.players, strict=True):
        if before.seat == owner:
            continue
        if before.soldiers != now.soldiers or before.cards != now.cards or s.items_of(before.seat) != after.items_of(now.seat):
            out.add(before.seat)
        if (before.brigs, s.wall == before.seat, before.sanctions) != (now.brigs, after.wall == now.seat, now.sanctions):
            out.add(before.seat)
    if s.item_soldiers != after.item_soldiers:
        out.update(seat for seat in s.held.get("BOMB", {}) if seat != owner)
    return out


# ----- the decisions: a choice the running effect waits for, and the order of effects (R131) -----


def _effect_prompt(s: GameState, seat: int) -> Prompt:
    d = decision(s)
    assert d is not None
    kind, key = ("effect_order", "first") if d.kind == "order" else ("effect_choice", "choice")
    opts = tuple(Option(label, {"type": kind, "seat": seat, key: value}, kind) for label, value in d.options)
    return Prompt(seat, kind, f"{s.players[seat].name}: {d.text}", opts)


def _mob_effect(ctx: Ctx, mob: int) -> None:
    """A choice a card effect asks of a mob, or the order of effects it must set: a player by Player Selection
    (R174, R175), anything else by Object Selection among the choices as offered (R179; Abundance past 8, R181)."""
    d = decision(ctx.state)
    assert d is not None and d.seat == mob
    values = [v for _, v in d.options]
    if d.kind != "order" and all(isinstance(v, int) for v in values):  # a player: Player Selection (R175)
        value = pick_player(ctx, mob, values)
        if value is None:  # only the mob itself could be selected (R174 skips it)
            value = values[0]
    else:
        _label, value = pick_object(ctx, mob, list(d.options), lambda _: True, lambda o: str(o[0]))
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
    mob=_mob_effect,
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
    mob=_mob_effect,
)
