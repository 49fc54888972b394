"""Card effects (R92, R93, R131; docs/rulings.md "Card effects"): an effect queued, ordered among
others, moved on step by step and ended; the cards, sacrifices (R115, R149) and soldiers on an item it gives; the
abilities it triggers.
"""

from __future__ import annotations

from dataclasses import field
from typing import Any

from aegis.domain.everaegis.events.tables import Who, handler, narrator
from aegis.domain.everaegis.events.words import counted
from aegis.domain.everaegis.state import GameState, Pending
from aegis.domain.kernel.events import Event, event


@event
class EffectQueued(Event):
    """A card's effect is to run: a trigger estate just revealed, or a condition estate at its moment."""

    id: int = 0
    source: str = ""
    owner: int = 0
    card: str = ""
    steps: list[dict[str, Any]] = field(default_factory=list)
    reason: str = ""
    plan: list[Any] | None = None  # a declared action's choices (RULINGS: one declaration, one window)
    guarded: list[int] = field(default_factory=list)
    for_action: bool = False


@handler(EffectQueued)
def _evolve_effect_queued(s: GameState, e: EffectQueued) -> None:
    s.pending.effects.append(
        Pending(
            e.id,
            e.source,
            e.owner,
            list(e.steps),
            plan=list(e.plan) if e.plan is not None else None,
            guarded=list(e.guarded),
            reason=e.reason,
        )
    )
    s.pending.effects_queued = max(s.pending.effects_queued, e.id)
    if e.for_action and s.play.act is not None:
        s.play.act.step = 1  # the action's effect is queued; the action completes once it has run


@narrator(EffectQueued)
def _narrate_effect_queued(e: dict[str, Any], who: Who) -> str:
    # what it does is said by the events that follow (the steps' own names are the catalog's words, not a player's)
    reason = e.get("reason") or ""
    return f"{who(e['owner'])}'s {e['source']} takes effect" + (f": {reason}" if reason else "")


@event
class EffectsOrdered(Event):
    """Several effects wait at once: the current player picks the one that runs first (R131)."""

    seat: int = 0
    first: int = 0


@handler(EffectsOrdered)
def _evolve_effects_ordered(s: GameState, e: EffectsOrdered) -> None:
    chosen = next(p for p in s.pending.effects if p.id == e.first)
    s.pending.effects.remove(chosen)
    s.pending.effects.insert(0, chosen)
    chosen.chosen = True


@narrator(EffectsOrdered)
def _narrate_effects_ordered(e: dict[str, Any], who: Who) -> str:
    return f"{who(e['seat'])} chooses which effect resolves first (R131)"


@event
class EffectProgressed(Event):
    """The running effect moved on: ``index`` is its next step, ``work`` the progress inside that step."""

    id: int = 0
    index: int = 0
    work: dict[str, Any] | None = None
    steps: list[dict[str, Any]] | None = None  # a choice between lists of steps: the steps from now on


@handler(EffectProgressed)
def _evolve_effect_progressed(s: GameState, e: EffectProgressed) -> None:
    p = s.pending.effects[0]
    assert p.id == e.id
    p.index = e.index
    p.work = dict(e.work) if e.work is not None else None
    if e.steps is not None:
        p.steps = list(e.steps)


@narrator(EffectProgressed)
def _narrate_effect_progressed(e: dict[str, Any], who: Who) -> str:
    work = e.get("work")
    if work is None:
        if e.get("steps") is not None:  # a choice between lists of steps was made
            return "The effect goes on with the steps chosen"
        # ``index`` is the next step (from 0): the one before it is over. Said "part", as a replay's steps are events
        return f"Part {e['index']} of the effect is done" if e["index"] else "The effect begins"
    if work.get("targets"):
        return f"The effect goes on with {', '.join(who(t) for t in work['targets'])}"
    left = work.get("left", 0)
    return f"Part {e['index'] + 1} of the effect goes on: {left} more to do" if left else (
        f"Part {e['index'] + 1} of the effect has nothing more to do"
    )


@event
class EffectEnded(Event):
    id: int = 0
    source: str = ""
    outcome: str = "done"


@handler(EffectEnded)
def _evolve_effect_ended(s: GameState, e: EffectEnded) -> None:
    s.pending.effects = [p for p in s.pending.effects if p.id != e.id]


@narrator(EffectEnded)
def _narrate_effect_ended(e: dict[str, Any], who: Who) -> str:
    return f"{e['source']}'s effect is over"


@event
class CardsToGain(Event):
    """An effect makes players gain cards (R94): each of ``seats`` gains ``count``, drawn one by one."""

    seats: list[int] = field(default_factory=list)
    count: int = 1
    reason: str = ""


@handler(CardsToGain)
def _evolve_cards_to_gain(s: GameState, e: CardsToGain) -> None:
    for _ in range(e.count):
        s.play.draw_queue.extend((seat, e.reason) for seat in e.seats)


@narrator(CardsToGain)
def _narrate_cards_to_gain(e: dict[str, Any], who: Who) -> str:
    seats = e.get("seats", [])
    verb = "gains" if len(seats) == 1 else "gain"
    return f"{', '.join(who(s) for s in seats)} {verb} {counted(e['count'], 'card')} ({e['reason']})"


@event
class SacrificesGiven(Event):
    """Soldiers given as sacrifices: laid on the receiver's mat, not counted in battle (R149, R115)."""

    seat: int = 0
    to: int = 0
    amount: int = 0
    reason: str = ""


@handler(SacrificesGiven)
def _evolve_sacrifices_given(s: GameState, e: SacrificesGiven) -> None:
    s.players[e.seat].soldiers -= e.amount
    s.players[e.to].sacrifices += e.amount


@narrator(SacrificesGiven)
def _narrate_sacrifices_given(e: dict[str, Any], who: Who) -> str:
    return f"{who(e['seat'])} gives {who(e['to'])} {counted(e['amount'], 'soldier')} as sacrifices ({e['reason']})"


@event
class ItemSoldiersChanged(Event):
    """Soldiers added to or removed from an item that keeps a count with them (the BOMB)."""

    item: str = ""
    delta: int = 0
    reason: str = ""


@handler(ItemSoldiersChanged)
def _evolve_item_soldiers_changed(s: GameState, e: ItemSoldiersChanged) -> None:
    s.items.item_soldiers[e.item] = s.items.item_soldiers.get(e.item, 0) + e.delta


@narrator(ItemSoldiersChanged)
def _narrate_item_soldiers_changed(e: dict[str, Any], who: Who) -> str:
    verb = "added to" if e["delta"] > 0 else "removed from"
    return f"{counted(abs(e['delta']), 'unused soldier')} {verb} the {e['item']} ({e['reason']})"


@event
class EffectPlanUsed(Event):
    """A declared action's effect used (or skipped) the next choice its declaration made."""

    id: int = 0


@handler(EffectPlanUsed)
def _evolve_effect_plan_used(s: GameState, e: EffectPlanUsed) -> None:
    p = s.pending.effects[0]
    assert p.id == e.id and p.plan
    p.plan.pop(0)


@narrator(EffectPlanUsed)
def _narrate_effect_plan_used(e: dict[str, Any], who: Who) -> str:
    return "The effect follows the choices its declaration made"


@event
class TriggersFired(Event):
    """The abilities waiting to fire have been queued as effects (or found inactive)."""

    count: int = 0


@handler(TriggersFired)
def _evolve_triggers_fired(s: GameState, e: TriggersFired) -> None:
    s.pending.triggers = []


@narrator(TriggersFired)
def _narrate_triggers_fired(e: dict[str, Any], who: Who) -> str:
    return f"{counted(e['count'], 'ability trigger')} checked"
