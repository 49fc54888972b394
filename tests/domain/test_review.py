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
