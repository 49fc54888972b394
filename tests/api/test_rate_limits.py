"""Rate limits per client on creating games and taking seats (issue 18, "Abuse"): over HTTP with the Flask test
client, each client told apart by its remote address; in the process and in the real Redis, shared by two app
instances; failing open while Redis is away."""

from __future__ import annotations

import http.client
import itertools
import json
import re
import secrets
import time
from collections.abc import Iterator
from typing import Any

import jsonschema_rs
import pytest

from aegis.api.openapi import document
from aegis.domain.kernel.errors import MalformedCommand
from aegis.service.settings import RATE_CREATE, RATE_SEAT, load
from benchmarks.harness import RedisServer, Service
from tests.api_client import Api
from tests.conftest import close_app, make_app, need_server

REDIS = "redis://127.0.0.1:6379/15"
ANN, BOB = {"REMOTE_ADDR": "192.0.2.10"}, {"REMOTE_ADDR": "198.51.100.20"}  # two clients (documentation addresses)


def _create(app: Any, who: dict[str, str] | None = None, **spec: Any) -> Any:
    return app.test_client().post("/api/games", json={"seats": 3, **spec}, environ_overrides=who or {})


def _seat(app: Any, gid: str, body: dict[str, Any], who: dict[str, str] | None = None) -> Any:
    return app.test_client().post(f"/api/games/{gid}/seats", json=body, environ_overrides=who or {})


def _assert_refused(r: Any, what: str, limit: str, setting: str) -> int:
    """A 429 problem+json shaped as every other refusal, as the OpenAPI document says; returns its Retry-After."""
    assert r.status_code == 429, r.get_json()
    assert r.mimetype == "application/problem+json"
    body = r.get_json()
    assert body["type"] == "/api/problems/rate-limited" and body["title"] == "Too many requests" and body["status"] == 429
    wait = int(r.headers["Retry-After"])
    assert 1 <= wait <= 60
    assert body["detail"] == f"too many {what} from your address: at most {limit} ({setting}); try again in {wait} s"
    doc = document()
    validator = jsonschema_rs.validator_for({"components": doc["components"], "$ref": "#/components/schemas/ProblemOut"})
    assert validator.is_valid(body), body
    return wait


# ----- in the process -----


def test_a_client_creating_games_beyond_the_limit_gets_429_and_other_clients_do_not(sqlite_env):
    app = make_app(sqlite_env, AEGIS_RATE_CREATE="3/minute")
    try:
        for _ in range(3):
            assert _create(app, ANN).status_code == 201
        wait = _assert_refused(_create(app, ANN), "games created", "3 per 1 minute", "AEGIS_RATE_CREATE")
        assert wait >= 55  # the window started with Ann's first game, a moment ago
        assert _create(app, ANN, seats=4).status_code == 429  # refused before its body is read: valid or not
        for _ in range(3):
            assert _create(app, BOB).status_code == 201  # another address has its own count
        assert _create(app, BOB).status_code == 429
        listing = app.test_client().get("/api/games?limit=100").get_json()
        assert listing["total"] == 6  # no refused request created a game
        gid = listing["games"][0]["id"]
        assert _seat(app, gid, {"name": "Ann"}, ANN).status_code == 201  # seats are counted apart
    finally:
        close_app(app)


def test_a_client_taking_seats_beyond_the_limit_gets_429_bots_included(sqlite_env):
    app = make_app(sqlite_env, AEGIS_RATE_SEAT="3/minute")
    try:
        gid = _create(app, ANN, seats=6).get_json()["id"]
        assert _seat(app, gid, {"name": "Ann"}, ANN).status_code == 201
        assert _seat(app, gid, {"bot": "random"}, ANN).status_code == 201
        assert _seat(app, gid, {"name": "Anne"}, ANN).status_code == 201
        _assert_refused(_seat(app, gid, {"bot": "cautious"}, ANN), "seats taken", "3 per 1 minute", "AEGIS_RATE_SEAT")
        _assert_refused(_seat(app, gid, {"name": "Ann 2"}, ANN), "seats taken", "3 per 1 minute", "AEGIS_RATE_SEAT")
        assert _seat(app, gid, {"bot": "cautious"}, BOB).status_code == 201  # another address
        assert _seat(app, gid, {"name": "Bob"}, BOB).status_code == 201
        assert len(Api(app.test_client()).view(gid)["seats"]) == 5  # the two refused seats were not taken
        assert _create(app, ANN).status_code == 201  # creating games is counted apart
    finally:
        close_app(app)


def test_the_default_limits_refuse_the_121st_game_and_the_601st_seat_from_one_address(sqlite_env):
    assert (RATE_CREATE, RATE_SEAT) == ("120/minute", "600/minute")
    app = make_app(sqlite_env)
    try:
        assert [_create(app).status_code for _ in range(120)] == [201] * 120
        _assert_refused(_create(app), "games created", "120 per 1 minute", "AEGIS_RATE_CREATE")
        # every request counts, refused or not: a seat in no game answers 404 at once, and is counted
        assert {_seat(app, "no-such-game", {"bot": "random"}).status_code for _ in range(600)} == {404}
        _assert_refused(_seat(app, "no-such-game", {"bot": "random"}), "seats taken", "600 per 1 minute", "AEGIS_RATE_SEAT")
    finally:
        close_app(app)


def test_off_and_0_disable_the_limits(sqlite_env):
    app = make_app(sqlite_env, AEGIS_RATE_CREATE="off", AEGIS_RATE_SEAT="0", AEGIS_RATE_REGISTER="off", AEGIS_RATE_DISPUTE="off")
    try:
        assert {_create(app).status_code for _ in range(125)} == {201}  # beyond the default 120
        assert {_seat(app, "no-such-game", {"bot": "random"}).status_code for _ in range(605)} == {404}  # beyond 600
        assert "limiter" not in app.extensions  # no limit at all: no limiter
    finally:
        close_app(app)
    app = make_app(sqlite_env, AEGIS_RATE_CREATE="2/minute", AEGIS_RATE_SEAT="OFF")
    try:
        assert [_create(app).status_code for _ in range(3)] == [201, 201, 429]
        assert {_seat(app, "no-such-game", {"bot": "random"}).status_code for _ in range(605)} == {404}
    finally:
        close_app(app)


def test_x_forwarded_for_is_not_trusted_unless_the_operator_wraps_the_app_in_proxyfix(sqlite_env):
    """A client cannot dodge its limit by making up X-Forwarded-For; behind a proxy, the README's ProxyFix recipe
    counts each forwarded client apart."""
    from werkzeug.middleware.proxy_fix import ProxyFix

    app = make_app(sqlite_env, AEGIS_RATE_CREATE="2/minute")
    try:
        c = app.test_client()
        codes = [
            c.post("/api/games", json={"seats": 3}, headers={"X-Forwarded-For": f"10.0.0.{n}"}).status_code for n in range(3)
        ]
        assert codes == [201, 201, 429]
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=1)  # type: ignore[method-assign]
        proxy = {"REMOTE_ADDR": "192.0.2.99"}  # the proxy: every request comes from it
        for client in ("203.0.113.1", "203.0.113.2"):
            forwarded = {"X-Forwarded-For": client}
            sent = [c.post("/api/games", json={"seats": 3}, headers=forwarded, environ_overrides=proxy) for _ in range(3)]
            assert [r.status_code for r in sent] == [201, 201, 429], client
    finally:
        close_app(app)


def test_under_aegis_serve_only_a_proxy_on_this_machine_may_name_the_client(tmp_path):
    """``aegis serve`` (uvicorn) takes the client's address from X-Forwarded-For only when the connection comes from
    FORWARDED_ALLOW_IPS (uvicorn's default: 127.0.0.1 and ::1); a client elsewhere cannot dodge its count with it."""
    service = Service(
        {"SQLITE_DBNAME": str(tmp_path / "a.sqlite"), "AEGIS_RATE_CREATE": "2/minute"}, tmp_path / "serve.log", workers=0
    )
    service.start()
    host, port = service.url.removeprefix("http://").split(":")

    def create(source: str, forwarded: str) -> http.client.HTTPResponse:
        conn = http.client.HTTPConnection(host, int(port), timeout=10, source_address=(source, 0))
        headers = {"Content-Type": "application/json", "X-Forwarded-For": forwarded}
        conn.request("POST", "/api/games", body=json.dumps({"seats": 3}), headers=headers)
        r = conn.getresponse()
        r.read()
        conn.close()
        return r

    try:
        # 127.0.0.2 is no trusted proxy: its own address counts, whatever it says it forwards
        sent = [create("127.0.0.2", f"10.0.0.{n}") for n in range(3)]
        assert [r.status for r in sent] == [201, 201, 429]
        assert sent[2].getheader("Content-Type") == "application/problem+json" and int(sent[2].getheader("Retry-After")) >= 1
        # 127.0.0.1 is (a proxy on this machine): each client it names has a count of its own
        assert [create("127.0.0.1", client).status for client in ("203.0.113.1", "203.0.113.2", "203.0.113.3")] == [201] * 3
        assert [create("127.0.0.1", "203.0.113.1").status for _ in range(2)] == [201, 429]
    finally:
        service.stop()


@pytest.mark.parametrize(
    "raw, parsed",
    [
        (None, RATE_CREATE),
        ("", RATE_CREATE),
        ("3/minute", "3/minute"),
        (" 120/minute;2000/day ", "120/minute;2000/day"),
        ("10 per second", "10 per second"),
        ("off", None),
        ("Off", None),
        ("0", None),
    ],
)
def test_rate_settings_are_parsed_in_flask_limiters_notation(raw, parsed):
    env = {"PERSISTENCE_MODULE": "eventsourcing.popo"} | ({} if raw is None else {"AEGIS_RATE_CREATE": raw})
    assert load(env).rate_create == parsed


@pytest.mark.parametrize("raw", ["lots", "120", "120/fortnight", "0/minute", "120/minute;0/hour", "-1/minute", "none"])
def test_a_bad_rate_is_refused_at_start_up_naming_the_variable(raw):
    with pytest.raises(MalformedCommand, match=r"environment variable AEGIS_RATE_SEAT must be a rate such as "):
        load({"PERSISTENCE_MODULE": "eventsourcing.popo", "AEGIS_RATE_SEAT": raw})


def test_429_is_documented_on_the_limited_operations_only():
    doc = document()
    limited = {
        ("/api/games", "post"): "AEGIS_RATE_CREATE",
        ("/api/games/{gid}/branches", "post"): "AEGIS_RATE_CREATE",
        ("/api/games/{gid}/seats", "post"): "AEGIS_RATE_SEAT",
        ("/api/players", "post"): "AEGIS_RATE_REGISTER",
        ("/api/games/{gid}/stream", "get"): "AEGIS_STREAMS_PER_CLIENT",
        ("/api/games/{gid}/disputes", "post"): "AEGIS_RATE_DISPUTE",
        ("/api/disputes/{did}/comments", "post"): "AEGIS_RATE_DISPUTE",
        ("/api/disputes/{did}/votes", "post"): "AEGIS_RATE_DISPUTE",
        ("/api/disputes/{did}/verdict", "post"): "AEGIS_RATE_DISPUTE",
    }
    for path, ops in doc["paths"].items():
        for method, op in ops.items():
            if (path, method) not in limited:
                assert "429" not in op["responses"], (path, method)
                continue
            answer = op["responses"]["429"]
            assert limited[path, method] in answer["description"]
            assert answer["headers"]["Retry-After"]["required"] is True
            assert answer["content"]["application/problem+json"]["schema"]["$ref"].endswith("/ProblemOut")


# ----- in Redis: one count for every API process; failing open while Redis is away -----


@pytest.fixture
def redis_prefix() -> Iterator[str]:
    """A key prefix of this test's own in the real Redis (database 15); its keys are deleted afterwards."""
    import redis

    try:
        client = redis.Redis.from_url(REDIS, socket_connect_timeout=2)
        client.ping()
    except Exception as err:
        need_server("Redis at 127.0.0.1:6379", err)
    prefix = f"aegis-test-{secrets.token_hex(3)}:"
    yield prefix
    keys = list(client.scan_iter(match=prefix + "*", count=1000))
    if keys:
        client.delete(*keys)


def test_the_redis_limiter_shares_its_count_between_two_app_instances(sqlite_env, redis_prefix):
    import redis

    env = {**sqlite_env, "REDIS_URL": REDIS, "AEGIS_REDIS_PREFIX": redis_prefix}
    first = make_app(env, AEGIS_RATE_CREATE="3/minute")
    second = make_app(env, AEGIS_RATE_CREATE="3/minute")
    try:
        assert _create(first, ANN).status_code == 201
        assert _create(first, ANN).status_code == 201
        assert _create(second, ANN).status_code == 201  # Ann's third game, on the other process
        _assert_refused(_create(second, ANN), "games created", "3 per 1 minute", "AEGIS_RATE_CREATE")
        _assert_refused(_create(first, ANN), "games created", "3 per 1 minute", "AEGIS_RATE_CREATE")
        assert _create(second, BOB).status_code == 201
        client = redis.Redis.from_url(REDIS, decode_responses=True)
        counters = sorted(client.scan_iter(match=redis_prefix + "ratelimit:*"))
        assert len(counters) == 2 and re.search(r"/192\.0\.2\.10/games\.create_game/3/1/minute$", counters[0])
        assert int(client.get(counters[0])) == 5 and 0 < client.ttl(counters[0]) <= 60
        views = first.extensions["aegis.views"]
        first.extensions["aegis.worker"].catch_up_locked()  # the projector gathers saves for a moment: project them now
        keys = views.keys()  # the view store's keys (not a dict's)
        assert keys and not any("ratelimit" in k for k in keys)  # the counters are no views
        views.clear()  # a rebuild empties the views, not the counters
        assert sorted(client.scan_iter(match=redis_prefix + "ratelimit:*")) == counters
        assert _create(first, ANN).status_code == 429
    finally:
        close_app(first)
        close_app(second)


def test_commands_still_work_while_the_limiters_redis_is_down(sqlite_env, tmp_path):
    """Redis killed under a running app: creating games still works (each process counts in its own memory with
    the same limits meanwhile), and the counts go back to Redis when it is back."""
    import redis

    try:
        server = RedisServer(tmp_path)
        server.start()
    except Exception as err:
        need_server("redis-server (the program)", err)
    prefix = "aegis-outage:"
    app = make_app({**sqlite_env, "REDIS_URL": server.url, "AEGIS_REDIS_PREFIX": prefix}, AEGIS_RATE_CREATE="3/minute")
    try:
        assert _create(app, ANN).status_code == 201
        assert _create(app, ANN).status_code == 201
        client = redis.Redis(port=server.port, decode_responses=True, socket_connect_timeout=1)
        [counter] = client.scan_iter(match=prefix + "ratelimit:*")
        assert client.get(counter) == "2"
        server.kill()
        started = time.monotonic()
        assert [_create(app, ANN).status_code for _ in range(4)] == [201, 201, 201, 429]  # counted in memory
        assert time.monotonic() - started < 10  # no request waited long on the dead Redis
        server.start()  # back, empty: the limiter asks Redis again within seconds (1, 2, 4 ... s apart)
        deadline = time.monotonic() + 30
        for n in itertools.count(1):  # a new address each time: none of these is refused
            if list(client.scan_iter(match=prefix + "ratelimit:*")):
                break
            assert time.monotonic() < deadline, "the limiter did not go back to Redis"
            assert _create(app, {"REMOTE_ADDR": f"203.0.113.{n}"}).status_code == 201
            time.sleep(0.2)
        assert _create(app, BOB).status_code == 201
    finally:
        close_app(app)
        server.kill()


def test_a_client_registering_names_beyond_the_limit_gets_429(sqlite_env):
    """One address may not fill the name registry: AEGIS_RATE_REGISTER (30 a minute by default)."""
    app = make_app(sqlite_env, AEGIS_RATE_REGISTER="2/minute")
    try:
        c = app.test_client()
        codes = [c.post("/api/players", json={"name": f"Player {i}"}).status_code for i in range(3)]
        assert codes == [201, 201, 429]
        refused = c.post("/api/players", json={"name": "Player 9"})
        body = refused.get_json()
        assert refused.status_code == 429 and "players registered" in body["detail"] and "AEGIS_RATE_REGISTER" in body["detail"]
        assert int(refused.headers["Retry-After"]) >= 1
        other = c.post("/api/players", json={"name": "Player 10"}, environ_overrides={"REMOTE_ADDR": "10.0.0.9"})
        assert other.status_code == 201  # another address is not limited by this one
    finally:
        close_app(app)
