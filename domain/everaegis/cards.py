"""Card movements that need the deck: drawing (with the Empty Deck Rule), discarding into the deck,
and revealing. Rules: R27, R34, R35, R94, R96, R63, A29."""

from __future__ import annotations

from typing import Any

from aegis.domain.everaegis import events as ev
from aegis.domain.everaegis.card import exposed_in_deck
from aegis.domain.everaegis.context import Ctx
from aegis.domain.everaegis.effect_work import queue_effect
from aegis.domain.everaegis.events.words import counted
from aegis.domain.everaegis.mob import pick_object
from aegis.domain.everaegis.state import Card, GameState
from aegis.domain.kernel.decisions import DecisionKind
from aegis.domain.kernel.prompts import Choice, Option, Prompt, fits

ESTATES_TO_DECK = 8  # R35 (E2 derived), A29


def draw_step(ctx: Ctx) -> bool:
    """Serve the first pending card gain. False if the game waits for a year to be chosen."""
    s = ctx.state
    seat, reason = s.play.draw_queue[0]
    if s.deck:
        card = s.deck[0]
        ctx.emit(
            ev.CardDrawn(
                seat=seat,
                card=card.id,
                name=card.name,
                knowers=card.knowers(seat, s.seats),
                reason=reason,
                deck_left=len(s.deck) - 1,
            )
        )
        return True
    if s.rubble and s.config.option("rubble_rouser"):
        shuffle_rubble(ctx)  # R158: the rubble forms the deck; a year only once the rubble is empty
        return True
    if len(s.years) == 1:
        label, cards = s.years[0]
        ctx.emit(ev.YearMadeDeck(year=label, chosen_by=chooser(ctx), size=len(cards), forced=True))
        return True
    if s.years:
        return False  # the current player must choose a year (R34): see prompts.year_prompt
    if s.classic.estate_deck:  # A29: no year is left: the top 8 estate cards become the deck
        ctx.emit(ev.EstatesMadeDeck(size=min(ESTATES_TO_DECK, len(s.classic.estate_deck)), chosen_by=chooser(ctx)))
        return True
    ctx.emit(ev.CardNotGained(seat=seat, reason="the deck and every year are empty (A29)"))
    return True


def chooser(ctx: Ctx) -> int:
    """The player who applies the Empty Deck Rule: the current player (R34), or during setup the first player."""
    s = ctx.state
    if s.play.current is not None:
        return s.play.current
    return s.play.first_player if s.play.first_player is not None else 0


def discard_card(ctx: Ctx, seat: int, card: Card, reason: str) -> None:
    """R96: the card is shuffled into the deck at a random position, unseen, and gets a new id.
    Under Rubble Rouser it goes face up onto the rubble instead (R158)."""
    s = ctx.state
    remove_token(ctx, seat, card, "discarded")
    if s.config.option("rubble_rouser"):
        ctx.emit(ev.CardToRubble(seat=seat, card=card.id, name=card.name, was_revealed=card.revealed, reason=reason))
        return
    rng = ctx.rng()
    start = rng.counter
    position = rng.below(len(s.deck) + 1)
    new_id = ctx.new_card_id(rng)
    # the deck's cards somebody could name or follow by id (a Laboratory's, the Blasphemy's): the new card may lie
    # above any of them, so none keeps its place in anyone's knowledge, nor its id (rules version 3)
    renewed: list[str] = []
    for _ in range(sum(1 for c in s.deck if exposed_in_deck(c))):
        renewed.append(ctx.new_card_id(rng, {new_id, *renewed}))
    ctx.emit(
        ev.CardDiscarded(
            seat=seat,
            card=card.id,
            name=card.name,
            knowers=card.knowers(seat, s.seats),
            was_revealed=card.revealed,
            reason=reason,
            new_card=new_id,
            position=position,
            deck_size=len(s.deck) + 1,
            rng=[start, rng.counter],
            renewed=renewed,
        )
    )


def reveal(ctx: Ctx, seat: int, card: Card, *, full: bool, reason: str, trigger: bool = True) -> None:
    """R95; a trigger estate fully revealed queues its effect (R92), unless it is only shown again without
    having left play (``trigger=False``: R125; or revealed before since it came into play: A30, E17)."""
    ctx.emit(ev.CardRevealed(seat=seat, card=card.id, name=card.name, full=full, reason=reason))
    if full and trigger and not card.shown and ctx.state.classic.components is not None:
        _on_revealed(ctx, seat, card)


def _on_revealed(ctx: Ctx, seat: int, card: Card) -> None:
    """R92: a trigger estate's text runs once, right after it is fully revealed (plain cards do nothing)."""
    entry = ctx.state.estate(card.name)
    if entry is not None and entry.get("effect") and entry["effect"]["when"] == "revealed":
        queue_effect(ctx, seat, card.name, entry["effect"]["steps"], "revealed (R92)", card=card.id)


def shuffle_rubble(ctx: Ctx) -> None:
    """R158: the rubble is shuffled to form the (empty) deck; its cards get new ids so none can be followed."""
    s = ctx.state
    rng = ctx.rng()
    start = rng.counter
    made: set[str] = set()
    cards = []
    for c in s.rubble:
        new_id = ctx.new_card_id(rng, made)
        made.add(new_id)
        cards.append({"id": new_id, "name": c.name})
    cards = rng.shuffle(cards)
    composition: dict[str, int] = {}
    for c in s.rubble:
        composition[c.name] = composition.get(c.name, 0) + 1
    ctx.emit(
        ev.RubbleShuffled(size=len(cards), composition=dict(sorted(composition.items())), cards=cards, rng=[start, rng.counter])
    )


def place_token(ctx: Ctx, seat: int, card: Card, reason: str) -> None:
    """Discovery (R160): a card revealed and then unrevealed gets a discovery token, unless it has one."""
    if ctx.state.config.option("discovery") and not card.discovered:
        ctx.emit(ev.DiscoveryTokenPlaced(seat=seat, card=card.id, name=card.name, reason=reason))


def remove_token(ctx: Ctx, seat: int, card: Card, reason: str) -> None:
    """Discovery ruling: the token stays on the card while a player possesses it, and goes back to the
    supply when the card leaves for the deck or the rubble (docs/rulings.md, Discovery)."""
    if card.discovered:
        ctx.emit(ev.DiscoveryTokenRemoved(seat=seat, card=card.id, name=card.name, reason=reason))


# ----- the decisions about cards: options that name them, and the year that becomes the deck (R34) -----


def card_labels(cards: list[Card]) -> list[str]:
    """Each card in words, as an option offers it: "Barracks (unrevealed)"; its id only where another card of the
    list would read the same ("Barracks (unrevealed, c1f0...)"), as the table lists the cards with their ids."""
    plain = [f"{c.name} ({'revealed' if c.revealed else 'unrevealed'}" for c in cards]
    return [f"{p}, {c.id})" if plain.count(p) > 1 else f"{p})" for p, c in zip(plain, cards, strict=True)]


def card_choices(cards: list[Card]) -> tuple[Choice, ...]:
    return tuple(Choice(label, c.id) for label, c in zip(card_labels(cards), cards, strict=True))


def card_options(seat: int, cards: list[Card], verb: str, kind: str) -> tuple[Option, ...]:
    """One complete option per card: ``{"type": kind, "seat": seat, "card": id}``."""
    labels = card_labels(cards)
    return tuple(Option(f"{verb} {label}", _card_command(seat, c, kind), kind) for label, c in zip(labels, cards, strict=True))


def card_accepts(seat: int, cards: list[Card], kind: str, cmd: dict[str, Any]) -> bool:
    """Would ``card_options(seat, cards, ..., kind)`` accept ``cmd``? (A kind's ``accepts``, from the same cards.)"""
    card = cmd["card"]
    return any(c.id == card and fits(cmd, _card_command(seat, c, kind)) for c in cards)


def _card_command(seat: int, card: Card, kind: str) -> dict[str, Any]:
    return {"type": kind, "seat": seat, "card": card.id}


def own_card(s: GameState, seat: int, card_id: str) -> Card:
    card = s.players[seat].card(card_id)
    assert card is not None, "options only name the seat's own cards"
    return card


def _year_command(seat: int, label: str) -> dict[str, Any]:
    """The complete command choosing the year ``label``: an option of the prompt, what ``_year_accepts`` matches."""
    return {"type": "choose_year", "seat": seat, "year": label}


def _year_prompt(s: GameState, seat: int) -> Prompt:
    opts = tuple(
        Option(f"Make year {label} ({counted(len(cards), 'card')}) the deck", _year_command(seat, label), "year")
        for label, cards in s.years
    )
    return Prompt(seat, "choose_year", f"{s.players[seat].name}: the deck is empty; choose a year to become the deck (R34)", opts)


def _year_accepts(s: GameState, seat: int, cmd: dict[str, Any]) -> bool:
    """Would ``_year_prompt`` accept ``cmd``? One of its options, from the same years, without their labels."""
    return any(fits(cmd, _year_command(seat, label)) for label, _ in s.years)


def _choose_year(ctx: Ctx, cmd: dict[str, Any]) -> None:
    cards = dict(ctx.state.years)[cmd["year"]]
    ctx.emit(ev.YearMadeDeck(year=cmd["year"], chosen_by=cmd["seat"], size=len(cards)))


def _mob_year(ctx: Ctx, mob: int) -> None:
    label, cards = pick_object(ctx, mob, ctx.state.years, lambda _: True, lambda y: f"year {y[0]} ({len(y[1])} cards)")
    ctx.emit(ev.YearMadeDeck(year=label, chosen_by=mob, size=len(cards)))


CHOOSE_YEAR = DecisionKind(
    "choose_year",
    rule="R34",
    refusal="choose one of the remaining years",
    fields={"year": str},
    docs={"year": {"description": "the label of one of the remaining years"}},
    summary="choose the year that becomes the deck",
    offer=_year_prompt,
    accepts=_year_accepts,
    apply=_choose_year,
    by_rules=_mob_year,
    asks="choose a year to become the deck",
    said=lambda cmd, who: f"year {cmd.get('year')} becomes the deck",
)
