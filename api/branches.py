"""The branch route: a new game from the position after a step of another game's record (``service/branches.py``)."""

from __future__ import annotations

from flask import Blueprint, Response, url_for

from aegis.api import schemas
from aegis.api.games import answer, body, game_id, service
from aegis.service import branches

bp = Blueprint("branches", __name__, url_prefix="/api/games")


@bp.post("/<gid>/branches")
def create_branch(gid: str) -> Response:
    """``{"step", "command", "deal", "as"}`` -> 201 ``{"id", "host_token", "step"}``; seat and start it as a new game."""
    data = body(schemas.built(schemas.BranchIn))
    branch, host_token, step = branches.create(
        service(), game_id(gid), step=data["step"], command=data["command"], deal=data["deal"], knower=data["as_"]
    )
    location = url_for("games.view", gid=str(branch))
    made = {"id": str(branch), "host_token": host_token, "step": step}
    return answer(schemas.built(schemas.BranchOut), made, 201, Location=location)
