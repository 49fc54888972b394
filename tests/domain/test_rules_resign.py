"""Resigning (service ruling S2) and timeouts (service ruling S3), docs/rulings.md "Resigning" and "Timeouts".

S2 rests on R123 (what elimination does), R11, R12, A36, A51 (who wins then), R170 (the Overlord cannot be
eliminated), R73 (a thwarted action), R155, R156 (undo), R159 (Vengeance), R124 (an eliminated player's choices)
and R56, R60 (who calls). S3 records a decision the service's bot made when a seat's clock ran out.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from aegis.domain.everaegis.bots import make_bot
from aegis.domain.everaegis.evolve import closes_undo, fold
from aegis.domain.everaegis.flow import waiting
from aegis.domain.everaegis.narration import narrate
from aegis.domain.everaegis.prompts import legal_commands, prompts
from aegis.domain.everaegis.redaction import view
from aegis.domain.everaegis.ruleset import RULESET
from aegis.domain.everaegis.state import GameState
from aegis.domain.kernel.errors import GameOver, IllegalCommand, MalformedCommand, NotYourTurn, TooLate
from aegis.domain.kernel.events import Event
from aegis.domain.kernel.redaction import OMNISCIENT, SPECTATOR, redact_event
from tests.domain.test_card_effects import caltrops_table
from tests.domain.test_properties import MAX_TURNS, VARIANTS, check_views, make, play_checked, random_option
from tests.domain.test_rules_variants import CASES
from tests.helpers import Table

FOUR_REVEALED = [{"name": n, "revealed": True} for n in ("Temple", "Mason", "Barracks", "Treasury")]
NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve"]
T0 = 1000.0


def resign(t: Table, seat: int) -> list:
    return t.play({"type": "resign", "seat": seat})


def after(t: Table, seq: int) -> list[str]:
    return [e.TYPE for e in t.events if e.seq > seq]


def assert_never_offered(t: Table) -> None:
    """Resigning and timeouts are never prompt options: bots choose from prompts."""
    for seat in range(t.state.seats):
        assert all(c["type"] not in ("resign", "timeout") for c in t.legal(seat))


# ----- who may resign, and what it does (S2, R123) -----


def test_s2_r123_a_player_resigns_out_of_turn_is_eliminated_and_play_goes_on_without_them():
    rig = {"deck": ["Mason", "Temple", "Library"], "hands": {"2": ["Barracks", "Treasury"]}, "wall": 2, "soldiers": {"2": 7}}
    t = Table(4, rig=rig, names=NAMES[:4])
    assert t.kinds(0) == ["declare"]
    assert_never_offered(t)
    before = t.state.seq
    resign(t, 2)
    types = after(t, before)
    assert types[:2] == ["PlayerResigned", "PlayerEliminated"]
    assert types.count("CardRevealed") == 2 and "ItemDiscarded" in types and "SoldiersChanged" in types
    p = t.state.players[2]
    assert p.eliminated and t.state.departures.resigned == [2]
    assert t.revealed(2) == ["Barracks", "Treasury"] and t.unrevealed(2) == []  # R123: keeps every card, all revealed
    assert t.soldiers(2) == 0 and t.state.items.wall is None  # R123: items and soldiers discarded
    assert "resign" in t.of("PlayerEliminated")[-1].reason and "S2" in t.of("PlayerEliminated")[-1].reason
    # nothing else changed: it is still Ann's turn, and Cid is skipped from now on (R25)
    assert t.state.play.current == 0 and t.kinds(0) == ["declare"]
    for who in (0, 2, SPECTATOR):
        v = t.view(who)["players"]
        assert [pv["resigned"] for pv in v] == [False, False, True, False]
        assert not any(pv["abandoned"] for pv in v)
    assert RULESET.autoplayed(t.state) == [2]
    assert narrate(t.of("PlayerResigned")[-1].to_dict(), NAMES) == "Cid resigns and leaves the game"
    t.declare(0, "recruit")
    t.declare(1, "recruit")
    assert t.state.play.current == 3


def test_s2_r73_resigning_on_ones_own_turn_before_declaring_passes_the_turn_on():
    t = Table(4, rig={"deck": ["Mason", "Temple"]})
    before = t.state.seq
    resign(t, 0)
    types = after(t, before)
    assert "ActionDeclared" not in types and "ActionThwarted" not in types
    assert types[:2] == ["PlayerResigned", "PlayerEliminated"]
    assert types[types.index("TurnEnded") + 1] == "TurnBegan"
    assert t.of("TurnEnded")[-1].seat == 0
    assert t.of("TurnBegan")[-1].seat == 1 and t.state.play.current == 1
    assert t.kinds(1) == ["declare"]
    assert [e.phase for e in t.of("PhaseBegan") if e.seat == 0] == ["begin", "draw", "action"]  # no End Phase (R73)


def test_s2_r73_resigning_with_a_window_open_on_ones_own_action_thwarts_it_and_nothing_of_it_happens():
    t = Table(4, rig={"deck": ["Mason", "Temple"]}, names=NAMES[:4])
    t.declare(0, "treasury")  # a bluff: seat 0 holds only the Mason it drew
    t.react(1, "call")  # Bob's call stays private, and never comes to anything
    before = t.state.seq
    resign(t, 0)
    types = after(t, before)
    closed = t.of("ReactionWindowClosed")[-1]
    assert closed.by == "resigned"
    thwarted = t.of("ActionThwarted")[-1]
    assert thwarted.action == "treasury" and "resigned" in thwarted.reason and "R73" in thwarted.reason
    assert "BluffCalled" not in types and "ActionResolving" not in types
    assert types.index("ActionThwarted") < types.index("PlayerEliminated") < types.index("TurnEnded")
    assert t.soldiers(0) == 0 and t.state.calls.window is None and t.state.play.act is None
    assert t.state.play.current == 1 and t.kinds(1) == ["declare"]
    assert narrate(closed.to_dict(), NAMES) == "The window closes without effect: the declarer resigned"


def test_s2_r27_resigning_in_ones_own_draw_phase_drops_the_draw():
    """The Draw Phase draw waits for the current player's year choice (R34); resigning drops it."""
    t = Table(3, rig={"deck": [], "years": [["Temple"] * 5 + ["Mason"], ["Mason"] * 4 + ["Barracks"] * 2]})
    assert t.kinds(0) == ["choose_year"]
    resign(t, 0)
    assert t.state.play.draw_queue == [] or t.state.play.draw_queue[0][0] != 0
    assert not [e for e in t.of("CardDrawn") if e.seat == 0]
    assert t.of("TurnEnded")[-1].seat == 0 and t.state.play.current == 1
    assert t.kinds(1) == ["choose_year"]  # seat 1's own Draw Phase now asks seat 1


def test_s2_r56_an_asked_player_who_resigns_passes_and_the_window_goes_on():
    t = Table(4, rig={"deck": ["Mason", "Temple"], "hands": {"0": ["Treasury"]}})
    t.declare(0, "treasury")
    window = t.state.calls.window.id
    resign(t, 2)
    given = t.of("ReactionGiven")[-1]
    assert (given.seat, given.answer, given.window) == (2, "pass", window)
    assert redact_event(given.to_dict(), 1).get("answer") is None  # an answer is private until the window closes
    assert t.state.calls.window.waiting_for == [1, 3]
    t.pass_all()
    assert t.of("ReactionWindowClosed")[-1].answers["2"]["answer"] == "pass"
    assert t.soldiers(0) == 8  # the Treasury went ahead


def test_s2_a11_a_resigned_guard_claimant_cannot_prove_the_guard_and_it_falls():
    hands = {"0": ["Barracks"], "1": ["Barracks", "Temple"], "2": ["Mason", "Library"], "3": ["Mason", "Library"]}
    t = Table(4, rig={"deck": ["Treasury", "Temple"], "hands": hands})
    t.declare(0, "barracks")
    t.react(1, "guard", "card")
    t.pass_all()
    assert t.state.calls.window.about == "guard" and t.state.calls.window.claimant == 1
    t.react(0, "call")  # R68: the acting player may call a guard
    t.pass_all()
    assert t.kinds(1) == ["prove"]
    before = t.state.seq
    resign(t, 1)  # R123: every card of theirs is revealed, the Barracks they held too
    types = after(t, before)
    assert "ClaimProven" not in types
    exposed = t.of("BluffExposed")[-1]
    assert exposed.seat == 1 and exposed.card is None  # A11: no unrevealed card to show
    assert t.of("CallSettled")[-1].correct
    # the Barracks goes on without Bob (no longer an opponent to affect): Cid and Dee discard
    assert [n.seat for n in t.waiting()] == [2]
    t.play(t.legal(2)[0])
    t.play(t.legal(3)[0])
    assert t.of("ActionCompleted")[-1].action == "barracks"
    assert not [e for e in t.of("CardDiscarded") if e.seat == 1]


def test_s2_r58_a_resigned_caller_who_must_pay_has_nothing_left_to_pay():
    t = Table(4, rig={"deck": ["Mason", "Temple"], "hands": {"0": ["Treasury"], "1": ["Temple", "Library"]}})
    t.declare(0, "treasury")
    t.react(1, "call")
    t.pass_all()
    t.play({"type": "reveal", "seat": 0, "card": t.card(0, "Treasury")})
    assert t.kinds(1) == ["pay"]
    brigs = t.state.items.brig_supply
    resign(t, 1)
    settled = t.of("CallSettled")[-1]
    assert (settled.caller, settled.correct) == (1, False)
    assert t.state.items.brig_supply == brigs and not t.of("ItemGained")  # no BRIG: every card was revealed already
    assert t.soldiers(0) == 8  # the proven Treasury goes ahead (R58 (4))


@pytest.mark.parametrize("leaver", [1, 2])
def test_s2_r48_a_queued_barracks_discarder_who_resigns_leaves_the_queue(leaver):
    hands = {"0": ["Barracks"], **{str(s): ["Mason", "Library"] for s in (1, 2, 3)}}
    t = Table(4, rig={"deck": ["Treasury", "Temple"], "hands": hands})
    t.declare(0, "barracks")
    t.pass_all()
    assert t.state.play.act.queue == [1, 2, 3] and [n.seat for n in t.waiting()] == [1]
    resign(t, leaver)
    assert leaver not in t.state.play.act.queue
    while t.state.play.act is not None and t.state.play.act.action == "barracks":
        t.play(t.legal(t.waiting()[0].seat)[0])
    discarders = [e.seat for e in t.of("CardDiscarded")]
    assert sorted(discarders) == sorted({1, 2, 3} - {leaver})
    assert t.of("ActionCompleted")[-1].outcome == "2 opponents discarded"  # not the one who left
    assert t.revealed(leaver) == ["Library", "Mason"]  # R123: they keep their cards, all revealed


def test_s2_r118_a_resigning_holder_of_a_draw_reaction_lets_the_draw_happen():
    t = caltrops_table(holder=0)  # Fred holds the CALTROPS
    t.declare(0, "recruit")
    assert [(n.seat, n.kind) for n in t.waiting()] == [(0, "draw_reaction")]  # before Jeff's draw (R118)
    resign(t, 0)
    assert t.of("DrawReactionPassed")[-1].seat == 0 and not t.of("DrawStopped")
    assert len(t.state.players[1].cards) == 1 and t.kinds(1) == ["declare"]


def test_s2_r27_a_drawer_resigning_while_a_draw_reaction_is_asked_drops_the_draw_and_the_question():
    t = caltrops_table(holder=0)
    t.declare(0, "recruit")
    resign(t, 1)  # Jeff's own Draw Phase: his draw is dropped and nobody is asked about it any more
    assert t.state.players[1].cards == [] and t.of("TurnEnded")[-1].seat == 1
    assert t.state.play.current == 2 and [(n.seat, n.kind) for n in t.waiting()] == [(0, "draw_reaction")]  # Sally's draw


@pytest.mark.parametrize("vengeance", [0, 1])
def test_s2_r159_a32_the_temple_card_of_a_player_who_resigns_meanwhile_moves_except_under_vengeance(vengeance):
    hands = {"0": ["Temple"], "2": [{"name": "Mason", "revealed": True}, "Library"]}
    options = {"vengeance": 1} if vengeance else None
    t = Table(4, rig={"deck": ["Treasury", "Barracks"], "hands": hands}, options=options)
    card = t.card(2, "Mason")
    t.declare(0, "temple", card=card, recipient=3)
    resign(t, 2)  # the card's holder, asked in the window: a pass
    t.pass_all()
    moved = t.of("CardMoved")
    if vengeance:  # R159: nobody takes anything from an eliminated player
        assert not moved and t.state.owner_of(card) == 2 and "R159" in t.of("ActionCompleted")[-1].outcome
    else:  # A32: an eliminated player's revealed cards are still in play
        assert [(e.card, e.to_seat) for e in moved] == [(card, 3)]


@pytest.mark.parametrize("vengeance", [0, 1])
def test_s2_r159_r171_a_war_winner_takes_a_blasphemy_token_from_a_loser_who_resigns_except_under_vengeance(vengeance):
    rig = {"deck": ["Treasury", "Mason", "Temple", "Library"], "soldiers": {"0": 0, "1": 20}}
    t = Table(3, variants="simpleton+blasphemy", rig=rig, options={"vengeance": 1} if vengeance else None)
    t.declare(0, "treasury")  # the Blasphemy card is the Treasury: a token (R171)
    t.pass_all()
    t.declare(1, "war", target=0)
    assert [(n.seat, n.kind) for n in t.waiting()] == [(1, "spoils")] and t.state.variant.tokens == [1, 0, 0]
    resign(t, 0)  # the loser leaves while the winner is still to choose
    if vengeance:
        assert t.state.variant.offer is None and t.state.play.current == 2  # the war ended without spoils
        assert t.state.variant.tokens == [1, 0, 0]
    else:
        assert [(n.seat, n.kind) for n in t.waiting()] == [(1, "spoils")]
        t.play({"type": "spoils", "seat": 1, "answer": "take"})
        assert t.state.variant.tokens == [0, 1, 0]


# ----- setup: leader selection, Quick reveals, the first player (R18-R21, R164, R172) -----


@pytest.mark.parametrize("mode", ["limited", "freeform", "drafting"])
def test_s2_r19_r21_a_player_resigning_in_leader_selection_takes_no_part_in_the_rest_of_setup(mode):
    t = Table(4, variants="classic", options={"plain_unknown": 1}, selection=mode, seed=f"lead-{mode}")
    first = t.state.play.first_player
    leaver = (first + 2) % 4  # not the first to choose in Freeform or Drafting
    was_awaited = any(n.seat == leaver for n in t.waiting())
    resign(t, leaver)
    assert any(n.seat == leaver for n in t.waiting()) == was_awaited  # a choice already asked stays theirs
    assert RULESET.autoplayed(t.state) == [leaver]  # ... and the service makes it for them
    asked_after = set()
    while t.state.stage == "leaders":
        need = t.waiting()[0]
        asked_after.add(need.seat)
        t.play(t.options(need.seat)[0].command)  # for the resigned seat: as the service would, for them
    if not was_awaited:
        assert leaver not in asked_after  # nobody passes them mats, no Freeform pick comes to them
    assert t.state.stage == "turn" and t.of("TurnBegan")[0].seat == first
    assert t.soldiers(leaver) == 0 and all(t.soldiers(s) == 3 for s in range(4) if s != leaver)  # R18 step 6
    assert not [e for e in t.of("SoldiersChanged") if e.seat == leaver]


def test_s2_r164_a_player_resigning_during_quick_reveals_is_not_in_the_reveal_order_and_gets_no_turn():
    t = Table(4, variants="simpleton+quick", seed="quick")
    order = t.of("SetupRevealsBegan")[0].order
    t.play(t.legal(order[0])[0])
    later = order[2]
    resign(t, later)
    assert later not in t.state.play.reveal_queue and t.unrevealed(later) == []
    for seat in order[1:]:
        if seat != later:
            assert t.kinds(seat) == ["setup_reveal"]
            t.play(t.legal(seat)[0])
    assert t.of("TurnBegan")[0].seat == order[0]
    assert later not in [e.seat for e in t.of("TurnBegan")]


def test_s2_r18_the_first_player_resigning_before_turn_1_lets_the_next_remaining_seat_begin():
    t = Table(4, variants="simpleton+quick", seed="quick")
    first = t.state.play.first_player
    assert t.kinds(first) == ["setup_reveal"]
    resign(t, first)  # their reveal was awaited: they are out of the order altogether
    for seat in t.of("SetupRevealsBegan")[0].order[1:]:
        t.play(t.legal(seat)[0])
    began = t.of("TurnBegan")[0]
    assert (began.seat, began.turn) == ((first + 1) % 4, 1)


def test_s2_r18_a_player_resigning_before_the_deal_gets_no_starting_cards_or_soldiers():
    """Survival deals 6 each from a 12-card deck, so the first player chooses a year mid-deal (A46)."""
    t = Table(3, variants="simpleton+survival", seed="survive")
    first = t.state.play.first_player
    assert t.kinds(first) == ["choose_year"]
    leaver = (first + 1) % 3
    held = len(t.state.players[leaver].cards)
    resign(t, leaver)
    t.play(t.legal(first)[0])
    assert len(t.state.players[leaver].cards) == held  # no more cards come to them
    assert all(len(t.state.players[s].cards) == 6 for s in range(3) if s != leaver)
    assert t.state.stage == "turn" and t.state.play.current != leaver


@pytest.mark.parametrize("offset", [0, 2])
def test_s2_r172_artificers_gifts_skip_a_player_who_resigned_after_the_gift_already_asked_of_them(offset):
    t = Table(4, variants="classic+artificers", options={"plain_unknown": 1}, selection="simpleton", seed="gifts")
    assert t.state.stage == "artificers"
    leaver = (t.state.classic.gifting[0] + offset) % 4
    resign(t, leaver)
    resigned_at = t.state.seq
    if offset == 0:  # they were asked for a gift: it stays theirs, and the service makes it for them
        assert [n.seat for n in t.waiting()] == [leaver] and RULESET.autoplayed(t.state) == [leaver]
        t.play(t.legal(leaver)[0])
    while t.state.stage == "artificers":
        seat = t.waiting()[0].seat
        assert seat != leaver  # they give nothing more
        t.play(t.legal(seat)[0])
    later = [e for e in t.of("ArtificerGave") if e.seq > resigned_at]
    theirs = [e for e in later if leaver in (e.seat, e.to)]
    assert later and [e.seat for e in theirs] == ([leaver] if offset == 0 else [])  # and they receive nothing
    assert all(len(t.state.items_of(s)) + (t.state.items.wall == s) >= 3 for s in t.state.remaining())  # R172, A49
    assert t.state.stage == "turn" and t.soldiers(leaver) == 0


# ----- who wins (R11, R12, A36, A51, R163, R170) -----


def test_s2_r11_the_last_player_remaining_wins_at_once_and_is_named():
    t = Table(3, rig={"deck": ["Mason", "Temple"]}, names=NAMES[:3])
    resign(t, 1)
    assert t.state.status == "active"
    resign(t, 0)  # on their own turn: the game ends instead of the turn
    end = t.of("GameEnded")[-1]
    assert (end.result, end.winners) == ("win", [2]) and "R11" in end.reason
    assert "TurnEnded" not in [e.TYPE for e in t.events if e.seq > t.of("PlayerResigned")[-1].seq]
    assert narrate(end.to_dict(), NAMES).startswith("Cid wins")
    with pytest.raises(GameOver):
        resign(t, 2)


def test_s2_a51_r163_when_the_remaining_players_are_all_allies_they_share_the_win():
    t = Table(5, variants="simpleton+alliances", rig={"deck": ["Mason", "Temple"]})
    for seat in (2, 3):
        resign(t, seat)
        assert t.state.status == "active"
    resign(t, 4)  # Ann and Bob are left, each the other's ally
    end = t.of("GameEnded")[-1]
    assert (end.result, end.winners) == ("win", [0, 1]) and "A51" in end.reason


def test_s2_r170_the_overlord_resigning_concedes_to_the_team():
    t = Table(4, variants="simpleton+overlord", rig={"deck": ["Mason", "Temple"]})
    overlord = t.state.variant.overlord
    assert overlord == 3
    resign(t, 1)  # a team member is eliminated like anyone
    assert t.state.players[1].eliminated and t.state.status == "active"
    before = t.state.seq
    resign(t, overlord)
    assert "PlayerEliminated" not in after(t, before)  # R170: the Overlord cannot be eliminated
    end = t.of("GameEnded")[-1]
    assert (end.result, end.winners) == ("win", [0, 2]) and "R170" in end.reason and "S2" in end.reason


# ----- refusals (S2) -----


def test_s2_resigning_twice_or_once_eliminated_is_refused_and_after_the_end_the_game_is_over():
    t = Table(4, rig={"deck": ["Mason", "Temple"], "hands": {"1": FOUR_REVEALED}})
    resign(t, 2)
    with pytest.raises(TooLate) as err:
        resign(t, 2)
    assert err.value.rule == "S2" and "already resigned" in err.value.message
    t.declare(0, "recruit")  # seat 1 is eliminated in the Demise Phase (R30)
    assert t.state.players[1].eliminated
    with pytest.raises(TooLate) as err:
        resign(t, 1)
    assert err.value.rule == "S2" and "eliminated" in err.value.message
    with pytest.raises(MalformedCommand):
        resign(t, 7)
    resign(t, 3)
    assert t.state.status == "finished"
    with pytest.raises(GameOver):
        resign(t, 0)


def test_s2_r173_a_mob_cannot_resign():
    t = Table(4, mobs=[2], rig={"deck": ["Mason", "Temple"]})
    with pytest.raises(IllegalCommand) as err:
        resign(t, 2)
    assert err.value.rule == "R173"


def test_s2_r159_a_resigned_player_never_calls_again_under_vengeance():
    hands = {"0": ["Mason"], "1": FOUR_REVEALED}
    t = Table(4, rig={"deck": ["Temple", "Library", "Barracks"], "hands": hands}, options={"vengeance": 1})
    t.declare(0, "recruit")  # seat 1 is eliminated at the Demise; under Vengeance they may still call (R159)
    with pytest.raises(TooLate) as err:
        resign(t, 1)  # already out, under Vengeance too
    assert err.value.rule == "S2"
    resign(t, 2)
    assert not t.state.may_call(2, 1) and t.state.may_call(1, 3)
    t.declare(3, "treasury")
    assert t.state.calls.window.asked == [0, 1]  # the eliminated seat 1 is asked (R159); Cid, who resigned, is not
    with pytest.raises(NotYourTurn):
        t.react(2, "call")


# ----- undo (R155, R156) -----


def _undo_table(seats: int = 3) -> Table:
    return Table(seats, rig={"deck": ["Mason"], "hands": {"0": ["Laboratory"]}}, reaction_seconds=10, now=T0)


def test_s2_r156_a_resignation_ends_an_undo_that_could_still_be_claimed():
    t = _undo_table(4)
    t.play({"type": "declare", "seat": 0, "action": "treasury", "at": T0})
    window = t.state.calls.window.id
    for seat in (1, 3):
        t.play({"type": "react", "seat": seat, "window": window, "answer": "pass", "at": T0 + 1})
    t.play({"type": "close_window", "window": window, "at": T0 + 10})
    assert t.kinds(2) == ["undo"]
    resign(t, 1)
    assert t.state.undo is None and "undo" not in t.kinds(2)
    with pytest.raises(TooLate) as err:
        t.play({"type": "undo", "seat": 2, "window": window, "answer": "claim", "at": T0 + 11})
    assert err.value.rule == "R156"
    assert t.soldiers(0) == 8  # the Treasury stands
    assert closes_undo({"type": "PlayerResigned", "seat": 1})


def test_s2_r156_no_undo_forms_from_a_window_open_when_someone_resigned():
    t = _undo_table(4)
    t.play({"type": "declare", "seat": 0, "action": "treasury", "at": T0})
    window = t.state.calls.window.id
    resign(t, 1)  # asked: they pass
    t.play({"type": "react", "seat": 3, "window": window, "answer": "pass", "at": T0 + 1})
    t.play({"type": "close_window", "window": window, "at": T0 + 10})  # seat 2 never answered
    assert t.of("ReactionWindowClosed")[-1].timed_out == [2]
    assert not t.of("UndoPauseBegan") and t.state.undo is None


# ----- timeouts (S3) -----


def timeout(t: Table, seat: int, kind: str, play: dict, *, count: int = 1, abandon: bool = False, at: float = T0 + 30):
    command = {"type": "timeout", "seat": seat, "kind": kind, "deadline": T0 + 30, "count": count, "abandon": abandon}
    return t.play({**command, "play": play, "at": at})


def test_s3_a_timed_out_declaration_records_the_timeout_then_exactly_the_actions_events():
    t = Table(4, rig={"deck": ["Mason", "Temple"]}, names=NAMES[:4], now=T0)
    play = {"type": "declare", "seat": 0, "action": "recruit"}
    from aegis.domain.everaegis.decide import decide

    expected = [e.TYPE for e in decide(t.state, {**play, "at": T0 + 31})]
    before = t.state.seq
    new = timeout(t, 0, "declare", play, count=2, at=T0 + 31)
    assert [e.seq for e in new] == list(range(before + 1, before + 1 + len(new)))  # numbered consecutively
    record = new[0]
    assert (record.TYPE, record.seat, record.kind, record.count, record.deadline) == (
        "DecisionTimedOut",
        0,
        "declare",
        2,
        T0 + 30,
    )
    assert record.played == play and record.audience == [0]
    assert [e.TYPE for e in new[1:]] == expected
    assert t.soldiers(0) == 5 and t.state.play.current == 1
    others = narrate(redact_event(record.to_dict(), 1), NAMES)
    assert others == "Ann ran out of time to declare an action; the server decided for them (2 in a row)"
    assert narrate(redact_event(record.to_dict(), 0), NAMES) == others + ": Recruit"
    assert "SeatAbandoned" not in t.types() and RULESET.autoplayed(t.state) == []


def test_s3_a53_what_the_server_played_is_hidden_from_the_others_and_the_spectator():
    hands = {"0": ["Barracks"], "1": ["Mason", "Library"]}
    t = Table(4, rig={"deck": ["Treasury", "Temple"], "hands": hands}, now=T0)
    t.declare(0, "barracks")
    t.pass_all()
    assert t.kinds(1) == ["barracks_discard"]
    card = t.card(1, "Library")
    timeout(t, 1, "barracks_discard", {"type": "discard", "seat": 1, "card": card})
    record = t.of("DecisionTimedOut")[-1].to_dict()
    for reader in (0, 2, 3, SPECTATOR):
        seen = redact_event(record, reader)
        assert "played" not in seen and card not in str(seen)
    assert redact_event(record, 1)["played"]["card"] == card
    assert card in narrate(redact_event(record, 1), NAMES)
    assert t.of("CardDiscarded")[-1].seat == 1


def test_s3_abandoning_a_seat_records_it_and_a_bot_plays_it_from_then_on():
    t = Table(4, rig={"deck": ["Mason", "Temple", "Library", "Barracks", "Mason"]}, names=NAMES[:4], now=T0)
    new = timeout(t, 0, "declare", {"type": "declare", "seat": 0, "action": "recruit"}, count=3, abandon=True)
    assert [e.TYPE for e in new[:3]] == ["DecisionTimedOut", "SeatAbandoned", "ActionDeclared"]
    abandoned = new[1]
    assert (abandoned.seat, abandoned.count) == (0, 3)
    assert (
        "played" not in redact_event(new[0].to_dict(), SPECTATOR) and redact_event(abandoned.to_dict(), SPECTATOR)["count"] == 3
    )
    assert narrate(abandoned.to_dict(), NAMES) == (
        "Ann let 3 decisions in a row run out of time: a bot plays for them for the rest of the game"
    )
    assert RULESET.autoplayed(t.state) == [0] and t.state.departures.abandoned == [0]
    assert t.view(SPECTATOR)["players"][0]["abandoned"] and not t.state.players[0].eliminated  # still in the game
    for seat in (1, 2, 3):
        t.declare(seat, "recruit")
    again = timeout(t, 0, "declare", {"type": "declare", "seat": 0, "action": "recruit"}, count=4, abandon=True)
    assert [e.TYPE for e in again[:2]] == ["DecisionTimedOut", "ActionDeclared"]  # abandoned once, recorded once


@pytest.mark.parametrize(
    ("seat", "kind", "play", "at", "error", "words"),
    [
        (0, "declare", {"type": "declare", "seat": 0, "action": "recruit"}, T0 + 29, IllegalCommand, "not run out"),
        (1, "declare", {"type": "declare", "seat": 1, "action": "recruit"}, T0 + 30, TooLate, "not asked"),
        (0, "declare", {"type": "declare", "seat": 1, "action": "recruit"}, T0 + 30, IllegalCommand, "seat 0"),
        (0, "declare", {"type": "reveal", "seat": 0, "card": "x"}, T0 + 30, IllegalCommand, "'declare' command"),
        (0, "react", {"type": "react", "seat": 0, "window": 1, "answer": "pass"}, T0 + 30, IllegalCommand, "own deadline"),
    ],
)
def test_s3_a_timeout_is_refused_unless_due_awaited_not_a_window_and_the_seats_own(seat, kind, play, at, error, words):
    t = Table(4, rig={"deck": ["Mason", "Temple"]}, now=T0)
    before = t.state.seq
    with pytest.raises(error) as err:
        timeout(t, seat, kind, play, at=at)
    assert err.value.rule == "S3" and words in err.value.message
    assert t.state.seq == before


def test_s3_a_window_answer_is_never_timed_out_it_closes_at_its_deadline():
    t = Table(4, rig={"deck": ["Mason", "Temple"]}, reaction_seconds=10, now=T0)
    t.play({"type": "declare", "seat": 0, "action": "treasury", "at": T0})
    window = t.state.calls.window.id
    with pytest.raises(IllegalCommand) as err:
        timeout(t, 1, "react", {"type": "react", "seat": 1, "window": window, "answer": "pass"})
    assert err.value.rule == "S3"
    assert RULESET.window_kinds == frozenset({"react", "undo"})
    assert RULESET.system_commands == frozenset({"close_window", "close_undo", "timeout"})


def test_s3_an_illegal_play_is_refused_like_any_command_and_nothing_is_recorded():
    t = Table(4, rig={"deck": ["Mason", "Temple"], "soldiers": {"0": 0}}, now=T0)
    before = t.state.seq
    with pytest.raises(IllegalCommand) as err:
        timeout(t, 0, "declare", {"type": "declare", "seat": 0, "action": "war", "target": 1})
    assert err.value.rule == "R77"
    assert t.state.seq == before and not t.of("DecisionTimedOut")


def test_s3_after_the_end_no_decision_can_time_out():
    t = Table(3, rig={"deck": ["Mason", "Temple"]}, now=T0)
    resign(t, 1)
    resign(t, 2)
    with pytest.raises(GameOver) as err:
        timeout(t, 0, "declare", {"type": "declare", "seat": 0, "action": "recruit"})
    assert err.value.rule == "S3"


@pytest.mark.parametrize("bad", [{"count": 0}, {"abandon": "yes"}, {"play": "recruit"}, {"deadline": None}])
def test_s3_a_malformed_timeout_is_refused(bad):
    t = Table(4, rig={"deck": ["Mason", "Temple"]}, now=T0)
    command = {"type": "timeout", "seat": 0, "kind": "declare", "deadline": T0, "count": 1, "abandon": False, "at": T0}
    command["play"] = {"type": "declare", "seat": 0, "action": "recruit"}
    with pytest.raises(MalformedCommand):
        t.play({**command, **bad})


def test_s3_r156_an_abandoned_seat_stays_abandoned_when_an_undo_rewinds_past_its_abandonment():
    hands = {"0": ["Barracks"], **{str(s): ["Mason", "Library"] for s in (1, 2, 3)}}
    t = Table(4, rig={"deck": ["Treasury", "Temple"], "hands": hands}, reaction_seconds=10, now=T0)
    t.play({"type": "declare", "seat": 0, "action": "barracks", "at": T0})
    window = t.state.calls.window.id
    for seat in (1, 3):
        t.play({"type": "react", "seat": seat, "window": window, "answer": "pass", "at": T0 + 1})
    t.play({"type": "close_window", "window": window, "at": T0 + 10})  # seat 2 had not answered
    assert t.kinds(1) == ["barracks_discard"] and t.state.undo is not None
    card = t.card(1, "Mason")
    timeout(t, 1, "barracks_discard", {"type": "discard", "seat": 1, "card": card}, count=3, abandon=True)
    assert t.state.departures.abandoned == [1]
    while t.kinds(2) != ["undo"]:
        t.play(t.legal(t.waiting()[0].seat)[0])
    t.play({"type": "undo", "seat": 2, "window": window, "answer": "claim", "at": T0 + 40})
    assert t.of("UndoClaimed")
    assert t.state.departures.abandoned == [1] and t.view(1)["players"][1]["abandoned"]


# ----- property: random games in which players resign and clocks run out (S2, S3) -----

FAIRPLAY_CASES = [(v, 3) for v in VARIANTS] + [(v + ":simpleton" if v.startswith("classic") else v, n) for v, n in CASES]


class Fairplay:
    """The next command of a random game in which, now and then, a remaining player resigns (S2) or an awaited
    seat lets its clock run out (S3: the cautious bot plays from that seat's own view and prompts); seats that
    resigned or were abandoned are played by the cautious bot, as the service plays them."""

    def __init__(self, seed: int, resign_chance: float, timeout_chance: float):
        self.seed = seed
        self.resign_chance = resign_chance
        self.timeout_chance = timeout_chance
        self.streak: dict[int, int] = {}
        self.resigns = self.timeouts = 0

    def bot_play(self, state: GameState, seat: int, kind: str) -> dict:
        asked = [p for p in prompts(state, seat) if p.kind == kind]
        command = make_bot("cautious", self.seed * 31 + seat + state.seq).choose(view(state, seat), asked)
        assert command is not None
        return command

    def __call__(self, state: GameState, rng: random.Random) -> dict:
        assert all(p.options for p in prompts(state)), "a prompt with no option"
        for seat in range(state.seats):
            assert all(c["type"] not in ("resign", "timeout") for c in legal_commands(state, seat))
        people = [seat for seat in state.remaining() if not state.is_mob(seat)]
        if people and rng.random() < self.resign_chance:
            self.resigns += 1
            return {"type": "resign", "seat": rng.choice(people)}
        need = waiting(state)[0]
        if need.seat in state.autoplayed():
            return self.bot_play(state, need.seat, need.kind)
        if need.kind not in RULESET.window_kinds and rng.random() < self.timeout_chance:
            count = self.streak[need.seat] = self.streak.get(need.seat, 0) + 1
            self.timeouts += 1
            play = self.bot_play(state, need.seat, need.kind)
            command = {"type": "timeout", "seat": need.seat, "kind": need.kind, "deadline": 5, "count": count}
            return {**command, "abandon": count >= 3, "play": play, "at": 5}  # abandoned at the 3rd: the default
        self.streak[need.seat] = 0
        return random_option(state, rng)


def check_out(state: GameState) -> None:
    """S2, R123: in a settled state every player who resigned is eliminated (the Overlord's resigning ended the
    game), holds no soldier, no item and no unrevealed card."""
    for seat in state.departures.resigned:
        p = state.players[seat]
        if seat == state.variant.overlord:  # R170: not eliminated, it conceded
            assert state.status == "finished" and not p.eliminated
            continue
        assert p.eliminated
        assert p.soldiers == 0 and not p.brigs and not p.sanctions and not state.items_of(seat)
        assert seat not in (state.items.wall, state.items.treaty, state.items.quill) and not p.unrevealed


def play_fairplay(seats: int, variants: str, seed: int, extra: dict | None, chances: tuple[float, float]) -> Fairplay:
    config = make(seats, variants, extra)
    chooser = Fairplay(seed, *chances)
    log: list = []

    def choose(state: GameState, rng: random.Random) -> dict:
        check_out(state)
        return chooser(state, rng)

    def after_event(state: GameState, e: Event) -> None:
        log.append(e)
        if e.TYPE == "TurnBegan":
            assert not state.players[e.seat].eliminated  # S2: a turn never begins for an eliminated player
        if e.TYPE == "ReactionWindowOpened":
            assert not set(e.asked) & set(state.departures.resigned)  # S2: a resigned player is never asked to call

    state = play_checked(seats, variants, seed, check_views_every=5, config=config, after_event=after_event, choose=choose)
    assert state.status == "finished" or state.play.turn > MAX_TURNS
    replayed = fold(config, log)
    assert replayed.seq == state.seq and view(replayed, OMNISCIENT) == view(state, OMNISCIENT)  # the log folds back
    assert replayed.departures == state.departures
    check_out(state)
    check_views(state)
    return chooser


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    case=st.sampled_from(FAIRPLAY_CASES),
    extra_seats=st.integers(0, 4),
    seed=st.integers(0, 10**9),
    extra=st.sampled_from([None, {"vengeance": 1}, {"rubble_rouser": 1, "discovery": 1}]),
    chances=st.sampled_from([(0.01, 0.05), (0.03, 0.2), (0.0, 0.5)]),
)
def test_s2_s3_random_games_with_resignations_and_timeouts_conserve_cards_and_end(case, extra_seats, seed, extra, chances):
    variants, fewest = case
    play_fairplay(min(fewest + extra_seats, 8), variants, seed, extra, chances)


def test_r172_r163_s2_the_artificers_gifts_end_when_only_allies_are_short_of_items():
    """Found by the property above: at 6 seats under Alliances, three seats resign during the Artificers gifts and
    the only remaining players short of 3 items are every giver's allies, to whom no gift goes. The gifts end
    (they used to pass from giver to giver for ever)."""
    play_fairplay(6, "classic+artificers+alliances:simpleton", 1, None, (0.03, 0.2))


def test_s2_s3_every_variant_plays_to_its_end_through_resignations_and_timeouts():
    """One game of each variant at 5 seats (Alliances: its fewest), so the property above is never vacuous."""
    resigns = timeouts = 0
    for i, (variants, fewest) in enumerate(FAIRPLAY_CASES):
        played = play_fairplay(max(5, fewest), variants, i, None, (0.02, 0.3))
        resigns += played.resigns
        timeouts += played.timeouts
    assert resigns >= len(FAIRPLAY_CASES) // 2 and timeouts >= 5 * len(FAIRPLAY_CASES)


def test_s3_what_the_server_played_reads_the_same_under_a_kind_and_its_older_type():
    """A bot's command names its decision kind (prove, sanction_discard, take_brig, draw_reaction...); the timed-out
    seat reads it in the same words as the older generic type it answers for (reveal, discard, take, draw_react)."""
    from aegis.domain.everaegis.narration import played_words

    def who(seat):
        return NAMES[seat]

    for kind, older, extra in (
        ("prove", "reveal", {"card": "c1"}),
        ("war_reveal", "reveal", {"cards": ["c1", "c2"]}),
        ("barracks_discard", "discard", {"card": "c1"}),
        ("take_brig", "take", {"item": "BRIG", "from": 1}),
        ("draw_reaction", "draw_react", {"answer": "pass"}),
    ):
        words = played_words({"type": kind, "seat": 0, **extra}, who)
        assert words == played_words({"type": older, "seat": 0, **extra}, who) and words != kind
