"""The reaction protocol and the actions that are not items (R38-R73, R44-R53, A1-A4, A10-A13, A16, A19, A21)."""

from __future__ import annotations

import pytest

from aegis.domain.everaegis.decide import decide
from aegis.domain.kernel.errors import IllegalCommand, MalformedCommand, NotYourTurn
from tests.helpers import Table, offered

# ----- windows and deadlines (A1, RULINGS: when it closes) -----


def test_a1_a_window_carries_its_deadline_and_closes_on_the_services_command():
    t = Table(4, rig={"deck": ["Mason"]}, reaction_seconds=30, now=1000.0)
    t.play({"type": "declare", "seat": 0, "action": "treasury", "at": 1005.0})
    opened = t.of("ReactionWindowOpened")[-1]
    assert opened.deadline == 1035.0
    assert t.prompts(1)[0].deadline == 1035.0
    t.play({"type": "react", "seat": 2, "window": opened.window, "answer": "pass", "at": 1010.0})
    with pytest.raises(IllegalCommand) as err:
        t.play({"type": "close_window", "window": opened.window, "at": 1034.9})
    assert err.value.rule == "A1"
    t.play({"type": "close_window", "window": opened.window, "at": 1035.0})
    closed = t.of("ReactionWindowClosed")[-1]
    assert (closed.by, closed.timed_out) == ("deadline", [1, 3])  # recorded as not having given permission
    assert t.soldiers(0) == 8  # nobody called: the Treasury went ahead


def test_a1_without_a_deadline_only_the_answers_close_a_window():
    t = Table(4, rig={"deck": ["Mason"]}, reaction_seconds=0)
    t.declare(0, "treasury")
    window = t.of("ReactionWindowOpened")[-1]
    assert window.deadline is None
    with pytest.raises(IllegalCommand):
        t.play({"type": "close_window", "window": window.window, "at": 10**9})
    t.pass_all()
    assert t.of("ReactionWindowClosed")[-1].by == "answers"


def test_a1_closing_a_window_that_is_not_open_is_refused():
    t = Table(4, rig={"deck": ["Mason"]}, reaction_seconds=30, now=0.0)
    with pytest.raises(IllegalCommand) as err:
        t.play({"type": "close_window", "window": 7, "at": 100.0})
    assert "not open" in err.value.message


def test_r39_each_asked_player_answers_once():
    t = Table(4, rig={"deck": ["Mason"]})
    t.declare(0, "treasury")
    t.react(1, "pass")
    with pytest.raises(NotYourTurn) as err:
        t.react(1, "call")
    assert (err.value.rule, err.value.message) == ("A1", "you have already answered in this window")


@pytest.mark.parametrize(
    ("rig", "seat", "rule"),
    [
        ({"treaty": {"holder": 1, "giver": 0}}, 1, "R107"),  # TREATY parties cannot call each other
        ({"brigs": {"2": 1}}, 2, "A37"),  # a BRIG holder cannot call
        ({}, 0, "R67"),  # nor can the claimant
    ],
)
def test_a_player_who_may_not_call_is_told_which_rule_stops_them(rig, seat, rule):
    t = Table(4, rig={"deck": ["Mason"], **rig})
    t.declare(0, "treasury")
    window = t.state.calls.window.id
    with pytest.raises(NotYourTurn) as err:
        t.play({"type": "react", "seat": seat, "window": window, "answer": "call"})
    assert err.value.rule == rule


# ----- who is asked (RULINGS: who is asked; R61, R67, R71, A16) -----


def test_r61_recruit_and_war_open_no_window():
    t = Table(4, rig={"deck": ["Mason", "Temple"]})
    t.declare(0, "recruit")
    t.declare(1, "war", target=2)
    assert not t.of("ReactionWindowOpened")


def test_everyone_else_who_may_call_is_asked_about_a_bluff_action():
    t = Table(5, rig={"deck": ["Mason"], "brigs": {"3": 1}})
    t.declare(0, "treasury")
    assert t.of("ReactionWindowOpened")[-1].asked == [1, 2, 4]  # seat 3 holds a BRIG and cannot call (A37)


def test_a16_only_players_the_action_affects_may_guard():
    """Treasury affects only the declarer: nobody is offered a guard; Barracks affects every opponent."""
    t = Table(4, rig={"deck": ["Mason"]})
    t.declare(0, "treasury")
    assert {o.command["answer"] for o in t.prompts(1)[0].options} == {"pass", "call"}
    t2 = Table(4, rig={"deck": ["Mason"]})
    t2.declare(0, "barracks")
    assert {o.command["answer"] for o in t2.prompts(1)[0].options} == {"pass", "call", "guard"}


def test_r71_mason_pierces_no_guard_is_offered_even_with_the_wall():
    t = Table(4, rig={"deck": ["Mason"], "wall": 1})
    t.declare(0, "mason", give_wall=2)
    answers = {o.command["answer"] for o in t.prompts(1)[0].options}
    assert answers == {"pass", "call"}


def test_a16_temple_can_be_guarded_by_the_cards_owner_or_the_recipient_only():
    rig = {"deck": ["Mason"], "hands": {"1": [{"name": "Library", "revealed": True}]}}
    t = Table(4, rig=rig)
    card = t.card(1, "Library")
    t.declare(0, "temple", card=card, recipient=2)
    guards = {p.seat for p in t.prompts() if p.kind == "react" and any(o.command["answer"] == "guard" for o in p.options)}
    assert guards == {1, 2}


def test_r66_a_temple_guarded_by_the_owner_moves_nothing():
    rig = {"deck": ["Mason"], "hands": {"1": [{"name": "Library", "revealed": True}]}}
    t = Table(4, rig=rig)
    card = t.card(1, "Library")
    t.declare(0, "temple", card=card, recipient=2)
    t.react(1, "guard", "card")
    t.pass_all()
    t.pass_all()  # nobody calls the guard
    assert t.of("ActionCompleted")[-1].outcome.startswith("guarded")
    assert t.revealed(1) == ["Library"] and not t.state.players[2].sanctions


# ----- calls (R55-R60, A10-A13) -----


def test_a10_the_called_claimant_chooses_which_card_to_show():
    t = Table(4, rig={"deck": ["Mason"], "hands": {"0": ["Treasury", "Library"]}})
    t.declare(0, "treasury")
    t.react(1, "call")
    t.pass_all()
    assert t.kinds(0) == ["prove"]
    shown = {c["card"] for c in t.legal(0)}
    assert shown == {c.id for c in t.state.players[0].unrevealed}
    # a declarer holding the card may still show another one: the claim is then exposed (R59)
    t.play({"type": "reveal", "seat": 0, "card": t.card(0, "Library")})
    assert t.of("BluffExposed")[-1].name == "Library"
    assert t.soldiers(0) == 3


def test_r58_a_proof_is_shown_then_unrevealed_and_the_action_goes_ahead():
    t = Table(4, rig={"deck": ["Treasury"], "hands": {"1": ["Library", "Mason"]}})
    t.declare(0, "treasury")
    t.react(1, "call")
    t.pass_all()  # seat 0 holds only the Treasury it drew: shown without a choice
    proof = t.of("CardRevealed")[-1]
    assert (proof.seat, proof.full) == (0, False)
    assert t.revealed(0) == []
    assert t.kinds(1) == ["pay"]
    t.play({"type": "reveal", "seat": 1, "card": t.card(1, "Mason")})
    assert t.revealed(1) == ["Mason"]
    assert t.soldiers(0) == 8


def test_a13_one_call_per_claim_later_callers_are_void():
    t = Table(5, rig={"deck": ["Treasury"], "hands": {"1": ["Library"], "3": ["Mason"], "4": ["Temple"]}})
    t.declare(0, "treasury")
    for seat in (4, 3, 1):
        t.react(seat, "call")
    t.pass_all()
    called = t.of("BluffCalled")
    assert len(called) == 1 and (called[0].caller, called[0].void_calls) == (1, [3, 4])
    assert t.revealed(3) == [] and t.revealed(4) == []


def test_r68_a_card_guard_opens_its_own_window_where_the_declarer_may_call():
    t = Table(4, rig={"deck": ["Mason"], "hands": {"2": ["Temple"]}})
    t.declare(0, "barracks")
    t.react(2, "guard", "card")
    t.pass_all()
    guard = t.of("ReactionWindowOpened")[-1]
    assert (guard.claimant, guard.claim, guard.about) == (2, "Barracks", "guard")
    assert guard.asked == [0, 1, 3]
    options = {o.command["answer"] for o in t.prompts(0)[0].options}
    assert options == {"pass", "call"}  # nobody guards a guard


# ----- actions (R44-R53, A19, A21, A32) -----


def test_r44_r49_recruit_and_treasury_gain_soldiers():
    t = Table(4, rig={"deck": ["Mason", "Temple"]})
    t.declare(0, "recruit")
    t.declare(1, "treasury")
    t.pass_all()
    assert (t.soldiers(0), t.soldiers(1)) == (5, 8)


def test_r48_barracks_each_opponent_chooses_a_card_in_turn_order():
    t = Table(4, rig={"deck": ["Mason"], "hands": {"1": ["Temple", "Library"], "2": ["Treasury"], "3": []}})
    t.declare(0, "barracks")
    t.pass_all()
    assert t.kinds(1) == ["barracks_discard"]
    t.play({"type": "discard", "seat": 1, "card": t.card(1, "Library")})
    discards = t.of("CardDiscarded")
    assert [(e.seat, e.name) for e in discards] == [(1, "Library"), (2, "Treasury")]
    assert "Temple" in t.unrevealed(1) and "Library" not in t.unrevealed(1)
    assert t.of("ActionCompleted")[-1].outcome == "2 opponents discarded"  # seat 3 had nothing to discard


def test_r48_a_barracks_that_finds_nothing_to_discard_says_no_opponent_discarded():
    t = Table(4, rig={"deck": ["Mason"], "hands": {"1": [], "2": [], "3": [{"name": "Temple", "revealed": True}]}})
    t.declare(0, "barracks")
    t.pass_all()
    assert not t.of("CardDiscarded")
    assert t.of("ActionCompleted")[-1].outcome == "no opponent discarded"


def test_r96_a_discarded_card_gets_a_new_id_in_the_deck():
    t = Table(4, rig={"deck": ["Mason", "Laboratory"], "hands": {"1": ["Temple"]}})
    old = t.card(1, "Temple")
    t.declare(0, "barracks")
    t.pass_all()
    discarded = t.of("CardDiscarded")[-1]
    assert discarded.card == old and discarded.new_card != old
    assert discarded.position in (0, 1) and discarded.deck_size == 2  # shuffled in at random (R96)
    assert old not in t.state.all_card_ids()
    # the card is in the deck under its new id only: whoever draws it cannot tell it is the same card
    cards = {c.id: c.name for c in [*t.state.deck, *(c for p in t.state.players for c in p.cards)]}
    assert cards[discarded.new_card] == "Temple"


def test_r46_temple_moves_a_revealed_card_and_sanctions_the_matching_action():
    rig = {"deck": ["Mason"], "hands": {"1": [{"name": "Library", "revealed": True}]}}
    t = Table(4, rig=rig, names=["Ann", "Ben", "Cat", "Dan"])
    t.declare(0, "temple", card=t.card(1, "Library"), recipient=2)
    # the reaction prompts say all the claim would do, to whom: the SANCTION the recipient gets too
    does = {seat: next(p for p in t.prompts(seat) if p.kind == "react").about["does"] for seat in (1, 2)}
    assert does[2] == "give Ben's revealed Library to you, then SANCTION your Library (R46)"
    assert does[1] == "give your revealed Library to Cat, then SANCTION Cat's Library (R46)"
    t.pass_all()
    moved = t.of("CardMoved")[-1]
    assert (moved.from_seat, moved.to_seat, moved.name) == (1, 2, "Library")
    assert t.revealed(2) == ["Library"] and t.revealed(1) == []
    assert t.state.players[2].sanctions == ["library"]


def test_a19_temple_does_not_add_a_second_sanction():
    rig = {"deck": ["Mason"], "hands": {"1": [{"name": "Library", "revealed": True}]}, "sanctions": {"2": ["library"]}}
    t = Table(4, rig=rig)
    t.declare(0, "temple", card=t.card(1, "Library"), recipient=2)
    assert "your Library is SANCTIONED already: no second SANCTION (A19)" in next(
        p for p in t.prompts(2) if p.kind == "react"
    ).about["does"]
    t.pass_all()
    assert t.of("SanctionNotPlaced")[-1].reason.startswith("already sanctioned")
    assert t.state.players[2].sanctions == ["library"]


def test_a32_an_eliminated_players_revealed_cards_can_be_given_by_temple():
    rig = {
        "deck": ["Mason", "Temple"],
        "hands": {"1": [{"name": n, "revealed": True} for n in ("Library", "Mason", "Barracks", "Treasury")]},
    }
    t = Table(4, rig=rig)
    t.declare(0, "recruit")
    assert t.state.players[1].eliminated
    card = t.card(1, "Library")
    plans = [c for c in t.legal(2) if c["action"] == "temple" and c.get("card") == card]
    assert plans and all(c["recipient"] != 1 for c in plans)  # an eliminated player receives nothing


def test_a21_laboratory_draws_two_then_puts_two_back_in_the_chosen_order():
    t = Table(4, rig={"deck": ["Mason", "Temple", "Library", "Barracks"]})
    t.declare(0, "laboratory")
    t.pass_all()
    assert sorted(t.unrevealed(0)) == ["Library", "Mason", "Temple"]
    assert t.kinds(0) == ["put_back"]
    assert len(t.legal(0)) == 6  # ordered pairs of 3 cards
    top, second = t.card(0, "Temple"), t.card(0, "Mason")
    t.play({"type": "put_back", "seat": 0, "cards": [top, second]})
    assert t.unrevealed(0) == ["Library"]
    put = t.of("CardPutOnDeck")
    assert [e.name for e in put] == ["Mason", "Temple"]  # the second named goes on first
    # the next player draws the Temple from the top; the Mason is now on top, known to seat 0 only
    assert (t.of("CardDrawn")[-1].seat, t.of("CardDrawn")[-1].name) == (1, "Temple")
    assert [c.name for c in t.state.deck] == ["Mason", "Barracks"]
    assert [c["name"] for c in t.view(0)["deck"]["known_top"]] == ["Mason"]
    assert "known_top" not in t.view(2)["deck"]


def test_a21_laboratory_with_fewer_than_two_unrevealed_cards_puts_back_what_there_is():
    """A21 ruling: the deck holds 1 card and no year is left; seat 0 draws it, the Laboratory gains
    nothing more (A29), and the one unrevealed card goes back without a choice."""
    cards = [n for n in ("Temple", "Mason", "Barracks", "Treasury", "Laboratory", "Library") for _ in range(5)]
    deck, rest = cards[:1], cards[1:]
    revealed = [{"name": n, "revealed": True} for n in rest[:3]]
    hands = {"0": revealed, "1": rest[3:12], "2": rest[12:21], "3": rest[21:]}
    t = Table(4, rig={"deck": deck, "hands": hands})
    assert not t.state.years
    t.declare(0, "laboratory")
    t.pass_all()
    assert len(t.of("CardNotGained")) == 2
    put = t.of("CardPutOnDeck")
    assert [(e.seat, e.name) for e in put] == [(0, "Temple")]
    assert t.unrevealed(0) == []


def test_r53_library_puts_two_sanctions_on_one_or_two_players():
    t = Table(4, rig={"deck": ["Mason"]})
    plans = [c for c in t.legal(0) if c["action"] == "library" and "sanctions" in c]
    assert any(len({s["seat"] for s in c["sanctions"]}) == 1 for c in plans)
    assert any(len({s["seat"] for s in c["sanctions"]}) == 2 for c in plans)
    t.declare(0, "library", sanctions=[{"seat": 1, "action": "war"}, {"seat": 2, "action": "treasury"}])
    t.pass_all()
    assert t.state.players[1].sanctions == ["war"] and t.state.players[2].sanctions == ["treasury"]


# ----- refusals are data (errors name the rule and the legal options) -----


def test_an_illegal_declaration_names_the_rule_and_the_legal_options():
    t = Table(4, rig={"deck": ["Mason"]})
    with pytest.raises(IllegalCommand) as err:
        t.declare(0, "war", target=0)
    assert err.value.rule == "R45"
    assert offered(err.value, {"type": "declare", "seat": 0, "action": "recruit"})
    with pytest.raises(IllegalCommand) as err:
        t.declare(0, "temple", card="nope", recipient=1)
    assert err.value.rule == "R46"


@pytest.mark.parametrize(
    "command",
    [
        None,
        {"type": "dance", "seat": 0},
        {"type": "declare", "seat": "0", "action": "recruit"},
        {"type": "declare", "seat": 0, "action": "fly"},
        {"type": "react", "seat": 1, "window": "one", "answer": "pass"},
        {"type": "reveal", "seat": 0},
        {"type": "declare", "seat": 0, "action": "recruit", "at": "now"},
    ],
)
def test_malformed_commands_are_refused_before_any_rule(command):
    t = Table(4, rig={"deck": ["Mason"]})
    with pytest.raises(MalformedCommand):
        decide(t.state, command)


def test_a_refused_command_changes_nothing():
    t = Table(4, rig={"deck": ["Mason"]})
    before = (t.state.seq, len(t.events))
    with pytest.raises(IllegalCommand):
        decide(t.state, {"type": "declare", "seat": 0, "action": "war", "target": 9})
    assert (t.state.seq, len(t.events)) == before
    assert t.kinds(0) == ["declare"]


def test_r53_library_plans_are_checked_without_listing_them_all():
    """A Library plan is accepted in any order of its two targets, and refused for one slot twice or a
    sanctioned slot, with the same legal options as the full list (8 seats: thousands of pairs)."""
    rig = {"deck": ["Mason"], "sanctions": {"3": ["war"]}}
    t = Table(8, rig=rig)
    for bad in (
        [{"seat": 1, "action": "war"}, {"seat": 1, "action": "war"}],
        [{"seat": 3, "action": "war"}, {"seat": 2, "action": "war"}],
        [{"seat": 9, "action": "war"}, {"seat": 2, "action": "war"}],
    ):
        with pytest.raises(IllegalCommand) as err:
            t.declare(0, "library", sanctions=bad)
        assert offered(err.value, {"type": "declare", "seat": 0, "action": "recruit"})
    t.declare(0, "library", sanctions=[{"seat": 5, "action": "library"}, {"seat": 2, "action": "temple"}])
    assert t.of("ActionDeclared")[-1].plan["sanctions"] == [{"seat": 2, "action": "temple"}, {"seat": 5, "action": "library"}]


def test_r96_a_card_shuffled_into_the_deck_leaves_nobody_knowing_the_order_of_the_deck_nor_its_ids():
    """R96: a discarded card goes into the deck at a random position nobody sees. Seat 0 knew the Mason it put on
    top with its Laboratory (A21); once seat 2's discard may lie above it, seat 0 can no longer tell what is on top
    (at a table: not for certain), and no id it knew the Mason by is left to follow when someone draws it. What
    seat 0 sees of the deck is the same wherever the discard landed, on top of the Mason or under it (rules
    version 3)."""
    positions = set()
    for n in range(12):
        t = Table(4, rig={"deck": ["Mason", "Temple", "Library", "Barracks", "Treasury", "Temple"]}, seed=f"position-{n}")
        t.declare(0, "laboratory")
        t.pass_all()
        t.play({"type": "put_back", "seat": 0, "cards": [t.card(0, "Temple"), t.card(0, "Mason")]})
        mason = t.state.deck[0].id  # on top, known to seat 0 by this id
        assert [c["id"] for c in t.view(0)["deck"]["known_top"]] == [mason]
        t.declare(1, "barracks")
        t.pass_all()
        t.play(t.legal(t.waiting()[0].seat)[0])
        [discard] = t.of("CardDiscarded")
        positions.add(discard.position)
        assert len(discard.renewed) == 1 and discard.renewed[0] != mason
        assert t.view(0)["deck"] == {"size": len(t.state.deck)}
        assert mason not in {c.id for c in t.state.deck} and all(not c.known and not c.public for c in t.state.deck)
    assert 0 in positions and len(positions) > 1  # on top of the Mason in some games, under it in others
