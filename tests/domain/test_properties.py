"""Property tests: random legal games from many seeds, every variant in scope, invariants after every event.

- the 30 building cards are all accounted for (deck, years, possession), 5 of each;
- soldier counts, BRIGS and SANCTIONS are never negative and never above their supply;
- while the game is active there is exactly one current player, and someone has a decision to make;
- a seat's view and its redacted events never name a card that seat may not know;
- every option offered is accepted by ``decide`` as is;
- every game ends in a win or draw within a bounded number of turns.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from aegis.domain.everaegis.catalog import BUILDINGS, CATALOG
from aegis.domain.everaegis.config import Config, make_config
from aegis.domain.everaegis.decide import decide, start
from aegis.domain.everaegis.evolve import apply, evolve, fold
from aegis.domain.everaegis.flow import waiting
from aegis.domain.everaegis.prompts import prompts
from aegis.domain.everaegis.redaction import redact, view
from aegis.domain.everaegis.state import GameState
from aegis.domain.kernel.errors import DomainError
from aegis.domain.kernel.events import Event

pytestmark = pytest.mark.slow  # whole games: CI runs them; pytest -m 'not slow' leaves them out

VARIANTS = [
    "simpleton",
    "simpleton+quick",
    "simpleton+long",
    "simpleton+plague",
    "simpleton+survival",
    "simpleton+quick+plague",
    "simpleton+quick+long",
    "simpleton+plague+survival",
    # Classic with every estate and mat plain (the shipped catalog): "classic:<leader selection>"
    "classic:simpleton",
    "classic+quick:limited",
    "classic+long:drafting",
    "classic+plague:freeform",
    "classic+survival:limited",
    "classic+dictator:simpleton",
    "classic+dictator+quick:freeform",
    "classic+artificers:simpleton",
    "classic+artificers+long:drafting",
]
MAX_TURNS = 400


def check_conservation(s: GameState) -> None:
    """30 buildings (5 of each), plus in Classic the 23 estate cards once each: 53 cards, ids unique."""
    estates = [e["name"] for e in s.classic.components["estates"]] if s.classic.components else []
    counts = {name: 0 for name in [*BUILDINGS, *estates]}
    cards = [c for p in s.players for c in p.cards] + s.deck + [c for _, y in s.years for c in y] + s.classic.estate_deck
    cards += s.rubble  # Rubble Rouser (R158)
    cards += [s.variant.blasphemy] if s.variant.blasphemy is not None else []  # R171: beside the deck
    for c in cards:
        counts[c.name] += 1
    assert counts == {**CATALOG.building_count, **dict.fromkeys(estates, 1)}
    ids = [c.id for c in cards]
    assert len(ids) == len(set(ids)) == 30 + len(estates)


def check_counts(s: GameState) -> None:
    placed = sum(len(p.sanctions) for p in s.players)
    held = sum(p.brigs for p in s.players)
    assert all(p.soldiers >= 0 and p.brigs >= 0 for p in s.players)
    assert s.items.sanction_supply >= 0 and s.items.brig_supply >= 0
    assert placed + s.items.sanction_supply == CATALOG.item_count["SANCTION"]
    assert held + s.items.brig_supply == CATALOG.item_count["BRIG"]
    for p in s.players:
        assert len(set(p.sanctions)) == len(p.sanctions)
    for item in (s.classic.components or {}).get("items", []):  # Classic items: never more than the box holds (R5)
        assert s.supply(item["name"]) >= 0 and all(n > 0 for n in s.items.held.get(item["name"], {}).values())
    for holder in (s.items.wall, s.items.treaty, s.items.quill):
        assert holder is None or 0 <= holder < s.seats


def check_turn(s: GameState) -> None:
    if s.status == "active":
        if s.stage == "turn":  # during setup reveals no turn has begun yet
            assert s.play.current is not None and 0 <= s.play.current < s.seats
        assert waiting(s), f"nobody has a decision at seq {s.seq}"
    if s.status == "finished":
        assert s.outcome.result in ("win", "draw")


def check_views(s: GameState) -> None:
    for seat in range(s.seats):
        v = view(s, seat)
        for year in v["years"]:  # a year's estate cards are counted, never named (A53)
            assert set(year["composition"]) <= {*BUILDINGS, "estate cards"}
        for p, pv in zip(s.players, v["players"], strict=True):  # R19: mats in hand are private
            assert ("mats" in pv or "kept" in pv) <= (p.seat == seat or s.status == "finished")
        for p, pv in zip(s.players, v["players"], strict=True):
            for c, cv in zip(p.cards, pv["cards"], strict=True):
                allowed = s.status == "finished" or c.known_to(seat, p.seat)
                assert ("name" in cv) == allowed, (seat, p.seat, c, cv)
                assert ("discovery" in cv) == c.discovered  # R160: a token only on a discovered card
                assert not c.discovered or c.public  # and what it marks, everyone knows
        if s.config.option("rubble_rouser"):  # R158: the rubble is face up for everyone
            assert v["rubble"] == [{"id": c.id, "name": c.name} for c in s.rubble]
        else:
            assert "rubble" not in v and not s.rubble
        for known in v["deck"].get("known_top", []):
            card = next(c for c in s.deck if c.id == known["id"])
            assert s.status == "finished" or card.public or seat in card.known


def check_event_redaction(before: GameState, after: GameState, event: Event) -> None:
    data = event.to_dict()
    for seat in range(after.seats):
        seen = redact(after, data, seat)
        if after.status == "finished":
            continue
        assert "seed" not in seen or not seen["seed"]
        assert "new_card" not in seen and "position" not in seen
        if data["type"] in ("YearsFormed", "DeckFormed", "EstateDeckFormed", "RubbleShuffled"):
            assert "cards" not in seen
        if "name" in seen and "card" in seen and seen["name"]:
            cid = seen["card"]
            owner_before = before.owner_of(cid)
            card_before = before.players[owner_before].card(cid) if owner_before is not None else None
            if card_before is None:
                card_before = next((c for c in before.deck if c.id == cid), None)
            owner_after = after.owner_of(cid)
            card_after = after.players[owner_after].card(cid) if owner_after is not None else None
            knew = card_before is not None and card_before.known_to(seat, owner_before)
            sees_now = card_after is not None and (card_after.revealed or card_after.public or owner_after == seat)
            sees_now = sees_now or any(c.id == cid for c in after.rubble)  # R158: the rubble is face up
            blasphemy = after.variant.blasphemy
            sees_now = sees_now or (blasphemy is not None and blasphemy.id == cid)  # R171: public beside the deck
            assert knew or sees_now, (seat, data)


def make(seats: int, variants: str, extra: dict[str, int] | None = None) -> Config:
    """``variants`` as in VARIANTS: a Classic entry carries its leader selection after a colon; ``extra``:
    more game options (the optional rules R158-R160)."""
    variants, _, selection = variants.partition(":")
    options = {"plain_unknown": 1} if selection else None
    if selection == "limited" and seats * 3 > 30:  # pragma: no cover - 30 mats serve 10 players with 3 each
        options = {"plain_unknown": 1, "limited_mats": 2}
    if extra:
        options = {**(options or {}), **extra}
    return make_config(seats=seats, variants=variants, reaction_seconds=0, options=options, selection=selection or None)


def random_option(state: GameState, rng: random.Random) -> dict:
    """A random option of the first awaited seat's prompts: by kind first, now and then a free one (a TREATY gift)."""
    need = waiting(state)[0]
    options = [o for p in prompts(state, need.seat) if not p.free for o in p.options]
    free = [o for p in prompts(state, need.seat) if p.free for o in p.options]
    pool = free if free and rng.random() < 0.05 else options
    groups = sorted({o.group for o in pool})
    group = rng.choice(groups)
    return rng.choice([o for o in pool if o.group == group]).pick(rng)


def play_checked(
    seats: int,
    variants: str,
    seed: int,
    check_views_every: int = 1,
    options: dict[str, int] | None = None,
    config: Config | None = None,
    after_event: Callable[[GameState, Event], None] | None = None,
    choose: Callable[[GameState, random.Random], dict] = random_option,
) -> GameState:
    """A random legal game, every invariant checked after every event; ``after_event``: more checks; ``choose``:
    the next command in a settled state (default: a random option)."""
    config = config or make(seats, variants, options)
    events = start(config, f"prop-{seed}")
    state = fold(config, [])
    for e in events:
        before = state
        state = evolve(state, e)
        check_conservation(state) if state.stage != "setup" else None
        check_event_redaction(before, state, e)
        if after_event:
            after_event(state, e)
    rng = random.Random(seed)
    steps = 0
    while state.status == "active" and state.play.turn <= MAX_TURNS:
        new = decide(state, choose(state, rng))
        for e in new:
            before = state
            state = before.clone()
            apply(state, e)
            check_conservation(state)
            check_counts(state)
            check_event_redaction(before, state, e)
            if after_event:
                after_event(state, e)
        check_turn(state)
        steps += 1
        if steps % check_views_every == 0:
            check_views(state)
    return state


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seats=st.integers(3, 10), variants=st.sampled_from(VARIANTS), seed=st.integers(0, 10**9))
def test_random_legal_games_keep_every_invariant(seats, variants, seed):
    state = play_checked(seats, variants, seed, check_views_every=3)
    assert state.status == "finished" or state.play.turn > MAX_TURNS
    check_views(state)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seats=st.integers(3, 6), variants=st.sampled_from(VARIANTS), seed=st.integers(0, 10**9))
def test_every_offered_option_is_accepted_and_nothing_else_is(seats, variants, seed):
    """legal_commands and decide agree: each option is accepted as is; a mangled one is refused."""
    check_offered_options(make(seats, variants), seed)


def check_offered_options(config: Config, seed: int, moves: int = 60) -> None:
    """Along a random game: a sample of each prompt's options is accepted as is, and the same command for
    another seat, unless offered to that seat, is refused as data (never another exception)."""
    state = fold(config, start(config, f"opt-{seed}"))
    rng = random.Random(seed)
    for _ in range(moves):
        if state.status != "active":
            break
        need = waiting(state)[0]
        options = [o for p in prompts(state, need.seat) for o in p.options]
        for o in rng.sample(options, min(5, len(options))):
            decide(state, o.pick(rng))  # must not raise: every combination of declared values is legal
        wrong = rng.choice(options).pick(rng)
        wrong["seat"] = (wrong["seat"] + 1) % config.seats
        if not any(p.accepts(wrong) for p in prompts(state, wrong["seat"])):
            try:
                decide(state, wrong)
            except DomainError as exc:
                assert exc.__class__.__name__ in ("IllegalCommand", "NotYourTurn", "MalformedCommand")
            else:
                raise AssertionError(f"decide accepted a command offered to nobody: {wrong}")
        chosen = rng.choice([o for p in prompts(state, need.seat) if not p.free for o in p.options])
        for e in decide(state, chosen.pick(rng)):
            state = evolve(state, e)


def test_games_end_within_the_turn_bound_for_every_variant():
    """Seeds 0-9 of every variant at 3, 5 and 8 seats all finish (win or draw) within the bound."""
    for variants in VARIANTS:
        for seats in (3, 5, 8):
            for seed in range(3):
                state = play_checked(seats, variants, seed, check_views_every=25)
                assert state.status == "finished", (variants, seats, seed, state.play.turn)
