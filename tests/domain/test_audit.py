"""The audit of a claim (``domain/everaegis/audit.py``, served as ``GET /api/games/{id}/audit``), from the record:
a guard's card claim is a claim of its own (R65), and a claim an undo reversed is followed to its real end (R155)."""

from __future__ import annotations

from aegis.domain.everaegis.audit import audit
from aegis.domain.everaegis.review import review
from aegis.domain.kernel.redaction import OMNISCIENT
from tests.domain.test_rules_undo import T0, _declare_and_time_out, _timed
from tests.domain.test_worked_examples import JEFF, PETER, e11_table


def _audit(t, step: int) -> dict:
    names = list(t.config.names) or [f"seat {seat}" for seat in range(t.config.seats)]
    return audit(t.config, [e.to_dict() for e in t.events], step, OMNISCIENT, names, {})


def test_r65_the_audit_of_a_guard_claim_is_the_guards_claim_with_the_guards_hand():
    """E11: Jeff claims Barracks; Peter guards with a true Barracks claim; Jeff calls the guard. At the guard and at
    the call on it, the audit is of Peter's claim (a Barracks, held), not of Jeff's action claim (a bluff)."""
    t = e11_table()
    t.declare(JEFF, "barracks")
    t.react(PETER, "guard", "card")
    t.pass_all()
    guard = t.of("GuardDeclared")[-1].seq
    t.react(JEFF, "call")
    t.pass_all()
    called = t.of("BluffCalled")[-1].seq
    action = _audit(t, guard - 1)
    assert (action["about"], action["claimant"]["seat"], action["claimant_held"]["holds_claimed_card"]) == ("action", JEFF, False)
    for step in (guard, called):
        found = _audit(t, step)
        assert found["about"] == "guard" and found["declared"]["type"] == "GuardDeclared"
        assert found["claimant"]["seat"] == PETER and found["claim"] == "Barracks"
        assert found["claimant_held"] == {"cards": ["Barracks", "Library"], "holds_claimed_card": True}


def test_r155_the_audit_of_a_claim_an_undo_reversed_follows_it_to_its_real_end_with_the_undos_call():
    """Seat 0 bluffs a Treasury; seat 2 lets the window close by its deadline, then claims an undo and so calls; the
    bluff is exposed and the Treasury thwarted. The audit does not stop at the Treasury's undone 'gained 5 soldiers':
    it goes on to the thwarting, and lists seat 2's call among the answers."""
    t = _timed({"deck": ["Mason"], "hands": {"0": ["Laboratory"]}})
    window = _declare_and_time_out(t)
    t.play({"type": "undo", "seat": 2, "window": window, "answer": "claim", "at": T0 + 12})
    t.play({"type": "reveal", "seat": 0, "card": t.card(0, "Laboratory"), "at": T0 + 13})
    declared = t.of("ActionDeclared")[-1].seq
    found = _audit(t, declared)
    followed = [f["seq"] for f in found["followed"]]
    assert t.of("UndoClaimed")[-1].seq in followed and t.of("ActionThwarted")[-1].seq == followed[-1]
    answers = [(a["seat"], a["answer"], a.get("by_undo", False)) for a in found["answers"]]
    assert answers == [(1, "pass", False), (2, "call", True)]
    assert found["undo"]["claimed"] is True
    texts = [f["text"] for f in found["followed"]]
    assert "The window closes again, with its answers and the undo's call" in texts  # not "Everyone has answered"


def test_r155_the_review_counts_an_answer_an_undo_kept_once_and_the_undos_call():
    """The same undo: seat 1's pass, given before the window closed by its deadline, is kept when the undo closes
    it again; the review lists it once, not void, and seat 2's call, and counts both."""
    t = _timed({"deck": ["Mason"], "hands": {"0": ["Laboratory"]}})
    window = _declare_and_time_out(t)
    t.play({"type": "undo", "seat": 2, "window": window, "answer": "claim", "at": T0 + 12})
    t.play({"type": "reveal", "seat": 0, "card": t.card(0, "Laboratory"), "at": T0 + 13})
    found = review(t.config, [e.to_dict() for e in t.events], t.events, OMNISCIENT)["players"]
    assert [(m["kind"], m["undone"]) for m in found[1]["moves"]] == [("pass", False)] and found[1]["summary"]["passes"] == 1
    assert [(m["kind"], m["outcome"], m["undone"]) for m in found[2]["moves"]] == [("call", "right", False)]
