"""The deal "as_known" of a branch (``domain/everaegis/branching.py``): what the seat could name stays, the rest is
dealt again within each public origin, and every card is still there."""

from __future__ import annotations

from collections import Counter

import pytest

from aegis.domain.everaegis.branching import cards_of, origins
from aegis.domain.everaegis.config import make_config
from aegis.domain.everaegis.ruleset import RULESET
from aegis.domain.everaegis.simulation import play_game
from aegis.domain.kernel.errors import GameOver, MalformedCommand
from aegis.replay.engine import Replay


def _replay(seed: str, seats: int = 4) -> Replay:
    game = play_game(seats=seats, variants="simpleton", seed=seed, bots=["random"])
    return Replay(RULESET, make_config(seats=seats, reaction_seconds=0), game.events)


def _branched(replay: Replay, step: int, knower: int, secret: str):  # type: ignore[no-untyped-def]
    state = replay.state_at(step)
    log = [e.to_dict() for e in replay.events[:step]]
    names = [f"P{i}" for i in range(state.seats)]
    events = RULESET.branch(state, log, game="g", step=step, deal="as_known", knower=knower, names=names, seed=secret, at=1000.0)
    after = RULESET.clone(state)
    for e in events:
        RULESET.apply(after, e)
    return state, after, origins(log), events


@pytest.mark.parametrize("seed", ["br-1", "br-2", "br-3"])
def test_what_the_seat_could_name_stays_and_each_origin_keeps_its_cards(seed):
    replay = _replay(seed)
    moved = 0
    for step in (40, replay.steps // 2):
        for knower in range(4):
            before, after, origin, events = _branched(replay, step, knower, f"secret-{step}-{knower}")
            assert [e.TYPE for e in events] == ["BranchBegan", "CardsDealtAgain"]
            was = {c.id: (c, p) for c, p in cards_of(before)}
            now = {c.id: c for c, _ in cards_of(after)}
            assert was.keys() == now.keys()  # every card is where it was; only names behind ids moved
            for cid, (card, possessor) in was.items():
                if card.known_to(knower, possessor):
                    assert now[cid] == card
            by_origin_before: Counter[tuple[str, str]] = Counter(
                (origin.get(cid, "other"), c.name) for cid, (c, _) in was.items()
            )
            by_origin_after: Counter[tuple[str, str]] = Counter((origin.get(cid, "other"), c.name) for cid, c in now.items())
            assert by_origin_after == by_origin_before
            assert RULESET.view(after, knower)["players"] == [
                {**p, "name": f"P{p['seat']}"} for p in RULESET.view(before, knower)["players"]
            ]
            moved += sum(now[cid].name != c.name for cid, (c, _) in was.items())
    assert moved > 0, "some hidden card was dealt differently"


def test_the_same_secret_deals_the_same_and_another_differently():
    replay = _replay("br-same")
    step = replay.steps // 2
    one = _branched(replay, step, 0, "a")[3][1]
    assert one == _branched(replay, step, 0, "a")[3][1]
    assert one.names != _branched(replay, step, 0, "b")[3][1].names


def test_a_branch_refuses_a_bad_deal_a_missing_seat_and_the_end():
    replay = _replay("br-refuse", seats=3)
    state = replay.state_at(30)
    log = [e.to_dict() for e in replay.events[:30]]
    common = {"game": "g", "step": 30, "names": ["a", "b", "c"], "seed": "s", "at": 0.0}
    for deal, knower in (("guess", None), ("as_known", None), ("as_known", 3), ("same", 1)):
        with pytest.raises(MalformedCommand):
            RULESET.branch(state, log, deal=deal, knower=knower, **common)
    with pytest.raises(GameOver):
        RULESET.branch(replay.state_at(replay.steps), log, deal="same", knower=None, **common)


@pytest.mark.parametrize("seed", ["twin-1", "twin-2"])
def test_an_as_known_branch_depends_only_on_what_the_seat_knew(seed):
    """Issue 17: two games with the same history as seat P knew it but different hidden cards give the same branch
    for the same branch seed. The twin is the game with the cards P could not name dealt otherwise within their
    origins (P's view is unchanged, the table's counts too); both branches must then name every card alike."""
    from aegis.domain.everaegis.branching import deal_again

    replay = _replay(seed)
    step = replay.steps // 2
    log = [e.to_dict() for e in replay.events[:step]]
    for knower in range(4):
        state = replay.state_at(step)
        twin = RULESET.clone(state)
        RULESET.apply(twin, deal_again(twin, log, knower, f"other-hands-{knower}").with_seq(state.seq))  # seq unmoved
        assert RULESET.view(twin, knower) == RULESET.view(state, knower)  # the same game, as P knew it
        assert {c.id: c.name for c, _ in cards_of(twin)} != {c.id: c.name for c, _ in cards_of(state)}

        def branched(position, knower=knower):  # type: ignore[no-untyped-def]
            events = RULESET.branch(
                position, log, game="g", step=step, deal="as_known", knower=knower, names=["a", "b", "c", "d"], seed="s", at=0.0
            )
            after = RULESET.clone(position)
            for e in events:
                RULESET.apply(after, e)
            return {c.id: c.name for c, _ in cards_of(after)}

        assert branched(state) == branched(twin)


def test_an_as_known_branch_keeps_the_blasphemy_card_every_seat_sees():
    """R171: the Blasphemy card lies face up beside the deck; an "as_known" branch deals again only what its seat
    could not name, so the Blasphemy card (and the action it gives) is the original's in every branch (rules
    version 4; the deal took it for a hidden card before)."""
    game = play_game(seats=4, variants="simpleton+blasphemy", seed="br-blasphemy", bots=["random"])
    replay = Replay(RULESET, make_config(seats=4, variants="simpleton+blasphemy", reaction_seconds=0), game.events)
    original = replay.state_at(30).variant.blasphemy
    assert original is not None
    for knower in range(4):
        for secret in ("a", "b", "c"):
            _, after, _, _ = _branched(replay, 30, knower, f"blasphemy-{knower}-{secret}")
            assert after.variant.blasphemy == original
