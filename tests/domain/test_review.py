"""The review of a record (``domain/everaegis/review.py``): each claim and each answer to one, seat by seat, with
its odds and what became of it. Rules: R38 (a claim), R57-R59 (a call, proven or exposed, right or wrong), R60 and
A13 (later callers are void), R65 and R68 (a guard with a card is a claim with its own window)."""

from __future__ import annotations

from aegis.domain.everaegis.redaction import OMNISCIENT, SPECTATOR
from aegis.domain.everaegis.review import review
from tests.helpers import Table


def _review(t: Table, who):
    return review(t.config, [e.to_dict() for e in t.events], t.events, who)["players"]


def test_r68_a_guard_with_a_card_is_a_claim_its_call_and_the_answers_are_reviewed():
    t = Table(4, rig={"deck": ["Mason"], "hands": {"2": ["Temple"]}})
    t.declare(0, "barracks")  # seat 0 holds only the Mason it drew: a bluff
    t.react(1, "pass")
    t.react(2, "guard", "card")  # seat 2 holds a Temple: its Barracks guard is a bluff too
    t.react(3, "pass")
    t.react(0, "call")  # the declarer calls the guard (R68)
    t.react(1, "call")  # a later caller: void (R60, A13)
    t.react(3, "pass")  # seat 2 shows its only card, the Temple (A10): exposed
    players = _review(t, OMNISCIENT)
    kinds = [[(m["kind"], m["about"], m["outcome"]) for m in p["moves"]] for p in players]
    assert kinds[0] == [("claim", "action", "not called"), ("call", "guard", "right")]
    assert kinds[1] == [("pass", "action", "not called"), ("call", "guard", "void")]
    assert kinds[2] == [("guard", "action", "not called"), ("claim", "guard", "exposed")]
    assert kinds[3] == [("pass", "action", "not called"), ("pass", "guard", "exposed")]
    claim, call = players[0]["moves"]
    assert claim["bluff_through"] is True and claim["held"] is False and claim["probability"] == 0
    assert call["against_odds"] is False and call["claim_step"] == players[2]["moves"][1]["step"]
    assert players[2]["moves"][0]["means"] == "card"
    assert players[0]["summary"]["bluffs_through"] == 1 and players[1]["summary"]["calls"] == 1
    assert players[0]["calibration"] == {"calls": 1, "mean_probability": 0.0, "held_rate": 0.0, "brier": 0.0}


def test_r59_a_wrong_call_on_a_held_claim_and_the_odds_a_spectator_had():
    rig = {"deck": ["Mason", "Temple", "Library"], "hands": {"0": ["Treasury"], "1": ["Barracks"]}, "first_player": 0}
    t = Table(3, rig=rig)
    t.declare(0, "treasury")
    t.react(1, "call")
    t.react(2, "pass")
    t.play({"type": "reveal", "seat": 0, "card": t.card(0, "Treasury")})
    fred, sally, _ = _review(t, SPECTATOR)
    assert fred["moves"][0]["outcome"] == "proven" and fred["moves"][0]["held"] is True
    [call] = sally["moves"]
    # a spectator cannot place Fred's Treasury and Mason, Sally's Barracks, the deck's Temple and Library: 1 Treasury
    # among 5 cards, 2 of them Fred's: 1 - C(4,2)/C(5,2) = 2/5
    assert call["outcome"] == "wrong" and call["probability"] == 0.4 and call["against_odds"] is False
    assert sally["calibration"]["brier"] == (0.4 - 1) ** 2


def test_r155_a_guard_made_again_after_an_undo_no_window_opened_on_is_no_bluff_that_got_through():
    """Seat 1 guards the Barracks with a Barracks it does not hold; seat 2 lets the window close by its deadline and
    claims the undo, which calls the Barracks: the guard is made again with the window's answers and the action's
    bluff is exposed at once, so no window ever opens on that guard. Nobody could call it: 'no window', not a bluff
    that got through."""
    from tests.domain.test_rules_undo import T0, _timed

    hands = {"0": ["Laboratory"], "1": ["Temple", "Temple"], "2": ["Mason", "Library"], "3": ["Temple"]}
    t = _timed({"deck": ["Mason", "Temple", "Treasury", "Library", "Temple", "Mason"], "hands": hands}, seats=4)
    t.play({"type": "declare", "seat": 0, "action": "barracks", "at": T0})
    t.play({"type": "react", "seat": 1, "window": 1, "answer": "guard", "means": "card", "at": T0 + 1})
    t.play({"type": "close_window", "window": 1, "at": T0 + 10})
    for seat in list(t.state.calls.window.waiting_for):
        t.play({"type": "react", "seat": seat, "window": 2, "answer": "pass", "at": T0 + 11})
    t.play({**t.legal(2)[0], "at": T0 + 12})
    t.play({"type": "undo", "seat": 2, "window": 1, "answer": "claim", "at": T0 + 13})
    again = t.of("GuardDeclared")[-1].seq
    assert [e.seq for e in t.of("ReactionWindowOpened") if e.seq > again] == []
    claims = [m for m in _review(t, OMNISCIENT)[1]["moves"] if m["kind"] == "claim" and m["step"] == again]
    assert [(m["about"], m["held"], m["outcome"], m["bluff_through"]) for m in claims] == [("guard", False, "no window", False)]


def test_r155_an_undo_s_call_is_reviewed_at_the_step_it_was_made_as_the_audit_has_it():
    """The call an undo adds is made at the UndoClaimed step: the review gives that step (the viewer links it there),
    as the audit's answer does, not the step of the window's closing that follows."""
    from tests.domain.test_audit import _audit
    from tests.domain.test_rules_undo import treasury_bluff_then_undo

    t = treasury_bluff_then_undo("claim")
    claimed = t.of("UndoClaimed")[-1].seq
    [call] = [m for m in _review(t, OMNISCIENT)[2]["moves"] if m["kind"] == "call"]
    [by_undo] = [a for a in _audit(t, claimed)["answers"] if a.get("by_undo")]
    assert call["step"] == by_undo["step"] == claimed
