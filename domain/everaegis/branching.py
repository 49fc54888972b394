"""Branches of a game's record (``Ruleset.branch``): the events that turn the position after a step of a game into
the start of a new game.

- ``BranchBegan`` always: the branch's seat names, the open reaction window or undo pause given its full time again
  from the branch's start (the original's clock ran out long ago), and the game marked rigged.
- With the deal ``as_known`` for a seat P, ``CardsDealtAgain`` next: every card P could not name at that step (a
  card is named for P when P holds it, it is revealed or shown to all, or P legitimately knows it, as the view of P
  shows it) gets its name from a shuffle, with a fresh secret seed, of the names of those cards. Names move only
  among cards of the same public origin (the year they were formed in, or the deck formed of years, the estate
  deck, the rubble shuffled into a deck), so every count the table knows (the years' compositions, the cards a deck
  was formed of) holds, and every card P knew stays where P knew it. What P could infer from play (a bluff
  exposed says the claimant did not hold the card) is not a constraint: the re-deal keeps what P was shown.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from aegis.domain.everaegis import events as ev
from aegis.domain.everaegis.context import Ctx
from aegis.domain.everaegis.state import Card, GameState
from aegis.domain.kernel.errors import GameOver, MalformedCommand
from aegis.domain.kernel.events import Event
from aegis.domain.kernel.rng import SeededRng
from aegis.domain.kernel.ruleset import BRANCH_DEALS


def branch(
    state: GameState,
    log: Sequence[dict[str, Any]],
    *,
    game: str,
    step: int,
    deal: str,
    knower: int | None,
    names: Sequence[str],
    seed: str,
    at: float | None,
) -> list[Event]:
    """The events that begin a branch from ``state``, the position after ``log`` (the original's events 1..step)."""
    if deal not in BRANCH_DEALS:
        raise MalformedCommand(f"'deal' is one of {', '.join(BRANCH_DEALS)}, not {deal!r}")
    if deal == "as_known" and (isinstance(knower, bool) or not isinstance(knower, int) or not 0 <= knower < state.seats):
        raise MalformedCommand(f"the deal 'as_known' needs 'as': the seat (0-{state.seats - 1}) whose knowledge is kept")
    if deal == "same" and knower is not None:
        raise MalformedCommand("'as' goes with the deal 'as_known' only: the deal 'same' keeps every card")
    if state.status == "finished":
        raise GameOver(f"the game is over after step {step}: a branch from there has nothing to play", rule="R9")
    if len(names) != state.seats:
        raise MalformedCommand(f"a branch of this game has {state.seats} seats, not {len(names)}")
    ctx = Ctx(state.clone(), at)
    seconds = state.config.reaction_seconds
    fresh = at + seconds if at is not None and seconds > 0 else None
    window, undo = state.calls.window, state.undo
    ctx.emit(
        ev.BranchBegan(
            game=game,
            step=step,
            deal=deal,
            knower=knower,
            names=list(names),
            window_deadline=fresh if window is not None and window.deadline is not None else None,
            undo_deadline=fresh if undo is not None and undo.paused and undo.deadline is not None else None,
        )
    )
    if deal == "as_known":
        assert knower is not None
        ctx.emit(deal_again(ctx.state, log, knower, seed))
    return ctx.events


def deal_again(s: GameState, log: Sequence[dict[str, Any]], knower: int, seed: str) -> ev.CardsDealtAgain:
    """The cards ``knower`` cannot name, their names shuffled within each public origin (``origins``)."""
    origin = origins(log)
    pools: dict[str, list[Card]] = {}
    for card, possessor in cards_of(s):
        if card is s.variant.blasphemy:  # face up beside the deck (R171): every seat knows it, whoever asks
            continue
        if not card.known_to(knower, possessor):
            pools.setdefault(origin.get(card.id, "other"), []).append(card)
    rng = SeededRng(seed)
    names: dict[str, str] = {}
    for key in sorted(pools):
        cards = pools[key]
        # the names in a fixed order before the shuffle: the deal then depends on which names the pool holds (what
        # the seat knew), never on where they were (what it did not)
        shuffled = rng.shuffle(sorted(c.name for c in cards))
        names.update((c.id, name) for c, name in zip(cards, shuffled, strict=True))
    return ev.CardsDealtAgain(knower=knower, cards=len(names), names=names, seed=seed, rng=[0, rng.counter])


def origins(log: Sequence[dict[str, Any]]) -> dict[str, str]:
    """card id -> the public origin it was dealt from: a year, a deck formed of years (its years' cards, shuffled
    together, are one origin), the estate deck, or the rubble shuffled into a deck."""
    out: dict[str, str] = {}
    for e in log:
        kind = e["type"]
        if kind == "YearsFormed":
            for year, cards in zip(e["years"], e["cards"], strict=True):
                out.update((c["id"], f"year {year['year']}") for c in cards)
        elif kind == "DeckFormed":
            label = f"deck {'+'.join(e['years'])}"
            for c in e["cards"]:
                out[c["id"]] = label
            merged = {f"year {y}" for y in e["years"]}
            out.update([(cid, label) for cid, where in out.items() if where in merged])
        elif kind == "EstateDeckFormed":
            out.update((c["id"], "estates") for c in e["cards"])
        elif kind == "RubbleShuffled":
            out.update((c["id"], f"rubble {e['seq']}") for c in e["cards"])
    return out


def cards_of(s: GameState) -> Iterator[tuple[Card, int | None]]:
    """Every card of the table with its possessor (None: the deck, a year, the estate deck, the rubble)."""
    for p in s.players:
        for c in p.cards:
            yield c, p.seat
    for c in s.deck:
        yield c, None
    for _, cards in s.years:
        for c in cards:
            yield c, None
    for c in s.classic.estate_deck:
        yield c, None
    for c in s.rubble:
        yield c, None
    if s.variant.blasphemy is not None:
        yield s.variant.blasphemy, None
