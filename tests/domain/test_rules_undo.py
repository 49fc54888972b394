"""The optional Undo rule (R155-R157, RULINGS "Undo"): who may claim it, until when, and what it does.

A window closes by its deadline (the service's ``close_window`` with the clock past it); the players
who had not answered may then claim an undo until a card is revealed, gained or put on the deck, or the
End Phase begins. The game pauses before the End Phase for them. An undo rewinds to the moment the
window opened (nothing recorded is deleted: the undone events are named) and adds the claimant's call.
"""

from __future__ import annotations

import pytest

from aegis.domain.kernel.errors import IllegalCommand, TooLate
from tests.helpers import Table

T0 = 1000.0


def _timed(rig: dict, seats: int = 3, **options) -> Table:
    return Table(seats, rig=rig, reaction_seconds=10, now=T0, options=options or None)


def treasury_bluff_then_undo(answer: str) -> Table:
    """Seat 0 bluffs a Treasury (it holds a Laboratory), seat 1 passes, the window closes by its deadline without seat
    2's answer, and seat 2 answers the undo with ``answer`` ('claim' or 'waive')."""
    t = _timed({"deck": ["Mason"], "hands": {"0": ["Laboratory"]}})
    t.play({"type": "declare", "seat": 0, "action": "treasury", "at": T0})
    t.play({"type": "react", "seat": 1, "window": 1, "answer": "pass", "at": T0 + 1})
    t.play({"type": "close_window", "window": 1, "at": T0 + 10})
    t.play({"type": "undo", "seat": 2, "window": 1, "answer": answer, "at": T0 + 11})
    return t


def _declare_and_time_out(t: Table, action: str = "treasury", answered: tuple[int, ...] = (1,), **plan) -> int:
    t.play({"type": "declare", "seat": 0, "action": action, "at": T0, **plan})
    window = t.state.calls.window
    assert window is not None and window.deadline == T0 + 10
    for seat in answered:
        t.play({"type": "react", "seat": seat, "window": window.id, "answer": "pass", "at": T0 + 1})
    t.play({"type": "close_window", "window": window.id, "at": T0 + 10})
    return window.id


def test_a_timed_out_player_is_offered_an_undo_before_the_end_phase():
    t = _timed({"deck": ["Mason"], "hands": {"0": ["Laboratory"]}})
    window = _declare_and_time_out(t)
    closed = t.of("ReactionWindowClosed")[-1]
    assert (closed.by, closed.timed_out) == ("deadline", [2])
    assert t.soldiers(0) == 8  # the Treasury went ahead
    assert t.of("UndoPauseBegan")[-1].eligible == [2]
    assert t.kinds(2) == ["undo"] and t.kinds(1) == []  # seat 1 answered: no undo for it
    assert t.prompts(2)[0].about == {"window": window, "claimant": 0, "claim": "Treasury", "about": "action"}
    assert not [e for e in t.of("PhaseBegan") if e.phase == "end"]
    assert {c["answer"] for c in t.legal(2)} == {"claim", "waive"} and all(c["window"] == window for c in t.legal(2))


def test_an_undo_rewinds_to_the_window_and_a_caught_bluff_is_thwarted():
    t = _timed({"deck": ["Mason"], "hands": {"0": ["Laboratory"]}})
    window = _declare_and_time_out(t)
    opened = t.of("ReactionWindowOpened")[-1].seq
    before = t.state.seq
    t.play({"type": "undo", "seat": 2, "window": window, "answer": "claim", "at": T0 + 12})
    claimed = t.of("UndoClaimed")[-1]
    assert (claimed.undone_from, claimed.undone_to) == (opened + 1, before)
    assert t.of("ReactionWindowClosed")[-1].by == "undo"
    assert t.of("BluffCalled")[-1].caller == 2
    # seat 0 holds a Laboratory and the Mason it drew: it must show one; either way the Treasury was a bluff
    t.play({"type": "reveal", "seat": 0, "card": t.card(0, "Laboratory"), "at": T0 + 13})
    assert t.of("ActionThwarted")[-1].action == "treasury"
    assert t.soldiers(0) == 3  # the 5 soldiers of the undone Treasury are gone
    assert [e.phase for e in t.of("PhaseBegan")][-3:] == ["end", "demise", "conquest"] or t.state.play.current != 0


def test_an_undo_against_a_true_claim_costs_the_claimant_and_the_action_stands():
    t = _timed({"deck": ["Mason"], "hands": {"0": ["Treasury"], "2": ["Temple", "Library"]}})
    window = _declare_and_time_out(t)
    t.play({"type": "undo", "seat": 2, "window": window, "answer": "claim", "at": T0 + 12})
    t.play({"type": "reveal", "seat": 0, "card": t.card(0, "Treasury"), "at": T0 + 13})
    assert t.of("ClaimProven")[-1].caller == 2
    t.play({"type": "reveal", "seat": 2, "card": t.card(2, "Library"), "at": T0 + 14})  # pays as an incorrect caller
    assert t.revealed(2) == ["Library"]
    assert t.soldiers(0) == 8  # the Treasury stands, applied once
    assert len([e for e in t.of("SoldiersChanged") if e.seat == 0 and e.delta == 5]) == 2  # once undone, once for good


def test_waiving_lets_the_turn_go_on():
    t = _timed({"deck": ["Mason", "Temple"]})
    window = _declare_and_time_out(t)
    t.play({"type": "undo", "seat": 2, "window": window, "answer": "waive", "at": T0 + 11})
    assert t.of("UndoWaived")[-1].seat == 2
    assert t.state.play.current == 1 and t.soldiers(0) == 8


def test_the_pause_ends_at_its_deadline():
    t = _timed({"deck": ["Mason", "Temple"]})
    window = _declare_and_time_out(t)
    pause = t.of("UndoPauseBegan")[-1]
    assert pause.deadline == T0 + 20
    with pytest.raises(IllegalCommand):
        t.play({"type": "close_undo", "window": window, "at": T0 + 19})
    t.play({"type": "close_undo", "window": window, "at": T0 + 20})
    assert t.of("UndoExpired")[-1].waiting == [2]
    assert t.state.play.current == 1
    with pytest.raises(TooLate):
        t.play({"type": "undo", "seat": 2, "window": window, "answer": "claim", "at": T0 + 21})


def test_no_undo_when_everyone_answered_or_when_someone_called():
    t = _timed({"deck": ["Mason", "Temple"]})
    t.play({"type": "declare", "seat": 0, "action": "treasury", "at": T0})
    for seat in (1, 2):
        t.play({"type": "react", "seat": seat, "window": t.state.calls.window.id, "answer": "pass", "at": T0 + 1})
    assert t.of("ReactionWindowClosed")[-1].by == "answers"
    assert not t.of("UndoPauseBegan") and t.state.play.current == 1
    t2 = _timed({"deck": ["Mason"], "hands": {"0": ["Treasury"], "1": ["Library"]}})
    t2.play({"type": "declare", "seat": 0, "action": "treasury", "at": T0})
    w = t2.state.calls.window.id
    t2.play({"type": "react", "seat": 1, "window": w, "answer": "call", "at": T0 + 1})
    t2.play({"type": "close_window", "window": w, "at": T0 + 10})
    assert not t2.of("UndoPauseBegan")  # the claim was called already


def test_no_undo_once_a_card_was_gained():
    """Laboratory draws 2 cards after the window: the undo closes (R156)."""
    t = _timed({"deck": ["Mason", "Temple", "Library", "Barracks"]})
    _declare_and_time_out(t, action="laboratory")
    assert t.of("CardDrawn")[-1].reason == "laboratory"
    assert t.state.undo is None and not t.of("UndoPauseBegan")


def test_no_undo_with_the_option_off_or_without_a_deadline():
    t = _timed({"deck": ["Mason", "Temple"]}, undo=0)
    _declare_and_time_out(t)
    assert not t.of("UndoPauseBegan") and t.state.play.current == 1
    untimed = Table(3, rig={"deck": ["Mason", "Temple"]}, reaction_seconds=0)
    untimed.declare(0, "treasury")
    assert untimed.state.calls.window.deadline is None


def test_a_brig_holder_cannot_claim_an_undo():
    t = _timed({"deck": ["Mason", "Temple"], "brigs": {"2": 1}})
    t.play({"type": "declare", "seat": 0, "action": "barracks", "at": T0})
    w = t.state.calls.window
    assert 2 in w.asked  # it may still guard
    t.play({"type": "close_window", "window": w.id, "at": T0 + 10})
    assert t.of("ReactionWindowClosed")[-1].timed_out == [1, 2]
    assert t.of("UndoPauseBegan")[-1].eligible == [1]  # seat 2 could not have called, so it cannot claim an undo
    assert t.kinds(2) == []


def test_the_audit_and_the_engine_read_one_list_of_events_that_end_an_undo():
    """A Temple move (CardMoved) ends an undo for the engine, and so in the audit's report (domain/everaegis/audit.py)."""
    from aegis.domain.everaegis import audit
    from aegis.domain.everaegis.evolve import closes_undo

    assert closes_undo({"type": "CardMoved"}) and closes_undo({"type": "PhaseBegan", "phase": "end"})
    assert not closes_undo({"type": "PhaseBegan", "phase": "action"}) and not closes_undo({"type": "SoldiersChanged"})
    assert audit.closes_undo is closes_undo


def test_a_window_opened_after_an_undo_never_takes_the_id_of_one_the_undo_voided():
    """Seat 1 guards against the Barracks in window 1, so window 2 opens on its guard; seat 2 lets window 1 run out
    and claims the undo, which voids window 2. The next window is window 3: one id, one window, in the whole record
    (a review, an audit or a late command naming window 2 means the voided one)."""
    from aegis.domain.everaegis.prompts import legal_commands

    hands = {"0": ["Laboratory"], "1": ["Barracks", "Temple"], "2": ["Mason", "Library"], "3": ["Temple"]}
    t = _timed({"deck": ["Mason", "Temple", "Treasury", "Library", "Temple", "Mason"], "hands": hands}, seats=4)
    t.play({"type": "declare", "seat": 0, "action": "barracks", "at": T0})
    t.play({"type": "react", "seat": 1, "window": 1, "answer": "guard", "means": "card", "at": T0 + 1})
    t.play({"type": "close_window", "window": 1, "at": T0 + 10})
    guard_window = t.state.calls.window
    assert guard_window is not None and guard_window.id == 2
    for seat in list(guard_window.waiting_for):
        t.play({"type": "react", "seat": seat, "window": 2, "answer": "pass", "at": T0 + 11})
    t.play({**t.legal(2)[0], "at": T0 + 12})  # the Barracks discard
    t.play({"type": "undo", "seat": 2, "window": 1, "answer": "claim", "at": T0 + 13})
    assert t.state.calls.windows_opened == 2
    for i in range(80):  # play on (claims where there are some) until a window opens
        window = t.state.calls.window
        if window is not None and window.id != 1:
            break
        commands = [c for seat in range(4) for c in legal_commands(t.state, seat)]
        t.play({**([c for c in commands if c.get("action") == "treasury"] or commands)[0], "at": T0 + 14 + i})
    assert [e.window for e in t.of("ReactionWindowOpened")] == [1, 2, 3]


def test_an_undo_never_rewinds_the_random_stream_so_nothing_undone_tells_a_later_draw():
    """Rules version 4. The discards of an undone Barracks drew from the game's random stream (where each card went
    into the deck, its new id), and what was drawn there is on the record, some of it public (a mob's D8). The undo
    takes the table back, not the stream: a later draw never reads those blocks again, so nobody knows it in
    advance from the undone span (at a table, dice rolled again and a shuffle done again are new)."""
    t = _timed({"deck": ["Mason", "Temple"], "hands": {"0": ["Laboratory"], "1": ["Temple", "Mason"], "2": ["Library", "Mason"]}})
    window = _declare_and_time_out(t, "barracks")
    for seat in (1, 2):
        t.play({**t.legal(seat)[0], "at": T0 + 11})
    drawn = [e.rng for e in t.events if getattr(e, "rng", None)]
    assert drawn and t.kinds(2) == ["undo"]
    reached = t.state.rng
    t.play({"type": "undo", "seat": 2, "window": window, "answer": "claim", "at": T0 + 12})
    assert t.state.rng == reached  # the stream goes on from where the undone span left it
    t.play({**t.legal(0)[0], "at": T0 + 13})  # seat 0 shows a card: the bluff is caught (R57)
    later = [e.rng for e in t.events[len(t.events) - 20 :] if getattr(e, "rng", None) and e.seq > t.of("UndoClaimed")[-1].seq]
    assert all(start >= reached for start, _ in later)
