"""Per-player statistics of Ever Aegis, counted from events: games, wins, draws, bluffs made, calls made,
bluffs caught, wars won. A player is a seat name (the service has no accounts).

A bluff is a claim (an action that names a building, or a guard with a card) made without an
unrevealed card of that building; the state just before the claim says whether the claimant had one.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

FIELDS = ("games", "wins", "draws", "bluffs_made", "calls_made", "bluffs_caught", "wars_won")


def _holds(state: Any, seat: int, building: str) -> bool:
    return any(c.name == building for c in state.players[seat].unrevealed)


def everaegis(state: Any, payload: dict[str, Any], names: list[str]) -> Iterator[tuple[str, str]]:
    """(player, field) for every count one event adds, given the state before it."""
    kind = payload["type"]
    if kind == "GameStarted":
        for name in names:
            yield name, "games"
    elif kind == "GameEnded":
        if payload["result"] == "draw":
            for name in names:
                yield name, "draws"
        for seat in payload["winners"]:
            yield names[seat], "wins"
    elif kind == "ActionDeclared":
        claim = payload.get("claim")
        if claim and not payload.get("sanctioned") and not _holds(state, payload["seat"], claim):
            yield names[payload["seat"]], "bluffs_made"
    elif kind == "GuardDeclared":
        act = state.act
        if payload["means"] == "card" and act is not None and act.claim and not _holds(state, payload["seat"], act.claim):
            yield names[payload["seat"]], "bluffs_made"
    elif kind == "BluffCalled":
        yield names[payload["caller"]], "calls_made"
    elif kind == "BluffExposed":
        yield names[payload["seat"]], "bluffs_caught"
    elif kind == "WarEnded" and payload.get("winner") is not None:
        yield names[payload["winner"]], "wars_won"


STATS = {"ever-aegis": everaegis}
