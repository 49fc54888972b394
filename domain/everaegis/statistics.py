"""What a finished game says about each seat: its place and its statistics. Counted once, from the whole log,
when the game is over (never while it goes on: a count that moved when a bluff was declared would tell the
table it was a bluff).

Statistics, each named for what it counts:

- ``claims_made``: claims the seat made: actions that name a building, and guards made with a card (R38, R68).
- ``bluffs_made``: of those, claims made without an unrevealed card of that building at that moment.
- ``claims_exposed``: the seat's own claims that another player called and the seat did not prove: a bluff, or a
  true claim whose holder revealed another card (R59, A10).
- ``calls_made``, ``calls_correct``, ``calls_wrong``: calls the seat made, and whether the claim was then exposed
  (correct) or proven (wrong) (R57-R59).
- ``wars_won``: wars the seat won (R78-R90).
- ``timeouts``: decisions the server made for the seat because its clock ran out (service ruling S3).
- ``resigned``, ``abandoned``: 1 if the seat resigned (S2), or was given to a bot after its timeouts (S3).

Places (for ratings): the winners share the first place (everyone, in a draw); then the players still in the
game at its end; then the eliminated, the later the better, those eliminated in the same turn sharing a place.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from aegis.domain.everaegis.config import Config
from aegis.domain.everaegis.evolve import apply, initial_state
from aegis.domain.kernel.events import Event

STATISTICS = {  # each statistic, with what it counts in words a player reads (the API documents them)
    "claims_made": "claims made: actions naming a building, and guards made with a card",
    "bluffs_made": "claims made without an unrevealed card of that building",
    "claims_exposed": "own claims another player called and that were not proven",
    "calls_made": "calls made",
    "calls_correct": "calls after which the claim was not proven",
    "calls_wrong": "calls the claimant proved wrong",
    "wars_won": "wars won",
    "timeouts": "decisions the server made because the player's clock ran out",
    "resigned": "games resigned",
    "abandoned": "games given to a bot after timeouts",
}


def _holds(state: Any, seat: int, building: str) -> bool:
    return any(c.name == building for c in state.players[seat].unrevealed)


def _claim(state: Any, e: Event) -> tuple[int, str] | None:
    """(claimant, building) when ``e`` is a claim, judged on the state just before it."""
    if e.TYPE == "ActionDeclared" and getattr(e, "claim", None) and not getattr(e, "sanctioned", False):
        return e.seat, e.claim  # type: ignore[attr-defined]
    if e.TYPE == "GuardDeclared" and e.means == "card" and state.play.act is not None and state.play.act.claim:  # type: ignore[attr-defined]
        return e.seat, state.play.act.claim  # type: ignore[attr-defined]
    return None


def summarize(config: Config, events: Iterable[Event]) -> dict[str, Any]:
    """Each seat's place and statistics in a finished game (its whole log, folded once more)."""
    state = initial_state(config)
    counts = [dict.fromkeys(STATISTICS, 0) for _ in range(config.seats)]
    out_in_turn: dict[int, int] = {}  # seat -> the turn it was eliminated in
    for e in events:
        claim = _claim(state, e)
        if claim is not None:
            seat, building = claim
            counts[seat]["claims_made"] += 1
            counts[seat]["bluffs_made"] += not _holds(state, seat, building)
        kind = e.TYPE
        if kind == "BluffCalled":
            counts[e.caller]["calls_made"] += 1  # type: ignore[attr-defined]
        elif kind == "CallSettled":
            counts[e.caller]["calls_correct" if e.correct else "calls_wrong"] += 1  # type: ignore[attr-defined]
            counts[e.claimant]["claims_exposed"] += bool(e.correct)  # type: ignore[attr-defined]
        elif kind == "WarEnded" and getattr(e, "winner", None) is not None:
            counts[e.winner]["wars_won"] += 1  # type: ignore[attr-defined]
        elif kind == "DecisionTimedOut":
            counts[e.seat]["timeouts"] += 1  # type: ignore[attr-defined]
        elif kind == "PlayerResigned":
            counts[e.seat]["resigned"] = 1  # type: ignore[attr-defined]
        elif kind == "SeatAbandoned":
            counts[e.seat]["abandoned"] = 1  # type: ignore[attr-defined]
        elif kind == "PlayerEliminated":
            out_in_turn[e.seat] = state.play.turn  # type: ignore[attr-defined]
        apply(state, e)
    winners = set(state.outcome.winners)
    draw = state.outcome.result == "draw"
    # lower is better: winners 0, still in the game 1, then the eliminated from the last turn back
    turns_out = sorted(set(out_in_turn.values()), reverse=True)

    def place(seat: int) -> int:
        if draw or seat in winners:
            return 0
        if seat not in out_in_turn:
            return 1
        return 2 + turns_out.index(out_in_turn[seat])

    rough = [place(seat) for seat in range(config.seats)]
    levels = sorted(set(rough))
    return {
        "result": state.outcome.result,
        "winners": sorted(winners),
        "seats": [
            {"seat": seat, "place": levels.index(rough[seat]) + 1, "won": seat in winners, "draw": draw, **counts[seat]}
            for seat in range(config.seats)
        ],
    }
