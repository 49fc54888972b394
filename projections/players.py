"""Registered players' records: ratings, results and statistics, from finished games only.

A game counts for nobody while it goes on (a count that moved when a bluff was declared would tell the table it
was a bluff): when a game ends, the ruleset's ``summarize`` gives each seat's place and statistics, and every seat
taken by a registered player adds them to that player's record. Guests, bots and mobs have no record. A rigged
game (a chosen position or seed: someone may have known the draws) is listed in its players' games but neither
rated nor counted.

Ratings are the ``openskill`` Plackett-Luce model's (a multiplayer rating): every registered player of a finished
game is a team of one, ranked by place (winners share the first place; a draw ranks everyone first; shared wins,
such as an Alliance's, are ties). A game with fewer than two registered players rates nobody. The order of the
updates is the order of the games' ends in the event store, so a rebuild gives the same ratings.
"""

from __future__ import annotations

from typing import Any

from openskill.models import PlackettLuce

from aegis.service import names

MODEL = PlackettLuce()
RESULTS = ("games", "wins", "draws", "losses")


def new_record(name: str, registered_at: float) -> dict[str, Any]:
    start = MODEL.rating()
    return {
        "name": name,
        "registered_at": registered_at,
        "rating": _rating(start.mu, start.sigma),
        "rated_games": 0,
        **dict.fromkeys(RESULTS, 0),
        "statistics": {},
    }


def _rating(mu: float, sigma: float) -> dict[str, float]:
    """A rating as it is kept and shown: the model's mu and sigma, and its ordinal (mu - 3 sigma), what the
    leaderboard sorts by: a rating the player is very likely to have at least."""
    return {"mu": mu, "sigma": sigma, "ordinal": mu - 3 * sigma}


def finish(
    records: dict[str, dict[str, Any]], game: dict[str, Any], summary: dict[str, Any], seats: list[dict[str, Any]]
) -> dict[str, dict[str, Any]]:
    """Apply one finished game to the registered players' ``records`` (name key -> record, changed in place).
    ``game``: the game's row (id, ruleset, variant, rigged, finished_at); ``summary``: the ruleset's; ``seats``:
    who sat where. Returns, per registered player, the game as their game list shows it."""
    registered = [(s["seat"], names.key(s["player"])) for s in seats if s.get("player") and names.key(s["player"]) in records]
    counted = not game["rigged"]
    by_seat = {row["seat"]: row for row in summary["seats"]}
    before = {key: dict(records[key]["rating"]) for _, key in registered}
    rated = counted and len(registered) >= 2
    if rated:
        teams = [[MODEL.rating(mu=records[key]["rating"]["mu"], sigma=records[key]["rating"]["sigma"])] for _, key in registered]
        new = MODEL.rate(teams, ranks=[by_seat[seat]["place"] for seat, _ in registered])
        for (_, key), [rating] in zip(registered, new, strict=True):
            records[key]["rating"] = _rating(rating.mu, rating.sigma)
            records[key]["rated_games"] += 1
    listed: dict[str, dict[str, Any]] = {}
    for seat, key in registered:
        row = by_seat[seat]
        record = records[key]
        if counted:
            record["games"] += 1
            outcome = "draws" if row["draw"] else ("wins" if row["won"] else "losses")
            record[outcome] += 1
            stats = record["statistics"]
            for name, value in row.items():
                if name not in ("seat", "place", "won", "draw"):
                    stats[name] = stats.get(name, 0) + value
        listed[key] = {
            **game,
            "seat": seat,
            "place": row["place"],
            "result": "draw" if row["draw"] else ("win" if row["won"] else "loss"),
            "winners": summary["winners"],
            "seats": [{"seat": s["seat"], "name": s["name"], "player": s.get("player"), "bot": s["bot"]} for s in seats],
            "rated": rated,
            "counted": counted,
            "rating_before": before[key] if rated else None,
            "rating_after": record["rating"] if rated else None,
        }
    return listed
