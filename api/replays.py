"""Replay routes: the table at any step from a perspective, and the narrated timeline."""

from __future__ import annotations

from pathlib import Path

from flask import Blueprint, Response, current_app, request

from aegis.api import schemas
from aegis.api.games import answer, game_id, no_query, token
from aegis.replay import records

bp = Blueprint("replays", __name__, url_prefix="/api/games")
viewer_bp = Blueprint("viewer", __name__)
VIEWER = Path(__file__).with_name("static") / "replay.html"
REVIEW_PAGE = Path(__file__).with_name("static") / "review.html"


@viewer_bp.get("/replay/<gid>", strict_slashes=False)  # "/replay/<id>/" too: a page, not a 404 in JSON
def viewer(gid: str) -> Response:
    """The step-through viewer page; it reads /replay and /timeline (``?step=N&as=...``, ``#token=...``). Served for
    any id: the page itself says, readably, when there is no such game (the API's 404)."""
    return Response(VIEWER.read_text(), mimetype="text/html")


@viewer_bp.get("/review/<gid>", strict_slashes=False)
def review_page(gid: str) -> Response:
    """The review page of a finished game; it reads /review (``?as=...``) and links each move to the viewer. Served
    for any id, as the viewer is: the page itself says, readably, when there is no such game."""
    return Response(REVIEW_PAGE.read_text(), mimetype="text/html")


@bp.get("/<gid>/review")
def review(gid: str) -> Response:
    query = schemas.built(schemas.ReviewQuery).load(request.args.to_dict())
    found = current_app.extensions["aegis.replays"].review(game_id(gid), query.get("as_"), token())
    return answer(schemas.built(schemas.ReviewOut), found)


@bp.get("/<gid>/replay")
def replay(gid: str) -> Response:
    query = schemas.built(schemas.ReplayQuery).load(request.args.to_dict())
    found = current_app.extensions["aegis.replays"].step(game_id(gid), query.get("step"), query.get("as_"), token())
    return answer(schemas.built(schemas.ReplayOut), found)


@bp.get("/<gid>/timeline")
def timeline(gid: str) -> Response:
    query = schemas.built(schemas.TimelineAfterQuery).load(request.args.to_dict())
    found = current_app.extensions["aegis.replays"].timeline(game_id(gid), query.get("as_"), token(), query["after"])
    return answer(schemas.built(schemas.TimelineOut), found)


@bp.get("/<gid>/audit")
def audit(gid: str) -> Response:
    query = schemas.built(schemas.AuditQuery).load(request.args.to_dict())
    found = current_app.extensions["aegis.replays"].audit(game_id(gid), query["step"], query.get("as_"), token())
    return answer(schemas.built(schemas.AuditOut), found)


@bp.get("/<gid>/verify")
def verify(gid: str) -> Response:
    no_query()
    return answer(schemas.built(schemas.VerifyOut), records.verify(current_app.extensions["aegis"], game_id(gid)))


@bp.get("/<gid>/export")
def export(gid: str) -> Response:
    no_query()
    lines = list(records.export_lines(current_app.extensions["aegis"], game_id(gid)))
    headers = {"Content-Disposition": f'attachment; filename="aegis-{gid}.ndjson"'}
    return Response("".join(line + "\n" for line in lines), mimetype="application/x-ndjson", headers=headers)
