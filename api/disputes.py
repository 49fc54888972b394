"""Dispute routes: a seat disputes a step of its game's record, the seats comment, a verdict settles it
(``replay/disputes.py``). Each posting route is limited per client (``AEGIS_RATE_DISPUTE``, ``api/limits.py``)."""

from __future__ import annotations

from flask import Blueprint, Response, current_app, request, url_for

from aegis.api.dispute_schemas import (
    DisputeCommentIn,
    DisputeIn,
    DisputeOut,
    DisputesOut,
    DisputesQuery,
    DisputeVerdictIn,
    GameDisputesQuery,
)
from aegis.api.games import answer, body, game_id, no_query, token
from aegis.api.schemas import built
from aegis.replay.disputes import Disputes

bp = Blueprint("disputes", __name__, url_prefix="/api")
POSTS = ("disputes.open_dispute", "disputes.comment", "disputes.vote", "disputes.verdict")  # rate-limited


def disputes() -> Disputes:
    return current_app.extensions["aegis.disputes"]


@bp.post("/games/<gid>/disputes")
def open_dispute(gid: str) -> Response:
    data = body(built(DisputeIn))
    found = disputes().open(game_id(gid), token(), data["step"], data["text"])
    return answer(built(DisputeOut), found, 201, Location=url_for("disputes.dispute", did=found["id"]))


@bp.get("/games/<gid>/disputes")
def game_disputes(gid: str) -> Response:
    query = built(GameDisputesQuery).load(request.args.to_dict())
    found, total = disputes().of_game(game_id(gid), token(), query["offset"], query["limit"])
    return answer(built(DisputesOut), {"disputes": found, "total": total, **query})


@bp.get("/disputes")
def list_disputes() -> Response:
    query = built(DisputesQuery).load(request.args.to_dict())
    found, total = disputes().listed(query.get("status"), token(), query["offset"], query["limit"])
    return answer(built(DisputesOut), {"disputes": found, "total": total, "offset": query["offset"], "limit": query["limit"]})


@bp.get("/disputes/<did>")
def dispute(did: str) -> Response:
    no_query()
    return answer(built(DisputeOut), disputes().one(did, token()))


@bp.post("/disputes/<did>/comments")
def comment(did: str) -> Response:
    data = body(built(DisputeCommentIn))
    return answer(built(DisputeOut), disputes().comment(did, token(), data["text"]), 201)


@bp.post("/disputes/<did>/votes")
def vote(did: str) -> Response:
    data = body(built(DisputeVerdictIn))
    return answer(built(DisputeOut), disputes().vote(did, token(), data["verdict"], data["text"]), 201)


@bp.post("/disputes/<did>/verdict")
def verdict(did: str) -> Response:
    data = body(built(DisputeVerdictIn))
    return answer(built(DisputeOut), disputes().decide(did, token(), data["verdict"], data["text"]), 201)
