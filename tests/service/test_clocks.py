"""No game stalls: a clock on every decision (turn_seconds), the server deciding for a seat whose clock ran out
(ruling S3), seats abandoned to a bot after timeouts_to_forfeit timeouts in a row, resigning (S2), and deadlines
kept across restarts and by any API process.

Most tests drive the clock by hand: the service reads a clock the test moves, and the test asks it to act on the
deadlines, as the deadline keeper would (so nothing depends on the machine's speed). The whole-table test and the
restart tests run the real keeper on the real clock."""

from __future__ import annotations

import itertools
import random
import time
from typing import Any
from uuid import UUID

import pytest

from aegis.api import close_app, create_app
from aegis.service.games import GameService
from aegis.service.settings import load
from tests.api.test_players import register, sit
from tests.api_client import Api, command_of
from tests.conftest import make_app, pg_schema
from tests.service.test_projections import redis_env  # noqa: F401  (a fixture)


class Clock:
    def __init__(self, now: float = 1_800_000_000.0):
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def manual(sqlite_env):
    """An app whose clock the test moves, without a deadline keeper: (api, clock, act), ``act(gid)`` acting on
    every deadline that has passed."""
    clock = Clock()
    created = itertools.count(1)  # the same games on every run (see tests/conftest.py make_app)
    service = GameService(load(sqlite_env), clock=clock, entropy=lambda: f"test-secret-{next(created)}")
    app = create_app(service=service, background=False)
    yield Api(app.test_client()), clock, lambda gid: service.enforce_deadlines(UUID(gid))
    close_app(app)


def _people(api: Api, names: list[str], keys: dict[str, str] | None = None, **spec: Any) -> tuple[str, dict[int, str]]:
    created = api.create(seats=len(names), **spec)
    gid = created["id"]
    tokens = {}
    for i, name in enumerate(names):
        if name in ("random", "cautious"):
            api.seat(gid, bot=name)
        else:
            tokens[i] = (sit(api, gid, keys[name]) if keys and name in keys else sit(api, gid, name=name))["token"]
    api.start(gid, created["host_token"])
    return gid, tokens


def _events(api: Api, gid: str, kind: str, token: str | None = None) -> list[dict]:
    return [e for e in api.events(gid, token)["events"] if e["type"] == kind]


def _awaited_seat(api: Api, gid: str) -> int:
    clocks = api.view(gid)["clocks"]
    assert len(clocks) == 1, clocks
    return clocks[0]["seat"]


def test_every_prompt_carries_its_deadline_and_the_clock_restarts_when_the_seat_acts(manual):
    api, clock, _act = manual
    gid, tokens = _people(api, ["Ann", "Bob", "Cid"], turn_seconds=60, reaction_seconds=30)
    started = clock.now
    seat = _awaited_seat(api, gid)
    view = api.view(gid, tokens[seat])
    assert view["clocks"] == [{"seat": seat, "deadline": started + 60}] == api.view(gid)["clocks"]
    assert [p["deadline"] for p in view["prompts"] if not p["free"]] == [started + 60] * len(
        [p for p in view["prompts"] if not p["free"]]
    )
    assert view["config"]["turn_seconds"] == 60 and view["config"]["timeouts_to_forfeit"] == 3
    clock.now += 10
    assert api.post(gid, tokens[seat], {"type": "declare", "action": "treasury"}).status_code == 200
    window = api.view(gid)["table"]["window"]
    assert window["deadline"] == clock.now + 30  # a reaction window keeps its own deadline (reaction_seconds)
    other = window["waiting_for"][0]
    react = [p for p in api.view(gid, tokens[other])["prompts"] if p["kind"] == "react"]
    assert react[0]["deadline"] == clock.now + 30
    assert api.view(gid)["clocks"] == []  # nobody's turn clock runs while the table answers a window


def test_a_seat_that_never_acts_is_decided_for_then_given_to_a_bot(manual):
    api, clock, act = manual
    gid, tokens = _people(api, ["Ann", "cautious", "cautious"], turn_seconds=5, reaction_seconds=5, first_player=0)
    ann = tokens[0]
    counts: list[int] = []
    for _ in range(30):
        if api.view(gid)["status"] == "finished" or api.view(gid)["seats"][0]["autoplayed"]:
            break
        clock.now += 6
        act(gid)
        counts = [e["count"] for e in _events(api, gid, "DecisionTimedOut")]
        if counts == [1]:  # while the game is on, only Ann sees what the server played for her
            assert "played" not in _events(api, gid, "DecisionTimedOut")[0]
            mine = _events(api, gid, "DecisionTimedOut", ann)[0]
            assert mine["played"]["seat"] == 0 and mine["kind"] == "declare"
    assert counts[:3] == [1, 2, 3], counts
    abandoned = _events(api, gid, "SeatAbandoned")
    assert [(e["seat"], e["count"]) for e in abandoned] == [(0, 3)]
    view = api.view(gid)
    assert view["seats"][0]["autoplayed"] is True and view["table"]["players"][0]["abandoned"] is True
    timeline = [e["text"] for e in api.c.get(f"/api/games/{gid}/timeline").get_json()["events"]]
    assert sum("Ann ran out of time" in t for t in timeline) == 3 and any("a bot plays for them" in t for t in timeline)
    if view["status"] == "active":  # the bots, Ann's included, play on without waiting for anyone
        refused = api.post(gid, ann, {"type": "declare", "action": "recruit"})
        assert refused.status_code == 409 and refused.get_json()["type"].endswith("autoplayed")
    while api.view(gid)["status"] != "finished":
        clock.now += 6
        act(gid)
    assert api.c.get(f"/api/games/{gid}/verify").get_json()["ok"]  # timeouts replay like any command


def test_an_abandoned_seat_is_refused_every_command_but_a_resignation(manual):
    """README (Clocks), ruling S3: once a bot plays the seat, its player's commands are refused with 409, and the
    refusal says that resigning is still theirs; a resignation then takes the seat out of the game (S2)."""
    api, clock, act = manual
    gid, tokens = _people(api, ["Ann", "Bob", "Cid"], turn_seconds=5, reaction_seconds=5, first_player=0, timeouts_to_forfeit=1)
    clock.now += 6
    act(gid)  # Ann let her first decision time out: her seat is abandoned at once, and Bob and Cid are asked next
    view = api.view(gid)
    assert view["status"] == "active" and view["seats"][0]["autoplayed"] is True
    refused = api.post(gid, tokens[0], {"type": "declare", "action": "recruit"})
    assert refused.status_code == 409 and refused.get_json()["type"].endswith("autoplayed")
    assert "may still resign" in refused.get_json()["detail"]
    left = api.post(gid, tokens[0], {"type": "resign"})
    assert left.status_code == 200 and "PlayerResigned" in [e["type"] for e in left.get_json()["events"]]
    assert api.post(gid, tokens[0], {"type": "resign"}).status_code == 409  # resigning twice (README: Resign)


def test_acting_ends_a_run_of_timeouts_and_zero_never_abandons(manual):
    api, clock, act = manual
    gid, tokens = _people(api, ["Ann", "random", "random"], turn_seconds=5, reaction_seconds=5, first_player=0)
    ann = tokens[0]

    def ann_is_asked() -> list[dict]:
        return [p for p in api.view(gid, ann)["prompts"] if not p["free"]]

    def run_out_once() -> None:
        before = len(_events(api, gid, "DecisionTimedOut"))
        while len(_events(api, gid, "DecisionTimedOut")) == before and api.view(gid)["status"] == "active":
            clock.now += 6
            act(gid)

    run_out_once()
    run_out_once()
    for _ in range(50):  # Ann is back: she answers her next decision herself
        asked = ann_is_asked()
        if asked or api.view(gid)["status"] != "active":
            break
        clock.now += 6
        act(gid)
    if api.view(gid)["status"] != "active":
        pytest.skip("the game ended before Ann came back")  # pragma: no cover - random bots rarely end it so fast
    assert api.post(gid, ann, command_of(ann_is_asked()[0]["options"][0])).status_code == 200
    run_out_once()
    assert [e["count"] for e in _events(api, gid, "DecisionTimedOut")][:3] == [1, 2, 1]
    assert not _events(api, gid, "SeatAbandoned")

    never, _ = _people(api, ["Bea", "random", "random"], turn_seconds=5, timeouts_to_forfeit=0, first_player=0)
    for _ in range(200):
        if len(_events(api, never, "DecisionTimedOut")) >= 4 or api.view(never)["status"] != "active":
            break
        clock.now += 6
        act(never)
    counts = [e["count"] for e in _events(api, never, "DecisionTimedOut")]
    assert counts[:4] == [1, 2, 3, 4] and not _events(api, never, "SeatAbandoned"), counts


def test_r103_a_timed_out_end_phase_with_a_consumable_goes_on_and_keeps_the_item(manual):
    """S3 on the End Phase's decision (R103): the clock covers both of its prompts; the service's bot decides."""
    api, clock, act = manual
    setup = {
        "deck": ["Barracks", "Mason", "Library", "Temple"],
        "hands": {"0": ["Temple"]},
        "first_player": 0,
        "items": {"1": ["HAMMER"]},
    }
    spec = {"variant": "classic", "selection": "simpleton", "options": {"plain_unknown": 1}, "setup": setup}
    gid, tokens = _people(api, ["Ann", "Bob", "Cid"], turn_seconds=5, reaction_seconds=5, **spec)
    assert api.post(gid, tokens[0], {"type": "declare", "action": "recruit"}).status_code == 200
    assert api.post(gid, tokens[1], {"type": "declare", "action": "recruit"}).status_code == 200
    bob = api.view(gid, tokens[1])
    assert bob["clocks"] == [{"seat": 1, "deadline": clock.now + 5}]
    assert [(p["kind"], p["deadline"]) for p in bob["prompts"] if not p["free"]] == [
        ("end_phase", clock.now + 5),
        ("use_item", clock.now + 5),
    ]
    clock.now += 6
    act(gid)
    timed_out = _events(api, gid, "DecisionTimedOut", tokens[1])
    assert [(e["seat"], e["kind"], e["played"]) for e in timed_out] == [(1, "end_phase", {"type": "end_phase", "seat": 1})]
    table = api.view(gid)["table"]
    assert table["current"] == 2 and table["players"][1]["items"] == ["HAMMER"]
    timeline = [e["text"] for e in api.c.get(f"/api/games/{gid}/timeline").get_json()["events"]]
    assert any("Bob ran out of time to use an item or end their End Phase" in t for t in timeline)


def test_no_clock_without_turn_seconds(manual):
    api, clock, act = manual
    gid, tokens = _people(api, ["Ann", "Bob", "Cid"], turn_seconds=0, reaction_seconds=0)
    clock.now += 10**6
    assert act(gid) is False
    view = api.view(gid, tokens[0])
    assert view["clocks"] == [] and all(p["deadline"] is None for p in view["prompts"])


def test_resigning_leaves_the_game_and_the_last_one_left_wins(manual):
    api, _clock, _act = manual
    keys = {n: register(api, n)["key"] for n in ("Ann", "Bob", "Cid")}
    gid, tokens = _people(api, ["Ann", "Bob", "Cid"], keys=keys, reaction_seconds=0, first_player=0)
    r = api.post(gid, tokens[1], {"type": "resign"})  # not Bob's turn: he may resign all the same
    assert r.status_code == 200 and r.get_json()["events"][0]["type"] == "PlayerResigned"
    view = api.view(gid)
    bob = view["table"]["players"][1]
    assert bob["resigned"] is True and bob["eliminated"] is True and view["status"] == "active"
    again = api.post(gid, tokens[1], {"type": "resign"})
    assert again.status_code == 409 and again.get_json()["rule"] == "S2"
    assert api.post(gid, tokens[1], {"type": "declare", "action": "recruit"}).status_code == 409
    assert api.post(gid, tokens[0], {"type": "resign", "seat": 2}).status_code == 403  # nobody resigns for another
    assert api.post(gid, tokens[2], {"type": "resign"}).status_code == 200
    final = api.view(gid)
    assert final["status"] == "finished" and final["table"]["result"]["winners"] == [0]
    after = api.post(gid, tokens[0], {"type": "resign"})
    assert after.status_code == 409 and after.mimetype == "application/problem+json"
    assert api.c.get(f"/api/games/{gid}/verify").get_json()["ok"]
    ann, bob = (api.c.get(f"/api/players/{n}").get_json() for n in ("Ann", "Bob"))
    assert (ann["wins"], bob["losses"], bob["statistics"]["resigned"], ann["statistics"]["resigned"]) == (1, 1, 1, 0)


def test_the_server_refuses_a_system_command_from_a_seat(manual):
    api, _clock, _act = manual
    gid, tokens = _people(api, ["Ann", "Bob", "Cid"], first_player=0)
    forged = {"type": "timeout", "seat": 0, "kind": "declare", "deadline": 0, "count": 3, "abandon": True, "play": {}}
    r = api.post(gid, tokens[0], forged)
    assert r.status_code == 400 and "server" in r.get_json()["detail"]
    assert not _events(api, gid, "SeatAbandoned")


# ----- the real keeper, on the real clock -----


def test_a_table_where_nobody_acts_keeps_moving_and_bots_take_every_seat(sqlite_app):
    """Three people who never act, one-second clocks: turn after turn the server decides for them, the timeline says
    who ran out of time, after three timeouts each seat is a bot's, and the game ends."""
    api = Api(sqlite_app.test_client())
    gid, _tokens = _people(api, ["Ann", "Bob", "Cid"], turn_seconds=1, reaction_seconds=1)
    deadline = time.monotonic() + 120
    turns = []
    while api.view(gid)["status"] != "finished" and time.monotonic() < deadline:
        turns.append(api.view(gid)["table"]["turn"])
        time.sleep(0.5)
    view = api.view(gid)
    assert view["status"] == "finished", "the game stalled"
    assert len(set(turns)) >= 3  # it kept moving, turn after turn
    assert all(s["autoplayed"] for s in view["seats"])
    timeline = [e["text"] for e in api.c.get(f"/api/games/{gid}/timeline").get_json()["events"]]
    for name in ("Ann", "Bob", "Cid"):
        assert sum(f"{name} ran out of time" in t for t in timeline) >= 3
        assert any(t.startswith(f"{name} let 3 decisions in a row run out of time") for t in timeline)
    assert api.c.get(f"/api/games/{gid}/verify").get_json()["ok"]


def test_a_game_of_bots_plays_on_past_the_bot_move_limit_of_one_request(sqlite_env):
    """A change plays at most AEGIS_BOT_MOVE_LIMIT bot moves; the deadline keeper plays on, so a game whose
    remaining seats are all the server's never stalls."""
    app = make_app(sqlite_env, AEGIS_BOT_MOVE_LIMIT="5")
    try:
        api = Api(app.test_client())
        created = api.create(seats=3, reaction_seconds=0)
        for bot in ("random", "cautious", "random"):
            api.seat(created["id"], bot=bot)
        api.start(created["id"], created["host_token"])
        deadline = time.monotonic() + 60
        while api.view(created["id"])["status"] != "finished" and time.monotonic() < deadline:
            time.sleep(0.05)
        assert api.view(created["id"])["status"] == "finished"
        moves = api.c.get(f"/api/games/{created['id']}/verify").get_json()["commands"]
        assert moves > 5  # more than one request's worth: the keeper played the rest
    finally:
        close_app(app)


def _open_windows(api: Api, games: int, reaction: float) -> list[tuple[str, float]]:
    """Games each waiting on a reaction window: (game, the window's deadline)."""
    out = []
    for _ in range(games):
        gid, tokens = _people(api, ["Ann", "Bob", "Cid"], turn_seconds=0, reaction_seconds=reaction, first_player=0)
        assert api.post(gid, tokens[0], {"type": "declare", "action": "treasury"}).status_code == 200
        window = api.view(gid)["table"]["window"]
        out.append((gid, window["deadline"]))
    return out


def _closed_on_time(api: Api, windows: list[tuple[str, float]], slack: float = 3.0) -> None:
    """Every window closes by its deadline, at or after it and within ``slack`` seconds."""
    pending = dict(windows)
    while pending:
        for gid, due in list(pending.items()):
            before = time.time()  # the window was still open or closed already at this moment...
            closed = _events(api, gid, "ReactionWindowClosed")
            after = time.time()  # ...and closed, if it is, by this one
            if closed:
                assert closed[0]["by"] == "deadline" and after >= due, (gid, after, due)
                del pending[gid]
            else:
                assert before <= due + slack, f"game {gid}: its window is still open {before - due:.1f} s past its deadline"
        time.sleep(0.05)


def test_a_restart_closes_every_open_window_on_time(sqlite_env):
    first = make_app(sqlite_env)
    windows = _open_windows(Api(first.test_client()), games=4, reaction=3)
    close_app(first)  # the process goes away with the windows open
    second = make_app(sqlite_env)  # its views start empty: the keeper must read the store itself
    try:
        _closed_on_time(Api(second.test_client()), windows)
    finally:
        close_app(second)


def test_after_a_restart_windows_close_on_time_even_when_the_views_lag(redis_env):  # noqa: F811
    """PostgreSQL, views in Redis kept by a worker that is not running: the views never catch up, yet the deadline
    keeper of the restarted process, reading the store, closes every window on time."""
    with pg_schema() as pg:
        env = {**pg, **redis_env, "AEGIS_PROJECTOR": "worker"}
        first = make_app(env)
        windows = _open_windows(Api(first.test_client()), games=3, reaction=3)
        close_app(first)
        second = make_app(env)
        try:
            assert second.extensions["aegis.views"].position() < second.extensions["aegis"].store.recorder.max_notification_id()
            _closed_on_time(Api(second.test_client()), windows)
        finally:
            close_app(second)


def test_another_process_keeps_a_deadline_it_did_not_set(redis_env):  # noqa: F811
    """Two API processes on one store, with Redis: the one that opened the window keeps no deadlines at all (its
    keeper is off, as if it had died), and the other one closes the window on time, having heard of it."""
    with pg_schema() as pg:
        env = {**pg, **redis_env}
        keeper = make_app(env)  # its keeper runs and listens to every process's notices
        silent = create_app(load(env), background=False)
        try:
            time.sleep(0.3)  # the keeper's subscription is in place
            windows = _open_windows(Api(silent.test_client()), games=2, reaction=2)
            _closed_on_time(Api(silent.test_client()), windows)
        finally:
            close_app(silent)
            close_app(keeper)


def test_the_deadline_kept_by_the_servers_moves_is_the_one_worked_out_afresh(manual):
    """After each command, the next deadline the service announces (to the keeper and the notices) comes from what its
    own moves found for that version of the game; it must equal the deadline worked out from the game alone."""
    api, clock, _act = manual
    gid, tokens = _people(api, ["Ann", "Bob", "Cid", "Dee"], turn_seconds=60, reaction_seconds=30)
    service = api.c.application.extensions["aegis"]
    rng = random.Random(7)
    kept = 0
    for _ in range(60):
        found = api.open_command(gid, tokens, rng)
        if found is None:
            break
        clock.now += 1
        assert api.post(gid, *found).status_code == 200
        game = service.store.repository.get(UUID(gid))
        announced = service.deadline_in(game)
        known = game.__dict__.pop("_next_deadline", None)
        kept += known is not None and known[0] == game.version
        assert announced == service.deadline_in(game), f"at version {game.version}"
    assert kept > 30, "the servers' moves found most deadlines"


def test_s3_what_the_stand_in_plays_for_a_timed_out_seat_tells_nobody_its_hand(sqlite_env):
    """Twin games that differ only in Ann's one face-down card (the same server secret, so the same stand-in's
    dice): her clock runs out on declaring, the server decides for her, and everything another reader sees of it
    (the spectator's events and timeline) is the same."""
    clock = Clock()
    service = GameService(load(sqlite_env), clock=clock, entropy=lambda: "the-same-secret")
    app = create_app(service=service, background=False)
    api, act = Api(app.test_client()), (lambda gid: service.enforce_deadlines(UUID(gid)))
    seen = []
    for held in ("Barracks", "Treasury", "Library", "Mason"):
        setup = {"hands": {"0": [held], "1": ["Temple"], "2": ["Temple"]}, "first_player": 0}
        gid, _ = _people(api, ["Ann", "cautious", "cautious"], turn_seconds=5, reaction_seconds=5, setup=setup)
        clock.now += 6
        act(gid)
        assert [e["seat"] for e in _events(api, gid, "DecisionTimedOut")] == [0]
        events = api.events(gid)["events"]
        timed_out = next(e["seq"] for e in events if e["type"] == "DecisionTimedOut")
        answer = [{k: v for k, v in e.items() if k != "at"} for e in events if e["seq"] > timed_out]
        timeline = [e["text"] for e in api.c.get(f"/api/games/{gid}/timeline").get_json()["events"] if e["seq"] > timed_out]
        seen.append((answer[:3], timeline[:3]))
    close_app(app)
    assert all(s == seen[0] for s in seen), seen
