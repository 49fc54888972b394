"""A process that saved a game last changes it next without reading the store first (issue 18: no fast-forward read
when the process knows it holds the latest version); once another process saves the game, the next change reads
it afresh, so no process ever acts on a stale game. With Redis, whose notices come from every process."""

from __future__ import annotations

import os
import random
import time
from typing import Any

from tests.api.test_stream import redis_url  # noqa: F401 (a fixture)
from tests.api_client import Api
from tests.conftest import close_app, make_app


def _env(sqlite_env: dict[str, str], url: str) -> dict[str, str]:
    return {**sqlite_env, "REDIS_URL": url, "AEGIS_REDIS_PREFIX": f"aegis-test-{os.getpid()}-{time.monotonic_ns()}:"}


def _move(api: Api, gid: str, tokens: dict[int, str], rng: random.Random) -> dict[str, Any] | None:
    found = api.open_command(gid, tokens, rng)
    if found is None:
        return None
    r = api.post(gid, found[0], found[1])
    assert r.status_code == 200, r.get_json()
    return r.get_json()


def test_the_process_that_saved_last_reads_nothing_before_its_next_change(sqlite_env, redis_url):  # noqa: F811
    app = make_app(_env(sqlite_env, redis_url))
    try:
        api = Api(app.test_client())
        gid, host, tokens = api.new_game(["human", "human", "random"], seed="trusted", reaction_seconds=0)
        api.start(gid, host)
        store = app.extensions["aegis"].store
        reads: list[Any] = []
        real_get = store.events.get
        store.events.get = lambda *a, **k: reads.append(a) or real_get(*a, **k)
        rng = random.Random(3)
        moves = 0
        while (found := api.open_command(gid, tokens, rng)) is not None and moves < 12:
            before = len(reads)
            r = api.post(gid, found[0], found[1])
            assert r.status_code == 200, r.get_json()
            assert len(reads) == before, "the command read the store, though this process saved the game last"
            moves += 1
        assert moves >= 5
    finally:
        close_app(app)


def test_two_processes_take_turns_on_one_game_and_neither_acts_on_a_stale_game(sqlite_env, redis_url):  # noqa: F811
    env = _env(sqlite_env, redis_url)
    first, second = make_app(env), make_app(env)
    try:
        apis = [Api(first.test_client()), Api(second.test_client())]
        gid, host, tokens = apis[0].new_game(["human", "human", "random"], seed="two-processes", reaction_seconds=0)
        apis[0].start(gid, host)
        rng = random.Random(5)
        seqs = []
        for i in range(60):
            answer = _move(apis[i % 2], gid, tokens, rng)  # each process in turn: its cached game is always stale
            if answer is None:
                break
            seqs.append(answer["seq"])
        assert seqs == sorted(seqs) and len(seqs) > 10
        logs = [api.events(gid)["events"] for api in apis]
        assert logs[0] == logs[1] and [e["seq"] for e in logs[0]] == list(range(1, len(logs[0]) + 1))
    finally:
        close_app(first)
        close_app(second)


def test_an_answer_worked_out_on_a_stale_cached_game_is_worked_out_again_on_the_game_read_afresh(sqlite_env, redis_url):  # noqa: F811
    """The notice of another process's save may not have arrived yet. A change that would be refused on the cached
    game (start: "a seat is free"), or that has nothing to save, is decided again on the game read from the store; a
    change that saves proves the game was the latest, or loses the race on the version and is tried afresh."""
    from uuid import UUID

    env = _env(sqlite_env, redis_url)
    first, second = make_app(env), make_app(env)
    try:
        api_a, api_b = Api(first.test_client()), Api(second.test_client())
        created = api_a.create(seats=3, reaction_seconds=0)
        gid, game_id = created["id"], UUID(created["id"])
        api_a.seat(gid, name="Ann")
        api_a.seat(gid, bot="random")
        latest = first.extensions["aegis"]._latest
        saved_here = latest.get(game_id)
        assert saved_here is not None, "the process that saved last knows it"
        api_b.seat(gid, bot="cautious")  # another process takes the last seat
        latest[game_id] = saved_here  # as if its notice had not arrived yet
        api_a.start(gid, created["host_token"])  # not "a seat is free": decided on the game read afresh
        assert api_b.view(gid)["status"] == "active"
    finally:
        close_app(first)
        close_app(second)
