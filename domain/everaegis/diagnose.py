"""Why a command is refused: the most specific rule that forbids it, and the seat's open prompts instead."""

from __future__ import annotations

from typing import Any

from aegis.domain.everaegis.catalog import CATALOG
from aegis.domain.everaegis.state import GameState
from aegis.domain.everaegis.war_bans import why_not
from aegis.domain.kernel.decisions import DecisionKind
from aegis.domain.kernel.errors import DomainError, IllegalCommand, NotYourTurn, TooLate
from aegis.domain.kernel.prompts import Prompt


def _open(prompts: list[Prompt]) -> list[dict[str, Any]]:
    return [p.to_dict() for p in prompts]


def diagnose(
    s: GameState, cmd: dict[str, Any], kinds: list[DecisionKind], same_kind: list[Prompt], all_open: list[Prompt]
) -> DomainError:
    """``kinds``: the decision kinds the command's type may answer; ``same_kind``: the open prompts of those
    kinds (none accepted it); ``all_open``: every open prompt of the seat."""
    seat = cmd["seat"]
    names = {k.kind for k in kinds}
    legal = _open(all_open)
    window = cmd.get("window") if "react" in names else None
    open_window = s.calls.window
    if isinstance(window, int) and 0 < window <= s.calls.windows_opened and (open_window is None or open_window.id != window):
        return TooLate(f"reaction window {window} is already closed", rule="A1", prompts=legal)
    undo_window = cmd.get("window") if "undo" in names else None
    if isinstance(undo_window, int) and (s.undo is None or s.undo.window != undo_window):
        return TooLate(f"no undo can be claimed for window {undo_window} now", rule="R156", prompts=legal)
    if not all_open or (all(p.free for p in all_open) and "treaty_gift" not in names):
        rule, why = _nobody_waits_for(s, seat, cmd, names)
        return NotYourTurn(why, rule=rule, prompts=legal)
    if not same_kind:
        asked = ", ".join(sorted({p.kind for p in all_open}))
        return IllegalCommand(
            f"a '{cmd['type']}' command answers nothing you are asked now (you are asked: {asked})", rule="R24", prompts=legal
        )
    reason = _declaration_reason(s, cmd) if "declare" in names else (None, None)
    if reason[1] is None:  # the rule of the decision the command answers, and what a legal answer is
        kind = next(k for k in kinds if k.kind == same_kind[0].kind)
        reason = (kind.rule, kind.refusal)
    return IllegalCommand(reason[1] or "", rule=reason[0], prompts=legal)


def _nobody_waits_for(s: GameState, seat: int, cmd: dict[str, Any], names: set[str]) -> tuple[str, str]:
    """The rule that keeps ``seat`` out of the game's decisions right now, and why."""
    if seat in s.departures.resigned:
        return "S2", "you resigned: you take no further part (the server makes any decision still yours)"
    vengeance = s.players[seat].eliminated and s.config.option("vengeance") and "react" in names
    if s.players[seat].eliminated and not vengeance:
        return "R123", "you are eliminated: an eliminated player takes no part"
    if s.is_mob(seat):
        return "R173", "this seat is a mob: the D8 decides for it"
    w = s.calls.window
    if "react" in names and w is not None and cmd.get("window") == w.id:
        if seat == w.claimant:
            return "R67", "you made this claim: you cannot react to it"
        if seat in w.answers:
            return "A1", "you have already answered in this window"
        if s.partner(w.claimant) == seat:
            return "R107", "TREATY parties cannot call each other's bluffs"
        if seat in s.calls.silenced:
            return "R159", "your wrong call under Vengeance ended your calling for the rest of the game"
        if s.players[seat].brigs:
            return "A37", "a BRIG holder cannot call bluffs"
    if vengeance:
        return "R159", "under Vengeance an eliminated player may only call bluffs, when a window asks them"
    if "treaty_gift" in names and s.partner(seat) is not None:
        return "R107", "a player within a war cannot give away their soldiers"
    return "R24", "nothing is asked of you now; see your view's prompts"


def _declaration_reason(s: GameState, cmd: dict[str, Any]) -> tuple[str | None, str | None]:
    seat = cmd["seat"]
    me = s.players[seat]
    action = cmd["action"]
    partner = s.partner(seat)
    if action in me.sanctions:
        return "R109", f"your {action.title()} is SANCTIONED: declare it with no plan; it discards an unrevealed card"
    claim = CATALOG.action(action).claim
    if claim is not None and not s.may_bluff(seat) and not s.holds(seat, claim):
        return "R167", f"Solo: you cannot bluff; {action.title()} needs an unrevealed {claim} of yours"
    if action == "war":
        target = cmd.get("target")
        if me.soldiers < 1:
            return "R77", "you need at least 1 soldier to declare war"
        if not isinstance(target, int) or not 0 <= target < s.seats or target == seat:
            return "R45", "War needs a 'target': another player"
        if s.players[target].eliminated:
            return "R139", "that player is eliminated"
        refusal = why_not(s, seat, target)  # the TREATY, allies, the Chapel, the TORCH, TARGET and EFFIGY
        if refusal is not None:
            return refusal
    if action == "temple":
        card = cmd.get("card")
        owner = s.owner_of(card) if isinstance(card, str) else None
        if owner is None or not isinstance(card, str):
            return "R46", "Temple needs a 'card': the id of a revealed card in play, and a 'recipient'"
        c = s.players[owner].card(card)
        if c is not None and not c.revealed:
            return "R46", "Temple gives a revealed card; that card is unrevealed"
        if owner == partner or cmd.get("recipient") == partner:
            return "R107", "you cannot affect your TREATY partner"
        if s.players[owner].eliminated and s.config.option("vengeance"):
            return "R159", "under Vengeance nobody may take a card from an eliminated player"
    if action == "library" and "sanctions" in cmd:
        for t in cmd["sanctions"] if isinstance(cmd["sanctions"], list) else []:
            if isinstance(t, dict) and isinstance(t.get("seat"), int) and 0 <= t["seat"] < s.seats:
                if t.get("action") in s.players[t["seat"]].sanctions:
                    return "A19", "that action is already SANCTIONED (one per action, R110)"
                if t["seat"] == partner:
                    return "R107", "you cannot affect your TREATY partner"
    if action == "mason" and "give_wall" in cmd and cmd["give_wall"] == s.items.wall:
        return "R106", "that player already holds the WALL"
    return "R38", f"that is not a legal plan for {action.title()}; see the options"
