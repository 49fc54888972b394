"""Actions, claims, calls, guards and reaction windows: an action declared with its whole plan (R38), the
window where the others answer, a bluff called and proven or exposed and the call settled (R58-R60, A11, A13),
guards declared and held, and the action thwarted or carried out (R40, R73).
"""

from __future__ import annotations

from dataclasses import field
from typing import Any

from aegis.domain.everaegis.catalog import ACTIONS
from aegis.domain.everaegis.events.tables import Who, handler, narrator
from aegis.domain.everaegis.events.words import a_or_an, action_name, counted, unhedged
from aegis.domain.everaegis.state import Act, Challenge, GameState, Guard, UndoPoint, War, Window
from aegis.domain.kernel.events import Event, event


@event
class ActionDeclared(Event):
    """The declarer names an action with its whole plan: the coherent declaration (R38)."""

    seat: int = 0
    action: str = ""
    plan: dict[str, Any] = field(default_factory=dict)
    claim: str | None = None
    sanctioned: bool = False


@handler(ActionDeclared)
def _evolve_action_declared(s: GameState, e: ActionDeclared) -> None:
    s.play.act = Act(declarer=e.seat, action=e.action, plan=e.plan, claim=e.claim, sanctioned=e.sanctioned)


@narrator(ActionDeclared)
def _narrate_action_declared(e: dict[str, Any], who: Who) -> str:
    seat, action, plan = who(e["seat"]), e["action"], e.get("plan") or {}
    if e.get("sanctioned"):
        return f"{seat} uses the SANCTIONED {action_name(action)}: a card must be discarded"
    if action == "recruit":
        return f"{seat} recruits"
    if action in ("war", "temple", "library") and not plan and not e.get("claim"):  # a mob's, nothing to select (A50)
        return f"{seat} uses the {action_name(action)}, with nothing it can select"
    if action == "war":
        return f"{seat} declares war on {who(plan.get('target'))}"
    claim = f"{seat} claims the {action_name(action)}" if e.get("claim") else f"{seat} uses the {action_name(action)}"
    if action == "temple":
        return f"{claim}: give a revealed card to {who(plan.get('recipient'))}"
    if action == "mason":
        if "give_wall" in plan:
            return f"{claim}: give the WALL to {who(plan['give_wall'])}"
        n = len(plan.get("discard", []))
        return f"{claim}: discard {counted(n, 'item')}" if n else f"{claim}: discard nothing"
    if "choices" in plan:  # a leader's Laboratory or Library: what it does is its leader's text, chosen
        return f"{claim}, as its leader's text says"
    if action == "library":
        if "treaty" in plan:
            return f"{claim}: give the TREATY to {who(plan['treaty'])}"
        targets = ", ".join(f"{who(t['seat'])}'s {action_name(t['action'])}" for t in plan.get("sanctions", []))
        return f"{claim}: SANCTION {targets}"
    return claim


@event
class ReactionWindowOpened(Event):
    window: int = 0
    claimant: int = 0
    claim: str = ""
    about: str = "action"
    asked: list[int] = field(default_factory=list)
    deadline: float | None = None


@handler(ReactionWindowOpened)
def _evolve_reaction_window_opened(s: GameState, e: ReactionWindowOpened) -> None:
    s.calls.window = Window(e.window, e.claimant, e.claim, e.about, list(e.asked), {}, e.deadline)
    s.calls.windows_opened = e.window
    if s.play.act is not None:
        if e.about == "action":
            s.play.act.stage = "window"
        else:
            guard = s.play.act.guard_of(e.claimant)
            assert guard is not None
            guard.status = "window"
    s.calls.window_snapshot = None
    if e.about == "action" and e.deadline is not None and s.config.option("undo"):
        snapshot = s.clone()  # the moment an undo would rewind to
        snapshot.seq = e.seq
        s.calls.window_snapshot = snapshot


@narrator(ReactionWindowOpened)
def _narrate_reaction_window_opened(e: dict[str, Any], who: Who) -> str:
    asked = ", ".join(who(s) for s in e.get("asked", []))
    if not e.get("claim"):  # a mob's action is no claim (R43)
        return f"{asked} may guard against {who(e['claimant'])}'s action with the WALL"
    return f"{asked} may react to {who(e['claimant'])}'s {e['claim']} claim"


@event
class ReactionGiven(Event):
    """One answer in a window. What was answered stays private to the answering seat until the window closes."""

    window: int = 0
    seat: int = 0
    answer: str = ""
    means: str | None = None
    audience: list[int] = field(default_factory=list)
    PRIVATE = {"answer": "audience", "means": "audience"}


@handler(ReactionGiven)
def _evolve_reaction_given(s: GameState, e: ReactionGiven) -> None:
    assert s.calls.window is not None
    s.calls.window.answers[e.seat] = {"answer": e.answer, "means": e.means}


@narrator(ReactionGiven)
def _narrate_reaction_given(e: dict[str, Any], who: Who) -> str:
    if "answer" not in e:
        return f"{who(e['seat'])} answers"
    if e["answer"] == "guard":
        return f"{who(e['seat'])} answers: guard ({'WALL' if e.get('means') == 'wall' else 'a card claim'})"
    return f"{who(e['seat'])} answers: {e['answer']}"


@event
class ReactionWindowClosed(Event):
    window: int = 0
    answers: dict[str, dict[str, Any]] = field(default_factory=dict)  # seat (as text) -> answer
    timed_out: list[int] = field(default_factory=list)  # seats that had not given permission
    by: str = "answers"  # answers or deadline


@handler(ReactionWindowClosed)
def _evolve_reaction_window_closed(s: GameState, e: ReactionWindowClosed) -> None:
    assert s.calls.window is not None and s.play.act is not None
    snapshot, s.calls.window_snapshot = s.calls.window_snapshot, None
    called = any(a.get("answer") == "call" for a in e.answers.values())
    used = s.in_turn_order([int(seat) for seat, a in e.answers.items() if a.get("answer") == "use"])
    if used and s.calls.window.about == "action":
        s.play.act.reacted = (used[0], e.answers[str(used[0])]["means"])  # R104: the first in turn order
    if snapshot is not None and e.by == "deadline" and e.timed_out and not called and s.calls.window.claim:
        claimant = s.calls.window.claimant
        eligible = [seat for seat in e.timed_out if snapshot.may_call(seat, claimant)]
        if eligible:
            s.undo = UndoPoint(s.calls.window.id, claimant, snapshot, dict(e.answers), eligible)
    if s.calls.window.about == "action":
        s.play.act.stage = "guards"
    else:
        guard = s.play.act.guard_of(s.calls.window.claimant)
        assert guard is not None
        guard.status = "closed"
    s.calls.window = None


@narrator(ReactionWindowClosed)
def _narrate_reaction_window_closed(e: dict[str, Any], who: Who) -> str:
    late = e.get("timed_out") or []
    tail = f"; no answer from {', '.join(who(s) for s in late)}" if late else ""
    if e.get("by") == "resigned":  # S2: the declarer resigned on their own turn
        return "The window closes without effect: the declarer resigned"
    if e.get("by") == "undo":  # RULINGS "Undo": closed again, its answers and the undo's call
        return "The window closes again, with its answers and the undo's call"
    opening = "The deadline closes the window" if e.get("by") == "deadline" else "Everyone has answered"
    answers = _answers_told(e.get("answers") or {}, who)
    return opening + (f": {answers}" if answers else "") + tail


def _answers_told(answers: dict[str, Any], who: Who) -> str:
    """The window's answers, published when it closes (the event is public, R60): "Fred calls, Jeff passes"."""
    told = []
    for seat, a in sorted(answers.items(), key=lambda kv: int(kv[0]) if str(kv[0]).isdigit() else 0):
        answer, means = a.get("answer"), a.get("means")
        if answer is None:  # no answer shown to this reader
            continue
        if answer == "guard":
            verb = "guards with the WALL" if means == "wall" else "guards with a claim"
        elif answer == "use":
            verb = f"uses the {means}"
        else:
            verb = {"pass": "passes", "call": "calls"}.get(str(answer), str(answer))
        told.append(f"{who(int(seat))} {verb}")
    return ", ".join(told)


@event
class GuardDeclared(Event):
    seat: int = 0
    means: str = ""  # card or wall
    action: str = ""


@handler(GuardDeclared)
def _evolve_guard_declared(s: GameState, e: GuardDeclared) -> None:
    assert s.play.act is not None
    s.play.act.guards.append(Guard(e.seat, e.means))
    order = s.in_turn_order([g.seat for g in s.play.act.guards])
    s.play.act.guards.sort(key=lambda g: order.index(g.seat))  # R60, RULINGS: guards resolve in turn order


@narrator(GuardDeclared)
def _narrate_guard_declared(e: dict[str, Any], who: Who) -> str:
    means = "the WALL" if e["means"] == "wall" else f"{a_or_an(action_name(e['action']))} claim"
    return f"{who(e['seat'])} guards with {means}"


@event
class BluffCalled(Event):
    window: int = 0
    caller: int = 0
    claimant: int = 0
    claim: str = ""
    about: str = "action"
    void_calls: list[int] = field(default_factory=list)  # later callers, ignored (R60, A13)


@handler(BluffCalled)
def _evolve_bluff_called(s: GameState, e: BluffCalled) -> None:
    s.calls.challenge = Challenge(caller=e.caller, claimant=e.claimant, claim=e.claim, about=e.about)


@narrator(BluffCalled)
def _narrate_bluff_called(e: dict[str, Any], who: Who) -> str:
    return f"{who(e['caller'])} calls {who(e['claimant'])}'s bluff on the {e['claim']}"


@event
class ClaimProven(Event):
    seat: int = 0
    claim: str = ""
    card: str = ""
    caller: int = 0


@handler(ClaimProven)
def _evolve_claim_proven(s: GameState, e: ClaimProven) -> None:
    assert s.calls.challenge is not None
    s.calls.challenge.stage = "penalty"


@narrator(ClaimProven)
def _narrate_claim_proven(e: dict[str, Any], who: Who) -> str:
    return f"{who(e['seat'])} holds the {e['claim']}: the call was wrong"


@event
class BluffExposed(Event):
    seat: int = 0
    claim: str = ""
    card: str | None = None  # None: no unrevealed card to show (A11)
    name: str | None = None
    caller: int = 0


@handler(BluffExposed)
def _evolve_bluff_exposed(s: GameState, e: BluffExposed) -> None:
    assert s.calls.challenge is not None
    s.calls.challenge.stage = "exposed"


@narrator(BluffExposed)
def _narrate_bluff_exposed(e: dict[str, Any], who: Who) -> str:
    if e.get("card") is None:
        return f"{who(e['seat'])} has no card to show: the {e['claim']} claim was a bluff"
    # the card's reveal is narrated before. A claimant may show another card while holding the claimed one (R57, A10):
    # the call is right, but the claim is not thereby a bluff, and whether it was stays hidden until the game ends
    return f"It is no {e['claim']}: {who(e['seat'])}'s {e['claim']} claim is not proven"


@event
class CallSettled(Event):
    """The end of a call: ``correct`` says whether the caller was right (R58, R59)."""

    caller: int = 0
    claimant: int = 0
    claim: str = ""
    about: str = "action"
    correct: bool = False


@handler(CallSettled)
def _evolve_call_settled(s: GameState, e: CallSettled) -> None:
    s.calls.challenge = None
    if not e.correct and s.players[e.caller].eliminated and e.caller not in s.calls.silenced:
        s.calls.silenced.append(e.caller)  # Vengeance (R159): their one wrong call ends their calling for good
    if s.play.act is not None and e.about == "guard":
        guard = s.play.act.guard_of(e.claimant)
        assert guard is not None
        guard.status = "thwarted" if e.correct else "stands"


@narrator(CallSettled)
def _narrate_call_settled(e: dict[str, Any], who: Who) -> str:
    return f"{who(e['caller'])}'s call was {'right' if e['correct'] else 'wrong'}"


@event
class GuardHeld(Event):
    seat: int = 0
    means: str = ""


@handler(GuardHeld)
def _evolve_guard_held(s: GameState, e: GuardHeld) -> None:
    assert s.play.act is not None
    guard = s.play.act.guard_of(e.seat)
    assert guard is not None
    guard.status = "stands"


@narrator(GuardHeld)
def _narrate_guard_held(e: dict[str, Any], who: Who) -> str:
    return f"{who(e['seat'])}'s guard stands"


@event
class ActionThwarted(Event):
    seat: int = 0
    action: str = ""
    reason: str = ""


@handler(ActionThwarted)
def _evolve_action_thwarted(s: GameState, e: ActionThwarted) -> None:
    s.calls.challenge = None
    s.variant.offer = None  # a war's spoils still to choose end with it (pending at a thwart only if its declarer resigns, S2)
    _action_over(s)


def _action_over(s: GameState) -> None:
    """The declared action is over, and so is the Action Phase (R73), unless an effect started the action (a
    war an effect started is not the turn's action)."""
    from_effect = s.play.act is not None and s.play.act.from_effect
    s.play.act = None
    if not from_effect:
        s.play.action_done = True


USED_IN_REACTION = " used in reaction (R104)"  # the reason of a thwart by a reactive item: "BIRD used in reaction (R104)"


@narrator(ActionThwarted)
def _narrate_action_thwarted(e: dict[str, Any], who: Who) -> str:
    reason = str(e.get("reason") or "")
    if " used " in reason:  # a reactive item (reactive.thwart_step); games stored before say "BIRD used by <name>"
        item = reason.split(" used ")[0]
        return f"{who(e['seat'])}'s {action_name(e['action'])} is thwarted by the {item}: it is not carried out"
    return f"{who(e['seat'])}'s {action_name(e['action'])} is thwarted"


@event
class ActionResolving(Event):
    """Nothing stops the action any more: it executes now (R40)."""

    seat: int = 0
    action: str = ""
    guarded_by: list[int] = field(default_factory=list)


@handler(ActionResolving)
def _evolve_action_resolving(s: GameState, e: ActionResolving) -> None:
    act = s.play.act
    assert act is not None
    act.stage = "execute"
    s.calls.challenge = None
    if act.action == "barracks":
        act.queue = [
            seat
            for seat in s.remaining_in_turn_order()
            if seat != act.declarer
            and not act.guarded(seat)
            and s.partner(act.declarer) != seat
            and not s.variant.allied(act.declarer, seat)  # R163, R138: allies are not opponents
            and s.players[seat].unrevealed  # nothing to discard: not affected
        ]
    elif act.action == "laboratory" and s.players[act.declarer].leader is None:  # the Simpleton Laboratory
        s.play.draw_queue.extend([(act.declarer, "laboratory"), (act.declarer, "laboratory")])
    elif act.action == "library" and s.players[act.declarer].leader is None and "sanctions" in act.plan:
        act.todo = [t for t in act.plan["sanctions"] if not act.guarded(t["seat"])]
    elif act.action == "war" and "target" in act.plan:  # a mob's War with nobody to select has none (A50)
        act.war = War(attacker=act.declarer, defender=act.plan["target"])
    elif act.action == "temple" and "card" in act.plan:  # a mob's Temple with nothing to give has none (A50)
        owner = s.owner_of(act.plan["card"])
        recipient = act.plan["recipient"]
        if owner is not None and not act.guarded(owner) and not act.guarded(recipient):
            card = s.players[owner].card(act.plan["card"])
            assert card is not None
            if card.name.lower() in ACTIONS:  # A19: an estate card matches no action, so no SANCTION
                act.todo = [{"seat": recipient, "action": card.name.lower()}]


@narrator(ActionResolving)
def _narrate_action_resolving(e: dict[str, Any], who: Who) -> str:
    guarded = e.get("guarded_by") or []
    tail = f", except for {', '.join(who(s) for s in guarded)}" if guarded else ""
    return f"{who(e['seat'])}'s {action_name(e['action'])} takes effect{tail}"


@event
class ActionCompleted(Event):
    seat: int = 0
    action: str = ""
    outcome: str = ""


@handler(ActionCompleted)
def _evolve_action_completed(s: GameState, e: ActionCompleted) -> None:
    _action_over(s)


@narrator(ActionCompleted)
def _narrate_action_completed(e: dict[str, Any], who: Who) -> str:
    return f"{who(e['seat'])}'s {action_name(e['action'])}: {unhedged(e['outcome'])}"
