"""Registered players: registration, the leaderboard, a player's record, statistics and finished games.

Records, ratings and game lists are projections (``projections/players.py``): they count finished games only.
"""

from __future__ import annotations

import json
from typing import Any

from flask import Blueprint, Response, current_app, request, url_for

from aegis.api import schemas
from aegis.api.games import answer, body, no_query, service
from aegis.projections.players import RESULTS
from aegis.service.errors import NotFound

bp = Blueprint("players", __name__, url_prefix="/api/players")

ORDERS = {
    "rating": lambda p: (-p["rating"]["ordinal"], p["name"].casefold()),
    "games": lambda p: (-p["games"], p["name"].casefold()),
    "wins": lambda p: (-p["wins"], p["name"].casefold()),
    "name": lambda p: p["name"].casefold(),
}


def _reads() -> Any:
    return current_app.extensions["aegis.reads"]


def _record(name: str) -> dict[str, Any]:
    found = _reads().player(name)
    if found is None:
        raise NotFound(f"no registered player named {name!r} (guests have no record)")
    return found


@bp.post("")
def register() -> Response:
    data = body(schemas.built(schemas.RegisterIn))
    name, key = service().register_player(data["name"])
    location = url_for("players.player", name=name)
    return answer(schemas.built(schemas.RegisteredOut), {"name": name, "key": key}, 201, Location=location)


@bp.get("")
def leaderboard() -> Response:
    query = schemas.built(schemas.PlayersQuery).load(request.args.to_dict())
    found = sorted(_reads().players(), key=ORDERS[query["order"]])
    page = found[query["offset"] : query["offset"] + query["limit"]]
    return answer(schemas.built(schemas.PlayersOut), {"players": page, "total": len(found), **query})


@bp.get("/<name>")
def player(name: str) -> Response:
    no_query()
    return answer(schemas.built(schemas.PlayerOut), _record(name))


@bp.get("/<name>/stats")
def stats(name: str) -> Response:
    no_query()
    record = _record(name)
    counts = {k: record[k] for k in RESULTS} | {k: record["statistics"].get(k, 0) for k in schemas.STATISTICS}
    return answer(schemas.built(schemas.StatsOut), {"player": record["name"], **counts})


@bp.get("/<name>/games")
def games(name: str) -> Response:
    """The player's finished games as NDJSON, oldest first: one JSON object a line (as Lichess exports a user's)."""
    no_query()
    record = _record(name)
    schema = schemas.built(schemas.PlayerGameOut)
    lines = "".join(json.dumps(schema.dump(g)) + "\n" for g in _reads().player_games(record["name"]))
    headers = {"Content-Disposition": 'attachment; filename="aegis-games.ndjson"'}
    return Response(lines, mimetype="application/x-ndjson", headers=headers)
