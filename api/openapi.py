"""The OpenAPI 3.1 document, generated from the marshmallow schemas in ``api/schemas.py`` and, for commands and
events, from the rulesets' own declarations (``api/ruleset_schemas.py``); and a docs page.

Every operation has an ``operationId`` (a generated client's function names), every refusal its problem
(503 wherever the store is read or written), and the stream its ``text/event-stream`` frames."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from apispec import APISpec
from apispec.ext.marshmallow import MarshmallowPlugin
from flask import Blueprint, Response, json

from aegis.api import dispute_schemas, ruleset_schemas, schemas
from aegis.api.games import MAX_KEY
from aegis.service.rulesets import RULESETS

bp = Blueprint("openapi", __name__, url_prefix="/api")
DOCS_PAGE = Path(__file__).with_name("static") / "docs.html"

GAME_ID = {"name": "gid", "in": "path", "required": True, "schema": {"type": "string", "format": "uuid"}}
PLAYER_NAME = {"name": "name", "in": "path", "required": True, "schema": {"type": "string"}}
DISPUTE_ID = {"name": "did", "in": "path", "required": True, "schema": {"type": "string", "format": "uuid"}}
BEARER: list[dict[str, list[str]]] = [{"bearer": []}]
OPTIONAL_BEARER: list[dict[str, list[str]]] = [{"bearer": []}, {}]


def _ref(name: str) -> dict[str, str]:
    return {"$ref": ruleset_schemas.REF + name}


def _json(name: str) -> dict[str, Any]:
    return {"content": {"application/json": {"schema": _ref(name)}}}


def _problems(*codes: int, store: bool = True) -> dict[str, Any]:
    """The refusals of an operation; ``store``: it reads or writes the event store, so 503 too."""
    text = {
        400: "malformed body or query (also a body that is not JSON or nests more than 16 levels, and a token in the "
        "URL: ?token= is refused everywhere, as it would be written to access logs)",
        413: "the body is larger than AEGIS_MAX_BODY bytes",
        401: "missing or unknown token (or stream ticket: malformed, altered, another game's or seat's, expired)",
        403: "not your seat, or not your prompt, or the host token where a seat token is needed",
        404: "no such game (or dispute)",
        409: "stale expected_seq, a conflicting command, not started, already finished, cancelled or expired, "
        "a name already taken",
        422: "illegal by the rules: the problem names the rule and carries your open prompts",
        503: "the event store (or, for the game list, Redis) does not answer: nothing was changed; try again after "
        "Retry-After. Without Retry-After the store cannot be written (type /api/problems/store-full or "
        "store-read-only): retrying will not help until an operator acts",
    }
    out = {
        str(c): {"description": text[c], "content": {"application/problem+json": {"schema": _ref("ProblemOut")}}} for c in codes
    }
    if store:
        out["503"] = {
            "description": text[503],
            "headers": {"Retry-After": {"description": "seconds to wait (store failures)", "schema": {"type": "integer"}}},
            "content": {"application/problem+json": {"schema": _ref("ProblemOut")}},
        }
    return out


def _rate_limited(setting: str) -> dict[str, Any]:
    """429 of an operation limited per client (api/limits.py); ``setting``: the variable that sets the limit."""
    return {
        "429": {
            "description": f"too many requests of this kind from your address ({setting}): the problem says which "
            "limit, Retry-After when to try again; nothing was changed",
            "headers": {
                "Retry-After": {
                    "description": "seconds until your address may try again",
                    "required": True,
                    "schema": {"type": "integer", "minimum": 1},
                }
            },
            "content": {"application/problem+json": {"schema": _ref("ProblemOut")}},
        }
    }


def _header(description: str, schema: dict[str, Any]) -> dict[str, Any]:
    return {"description": description, "schema": schema}


LOCATION = {"Location": _header("the new resource", {"type": "string"})}


STREAM_FRAMES = (
    "an event stream. Frames: 'event: view' (id: its seq) whose data is your ViewOut, first unless resuming; "
    "events with 'id: <seq>' whose data is an EventOut as you may see it; comments (': keep-alive') while nothing "
    "happens; 'event: end' with data {\"seq\"} once the game is over. With ?views=1, also an 'event: view' after "
    "the events of every read that brings the stream up to date (id: the last of them), and after the first read of "
    "a resumed stream"
)
STREAM_EXAMPLE = (
    'id: 12\nevent: view\ndata: {"id": "…", "seq": 12, "status": "active", …}\n\n'
    'id: 13\ndata: {"type": "ActionDeclared", "seq": 13, …}\n\n'
    ": keep-alive\n\n"
    'event: end\ndata: {"seq": 140}\n\n'
)

PATHS: dict[str, dict[str, Any]] = {
    "/api/games": {
        "post": {
            "operationId": "create_game",
            "summary": "Create a game",
            "requestBody": {"required": True, **_json("CreateGameIn")},
            "responses": {
                "201": {"description": "created", "headers": LOCATION, **_json("CreatedOut")},
                **_problems(400, 413),
                **_rate_limited("AEGIS_RATE_CREATE"),
            },
        },
        "get": {
            "operationId": "list_games",
            "summary": "List games, newest first",
            "parameters": [{"in": "query", "schema": "GamesQuery"}],
            "responses": {"200": {"description": "one page of games", **_json("GamesOut")}, **_problems(400)},
        },
    },
    "/api/games/{gid}/seats": {
        "post": {
            "operationId": "take_seat",
            "summary": "Take a seat as a guest ({name}), as a registered player (Authorization: Bearer <player key>), "
            "or add a bot ({bot})",
            "parameters": [GAME_ID],
            "security": OPTIONAL_BEARER,
            "requestBody": {"required": False, **_json("TakeSeatIn")},  # a player key alone needs no body
            "responses": {
                "201": {"description": "your seat and its token", **_json("SeatOut")},
                **_problems(400, 413, 401, 404, 409),
                **_rate_limited("AEGIS_RATE_SEAT"),
            },
        }
    },
    "/api/games/{gid}/cancel": {
        "post": {
            "operationId": "cancel_game",
            "summary": "Cancel a game that has not started (host token): it leaves the lobby",
            "parameters": [GAME_ID],
            "security": BEARER,
            "requestBody": {"required": False, **_json("EmptyIn")},
            "responses": {
                "200": {"description": "cancelled", **_json("CancelledOut")},
                **_problems(400, 413, 401, 403, 404, 409),
            },
        }
    },
    "/api/games/{gid}/start": {
        "post": {
            "operationId": "start_game",
            "summary": "Start the game (host token)",
            "parameters": [GAME_ID],
            "security": BEARER,
            "requestBody": {"required": False, **_json("EmptyIn")},
            "responses": {"200": {"description": "started", **_json("StartedOut")}, **_problems(400, 413, 401, 403, 404, 409)},
        }
    },
    "/api/games/{gid}/view": {
        "get": {
            "operationId": "get_view",
            "summary": "The table as you may know it, with your open prompts (no token: a spectator)",
            "parameters": [GAME_ID],
            "security": OPTIONAL_BEARER,
            "responses": {
                "200": {
                    "description": "your view",
                    **_json("ViewOut"),
                },
                **_problems(400, 401, 403, 404),
            },
        }
    },
    "/api/games/{gid}/commands": {
        "post": {
            "operationId": "post_command",
            "summary": "Submit a command: a prompt option's command, each of its params set to picked values, or resign",
            "parameters": [
                GAME_ID,
                {
                    "name": "Idempotency-Key",
                    "in": "header",
                    "required": False,
                    "schema": {"type": "string", "minLength": 1, "maxLength": MAX_KEY},
                    "description": "a retry with the same key returns the first answer and stores nothing new",
                },
            ],
            "security": BEARER,
            "requestBody": {"required": True, **_json("CommandIn")},
            "responses": {
                "200": {
                    "description": "the events your command caused, as you may see them",
                    "headers": {
                        "Idempotent-Replayed": _header(
                            "true: the answer to an earlier request with this Idempotency-Key",
                            {"type": "string", "enum": ["true"]},
                        )
                    },
                    **_json("CommandOut"),
                },
                **_problems(400, 413, 401, 403, 404, 409, 422),
            },
        }
    },
    "/api/games/{gid}/events": {
        "get": {
            "operationId": "list_events",
            "summary": "Events after a seq, as you may see them",
            "parameters": [GAME_ID, {"in": "query", "schema": "EventsQuery"}],
            "security": OPTIONAL_BEARER,
            "responses": {"200": {"description": "events", **_json("EventsOut")}, **_problems(400, 401, 403, 404)},
        }
    },
    "/api/games/{gid}/stream": {
        "get": {
            "operationId": "stream_game",
            "summary": "Server-Sent Events: your view, then each new event as you may see it (id: seq), then 'end'",
            "parameters": [
                GAME_ID,
                {
                    "name": "ticket",
                    "in": "query",
                    "required": False,
                    "schema": {"type": "string"},
                    "description": "a stream ticket (POST /api/games/{gid}/stream-ticket), for clients that cannot send "
                    "headers; ?token= is refused (400): a token in a URL is written to access logs",
                },
                {
                    "name": "views",
                    "in": "query",
                    "required": False,
                    "schema": {"type": "string", "enum": ["0", "1", "false", "true"], "default": "0"},
                    "description": "1: your view (prompts included) again after the new events of every update, so that "
                    "a client with no rules of its own holds its current view without fetching it; 0 (default): the "
                    "view only first. Any other value: 400",
                },
                {
                    "name": "Last-Event-ID",
                    "in": "header",
                    "required": False,
                    "schema": {"type": "integer", "minimum": 0},
                    "description": "resume after this seq: no view, no gap, no duplicate; a seq past the game's last "
                    "event is refused (400)",
                },
                {
                    "name": "last_event_id",
                    "in": "query",
                    "required": False,
                    "schema": {"type": "integer", "minimum": 0},
                    "description": "as Last-Event-ID, for clients that cannot send headers",
                },
            ],
            "security": OPTIONAL_BEARER,
            "responses": {
                "200": {
                    "description": STREAM_FRAMES,
                    "content": {"text/event-stream": {"schema": {"type": "string"}, "example": STREAM_EXAMPLE}},
                },
                **_problems(400, 413, 401, 403, 404),
                **_rate_limited("AEGIS_STREAMS_PER_CLIENT: open streams at once, per server process"),
            },
        }
    },
    "/api/games/{gid}/stream-ticket": {
        "post": {
            "operationId": "create_stream_ticket",
            "summary": "A short-lived ticket that opens your seat's stream (?ticket=), for clients that cannot send headers",
            "parameters": [GAME_ID],
            "security": BEARER,
            "requestBody": {"required": False, **_json("StreamTicketIn")},
            "responses": {
                "201": {"description": "the ticket, its seat and when it expires", **_json("StreamTicketOut")},
                **_problems(400, 401, 403, 404),
            },
        }
    },
    "/api/games/{gid}/replay": {
        "get": {
            "operationId": "get_replay",
            "summary": "The table after any step, as a seat, a spectator or (after the game) everyone knew it",
            "parameters": [GAME_ID, {"in": "query", "schema": "ReplayQuery"}],
            "security": OPTIONAL_BEARER,
            "responses": {"200": {"description": "one step", **_json("ReplayOut")}, **_problems(400, 401, 403, 404)},
        }
    },
    "/api/games/{gid}/branches": {
        "post": {
            "operationId": "create_branch",
            "summary": "Branch a finished game: a new game from the position after a step, with another command or "
            "none (anyone; never a game in play). Seat and start it as a new game",
            "parameters": [GAME_ID],
            "requestBody": {"required": True, **_json("BranchIn")},
            "responses": {
                "201": {"description": "the branch, in the lobby", "headers": LOCATION, **_json("BranchOut")},
                **_problems(400, 413, 404, 409, 422),
                **_rate_limited("AEGIS_RATE_CREATE"),
            },
        }
    },
    "/api/games/{gid}/timeline": {
        "get": {
            "operationId": "get_timeline",
            "summary": "Every event in plain words, as the perspective knows it",
            "parameters": [GAME_ID, {"in": "query", "schema": "TimelineAfterQuery"}],
            "security": OPTIONAL_BEARER,
            "responses": {"200": {"description": "the narrated log", **_json("TimelineOut")}, **_problems(400, 401, 403, 404)},
        }
    },
    "/api/games/{gid}/audit": {
        "get": {
            "operationId": "get_audit",
            "summary": "A disputed claim: what the claimant held, what each player knew, every answer with its time, "
            "whether an undo was possible, and what followed",
            "parameters": [GAME_ID, {"in": "query", "schema": "AuditQuery"}],
            "security": OPTIONAL_BEARER,
            "responses": {"200": {"description": "the audit", **_json("AuditOut")}, **_problems(400, 401, 403, 404)},
        }
    },
    "/api/games/{gid}/review": {
        "get": {
            "operationId": "get_review",
            "summary": "A finished game's claims, calls, guards and passes with their exact odds as the perspective knew "
            "them: calls against the odds, bluffs that got through, each player's calibration",
            "parameters": [GAME_ID, {"in": "query", "schema": "ReviewQuery"}],
            "security": OPTIONAL_BEARER,
            "responses": {"200": {"description": "the review", **_json("ReviewOut")}, **_problems(400, 401, 403, 404, 409)},
        }
    },
    "/api/games/{gid}/verify": {
        "get": {
            "operationId": "verify_game",
            "summary": "Replay a finished game from its revealed seed and recorded commands; compare every event",
            "parameters": [GAME_ID],
            "responses": {"200": {"description": "the verdict", **_json("VerifyOut")}, **_problems(400, 404, 409)},
        }
    },
    "/api/games/{gid}/export": {
        "get": {
            "operationId": "export_game",
            "summary": "A finished game's stored events as NDJSON, token hashes removed (aegis import reads it)",
            "parameters": [GAME_ID],
            "responses": {
                "200": {
                    "description": "one JSON object per line",
                    "content": {"application/x-ndjson": {"schema": {"type": "string"}}},
                },
                **_problems(400, 404, 409),
            },
        }
    },
    "/replay/{gid}": {
        "get": {
            "operationId": "replay_viewer",
            "summary": "The step-through viewer (a web page): ?step=N&as=<seat|spectator|omniscient>, #token=<seat token>",
            "parameters": [GAME_ID],
            "responses": {
                "200": {
                    "description": "the page, for any id (the page itself says readably when there is no such game)",
                    "content": {"text/html": {"schema": {"type": "string"}}},
                },
            },
        }
    },
    "/review/{gid}": {
        "get": {
            "operationId": "review_page",
            "summary": "The review of a finished game (a web page): ?as=<seat|spectator|omniscient>",
            "parameters": [GAME_ID],
            "responses": {
                "200": {
                    "description": "the page, for any id (the page itself says readably when there is no such game)",
                    "content": {"text/html": {"schema": {"type": "string"}}},
                },
            },
        }
    },
    # ----- disputes (replay/disputes.py) -----
    "/api/games/{gid}/disputes": {
        "post": {
            "operationId": "open_dispute",
            "summary": "Dispute a step of the game's record, as one of its players (your seat token or player key); "
            "the dispute keeps the audit of that step as the record stood",
            "parameters": [GAME_ID],
            "security": BEARER,
            "requestBody": {"required": True, **_json("DisputeIn")},
            "responses": {
                "201": {"description": "the dispute, as you may read it", "headers": LOCATION, **_json("DisputeOut")},
                **_problems(400, 413, 401, 403, 404, 409),
                **_rate_limited("AEGIS_RATE_DISPUTE"),
            },
        },
        "get": {
            "operationId": "list_game_disputes",
            "summary": "The game's disputes, oldest first, each audit as you may know it (your seat token: your seat's)",
            "parameters": [GAME_ID, {"in": "query", "schema": "GameDisputesQuery"}],
            "security": OPTIONAL_BEARER,
            "responses": {"200": {"description": "one page of disputes", **_json("DisputesOut")}, **_problems(400, 401, 404)},
        },
    },
    "/api/disputes": {
        "get": {
            "operationId": "list_disputes",
            "summary": "Every dispute (or the open or settled ones), newest first",
            "parameters": [{"in": "query", "schema": "DisputesQuery"}],
            "security": OPTIONAL_BEARER,
            "responses": {"200": {"description": "one page of disputes", **_json("DisputesOut")}, **_problems(400, 401)},
        }
    },
    "/api/disputes/{did}": {
        "get": {
            "operationId": "get_dispute",
            "summary": "A dispute: its text, the audit of its step as you may know it, comments, votes, verdict",
            "parameters": [DISPUTE_ID],
            "security": OPTIONAL_BEARER,
            "responses": {"200": {"description": "the dispute", **_json("DisputeOut")}, **_problems(400, 401, 404)},
        }
    },
    "/api/disputes/{did}/comments": {
        "post": {
            "operationId": "comment_dispute",
            "summary": "Comment on an open dispute, as one of the game's players (seat token or player key)",
            "parameters": [DISPUTE_ID],
            "security": BEARER,
            "requestBody": {"required": True, **_json("DisputeCommentIn")},
            "responses": {
                "201": {"description": "the dispute with your comment", **_json("DisputeOut")},
                **_problems(400, 413, 401, 403, 404, 409),
                **_rate_limited("AEGIS_RATE_DISPUTE"),
            },
        }
    },
    "/api/disputes/{did}/votes": {
        "post": {
            "operationId": "vote_dispute",
            "summary": "Vote on a verdict, as one of the game's players, where the service has no moderators: a strict "
            "majority of the players voting alike records it (a later vote of yours replaces your earlier one)",
            "parameters": [DISPUTE_ID],
            "security": BEARER,
            "requestBody": {"required": True, **_json("DisputeVerdictIn")},
            "responses": {
                "201": {"description": "the dispute with your vote (and the verdict it made)", **_json("DisputeOut")},
                **_problems(400, 413, 401, 403, 404, 409),
                **_rate_limited("AEGIS_RATE_DISPUTE"),
            },
        }
    },
    "/api/disputes/{did}/verdict": {
        "post": {
            "operationId": "record_dispute_verdict",
            "summary": "Record a verdict, as a moderator (Authorization: Bearer <a key of AEGIS_MODERATOR_KEYS>)",
            "parameters": [DISPUTE_ID],
            "security": BEARER,
            "requestBody": {"required": True, **_json("DisputeVerdictIn")},
            "responses": {
                "201": {"description": "the settled dispute", **_json("DisputeOut")},
                **_problems(400, 413, 401, 403, 404, 409),
                **_rate_limited("AEGIS_RATE_DISPUTE"),
            },
        }
    },
    "/api/players": {
        "post": {
            "operationId": "register_player",
            "summary": "Register a player's name; the player key is shown once",
            "requestBody": {"required": True, **_json("RegisterIn")},
            "responses": {
                "201": {"description": "registered", "headers": LOCATION, **_json("RegisteredOut")},
                **_problems(400, 413, 409),
                **_rate_limited("AEGIS_RATE_REGISTER"),
            },
        },
        "get": {
            "operationId": "list_players",
            "summary": "The leaderboard: registered players by rating (or games, wins, name)",
            "parameters": [{"in": "query", "schema": "PlayersQuery"}],
            "responses": {"200": {"description": "one page of players", **_json("PlayersOut")}, **_problems(400)},
        },
    },
    "/api/players/{name}": {
        "get": {
            "operationId": "get_player",
            "summary": "A registered player: rating, games, wins, draws, losses and statistics (finished games only)",
            "parameters": [PLAYER_NAME],
            "responses": {"200": {"description": "the record", **_json("PlayerOut")}, **_problems(400, 404)},
        }
    },
    "/api/players/{name}/stats": {
        "get": {
            "operationId": "get_player_stats",
            "summary": "A registered player's statistics, each named for what it counts (finished games only)",
            "parameters": [PLAYER_NAME],
            "responses": {"200": {"description": "the counts", **_json("StatsOut")}, **_problems(400, 404)},
        }
    },
    "/api/players/{name}/games": {
        "get": {
            "operationId": "list_player_games",
            "summary": "A registered player's finished games as NDJSON, oldest first (schema PlayerGameOut per line)",
            "parameters": [PLAYER_NAME],
            "responses": {
                "200": {
                    "description": "one JSON object (PlayerGameOut) per line",
                    "content": {"application/x-ndjson": {"schema": {"type": "string"}}},
                },
                **_problems(400, 404),
            },
        }
    },
    "/healthz": {
        "get": {
            "operationId": "healthz",
            "summary": "The process is up",
            "responses": {"200": {"description": "ok", **_json("HealthOut")}},
        }
    },
    "/readyz": {
        "get": {
            "operationId": "readyz",
            "summary": "The event store answers and can be written (and whether Redis answers, when REDIS_URL is set)",
            "responses": {
                "200": {
                    "description": "ready (status ready), or ready to play while Redis does not answer, or while the "
                    "projection worker stands still behind the store (status degraded, with redis or projections "
                    "saying why: the lobby and players' records answer 503 or go stale meanwhile)",
                    **_json("HealthOut"),
                },
                "503": {
                    "description": "the store does not answer (status unavailable), or cannot be written (status "
                    "unwritable: a full disk, a read-only database)",
                    **_json("HealthOut"),
                },
            },
        }
    },
}




def _documented(self: Any, field: Any, **_: Any) -> dict[str, Any]:
    """apispec: a ``schemas.Documented`` field is its component (or null, where it may be)."""
    if not isinstance(field, schemas.Documented):
        return {}
    ref = _ref(field.component)
    return {"anyOf": [ref, {"type": "null"}]} if field.allow_none else ref


# what the routes load, documented as one of the schemas the body may be: a command of one type (one schema per
# command type, from the rulesets' decision kinds), a person's or a bot's seat
REPLACED = frozenset({"CommandIn", "TakeSeatIn"})


@cache
def document() -> dict[str, Any]:
    plugin = MarshmallowPlugin()
    spec = APISpec(
        title="Aegis",
        version="0.1.0",
        openapi_version="3.1.0",
        plugins=[plugin],
        info={
            "description": f"An event-sourced game service hosting {', '.join(RULESETS)}. Errors are RFC 7807 problem+json."
        },
    )
    assert plugin.converter is not None
    plugin.converter.add_attribute_function(_documented)
    spec.components.security_scheme("bearer", {"type": "http", "scheme": "bearer"})
    commands = ruleset_schemas.command_schemas({name: rules.commands for name, rules in RULESETS.items()})
    events = ruleset_schemas.event_schemas(cls for rules in RULESETS.values() for cls in rules.event_types)
    hosted = {name: rules.shapes for name, rules in RULESETS.items()}
    for name, schema in {**commands, **events, **ruleset_schemas.components(hosted.values())}.items():
        spec.components.schema(name, schema)
    spec.components.schema("CommandIn", ruleset_schemas.command_in(commands))
    spec.components.schema("EventOut", ruleset_schemas.event_out(events))
    seat_in = [schemas.PersonSeatIn, schemas.BotSeatIn]
    for cls in seat_in:
        spec.components.schema(cls.__name__, schema=cls)
    spec.components.schema(
        "TakeSeatIn",
        {
            "description": "a person's seat (a guest's name, or a player key in the Authorization header) or a bot's",
            "oneOf": [_ref(cls.__name__) for cls in seat_in],
        },
    )
    for module in (schemas, dispute_schemas):
        for name in dir(module):
            obj = getattr(module, name)
            is_body = isinstance(obj, type) and issubclass(obj, schemas.Schema) and name.endswith(("In", "Out", "Query"))
            if is_body and name not in REPLACED and name not in spec.components.schemas:  # nested ones may be there
                spec.components.schema(name, schema=obj)
    for path, operations in PATHS.items():
        spec.path(path=path, operations=operations)
    out = spec.to_dict()
    found = out["components"]["schemas"]
    found["CreateGameIn"] = ruleset_schemas.creation_document(found["CreateGameIn"], hosted)
    found["CreateGameIn"]["properties"]["ruleset"] = {
        "type": "string",
        "enum": list(RULESETS),
        "description": f"the ruleset; this service hosts {', '.join(RULESETS)}"
        + (" (the default: the only one)" if len(RULESETS) == 1 else ": a game must name its own"),
    }
    tables = sorted({rules.shapes.table for rules in RULESETS.values()})
    if tables != ["TableOut"]:  # what a view's and a replay's table refer to: one of the hosted rulesets' tables
        found["TableOut"] = {"oneOf": [_ref(name) for name in tables]}
    found["ReviewOut"]["examples"] = [schemas.REVIEW_EXAMPLE]
    for name, example in {k: v for rules in RULESETS.values() for k, v in rules.shapes.examples.items()}.items():
        out["components"]["schemas"][name]["examples"] = [example]
    return out


@bp.get("/openapi.json")
def openapi_json() -> Response:
    return Response(json.dumps(document()), mimetype="application/json")


@bp.get("/docs")
def docs() -> Response:
    return Response(DOCS_PAGE.read_text(), mimetype="text/html")
