"""The review of a finished game (the ruleset's ``review``, served as ``GET /api/games/{id}/review``): for each player,
every claim they made and every answer they gave to a claim (call, pass, guard, use of an item), each with the odds
that the claim was held as the reader knew them at that moment (``odds.holds_probability``) and what happened; the
calls made against the odds, the bluffs that got through, and how well each player's calls were calibrated.

Definitions (the README's "Odds and the review" says the same):

- ``probability``: P(the claimant holds the claimed card), exactly, as the reader knew it at the claim's step (an
  answer is given with the same knowledge: no card moves between a claim and the answers to it).
- ``held``: what was true: the claimant held an unrevealed card of the claimed building (R57, R58).
- a call *against the odds*: a call made when the probability was 1/2 or more (the claim was at least as likely
  held as not, as the reader knew it).
- a bluff *that got through*: a claim that was not held and that nobody called (a claim no window opened on, which
  nobody could call, is not one: its outcome is ``no window``).
- calibration of a player's calls: how many, the mean probability that the called claim was held, the fraction of
  them actually held, and the Brier score, the mean of (probability - held)² (0 is perfect; 0.25 is a coin's).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from aegis.domain.everaegis.audit import undone
from aegis.domain.everaegis.config import Config
from aegis.domain.everaegis.evolve import apply, initial_state
from aegis.domain.everaegis.odds import odds
from aegis.domain.everaegis.state import GameState
from aegis.domain.kernel.events import Event
from aegis.domain.kernel.redaction import Perspective
from aegis.domain.kernel.ruleset import is_void

AGAINST_THE_ODDS = 0.5
NO_WINDOW = "no window"  # a claim's outcome when no reaction window opened on it: nobody could call it


def review(
    config: Config, log: list[dict[str, Any]], events: Sequence[Event], perspective: Perspective, since: int = 0
) -> dict[str, Any]:
    """Every claim and answer of a finished game's record, seat by seat, with the odds as ``perspective`` knew them
    (``log``: the events as stored; ``events``: the same, decoded). Moves at steps up to ``since`` (a branch's point:
    they were its original's) are left out, but for a claim still in play there, with its answers: what became of it
    is the branch's."""
    walk = _Walk(config.seats)
    state = initial_state(config)
    in_play: set[int] = set()  # the claims still in play at step ``since`` (ids)
    for stored, event in zip(log, events, strict=True):
        if stored["seq"] == since + 1:
            in_play = {id(c) for c in [*walk.unsettled, walk.pending] if c is not None}
        apply(state, event)
        found = odds(state, stored, perspective)
        if found is not None:
            walk.claimed(stored["seq"], found)
        elif stored["type"] == "CardsDealtAgain":  # a branch dealt again what its knower could not name
            walk.dealt_again(state)
        else:
            handler = _Walk.HANDLERS.get(stored["type"])
            if handler is not None:
                handler(walk, stored)
    walk.no_window()  # the game is over: a claim still waiting for its window never had one
    voids = undone(log)
    players = []
    for seat, mine in enumerate(walk.moves):
        out = [_finished(m, voids) for m in mine if m["step"] > since or id(m.get("of", m)) in in_play]
        players.append({"seat": seat, "moves": out, "summary": _summary(out), "calibration": _calibration(out)})
    return {"players": players}


class _Walk:
    """The moves found so far, and what links a claim to its window, its answers and its call."""

    def __init__(self, seats: int):
        self.moves: list[list[dict[str, Any]]] = [[] for _ in range(seats)]
        self.pending: dict[str, Any] | None = None  # the last claim, until its window opens
        self.windows: dict[int, dict[str, Any]] = {}  # window id -> its claim
        self.given_at: dict[tuple[int, int], int] = {}  # (window, seat) -> the step of the answer
        self.calls: dict[tuple[int, int], dict[str, Any]] = {}  # (window, caller) -> the call
        self.challenged: int | None = None  # the window whose call is being settled (one at a time, R58-R60)
        self.unsettled: list[dict[str, Any]] = []  # claims in play: no window closed on them uncalled, no call settled
        self.closed: dict[int, list[tuple[int, dict[str, Any]]]] = {}  # window id -> the answers its closing added

    def no_window(self) -> None:
        """The last claim got no window: nobody could call it (a guard made again after an undo, with the action's
        bluff exposed at once), so it is no bluff that got through."""
        if self.pending is not None:
            self.pending["outcome"] = NO_WINDOW
            self._settle(self.pending)
        self.pending = None

    def claimed(self, seq: int, found: dict[str, Any]) -> None:
        self.no_window()
        keep = ("claimant", "claim", "about", "probability", "held")
        self.pending = {"step": seq, "kind": "claim", "outcome": "not called", "claim_step": seq} | {
            k: found[k] for k in keep
        }
        self.moves[found["claimant"]].append(self.pending)
        self.unsettled.append(self.pending)

    def _settle(self, claim: dict[str, Any]) -> None:
        self.unsettled = [c for c in self.unsettled if c is not claim]

    def dealt_again(self, state: GameState) -> None:
        """A branch dealt again the cards its knower could not name, while these claims were still in play: what
        the claimant held is what the branch dealt (and what a call on it in the branch then finds), for the claim
        and every answer to it."""
        for claim in self.unsettled:
            claim["held"] = state.holds(claim["claimant"], claim["claim"])
            for mine in self.moves:
                for move in mine:
                    if move.get("of") is claim:
                        move["held"] = claim["held"]

    def window_opened(self, e: dict[str, Any]) -> None:
        claim = self.pending
        if e.get("claim") and claim is not None and (claim["claimant"], claim["claim"]) == (e["claimant"], e["claim"]):
            self.windows[e["window"]] = claim
            self.pending = None
        else:
            self.no_window()

    def answered(self, e: dict[str, Any]) -> None:
        """An answer in a window, or an undo's late call (``UndoClaimed``): its step is where it was made, as the
        audit says, not the window's closing."""
        self.given_at[(e["window"], e["seat"])] = e["seq"]

    def window_closed(self, e: dict[str, Any]) -> None:
        window = e["window"]
        claim = self.windows.get(window)
        if claim is None:
            return
        # an undo closes the window again, with its answers then and the undo's call: they replace what the first
        # closing said (an answer it kept is no longer inside what the undo made void: ``undone``)
        for seat, entry in self.closed.pop(window, []):
            self.moves[seat].remove(entry)
            self.calls.pop((window, seat), None)
        added = self.closed[window] = []
        for seat_text, answer in sorted(e["answers"].items(), key=lambda a: int(a[0])):
            seat = int(seat_text)
            entry = {
                **claim,
                "of": claim,  # its outcome is known later
                "step": self.given_at.get((window, seat), e["seq"]),
                "kind": answer.get("answer"),
                "means": answer.get("means"),
                "outcome": None,
            }
            self.moves[seat].append(entry)
            added.append((seat, entry))
            if entry["kind"] == "call":
                self.calls[(window, seat)] = entry
        if not any(answer.get("answer") == "call" for answer in e["answers"].values()):
            self._settle(claim)  # nobody called it: it stands as made

    def called(self, e: dict[str, Any]) -> None:
        if e["window"] not in self.windows:
            return
        self.challenged = e["window"]
        for seat in e.get("void_calls", []):  # later callers are ignored (R60, A13)
            if (e["window"], seat) in self.calls:
                self.calls[(e["window"], seat)]["outcome"] = "void"

    def shown(self, e: dict[str, Any]) -> None:
        if self.challenged is not None:
            self.windows[self.challenged]["outcome"] = "proven" if e["type"] == "ClaimProven" else "exposed"

    def settled(self, e: dict[str, Any]) -> None:
        if self.challenged is None:
            return
        self._settle(self.windows[self.challenged])
        call = self.calls.get((self.challenged, e["caller"]))
        if call is not None:
            call["outcome"] = "right" if e["correct"] else "wrong"
        self.challenged = None

    HANDLERS: dict[str, Callable[[_Walk, dict[str, Any]], None]] = {
        "ReactionWindowOpened": window_opened,
        "ReactionGiven": answered,
        "UndoClaimed": answered,
        "ReactionWindowClosed": window_closed,
        "BluffCalled": called,
        "ClaimProven": shown,
        "BluffExposed": shown,
        "CallSettled": settled,
    }


def _finished(move: dict[str, Any], voids: list[tuple[int, int]]) -> dict[str, Any]:
    """A move as the review shows it: every field, the claim's fate for an answer that is no call."""
    kind = move["kind"]
    outcome = move["outcome"]
    if outcome is None and kind == "call":  # the game ended before the call was settled
        outcome = "unsettled"
    if outcome is None:  # a pass, a guard, an item used: what became of the claim
        outcome = move["of"]["outcome"]
    return {
        "step": move["step"],
        "kind": kind,
        "claimant": move["claimant"],
        "claim": move["claim"],
        "about": move["about"],
        "claim_step": move["claim_step"],
        "means": move.get("means"),
        "probability": move["probability"],
        "held": move["held"],
        "outcome": outcome,
        "against_odds": move["probability"] >= AGAINST_THE_ODDS if kind == "call" else None,
        "bluff_through": (not move["held"] and outcome == "not called") if kind == "claim" else None,
        "undone": is_void(voids, move["step"]),  # an answer an undo kept is outside them
    }


def _summary(moves: list[dict[str, Any]]) -> dict[str, int]:
    live = [m for m in moves if not m["undone"]]
    claims = [m for m in live if m["kind"] == "claim"]
    calls = [m for m in live if m["kind"] == "call"]
    return {
        "claims": len(claims),
        "bluffs": sum(1 for m in claims if not m["held"]),
        "bluffs_through": sum(1 for m in claims if m["bluff_through"]),
        "calls": len(calls),
        "calls_right": sum(1 for m in calls if m["outcome"] == "right"),
        "calls_against_odds": sum(1 for m in calls if m["against_odds"]),
        "passes": sum(1 for m in live if m["kind"] == "pass"),
        "guards": sum(1 for m in live if m["kind"] == "guard"),
    }


def _calibration(moves: list[dict[str, Any]]) -> dict[str, Any]:
    calls = [m for m in moves if m["kind"] == "call" and not m["undone"]]
    if not calls:
        return {"calls": 0, "mean_probability": None, "held_rate": None, "brier": None}
    n = len(calls)
    return {
        "calls": n,
        "mean_probability": sum(m["probability"] for m in calls) / n,
        "held_rate": sum(1 for m in calls if m["held"]) / n,
        "brier": sum((m["probability"] - m["held"]) ** 2 for m in calls) / n,
    }
