"""Replay routes: the table at any step from a perspective, and the narrated timeline."""

from __future__ import annotations

from flask import Blueprint, Response, current_app, request

from api import schemas
from api.games import answer, game_id, token

bp = Blueprint("replays", __name__, url_prefix="/api/games")


@bp.get("/<gid>/replay")
def replay(gid: str) -> Response:
    query = schemas.ReplayQuery().load(request.args.to_dict())
    found = current_app.extensions["aegis.replays"].step(game_id(gid), query.get("step"), query.get("as_"), token())
    return answer(schemas.ReplayOut(), found)


@bp.get("/<gid>/timeline")
def timeline(gid: str) -> Response:
    query = schemas.TimelineQuery().load(request.args.to_dict())
    found = current_app.extensions["aegis.replays"].timeline(game_id(gid), query.get("as_"), token())
    return answer(schemas.TimelineOut(), found)
