"""Rigged setups: a chosen position for teaching and for reproducing a disputed play.

A rig names the deck (top first), each seat's cards, soldiers, items and the first player. The 30
building cards are conserved. The cards the rig does not place are dealt as in any game, from the seed (R13-R16):
they make years of 6 with as many different buildings as are left (in Classic, with 2 cards of the shuffled estate
deck each), each year shuffled; without a ``deck`` in the rig, the first 2 of those years are shuffled into the
deck. A rigged game is marked ``rigged``.

Rig shape::

    {"deck": ["Temple", ...], "hands": {"0": ["Barracks", {"name": "Mason", "revealed": true}]},
     "soldiers": {"0": 5}, "wall": 1, "treaty": {"holder": 2, "giver": 3}, "brigs": {"0": 1},
     "sanctions": {"1": ["war"]}, "first_player": 0, "years": [["Temple", ...]], "dice": [3, 8]}

``dice`` are the next D8 results a mob rolls (R173-R181), in order, before the seed's own.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from aegis.domain.everaegis import events as ev
from aegis.domain.everaegis.catalog import ACTIONS, BUILDINGS, CATALOG
from aegis.domain.everaegis.context import Ctx
from aegis.domain.everaegis.overlord import first_player_after_overlord
from aegis.domain.everaegis.setup import DECK_YEARS, ESTATES_PER_YEAR, STOCK, public_years
from aegis.domain.everaegis.soldiers import change_soldiers
from aegis.domain.everaegis.state import Card
from aegis.domain.everaegis.variants import variant_setup
from aegis.domain.kernel.errors import MalformedCommand

RIG_KEYS = (
    "deck",
    "hands",
    "years",
    "soldiers",
    "wall",
    "treaty",
    "brigs",
    "sanctions",
    "first_player",
    "leaders",
    "items",
    "dictator",
    "dice",
)


def _seat(value: Any, seats: int, what: str) -> int:
    try:
        seat = int(value)
    except (TypeError, ValueError):
        raise MalformedCommand(f"rig: {what} must name a seat number") from None
    if not 0 <= seat < seats or isinstance(value, bool):
        raise MalformedCommand(f"rig: {what}: there is no seat {value}")
    return seat


def _namer(estates: list[str]) -> Any:
    def _name(value: Any, what: str) -> str:
        if isinstance(value, str) and value in estates:
            return value
        if not isinstance(value, str) or value.title() not in BUILDINGS:
            if not estates:
                raise MalformedCommand(
                    f"rig: {what}: {value!r} is not a building card ({', '.join(BUILDINGS)}); Simpleton has no estate cards",
                    rule="R162",
                )
            raise MalformedCommand(f"rig: {what}: {value!r} is neither a building nor an estate card", rule="R1-R2")
        return value.title()

    return _name


def validate(rig: Any, seats: int, components: dict[str, Any] | None = None) -> dict[str, Any]:
    """Check a rig and return it in a normal form; every error names what is wrong. With a Classic game's
    ``components`` the rig may place estate cards (once each) and name leaders."""
    estates = [e["name"] for e in components["estates"]] if components else []
    mats = [e["name"] for e in components["leaders"]] if components else []
    _name = _namer(estates)
    if not isinstance(rig, dict):
        raise MalformedCommand("rig: the setup must be an object")
    unknown = [k for k in rig if k not in RIG_KEYS]
    if unknown:
        raise MalformedCommand(f"rig: unknown field(s) {', '.join(unknown)}; fields: {', '.join(RIG_KEYS)}")
    deck = [_name(n, "deck") for n in rig.get("deck", [])]
    hands: dict[int, list[tuple[str, bool]]] = {}
    for key, cards in (rig.get("hands") or {}).items():
        seat = _seat(key, seats, "hands")
        entry = []
        for c in cards:
            if isinstance(c, dict):
                entry.append((_name(c.get("name"), f"hands[{seat}]"), bool(c.get("revealed", False))))
            else:
                entry.append((_name(c, f"hands[{seat}]"), False))
        hands[seat] = entry
    years = [[_name(n, "years") for n in y] for y in rig.get("years", [])]
    used = Counter(deck) + Counter(n for cards in hands.values() for n, _ in cards) + Counter(n for y in years for n in y)
    for name, n in used.items():
        have = CATALOG.building_count.get(name, 1)
        if n > have:
            rule = "R2" if name in CATALOG.building_count else "R1"
            raise MalformedCommand(f"rig: {n} {name} cards placed, but the game has {have}", rule=rule)
    leaders = {_seat(k, seats, "leaders"): v for k, v in (rig.get("leaders") or {}).items()}
    for mat in leaders.values():
        if mat not in mats:
            raise MalformedCommand(f"rig: leaders: {mat!r} is not a mat this game can use", rule="R19-R21")
    if len(set(leaders.values())) != len(leaders):
        raise MalformedCommand("rig: leaders: a mat can lead only one player", rule="R19-R21")
    dictator = rig.get("dictator")
    if dictator is not None and (dictator not in mats or dictator in leaders.values()):
        raise MalformedCommand(f"rig: dictator: {dictator!r} is not a mat nobody leads", rule="R168")
    counts = {e["name"]: e["count"] for e in components.get("items", [])} if components else {}
    items = {_seat(k, seats, "items"): list(v) for k, v in (rig.get("items") or {}).items()}
    placed = Counter(i for v in items.values() for i in v)
    for item, n in placed.items():
        if item not in counts:
            raise MalformedCommand(f"rig: items: {item!r} is not a Classic item of this game", rule="R5")
        if n > counts[item]:
            raise MalformedCommand(f"rig: items: {n} {item} placed, but the game has {counts[item]}", rule="R5")
    soldiers = {_seat(k, seats, "soldiers"): v for k, v in (rig.get("soldiers") or {}).items()}
    for seat, v in soldiers.items():
        if isinstance(v, bool) or not isinstance(v, int) or v < 0:
            raise MalformedCommand(f"rig: soldiers of seat {seat} must be a whole number, 0 or more")
    wall = None if rig.get("wall") is None else _seat(rig["wall"], seats, "wall")
    treaty = rig.get("treaty")
    if treaty is not None:
        if not isinstance(treaty, dict):
            raise MalformedCommand('rig: treaty must be {"holder": seat, "giver": seat}')
        treaty = {
            "holder": _seat(treaty.get("holder"), seats, "treaty.holder"),
            "giver": _seat(treaty.get("giver"), seats, "treaty.giver"),
        }
        if treaty["holder"] == treaty["giver"]:
            raise MalformedCommand("rig: the TREATY's holder and giver must be two players (R107)")
    brigs = {_seat(k, seats, "brigs"): v for k, v in (rig.get("brigs") or {}).items()}
    if sum(brigs.values()) > CATALOG.item_count["BRIG"]:
        raise MalformedCommand(f"rig: the game has {CATALOG.item_count['BRIG']} BRIGS")
    sanctions = {_seat(k, seats, "sanctions"): list(v) for k, v in (rig.get("sanctions") or {}).items()}
    for seat, acts in sanctions.items():
        for a in acts:
            if a not in ACTIONS:
                raise MalformedCommand(f"rig: sanctions of seat {seat}: {a!r} is not an action ({', '.join(ACTIONS)})")
        if len(set(acts)) != len(acts):
            raise MalformedCommand(f"rig: seat {seat} has one action sanctioned twice (one per action, A19)")
    if sum(len(v) for v in sanctions.values()) > CATALOG.item_count["SANCTION"]:
        raise MalformedCommand(f"rig: the game has {CATALOG.item_count['SANCTION']} SANCTIONS")
    first = rig.get("first_player", 0)
    first = _seat(first, seats, "first_player")
    dice = rig.get("dice") or []
    if not isinstance(dice, list) or any(isinstance(d, bool) or not isinstance(d, int) or not 1 <= d <= 8 for d in dice):
        raise MalformedCommand("rig: dice must be a list of D8 results, each from 1 to 8", rule="R173")
    return {
        "deck": deck,
        "deck_given": "deck" in rig,  # without one, the deck is formed as in any game (R16)
        "hands": hands,
        "years": years,
        "soldiers": soldiers,
        "wall": wall,
        "treaty": treaty,
        "brigs": brigs,
        "sanctions": sanctions,
        "first_player": first,
        "dice": list(dice),
        "leaders": leaders,
        "estates": estates,
        "items": items,
        "dictator": dictator,
    }


def rigged_setup(ctx: Ctx, rig: dict[str, Any]) -> None:
    """Emit the events of a rigged setup. Card ids are fresh and opaque as in any game."""
    s = ctx.state
    rng = ctx.rng()
    start = rng.counter
    made: set[str] = set()

    def card(name: str) -> Card:
        c = Card(ctx.new_card_id(rng, made), name)
        made.add(c.id)
        return c

    rest = Counter({n: CATALOG.building_count[n] for n in BUILDINGS})
    rest.update(rig.get("estates", []))  # Classic: each estate card once
    rest.subtract(rig["deck"])
    hand_cards = {seat: [(card(n), rev) for n, rev in cards] for seat, cards in rig["hands"].items()}
    for cards in rig["hands"].values():
        rest.subtract(n for n, _ in cards)
    placed_years = [[card(n) for n in y] for y in rig["years"]]  # years the rig gives: as given, top first
    for y in rig["years"]:
        rest.subtract(y)
    # Classic: the estate cards the rig does not place are shuffled into the estate deck (R13)
    estate_deck = rng.shuffle([card(n) for n in rig.get("estates", []) if rest[n] > 0])
    # the buildings it does not place make years as in any game: one of each building left, dealt round the years
    # (the last ones smaller when some were placed), plus 2 estate cards each in Classic; each year shuffled (R14-R15)
    leftover = [n for n in BUILDINGS for _ in range(rest[n])]
    count = -(-len(leftover) // len(BUILDINGS))
    dealt: list[list[Card]] = [[] for _ in range(count)]
    for i, name in enumerate(leftover):
        dealt[i % count].append(card(name))
    for y in dealt:  # (a Simpleton game has no estate card: its estate deck is empty)
        y.extend(estate_deck[:ESTATES_PER_YEAR])
        estate_deck = estate_deck[ESTATES_PER_YEAR:]
    year_cards = placed_years + [rng.shuffle(y) for y in dealt]
    # The stock holds the hands first (dealt from it right away), then the real years.
    stock = [[c for cards in hand_cards.values() for c, _ in cards]] if hand_cards else []
    labels = ([STOCK] if stock else []) + [str(i + 1) for i in range(len(year_cards))]
    all_years = stock + year_cards
    ctx.emit(
        ev.YearsFormed(
            # the hands' cards are dealt at once, face down: only how many there are is public (A53)
            years=public_years(list(zip(labels, all_years, strict=True))),
            cards=[[{"id": c.id, "name": c.name} for c in y] for y in all_years],
            rng=[start, rng.counter],
        )
    )
    for seat, cards in sorted(hand_cards.items()):
        for c, revealed in cards:
            ctx.emit(ev.CardDealt(seat=seat, card=c.id, name=c.name, revealed=revealed, knowers="all" if revealed else [seat]))
    if s.classic.components is not None:
        ctx.emit(ev.EstateDeckFormed(size=len(estate_deck), cards=[{"id": c.id, "name": c.name} for c in estate_deck]))
    rng = ctx.rng()
    start = rng.counter
    if rig["deck_given"]:
        deck, from_years = [card(n) for n in rig["deck"]], []
    else:  # R16: 2 years shuffled together, the first two the rig did not give
        from_years = labels[len(stock) + len(placed_years) :][:DECK_YEARS]
        deck = rng.shuffle([c for lab, y in zip(labels, all_years, strict=True) if lab in from_years for c in y])
    ctx.emit(
        ev.DeckFormed(
            years=from_years, size=len(deck), cards=[{"id": c.id, "name": c.name} for c in deck], rng=[start, rng.counter]
        )
    )
    ctx.emit(ev.FirstPlayerChosen(seat=rig["first_player"], method="rigged"))
    first = first_player_after_overlord(s.config)
    if first is not None and first != rig["first_player"]:
        raise MalformedCommand(f"rig: the Overlord always goes last: the first player must be seat {first}", rule="R170")
    variant_setup(ctx)  # Alliances, Overlord, Blasphemy (R163, R170, R171)
    for seat in s.turn_order_from(rig["first_player"]):
        mat = rig.get("leaders", {}).get(seat)
        if mat is not None:
            entry = s.leader_entry(mat)
            ctx.emit(ev.LeaderChosen(seat=seat, mat=mat, plain=bool(entry and entry["plain"])))
    t = s.config.thresholds
    for seat in s.turn_order_from(rig["first_player"]):
        change_soldiers(ctx, seat, rig["soldiers"].get(seat, t.start_soldiers), "rigged setup")
    if rig["wall"] is not None:
        ctx.emit(ev.ItemGained(seat=rig["wall"], item="WALL", reason="rigged setup"))
    if rig["treaty"] is not None:
        ctx.emit(ev.ItemGained(seat=rig["treaty"]["holder"], item="TREATY", reason="rigged setup"))
        ctx.emit(ev.ItemGained(seat=rig["treaty"]["giver"], item="INK QUILL", reason="rigged setup"))
    for seat, n in sorted(rig["brigs"].items()):
        for _ in range(n):
            ctx.emit(ev.ItemGained(seat=seat, item="BRIG", reason="rigged setup"))
    for seat, acts in sorted(rig["sanctions"].items()):
        for a in acts:
            ctx.emit(ev.SanctionPlaced(seat=seat, action=a, reason="rigged setup"))
    if rig.get("dictator"):
        entry = s.leader_entry(rig["dictator"])
        ctx.emit(ev.DictatorChosen(mat=rig["dictator"], plain=bool(entry and entry["plain"])))
    for seat, names in sorted(rig.get("items", {}).items()):
        for item in names:
            ctx.emit(ev.ItemGained(seat=seat, item=item, source="reserve", reason="rigged setup"))
    if rig.get("dice"):
        ctx.emit(ev.DiceRigged(dice=rig["dice"]))
    ctx.emit(ev.SetupDealt(cards_each=0))
