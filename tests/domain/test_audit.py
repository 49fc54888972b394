"""The audit of a claim (``domain/everaegis/audit.py``, served as ``GET /api/games/{id}/audit``), from the record:
a guard's card claim is a claim of its own (R65), and a claim an undo reversed is followed to its real end (R155)."""

from __future__ import annotations

from aegis.domain.everaegis.audit import audit
from aegis.domain.everaegis.review import review
from aegis.domain.kernel.redaction import OMNISCIENT
from tests.domain.test_rules_undo import T0, _declare_and_time_out, _timed, treasury_bluff_then_undo
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


def test_r155_the_audit_says_no_undo_was_possible_when_someone_called_in_the_window():
    """Seat 1 calls the Treasury and seat 2 lets the window close by its deadline: no undo (RULINGS "Undo": only for a
    window nobody called in), and the engine offers none; the audit says so and why."""
    t = _timed({"deck": ["Mason"], "hands": {"0": ["Laboratory"]}})
    t.play({"type": "declare", "seat": 0, "action": "treasury", "at": T0})
    window = t.state.calls.window.id
    t.play({"type": "react", "seat": 1, "window": window, "answer": "call", "at": T0 + 1})
    t.play({"type": "close_window", "window": window, "at": T0 + 10})
    assert not t.of("UndoPauseBegan") and "undo" not in t.kinds(2)
    found = _audit(t, t.of("ActionDeclared")[-1].seq)
    assert found["undo"]["possible"] is False and "seat 1 called" in found["undo"]["why"], found["undo"]


def test_r155_one_notion_of_undone_the_answers_an_undo_kept_stand_and_a_void_claim_is_audited_only_at_its_step():
    """Seat 1 guards the Barracks in window 1 (its guard opens window 2, where seats answer); seat 2 claims the undo
    of window 1. Seat 1's guard answer is kept by the undo ("with its answers"): not void, in the spans the timeline
    and the review read. The guard window's answers are void, and the audit says so; audited at the undo, the claim is
    the Barracks the undo was about, and the void guard claim only when asked for at its own step."""
    from aegis.domain.everaegis.audit import undone

    hands = {"0": ["Laboratory"], "1": ["Temple", "Temple"], "2": ["Mason", "Library"], "3": ["Temple"]}
    t = _timed({"deck": ["Mason", "Temple", "Treasury", "Library", "Temple", "Mason"], "hands": hands}, seats=4)
    t.play({"type": "declare", "seat": 0, "action": "barracks", "at": T0})
    t.play({"type": "react", "seat": 1, "window": 1, "answer": "guard", "means": "card", "at": T0 + 1})
    t.play({"type": "close_window", "window": 1, "at": T0 + 10})
    guard = t.of("GuardDeclared")[-1].seq
    for seat in list(t.state.calls.window.waiting_for):
        t.play({"type": "react", "seat": seat, "window": 2, "answer": "pass", "at": T0 + 11})
    t.play({**t.legal(2)[0], "at": T0 + 12})
    t.play({"type": "undo", "seat": 2, "window": 1, "answer": "claim", "at": T0 + 13})
    kept = next(e.seq for e in t.of("ReactionGiven") if e.window == 1 and e.seat == 1)
    spans = undone([e.to_dict() for e in t.events])
    assert not any(lo <= kept <= hi for lo, hi in spans) and any(lo <= guard <= hi for lo, hi in spans)
    at_undo = _audit(t, t.of("UndoClaimed")[-1].seq)
    assert at_undo["about"] == "action" and at_undo["undone"] is False
    marks = {(a["window"], a["seat"], a["answer"]): a["undone"] for a in at_undo["answers"]}
    assert marks[(1, 1, "guard")] is False and marks[(1, 2, "call")] is False
    assert all(undone for (window, _, _), undone in marks.items() if window == 2) and any(w == 2 for w, _, _ in marks)
    void_guard = _audit(t, guard)
    assert void_guard["about"] == "guard" and void_guard["undone"] is True


def test_r155_an_undo_says_what_it_voided_and_not_the_answers_it_kept():
    """Seat 1 passes in the window, seat 2 lets it close by its deadline and claims the undo. The pass stands (the
    timeline keeps it): the audit's undo gives the first and last step it made void after that answer, and the answer
    it kept; the narration names the window whose answers stand, not a range that would take the pass in."""
    from aegis.domain.everaegis.narration import narrate

    t = treasury_bluff_then_undo("claim")
    passed = t.of("ReactionGiven")[-1].seq
    claimed = t.of("UndoClaimed")[-1]
    undo = _audit(t, claimed.seq)["undo"]
    assert undo["answers_kept"] == [passed] and undo["undone"] == [passed + 1, claimed.undone_to]
    said = narrate(claimed.to_dict(), ["Fred", "Sally", "Jeff"])
    assert said == "Jeff claims an undo: what followed window 1's answers is undone, and Jeff calls the bluff"


def test_r155_the_audit_says_in_words_what_ended_the_time_for_an_undo():
    """'until step 24 (the End Phase began)', not the event's class name; every event that ends it has its words."""
    from aegis.domain.everaegis.audit import _UNDO_ENDS
    from aegis.domain.everaegis.evolve import UNDO_CLOSERS

    assert set(UNDO_CLOSERS) | {"UndoExpired"} == set(_UNDO_ENDS)
    t = treasury_bluff_then_undo("waive")
    why = _audit(t, t.of("ActionDeclared")[-1].seq)["undo"]["why"]
    assert why.startswith("the window closed by deadline without an answer from seat 2: an undo could be claimed until step")
    assert why.endswith("(the End Phase began)") and "Phase)" not in why
