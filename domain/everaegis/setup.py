"""Setup of a Simpleton game (R13-R18, R162, R164, R166, R169, A46)."""

from __future__ import annotations

from collections import Counter

from domain.everaegis import events as ev
from domain.everaegis.catalog import BUILDINGS
from domain.everaegis.context import Ctx
from domain.everaegis.soldiers import change_soldiers
from domain.everaegis.state import Card

YEARS = 5  # R14
DECK_YEARS = 2  # R16


def _composition(cards: list[Card]) -> dict[str, int]:
    """Counts per building in catalog order: public (R16, A53), and in no order that leaks the shuffle."""
    counts = Counter(c.name for c in cards)
    return {name: counts[name] for name in BUILDINGS if counts[name]}


def setup_step(ctx: Ctx) -> None:
    """Years of one of each building (no estate cards in Simpleton), the deck from 2 of them,
    the first player, starting soldiers, then starting cards where a variant deals them."""
    s = ctx.state
    rng = ctx.rng()
    start = rng.counter
    years: list[list[Card]] = []
    made: set[str] = set()
    for _ in range(YEARS):
        cards = []
        for name in BUILDINGS:
            card = Card(ctx.new_card_id(rng, made), name)
            made.add(card.id)
            cards.append(card)
        years.append(rng.shuffle(cards))
    labels = [str(i + 1) for i in range(YEARS)]
    ctx.emit(
        ev.YearsFormed(
            years=[{"year": lab, "size": len(y), "composition": _composition(y)} for lab, y in zip(labels, years, strict=True)],
            cards=[[{"id": c.id, "name": c.name} for c in y] for y in years],
            rng=[start, rng.counter],
        )
    )
    rng = ctx.rng()
    start = rng.counter
    deck = rng.shuffle([c for y in years[:DECK_YEARS] for c in y])
    ctx.emit(
        ev.DeckFormed(
            years=labels[:DECK_YEARS],
            size=len(deck),
            cards=[{"id": c.id, "name": c.name} for c in deck],
            rng=[start, rng.counter],
        )
    )
    if s.config.first_player is not None:
        ctx.emit(ev.FirstPlayerChosen(seat=s.config.first_player, method="chosen at creation (R18 step 8)"))
    else:
        rng = ctx.rng()
        start = rng.counter
        seat = rng.below(s.seats)
        ctx.emit(ev.FirstPlayerChosen(seat=seat, method="random (R18 step 8)", rng=[start, rng.counter]))
    t = s.config.thresholds
    for seat in s.turn_order_from(s.first_player or 0):
        change_soldiers(ctx, seat, t.start_soldiers, "setup (R18 step 6)")
    ctx.emit(ev.SetupDealt(cards_each=t.start_cards))


def after_deal_step(ctx: Ctx) -> None:
    """Quick Game: every player reveals 1 card in turn order before play (R164); then the first turn."""
    s = ctx.state
    if s.stage == "deal" and s.config.thresholds.quick_reveal:
        order = [seat for seat in s.turn_order_from(s.first_player or 0) if s.players[seat].unrevealed]
        ctx.emit(ev.SetupRevealsBegan(order=order))
        return
    first = s.first_player or 0
    ctx.emit(ev.TurnBegan(seat=first, turn=1))
