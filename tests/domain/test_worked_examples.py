"""The rulebook's worked examples (catalog section 2, E1-E30): here those of a Simpleton game.

Each test is named by its E-number and sets up the example's position with a rig. The others are tests in
test_card_effects.py and test_hooded_fox.py (estate cards, leaders, items; where the book prints no text,
with clearly marked stubs of what the example narrates) and in test_rules_mobs.py (mobs). An example no
test plays would be listed in ``NOT_SIMPLETON`` with the reason; ``test_every_example_is_accounted_for``
keeps that honest. Today every example is a test.

Seats in these tests carry the book's names so the assertions read like the examples.
"""

from __future__ import annotations

import re

import pytest

from aegis.domain.everaegis.soldiers import casualties
from aegis.domain.kernel.errors import IllegalCommand
from tests.helpers import Table

NOT_SIMPLETON: dict[str, str] = {}
# E22, E23, E25, E26 and E28-E30 (mob players) are tested in test_rules_mobs.py.
# E5 is played here in its Simpleton part (several players eliminated at one Demise check), and its
# Tailor and Chapel in test_card_effects.py with a catalog of stubs (its Blacksmith moves the SHIELD: not
# played). E1, E4, E15, E17-E21, E24 and E27 are in test_card_effects.py, E3 in test_hooded_fox.py; E20
# plays the HAMMER only (the AXE's text is not printed, so it cannot be used).

FRED, SALLY, JEFF, PETER, KEITH = 0, 1, 2, 3, 4
NAMES = ["Fred", "Sally", "Jeff", "Peter", "Keith"]


def table(seats: int = 4, **rig) -> Table:
    return Table(seats, rig=rig, names=NAMES[:seats])


def test_every_example_is_accounted_for():
    """Every E-number of the catalog is either a test (named test_eN_..., in any test file) or listed here."""
    from pathlib import Path

    examples = {f"E{i}" for i in range(1, 31)}  # the catalog's section 2 numbers them E1-E30
    source = "".join(f.read_text() for f in sorted(Path(__file__).parents[1].rglob("test_*.py")))
    tested = {m.upper() for m in re.findall(r"^def test_(e\d+)[a-z]?_", source, flags=re.M)}
    assert examples == tested | set(NOT_SIMPLETON)
    assert not tested & set(NOT_SIMPLETON)


# ----- E2: the Empty Deck Rule in the Draw Phase -----


def test_e2_empty_deck_in_the_draw_phase():
    """R27, R34, R35, R99: with the deck empty, the current player chooses a year; it becomes the deck
    and they draw its top card unrevealed; only they see what it is."""
    t = table(4, deck=[], first_player=JEFF)
    assert t.kinds(JEFF) == ["choose_year"]
    assert t.kinds(FRED) == []
    years = [label for label, _ in t.state.years]
    t.play({"type": "choose_year", "seat": JEFF, "year": years[2]})
    made = t.of("YearMadeDeck")[-1]
    assert (made.year, made.chosen_by, made.size) == (years[2], JEFF, 6)
    drawn = t.of("CardDrawn")[-1]
    assert drawn.seat == JEFF and drawn.deck_left == 5
    assert len(t.state.years) == 4
    jeff_card = t.state.players[JEFF].cards[0]
    assert not jeff_card.revealed
    # Jeff may peek (R99): his own view names the card; the others see only an unrevealed card
    mine = t.view(JEFF)["players"][JEFF]["cards"]
    theirs = t.view(FRED)["players"][JEFF]["cards"]
    assert mine[0]["name"] == jeff_card.name
    assert "name" not in theirs[0] and theirs[0]["revealed"] is False
    assert t.kinds(JEFF) == ["declare"]


def test_e2_derived_a_single_year_left_becomes_the_deck_without_a_choice():
    """R34: with one year left there is nothing to choose; the year becomes the deck."""
    hands = {
        "1": ["Temple"] * 5 + ["Mason"] * 3,
        "2": ["Mason"] * 2 + ["Barracks"] * 5,
        "3": ["Treasury"] * 5 + ["Laboratory"] * 4,
    }
    t = table(4, deck=[], hands=hands, first_player=FRED)
    made = t.of("YearMadeDeck")[-1]
    assert made.forced and made.chosen_by == FRED and made.size == 6
    assert t.of("CardDrawn")[-1].seat == FRED and not t.state.years


def test_e2_derived_with_nothing_left_anywhere_nothing_is_gained():
    """A29 ruling: Simpleton has no estate deck, so with the deck and every year empty no card is gained."""
    hands = {
        "0": ["Temple"] * 5 + ["Mason"] * 3,
        "1": ["Mason"] * 2 + ["Barracks"] * 5 + ["Library"],
        "2": ["Treasury"] * 5 + ["Laboratory"] * 2,
        "3": ["Laboratory"] * 3 + ["Library"] * 4,
    }
    t = table(4, deck=[], hands=hands, first_player=FRED)
    not_gained = t.of("CardNotGained")
    assert not_gained and not_gained[0].seat == FRED
    assert len(t.state.players[FRED].cards) == 8
    assert t.kinds(FRED) == ["declare"]


# ----- E5 (Simpleton part): several eliminations at one Demise check -----


def test_e5_demise_eliminates_everyone_who_qualifies_at_once():
    """R30, R122, R123: every player is checked in the current player's Demise Phase; all with 4 or more
    revealed cards are eliminated together, discard items and soldiers, and reveal all their cards."""
    four = [{"name": n, "revealed": True} for n in ("Temple", "Mason", "Barracks", "Treasury")]
    t = table(
        5,
        deck=["Library", "Laboratory"],
        hands={str(JEFF): [*four, "Library"], str(KEITH): [*four], str(SALLY): [*four, "Laboratory"], str(PETER): ["Mason"]},
        soldiers={str(SALLY): 7},
        wall=SALLY,
        first_player=JEFF,
    )
    t.declare(JEFF, "recruit")
    out = [e.seat for e in t.of("PlayerEliminated")]
    assert out == [JEFF, KEITH, SALLY]  # in turn order from the current player
    for seat in out:
        assert t.state.players[seat].eliminated
        assert t.unrevealed(seat) == []
        assert t.soldiers(seat) == 0
    assert t.state.items.wall is None  # Sally's WALL went back to the reserve (R123)
    # Derived: Jeff's Conquest Phase cannot make him win; the game goes on with Fred and Peter
    assert t.state.status == "active"
    assert t.state.remaining() == [FRED, PETER]
    assert t.state.play.current == PETER
    assert not any(e.phase == "conquest" and e.seat == JEFF for e in t.of("PhaseBegan"))


# ----- E6: conquest -----


def test_e6_five_unrevealed_cards_in_your_own_conquest_phase_win():
    """R10, R31: Peter holds 4 unrevealed cards, draws a fifth and wins in his Conquest Phase."""
    t = table(4, deck=["Temple"], hands={str(PETER): ["Mason", "Mason", "Barracks", "Library"]}, first_player=PETER)
    t.declare(PETER, "recruit")
    end = t.of("GameEnded")[-1]
    assert (end.result, end.winners) == ("win", [PETER])
    assert "R31" in end.reason
    assert t.state.status == "finished"
    with pytest.raises(Exception) as err:
        t.declare(FRED, "recruit")
    assert err.value.rule == "R9"


def test_e6_derived_four_unrevealed_do_not_win():
    t = table(4, deck=["Temple"], hands={str(PETER): ["Mason", "Barracks", "Library"]}, first_player=PETER)
    t.declare(PETER, "recruit")
    assert t.state.status == "active"
    assert t.of("TurnEnded")[-1].seat == PETER


def test_e6_derived_five_unrevealed_in_someone_elses_conquest_do_not_win():
    """Fred has 5 unrevealed cards during Peter's Conquest Phase: nobody wins (R10)."""
    five = ["Mason", "Mason", "Barracks", "Library", "Temple"]
    t = table(4, deck=["Temple"], hands={str(FRED): five}, first_player=PETER)
    t.declare(PETER, "recruit")
    assert t.state.status == "active"
    assert len(t.unrevealed(FRED)) == 5
    assert t.state.play.current == FRED  # Peter (seat 3) is followed by Fred (seat 0), clockwise (R23)


# ----- E7-E10: a war, phase by phase -----


def _war(fred_cards: list[str], *, fred: int = 3, sally: int = 11, wall: int | None = None) -> Table:
    t = table(4, deck=["Treasury"], hands={str(FRED): fred_cards}, soldiers={"0": fred, "1": sally}, wall=wall)
    t.declare(FRED, "war", target=SALLY)
    return t


def test_e7_designate_the_selector_attacks():
    """R79: Fred selects Sally: Fred is the attacker and Sally the defender."""
    t = _war(["Mason", "Barracks"])
    designated = t.of("WarDesignated")[-1]
    assert (designated.attacker, designated.defender) == (FRED, SALLY)
    assert not t.of("ReactionWindowOpened")  # War is not a claim (R61)


def test_e8_battle_more_soldiers_win():
    """R80: 3 against 11: Sally wins, Fred loses."""
    battle = _war(["Mason", "Barracks"]).of("WarBattle")[-1]
    assert (battle.attacker_strength, battle.defender_strength) == (3, 11)
    assert (battle.winner, battle.loser) == (SALLY, FRED)


def test_e8_derived_a_tie_goes_to_the_defender():
    battle = _war([], fred=5, sally=5).of("WarBattle")[-1]
    assert battle.winner == SALLY


def test_e8_derived_the_wall_is_five_soldiers_for_the_defender():
    """R81: Sally's WALL counts 11 + 5 = 16, in the Battle Phase only (A14)."""
    t = _war([], fred=14, sally=11, wall=SALLY)
    battle = t.of("WarBattle")[-1]
    assert (battle.defender_strength, battle.wall_bonus, battle.winner) == (16, 5, SALLY)
    cas = t.of("WarCasualties")[-1]
    assert cas.defender_loss == casualties(11) == 6  # the WALL is no soldier for casualties


def test_e8_derived_the_wall_does_not_help_an_attacker():
    battle = _war([], fred=3, sally=2, wall=FRED).of("WarBattle")[-1]
    assert (battle.attacker_strength, battle.wall_bonus, battle.winner) == (3, 0, FRED)


def test_e8_derived_war_needs_a_soldier():
    """R77: with 0 soldiers War is not offered and is refused, naming the rule."""
    t = table(4, deck=["Treasury"], soldiers={"0": 0})
    assert not [c for c in t.legal(FRED) if c.get("action") == "war"]
    with pytest.raises(IllegalCommand) as err:
        t.declare(FRED, "war", target=SALLY)
    assert err.value.rule == "R77"


def test_e9_resolution_the_loser_reveals_two_cards_of_their_choice():
    """R83, R85: Fred lost; he fully reveals 2 of his unrevealed cards, chosen by him, before casualties."""
    t = _war(["Mason", "Barracks"])  # he also drew a Treasury: 3 unrevealed
    assert t.kinds(FRED) == ["war_reveal"]
    assert t.of("WarResolution")[-1].reveals_due == 2
    assert not t.of("WarCasualties")
    options = [c["cards"] for c in t.legal(FRED)]
    assert len(options) == 3  # any 2 of 3
    t.play({"type": "reveal", "seat": FRED, "cards": [t.card(FRED, "Mason"), t.card(FRED, "Treasury")]})
    assert t.revealed(FRED) == ["Mason", "Treasury"]
    assert t.unrevealed(FRED) == ["Barracks"]
    assert all(e.full for e in t.of("CardRevealed"))


def test_e9_with_one_unrevealed_card_the_loser_reveals_it():
    t = _war([])  # only the Treasury he drew
    assert t.of("WarResolution")[-1].reveals_due == 1
    assert t.revealed(FRED) == ["Treasury"]


def test_e9_derived_with_no_unrevealed_card_the_loser_reveals_none():
    """Sally defends with 1 soldier and only revealed cards: she loses and reveals nothing."""
    t = table(4, deck=["Treasury"], hands={str(SALLY): [{"name": "Mason", "revealed": True}]}, soldiers={"0": 5, "1": 1})
    t.declare(FRED, "war", target=SALLY)
    assert t.of("WarBattle")[-1].loser == SALLY
    assert t.of("WarResolution")[-1].reveals_due == 0
    assert [e.seat for e in t.of("CardRevealed")] == []
    assert t.of("WarEnded")


def test_e10_casualties_round_up():
    """R84, A26: each side loses half, rounded up: Fred 3 -> 1, Sally 11 -> 5; then the turn resumes (R33)."""
    t = _war(["Mason", "Barracks"])
    t.play({"type": "reveal", "seat": FRED, "cards": sorted([t.card(FRED, "Mason"), t.card(FRED, "Barracks")])})
    cas = t.of("WarCasualties")[-1]
    assert (cas.attacker_loss, cas.defender_loss) == (2, 6)
    assert (t.soldiers(FRED), t.soldiers(SALLY)) == (1, 5)
    assert t.of("WarEnded")[-1].winner == SALLY
    after = t.events[t.types().index("WarEnded") :]
    resumed = t.of("PhaseBegan", after)[0]
    assert (resumed.seat, resumed.phase) == (FRED, "end")  # Fred's turn goes on after the war


@pytest.mark.parametrize(("soldiers", "lost"), [(0, 0), (1, 1), (2, 1), (3, 2), (11, 6), (20, 10)])
def test_e10_derived_casualty_values(soldiers: int, lost: int):
    assert casualties(soldiers) == lost


# ----- E11-E14, E16: claims, calls and guards -----


def e11_table() -> Table:
    """E11's table: Jeff (first) holds a Mason, Peter a Barracks and a Library, Fred a Treasury, Sally a Library."""
    return table(
        4,
        deck=["Temple"],
        hands={str(JEFF): ["Mason"], str(PETER): ["Barracks", "Library"], str(FRED): ["Treasury"], str(SALLY): ["Library"]},
        first_player=JEFF,
    )


def test_e11_incorrect_call_on_a_guard():
    """R58, R66, R68: Jeff claims Barracks; Peter guards with a true Barracks claim; Jeff calls the guard.
    Peter shows the Barracks and unreveals it (not a full reveal); Jeff fully reveals a card of his
    choice; the Barracks spares Peter and hits the other opponents."""
    t = e11_table()
    t.declare(JEFF, "barracks")
    t.react(PETER, "guard", "card")
    t.pass_all()
    guard_window = t.of("ReactionWindowOpened")[-1]
    assert (guard_window.claimant, guard_window.about) == (PETER, "guard")
    assert JEFF in guard_window.asked  # R68: the acting player may call a guard
    t.react(JEFF, "call")
    t.pass_all()
    assert t.of("BluffCalled")[-1].caller == JEFF
    assert t.kinds(PETER) == ["prove"]
    t.play({"type": "reveal", "seat": PETER, "card": t.card(PETER, "Barracks")})
    shown = t.of("CardRevealed")[-1]
    assert shown.seat == PETER and shown.full is False
    assert t.of("CardUnrevealed")[-1].seat == PETER
    assert t.revealed(PETER) == []
    assert t.kinds(JEFF) == ["pay"]  # Jeff holds the Mason and the Temple he drew
    t.play({"type": "reveal", "seat": JEFF, "card": t.card(JEFF, "Temple")})
    assert t.revealed(JEFF) == ["Temple"]
    # the Barracks goes on: Fred and Sally (one card each) discard, Peter is spared
    assert [e.seat for e in t.of("CardDiscarded")] == [FRED, SALLY]  # in turn order from Jeff
    assert {"Barracks", "Library"} <= set(t.unrevealed(PETER))
    assert t.of("ActionResolving")[-1].guarded_by == [PETER]


def test_e11_derived_an_incorrect_caller_with_no_unrevealed_card_gains_a_brig():
    """R58 (3): Jeff, with only revealed cards, calls Peter's true guard and gains a BRIG instead."""
    t = table(
        4,
        deck=["Temple"],
        hands={str(JEFF): [{"name": "Mason", "revealed": True}], str(PETER): ["Barracks"], str(SALLY): ["Library"]},
        first_player=FRED,
    )
    t.declare(FRED, "barracks")
    t.react(PETER, "guard", "card")
    t.pass_all()
    t.react(JEFF, "call")
    t.pass_all()
    gained = t.of("ItemGained")[-1]
    assert (gained.seat, gained.item) == (JEFF, "BRIG")
    assert t.state.players[JEFF].brigs == 1
    assert t.revealed(JEFF) == ["Mason"]


def test_e12_correct_call_on_an_action():
    """R59, R73: Fred claims Treasury without one; Sally calls; Fred shows his Laboratory, which stays
    revealed; the Treasury is thwarted, Fred gains nothing and his Action Phase is over."""
    t = table(4, deck=["Mason"], hands={str(FRED): ["Laboratory"], str(SALLY): ["Library"]})
    t.declare(FRED, "treasury")
    t.react(SALLY, "call")
    t.pass_all()
    assert t.kinds(FRED) == ["prove"]
    t.play({"type": "reveal", "seat": FRED, "card": t.card(FRED, "Laboratory")})
    assert t.revealed(FRED) == ["Laboratory"]
    assert t.of("CardRevealed")[-1].full is True
    assert t.of("ActionThwarted")[-1].action == "treasury"
    assert t.soldiers(FRED) == 3
    assert t.revealed(SALLY) == []  # the correct caller reveals nothing
    assert t.state.play.current == SALLY  # Fred's turn went on to its end: no second action


def test_e12_derived_a_claimant_with_no_unrevealed_card_loses_the_call():
    """A11 ruling: Peter, with only revealed cards, guards with a Barracks claim; Sally calls; he has
    nothing to show, so the call is correct with no reveal and his guard is thwarted."""
    t = table(4, deck=["Mason"], hands={str(PETER): [{"name": "Temple", "revealed": True}], str(SALLY): ["Library"]})
    t.declare(FRED, "barracks")
    t.react(PETER, "guard", "card")
    t.pass_all()
    t.react(SALLY, "call")
    t.pass_all()
    exposed = t.of("BluffExposed")[-1]
    assert (exposed.seat, exposed.card) == (PETER, None)
    assert t.of("CallSettled")[-1].correct is True
    assert t.revealed(SALLY) == [] and t.revealed(PETER) == ["Temple"]
    assert t.of("ActionResolving")[-1].guarded_by == []


def test_e13a_wall_and_bluffed_guard_uncalled_protect_both():
    """R65, R66, R70: Keith claims Barracks; Sally guards with the WALL, Peter (no Barracks) with a
    Barracks claim; nobody calls Peter: neither discards; every other opponent does."""
    t = _e13_table()
    t.declare(KEITH, "barracks")
    t.react(SALLY, "guard", "wall")
    t.react(PETER, "guard", "card")
    t.pass_all()
    assert t.of("ReactionWindowOpened")[-1].claimant == PETER  # only Peter's guard is a claim
    t.pass_all()
    assert t.of("ActionResolving")[-1].guarded_by == [SALLY, PETER]
    assert [e.seat for e in t.of("CardDiscarded")] == [FRED, JEFF]
    assert t.unrevealed(SALLY) == ["Temple"]
    assert t.unrevealed(PETER) == ["Mason"]
    assert t.state.items.wall == SALLY  # the WALL is not used up by guarding


def test_e13b_a_called_bluffed_guard_is_thwarted():
    """R59, R68: someone calls Peter; he reveals his non-Barracks card, which stays revealed; his guard is
    thwarted and he must also discard an unrevealed card to the Barracks."""
    t = _e13_table(peter=["Mason", "Treasury"])
    t.declare(KEITH, "barracks")
    t.react(SALLY, "guard", "wall")
    t.react(PETER, "guard", "card")
    t.pass_all()
    t.react(FRED, "call")
    t.pass_all()
    t.play({"type": "reveal", "seat": PETER, "card": t.card(PETER, "Mason")})
    assert t.revealed(PETER) == ["Mason"]
    assert t.of("CallSettled")[-1].correct is True
    assert t.of("ActionResolving")[-1].guarded_by == [SALLY]
    assert t.unrevealed(PETER) == []  # the Treasury went to the Barracks
    assert [e.seat for e in t.of("CardDiscarded")] == [FRED, JEFF, PETER]
    assert t.revealed(FRED) == []  # Fred's call was right: he paid nothing


def test_e13_derived_a_wall_guard_cannot_be_called():
    t = _e13_table()
    t.declare(KEITH, "barracks")
    t.react(SALLY, "guard", "wall")
    t.pass_all()
    assert [w.claimant for w in t.of("ReactionWindowOpened")] == [KEITH]
    assert t.of("GuardHeld")[-1].seat == SALLY


def _e13_table(peter: list[str] | None = None) -> Table:
    return table(
        5,
        deck=["Library"],
        hands={
            str(KEITH): ["Laboratory"],
            str(SALLY): ["Temple"],
            str(PETER): peter or ["Mason"],
            str(FRED): ["Treasury"],
            str(JEFF): ["Temple"],
        },
        wall=SALLY,
        first_player=KEITH,
    )


def test_e14_caller_priority_follows_turn_order_from_the_current_player():
    """R60, A13: Peter claims Treasury; Fred and Sally both call; Sally, who comes first after Peter in
    this seating, is the caller; Fred's call is void and costs him nothing."""
    # seats: Peter 0, Sally 1, Fred 2, Jeff 3
    t = Table(
        4,
        rig={"deck": ["Mason"], "hands": {"0": ["Treasury"], "1": ["Library", "Temple"], "2": ["Library", "Temple"]}},
        names=["Peter", "Sally", "Fred", "Jeff"],
    )
    t.declare(0, "treasury")
    t.react(2, "call")  # Fred answers first ...
    t.react(1, "call")  # ... but Sally comes first in turn order
    t.pass_all()
    called = t.of("BluffCalled")[-1]
    assert (called.caller, called.void_calls) == (1, [2])
    t.play({"type": "reveal", "seat": 0, "card": t.card(0, "Treasury")})
    assert t.of("ClaimProven")[-1].caller == 1
    assert t.kinds(1) == ["pay"]
    t.play({"type": "reveal", "seat": 1, "card": t.card(1, "Temple")})
    assert t.revealed(1) == ["Temple"]
    assert t.revealed(2) == []  # Fred is not exposed to the penalty
    assert t.soldiers(0) == 8  # the Treasury went ahead (R58 (4))


def test_e14_answers_stay_private_until_the_window_closes():
    """RULINGS (priority): answers are collected, each seen only by its author until the window closes."""
    t = Table(4, rig={"deck": ["Mason"], "hands": {"0": ["Treasury"]}})
    t.declare(0, "treasury")
    given = t.react(2, "call")
    assert [e.TYPE for e in given] == ["ReactionGiven"]
    assert given[0].audience == [2]
    assert "call" not in str(t.view(1)["window"])


def test_e16a_a_true_claim_cannot_be_called_successfully():
    """R42, R58, R72: Peter holds an unrevealed Barracks; a call on his Barracks claim is incorrect."""
    t = table(4, deck=["Mason"], hands={str(PETER): ["Barracks"], str(FRED): ["Temple", "Library"]}, first_player=PETER)
    t.declare(PETER, "barracks")
    t.react(FRED, "call")
    t.pass_all()
    # Peter holds the Barracks and the Mason he drew: he chooses which to show (A10)
    t.play({"type": "reveal", "seat": PETER, "card": t.card(PETER, "Barracks")})
    assert t.of("ClaimProven")[-1].seat == PETER
    assert t.revealed(PETER) == []
    assert t.kinds(FRED) == ["pay"]
    t.play({"type": "reveal", "seat": FRED, "card": t.card(FRED, "Library")})
    assert t.of("CallSettled")[-1].correct is False
    assert t.revealed(FRED) == ["Library"]


def test_e16b_a_true_guard_survives_a_call():
    """R72: when Fred uses Barracks, Peter guards truthfully and Sally's call on the guard fails."""
    t = table(4, deck=["Mason"], hands={str(PETER): ["Barracks"], str(SALLY): ["Temple"], str(JEFF): ["Library"]})
    t.declare(FRED, "barracks")
    t.react(PETER, "guard", "card")
    t.pass_all()
    t.react(SALLY, "call")
    t.pass_all()
    # Peter has one unrevealed card: it is shown without a choice
    assert t.of("ClaimProven")[-1].seat == PETER
    assert t.of("CallSettled")[-1].correct is False
    assert t.revealed(SALLY) == ["Temple"]  # her only card, fully revealed as her penalty
    assert t.unrevealed(PETER) == ["Barracks"]
