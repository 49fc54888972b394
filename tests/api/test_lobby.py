"""A game that never starts: its host cancels it, or it expires after AEGIS_LOBBY_TTL; either way it leaves the
lobby and cannot be seated or started. Bad game options are refused with problems that say why."""

from __future__ import annotations

import time

import pytest

from tests.api_client import Api
from tests.conftest import close_app, make_app


def _ids(api: Api, **query) -> list[str]:
    r = api.c.get("/api/games", query_string=query)
    assert r.status_code == 200, r.get_json()
    return [g["id"] for g in r.get_json()["games"]]


def test_the_host_cancels_a_game_that_has_not_started(sqlite_app):
    api = Api(sqlite_app.test_client())
    created = api.create(seats=3)
    gid, host = created["id"], created["host_token"]
    taken = api.seat(gid, name="Ann")
    assert api.c.post(f"/api/games/{gid}/cancel").status_code == 401
    assert api.c.post(f"/api/games/{gid}/cancel", headers=api.auth(taken["token"])).status_code == 403  # a seat's token
    r = api.c.post(f"/api/games/{gid}/cancel", headers=api.auth(host))
    assert r.status_code == 200 and r.get_json() == {"id": gid, "status": "cancelled"}
    assert api.view(gid)["status"] == "cancelled"
    assert gid not in _ids(api) and gid in _ids(api, status="cancelled")
    for attempt in (
        api.c.post(f"/api/games/{gid}/seats", json={"name": "Bob"}),
        api.c.post(f"/api/games/{gid}/start", headers=api.auth(host)),
        api.c.post(f"/api/games/{gid}/cancel", headers=api.auth(host)),
    ):
        assert attempt.status_code == 409 and attempt.mimetype == "application/problem+json", attempt.get_json()


def test_a_started_game_cannot_be_cancelled(sqlite_app):
    api = Api(sqlite_app.test_client())
    gid, host, _ = api.new_game(["human", "random", "random"], reaction_seconds=0)
    api.start(gid, host)
    r = api.c.post(f"/api/games/{gid}/cancel", headers=api.auth(host))
    assert r.status_code == 409 and "only a game that has not started" in r.get_json()["detail"]


def test_a_game_not_started_in_time_expires_and_leaves_the_lobby(sqlite_env):
    app = make_app(sqlite_env, AEGIS_LOBBY_TTL="1")
    try:
        api = Api(app.test_client())
        created = api.create(seats=3)
        gid = created["id"]
        api.seat(gid, name="Ann")
        view = api.view(gid)
        assert view["status"] == "lobby" and view["expires_at"] == pytest.approx(time.time() + 1, abs=1)
        assert gid in _ids(api)
        time.sleep(1.2)
        assert gid not in _ids(api)  # past its time, even before the server records it
        deadline = time.monotonic() + 10
        while api.view(gid)["status"] != "expired" and time.monotonic() < deadline:
            time.sleep(0.05)  # the deadline keeper records the expiry by itself
        assert api.view(gid)["status"] == "expired" and gid in _ids(api, status="expired")
        start = api.c.post(f"/api/games/{gid}/start", headers=api.auth(created["host_token"]))
        assert start.status_code == 409 and "expired" in start.get_json()["detail"]
        assert api.c.post(f"/api/games/{gid}/seats", json={"name": "Bob"}).status_code == 409
    finally:
        close_app(app)


def test_starting_after_the_lobby_time_without_the_keeper_is_refused_and_recorded(sqlite_env):
    from aegis.api import create_app
    from aegis.service.settings import load

    app = create_app(load({**sqlite_env, "AEGIS_LOBBY_TTL": "1"}), background=False)  # no deadline keeper
    try:
        api = Api(app.test_client())
        gid, host, _ = api.new_game(["human", "random", "random"])
        time.sleep(1.1)
        r = api.c.post(f"/api/games/{gid}/start", headers=api.auth(host))
        assert r.status_code == 409 and r.get_json()["type"].endswith("expired")
        assert api.view(gid)["status"] == "expired"
    finally:
        close_app(app)


@pytest.mark.parametrize(
    "field, value",
    [
        ("turn_seconds", -1),
        ("turn_seconds", 0.5),
        ("turn_seconds", 10**9),
        ("turn_seconds", "soon"),
        ("timeouts_to_forfeit", -1),
        ("timeouts_to_forfeit", 1000),
        ("timeouts_to_forfeit", 2.5),
        ("reaction_seconds", -3),
        ("exact_seed", "yes"),
    ],
)
def test_bad_clock_and_seed_options_are_refused(sqlite_app, field, value):
    api = Api(sqlite_app.test_client())
    problem = api.create(expect=400, seats=3, **{field: value})
    assert problem["status"] == 400 and field in problem["errors"], problem


def test_exact_seed_needs_a_seed(sqlite_app):
    problem = Api(sqlite_app.test_client()).create(expect=400, seats=3, exact_seed=True)
    assert "'seed'" in problem["detail"]


def test_a_bad_entropy_is_refused(sqlite_app):
    api = Api(sqlite_app.test_client())
    gid = api.create(seats=3)["id"]
    assert api.seat(gid, expect=400, name="Ann", entropy="")["status"] == 400
    assert api.seat(gid, expect=400, name="Ann", entropy="x" * 201)["status"] == 400
    assert api.seat(gid, expect=400, bot="random", entropy="abc")["status"] == 400
