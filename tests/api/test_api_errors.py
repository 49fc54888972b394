"""Every refusal is an RFC 7807 problem with the right status; no input gives a 500."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.api_client import Api, command_of

PROBLEM = "application/problem+json"


def started(app, seats=("human", "human", "random")):
    api = Api(app.test_client())
    gid, host, tokens = api.new_game(list(seats), seed="errors", reaction_seconds=0, setup={"deck": ["Mason"], "first_player": 0})
    api.start(gid, host)
    return api, gid, host, tokens


def assert_problem(r, status: int, **fields):
    assert r.status_code == status, r.get_json()
    assert r.mimetype == PROBLEM
    body = r.get_json()
    assert body["status"] == status and body["type"].startswith("/api/problems/") and body["detail"]
    for k, v in fields.items():
        assert body[k] == v, (k, body)
    return body


def test_400_malformed_bodies_name_the_fields(sqlite_app):
    c = sqlite_app.test_client()
    body = assert_problem(c.post("/api/games", json={"seats": "four", "colour": "red"}), 400)
    assert set(body["errors"]) == {"seats", "colour"}
    assert_problem(c.post("/api/games", data="not json", content_type="application/json"), 400)
    assert_problem(c.post("/api/games", json=[1, 2]), 400)
    assert_problem(c.post("/api/games", json={"seats": 2}), 400, rule="A44")
    assert_problem(c.post("/api/games", json={"seats": 4, "variant": "classic"}), 400)
    assert_problem(c.post("/api/games", json={"seats": 4, "ruleset": "chess"}), 400)
    assert_problem(c.post("/api/games", json={"seats": 4, "options": {"stalemate_rounds": -2}}), 400, rule="S1")


def test_400_malformed_commands(sqlite_app):
    api, gid, _, tokens = started(sqlite_app)
    assert_problem(api.post(gid, tokens[0], {"action": "recruit"}), 400)  # no type
    unknown = assert_problem(api.post(gid, tokens[0], {"type": "fly"}), 400)["detail"]
    assert "declare" in unknown and "close_window" not in unknown and "timeout" not in unknown  # the server's own
    assert_problem(api.post(gid, tokens[0], {"type": "declare", "action": "recruit", "at": 1}), 400)
    assert_problem(api.post(gid, tokens[0], {"type": "declare", "action": "recruit", "expected_seq": "x"}), 400)
    r = api.c.post(
        f"/api/games/{gid}/commands",
        json={"type": "declare", "action": "recruit"},
        headers={**api.auth(tokens[0]), "Idempotency-Key": "k" * 300},
    )
    assert_problem(r, 400)


def test_400_what_the_schema_bounds_is_checked_before_the_rules_and_said_in_one_voice(sqlite_app):
    """A value the command's schema rules out (a seat or player below 0, a window below 1, an answer not in its list)
    is a 400 naming the field, as its type would be, not a 403 or a 422 from whoever looked next; a missing action is
    said missing, not 'None'; a body whose fields exclude each other says so in words, with no '_schema'; a type error
    at creation reads as it does everywhere else."""
    api, gid, _, tokens = started(sqlite_app)
    body = assert_problem(api.post(gid, tokens[0], {"type": "declare", "action": "war", "target": -1}), 400)
    assert body["errors"] == {"target": ["Must be greater than or equal to 0."]}
    body = assert_problem(api.post(gid, tokens[0], {"type": "declare", "seat": -1, "action": "recruit"}), 400)
    assert body["errors"] == {"seat": ["Not a seat number."]}
    body = assert_problem(api.post(gid, tokens[1], {"type": "react", "window": -5, "answer": "pass"}), 400)
    assert body["errors"] == {"window": ["Must be greater than or equal to 1."]}
    body = assert_problem(api.post(gid, tokens[1], {"type": "react", "window": 1, "answer": "maybe"}), 400)
    assert body["errors"] == {"answer": ["Must be one of: pass, call, guard, use."]}
    body = assert_problem(api.post(gid, tokens[0], {"type": "declare"}), 400)
    assert body["errors"] == {"action": ["Missing data for required field."]} and "None" not in body["detail"]
    lobby = api.create(seats=3)["id"]
    body = assert_problem(api.c.post(f"/api/games/{lobby}/seats", json={"bot": "random", "name": "X"}), 400)
    assert body["detail"] == "give a 'name' for a player or a 'bot', not both" and "_schema" not in body["errors"]
    body = assert_problem(api.c.post("/api/games", json={"seats": "3"}), 400)
    assert body["errors"] == {"seats": ["Not a valid integer."]}


def test_400_a_query_parameter_given_twice(sqlite_app):
    """?limit=1&limit=2 is refused, naming the parameter, not answered with one of its values taken silently."""
    c = sqlite_app.test_client()
    body = assert_problem(c.get("/api/games?limit=1&limit=2"), 400)
    assert body["errors"] == {"limit": ["given more than once: give it once"]}
    assert c.get("/api/games?limit=1").status_code == 200


def test_400_a_query_parameter_a_route_does_not_take(sqlite_app):
    """A route with no query parameters refuses one, naming it, instead of answering as if it were not there; a stream
    ticket sent to the view is told where it belongs."""
    api, gid, _, tokens = started(sqlite_app)
    api.c.post("/api/players", json={"name": "Quinn"})
    for url in (
        f"/api/games/{gid}/view",
        f"/api/games/{gid}/verify",
        f"/api/games/{gid}/export",
        "/api/players/Quinn",
        "/api/players/Quinn/stats",
        "/api/players/Quinn/games",
    ):
        body = assert_problem(api.c.get(f"{url}?bogus=1"), 400)
        assert body["errors"] == {"bogus": ["this route takes no query parameter"]}, url
    seq = api.view(gid)["seq"]
    assert api.c.get(f"/api/games/{gid}/events?after={seq}").get_json()["events"] == []  # up to date: nothing new
    assert "past this game's last event" in assert_problem(api.c.get(f"/api/games/{gid}/events?after={seq + 1}"), 400)["detail"]
    ticket = api.c.post(f"/api/games/{gid}/stream-ticket", headers=api.auth(tokens[0])).get_json()["ticket"]
    body = assert_problem(api.c.get(f"/api/games/{gid}/view?ticket={ticket}"), 400)
    assert "event stream only" in body["errors"]["ticket"][0]
    assert api.c.get(f"/api/games/{gid}/view", headers=api.auth(tokens[0])).status_code == 200


def test_401_without_or_with_a_wrong_token(sqlite_app):
    api, gid, _host, tokens = started(sqlite_app)
    command = {"type": "declare", "action": "recruit"}
    assert_problem(api.post(gid, None, command), 401)
    assert_problem(api.post(gid, "seat_nonsense", command), 401)
    r = api.c.post(f"/api/games/{gid}/commands", json=command, headers={"Authorization": "Basic abc"})
    assert_problem(r, 401)
    assert_problem(api.c.get(f"/api/games/{gid}/view", headers=api.auth("seat_nonsense")), 401)
    other, *_ = Api(sqlite_app.test_client()).new_game(["human", "random", "random"])
    assert_problem(api.post(other, tokens[0], command), 401)  # a token acts only in its own game
    assert_problem(api.c.post(f"/api/games/{gid}/start", headers=api.auth(tokens[0])), 403)  # known, not the host's


def test_403_another_seat_or_not_your_prompt(sqlite_app):
    api, gid, host, tokens = started(sqlite_app)
    body = assert_problem(api.post(gid, tokens[1], {"type": "declare", "action": "recruit"}), 403)
    assert body["rule"] == "R24"
    assert_problem(api.post(gid, tokens[1], {"type": "declare", "seat": 0, "action": "recruit"}), 403)
    assert_problem(api.post(gid, host, {"type": "declare", "action": "recruit"}), 403)


def test_404_unknown_games_and_routes(sqlite_app):
    c = sqlite_app.test_client()
    assert_problem(c.get("/api/games/00000000-0000-0000-0000-000000000000/view"), 404)
    assert_problem(c.get("/api/games/not-a-uuid/view"), 404)
    assert_problem(c.post("/api/games/00000000-0000-0000-0000-000000000000/seats", json={"name": "x"}), 404)
    assert_problem(c.get("/api/nowhere"), 404)
    assert_problem(c.delete("/api/games"), 405)


def test_409_lobby_states_stale_seq_and_finished_games(sqlite_app):
    api = Api(sqlite_app.test_client())
    created = api.create(seats=3, reaction_seconds=0)
    gid = created["id"]
    human = api.seat(gid, name="Ann")
    assert_problem(api.c.post(f"/api/games/{gid}/start", headers=api.auth(created["host_token"])), 409)  # seats free
    assert_problem(api.post(gid, human["token"], {"type": "declare", "action": "recruit"}), 409)  # not started
    api.seat(gid, bot="random")
    api.seat(gid, bot="random")
    assert_problem(api.c.post(f"/api/games/{gid}/seats", json={"name": "late"}), 409)  # full
    api.start(gid, created["host_token"])
    assert_problem(api.c.post(f"/api/games/{gid}/start", headers=api.auth(created["host_token"])), 409)
    view = api.view(gid, human["token"])
    option = command_of(view["prompts"][0]["options"][0]) if view["prompts"] else None
    if option is not None:
        body = assert_problem(api.post(gid, human["token"], {**option, "expected_seq": view["seq"] - 1}), 409)
        assert body["seq"] == view["seq"]
    api.play_humans(gid, {0: human["token"]}, __import__("random").Random(1))
    assert_problem(api.post(gid, human["token"], {"type": "declare", "action": "recruit"}), 409, rule="R9")


def test_422_illegal_by_the_rules_names_the_rule_and_the_open_prompt(sqlite_app):
    """A 422 names the rule and carries the seat's open prompt, compact (War is one option with a target to pick),
    not every legal command."""
    api, gid, _, tokens = started(sqlite_app)
    body = assert_problem(api.post(gid, tokens[0], {"type": "declare", "action": "war", "target": 0}), 422, rule="R45")
    assert [p["kind"] for p in body["prompts"]] == ["declare"]
    options = body["prompts"][0]["options"]
    assert {"type": "declare", "seat": 0, "action": "recruit"} in [o["command"] for o in options]
    war = next(o for o in options if o["command"]["action"] == "war")
    assert war["command"] == {"type": "declare", "seat": 0, "action": "war"}
    assert [p["name"] for p in war["params"]] == ["target"]
    assert sorted(c["value"] for c in war["params"][0]["choices"]) == [1, 2]  # the other seats
    assert len(json.dumps(body)) < 8000, "a refusal stays small"
    view = api.view(gid, tokens[0])
    assert view["seq"] == api.events(gid)["seq"]  # nothing was stored


def test_a_spectator_sees_no_hand_and_has_no_prompts(sqlite_app):
    api, gid, _, tokens = started(sqlite_app)
    spectator = api.view(gid)
    assert spectator["you"] is None and spectator["prompts"] == []
    for p in spectator["table"]["players"]:
        assert all("name" not in c for c in p["cards"] if not c["revealed"])
    mine = api.view(gid, tokens[0])
    assert all("name" in c for c in mine["table"]["players"][0]["cards"])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    path=st.sampled_from(["/api/games", "/api/games/{gid}/seats", "/api/games/{gid}/start", "/api/games/{gid}/commands"]),
    payload=st.recursive(
        st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
        lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=10), children, max_size=5),
        max_leaves=12,
    ),
    use_token=st.booleans(),
)
def test_no_input_gives_a_500(sqlite_app, path, payload, use_token):
    api, gid, _host, tokens = _shared(sqlite_app)
    headers = api.auth(tokens[0] if use_token else None)
    r = api.c.post(path.format(gid=gid), data=json.dumps(payload), content_type="application/json", headers=headers)
    assert r.status_code < 500, r.get_json()
    if r.status_code >= 400:
        assert r.mimetype == PROBLEM


_SHARED: dict[int, tuple] = {}


def _shared(app):
    key = id(app)
    if key not in _SHARED:
        _SHARED.clear()
        _SHARED[key] = started(app)
    return _SHARED[key]
