"""The audit of a claim in Ever Aegis's record (the ruleset's ``audit``, served as ``GET /api/games/{id}/audit``): who
claimed what at a step, what they held, what the others knew of it, every answer with its time, whether an undo could
have been claimed (RULINGS "Undo"), and what followed. Pure: it reads the record's events, as the reader may see them,
and the times the service gives it. Also the spans an undo made void (``undone``), for timelines."""

from __future__ import annotations

from typing import Any

from aegis.domain.everaegis.config import Config
from aegis.domain.everaegis.evolve import UNDO_CLOSERS_SAID, closes_undo, fold
from aegis.domain.everaegis.narration import narrate
from aegis.domain.kernel.errors import NothingThere
from aegis.domain.kernel.events import event_from_dict
from aegis.domain.kernel.redaction import OMNISCIENT, Perspective, redact_event
from aegis.domain.kernel.ruleset import is_void


def audit(
    config: Config,
    log: list[dict[str, Any]],
    step: int,
    effective: Perspective,
    names: list[str],
    accepted: dict[int, dict[str, Any]],
) -> dict[str, Any]:
    """The claim in play at ``step`` (the last one at or before it: an action declared, or a guard claimed with a
    card, R65), as the reader ``effective`` may know it (already the omniscient reader once the game is over): who
    claimed what, what the claimant held and what each other player knew of it, every answer with the time its
    command was accepted (``accepted``: seq -> the command that caused that event; an undo's call among them),
    whether an undo could have been claimed, and what followed, to the end of the action (an end an undo made void
    is not its end)."""
    void = undone(log)
    # a claim an undo made void is audited only when asked for at its own step: otherwise the claim the undo was about
    declared = next((e for e in reversed(log[:step]) if _is_claim(e) and (e["seq"] == step or not is_void(void, e["seq"]))), None)
    if declared is None:
        raise NothingThere(f"no action was declared and no guard claimed at or before step {step}: nothing to audit")
    start = declared["seq"]
    end = next(
        (e["seq"] for e in log[start:] if e["type"] in ("ActionCompleted", "ActionThwarted") and not is_void(void, e["seq"])),
        len(log),
    )
    before = fold(config, [event_from_dict(e) for e in log[: start - 1]])
    claimant = declared["seat"]
    hand = [c for c in before.players[claimant].cards if not c.revealed]
    about = "guard" if declared["type"] == "GuardDeclared" else "action"
    act = before.play.act
    claim = (act.claim if act is not None else None) if about == "guard" else declared.get("claim")
    # a branch that dealt again, while this claim was in play, the cards its knower could not name: the claimant held
    # what the branch dealt (what a call on it there finds); the names are the omniscient's and the claimant's own
    redeal = next((e for e in log[start - 1 : end] if e["type"] == "CardsDealtAgain"), None)
    dealt: dict[str, str] = redeal.get("names", {}) if redeal is not None else {}
    named = [dealt.get(c.id, c.name) for c in hand]
    held: dict[str, Any] | None = None
    if effective in (OMNISCIENT, claimant):
        held = {"cards": named, "holds_claimed_card": None if claim is None else claim in named}
        if redeal is not None:
            held["dealt_again_at_step"] = redeal["seq"]
    knew = {}
    for seat, name in enumerate(names):
        if seat == claimant or (effective != OMNISCIENT and effective != seat):
            continue
        knew[name] = [c.name for c in hand if c.known_to(seat, claimant)]  # what it knew then: a seat's knowledge
    times = {  # when each answer's command was accepted (an answer the server gave for a seat has no time here)
        e["seq"]: accepted[e["seq"]]["at"]
        for e in log[start - 1 : end]
        if e["type"] == "ReactionGiven" and accepted.get(e["seq"], {}).get("type") == "react"
    }
    published: dict[tuple[int, int], dict[str, Any]] = {}  # (window, seat) -> the answer, public once it closed
    for e in log[start - 1 : end]:
        if e["type"] == "ReactionWindowClosed":
            for seat, given in e["answers"].items():
                published[(e["window"], int(seat))] = given
    answers = []
    for e in log[start - 1 : end]:
        if e["type"] == "ReactionGiven":
            given = published.get((e["window"], e["seat"])) or redact_event(e, effective)
            answers.append(
                {
                    "window": e["window"],
                    "seat": e["seat"],
                    "name": names[e["seat"]],
                    "answer": given.get("answer"),
                    "means": given.get("means"),
                    "at": times.get(e["seq"]),
                    "step": e["seq"],
                    "undone": is_void(void, e["seq"]),
                }
            )
        elif e["type"] == "UndoClaimed":  # the claimant of an undo calls, late, in the window it reopens (R155)
            command = accepted.get(e["seq"], {})
            answers.append(
                {
                    "window": e["window"],
                    "seat": e["seat"],
                    "name": names[e["seat"]],
                    "answer": "call",
                    "means": None,
                    "at": command.get("at") if command.get("type") == "undo" else None,
                    "step": e["seq"],
                    "undone": False,
                    "by_undo": True,
                }
            )
    span = [redact_event(e, effective) for e in log[start - 1 : end]]
    return {
        "declared": redact_event(declared, effective) | {"text": narrate(redact_event(declared, effective), names)},
        "about": about,
        "undone": is_void(void, start),  # an undo made this claim void (asked for at its own step)
        "claimant": {"seat": claimant, "name": names[claimant]},
        "claim": claim,
        "claimant_held": held,
        "others_knew": knew,
        "answers": answers,
        "windows": _windows(log[start - 1 : end], names, accepted),
        "undo": _undo(log, start, end, names, about),
        "followed": [{"seq": e["seq"], "text": narrate(e, names)} for e in span],
    }


def _windows(span: list[dict[str, Any]], names: list[str], accepted: dict[int, dict[str, Any]]) -> list[dict[str, Any]]:
    """Each reaction window of the span with its times, to settle "was I given time to answer?": when it opened
    (the server time of the command that opened it), its deadline, when and how it closed, who had not answered
    (a window an undo closes again is listed again, as it closed then). Times are the server's, in seconds."""
    out: list[dict[str, Any]] = []
    opened: dict[int, dict[str, Any]] = {}
    for e in span:
        if e["type"] == "ReactionWindowOpened":
            opened[e["window"]] = {
                "window": e["window"],
                "about": e["about"],
                "claimant": names[e["claimant"]],
                "asked": [names[seat] for seat in e["asked"]],
                "opened_step": e["seq"],
                "opened_at": accepted.get(e["seq"], {}).get("at"),
                "deadline": e.get("deadline"),
            }
        elif e["type"] == "ReactionWindowClosed" and e["window"] in opened:
            out.append(
                opened[e["window"]]
                | {
                    "closed_step": e["seq"],
                    "closed_at": accepted.get(e["seq"], {}).get("at"),
                    "closed_by": e.get("by"),
                    "no_answer_from": [names[seat] for seat in e.get("timed_out") or []],
                }
            )
    out.extend(w | {"closed_step": None} for n, w in opened.items() if not any(x["window"] == n for x in out))
    return out


def _is_claim(event: dict[str, Any]) -> bool:
    """An event an audit is about: an action declared (a claim, or no claim at all: R61), or a guard with a card."""
    return event["type"] == "ActionDeclared" or (event["type"] == "GuardDeclared" and event.get("means") == "card")


def undone(log: list[dict[str, Any]]) -> list[tuple[int, int]]:
    """The spans of seqs an undo made void (RULINGS "Undo"): each claimed undo's first and last, but for the answers
    given in the window it closes again, which it keeps ("with its answers"): they stand, so they are not void."""
    return [span for u in log if u["type"] == "UndoClaimed" for span in undo_spans(log, u)[0]]


def undo_spans(log: list[dict[str, Any]], claimed: dict[str, Any]) -> tuple[list[tuple[int, int]], list[int]]:
    """What one claimed undo made void: its spans of seqs, and the seqs of the answers it kept (given in the window it
    closes again), around which its span ``undone_from``..``undone_to`` is split."""
    lo, hi = claimed["undone_from"], claimed["undone_to"]
    kept = [e["seq"] for e in log[lo - 1 : hi] if e["type"] == "ReactionGiven" and e["window"] == claimed["window"]]
    spans: list[tuple[int, int]] = []
    for seq in kept:
        if lo < seq:
            spans.append((lo, seq - 1))
        lo = seq + 1
    if lo <= hi:
        spans.append((lo, hi))
    return spans, kept


# what ended the time to claim an undo, in words: an event that closes it (evolve.py), or the pause's end
_UNDO_ENDS = {**UNDO_CLOSERS_SAID, "UndoExpired": "the pause for an undo ended"}


def _undo(log: list[dict[str, Any]], start: int, end: int, names: list[str], about: str) -> dict[str, Any]:
    """RULINGS "Undo": possible only after a window closed by deadline, for those who had not answered,
    until a card is revealed, gained or put on the deck, or the End Phase begins."""
    span = log[start - 1 : end]
    if not any(e["type"] == "ReactionWindowOpened" for e in span):
        return {"possible": False, "why": f"no reaction window opened for this {about}"}
    closed = next((e for e in span if e["type"] == "ReactionWindowClosed"), None)
    if closed is None:  # the record stops with the window open (a game still on): nothing is settled yet
        return {
            "possible": False,
            "open": True,
            "why": "its reaction window is still open: an undo may follow only a window its deadline closes",
        }
    if closed["by"] != "deadline" or not closed.get("timed_out"):
        return {"possible": False, "why": "every asked player answered before the window closed"}
    callers = [names[int(seat)] for seat, a in (closed.get("answers") or {}).items() if a.get("answer") == "call"]
    if callers:  # the engine's own condition (events/claims.py, the window's close): an undo is for a window nobody called in
        why = f"{', '.join(callers)} called in the window: an undo follows only a window nobody called in"
        return {"possible": False, "why": why}
    # the engine's own list of what closes an undo, or the pause's end with no claim
    stop = next((e for e in log[closed["seq"] :] if closes_undo(e) or e["type"] == "UndoExpired"), None)
    who = [names[s] for s in closed["timed_out"]]
    until = f"until step {stop['seq']} ({_UNDO_ENDS.get(stop['type'], 'the End Phase began')})" if stop else (
        "until the end of the record"
    )
    claimed = next((e for e in log[closed["seq"] :] if e["type"] == "UndoClaimed" and e["window"] == closed["window"]), None)
    out = {
        "possible": True,
        "claimants": who,
        "window_closed_at_step": closed["seq"],
        "until_step": stop["seq"] if stop else None,
        "claimed": claimed is not None,
        "why": f"the window closed by deadline without an answer from {', '.join(who)}: an undo could be claimed {until}",
    }
    if claimed is not None:
        out["claimed_by"] = names[claimed["seat"]]
        spans, kept = undo_spans(log, claimed)
        # the first and last step it made void (the answers it kept stand, as the timeline says), and those answers
        out["undone"] = [spans[0][0], spans[-1][1]] if spans else []
        out["answers_kept"] = kept
    return out
