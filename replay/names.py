"""Whose names an event of a record is told with. A branch's record opens with its original's events up to the branch
point (copied), played by the original's players: those events are told with the original's names, and only the
branch's own with the names of the branch's seats. A branch imported without its original tells them with the seats'
numbers ("Seat 2"), never with the branch's names for moves its players did not make."""

from __future__ import annotations

from collections.abc import Callable
from uuid import UUID

from aegis.service.aggregate import Game
from aegis.service.errors import NotFound
from aegis.service.games import GameService

Names = Callable[[int], list[str]]  # the seq of an event -> the seats' names to tell it with


def seat_names(game: Game) -> list[str]:
    return [s["name"] for s in game.seats]


def branch_point(game: Game) -> int:
    """The last step of a branch's record copied from its original (0 for a game that is no branch)."""
    return 0 if game.branch_of is None else int(game.branch_of["step"])


def original_names(service: GameService, game: Game) -> list[str]:
    """A branch's original's seats' names ("Seat N" for each when the original is not in this store)."""
    assert game.branch_of is not None
    try:
        return service.read(UUID(game.branch_of["game"]), seat_names)
    except NotFound:
        return [f"Seat {seat}" for seat in range(len(game.seats))]


def names_by_seq(service: GameService, game: Game) -> Names:
    """The names to tell the event numbered ``seq`` with: the original's up to a branch's point, the game's own after."""
    own = seat_names(game)
    point = branch_point(game)
    if not point:
        return lambda _seq: own
    before = original_names(service, game)
    return lambda seq: before if seq <= point else own

