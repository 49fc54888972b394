"""The review of a finished game: every claim and every answer to one, seat by seat, with the odds that the claim
was held as a perspective knew them at the time (the ruleset's ``review``), and the odds of the claim at one step of
a replay (the ruleset's ``odds``). Both only once the game is over: during a game they would be an analysis engine at
the table, so a replay step carries no odds and the review answers 409 (``tests/api/test_review.py``)."""

from __future__ import annotations

from typing import Any

from aegis.domain.kernel.redaction import Perspective
from aegis.domain.kernel.ruleset import Ruleset
from aegis.replay.names import branch_point
from aegis.service.aggregate import Game
from aegis.service.errors import Conflict


def odds_at(rules: Ruleset, game: Game, state: Any, event: dict[str, Any] | None, who: Perspective) -> dict[str, Any] | None:
    """The odds of the claim the event of a step makes, as ``who`` knew them (``state``: the state after it); None
    during the game, at step 0 and for an event that is no claim."""
    if game.finished_seq is None or event is None:
        return None
    return rules.odds(state, event, who)


def must_be_over(game: Game) -> None:
    if game.finished_seq is None:
        raise Conflict("the review opens when the game is over: during the game its odds would help the players")


def review_of(
    rules: Ruleset, game: Game, log: list[dict[str, Any]], events: list[Any], config: Any, who: Perspective
) -> dict[str, Any]:
    """``GET /api/games/{id}/review``: the ruleset's review of a finished game's record (the caller checked it is over,
    ``must_be_over``, before building its replay), with the seats' names. A branch's review is of the moves made in
    it: those before its point are its original's players' (in the original's review)."""
    found = rules.review(config, log, events, who, branch_point(game))
    names = [s["name"] for s in game.seats]
    return {
        "id": str(game.id),
        "as": who,
        "steps": len(log),
        "players": [{"name": names[p["seat"]], **p} for p in found["players"]],
    }
