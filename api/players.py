"""``GET /api/players/{name}/stats``: a player's statistics, from the projections."""

from __future__ import annotations

from flask import Blueprint, Response, current_app

from api import schemas
from api.games import answer
from projections.stats import FIELDS
from service.errors import NotFound, Unavailable

bp = Blueprint("players", __name__, url_prefix="/api/players")


@bp.get("/<name>/stats")
def stats(name: str) -> Response:
    counts = current_app.extensions["aegis.reads"].stats(name)
    if counts is None:
        raise Unavailable("statistics are projected in Redis, which does not answer; games can still be played")
    if not counts:
        raise NotFound(f"no games recorded for a player named {name!r}")
    return answer(schemas.StatsOut(), {"player": name, **{f: counts.get(f, 0) for f in FIELDS}})
