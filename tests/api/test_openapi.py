"""The OpenAPI document covers every route, is generated from the schemas, and the docs page renders it."""

from __future__ import annotations

import random
import re
from functools import cache
from typing import Any

import jsonschema_rs  # schemathesis's JSON Schema validator
import pytest

from aegis.api.openapi import PATHS, document
from aegis.domain.everaegis.bots import make_bot
from aegis.domain.everaegis.config import MAX_SEATS, MIN_SEATS, OPTIONS, make_config
from aegis.domain.everaegis.decide import COMMANDS
from aegis.domain.everaegis.rig import RIG_KEYS
from aegis.domain.everaegis.ruleset import RULESET
from aegis.domain.everaegis.shapes import EXAMPLES
from aegis.domain.kernel.prompts import Prompt
from aegis.domain.kernel.redaction import OMNISCIENT, SPECTATOR, redact_event
from aegis.service.rulesets import RULESETS
from aegis.service.views import prompt_dict
from tests.api_client import Api, command_of


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


def test_the_refusals_a_reader_may_meet_are_documented(sqlite_app):
    """Every API operation may answer 400 (a token in the URL is refused everywhere); the host token on a view, the
    events or a stream is a 403 (the host watches without a token)."""
    doc = sqlite_app.test_client().get("/api/openapi.json").get_json()
    for path, ops in doc["paths"].items():
        for method, op in ops.items():
            assert not path.startswith("/api/") or "400" in op["responses"], (method, path)
    api = Api(sqlite_app.test_client())
    gid, host, _ = api.new_game(["human", "random", "random"])
    api.start(gid, host)
    for path in ("view", "events", "stream"):
        assert "403" in doc["paths"][f"/api/games/{{gid}}/{path}"]["get"]["responses"]
        assert api.c.get(f"/api/games/{gid}/{path}", headers=api.auth(host)).status_code == 403


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


# ----- the document is generated from the rules' own declarations, states what the server enforces, and what the
# ----- server answers matches it -----

DOC = document()


@cache
def _validator(name: str) -> Any:
    """A JSON Schema validator for one component of the document (OpenAPI 3.1 schemas are JSON Schema 2020-12)."""
    return jsonschema_rs.validator_for({"components": DOC["components"], "$ref": f"#/components/schemas/{name}"})


def assert_matches(name: str, value: Any, where: Any = "") -> None:
    errors = list(_validator(name).iter_errors(value))
    assert not errors, f"{where}: not a {name}: {errors[0]}"


def test_the_document_is_openapi_3_1_and_every_operation_has_an_operation_id():
    assert DOC["openapi"] == "3.1.0"
    ids = [op.get("operationId") for ops in DOC["paths"].values() for op in ops.values()]
    assert all(ids) and len(set(ids)) == len(ids), ids


def test_every_command_type_a_seat_may_send_has_its_own_schema_from_the_decision_kinds():
    command_in = DOC["components"]["schemas"]["CommandIn"]
    mapping = command_in["discriminator"]["mapping"]
    assert command_in["discriminator"]["propertyName"] == "type"
    assert [r["$ref"] for r in command_in["oneOf"]] == list(mapping.values())
    sent = {t for t in COMMANDS.command_types if any(not k.system for k in COMMANDS.answering(t))}
    assert set(mapping) == sent and not COMMANDS.system & set(mapping)  # close_window, close_undo, timeout: the server's
    schemas = DOC["components"]["schemas"]
    for command_type, ref in mapping.items():
        schema = schemas[ref.rsplit("/", 1)[1]]
        props = schema["properties"]
        assert props["type"]["const"] == command_type and {"seat", "expected_seq"} <= set(props)
        assert "seat" not in schema["required"] and schema["additionalProperties"] is False
        if command_type in COMMANDS:  # a kind: its fields required, its optional fields documented
            kind = COMMANDS[command_type]
            assert set(schema["required"]) == {"type", *kind.fields}
            assert set(props) == {"type", "seat", "expected_seq", *kind.fields, *kind.optional}
            assert not schema.get("deprecated")
        else:  # an older name of one or more kinds: still accepted, deprecated
            assert schema["deprecated"] is True
    declare = schemas["DeclareCommand"]["properties"]
    assert declare["sanctions"]["items"]["required"] == ["seat", "action"]
    assert {"target", "card", "recipient", "discard", "give_wall", "treaty", "choices"} <= set(declare)
    assert schemas["TakeCommand"]["properties"]["from"]["anyOf"][0]["type"] == "integer"
    assert schemas["TakeSanctionCommand"]["properties"]["from"]["type"] == "object"


def test_events_have_one_schema_each_and_the_table_has_its_own():
    schemas = DOC["components"]["schemas"]
    event_out = schemas["EventOut"]
    assert set(event_out["discriminator"]["mapping"]) == {cls.TYPE for rules in RULESETS.values() for cls in rules.event_types}
    timed_out = schemas["DecisionTimedOutEvent"]
    assert "played" in timed_out["properties"] and "played" not in timed_out["required"]  # private until the end
    for name in ("CommandOut", "EventsOut"):
        assert schemas[name]["properties"]["events"]["items"] == {"$ref": "#/components/schemas/EventOut"}
    assert {"$ref": "#/components/schemas/TableOut"} in schemas["ViewOut"]["properties"]["table"]["anyOf"]
    assert schemas["ReplayOut"]["properties"]["table"]["$ref"].endswith("/TableOut")
    assert {"players", "deck", "action", "window", "awaiting", "result"} <= set(schemas["TableOut"]["required"])


def test_the_document_states_the_constraints_the_server_enforces():
    schemas = DOC["components"]["schemas"]
    create = schemas["CreateGameIn"]["properties"]
    assert (create["seats"]["minimum"], create["seats"]["maximum"]) == (MIN_SEATS, MAX_SEATS)
    assert set(create["options"]["properties"]) == set(OPTIONS) and create["options"]["additionalProperties"] is False
    rig = schemas["RigIn"]
    assert create["setup"]["$ref"].endswith("/RigIn") and set(rig["properties"]) == set(RIG_KEYS)
    assert rig["additionalProperties"] is False
    assert create["turn_seconds"]["not"] == {"exclusiveMinimum": 0, "exclusiveMaximum": 1}
    assert create["mobs"]["uniqueItems"] is True and create["ruleset"]["enum"] == ["ever-aegis"]
    assert [r["$ref"].rsplit("/", 1)[1] for r in schemas["TakeSeatIn"]["oneOf"]] == ["PersonSeatIn", "BotSeatIn"]
    assert schemas["BotSeatIn"]["required"] == ["bot"] and schemas["BotSeatIn"]["additionalProperties"] is False
    assert set(schemas["BotSeatIn"]["properties"]["bot"]["enum"]) == {"random", "cautious"}
    commands = DOC["paths"]["/api/games/{gid}/commands"]["post"]
    key = next(p for p in commands["parameters"] if p["name"] == "Idempotency-Key")["schema"]
    assert (key["minLength"], key["maxLength"]) == (1, 200)
    replay = {p["name"]: p["schema"] for p in DOC["paths"]["/api/games/{gid}/replay"]["get"]["parameters"]}
    assert replay["step"]["minimum"] == 0 and replay["as"]["pattern"] == "^(spectator|omniscient|[0-9]+)?$"
    stream = DOC["paths"]["/api/games/{gid}/stream"]["get"]
    assert list(stream["responses"]["200"]["content"]) == ["text/event-stream"]


def test_503_is_documented_wherever_the_store_is_read_or_written():
    storeless = {("/healthz", "get"), ("/replay/{gid}", "get"), ("/review/{gid}", "get")}  # pages read no store
    for path, ops in DOC["paths"].items():
        for method, op in ops.items():
            assert ("503" in op["responses"]) == ((path, method) not in storeless), (path, method)


def test_the_examples_match_their_schemas():
    examples = [(name, e) for name, s in DOC["components"]["schemas"].items() for e in s.get("examples", [])]
    assert {"PromptOut", "OptionOut", "ParamOut", "ChoiceOut"} <= {name for name, _ in examples}
    for name, example in examples:
        if name in ("ChoiceOut", "ParamOut", "OptionOut", "PromptOut", "DeclareCommand", "ReactCommand", "ResignCommand"):
            assert_matches(name, example, "example")
    assert_matches("CommandIn", EXAMPLES["DeclareCommand"])
    prompt = Prompt.from_dict(EXAMPLES["PromptOut"])  # a prompt the kernel reads as it reads any
    assert prompt.accepts({"type": "declare", "seat": 0, "action": "war", "target": 2})


@pytest.mark.parametrize(
    "variant, seats, options",
    [
        ("simpleton", 3, {}),
        ("simpleton+quick", 4, {}),
        ("simpleton+solo", 3, {}),
        ("simpleton+blasphemy+overlord", 4, {}),
        ("classic", 4, {"plain_unknown": 1}),
        ("classic+alliances", 5, {"plain_unknown": 1}),
        ("classic+artificers", 4, {"plain_unknown": 1, "rubble_rouser": 1, "discovery": 1}),
        ("classic+dictator+survival", 4, {"plain_unknown": 1, "vengeance": 1}),
    ],
)
def test_what_the_rules_offer_and_show_matches_the_document(variant, seats, options):
    """Bots play whole games in-process; every prompt, every command its options stand for (params picked at
    random), every table and every event, as each kind of reader sees it, must match its schema."""
    config = make_config(seats=seats, variants=variant, reaction_seconds=0, options=options or None)
    events = RULESET.start(config, f"document {variant}")
    state = RULESET.fold(config, events)
    readers = [0, SPECTATOR, OMNISCIENT]
    for e in events:
        for who in readers:
            assert_matches("EventOut", redact_event(e.to_dict(), who), e.TYPE)
    bots = [make_bot("random" if s % 2 else "cautious", s) for s in range(seats)]
    rng = random.Random(variant)
    while state.status != "finished":
        for seat in range(seats):
            for prompt in RULESET.prompts(state, seat):
                assert_matches("PromptOut", prompt_dict(prompt), prompt.kind)
                for option in prompt.options:
                    assert_matches("CommandIn", option.pick(rng), option.label)
        for who in readers:
            assert_matches("TableOut", RULESET.view(state, who), who)
        seat = RULESET.awaited(state)[0][0]
        for e in RULESET.decide(state, bots[seat].choose(RULESET.view(state, seat), RULESET.prompts(state, seat))):
            RULESET.apply(state, e)
            for who in readers:
                assert_matches("EventOut", redact_event(e.to_dict(), who), e.TYPE)
    for who in readers:
        assert_matches("TableOut", RULESET.view(state, who), who)


def test_a_game_over_the_api_answers_as_documented(sqlite_app):
    """Views, commands, event pages, replays and the timeline of a real game match their schemas, and every
    command a person sent matches CommandIn."""
    api = Api(sqlite_app.test_client())
    gid, host, tokens = api.new_game(["human", "human", "cautious"], seed="document", reaction_seconds=0)
    api.start(gid, host)
    rng = random.Random(5)
    for _ in range(3000):
        views = {seat: api.view(gid, token) for seat, token in tokens.items()}
        for seat, view in views.items():
            assert_matches("ViewOut", view, seat)
        if views[0]["status"] == "finished":
            break
        seat, prompt = next((s, p) for s, v in views.items() for p in v["prompts"] if not p["free"])
        command = {**command_of(rng.choice(prompt["options"]), rng), "expected_seq": views[seat]["seq"]}
        assert_matches("CommandIn", command, prompt["kind"])
        r = api.post(gid, tokens[seat], command)
        if r.status_code == 409:  # the server played on meanwhile (its deadline keeper): look again
            continue
        assert r.status_code == 200, r.get_json()
        assert_matches("CommandOut", r.get_json(), prompt["kind"])
    assert views[0]["status"] == "finished"
    assert_matches("ViewOut", api.view(gid), "spectator")
    assert_matches("EventsOut", api.events(gid, tokens[1]), "events")
    c = sqlite_app.test_client()
    for step in (0, 1, 5):
        assert_matches("ReplayOut", c.get(f"/api/games/{gid}/replay?step={step}&as=omniscient").get_json(), step)
    assert_matches("TimelineOut", c.get(f"/api/games/{gid}/timeline?as=1").get_json(), "timeline")
    assert_matches("VerifyOut", c.get(f"/api/games/{gid}/verify").get_json(), "verify")


@pytest.mark.parametrize(
    "body, valid",
    [
        ({"seats": 3}, True),
        ({"seats": 10, "options": {"undo": 0}, "turn_seconds": 0, "mobs": [1]}, True),
        ({"seats": 2}, False),
        ({"seats": 11}, False),
        ({"seats": 3, "options": {"nope": 1}}, False),
        ({"seats": 3, "options": {"undo": 2}}, False),
        ({"seats": 3, "turn_seconds": 0.5}, False),
        ({"seats": 3, "mobs": [1, 1]}, False),
        ({"seats": 3, "first_player": 10}, False),
        ({"seats": 3, "ruleset": "chess"}, False),
        ({"seats": 3, "setup": {"hand": {}}}, False),
        ({"seats": 3, "setup": {"years": [1.5]}}, False),
        ({"seats": 3, "setup": {"hands": {"0": [{"name": "Mason", "revealed": "yes"}]}}}, False),
        ({"seats": 3, "setup": {"dice": [9]}}, False),
        ({"seats": 3, "setup": {"hands": {"0": ["Mason", {"name": "Temple", "revealed": True}]}, "dice": [3]}}, True),
        ({"seats": 3, "selection": "draft"}, False),
    ],
)
def test_the_server_refuses_a_game_the_document_refuses(sqlite_app, body, valid):
    assert _validator("CreateGameIn").is_valid(body) is valid
    r = sqlite_app.test_client().post("/api/games", json=body)
    assert r.status_code == (201 if valid else 400), r.get_json()


@pytest.mark.parametrize(
    "body, valid",
    [
        ({"name": "Ann"}, True),
        ({"bot": "random"}, True),
        ({"name": "Ann", "bot": "random"}, False),
        ({"bot": "random", "entropy": "abc"}, False),
        ({"bot": "genius"}, False),
        ({"name": "Ann", "entropy": ""}, False),
        ({"name": ""}, False),
    ],
)
def test_the_server_refuses_a_seat_the_document_refuses(sqlite_app, body, valid):
    assert _validator("TakeSeatIn").is_valid(body) is valid
    gid = Api(sqlite_app.test_client()).create(seats=3)["id"]
    r = sqlite_app.test_client().post(f"/api/games/{gid}/seats", json=body)
    assert r.status_code == (201 if valid else 400), r.get_json()


@pytest.mark.parametrize(
    "body, field",
    [
        ({"type": "declare", "action": "war", "target": "2"}, "target"),
        ({"type": "declare", "action": "war", "target": 1.5}, "target"),
        ({"type": "declare", "action": "war", "target": [2]}, "target"),
        ({"type": "declare", "action": "war", "target": True}, "target"),
        ({"type": "declare", "action": "library", "sanctions": "x"}, "sanctions"),
        ({"type": "declare", "action": "temple", "card": 5, "recipient": 2}, "card"),
        ({"type": "declare", "action": "recruit", "foo": 1}, "foo"),
        ({"type": "declare", "action": 7}, "action"),
        ({"type": "undo", "answer": "claim"}, "window"),
    ],
)
def test_a_command_of_another_shape_than_its_type_declares_is_a_400_naming_the_field(sqlite_app, body, field):
    """A client's mistake (a field of the wrong type, one the type does not have, one missing) is a 400 with the
    field in ``errors``, as the document's schema of the type says, whoever sends it: never a 422 "illegal by the
    rules", and never a 403 for a seat that is not asked, which would hide the mistake."""
    assert not _validator("CommandIn").is_valid(body), body
    api = Api(sqlite_app.test_client())
    gid, host, tokens = api.new_game(["human", "human", "random"], reaction_seconds=0, setup={"first_player": 0})
    api.start(gid, host)
    for token in (tokens[0], tokens[1]):  # the seat asked to declare, and a seat asked nothing
        r = api.post(gid, token, body)
        assert r.status_code == 400, r.get_json()
        assert list(r.get_json()["errors"]) == [field] and field in r.get_json()["detail"]


def test_the_server_refuses_a_command_envelope_the_document_refuses(sqlite_app):
    api = Api(sqlite_app.test_client())
    gid, host, tokens = api.new_game(["human", "random", "random"], reaction_seconds=0, setup={"first_player": 0})
    api.start(gid, host)
    for body in (
        {"type": "declare", "action": "recruit", "at": 1},
        {"type": "declare", "action": "recruit", "expected_seq": -1},
        {"type": "declare", "action": "recruit", "seat": "0"},
        {"type": "close_window", "window": 1},
        {"type": "timeout"},
    ):
        assert not _validator("CommandIn").is_valid(body), body
        assert api.post(gid, tokens[0], body).status_code == 400, body
    r = api.c.post(f"/api/games/{gid}/commands", json={"type": "resign"}, headers={**api.auth(tokens[0]), "Idempotency-Key": ""})
    assert r.status_code == 400
    c = sqlite_app.test_client()
    assert c.get(f"/api/games/{gid}/replay?as=everyone").status_code == 400
    assert c.get(f"/api/games/{gid}/replay?step=-1").status_code == 400
