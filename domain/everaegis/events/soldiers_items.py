"""Soldiers and items: soldiers gained and lost, or kept by an item (E19 ruling); items gained,
taken, not gained and discarded (R103, R105-R108); reactive items used or let pass in a Draw Phase (R104, R118);
SANCTIONs placed on actions and removed (R105).
"""

from __future__ import annotations

from typing import Any

from aegis.domain.everaegis.events.moves import receive_item
from aegis.domain.everaegis.events.tables import Who, handler, narrator
from aegis.domain.everaegis.events.words import action_name, counted, reason_words
from aegis.domain.everaegis.state import GameState
from aegis.domain.kernel.events import Event, event


@event
class SoldiersChanged(Event):
    seat: int = 0
    delta: int = 0
    total: int = 0
    reason: str = ""


@handler(SoldiersChanged)
def _evolve_soldiers_changed(s: GameState, e: SoldiersChanged) -> None:
    s.players[e.seat].soldiers = e.total


@narrator(SoldiersChanged)
def _narrate_soldiers_changed(e: dict[str, Any], who: Who) -> str:
    verb = "gains" if e["delta"] > 0 else "loses"
    return f"{who(e['seat'])} {verb} {counted(abs(e['delta']), 'soldier')}: {e['total']} now"


@event
class SoldiersKept(Event):
    """A loss of soldiers not made: the player holds an item that keeps them (E19 ruling: always kept)."""

    seat: int = 0
    amount: int = 0
    item: str = ""
    reason: str = ""


@handler(SoldiersKept)
def _evolve_soldiers_kept(s: GameState, e: SoldiersKept) -> None:
    pass  # the loss is not made: the soldiers stay as they are (E19)


@narrator(SoldiersKept)
def _narrate_soldiers_kept(e: dict[str, Any], who: Who) -> str:
    # the loss just narrated is not made (E19): say it is saved, not what the player is left with
    saved = counted(e["amount"], "soldier")
    return (
        f"{who(e['seat'])}'s {e['item']} saves {saved} from the loss: {who(e['seat'])} loses none ({reason_words(e['reason'])})"
    )


@event
class ItemGained(Event):
    """``source`` is "reserve" or the seat the item was taken from (R105, R106)."""

    seat: int = 0
    item: str = ""
    source: Any = "reserve"
    reason: str = ""


@handler(ItemGained)
def _evolve_item_gained(s: GameState, e: ItemGained) -> None:
    if e.item == "BRIG":
        if e.source == "reserve":
            s.items.brig_supply -= 1
        else:
            s.players[e.source].brigs -= 1
        s.players[e.seat].brigs += 1
    elif e.item in ("WALL", "TREATY", "INK QUILL"):
        _item_holder_set(s, e.item, e.seat)
    else:  # a Classic item: from the reserve or taken from its holder (R105, R106)
        by = s.items.held.setdefault(e.item, {})
        if e.source != "reserve":
            by[e.source] -= 1
            if not by[e.source]:
                del by[e.source]
        receive_item(s, e.item, e.seat)


def _item_holder_set(s: GameState, item: str, seat: int | None) -> None:
    if item == "WALL":
        s.items.wall = seat
    elif item == "TREATY":
        s.items.treaty = seat
    elif item == "INK QUILL":
        s.items.quill = seat


@narrator(ItemGained)
def _narrate_item_gained(e: dict[str, Any], who: Who) -> str:
    source = e.get("source", "reserve")
    origin = "" if source == "reserve" else f" from {who(source)}"
    return f"{who(e['seat'])} gains the {e['item']}{origin}"


@event
class ItemNotGained(Event):
    seat: int = 0
    item: str = ""
    reason: str = ""


@handler(ItemNotGained)
def _evolve_item_not_gained(s: GameState, e: ItemNotGained) -> None:
    pass  # nothing changes hands: the event tells why no item could be had


@narrator(ItemNotGained)
def _narrate_item_not_gained(e: dict[str, Any], who: Who) -> str:
    return f"{who(e['seat'])} gains no {e['item']}: none can be had"


@event
class ItemDiscarded(Event):
    seat: int = 0
    item: str = ""
    reason: str = ""


@handler(ItemDiscarded)
def _evolve_item_discarded(s: GameState, e: ItemDiscarded) -> None:
    _note_discard(s, e.seat, e.item)
    if e.item == "BRIG":
        s.players[e.seat].brigs -= 1
        s.items.brig_supply += 1
    elif e.item in ("WALL", "TREATY", "INK QUILL"):
        _item_holder_set(s, e.item, None)
    else:
        by = s.items.held[e.item]
        by[e.seat] -= 1
        if not by[e.seat]:
            del by[e.seat]
        fresh = s.items.fresh.get(e.item, {})
        if fresh.get(e.seat, 0) > by.get(e.seat, 0):
            fresh[e.seat] = by.get(e.seat, 0)


def _note_discard(s: GameState, holder: int, item: str) -> None:
    """An opponent's item discarded: abilities that act on it fire next (VIGILANTE). INK QUILL is a token (R108)."""
    if s.classic.components is None or item == "INK QUILL":
        return
    for p in s.players:
        if p.seat != holder and not s.variant.allied(p.seat, holder):  # R138, R163: an ally is no opponent
            for mat in s.abilities(p.seat, "opponent item discarded"):
                s.pending.triggers.append({"seat": p.seat, "mat": mat, "item": item, "holder": holder})


@narrator(ItemDiscarded)
def _narrate_item_discarded(e: dict[str, Any], who: Who) -> str:
    return f"{who(e['seat'])}'s {e['item']} goes back to the reserve"


@event
class DrawReactionPassed(Event):
    """A holder of a Draw Phase reactive item lets this draw happen (R104, R118)."""

    seat: int = 0


@handler(DrawReactionPassed)
def _evolve_draw_reaction_passed(s: GameState, e: DrawReactionPassed) -> None:
    s.items.draw_asked = [seat for seat in s.items.draw_asked if seat != e.seat]


@narrator(DrawReactionPassed)
def _narrate_draw_reaction_passed(e: dict[str, Any], who: Who) -> str:
    return f"{who(e['seat'])} lets the draw happen"


@event
class DrawStopped(Event):
    """A reactive item used in a Draw Phase: the player gains no card this Draw Phase (R118; E21)."""

    seat: int = 0  # whose Draw Phase
    by: int = 0
    item: str = ""


@handler(DrawStopped)
def _evolve_draw_stopped(s: GameState, e: DrawStopped) -> None:
    s.items.draw_asked = []
    if s.play.draw_queue and s.play.draw_queue[0] == (e.seat, "draw phase"):
        s.play.draw_queue.pop(0)


@narrator(DrawStopped)
def _narrate_draw_stopped(e: dict[str, Any], who: Who) -> str:
    return f"{who(e['by'])} uses the {e['item']}: {who(e['seat'])} gains no card this Draw Phase"


@event
class SanctionPlaced(Event):
    """``source`` is "reserve" or {"seat", "action"} of the SANCTION taken by overflow (R105)."""

    seat: int = 0
    action: str = ""
    source: Any = "reserve"
    reason: str = ""


@handler(SanctionPlaced)
def _evolve_sanction_placed(s: GameState, e: SanctionPlaced) -> None:
    if e.source == "reserve":
        s.items.sanction_supply -= 1
    else:
        s.players[e.source["seat"]].sanctions.remove(e.source["action"])
    s.players[e.seat].sanctions.append(e.action)
    if s.play.act is not None and s.play.act.todo and s.play.act.todo[0] == {"seat": e.seat, "action": e.action}:
        s.play.act.todo.pop(0)


@narrator(SanctionPlaced)
def _narrate_sanction_placed(e: dict[str, Any], who: Who) -> str:
    return f"A SANCTION covers {who(e['seat'])}'s {action_name(e['action'])}"


@event
class SanctionNotPlaced(Event):
    seat: int = 0
    action: str = ""
    reason: str = ""


@handler(SanctionNotPlaced)
def _evolve_sanction_not_placed(s: GameState, e: SanctionNotPlaced) -> None:
    if s.play.act is not None and s.play.act.todo and s.play.act.todo[0] == {"seat": e.seat, "action": e.action}:
        s.play.act.todo.pop(0)


@narrator(SanctionNotPlaced)
def _narrate_sanction_not_placed(e: dict[str, Any], who: Who) -> str:
    return f"No SANCTION is placed on {who(e['seat'])}'s {action_name(e['action'])}"


@event
class SanctionRemoved(Event):
    """A SANCTION leaves a mat for the reserve. ``discarded``: it was discarded (used up, R110; discarded by an effect
    or an action; its holder eliminated), which sets off what acts on an opponent's discarded item (VIGILANTE); not
    so when a taker places it again (Artificers), nor in a record written before this field (it did not then)."""

    seat: int = 0
    action: str = ""
    reason: str = ""
    discarded: bool = False


@handler(SanctionRemoved)
def _evolve_sanction_removed(s: GameState, e: SanctionRemoved) -> None:
    s.players[e.seat].sanctions.remove(e.action)
    s.items.sanction_supply += 1
    if e.discarded:  # the SANCTION is an item (p. 2, p. 23): the one on a mat is its player's
        _note_discard(s, e.seat, "SANCTION")


@narrator(SanctionRemoved)
def _narrate_sanction_removed(e: dict[str, Any], who: Who) -> str:
    return f"The SANCTION leaves {who(e['seat'])}'s {action_name(e['action'])}"
