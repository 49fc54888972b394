"""Why a command is refused: the most specific rule that forbids it, and the legal alternatives."""

from __future__ import annotations

from typing import Any

from domain.everaegis.catalog import CATALOG
from domain.everaegis.state import GameState
from domain.kernel.errors import DomainError, IllegalCommand, NotYourTurn, TooLate
from domain.kernel.prompts import Prompt


def _open(prompts: list[Prompt]) -> list[dict[str, Any]]:
    return [p.to_dict() for p in prompts]


def diagnose(s: GameState, cmd: dict[str, Any], same_kind: list[Prompt], all_open: list[Prompt]) -> DomainError:
    seat = cmd["seat"]
    legal = _open(all_open)
    window = cmd.get("window") if cmd["type"] == "react" else None
    if isinstance(window, int) and 0 < window <= s.windows_opened and (s.window is None or s.window.id != window):
        return TooLate(f"reaction window {window} is already closed", rule="A1", prompts=legal)
    undo_window = cmd.get("window") if cmd["type"] == "undo" else None
    if isinstance(undo_window, int) and (s.undo is None or s.undo.window != undo_window):
        return TooLate(f"no undo can be claimed for window {undo_window} now", rule="R156", prompts=legal)
    if not all_open or (all(p.free for p in all_open) and cmd["type"] != "give_soldiers"):
        rule, why = _nobody_waits_for(s, seat, cmd)
        return NotYourTurn(why, rule=rule, prompts=legal)
    if not same_kind:
        kinds = ", ".join(sorted({p.kind for p in all_open}))
        return IllegalCommand(
            f"a '{cmd['type']}' command answers nothing you are asked now (you are asked: {kinds})", rule="R24", prompts=legal
        )
    rule, why = _declaration_reason(s, cmd) if cmd["type"] == "declare" else (None, None)
    if why is None:
        rule, why = _REASONS.get(same_kind[0].kind, ("R38", "that is not one of the options of this prompt"))
    return IllegalCommand(why, rule=rule, prompts=legal)


def _nobody_waits_for(s: GameState, seat: int, cmd: dict[str, Any]) -> tuple[str, str]:
    """The rule that keeps ``seat`` out of the game's decisions right now, and why."""
    if seat in s.resigned:
        return "S2", "you resigned: you take no further part (the server makes any decision still yours)"
    vengeance = s.players[seat].eliminated and s.config.option("vengeance") and cmd["type"] == "react"
    if s.players[seat].eliminated and not vengeance:
        return "R123", "you are eliminated: an eliminated player takes no part"
    if s.is_mob(seat):
        return "R173", "this seat is a mob: the D8 decides for it"
    w = s.window
    if cmd["type"] == "react" and w is not None and cmd.get("window") == w.id:
        if seat == w.claimant:
            return "R67", "you made this claim: you cannot react to it"
        if seat in w.answers:
            return "A1", "you have already answered in this window"
        if s.partner(w.claimant) == seat:
            return "R107", "TREATY parties cannot call each other's bluffs"
        if seat in s.silenced:
            return "R159", "your wrong call under Vengeance ended your calling for the rest of the game"
        if s.players[seat].brigs:
            return "A37", "a BRIG holder cannot call bluffs"
    if vengeance:
        return "R159", "under Vengeance an eliminated player may only call bluffs, when a window asks them"
    if cmd["type"] == "give_soldiers" and s.partner(seat) is not None:
        return "R107", "a player within a war cannot give away their soldiers"
    return "R24", "nothing is asked of you now; see your view's prompts"


_REASONS = {
    "choose_year": ("R34", "choose one of the remaining years"),
    "setup_reveal": ("R164", "reveal one of your own unrevealed cards"),
    "react": (
        "R56",
        "that reaction is not open to you in this window (a call needs no BRIG and no TREATY with the claimant;"
        " a guard needs to be affected by the action, and the WALL to guard with it)",
    ),
    "prove": ("R57", "reveal one of your own unrevealed cards"),
    "pay": ("R58", "fully reveal one of your own unrevealed cards"),
    "take_brig": ("R105", "take the BRIG from a player who holds one"),
    "take_sanction": ("R105", "take a SANCTION from another player's mat"),
    "sanction_discard": ("R110", "discard one of your own unrevealed cards"),
    "barracks_discard": ("R48", "discard one of your own unrevealed cards"),
    "put_back": ("A21", "put 2 different unrevealed cards of yours on the deck, top first"),
    "war_reveal": ("R83", "reveal 2 different unrevealed cards of yours"),
    "treaty_gift": ("R107", "give between 1 and all of your soldiers to your TREATY partner"),
    "undo": ("R155", "answer 'claim' or 'waive' for the window of the pending undo"),
    "spoils": ("R171", "answer 'take' or 'leave' for the loser's Blasphemy tokens"),
}


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
        if target == partner:
            return "R107", "TREATY partners cannot go to war with each other"
        if s.variant.allied(seat, target) and s.config.option("ally_war") == 0:
            return "R163", "that player is your ally, and this game's option ally_war is 0"
    if action == "temple":
        card = cmd.get("card")
        owner = s.owner_of(card) if isinstance(card, str) else None
        if owner is None:
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
    if action == "mason" and "give_wall" in cmd and cmd["give_wall"] == s.wall:
        return "R106", "that player already holds the WALL"
    return "R38", f"that is not a legal plan for {action.title()}; see the legal options"
