"""Setup of a game: years, the estate deck (Classic), the deck, the first player, leaders, soldiers and
starting cards (R13-R18, R162, R164, R166, R169, A46)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from aegis.domain.everaegis import artificers
from aegis.domain.everaegis import events as ev
from aegis.domain.everaegis.cards import card_accepts, card_options, own_card, reveal
from aegis.domain.everaegis.catalog import BUILDINGS
from aegis.domain.everaegis.context import Ctx
from aegis.domain.everaegis.events.setup import STOCK
from aegis.domain.everaegis.events.words import said_reveal
from aegis.domain.everaegis.leaders import begin_selection, choose_dictator
from aegis.domain.everaegis.mob import own_card as mob_card
from aegis.domain.everaegis.overlord import first_player_after_overlord
from aegis.domain.everaegis.soldiers import change_soldiers
from aegis.domain.everaegis.state import Card, GameState
from aegis.domain.everaegis.variants import variant_setup
from aegis.domain.kernel.decisions import DecisionKind
from aegis.domain.kernel.prompts import Prompt

YEARS = 5  # R14
DECK_YEARS = 2  # R16


ESTATES_PER_YEAR = 2  # R15
ESTATE_LABEL = "estate cards"  # a year's estate cards are counted, never named: nobody peeked (R15, A53)


def public_years(years: list[tuple[str, list[Card]]]) -> list[dict[str, Any]]:
    """What everyone knows of the years: each one's size and composition (R16, A53); of a rigged setup's
    hands (``STOCK``), the size only."""
    return [{"year": y, "size": len(cards), "composition": {} if y == STOCK else composition(cards)} for y, cards in years]


def composition(cards: list[Card]) -> dict[str, int]:
    """Counts per building in catalog order, then the number of estate cards: public (R16, A53), and in
    no order that leaks the shuffle."""
    counts = Counter(c.name for c in cards)
    out = {name: counts[name] for name in BUILDINGS if counts[name]}
    estates = sum(n for name, n in counts.items() if name not in BUILDINGS)
    if estates:
        out[ESTATE_LABEL] = estates
    return out


def setup_step(ctx: Ctx) -> None:
    """Years of one of each building (plus 2 estate cards each in Classic), the estate deck, the deck
    from 2 years, the first player; then leader selection, or straight on to soldiers and cards."""
    s = ctx.state
    rng = ctx.rng()
    start = rng.counter
    years: list[list[Card]] = []
    made: set[str] = set()
    estates: list[Card] = []
    if s.classic.components is not None:  # R13: shuffle the estate cards into the estate deck
        for entry in s.classic.components["estates"]:
            card = Card(ctx.new_card_id(rng, made), entry["name"])
            made.add(card.id)
            estates.append(card)
        estates = rng.shuffle(estates)
    for _ in range(YEARS):
        cards = []
        for name in BUILDINGS:
            card = Card(ctx.new_card_id(rng, made), name)
            made.add(card.id)
            cards.append(card)
        cards.extend(estates[:ESTATES_PER_YEAR])  # R15: 2 from the estate deck, unseen
        estates = estates[ESTATES_PER_YEAR:]
        years.append(rng.shuffle(cards))
    labels = [str(i + 1) for i in range(YEARS)]
    ctx.emit(
        ev.YearsFormed(
            years=public_years(list(zip(labels, years, strict=True))),
            cards=[[{"id": c.id, "name": c.name} for c in y] for y in years],
            rng=[start, rng.counter],
        )
    )
    if s.classic.components is not None:
        ctx.emit(ev.EstateDeckFormed(size=len(estates), cards=[{"id": c.id, "name": c.name} for c in estates]))
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
    elif (after := first_player_after_overlord(s.config)) is not None:
        ctx.emit(ev.FirstPlayerChosen(seat=after, method="the seat after the Overlord, who always goes last (R170)"))
    else:
        rng = ctx.rng()
        start = rng.counter
        seat = rng.below(s.seats)
        ctx.emit(ev.FirstPlayerChosen(seat=seat, method="random (R18 step 8)", rng=[start, rng.counter]))
    variant_setup(ctx)  # Alliances, Overlord, Blasphemy (R163, R170, R171)
    if s.config.selection != "simpleton":
        begin_selection(ctx)  # R17: leaders, then soldiers and cards (``starting_step``)
        return
    starting_step(ctx)


def starting_step(ctx: Ctx) -> None:
    """Dictator's shared mat (R168), R18 step 6: starting soldiers; then starting cards where a variant deals them."""
    s = ctx.state
    if "dictator" in s.config.variants and s.classic.dictator is None:
        choose_dictator(ctx)
    if artificers.active(s) and not s.classic.artificers_done:
        artificers.begin(ctx)  # R172: the gifts come first; flow comes back here when they are done
        return
    t = s.config.thresholds
    for seat in s.turn_order_from(s.play.first_player or 0):
        if not s.players[seat].eliminated:  # S2: a player who resigned in setup takes no further part
            change_soldiers(ctx, seat, t.start_soldiers, "setup (R18 step 6)")
    ctx.emit(ev.SetupDealt(cards_each=t.start_cards))


def after_deal_step(ctx: Ctx) -> None:
    """Quick Game: every player reveals 1 card in turn order before play (R164); then the first turn."""
    s = ctx.state
    if s.stage == "deal" and s.config.thresholds.quick_reveal:
        order = [
            seat
            for seat in s.turn_order_from(s.play.first_player or 0)
            if s.players[seat].unrevealed and not s.players[seat].eliminated  # S2: not a player who resigned
        ]
        ctx.emit(ev.SetupRevealsBegan(order=order))
        return
    ctx.emit(ev.TurnBegan(seat=s.first_remaining(), turn=1))  # S2: never a player who resigned


# ----- the decision: Quick Game's reveal before play (R164) -----


def _reveal_prompt(s: GameState, seat: int) -> Prompt:
    text = f"{s.players[seat].name}: reveal 1 of your cards before play (Quick Game, R164)"
    return Prompt(seat, "setup_reveal", text, card_options(seat, s.players[seat].unrevealed, "Reveal", "setup_reveal"))


def _reveal(ctx: Ctx, cmd: dict[str, Any]) -> None:
    seat = cmd["seat"]
    reveal(ctx, seat, own_card(ctx.state, seat, cmd["card"]), full=True, reason="setup")


def _mob_reveal(ctx: Ctx, mob: int) -> None:
    reveal(ctx, mob, mob_card(ctx, mob, ctx.state.players[mob].unrevealed), full=True, reason="setup")


SETUP_REVEAL = DecisionKind(
    "setup_reveal",
    rule="R164",
    refusal="reveal one of your own unrevealed cards",
    fields={"card": str},
    docs={"card": {"description": "the id of the unrevealed card you reveal"}},
    summary="setup: reveal one of your cards",
    offer=_reveal_prompt,
    accepts=lambda s, seat, cmd: card_accepts(seat, s.players[seat].unrevealed, "setup_reveal", cmd),
    apply=_reveal,
    by_rules=_mob_reveal,
    aliases=("reveal",),
    asks="reveal a card before play",
    said=said_reveal,
)
