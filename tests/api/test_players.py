"""Registered players (a player key, guests, names) and their records: ratings, results and statistics counted from
finished games only, a leaderboard and a per-player NDJSON export of finished games."""

from __future__ import annotations

import json
import random

import pytest

from aegis.projections.store import MemoryViewStore
from aegis.projections.worker import rebuild
from tests.api_client import Api


def register(api: Api, name: str, expect: int = 201) -> dict:
    r = api.c.post("/api/players", json={"name": name})
    assert r.status_code == expect, r.get_json()
    return r.get_json()


def sit(api: Api, gid: str, key: str | None = None, expect: int = 201, **body) -> dict:
    r = api.c.post(f"/api/games/{gid}/seats", json=body, headers=api.auth(key))
    assert r.status_code == expect, r.get_json()
    return r.get_json()


def test_registering_gives_a_key_once_and_a_name_only_once(sqlite_app):
    api = Api(sqlite_app.test_client())
    ann = register(api, "  Ann ")
    assert ann["name"] == "Ann" and ann["key"].startswith("player_")
    again = register(api, "ANN", expect=409)
    assert again["type"].endswith("name-taken") and "Ann" in again["detail"]
    assert register(api, "Ａｎｎ", expect=409)["status"] == 409  # full-width letters are the same name
    record = api.c.get("/api/players/ann").get_json()  # a name is found whatever its case
    assert record["name"] == "Ann" and record["games"] == 0 and record["rating"]["mu"] == pytest.approx(25.0)
    assert ann["key"] not in json.dumps(record)
    assert api.c.get("/api/players/Nobody").status_code == 404


@pytest.mark.parametrize(
    "name, why",
    [
        ("", "visible"),
        ("   ", "visible"),
        ("\u200b\u200b", "visible"),  # zero-width spaces only
        ("Ann\x00", "U+0000"),
        ("Ann\nBob", "U+000A"),
        ("evil\u202eeman", "U+202E"),  # a right-to-left override
        ("a\u2066b", "U+2066"),
        ("x" * 41, "at most 40"),
        ("a/b", "'/'"),
        ("..", "step of the path"),  # /api/players/.. is /api/ to curl and browsers
        (".", "step of the path"),
        ("Cautious bot 2", "the service gives its own seats"),  # a person would pass for a bot
        ("random  BOT 10", "the service gives its own seats"),
        ("Seat 3", "the service gives its own seats"),
    ],
)
def test_bad_names_are_refused_with_a_reason(sqlite_app, name, why):
    api = Api(sqlite_app.test_client())
    problem = register(api, name, expect=400)
    assert problem["type"].endswith(("bad-name", "malformed")) and why in problem["detail"]
    gid = api.create(seats=3)["id"]
    if "step of the path" not in why and "/" not in name:  # a guest's name follows the same rules, but for the
        assert why in sit(api, gid, name=name, expect=400)["detail"]  # address's ('/', '.', '..': registered only)


@pytest.mark.parametrize("name", ["Clever bot 2", "Random bots 2", "Random bot", "Seat", "Seat 3b", "...", "Bot 1"])
def test_names_like_the_services_own_but_not_of_its_form_are_taken(sqlite_app, name):
    api = Api(sqlite_app.test_client())
    assert sit(api, api.create(seats=3)["id"], name=name.upper())["seat"] == 0  # a guest (before the name is registered)
    assert register(api, name)["name"] == name


def test_names_are_kept_in_nfc_and_unique_within_a_game(sqlite_app):
    api = Api(sqlite_app.test_client())
    gid = api.create(seats=4)["id"]
    sit(api, gid, name="Rene\u0301")  # e + combining acute
    view = api.view(gid)
    assert view["seats"][0]["name"] == "René" and view["seats"][0]["guest"] is True
    assert sit(api, gid, name="RENÉ", expect=409)["type"].endswith("name-taken")
    sit(api, gid, bot="random")
    assert "gives its own seats" in sit(api, gid, name="random BOT 1", expect=400)["detail"]  # a bot's, never a person's


def test_a_player_key_seats_its_player_and_guests_cannot_take_a_registered_name(sqlite_app):
    api = Api(sqlite_app.test_client())
    sally = register(api, "Sally")
    gid = api.create(seats=3)["id"]
    assert "Sally" in sit(api, gid, name="sally", expect=409)["detail"]  # a guest may not sit as Sally
    mine = sit(api, gid, sally["key"])
    assert mine["token"].startswith("seat_")
    assert sit(api, gid, sally["key"], expect=409)["type"].endswith("seated")  # one seat per player
    assert sit(api, gid, sally["key"], name="Bob", expect=400)["status"] == 400  # the key is Sally's
    assert sit(api, gid, "player_" + "0" * 32 + "_wrong", expect=401)["status"] == 401
    assert sit(api, gid, "seat_not_a_player_key", name="Tom", expect=401)["status"] == 401
    seats = api.view(gid)["seats"]
    assert seats[0] == {**seats[0], "name": "Sally", "player": "Sally", "guest": False}


def _finish(api: Api, names: list[str], keys: dict[str, str], *, seed: int, **spec) -> str:
    """A game of registered players (their keys) and guests (no key) played to its end."""
    created = api.create(seats=len(names), reaction_seconds=0, **spec)
    gid = created["id"]
    tokens = {}
    for i, name in enumerate(names):
        taken = sit(api, gid, keys[name]) if name in keys else sit(api, gid, name=name)
        tokens[i] = taken["token"]
    api.start(gid, created["host_token"])
    api.play_humans(gid, tokens, random.Random(seed))
    return gid


def test_records_and_ratings_count_finished_games_of_registered_players_only(sqlite_app):
    api = Api(sqlite_app.test_client())
    keys = {name: register(api, name)["key"] for name in ("Ann", "Bob")}
    gid = _finish(api, ["Ann", "Bob", "Guest"], keys, seed=1)
    final = api.view(gid)["table"]["result"]
    records = {name: api.c.get(f"/api/players/{name}").get_json() for name in keys}
    for seat, name in enumerate(["Ann", "Bob"]):
        r = records[name]
        won = seat in final["winners"]
        assert (r["games"], r["wins"], r["losses"] + r["draws"], r["rated_games"]) == (1, int(won), int(not won), 1)
        assert set(r["statistics"]) >= {"claims_made", "bluffs_made", "claims_exposed", "calls_made", "timeouts"}
    if final["result"] == "win" and (0 in final["winners"]) != (1 in final["winners"]):
        winner, loser = ("Ann", "Bob") if 0 in final["winners"] else ("Bob", "Ann")
        assert records[winner]["rating"]["mu"] > 25 > records[loser]["rating"]["mu"]
    board = api.c.get("/api/players?order=rating").get_json()
    assert [p["name"] for p in board["players"]] == sorted(keys, key=lambda n: -records[n]["rating"]["ordinal"])
    assert api.c.get("/api/players/Guest").status_code == 404  # guests have no record
    # the player's games, as NDJSON
    r = api.c.get("/api/players/Ann/games")
    assert r.mimetype == "application/x-ndjson"
    lines = [json.loads(line) for line in r.get_data(as_text=True).splitlines()]
    assert [g["id"] for g in lines] == [gid] and lines[0]["seat"] == 0 and lines[0]["rated"] is True
    assert lines[0]["rating_after"] == records["Ann"]["rating"]
    assert lines[0]["seats"][2] == {"seat": 2, "name": "Guest", "player": None, "bot": None}


def test_a_game_with_one_registered_player_counts_but_rates_nobody_and_a_rigged_game_neither(sqlite_app):
    api = Api(sqlite_app.test_client())
    keys = {"Solo": register(api, "Solo")["key"]}
    _finish(api, ["Solo", "G1", "G2"], keys, seed=2)
    solo = api.c.get("/api/players/Solo").get_json()
    assert solo["games"] == 1 and solo["rated_games"] == 0 and solo["rating"]["mu"] == pytest.approx(25.0)
    _finish(api, ["Solo", "G1", "G2"], keys, seed=3, setup={"first_player": 0})
    again = api.c.get("/api/players/Solo").get_json()
    assert again["games"] == 1  # a chosen position: someone may have known the draws
    games = [json.loads(line) for line in api.c.get("/api/players/Solo/games").get_data(as_text=True).splitlines()]
    assert [g["counted"] for g in games] == [True, False] and games[1]["rigged"] is True


def test_records_rebuild_to_the_same_values(sqlite_app):
    api = Api(sqlite_app.test_client())
    keys = {name: register(api, name)["key"] for name in ("Ann", "Bob", "Cid")}
    _finish(api, ["Ann", "Bob", "Cid"], keys, seed=4)
    _finish(api, ["Cid", "Ann", "Bob"], keys, seed=5)
    sqlite_app.extensions["aegis.reads"].fresh()
    fresh = MemoryViewStore()
    rebuild(sqlite_app.extensions["aegis"].store, fresh)
    assert fresh.dump() == sqlite_app.extensions["aegis.views"].dump()
    assert api.c.get("/api/players/Ann").get_json()["games"] == 2


def test_statistics_name_what_they_count_and_stats_is_the_flat_record(sqlite_app):
    api = Api(sqlite_app.test_client())
    keys = {name: register(api, name)["key"] for name in ("Ann", "Bob", "Cid")}
    _finish(api, ["Ann", "Bob", "Cid"], keys, seed=6)
    for name in keys:
        record = api.c.get(f"/api/players/{name}").get_json()
        flat = api.c.get(f"/api/players/{name}/stats").get_json()
        assert flat == {"player": name, **{k: record[k] for k in ("games", "wins", "draws", "losses")}, **record["statistics"]}
        s = record["statistics"]
        assert s["bluffs_made"] <= s["claims_made"] and s["calls_correct"] + s["calls_wrong"] <= s["calls_made"]
    total = [api.c.get(f"/api/players/{n}").get_json()["statistics"] for n in keys]
    assert sum(s["claims_exposed"] for s in total) == sum(s["calls_correct"] for s in total)  # both sides of a call
