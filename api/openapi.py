"""The OpenAPI 3 document, generated from the marshmallow schemas in ``api/schemas.py``, and a docs page."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from apispec import APISpec
from apispec.ext.marshmallow import MarshmallowPlugin
from flask import Blueprint, Response, json

from api import schemas

bp = Blueprint("openapi", __name__, url_prefix="/api")
DOCS_PAGE = Path(__file__).with_name("static") / "docs.html"

GAME_ID = {"name": "gid", "in": "path", "required": True, "schema": {"type": "string", "format": "uuid"}}
PLAYER_NAME = {"name": "name", "in": "path", "required": True, "schema": {"type": "string"}}
BEARER = [{"bearer": []}]
OPTIONAL_BEARER = [{"bearer": []}, {}]


def _json(schema: Any) -> dict[str, Any]:
    return {"content": {"application/json": {"schema": schema}}}


def _problems(*codes: int) -> dict[str, Any]:
    text = {
        400: "malformed body or query",
        401: "missing or unknown token (or stream ticket: malformed, altered, another game's or seat's, expired)",
        403: "not your seat, or not your prompt, or the host token where a seat token is needed",
        404: "no such game",
        409: "stale expected_seq, a conflicting command, not started, already finished, cancelled or expired, "
        "a name already taken",
        422: "illegal by the rules: the problem names the rule and carries your open prompts",
    }
    return {str(c): {"description": text[c], "content": {"application/problem+json": {"schema": "ProblemOut"}}} for c in codes}


PATHS: dict[str, dict[str, Any]] = {
    "/api/games": {
        "post": {
            "summary": "Create a game",
            "requestBody": _json("CreateGameIn"),
            "responses": {"201": {"description": "created", **_json("CreatedOut")}, **_problems(400)},
        },
        "get": {
            "summary": "List games, newest first",
            "parameters": [{"in": "query", "schema": "GamesQuery"}],
            "responses": {"200": {"description": "one page of games", **_json("GamesOut")}, **_problems(400)},
        },
    },
    "/api/games/{gid}/seats": {
        "post": {
            "summary": "Take a seat as a guest ({name}), as a registered player (Authorization: Bearer <player key>), "
            "or add a bot ({bot})",
            "parameters": [GAME_ID],
            "security": OPTIONAL_BEARER,
            "requestBody": _json("TakeSeatIn"),
            "responses": {
                "201": {"description": "your seat and its token", **_json("SeatOut")},
                **_problems(400, 401, 404, 409),
            },
        }
    },
    "/api/games/{gid}/cancel": {
        "post": {
            "summary": "Cancel a game that has not started (host token): it leaves the lobby",
            "parameters": [GAME_ID],
            "security": BEARER,
            "responses": {"200": {"description": "cancelled", **_json("CancelledOut")}, **_problems(401, 404, 409)},
        }
    },
    "/api/games/{gid}/start": {
        "post": {
            "summary": "Start the game (host token)",
            "parameters": [GAME_ID],
            "security": BEARER,
            "responses": {"200": {"description": "started", **_json("StartedOut")}, **_problems(401, 403, 404, 409)},
        }
    },
    "/api/games/{gid}/view": {
        "get": {
            "summary": "The table as you may know it, with your open prompts (no token: a spectator)",
            "parameters": [GAME_ID],
            "security": OPTIONAL_BEARER,
            "responses": {"200": {"description": "your view", **_json("ViewOut")}, **_problems(401, 404)},
        }
    },
    "/api/games/{gid}/commands": {
        "post": {
            "summary": "Submit a command: post a prompt option's command as is",
            "parameters": [
                GAME_ID,
                {
                    "name": "Idempotency-Key",
                    "in": "header",
                    "required": False,
                    "schema": {"type": "string", "maxLength": 200},
                    "description": "a retry with the same key returns the first answer and stores nothing new",
                },
            ],
            "security": BEARER,
            "requestBody": _json("CommandIn"),
            "responses": {
                "200": {"description": "the events your command caused, as you may see them", **_json("CommandOut")},
                **_problems(400, 401, 403, 404, 409, 422),
            },
        }
    },
    "/api/games/{gid}/events": {
        "get": {
            "summary": "Events after a seq, as you may see them",
            "parameters": [GAME_ID, {"in": "query", "schema": "EventsQuery"}],
            "security": OPTIONAL_BEARER,
            "responses": {"200": {"description": "events", **_json("EventsOut")}, **_problems(400, 401, 404)},
        }
    },
    "/api/games/{gid}/stream": {
        "get": {
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
                {"name": "Last-Event-ID", "in": "header", "required": False, "schema": {"type": "integer"}},
                {"name": "last_event_id", "in": "query", "required": False, "schema": {"type": "integer"}},
            ],
            "security": OPTIONAL_BEARER,
            "responses": {
                "200": {
                    "description": "an event stream: 'view' first (unless resuming), events with id = seq, "
                    "keep-alive comments, 'end' when the game is over",
                    "content": {"text/event-stream": {"schema": {"type": "string"}}},
                },
                **_problems(400, 401, 404),
            },
        }
    },
    "/api/games/{gid}/stream-ticket": {
        "post": {
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
            "summary": "The table after any step, as a seat, a spectator or (after the game) everyone knew it",
            "parameters": [GAME_ID, {"in": "query", "schema": "ReplayQuery"}],
            "security": OPTIONAL_BEARER,
            "responses": {"200": {"description": "one step", **_json("ReplayOut")}, **_problems(400, 401, 403, 404)},
        }
    },
    "/api/games/{gid}/timeline": {
        "get": {
            "summary": "Every event in plain words, as the perspective knows it",
            "parameters": [GAME_ID, {"in": "query", "schema": "TimelineQuery"}],
            "security": OPTIONAL_BEARER,
            "responses": {"200": {"description": "the narrated log", **_json("TimelineOut")}, **_problems(400, 401, 403, 404)},
        }
    },
    "/api/games/{gid}/audit": {
        "get": {
            "summary": "A disputed claim: what the claimant held, what each player knew, every answer with its time, "
            "whether an undo was possible, and what followed",
            "parameters": [GAME_ID, {"in": "query", "schema": "AuditQuery"}],
            "security": OPTIONAL_BEARER,
            "responses": {"200": {"description": "the audit", **_json("AuditOut")}, **_problems(400, 401, 403, 404)},
        }
    },
    "/api/games/{gid}/verify": {
        "get": {
            "summary": "Replay a finished game from its revealed seed and recorded commands; compare every event",
            "parameters": [GAME_ID],
            "responses": {"200": {"description": "the verdict", **_json("VerifyOut")}, **_problems(404, 409)},
        }
    },
    "/api/games/{gid}/export": {
        "get": {
            "summary": "A finished game's stored events as NDJSON, token hashes removed (aegis import reads it)",
            "parameters": [GAME_ID],
            "responses": {
                "200": {
                    "description": "one JSON object per line",
                    "content": {"application/x-ndjson": {"schema": {"type": "string"}}},
                },
                **_problems(404, 409),
            },
        }
    },
    "/replay/{gid}": {
        "get": {
            "summary": "The step-through viewer (a web page): ?step=N&as=<seat|spectator|omniscient>, #token=<seat token>",
            "parameters": [GAME_ID],
            "responses": {
                "200": {"description": "the page", "content": {"text/html": {"schema": {"type": "string"}}}},
                **_problems(404),
            },
        }
    },
    "/api/players": {
        "post": {
            "summary": "Register a player's name; the player key is shown once",
            "requestBody": _json("RegisterIn"),
            "responses": {"201": {"description": "registered", **_json("RegisteredOut")}, **_problems(400, 409)},
        },
        "get": {
            "summary": "The leaderboard: registered players by rating (or games, wins, name)",
            "parameters": [{"in": "query", "schema": "PlayersQuery"}],
            "responses": {"200": {"description": "one page of players", **_json("PlayersOut")}, **_problems(400)},
        },
    },
    "/api/players/{name}": {
        "get": {
            "summary": "A registered player: rating, games, wins, draws, losses and statistics (finished games only)",
            "parameters": [PLAYER_NAME],
            "responses": {"200": {"description": "the record", **_json("PlayerOut")}, **_problems(404)},
        }
    },
    "/api/players/{name}/stats": {
        "get": {
            "summary": "A registered player's statistics, each named for what it counts (finished games only)",
            "parameters": [PLAYER_NAME],
            "responses": {"200": {"description": "the counts", **_json("StatsOut")}, **_problems(404)},
        }
    },
    "/api/players/{name}/games": {
        "get": {
            "summary": "A registered player's finished games as NDJSON, oldest first (schema PlayerGameOut per line)",
            "parameters": [PLAYER_NAME],
            "responses": {
                "200": {
                    "description": "one JSON object (PlayerGameOut) per line",
                    "content": {"application/x-ndjson": {"schema": {"type": "string"}}},
                },
                **_problems(404),
            },
        }
    },
    "/healthz": {"get": {"summary": "The process is up", "responses": {"200": {"description": "ok", **_json("HealthOut")}}}},
    "/readyz": {
        "get": {
            "summary": "The event store answers (and Redis, when REDIS_URL is set)",
            "responses": {
                "200": {"description": "ready", **_json("HealthOut")},
                "503": {"description": "the store does not answer", **_json("HealthOut")},
            },
        }
    },
}


@cache
def document() -> dict[str, Any]:
    spec = APISpec(
        title="Aegis",
        version="0.1.0",
        openapi_version="3.0.3",
        plugins=[MarshmallowPlugin()],
        info={"description": "An event-sourced game service for Ever Aegis. Errors are RFC 7807 problem+json."},
    )
    spec.components.security_scheme("bearer", {"type": "http", "scheme": "bearer"})
    for name in dir(schemas):
        obj = getattr(schemas, name)
        is_body = isinstance(obj, type) and issubclass(obj, schemas.Schema) and name.endswith(("In", "Out", "Query"))
        if is_body and name not in spec.components.schemas:  # nested schemas may be registered already
            spec.components.schema(name, schema=obj)
    for path, operations in PATHS.items():
        spec.path(path=path, operations=operations)
    return spec.to_dict()


@bp.get("/openapi.json")
def openapi_json() -> Response:
    return Response(json.dumps(document()), mimetype="application/json")


@bp.get("/docs")
def docs() -> Response:
    return Response(DOCS_PAGE.read_text(), mimetype="text/html")
