"""Mob players (R173-R181, catalog examples E22-E30) and the Solo variant (R167).

The book's mob examples use mob mats (Fatal Flock, The Council) that it prints only in part and that
are not in the component list (catalog 3.3), and items (SWORD, CALTROPS, AXE) a Simpleton game does not
have. So each example is checked at the level of its D8 procedure, on a mob playing a Simpleton mat
(its 8 printed actions numbered in order: Recruit 1 ... Library 8). Rigged positions fix the D8 results
(the rig's ``dice``) so that each test reads like its example.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from aegis.domain.everaegis.catalog import ACTIONS, CATALOG
from aegis.domain.everaegis.config import make_config
from aegis.domain.everaegis.context import Ctx
from aegis.domain.everaegis.decide import decide, start
from aegis.domain.everaegis.evolve import apply, fold
from aegis.domain.everaegis.flow import waiting
from aegis.domain.everaegis.mob import agreement, count_off, dice_for, pick_object, player_order, select_player, ultimatum
from aegis.domain.everaegis.prompts import prompts
from aegis.domain.everaegis.redaction import OMNISCIENT, view
from aegis.domain.everaegis.state import GameState
from aegis.domain.kernel.errors import IllegalCommand, MalformedCommand, NotYourTurn
from aegis.domain.kernel.events import Event
from aegis.domain.kernel.rng import SeededRng
from tests.domain.test_properties import check_conservation, check_counts, check_turn
from tests.helpers import Table

COUNCIL, SALLY, FRED, JEFF, PETER = 0, 1, 2, 3, 4
NAMES = ["Council", "Sally", "Fred", "Jeff", "Peter"]


def rolls(t: Table, events: list[Event] | None = None) -> list[tuple[str, int]]:
    return [(e.purpose, e.total) for e in t.of("DieRolled", events)]


# ----- the procedures (R174-R181) -----


def test_e22_a_mob_uses_the_action_numbered_by_the_roll():
    """E22, R173: a roll of 3 uses the mob's action #3. The Fatal Flock's own mat is printed only in
    part (its #3 alone) and is not a component, so it cannot be played; on a Simpleton mat #3 is Temple."""
    assert ACTIONS.index("temple") + 1 == 3
    t = Table(
        4,
        names=NAMES[:4],
        mobs=[COUNCIL],
        rig={"hands": {str(SALLY): [{"name": "Mason", "revealed": True}]}, "deck": ["Library"], "dice": [3, 1]},
    )
    assert rolls(t) == [("action", 3), ("player selection: Temple recipient", 1)]
    declared = t.of("ActionDeclared")[0]
    assert (declared.seat, declared.action, declared.claim) == (COUNCIL, "temple", None)  # R43: no claim
    assert declared.plan["recipient"] == FRED  # recipients Fred, Jeff (Sally holds the card); 1 -> Fred
    assert t.of("CardMoved")[0].to_seat == FRED
    assert not t.of("ReactionWindowOpened")  # nobody may call a mob, nobody holds the WALL
    assert "mason" in t.state.players[FRED].sanctions


def test_e23_r174_possible_random_player_skips_the_mob_and_its_treaty_partner():
    """E23: the Council (current) gave Peter the TREATY; the D8 rolls 8 for a war on a possible random
    player: skip the Council, 1 Sally, 2 Fred, 3 Jeff, skip Peter, ... 8 = Fred."""
    assert select_player([SALLY, FRED, JEFF], 8) == FRED
    t = Table(
        5,
        names=NAMES,
        mobs=[COUNCIL],
        rig={"treaty": {"holder": PETER, "giver": COUNCIL}, "deck": ["Temple"], "dice": [2, 8]},
    )
    assert rolls(t) == [("action", 2), ("player selection: war", 8)]  # 2 = War on a Simpleton mat
    assert t.of("DieRolled")[1].outcome == "Fred (counting Sally, Fred, Jeff)"
    war = t.of("WarDesignated")[0]
    assert (war.attacker, war.defender) == (COUNCIL, FRED)


def test_r174_the_count_starts_with_the_current_player_and_skips_the_mob():
    t = Table(5, names=NAMES, mobs=[JEFF], rig={"deck": ["Temple"], "first_player": FRED})
    assert t.state.play.current == FRED
    assert player_order(t.state, JEFF, range(5)) == [FRED, PETER, COUNCIL, SALLY]


@pytest.mark.parametrize("roll", range(1, 9))
def test_e25_r176_agreement_is_yes_only_on_1_or_2(roll: int):
    assert agreement(roll) == (roll in (1, 2))


@pytest.mark.parametrize("roll", range(1, 9))
def test_e26_r177_ultimatum_odd_is_choice_1_even_is_choice_2(roll: int):
    """E26: after an agreement, an odd roll gives Goreld the AXE (choice 1), an even one the GLOVE (2)."""
    assert ultimatum(roll) == (1 if roll % 2 else 2)


def test_e28_r179_object_selection_counts_the_line_and_skips_what_cannot_be_selected():
    line = [("Temple", True), ("Barracks", True)] + [(n, False) for n in ("Treasury", "Laboratory", "Library", "Mason")]
    unrevealed = lambda c: not c[1]  # noqa: E731
    assert line[count_off(line, unrevealed, 6)][0] == "Laboratory"
    line[3] = ("Laboratory", True)  # derived: the card now revealed is skipped by the next roll
    assert [line[count_off(line, unrevealed, n)][0] for n in (1, 2, 3, 4)] == ["Treasury", "Library", "Mason", "Treasury"]


def test_e28_a_mob_that_lost_a_war_reveals_by_object_selection_one_roll_per_card():
    hand = [{"name": "Temple", "revealed": True}, {"name": "Barracks", "revealed": True}, "Treasury", "Laboratory", "Library"]
    t = Table(
        3,
        names=["Sally", "Mob", "Fred"],
        mobs=[1],
        rig={"hands": {"1": [*hand, "Mason"]}, "soldiers": {"0": 10, "1": 1}, "deck": ["Temple"], "dice": [6, 2]},
    )
    new = t.declare(0, "war", target=1)
    assert rolls(t, new) == [("object selection", 6), ("object selection", 2)]
    assert [(e.seat, e.name) for e in t.of("CardRevealed", new)][:2] == [(1, "Laboratory"), (1, "Library")]
    # F8: the public roll says where the count landed, never a raw card id nor a hidden card's name
    from aegis.domain.everaegis.narration import narrate

    said = [narrate(e.to_dict(), ["Sally", "Mob", "Fred"]) for e in t.of("DieRolled", new)]
    assert said == [
        "The D8 for Mob (object selection) rolls 6: the 2nd of the 4 that can be selected: an unrevealed card",
        "The D8 for Mob (object selection) rolls 2: the 2nd of the 3 that can be selected: an unrevealed card",
    ]


def test_e29_r180_narrowing_selects_a_player_then_one_of_their_cards():
    """17 cards in play, more than 8: a Player Selection (3: Sally, Fred, Jeff) picks Jeff, then an
    Object Selection among Jeff's 3 unrevealed cards."""
    hands = {
        str(SALLY): ["Temple", "Mason", "Barracks"],
        str(FRED): ["Temple", "Mason", "Barracks", "Treasury", "Laboratory"],
        str(JEFF): ["Library", "Laboratory", "Library"],
        str(PETER): ["Temple", "Mason", "Barracks", "Treasury", "Laboratory"],
    }
    t = Table(5, names=NAMES, mobs=[COUNCIL], rig={"hands": hands, "deck": ["Treasury"], "first_player": SALLY})
    line = [(p.seat, c) for p in t.state.players for c in p.cards]
    assert len(line) == 17
    ctx = Ctx(t.state.clone())
    ctx.state.dice = [3, 2]
    seat, card = pick_object(ctx, COUNCIL, line, lambda oc: not oc[1].revealed, lambda oc: oc[1].id, lambda oc: oc[0])
    assert [(e.purpose, e.total) for e in ctx.events] == [("narrowing: player selection", 3), ("object selection", 2)]
    assert ctx.events[0].outcome.startswith("Jeff")
    assert (seat, card) == (JEFF, t.state.players[JEFF].cards[1])


@pytest.mark.parametrize("dice", [[1, 4, 1], [2, 2, 1]])
def test_e29_r180_a_mob_using_the_axe_narrows_to_a_player_then_one_of_their_cards(dice):
    """E29 as it happens in a game: the mob's AXE ("reveal any") among 14 unrevealed cards of 3 players rolls a Player
    Selection among the other two first (the mob skipped, R174), then an Object Selection among that player's cards:
    never Abundance over every card, and never the mob's own card."""
    hands = {
        "0": ["Treasury", "Mason", "Library"],
        "1": [*({"name": n, "revealed": True} for n in ("Temple", "Barracks", "Treasury")), "Laboratory", "Library", "Mason"],
        "2": ["Barracks", "Laboratory", "Library", "Treasury", "Temple", "Barracks"],
    }
    rig = {
        "first_player": 0,
        "deck": ["Temple", "Mason", "Treasury", "Library", "Laboratory", "Barracks", "Temple", "Mason"],
        "hands": hands,
        "soldiers": {"0": 3, "1": 3, "2": 3},
        "items": {"1": ["AXE"]},
        "dice": dice,
    }
    t = Table(3, variants="classic", selection="simpleton", options={"plain_unknown": 1}, mobs=[1], rig=rig)
    t.declare(0, "recruit")
    axe = [e for e in t.of("DieRolled") if e.purpose.startswith("narrowing") or "abundance" in e.purpose]
    assert axe and axe[0].purpose == "narrowing: player selection", [e.purpose for e in t.of("DieRolled")]
    chosen = [2, 0][(axe[0].total - 1) % 2]  # counting from the current player, the mob: skipped, then seats 2 and 0
    assert axe[0].outcome == f"Seat {chosen} (counting Seat 2, Seat 0)"
    picked = t.of("DieRolled")[t.of("DieRolled").index(axe[0]) + 1]
    assert picked.purpose == "object selection"
    assert [e.seat for e in t.of("CardRevealed") if e.seq == picked.seq + 1] == [chosen]
    assert not t.state.players[1].eliminated


def test_e30_r181_abundance_rolls_enough_dice_and_counts_their_sum_around():
    """27 candidates: 3 x 8 = 24 does not exceed 27, 4 x 8 = 32 does: roll 4 dice, sum, wrap around."""
    assert [dice_for(n) for n in (2, 8, 9, 16, 17, 24, 27)] == [1, 1, 2, 3, 3, 4, 4]
    t = Table(3, mobs=[1], rig={"deck": ["Temple"], "first_player": 0})
    ctx = Ctx(t.state.clone())
    ctx.state.dice = [8, 8, 8, 8]
    line = [f"candidate {i}" for i in range(1, 28)]
    assert pick_object(ctx, 1, line, lambda _: True, str) == "candidate 5"  # 32 -> 27 + 5
    (rolled,) = ctx.events
    assert (rolled.dice, rolled.total, rolled.rigged) == ([8, 8, 8, 8], 32, 4)


def test_the_item_mob_examples_e24_e27_are_tests_with_stubs_of_unprinted_texts():
    """E24 (SWORD) and E27 (CALTROPS) are tests in test_card_effects.py, with stubs of texts the book does not print."""
    from tests.domain.test_worked_examples import NOT_SIMPLETON

    assert "E24" not in NOT_SIMPLETON and "E27" not in NOT_SIMPLETON


# ----- mobs in play (R173, A50 rulings) -----


def test_r173_r80_a50_a_mob_that_rolls_war_with_0_soldiers_uses_war_and_the_war_is_thwarted():
    """R173: "roll the D8 and use the action that corresponds to the number rolled"; R80: "If the attacker has 0
    soldiers, the war is thwarted", and a thwarted action ends the Action Phase (R73). No second roll."""
    t = Table(3, mobs=[0], rig={"deck": ["Temple", "Mason"], "soldiers": {"0": 0}, "first_player": 0, "dice": [2, 1]})
    (rolled,) = t.of("DieRolled")
    assert rolled.total == 2 and "the war is thwarted" in rolled.outcome
    declared = t.of("ActionDeclared")[0]
    assert (declared.seat, declared.action, declared.plan) == (0, "war", {})  # nobody is selected (R45)
    (thwarted,) = t.of("ActionThwarted")
    assert (thwarted.seat, thwarted.action) == (0, "war") and "no soldiers (R75)" in thwarted.reason
    assert not t.of("WarDesignated") and t.soldiers(0) == 0  # no Recruit instead
    types = t.types()
    assert types.index("ActionThwarted") < types.index("TurnEnded") and t.state.play.current == 1


def test_r173_a50_a_mob_war_with_nobody_it_may_select_is_used_and_does_nothing():
    """The mob's only opponent left is its TREATY partner (R107), so its War, rolled, selects nobody: used, it does
    nothing (A43); the D8 is not rolled again."""
    rig = {"deck": ["Temple", "Mason"], "treaty": {"holder": 1, "giver": 0}, "first_player": 1, "dice": [2, 1]}
    t = Table(3, mobs=[0], rig=rig)
    t.play({"type": "resign", "seat": 2})
    t.declare(1, "recruit")
    (rolled,) = t.of("DieRolled")
    assert rolled.total == 2 and "it does nothing" in rolled.outcome
    assert t.of("ActionDeclared")[-1].plan == {} and not t.of("WarDesignated") and not t.of("ActionThwarted")
    done = t.of("ActionCompleted")[-1]
    assert (done.seat, done.action, done.outcome) == (0, "war", "no player it may go to war with: nothing happens (A43)")
    assert t.soldiers(0) == 3 and t.state.play.current == 1


@pytest.mark.parametrize(
    ("roll", "rig", "outcome"),
    [
        (3, {}, "no revealed card it could give: nothing happens (A43)"),
        (
            8,
            {"treaty": {"holder": 1, "giver": 0}, "sanctions": {"2": list(ACTIONS)}},
            "no action it could SANCTION and nobody it could give the TREATY: nothing happens (A43)",
        ),
    ],
    ids=["temple", "library"],
)
def test_r173_a50_a_mob_temple_or_library_with_nothing_to_do_is_used_and_does_nothing(roll, rig, outcome):
    """Temple with no revealed card anywhere; Library when the mob may neither SANCTION (its partner is out of reach,
    R107, the third player's actions are all SANCTIONED, A19) nor give the TREATY (its partner holds it). The
    action is the one rolled (R173), it resolves and does nothing (A43): no second roll."""
    t = Table(3, mobs=[0], rig={"deck": ["Temple", "Mason"], "first_player": 0, "dice": [roll, 1], **rig})
    (rolled,) = t.of("DieRolled")
    assert rolled.total == roll and "it does nothing" in rolled.outcome
    declared = t.of("ActionDeclared")[0]
    assert (declared.action, declared.plan) == (ACTIONS[roll - 1], {})
    after = t.events[t.events.index(declared) :]
    assert "ActionResolving" in t.types(after) and t.of("ActionCompleted", after)[0].outcome == outcome
    assert not set(t.types(after)) & {"CardMoved", "SanctionPlaced", "ItemGained", "ActionThwarted"}
    assert t.state.play.current == 1


def test_r171_a50_a_mobs_use_of_the_blasphemy_action_that_does_nothing_still_earns_a_token():
    """R171: "Whenever a player uses the action of the Blasphemy card, they gain a Blasphemy token, unless that action
    was called and proven false." The Blasphemy card is a Temple; the mob's rolled Temple has nothing to give."""
    rig = {"deck": ["Temple", "Mason", "Library"], "first_player": 0, "dice": [3]}
    t = Table(3, variants="simpleton+blasphemy", mobs=[0], rig=rig)
    assert t.of("BlasphemyCardSet")[0].name == "Temple" and t.of("ActionDeclared")[0].plan == {}
    assert [e.seat for e in t.of("BlasphemyTokenGained")] == [0]


def test_r109_a_rolled_sanctioned_action_runs_the_sanction_text():
    rig = {"hands": {"0": ["Temple", "Mason"]}, "deck": ["Library"], "sanctions": {"0": ["recruit"]}, "dice": [1, 2]}
    t = Table(3, mobs=[0], rig=rig)
    declared = t.of("ActionDeclared")[0]
    assert (declared.action, declared.sanctioned) == ("recruit", True)
    assert rolls(t) == [("action", 1), ("object selection", 2)]
    assert [(e.seat, e.name) for e in t.of("CardDiscarded")] == [(0, "Mason")]
    assert "recruit" not in t.state.players[0].sanctions


def test_a50_a_mob_guards_with_the_wall_only_on_agreement():
    for dice, guards in (([2], True), ([3], False)):
        t = Table(3, mobs=[1], rig={"hands": {"0": ["Barracks"], "1": ["Temple"]}, "deck": ["Mason"], "wall": 1, "dice": dice})
        t.declare(0, "barracks")
        assert t.state.calls.window is not None and t.state.calls.window.waiting_for == [2]  # the mob answered at once
        t.pass_all()
        assert [e.seat for e in t.of("GuardDeclared")] == ([1] if guards else [])
        assert [e.seat for e in t.of("CardDiscarded") if e.reason == "barracks"] == ([] if guards else [1])
        assert rolls(t)[0] == ("agreement", dice[0])


def test_a50_a_mob_never_calls_and_cannot_be_called():
    t = Table(3, mobs=[1], rig={"hands": {"0": ["Temple"]}, "deck": ["Mason"]})
    t.declare(0, "treasury")  # a bluff: the mob is not asked, so only seat 2 is
    assert t.state.calls.window is not None and t.state.calls.window.asked == [2]
    assert not t.state.may_call(0, 1) and not t.state.may_call(1, 0)


def test_r43_a_mobs_action_is_no_claim_but_a_wall_may_guard_it():
    """R43, R69: building cards cannot guard a mob's action; the WALL guards any action without pierce."""
    t = Table(3, mobs=[0], rig={"hands": {"2": ["Library"]}, "deck": ["Temple"], "wall": 1, "dice": [5]})
    assert t.of("ActionDeclared")[0].action == "barracks"
    w = t.state.calls.window
    assert w is not None and w.asked == [1] and w.claim == ""
    assert [o.command["answer"] for o in t.prompts(1)[0].options] == ["pass", "guard"]
    assert t.prompts(1)[0].options[1].first()["means"] == "wall"
    assert t.kinds(2) == []
    t.react(1, "guard", "wall")
    assert [(e.seat, e.name) for e in t.of("CardDiscarded")] == [(2, "Library")]  # seat 1 is guarded
    assert t.of("ActionResolving")[-1].guarded_by == [1]


def test_r173_a_command_for_a_mob_seat_is_refused():
    t = Table(3, mobs=[1], rig={"deck": ["Temple"]})
    with pytest.raises(NotYourTurn) as err:
        t.play({"type": "declare", "seat": 1, "action": "recruit"})
    assert err.value.rule == "R173"


def test_r173_the_view_says_which_seats_are_mobs():
    t = Table(4, mobs=[1, 3], rig={"deck": ["Temple"]})
    v = t.view(0)
    assert v["mobs"] == [1, 3]
    assert [p["mob"] for p in v["players"]] == [False, True, False, True]


@pytest.mark.parametrize(
    ("mobs", "variants", "rule"),
    [
        ([0, 1, 2], "simpleton", "R173"),
        ([3], "simpleton", "R173"),
        ([1, 1], "simpleton", "R173"),
        ("1", "simpleton", "R173"),
        ([1], "simpleton+solo", "R167"),
    ],
)
def test_r173_r167_mob_seats_are_validated(mobs, variants, rule):
    with pytest.raises(MalformedCommand) as err:
        make_config(seats=3, variants=variants, mobs=mobs)
    assert err.value.rule == rule


def test_r167_solo_makes_every_seat_but_one_a_mob_and_combines_with_other_variants():
    assert make_config(seats=4, variants="simpleton+solo").mobs == (1, 2, 3)
    assert make_config(seats=4, variants="simpleton+solo", mobs=[0, 1, 3]).mobs == (0, 1, 3)
    config = make_config(seats=3, variants="solo+quick+plague+simpleton")
    assert config.variants == ("simpleton", "quick", "plague", "solo")
    assert make_config(seats=3, variants="simpleton+solo+long").to_dict()["mobs"] == [1, 2]
    assert "mobs" not in make_config(seats=3).to_dict()  # games without mobs keep their recorded form


def test_r167_solo_the_person_declares_bluff_actions_only_with_the_card():
    t = Table(4, variants="simpleton+solo", rig={"hands": {"0": ["Temple"]}, "deck": ["Mason"]})
    assert {c["action"] for c in t.legal(0)} == {"recruit", "war", "mason"}  # Temple: no revealed card to give
    with pytest.raises(IllegalCommand) as err:
        t.declare(0, "treasury")
    assert err.value.rule == "R167"


# ----- whole games -----


def play(seats: int, variants: str, seed: int, mobs: list[int] | None = None) -> tuple[GameState, list[Event]]:
    """A random legal game, checked after every command: mobs are never prompted, Solo never bluffs,
    every event keeps the card and item invariants."""
    config = make_config(seats=seats, variants=variants, reaction_seconds=0, mobs=mobs)
    events = start(config, f"mobs-{seed}")
    state = fold(config, events)
    rng = random.Random(seed)
    while state.status == "active" and state.play.turn <= 400:
        needs = waiting(state)
        assert needs and not any(state.is_mob(n.seat) for n in needs)
        for mob in config.mobs:
            assert prompts(state, mob) == []
        seat = needs[0].seat
        options = [o for p in prompts(state, seat) if not p.free for o in p.options]
        if "solo" in config.variants:
            for c in (one.command for o in options for one in o.expand()):
                claim = CATALOG.action(c["action"]).claim if c["type"] == "declare" else None
                if claim is not None and c["action"] not in state.players[seat].sanctions:
                    assert state.holds(seat, claim), c
                assert c.get("means") != "card" or state.holds(seat, state.calls.window.claim), c
        new = decide(state, rng.choice(options).pick(rng))
        for e in new:
            apply(state, e)
            check_conservation(state)
            check_counts(state)
        check_turn(state)
        events.extend(new)
    return state, events


def check_rolls(state: GameState, events: list[Event]) -> None:
    """Every D8 is an event whose seeded dice can be recomputed from its rng positions."""
    position = 0
    for e in events:
        if e.TYPE == "DieRolled":
            assert e.rng[0] == position
            r = SeededRng(state.seed, e.rng[0])
            assert e.dice[e.rigged :] == [r.below(8) + 1 for _ in e.dice[e.rigged :]]
            assert r.counter == e.rng[1] and e.total == sum(e.dice) and all(1 <= d <= 8 for d in e.dice)
        rng = getattr(e, "rng", None)
        if rng:
            position = rng[1]


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seats=st.integers(3, 8),
    variants=st.sampled_from(
        ["simpleton", "simpleton+solo", "simpleton+solo+quick", "simpleton+solo+long", "simpleton+plague", "simpleton+survival"]
    ),
    seed=st.integers(0, 10**9),
    data=st.data(),
)
def test_r173_r167_random_games_with_mobs_keep_every_invariant(seats, variants, seed, data):
    mobs = None
    if "solo" not in variants:
        mobs = data.draw(st.lists(st.integers(0, seats - 1), min_size=1, max_size=seats - 1, unique=True))
    state, events = play(seats, variants, seed, mobs)
    # every game ends or stays playable: a long Solo game of 8 seats may pass the 400 turns played here
    assert state.status == "finished" or (state.play.turn > 400 and waiting(state))
    assert any(e.TYPE == "DieRolled" for e in events)
    check_rolls(state, events)
    assert view(fold(state.config, events), OMNISCIENT) == view(state, OMNISCIENT)  # a replay gives the same state


@pytest.mark.parametrize("variants", ["simpleton+solo", "simpleton+solo+quick+plague", "simpleton+solo+survival"])
@pytest.mark.parametrize("seats", [3, 5, 8])
def test_r167_solo_games_play_to_the_end(seats: int, variants: str):
    state, events = play(seats, variants, seats)
    assert state.status == "finished"
    check_rolls(state, events)


# ----- mobs in a Classic game (A50 ruling: the Simpleton mat; R178 consumption) -----


def test_a50_in_classic_only_people_select_leaders_and_a_mob_plays_the_simpleton_mat():
    t = Table(4, variants="classic", options={"plain_unknown": 1}, selection="limited", mobs=[1, 3], seed="cmob")
    s = t.state
    assert [bool(p.mats) for p in s.players] == [True, False, True, False]
    while t.state.stage == "leaders":
        t.play(t.options(t.waiting()[0].seat)[0].command)
    s = t.state
    assert s.players[0].leader and s.players[2].leader and s.players[1].leader is None and s.players[3].leader is None


def classic_mob_table(**rig):
    base = {"deck": ["Barracks", "Mason", "Library", "Temple"], "first_player": 0, "hands": {"0": ["Temple"]}}
    return Table(3, variants="classic", rig={**base, **rig}, options={"plain_unknown": 1}, selection="simpleton", mobs=[1])


def test_r178_a_mob_uses_a_consumable_as_soon_as_the_rules_allow():
    t = classic_mob_table(items={"1": ["HAMMER"]}, hands={"0": ["Temple", "Mason"], "2": ["Library"]})
    t.declare(0, "recruit")  # the first turn ends: the HAMMER, received in setup, may now be used
    types = t.types()
    used = next(i for i, e in enumerate(t.events) if e.TYPE == "ItemDiscarded" and e.item == "HAMMER")
    declared = next(i for i, e in enumerate(t.events) if e.TYPE == "ActionDeclared" and e.seat == 1)
    assert used < declared and "DieRolled" in types[used:declared]


def test_r178_a_mob_holding_a_usable_consumable_in_its_end_phase_uses_it_before_the_demise_phase():
    """A mob uses a consumable before its action (above), so play does not bring one to its End Phase with a
    usable consumable; the position is made by hand: the mob's End Phase, with a HAMMER held since before its
    turn. Whichever of the two decisions the game asks of it there (R103), it uses the HAMMER (R178)."""
    from aegis.domain.everaegis.decisions import DECISIONS
    from aegis.domain.everaegis.flow import advance

    t = classic_mob_table(hands={"0": ["Temple", "Mason"], "2": ["Library"]}, dice=[1])
    t.declare(0, "recruit")  # the mob's whole turn runs: it rolls 1, Recruit
    end = next(i for i, e in enumerate(t.events) if e.TYPE == "PhaseBegan" and e.seat == 1 and e.phase == "end")
    state = fold(t.config, t.events[: end + 1])
    state.items.held["HAMMER"] = {1: 1}  # held since before this turn: usable (R103)
    assert [(n.seat, n.kind) for n in waiting(state)] == [(1, "end_phase"), (1, "use_item")]
    for kind in ("end_phase", "use_item"):
        ctx = Ctx(state.clone())
        DECISIONS[kind].by_rules(ctx, 1)
        [queued] = ctx.events  # the HAMMER's text, which discards it last ("used once, and then", R103)
        assert queued.TYPE == "EffectQueued" and queued.steps[-1] == {"step": "discard_used", "item": "HAMMER"}
    ctx = Ctx(state.clone())
    advance(ctx)
    types = [e.TYPE for e in ctx.events]
    used = types.index("ItemDiscarded")
    demise = next(i for i, e in enumerate(ctx.events) if e.TYPE == "PhaseBegan" and e.phase == "demise")
    assert ctx.events[used].item == "HAMMER" and ctx.events[demise].seat == 1
    queued = types.index("EffectQueued")
    assert queued < used < types.index("EffectEnded") < demise and "DieRolled" in types[queued:used]  # the D8's (R179)


def test_r178_a_mob_uses_a_reactive_item_the_moment_the_occasion_occurs():
    t = classic_mob_table(items={"1": ["BIRD"]})
    t.declare(0, "recruit")
    assert t.of("ActionThwarted")[0].reason == "BIRD used in reaction (R104)" and t.soldiers(0) == 3
    assert [(e.seat, e.item) for e in t.of("ItemDiscarded")][-1] == (1, "BIRD")  # who used it
