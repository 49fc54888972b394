"""The Artificers variant (R172; A49 rulings in docs/rulings.md).

- Setup: in turn order from the first player, each player gives an opponent an item of a one-piece kind
  from the reserve (the WALL and the TREATY included), until every player holds 3 items; a player whose
  opponents all hold 3 is passed over, and the gifts end when no one-piece kind is left in the reserve (A49).
  The TREATY's giver and receiver are its two parties: the giver takes the INK QUILL (R107, R108).
- A player who forces another player's item to be discarded (Mason, an effect) takes it instead.
- In the Demise Phase a player holding no item is eliminated.
- A player holding X different kinds of items wins at once (at the next step of the turn), X = occurring players + 3.
"""

from __future__ import annotations

from aegis.domain.everaegis import events as ev
from aegis.domain.everaegis.context import Ctx
from aegis.domain.everaegis.items import give_treaty
from aegis.domain.everaegis.mob import pick_object, pick_player
from aegis.domain.everaegis.state import GameState
from aegis.domain.kernel.decisions import DecisionKind
from aegis.domain.kernel.prompts import Choice, Option, Param, Prompt

SETUP_ITEMS = 3  # R172


def active(s: GameState) -> bool:
    return "artificers" in s.config.variants


def kinds_held(s: GameState, seat: int) -> set[str]:
    """Every kind of item ``seat`` holds: the Classic items, the WALL, the TREATY, BRIGS and the SANCTIONS
    on their mat (duplicates count once, R172)."""
    p = s.players[seat]
    out = set(s.items_of(seat))
    if s.items.wall == seat:
        out.add("WALL")
    if s.items.treaty == seat:
        out.add("TREATY")
    if p.brigs:
        out.add("BRIG")
    if p.sanctions:
        out.add("SANCTION")
    return out


def pieces_held(s: GameState, seat: int) -> int:
    p = s.players[seat]
    return len(s.items_of(seat)) + (s.items.wall == seat) + (s.items.treaty == seat) + p.brigs + len(p.sanctions)


def gift_kinds(s: GameState) -> list[str]:
    """One-piece kinds still in the reserve (R172: items with more than one copy are not allowed). The box has
    one WALL and one TREATY (R5); SANCTIONS and BRIGS have several pieces."""
    kinds = [e["name"] for e in (s.classic.components or {}).get("items", []) if e["count"] == 1 and s.supply(e["name"]) > 0]
    if s.items.wall is None:
        kinds.append("WALL")
    if s.items.treaty is None:
        kinds.append("TREATY")
    return sorted(kinds)


def receivers(s: GameState, giver: int) -> list[int]:
    return [
        seat
        for seat in s.in_turn_order(range(s.seats))
        if seat != giver
        and not s.variant.allied(giver, seat)  # R138, R163
        and pieces_held(s, seat) < SETUP_ITEMS
        and not s.players[seat].eliminated  # S2: a player who resigned receives nothing
    ]


def begin(ctx: Ctx) -> None:
    s = ctx.state
    ctx.emit(ev.ArtificersBegan(order=list(s.turn_order_from(s.play.first_player or 0))))


def setup_step(ctx: Ctx) -> bool:
    """Move the gifts on by themselves: pass over a giver who cannot give, end when nobody can. False when
    the giver must choose."""
    s = ctx.state
    if not gift_kinds(s) or not any(receivers(s, giver) for giver in s.classic.gifting):
        # nobody can give any more: every remaining opponent holds 3 (S2: a resigned player receives nothing), or
        # the only players short of 3 are every giver's allies (R163), to whom no gift goes
        ctx.emit(ev.ArtificersDone())
        return True
    giver = s.classic.gifting[0]
    if not receivers(s, giver):
        ctx.emit(ev.ArtificerPassed(seat=giver, reason="every opponent already holds 3 items (A49)"))
        return True
    return False


def _gift_prompt(s: GameState, seat: int) -> Prompt:
    """Any of the one-piece kinds to any receiver: one option, two parameters."""
    to = tuple(Choice(f"to {s.players[r].name}", r) for r in receivers(s, seat))
    kinds = tuple(Choice(f"the {item}", item) for item in gift_kinds(s))
    command = {"type": "artificer_gift", "seat": seat}
    opts = (Option("Give", command, "gift", (Param("item", kinds), Param("to", to))),) if to and kinds else ()
    text = f"{s.players[seat].name}: give an opponent an item (Artificers: one-piece kinds, until everyone holds 3; R172)"
    return Prompt(seat, "artificer_gift", text, opts)


def _mob_gift(ctx: Ctx, mob: int) -> None:
    """Artificers' setup gift (R172): Player Selection of the receiver (R175), then Object Selection of the item."""
    s = ctx.state
    to = pick_player(ctx, mob, receivers(s, mob))
    assert to is not None
    item = pick_object(ctx, mob, gift_kinds(s), lambda _: True, str)
    give(ctx, mob, item, to)


def give(ctx: Ctx, seat: int, item: str, to: int) -> None:
    ctx.emit(ev.ArtificerGave(seat=seat, to=to, item=item))
    if item == "TREATY":  # "You and the player that gave you this item" (R107): the giver takes the INK QUILL (R108)
        give_treaty(ctx, seat, to, "Artificers gift (R172)")


def doomed_reason(s: GameState, seat: int) -> str | None:
    if active(s) and pieces_held(s, seat) == 0:
        return "no items in the Demise Phase (Artificers, R172)"
    return None


def wins(s: GameState, seat: int) -> str | None:
    if not active(s):
        return None
    need = s.seats + SETUP_ITEMS  # occurring players, eliminated ones included (A49 ruling)
    if len(kinds_held(s, seat)) >= need:
        return f"{need} different kinds of items (Artificers, R172)"
    return None


ARTIFICER_GIFT = DecisionKind(
    "artificer_gift",
    rule="R172",
    refusal="give one of the one-piece item kinds left to an opponent who holds fewer than 3 items",
    fields={"item": str, "to": int},
    docs={
        "item": {"description": "the one-piece item kind you give"},
        "to": {"minimum": 0, "description": "the opponent who receives it"},
    },
    summary="Artificers: give an opponent an item",
    offer=_gift_prompt,
    apply=lambda ctx, cmd: give(ctx, cmd["seat"], cmd["item"], cmd["to"]),
    by_rules=_mob_gift,
    asks="give an item",
    said=lambda cmd, who: f"the {cmd.get('item')} to {who(cmd.get('to'))}",
)
