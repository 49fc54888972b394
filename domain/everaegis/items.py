"""Items in a Simpleton game: the WALL, SANCTIONS, the TREATY with its INK QUILL, and BRIGS.

Rules: R105-R113 (overflow, give/take, SANCTION, TREATY, INK QUILL), A24, A37, A40, A41.
Item references in commands: "WALL", "TREATY", "BRIG@<seat>", "SANCTION@<seat>:<action>".
"""

from __future__ import annotations

from typing import Any

from aegis.domain.everaegis import events as ev
from aegis.domain.everaegis.context import Ctx
from aegis.domain.everaegis.effect_work import queue_effect
from aegis.domain.everaegis.events.words import said_take
from aegis.domain.everaegis.mob import pick_object
from aegis.domain.everaegis.soldiers import change_soldiers
from aegis.domain.everaegis.state import GameState
from aegis.domain.kernel.decisions import DecisionKind
from aegis.domain.kernel.prompts import Choice, Option, Param, Prompt


def items_in_play(s: GameState) -> list[tuple[str, int]]:
    """Every item piece some player holds, as (reference, holder): a player's BRIGS appear once each.
    Under Vengeance an eliminated player's BRIG is theirs for the rest of the game: not in play (R159)."""
    out: list[tuple[str, int]] = []
    if s.items.wall is not None:
        out.append(("WALL", s.items.wall))
    if s.items.treaty is not None:
        out.append(("TREATY", s.items.treaty))
    for p in s.players:
        if p.eliminated and s.config.option("vengeance"):
            continue
        out.extend((f"BRIG@{p.seat}", p.seat) for _ in range(p.brigs))
        for action in p.sanctions:
            out.append((f"SANCTION@{p.seat}:{action}", p.seat))
        out.extend((f"{item}@{p.seat}", p.seat) for item in s.items_of(p.seat))  # Classic items
    return out


def item_label(s: GameState, ref: str) -> str:
    """An item piece in play, in words: "the WALL (Sally)", "a BRIG of Jeff", "the BEAR (Fred)"."""
    if ref == "WALL":
        return f"the WALL ({_seat_name(s, s.items.wall)})" if s.items.wall is not None else "the WALL"
    if ref == "TREATY":
        return f"the TREATY ({_seat_name(s, s.items.treaty)})" if s.items.treaty is not None else "the TREATY"
    if ref.startswith("BRIG@"):
        return f"a BRIG of {_seat_name(s, int(ref[5:]))}"
    if ref.startswith("SANCTION@"):
        seat, action = ref[9:].split(":")
        return f"the SANCTION on {_seat_name(s, int(seat))}'s {action.title()}"
    item, _, holder = ref.rpartition("@")
    return f"the {item} ({_seat_name(s, int(holder))})"


def _seat_name(s: GameState, seat: int | None) -> str:
    return s.players[seat].name if seat is not None else "the reserve"


def forcer_takes(s: GameState, holder: int, by: int | None, item: str) -> bool:
    """R172: "when an item is forced to be discarded by another player, it is instead given to the player that
    forced the item to be discarded from play": every item but the TREATY, whose parties are named by who gave it
    (A49 ruling; a SANCTION taken is placed by its taker, ``items.discard_item``)."""
    return (
        "artificers" in s.config.variants  # the Artificers variant (artificers.active)
        and by is not None
        and by != holder
        and not s.players[by].eliminated
        and (item in ("WALL", "BRIG", "SANCTION") or s.item_entry(item) is not None)
    )


def discard_item(ctx: Ctx, ref: str, reason: str, by: int | None = None) -> None:
    """Discard the item piece ``ref``; ``by``: the player forcing it (Artificers: who takes it, R172)."""
    s = ctx.state
    holder, item = _holder_and_kind(s, ref)
    if holder is not None and forcer_takes(s, holder, by, item):
        assert by is not None
        taken = f"{reason}: forced, so taken (Artificers, R172)"
        if item == "SANCTION":  # "When a player possesses a SANCTION not on an action, that player must place it onto
            seat, action = ref[9:].split(":")  # an action of their choice" (p.29): off the mat, then placed by the taker
            ctx.emit(ev.SanctionRemoved(seat=int(seat), action=action, reason=taken))
            queue_effect(ctx, by, "SANCTION", [{"step": "sanction", "who": "any player"}], taken)
        else:
            ctx.emit(ev.ItemGained(seat=by, item=item, source=holder, reason=taken))
        return
    if ref == "WALL":
        assert s.items.wall is not None
        ctx.emit(ev.ItemDiscarded(seat=s.items.wall, item="WALL", reason=reason))
    elif ref == "TREATY":
        discard_treaty(ctx, reason)
    elif ref.startswith("BRIG@"):
        ctx.emit(ev.ItemDiscarded(seat=int(ref[5:]), item="BRIG", reason=reason))
    elif ref.startswith("SANCTION@"):
        seat, action = ref[9:].split(":")
        ctx.emit(ev.SanctionRemoved(seat=int(seat), action=action, reason=reason, discarded=True))
    else:  # a Classic item, "<NAME>@<seat>"
        item, _, seat = ref.rpartition("@")
        ctx.emit(ev.ItemDiscarded(seat=int(seat), item=item, reason=reason))


def holder_of(s: GameState, value: object) -> int | None:
    """Who holds ``value``, an effect's choice, when it is a card or an item piece in play (None: nobody, or it is
    neither: a seat, a word, an action). Narrowing counts the holders (R180)."""
    if not isinstance(value, str):
        return None
    seat = s.owner_of(value)
    if seat is None and (value in ("WALL", "TREATY") or "@" in value):
        seat = _holder_and_kind(s, value)[0]
    return seat


def _holder_and_kind(s: GameState, ref: str) -> tuple[int | None, str]:
    if ref in ("WALL", "TREATY"):
        return (s.items.wall if ref == "WALL" else s.items.treaty), ref
    kind, _, seat = ref.partition("@")
    return (int(seat.split(":")[0]) if seat else None), kind


def discard_treaty(ctx: Ctx, reason: str) -> None:
    """Ruling: when the TREATY leaves play, the INK QUILL goes back to the reserve with it (R108)."""
    s = ctx.state
    if s.items.treaty is not None:
        ctx.emit(ev.ItemDiscarded(seat=s.items.treaty, item="TREATY", reason=reason))
    if s.items.quill is not None:
        ctx.emit(ev.ItemDiscarded(seat=s.items.quill, item="INK QUILL", reason=reason))


def give_treaty(ctx: Ctx, giver: int, receiver: int, reason: str = "library") -> None:
    """The TREATY given (Simpleton Library, an Artificers gift): the receiver gains the TREATY (from the reserve,
    or taken from its holder) and the giver gains the INK QUILL (R53, R106, R108, R172)."""
    s = ctx.state
    ctx.emit(ev.ItemGained(seat=receiver, item="TREATY", source=_source(s.items.treaty), reason=reason))
    if s.items.quill != giver:
        ctx.emit(ev.ItemGained(seat=giver, item="INK QUILL", source=_source(s.items.quill), reason="gave the TREATY"))


def give_wall(ctx: Ctx, receiver: int, reason: str) -> None:
    s = ctx.state
    ctx.emit(ev.ItemGained(seat=receiver, item="WALL", source=_source(s.items.wall), reason=reason))


def _source(holder: int | None) -> Any:
    return "reserve" if holder is None else holder


# ----- BRIG -----


def brig_sources(s: GameState, gainer: int) -> list[int]:
    """R105 overflow: with none in the reserve, the gainer takes a BRIG from another player. Under
    Vengeance nothing passes to or from an eliminated player (R159)."""
    if s.config.option("vengeance"):
        if s.players[gainer].eliminated:
            return []
        return [p.seat for p in s.players if p.brigs and p.seat != gainer and not p.eliminated]
    return [p.seat for p in s.players if p.brigs and p.seat != gainer]


def gain_brig_step(ctx: Ctx, gainer: int, reason: str) -> bool:
    """Give ``gainer`` a BRIG. False when the gainer must choose whom to take it from."""
    s = ctx.state
    if s.items.brig_supply > 0:
        ctx.emit(ev.ItemGained(seat=gainer, item="BRIG", source="reserve", reason=reason))
        return True
    sources = brig_sources(s, gainer)
    if not sources:
        why = "every BRIG is already theirs (R106)"
        if s.players[gainer].eliminated:
            why = "none in the reserve, and nothing passes to an eliminated player (R159)"
        ctx.emit(ev.ItemNotGained(seat=gainer, item="BRIG", reason=why))
        return True
    if len(sources) == 1:
        ctx.emit(ev.ItemGained(seat=gainer, item="BRIG", source=sources[0], reason=reason))
        return True
    return False


# ----- SANCTION -----


def sanction_sources(s: GameState, target: dict[str, Any]) -> list[dict[str, Any]]:
    """R105 overflow for SANCTIONS: one on another player's mat may be taken."""
    return [{"seat": p.seat, "action": action} for p in s.players if p.seat != target["seat"] for action in p.sanctions]


def place_sanction_step(ctx: Ctx, reason: str) -> bool:
    """Place the first pending SANCTION of the action. False when the declarer must choose a source."""
    s = ctx.state
    act = s.play.act
    assert act is not None and act.todo
    target = act.todo[0]
    player = s.players[target["seat"]]
    if player.eliminated:  # S2: they resigned while the action was under way; nothing more reaches them (R123)
        ctx.emit(ev.SanctionNotPlaced(seat=target["seat"], action=target["action"], reason="the player resigned (S2)"))
        return True
    if target["action"] in player.sanctions:
        # A19, R110: "This action cannot be sanctioned" - one SANCTION per action
        ctx.emit(ev.SanctionNotPlaced(seat=target["seat"], action=target["action"], reason="already sanctioned (A19)"))
        return True
    if s.items.sanction_supply > 0:
        ctx.emit(ev.SanctionPlaced(seat=target["seat"], action=target["action"], source="reserve", reason=reason))
        return True
    sources = sanction_sources(s, target)
    if not sources:
        ctx.emit(ev.SanctionNotPlaced(seat=target["seat"], action=target["action"], reason="no SANCTION left anywhere (A43)"))
        return True
    if len(sources) == 1:
        ctx.emit(ev.SanctionPlaced(seat=target["seat"], action=target["action"], source=sources[0], reason=reason))
        return True
    return False


def discard_all_items(ctx: Ctx, seat: int, reason: str) -> None:
    """R123: an eliminated player discards all items (and, ruling, the TREATY ends for both parties)."""
    s = ctx.state
    if s.items.wall == seat:
        ctx.emit(ev.ItemDiscarded(seat=seat, item="WALL", reason=reason))
    if s.items.treaty == seat or s.items.quill == seat:
        discard_treaty(ctx, reason)
    for _ in range(s.players[seat].brigs):
        ctx.emit(ev.ItemDiscarded(seat=seat, item="BRIG", reason=reason))
    for action in list(s.players[seat].sanctions):
        ctx.emit(ev.SanctionRemoved(seat=seat, action=action, reason=reason, discarded=True))
    for item in s.items_of(seat):
        ctx.emit(ev.ItemDiscarded(seat=seat, item=item, reason=reason))


# ----- the decisions: a SANCTION taken from another mat (R105), and TREATY gifts (R107) -----


def _take_sanction_prompt(s: GameState, seat: int) -> Prompt:
    act = s.play.act
    assert act is not None
    opts = tuple(
        Option(
            f"Take the SANCTION on {s.players[src['seat']].name}'s {src['action'].title()}",
            {"type": "take_sanction", "seat": seat, "item": "SANCTION", "from": src},
            "take",
        )
        for src in sanction_sources(s, act.todo[0])
    )
    text = f"{s.players[seat].name}: no SANCTION is left in the reserve; take one from another player (R105)"
    return Prompt(seat, "take_sanction", text, opts)


def _take_sanction(ctx: Ctx, source: dict[str, Any]) -> None:
    act = ctx.state.play.act
    assert act is not None
    target = act.todo[0]
    ctx.emit(ev.SanctionPlaced(seat=target["seat"], action=target["action"], source=source, reason=f"{act.action} (R105)"))


def _mob_take_sanction(ctx: Ctx, mob: int) -> None:
    s = ctx.state
    act = s.play.act
    assert act is not None
    names = [p.name for p in s.players]
    source = pick_object(
        ctx,
        mob,
        sanction_sources(s, act.todo[0]),
        lambda _: True,
        lambda src: f"the SANCTION on {names[src['seat']]}'s {src['action'].title()}",
        lambda src: src["seat"],
    )
    _take_sanction(ctx, source)


def _gift_prompt(s: GameState, seat: int) -> Prompt | None:
    """R107: TREATY parties may give each other soldiers at any time, except within a war."""
    if s.status != "active":
        return None
    partner = s.partner(seat)
    me = s.players[seat]
    if partner is None or me.eliminated or s.players[partner].eliminated or me.soldiers == 0 or s.is_mob(seat):
        return None
    war = s.play.act.war if s.play.act is not None else None
    if war is not None and seat in (war.attacker, war.defender) and war.stage not in ("ended",):
        return None
    amounts = tuple(Choice(str(n), n) for n in range(1, me.soldiers + 1))
    label = f"Give {s.players[partner].name} soldiers, how many:"
    command = {"type": "treaty_gift", "seat": seat, "to": partner}
    opts = (Option(label, command, "give_soldiers", (Param("amount", amounts),)),)
    return Prompt(seat, "treaty_gift", f"{me.name}: you may give soldiers to your TREATY partner (R107)", opts, free=True)


def _gift(ctx: Ctx, cmd: dict[str, Any]) -> None:
    change_soldiers(ctx, cmd["seat"], -cmd["amount"], "TREATY gift (R107)", loss=False)
    change_soldiers(ctx, cmd["to"], cmd["amount"], "TREATY gift (R107)")


TAKE_SANCTION = DecisionKind(
    "take_sanction",
    rule="R105",
    refusal="take a SANCTION from another player's mat",
    fields={"item": str, "from": dict},
    docs={
        "item": {"enum": ["SANCTION"]},
        "from": {
            "properties": {"seat": {"type": "integer", "minimum": 0}, "action": {"type": "string"}},
            "required": ["seat", "action"],
            "additionalProperties": False,
            "description": "the SANCTION taken: the player whose action it is on, and the action",
        },
    },
    summary="no SANCTION is left in the reserve: take one from another player's mat",
    offer=_take_sanction_prompt,
    apply=lambda ctx, cmd: _take_sanction(ctx, cmd["from"]),
    by_rules=_mob_take_sanction,
    aliases=("take",),
    asks="choose which SANCTION to take",
    said=said_take,
)
TREATY_GIFT = DecisionKind(
    "treaty_gift",
    rule="R107",
    refusal="give between 1 and all of your soldiers to your TREATY partner",
    fields={"to": int, "amount": int},
    docs={
        "to": {"minimum": 0, "description": "your TREATY partner"},
        "amount": {"minimum": 1, "description": "how many of your soldiers you give"},
    },
    summary="give soldiers to your TREATY partner, at any time",
    offer=_gift_prompt,
    apply=_gift,
    aliases=("give_soldiers",),
    free=True,
)  # no mob: a mob is never a TREATY party who gives (R107 gifts are a person's choice)
