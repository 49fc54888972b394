"""Elimination and the end: a player eliminated (R123), and the game over, its seed published so that every
shuffle can be checked.
"""

from __future__ import annotations

from dataclasses import field
from typing import Any

from aegis.domain.everaegis.events.tables import Who, handler, narrator
from aegis.domain.everaegis.state import GameState
from aegis.domain.kernel.events import Event, event

ELIMINATION_REVEAL = "eliminated (R123)"  # the reason of the reveals an elimination makes (turns.eliminate)


@event
class PlayerEliminated(Event):
    seat: int = 0
    reason: str = ""


@handler(PlayerEliminated)
def _evolve_player_eliminated(s: GameState, e: PlayerEliminated) -> None:
    s.players[e.seat].eliminated = True


@narrator(PlayerEliminated)
def _narrate_player_eliminated(e: dict[str, Any], who: Who) -> str:
    return f"{who(e['seat'])} is eliminated"


@event
class GameEnded(Event):
    """The game is over; the seed is published so that every shuffle can be checked."""

    result: str = "win"  # win or draw
    winners: list[int] = field(default_factory=list)
    reason: str = ""
    seed: str = ""


@handler(GameEnded)
def _evolve_game_ended(s: GameState, e: GameEnded) -> None:
    s.status = "finished"
    s.outcome.result = e.result
    s.outcome.winners = list(e.winners)
    s.outcome.end_reason = e.reason
    s.calls.window = None
    s.calls.challenge = None


@narrator(GameEnded)
def _narrate_game_ended(e: dict[str, Any], who: Who) -> str:
    if e["result"] == "draw":
        return f"The game is a draw ({e['reason']})"
    verb = "wins" if len(e["winners"]) == 1 else "win"  # Alliances and Overlord teams share a win (R163, R170)
    return f"{', '.join(who(s) for s in e['winners'])} {verb} ({e['reason']})"
