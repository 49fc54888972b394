"""Game routes: lobby, play and read. Each route loads its body with a schema, calls the service and
dumps its answer with a schema; refusals become problems (``api/problems.py``)."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from flask import Blueprint, Response, current_app, request, url_for
from marshmallow import Schema, ValidationError

from aegis.api import jsonio, ruleset_schemas, schemas
from aegis.service.errors import BadRequest, NotFound, ProjectionsUnavailable, Unauthorized
from aegis.service.games import GameService
from aegis.service.rulesets import RULESETS

bp = Blueprint("games", __name__, url_prefix="/api/games")
MAX_KEY = 200


def service() -> GameService:
    return current_app.extensions["aegis"]


def token() -> str | None:
    """The bearer token, if any. A malformed Authorization header is refused, not ignored."""
    return bearer(request.headers.get("Authorization"))


def bearer(header: str | None) -> str | None:
    """The token of an ``Authorization`` header's value (None for no header); a malformed one is refused (401)."""
    if header is None:
        return None
    scheme, _, value = header.partition(" ")
    if scheme.lower() != "bearer" or not value.strip():
        raise Unauthorized("use 'Authorization: Bearer <token>'")
    return value.strip()


def no_query() -> None:
    """A route that takes no query parameter refuses one (400, naming it) rather than answer as if it were not
    there: a stream ticket sent to ``/view`` would otherwise get the spectator's view with no word of why."""
    if request.args:
        unknown = {name: ["this route takes no query parameter"] for name in request.args}
        if "ticket" in request.args:
            unknown["ticket"] = ["a stream ticket opens the event stream only; send your token in the Authorization header"]
        raise ValidationError(unknown)


def game_id(raw: str) -> UUID:
    try:
        return UUID(raw)
    except ValueError:
        raise NotFound(f"no game {raw!r}") from None


MAX_DEPTH = 16  # brackets within brackets a body may nest; no command needs more than 5


def body(schema: Schema) -> dict[str, Any]:
    """The request's JSON object, loaded by ``schema``. A body over ``AEGIS_MAX_BODY`` bytes is refused with a 413
    before it is read in full; one that is not JSON, or nests deeper than ``MAX_DEPTH``, with a 400."""
    raw = request.get_data(cache=True)
    if not raw.strip():
        return schema.load({})
    if _depth_over(raw, MAX_DEPTH):
        raise BadRequest(f"the JSON body nests more than {MAX_DEPTH} levels of brackets")
    try:
        data = jsonio.loads(raw)
    except ValueError:
        raise BadRequest("the body is not valid JSON") from None
    if not isinstance(data, dict):
        raise BadRequest("the body must be a JSON object")
    return schema.load(data)


def _depth_over(raw: bytes, limit: int) -> bool:
    """Whether the JSON text nests more than ``limit`` brackets deep (brackets inside strings are not counted), found
    without parsing it: a parser recurses once per level, and a few kilobytes of brackets exhaust its stack."""
    if raw.count(b"[") + raw.count(b"{") <= limit:  # too few brackets to nest that deep: no walk over every byte
        return False
    depth = 0
    in_string = escaped = False
    for byte in raw:
        if in_string:
            if escaped:
                escaped = False
            elif byte == 0x5C:  # backslash
                escaped = True
            elif byte == 0x22:  # quote
                in_string = False
        elif byte == 0x22:
            in_string = True
        elif byte in (0x5B, 0x7B):  # [ {
            depth += 1
            if depth > limit:
                return True
        elif byte in (0x5D, 0x7D):
            depth -= 1
    return False


def answer(schema: Schema, data: Any, status: int = 200, **headers: str) -> Response:
    return jsonio.response(schema.dump(data), status, headers=headers)


@bp.post("")
def create_game() -> Response:
    loader = schemas.built(schemas.CreateGameIn)
    spec = body(loader)
    rules = RULESETS.get(spec.get("ruleset") or "")
    if rules is not None:  # an unknown ruleset is refused by the service, naming those it hosts
        shape, ranges = ruleset_schemas.creation_errors(rules.shapes, {k: v for k, v in spec.items() if k not in loader.fields})
        if shape:
            raise ValidationError(shape)
        if ranges:
            service().configure(spec)  # the rules refuse what they check, naming the rule
            raise ValidationError(ranges)  # what they let through is still outside the documented range
    gid, host_token, commitment = service().create_game(spec)
    location = url_for("games.view", gid=str(gid))
    created = {"id": str(gid), "host_token": host_token, "commitment": commitment}
    return answer(schemas.built(schemas.CreatedOut), created, 201, Location=location)


@bp.get("")
def list_games() -> Response:
    query = schemas.built(schemas.GamesQuery).load(request.args.to_dict())
    offset, limit = query.pop("offset"), query.pop("limit")
    found = current_app.extensions["aegis.reads"].lobby(**query, offset=offset, limit=limit, now=service().clock())
    if found is None:
        raise ProjectionsUnavailable("the game list is projected in Redis, which does not answer; games can still be played")
    games, total = found
    return answer(schemas.built(schemas.GamesOut), {"games": games, "total": total, "offset": offset, "limit": limit})


@bp.post("/<gid>/seats")
def take_seat(gid: str) -> Response:
    """A seat for a guest (``name``), a registered player (``Authorization: Bearer <player key>``) or a bot."""
    data = body(schemas.built(schemas.TakeSeatIn))
    player_key = token()
    if player_key is None and data.get("name") is None and data.get("bot") is None:
        raise BadRequest("give a 'name' (or your player key in the Authorization header) or a 'bot'")
    seat, tok = service().take_seat(
        game_id(gid), name=data.get("name"), bot=data.get("bot"), player_key=player_key, entropy=data.get("entropy")
    )
    return answer(schemas.built(schemas.SeatOut), {"seat": seat, "token": tok, "bot": data.get("bot")}, 201)


@bp.post("/<gid>/cancel")
def cancel(gid: str) -> Response:
    """The host cancels a game that has not started: it leaves the lobby."""
    body(schemas.built(schemas.EmptyIn))
    service().cancel(game_id(gid), token())
    return answer(schemas.built(schemas.CancelledOut), {"id": gid, "status": "cancelled"})


@bp.post("/<gid>/start")
def start(gid: str) -> Response:
    body(schemas.built(schemas.EmptyIn))
    seq = service().start(game_id(gid), token())
    return answer(schemas.built(schemas.StartedOut), {"id": gid, "status": "active", "seq": seq})


@bp.get("/<gid>/view")
def view(gid: str) -> Response:
    no_query()
    # the service builds the view in ViewOut's shape already (tests/api/test_view_shape.py checks dump(view) == view
    # on every kind of game): it is served as it is, without marshmallow's walk over it (about 64 us a view)
    found = service().view(game_id(gid), token())
    return jsonio.response(found)


@bp.post("/<gid>/commands")
def command(gid: str) -> Response:
    data = body(schemas.built(schemas.CommandIn))
    key = request.headers.get("Idempotency-Key")
    if key is not None and not 1 <= len(key) <= MAX_KEY:
        raise BadRequest(f"an Idempotency-Key has 1 to {MAX_KEY} characters")
    tok = token()
    if tok is None:
        raise Unauthorized("commands need a seat token (Authorization: Bearer <token>)")
    seq, events, replayed = service().submit(game_id(gid), tok, data, key)
    headers = {"Idempotent-Replayed": "true"} if replayed else {}
    # served as it is, like the view: CommandOut's fields take these values unchanged (tests/api/test_view_shape.py)
    return jsonio.response({"seq": seq, "events": events}, headers=headers)


@bp.get("/<gid>/events")
def events(gid: str) -> Response:
    query = schemas.built(schemas.EventsQuery).load(request.args.to_dict())
    found, seq = service().events(game_id(gid), token(), query["after"], query["limit"])
    next_after = found[-1]["seq"] if found else query["after"]
    return answer(schemas.built(schemas.EventsOut), {"seq": seq, "events": found, "next_after": next_after})
