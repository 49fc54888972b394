"""Card movements that need the deck: drawing (with the Empty Deck Rule), discarding into the deck,
and revealing. Rules: R27, R34, R35, R94, R96, R63, A29."""

from __future__ import annotations

from domain.everaegis import events as ev
from domain.everaegis.context import Ctx
from domain.everaegis.state import Card

ESTATES_TO_DECK = 8  # R35 (E2 derived), A29


def draw_step(ctx: Ctx) -> bool:
    """Serve the first pending card gain. False if the game waits for a year to be chosen."""
    s = ctx.state
    seat, reason = s.draw_queue[0]
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
    if len(s.years) == 1:
        label, cards = s.years[0]
        ctx.emit(ev.YearMadeDeck(year=label, chosen_by=chooser(ctx), size=len(cards), forced=True))
        return True
    if s.years:
        return False  # the current player must choose a year (R34): see prompts.year_prompt
    if s.estate_deck:  # A29: no year is left: the top 8 estate cards become the deck
        ctx.emit(ev.EstatesMadeDeck(size=min(ESTATES_TO_DECK, len(s.estate_deck)), chosen_by=chooser(ctx)))
        return True
    ctx.emit(ev.CardNotGained(seat=seat, reason="the deck and every year are empty (A29)"))
    return True


def chooser(ctx: Ctx) -> int:
    """The player who applies the Empty Deck Rule: the current player (R34), or during setup the first player."""
    s = ctx.state
    if s.current is not None:
        return s.current
    return s.first_player if s.first_player is not None else 0


def discard_card(ctx: Ctx, seat: int, card: Card, reason: str) -> None:
    """R96: the card is shuffled into the deck at a random position, unseen, and gets a new id."""
    s = ctx.state
    rng = ctx.rng()
    start = rng.counter
    position = rng.below(len(s.deck) + 1)
    new_id = ctx.new_card_id(rng)
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
        )
    )


def reveal(ctx: Ctx, seat: int, card: Card, *, full: bool, reason: str, trigger: bool = True) -> None:
    """R95; a trigger estate fully revealed queues its effect (R92), unless it is only shown again without
    having left play (``trigger=False``: R125, A30)."""
    ctx.emit(ev.CardRevealed(seat=seat, card=card.id, name=card.name, full=full, reason=reason))
    if full and trigger and ctx.state.components is not None:
        from domain.everaegis.effects import on_revealed  # the interpreter uses this module: import late

        on_revealed(ctx, seat, card)
