"""A process that saved a game last changes it next without reading the store first (issue 18: no fast-forward read
when the process knows it holds the latest version); once another process saves the game, the next change reads
it afresh, so no process ever acts on a stale game. With Redis, whose notices come from every process, a notice
makes it forget; without Redis (the embedded default), the first change worked out on a stale cached game marks
the game as shared with another process, and this process reads it afresh from then on."""

from __future__ import annotations

import os
import random
import time
from typing import Any

import pytest

from tests.api.test_stream import redis_url  # noqa: F401 (a fixture, asked for by ``env`` with Redis)
from tests.api_client import Api
from tests.conftest import close_app, make_app


@pytest.fixture(params=["redis", "no-redis"])
def env(request, sqlite_env) -> dict[str, str]:
    """One SQLite file shared by the processes of a test, with Redis notices or without."""
    if request.param == "no-redis":
        return sqlite_env
    url = request.getfixturevalue("redis_url")
    return {**sqlite_env, "REDIS_URL": url, "AEGIS_REDIS_PREFIX": f"aegis-test-{os.getpid()}-{time.monotonic_ns()}:"}


def _move(api: Api, gid: str, tokens: dict[int, str], rng: random.Random) -> dict[str, Any] | None:
    found = api.open_command(gid, tokens, rng)
    if found is None:
        return None
    r = api.post(gid, found[0], found[1])
    assert r.status_code == 200, r.get_json()
    return r.get_json()


def test_the_process_that_saved_last_reads_nothing_before_its_next_change(env):
    app = make_app(env)
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


def test_two_processes_take_turns_on_one_game_and_neither_acts_on_a_stale_game(env):
    first, second = make_app(env), make_app(env)
    try:
        apis = [Api(first.test_client()), Api(second.test_client())]
        gid, host, tokens = apis[0].new_game(["human", "human", "random"], seed="two-processes", reaction_seconds=0)
        apis[0].start(gid, host)
        rng = random.Random(5)
        seqs = []
        for i in range(60):  # each process in turn, the command chosen from the other's view: its cached game is stale
            found = apis[(i + 1) % 2].open_command(gid, tokens, rng)
            if found is None:
                break
            r = apis[i % 2].post(gid, found[0], found[1])
            assert r.status_code == 200, r.get_json()
            seqs.append(r.get_json()["seq"])
        assert seqs == sorted(seqs) and len(seqs) > 10
        logs = [api.events(gid)["events"] for api in apis]
        assert logs[0] == logs[1] and [e["seq"] for e in logs[0]] == list(range(1, len(logs[0]) + 1))
    finally:
        close_app(first)
        close_app(second)


def test_without_redis_a_game_another_process_saves_costs_each_process_one_stale_attempt_at_most(sqlite_env):
    """Without notices a process learns that a game is shared from its first stale change, and reads it afresh from
    then on: at most one save per process loses the race on the version, however long the game."""
    from eventsourcing.persistence import IntegrityError

    apps = [make_app(sqlite_env), make_app(sqlite_env)]
    lost = [0, 0]
    for i, app in enumerate(apps):
        store = app.extensions["aegis"].store
        real_save = store.save

        def counted(*objs: Any, _real: Any = real_save, _i: int = i, **kwargs: Any) -> Any:
            try:
                return _real(*objs, **kwargs)
            except IntegrityError:
                lost[_i] += 1
                raise

        store.save = counted
    try:
        apis = [Api(app.test_client()) for app in apps]
        gid, host, tokens = apis[0].new_game(["human", "human", "random"], seed="shared-unheard", reaction_seconds=0)
        apis[0].start(gid, host)
        rng = random.Random(7)
        moves = 0
        for i in range(60):  # each command is worked out where its player looked last: not where it is sent
            found = apis[(i + 1) % 2].open_command(gid, tokens, rng)
            if found is None:
                break
            r = apis[i % 2].post(gid, found[0], found[1])
            assert r.status_code == 200, r.get_json()
            moves += 1
        assert moves > 10
        assert lost[0] <= 1 and lost[1] <= 1, f"saves lost to a stale cached game: {lost}"
    finally:
        for app in apps:
            close_app(app)


def test_an_answer_worked_out_on_a_stale_cached_game_is_worked_out_again_on_the_game_read_afresh(env):
    """The notice of another process's save may not have arrived yet. A change that would be refused on the cached
    game (start: "a seat is free"), or that has nothing to save, is decided again on the game read from the store; a
    change that saves proves the game was the latest, or loses the race on the version and is tried afresh."""
    from uuid import UUID

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
