"""Whole games over HTTP, humans and bots mixed, on SQLite and on the real PostgreSQL."""

from __future__ import annotations

import random

import pytest

from tests.api_client import Api, command_of


@pytest.mark.parametrize(
    "seats",
    [
        ["human", "random", "cautious"],
        ["human", "human", "random", "cautious", "human"],
        ["human", "cautious", "random", "human", "random", "cautious", "random", "human"],
    ],
    ids=["3-seats", "5-seats", "8-seats"],
)
def test_a_client_that_knows_only_the_contract_plays_a_whole_game(app, seats):
    api = Api(app.test_client())
    gid, host, tokens = api.new_game(seats, seed=f"whole-{len(seats)}", reaction_seconds=0)
    assert api.view(gid, tokens[0])["status"] == "lobby"
    started = api.start(gid, host)
    assert started["status"] == "active"
    moves = api.play_humans(gid, tokens, random.Random(len(seats)))
    assert moves > 0
    final = api.view(gid)
    assert final["status"] == "finished"
    result = final["table"]["result"]
    assert result["result"] in ("win", "draw")
    # the log is complete and gapless, and the same for every reader once the game is over
    log = api.events(gid)
    assert [e["seq"] for e in log["events"]] == list(range(1, final["seq"] + 1))
    assert log["events"][-1]["type"] == "GameEnded"
    assert api.events(gid, tokens[0])["events"] == log["events"]
    # published at the end (A53): the seed the shuffles were drawn from, the server's secret mixed with the creator's
    verified = api.c.get(f"/api/games/{gid}/verify").get_json()
    assert verified["ok"] and log["events"][0]["seed"] == verified["seed"] != f"whole-{len(seats)}"
    assert verified["creator_seed"] == f"whole-{len(seats)}"


def test_the_store_reads_like_the_game(app):
    """Stored events carry the domain event names; a command is stored next to its consequences."""
    api = Api(app.test_client())
    gid, host, tokens = api.new_game(["human", "random", "random"], seed="audit", reaction_seconds=0)
    api.start(gid, host)
    view = api.view(gid, tokens[0])
    api.post(gid, tokens[0], command_of(view["prompts"][0]["options"][0]))
    store = app.extensions["aegis"].store
    topics = [n.topic.split(":")[1] for n in store.recorder.select_notifications(start=1, limit=10_000)]
    assert topics[:6] == [
        "Game.Created",
        "Game.SeatTaken",
        "Game.SeatTaken",
        "Game.SeatTaken",
        "Game.StartRequested",
        "Game.GameStarted",
    ]
    assert "Game.CommandAccepted" in topics and "Game.ActionDeclared" in topics
    assert topics.index("Game.CommandAccepted") < topics.index("Game.ActionDeclared")


def test_a_game_survives_a_restart_of_the_service(sqlite_env):
    """A new process reads the same store (snapshots included) and carries on."""
    from tests.conftest import close_app, make_app

    first = make_app(sqlite_env, AEGIS_SNAPSHOT_INTERVAL="10")
    api = Api(first.test_client())
    gid, host, tokens = api.new_game(["human", "random", "cautious"], seed="restart", reaction_seconds=0)
    api.start(gid, host)
    rng = random.Random(5)
    for _ in range(5):
        view = api.view(gid, tokens[0])
        if view["status"] == "finished" or not view["prompts"]:
            break
        assert api.post(gid, tokens[0], command_of(rng.choice(view["prompts"][0]["options"]), rng)).status_code == 200
    before = api.view(gid, tokens[0])
    log_before = api.events(gid, tokens[0])["events"]
    from uuid import UUID

    store = first.extensions["aegis"].store
    assert store.snapshotter.flush()
    snapshots = list(store.snapshots.get(UUID(gid)))
    assert snapshots and all("log" not in s.state and "game_state" in s.state for s in snapshots)  # no log: the state
    close_app(first)

    second = make_app(sqlite_env)
    api2 = Api(second.test_client())
    after = api2.view(gid, tokens[0])
    assert after == before
    assert api2.events(gid, tokens[0])["events"] == log_before
    if after["status"] == "active":
        api2.play_humans(gid, tokens, rng)
        assert api2.view(gid)["status"] == "finished"
    close_app(second)


def test_the_lobby_lists_games_with_filters_and_pages(sqlite_app):
    api = Api(sqlite_app.test_client())
    ids = [api.create(seats=3, reaction_seconds=0)["id"] for _ in range(5)]
    api.create(seats=4, variant="simpleton+quick")
    gid, host, _ = api.new_game(["human", "random", "random"], reaction_seconds=0)
    api.start(gid, host)
    c = sqlite_app.test_client()
    everything = c.get("/api/games").get_json()
    assert everything["total"] == 7
    lobby = c.get("/api/games?status=lobby&limit=2").get_json()
    assert lobby["total"] == 6 and len(lobby["games"]) == 2
    page2 = c.get("/api/games?status=lobby&limit=2&offset=2").get_json()
    assert {g["id"] for g in lobby["games"]}.isdisjoint(g["id"] for g in page2["games"])
    assert c.get("/api/games?variant=simpleton%2Bquick").get_json()["total"] == 1
    active = c.get("/api/games?status=active").get_json()["games"]
    assert [g["id"] for g in active] == [gid] and active[0]["seats_free"] == 0
    assert c.get("/api/games?open_seats=true").get_json()["total"] == 6
    assert set(ids) <= {g["id"] for g in everything["games"]}
    assert c.get("/api/games?status=paused").status_code == 400


def test_a_rigged_game_says_so_everywhere_and_its_setup_publishes_the_commitment_its_creation_gave(sqlite_app):
    """A setup's unplaced cards come from a seed mixed with the server's secret: the commitment the creation answered
    with is the game's, in the view and in its first event's words (with exact_seed there is none: the creator
    chose every draw)."""
    api = Api(sqlite_app.test_client())
    setup = {"deck": ["Treasury", "Mason"], "hands": {"0": ["Barracks"]}, "first_player": 0}
    created = api.c.post("/api/games", json={"seats": 3, "setup": setup, "reaction_seconds": 0}).get_json()
    gid, host = created["id"], created["host_token"]
    tokens = [api.seat(gid, name="Ann")["token"]] + [api.seat(gid, bot="random")["token"] for _ in range(2)]
    assert api.view(gid)["rigged"] is True
    api.start(gid, host)
    view = api.view(gid, tokens[0])
    assert view["rigged"] is True and view["table"]["commitment"] == created["commitment"] != ""
    first = sqlite_app.test_client().get(f"/api/games/{gid}/timeline").get_json()["events"][0]["text"]
    assert first.startswith("A rigged game begins: its creator chose the position;") and "commitment is published" in first
    names = sorted(c["name"] for c in view["table"]["players"][0]["cards"])
    assert names == ["Barracks", "Treasury"]
    listed = sqlite_app.test_client().get("/api/games").get_json()["games"][0]
    assert listed["rigged"] is True


def test_a_bad_rig_is_refused_at_creation(sqlite_app):
    api = Api(sqlite_app.test_client())
    problem = api.create(expect=400, seats=3, setup={"deck": ["Temple"] * 6})
    assert "Temple" in problem["detail"] and problem["rule"] == "R2"


def test_mob_seats_are_filled_by_the_server_and_never_prompted(sqlite_app):
    """R173, R167: a Solo game over HTTP: the person takes seat 0, the mobs' seats are filled at creation;
    the mobs' turns run inside the person's commands, every roll a public DieRolled event."""
    api = Api(sqlite_app.test_client())
    created = api.create(seats=4, variant="simpleton+solo", seed="solo-http", reaction_seconds=0)
    gid = created["id"]
    assert api.view(gid)["seats"] == [] and api.view(gid)["config"]["mobs"] == [1, 2, 3]
    token = api.seat(gid, name="Sally")["token"]
    assert [s["mob"] for s in api.view(gid)["seats"]] == [False, True, True, True]  # filled once seat 0 is taken
    assert api.seat(gid, expect=409, name="Fred")  # every other seat is a mob's
    api.start(gid, created["host_token"])
    view = api.view(gid, token)
    assert view["table"]["mobs"] == [1, 2, 3]
    api.play_humans(gid, {0: token}, random.Random(3))
    log = api.events(gid)["events"]
    assert any(e["type"] == "DieRolled" for e in log)
    assert api.view(gid)["status"] == "finished"
    problem = api.create(expect=400, seats=3, mobs=[0, 1, 2])
    assert problem["rule"] == "R173"
    first_mob = api.create(seats=3, mobs=[0, 2])["id"]  # a mob in seat 0 is seated at creation
    assert [s["name"] for s in api.view(first_mob)["seats"]] == ["Mob 0"]


def test_r53_r69_the_treaty_holder_is_asked_to_guard_a_library_that_would_take_it(sqlite_app):
    """R53, R106, R69 over HTTP: Fred holds the TREATY (Jeff gave it) and the WALL; Sally's Library would give it
    to Peter. Fred's react prompt names him among the affected and offers the WALL; guarded, the TREATY stays."""
    api = Api(sqlite_app.test_client())
    setup = {"deck": ["Temple"], "hands": {"0": ["Library"]}, "wall": 1, "treaty": {"holder": 1, "giver": 2}, "first_player": 0}
    gid, tokens = api.people(["Sally", "Fred", "Jeff", "Peter"], setup=setup, reaction_seconds=0)
    r = api.post(gid, tokens["Sally"], {"type": "declare", "action": "library", "treaty": 3})
    assert r.status_code == 200, r.get_json()
    (prompt,) = [p for p in api.view(gid, tokens["Fred"])["prompts"] if p["kind"] == "react"]
    assert prompt["about"]["affects"] == [1, 3] and "taken from you" in prompt["about"]["does"]
    wall = next(o["command"] for o in prompt["options"] if o["command"].get("means") == "wall")
    assert api.post(gid, tokens["Fred"], wall).status_code == 200
    for name in ("Jeff", "Peter"):
        react = next(p for p in api.view(gid, tokens[name])["prompts"] if p["kind"] == "react")
        passing = next(o["command"] for o in react["options"] if o["command"]["answer"] == "pass")
        assert api.post(gid, tokens[name], passing).status_code == 200
    players = api.view(gid, tokens["Sally"])["table"]["players"]
    assert players[1]["items"] == ["WALL", "TREATY"] and players[2]["items"] == ["INK QUILL"] and players[3]["items"] == []
