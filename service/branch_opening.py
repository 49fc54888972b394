"""A branch's opening (``service/branches.py``): the decision point a step leads to, and the events a branch begins
with, worked out when it is made (to refuse what the rules refuse) and written when it starts (``GameService.start``).
Apart from ``branches`` so that the service's start needs nothing of how branches are made."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol
from uuid import UUID

from aegis.domain.kernel.errors import DomainError, NotYourTurn
from aegis.domain.kernel.events import Event, event_from_dict
from aegis.domain.kernel.ruleset import Ruleset
from aegis.service.aggregate import Game
from aegis.service.errors import BadRequest, Illegal, ServiceError, from_domain
from aegis.service.rulesets import ruleset_named

BY_BRANCH = "branch"  # ``CommandAccepted.by`` of the command a branch was made with


Record = Callable[[UUID, int], tuple[Game, list[dict[str, Any]]]]
"""A game's record up to a step, read under its lock: (the game, its events 1..step) (``GameService.record``)."""


class Store(Protocol):
    """What of the game store the decision point reads (``service.games.GameStore``): its stored events."""

    @property
    def events(self) -> Any: ...


def decision_point(store: Store, game: Game, step: int) -> int:
    """The first step at or after ``step`` where the game waited for a decision: the last event of the setup or of
    what one command caused (the events before each accepted command), or the record's last event."""
    for e in store.events.get(game.id):
        if isinstance(e, Game.CommandAccepted) and e.first_seq - 1 >= step:
            return e.first_seq - 1
    return game.seq


def opening(
    rules: Ruleset,
    seed: str,
    original: tuple[UUID, Any],
    log: list[dict[str, Any]],
    point: int,
    deal: str,
    knower: Any,
    command: dict[str, Any] | None,
    names: list[str],
    at: float,
) -> tuple[Any, list[Event], list[Event] | None]:
    """The branch's state after its opening, with the events of its branch point and of its command (None: none).
    ``original``: the original game's id and its started configuration (which the branch keeps). Raises the rules'
    ``DomainError`` for what they refuse."""
    original_id, started_config = original
    config = rules.make_config(started_config)
    copied = [event_from_dict(e) for e in log]
    state = rules.fold(config, copied)
    marks = rules.branch(state, log, game=str(original_id), step=point, deal=deal, knower=knower, names=names, seed=seed, at=at)
    for e in marks:
        rules.apply(state, e)
    played = None
    if command is not None:
        if command.get("type") in rules.system_commands:
            raise BadRequest(f"{command['type']!r} is a command of the server itself; a branch cannot be made with it")
        played = rules.push(state, {**command, "at": at})
    return state, marks, played


def refusal(err: DomainError) -> ServiceError:
    """The rules' refusal of a branch: as for a command, but no seat sent it (so not a 403 for the wrong seat)."""
    if isinstance(err, NotYourTurn):
        return Illegal(err.message, rule=err.rule, prompts=err.prompts)
    return from_domain(err)


def begin(game: Game, now: float, record: Record) -> None:
    """Write a branch's opening at its start: the original's events up to the branch point (read by ``record``),
    the branch point, and the command it was made with (accepted as the branch's, ``by`` "branch")."""
    made = game.branch_of
    assert made is not None
    rules = ruleset_named(game.ruleset)
    _, log = record(UUID(made["game"]), made["step"])
    game.append([event_from_dict(e) for e in log])  # the branch's state is now the position at the branch point
    try:
        marks = rules.branch(
            game.state,
            log,
            game=made["game"],
            step=made["step"],
            deal=made["deal"],
            knower=made["knower"],
            names=[s["name"] for s in game.seats],
            seed=game.seed,
            at=now,
        )
    except DomainError as err:  # pragma: no cover - accepted when the branch was made, the same position now
        raise refusal(err) from None
    game.append(marks)
    command = made["command"]
    if command is not None:
        played = {**command, "at": now}
        game.accept(command.get("seat"), BY_BRANCH, played, None, now)
        try:
            game.play(played)
        except DomainError as err:  # pragma: no cover - accepted when the branch was made
            raise refusal(err) from None
