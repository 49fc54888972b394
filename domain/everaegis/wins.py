"""Alternate win conditions printed on a leader (R9c), as data: ``win_if`` steps of the leader's ``win``
effect, checked in that player's own Conquest Phase like the unrevealed-cards win (R10; a ruling)."""

from __future__ import annotations

from aegis.domain.everaegis import artificers
from aegis.domain.everaegis.state import GameState


def count(s: GameState, seat: int, what: str) -> int:
    p = s.players[seat]
    return {
        "soldiers": lambda: p.soldiers,
        "unrevealed": lambda: len(p.unrevealed),
        "revealed": lambda: len(p.revealed),
        "items": lambda: artificers.pieces_held(s, seat),
        "item kinds": lambda: len(artificers.kinds_held(s, seat)),
        "sacrifices": lambda: p.sacrifices,
    }[what]()


def alternate_win(s: GameState, seat: int) -> str | None:
    """The reason ``seat`` wins by their leader's own condition now, or None."""
    effect = s.leader_effect(seat, "win")
    if effect is None:
        return None
    for step in effect["steps"]:
        if count(s, seat, step["count"]) >= step["at_least"]:
            leader = s.players[seat].leader
            return f"{leader}'s win condition: {step['at_least']} or more {step['count']} (R9c)"
    return None
