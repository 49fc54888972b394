"""The OpenAPI document covers every route, is generated from the schemas, and the docs page renders it."""

from __future__ import annotations

import re

from api.openapi import PATHS


def test_every_route_of_the_app_is_documented(sqlite_app):
    doc = sqlite_app.test_client().get("/api/openapi.json").get_json()
    assert doc["openapi"].startswith("3.")
    routes = set()
    for rule in sqlite_app.url_map.iter_rules():
        if rule.endpoint in ("static", "openapi.openapi_json", "openapi.docs"):
            continue
        path = re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", rule.rule)
        for method in rule.methods - {"HEAD", "OPTIONS"}:
            routes.add((path, method.lower()))
    documented = {(path, method) for path, ops in doc["paths"].items() for method in ops}
    assert routes == documented


def test_bodies_are_described_by_the_marshmallow_schemas(sqlite_app):
    doc = sqlite_app.test_client().get("/api/openapi.json").get_json()
    schemas = doc["components"]["schemas"]
    assert {"CreateGameIn", "ViewOut", "CommandIn", "CommandOut", "ProblemOut", "PromptOut"} <= set(schemas)
    assert schemas["CreateGameIn"]["required"] == ["seats"]
    assert "options" in schemas["PromptOut"]["properties"]
    create = doc["paths"]["/api/games"]["post"]
    assert create["requestBody"]["content"]["application/json"]["schema"]["$ref"].endswith("/CreateGameIn")
    assert "422" in doc["paths"]["/api/games/{gid}/commands"]["post"]["responses"]
    assert set(PATHS) == set(doc["paths"])


def test_the_stream_ticket_route_is_documented_and_the_stream_takes_no_token_in_its_url(sqlite_app):
    doc = sqlite_app.test_client().get("/api/openapi.json").get_json()
    ticket = doc["paths"]["/api/games/{gid}/stream-ticket"]["post"]
    assert ticket["security"] == [{"bearer": []}]
    assert ticket["responses"]["201"]["content"]["application/json"]["schema"]["$ref"].endswith("/StreamTicketOut")
    assert {"400", "401", "403", "404"} <= set(ticket["responses"])
    assert set(doc["components"]["schemas"]["StreamTicketOut"]["required"]) == {"ticket", "seat", "expires_at"}
    params = {p["name"] for p in doc["paths"]["/api/games/{gid}/stream"]["get"]["parameters"]}
    assert "ticket" in params and "token" not in params


def test_the_docs_page_is_served(sqlite_app):
    page = sqlite_app.test_client().get("/api/docs")
    assert page.status_code == 200 and page.mimetype == "text/html"
    assert b"/api/openapi.json" in page.data


def test_health_and_readiness(sqlite_app):
    c = sqlite_app.test_client()
    assert c.get("/healthz").get_json() == {"status": "ok"}
    ready = c.get("/readyz").get_json()
    assert ready == {"status": "ready", "store": "eventsourcing.sqlite"}


def test_readiness_fails_when_the_store_is_gone(postgres_env):
    """A real failure: the store's tables vanish under a running service (the schema is dropped)."""
    import psycopg

    from benchmarks.harness import PG
    from tests.conftest import close_app, make_app

    app = make_app(postgres_env)
    assert app.test_client().get("/readyz").status_code == 200
    with psycopg.connect(**PG, autocommit=True) as conn:
        conn.execute(f"DROP SCHEMA {postgres_env['POSTGRES_SCHEMA']} CASCADE")
    r = app.test_client().get("/readyz")
    assert r.status_code == 503 and r.get_json()["status"] == "unavailable"
    close_app(app)


def test_a_store_failure_during_a_request_is_a_503_with_retry_after(postgres_env):
    """Not a 500: the tables vanish under a running service; reads and commands answer 503 and Retry-After."""
    import psycopg

    from benchmarks.harness import PG
    from tests.api_client import Api
    from tests.conftest import close_app, make_app

    app = make_app(postgres_env)
    api = Api(app.test_client())
    gid, host, tokens = api.new_game(
        ["human", "random", "random"], reaction_seconds=0, setup={"deck": ["Mason"], "first_player": 0}
    )
    api.start(gid, host)
    app.extensions["aegis"]._evict(__import__("uuid").UUID(gid))  # the next command must reach the database
    with psycopg.connect(**PG, autocommit=True) as conn:
        conn.execute(f"DROP SCHEMA {postgres_env['POSTGRES_SCHEMA']} CASCADE")
    r = api.post(gid, tokens[0], {"type": "declare", "action": "recruit"})
    assert r.status_code == 503 and r.headers["Retry-After"] == "1"
    assert r.mimetype == "application/problem+json" and "nothing was changed" in r.get_json()["detail"]
    assert app.test_client().post("/api/games", json={"seats": 3}).status_code == 503
    close_app(app)
