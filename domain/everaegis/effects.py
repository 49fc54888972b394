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
from domain.everaegis.cards import discard_card, reveal
from domain.everaegis.context import Ctx
from domain.everaegis.soldiers import change_soldiers
from domain.everaegis.state import Card, GameState, Pending

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
    for item in s.items_of(seat):
        entry = s.item_entry(item)
        if entry is not None and entry.get("effect") and entry["effect"]["when"] == moment:
            _queue(ctx, seat, item, "", entry["effect"], f"{moment} phase (R102)")


# ----- the running effect -----


def _players(s: GameState, p: Pending, who: str) -> list[int]:
    remaining = s.remaining()
    if who == "self":
        return [p.owner]
    if who in ("each opponent", "an opponent"):
        return s.in_turn_order([seat for seat in remaining if seat != p.owner])
    return s.in_turn_order(remaining)  # any player, all players


def _start_work(s: GameState, p: Pending, step: dict[str, Any]) -> dict[str, Any] | None:
    """The progress a step starts with, or None if the possessor must first pick the player."""
    left = step.get("count", step.get("amount", 1))
    if "who" not in step:
        return {"targets": [], "left": left}
    targets = _players(s, p, step["who"])
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


def _cards_of(s: GameState, seat: int, step: str) -> list[Card]:
    return s.players[seat].unrevealed


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
    if p.work is None:
        if _start_work(s, p, step) is not None:
            return None
        targets = _players(s, p, step["who"])
        return Decision(p.owner, tuple((names[t], t) for t in targets), f"{p.source}: choose {step['who']} ({name})")
    work = p.work
    if name in ("reveal", "discard_unrevealed"):
        if not work["targets"] or work["left"] <= 0:
            return None
        seat = work["targets"][0]
        cards = _cards_of(s, seat, name)
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
    if name == "give_item":
        if not work["targets"]:
            return None
        target = work["targets"][0]
        items = _items_to_give(s, step["items"], target)
        if len(items) <= 1:
            return None
        opts = tuple((f"Give {names[target]} the {item}", item) for item in items)
        return Decision(p.owner, opts, f"{p.source}: choose the item to give (R140)")
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
    if decision(s) is not None:
        return False
    p = s.effects[0]
    if p.index >= len(p.steps):
        ctx.emit(ev.EffectEnded(id=p.id, source=p.source))
        return True
    step = p.steps[p.index]
    name = step["step"]
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
        cards = _cards_of(s, work["targets"][0], name)
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
            _give(ctx, p, step, work["targets"][0], _items_to_give(s, step["items"], work["targets"][0])[0])
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
    if ctx.state.players[seat].eliminated:  # R125: still eliminated, so the card is revealed again at once
        again = ctx.state.players[seat].card(card.id)
        assert again is not None
        reveal(ctx, seat, again, full=True, reason="eliminated players keep every card revealed (R125)", trigger=False)
    work = dict(p.work or {})
    _progress(ctx, p, p.index, {**work, "left": work["left"] - 1})


def _items_to_give(s: GameState, items: list[str], receiver: int) -> list[str]:
    """R140 "whichever is possible": the items the receiver can really gain; if none, any of them."""
    possible = [
        i
        for i in items
        if s.held.get(i, {}).get(receiver, 0) == 0 and (s.supply(i) > 0 or any(seat != receiver for seat in s.held.get(i, {})))
    ]
    return possible or list(items)


def gain_item(ctx: Ctx, receiver: int, item: str, reason: str) -> None:
    """R105, R106: from the reserve, or taken from another holder (the first in turn order, a ruling); a
    player who already holds a one-piece item gains nothing; an eliminated receiver discards it (R124)."""
    s = ctx.state
    entry = s.item_entry(item)
    held = s.held.get(item, {})
    if entry is not None and entry["count"] == 1 and held.get(receiver):
        ctx.emit(ev.ItemNotGained(seat=receiver, item=item, reason="already theirs: no item gain (R106)"))
        return
    if s.supply(item) > 0:
        source: Any = "reserve"
    else:
        holders = s.in_turn_order([seat for seat in held if seat != receiver])
        if not holders:
            ctx.emit(ev.ItemNotGained(seat=receiver, item=item, reason="no piece left to take (R105, A43)"))
            return
        source = holders[0]
    ctx.emit(ev.ItemGained(seat=receiver, item=item, source=source, reason=reason))
    if s.players[receiver].eliminated:
        ctx.emit(ev.ItemDiscarded(seat=receiver, item=item, reason="an eliminated player discards any item received (R124)"))


def _give(ctx: Ctx, p: Pending, step: dict[str, Any], receiver: int, item: str) -> None:
    gain_item(ctx, receiver, item, f"{p.source} (card effect)")
    work = dict(ctx.state.effects[0].work or {})
    _next_target(ctx, ctx.state.effects[0], step, work)


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
    if p.work is None:
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
    elif name == "discard_soldiers_in_play":
        if value == "stop":
            _progress(ctx, p, p.index + 1, None)
        else:
            _take_soldier(ctx, p, value)
