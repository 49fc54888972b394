"""Turns and phases: a turn begins, or is skipped (BRIG), goes through its phases and ends. The Draw Phase
queues its draw and asks the holders of reactive items first (R27, R104, R118, R166); items received become usable
once a turn ends (R103).
"""

from __future__ import annotations

from typing import Any

from aegis.domain.everaegis.events.tables import Who, handler, narrator
from aegis.domain.everaegis.state import GameState
from aegis.domain.kernel.events import Event, event


@event
class TurnBegan(Event):
    seat: int = 0
    turn: int = 0


@handler(TurnBegan)
def _evolve_turn_began(s: GameState, e: TurnBegan) -> None:
    s.variant.streak = s.variant.streak + 1 if e.seat == s.play.current else 1  # Overlord: turns in a row (R170)
    s.status = "active"
    s.stage = "turn"
    s.play.current = e.seat
    s.play.turn = e.turn
    s.play.phase = None
    s.play.action_done = False
    s.play.act = None


@narrator(TurnBegan)
def _narrate_turn_began(e: dict[str, Any], who: Who) -> str:
    return f"Turn {e['turn']}: {who(e['seat'])}"


@event
class TurnSkipped(Event):
    seat: int = 0
    reason: str = ""


@handler(TurnSkipped)
def _evolve_turn_skipped(s: GameState, e: TurnSkipped) -> None:
    s.play.phase = "over"
    s.outcome.quiet_turns += 1
    s.items.fresh = {}


@narrator(TurnSkipped)
def _narrate_turn_skipped(e: dict[str, Any], who: Who) -> str:
    return f"{who(e['seat'])} skips the turn (BRIG)"


@event
class PhaseBegan(Event):
    seat: int = 0
    phase: str = ""


@handler(PhaseBegan)
def _evolve_phase_began(s: GameState, e: PhaseBegan) -> None:
    s.play.phase = e.phase
    if e.phase == "draw" and not s.config.thresholds.survival:
        s.play.draw_queue.append((e.seat, "draw phase"))  # R27; Survival skips it (R166)
        s.items.draw_asked = draw_reactors(s, e.seat)  # R118: before the card is drawn


def draw_reactors(s: GameState, drawer: int) -> list[int]:
    """Remaining players other than the drawer holding a reactive item used in a Draw Phase (R104, R118), but not
    the drawer's TREATY partner: the two "cannot affect each other with any ... consumable items" (R107)."""
    if not s.items.held:
        return []
    partner = s.partner(drawer)
    return [seat for seat in s.remaining_in_turn_order() if seat not in (drawer, partner) and s.items_acting(seat, "draw")]


@narrator(PhaseBegan)
def _narrate_phase_began(e: dict[str, Any], who: Who) -> str:
    return f"{who(e['seat'])}'s {e['phase'].title()} Phase"


@event
class TurnEnded(Event):
    seat: int = 0
    turn: int = 0


@handler(TurnEnded)
def _evolve_turn_ended(s: GameState, e: TurnEnded) -> None:
    s.play.phase = "over"
    s.outcome.quiet_turns += 1
    s.items.fresh = {}  # R103: items received so far become usable once a turn ends


@narrator(TurnEnded)
def _narrate_turn_ended(e: dict[str, Any], who: Who) -> str:
    return f"{who(e['seat'])}'s turn ends"
