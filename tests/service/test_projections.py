"""Projections: views derived only from events, in the process or in Redis, with their tracking position.

Redis and PostgreSQL are the real servers of this machine. The Redis tests use database 15 under a
prefix of their own; the outage test runs a Redis server of its own on a free port, so it can stop it.
"""

from __future__ import annotations

import json
import os
import random
import secrets
import shutil
import signal
import subprocess
import threading
import time
from uuid import UUID

import pytest

from aegis.api import create_app, jsonio, schemas
from aegis.domain.kernel.redaction import SPECTATOR
from aegis.projections.store import MemoryViewStore, RedisViewStore
from aegis.projections.views import LOBBY
from aegis.projections.worker import rebuild
from aegis.service.games import GameService
from aegis.service.settings import load
from aegis.service.views import summary_of, view_of
from tests.api_client import Api, command_of
from tests.conftest import close_app, make_app, need_server
from tests.system.test_serve import aegis, clean_env, free_port

REDIS = "redis://127.0.0.1:6379/15"


def _views_equal_the_events(app, gid: str, tokens: dict[int, str]) -> None:
    """Every reader's view of a game, read twice (the second time the service has it cached), is byte for byte the
    view computed from the game folded afresh from the stored events; the lobby row is the projection's."""
    svc, store = app.extensions["aegis"], app.extensions["aegis.views"]
    assert app.extensions["aegis.reads"].fresh()
    assert store.position() == svc.store.recorder.max_notification_id()
    version = svc.store.repository.get(UUID(gid)).version
    cold = svc.store.repository.get(UUID(gid), version=version)  # with a version: folded from the store, no cache
    c = app.test_client()
    with app.app_context():
        for who, token in ((SPECTATOR, None), *tokens.items()):
            expected = jsonio.dumps(schemas.built(schemas.ViewOut).dump(view_of(cold, who)))  # as the app writes JSON
            first = c.get(f"/api/games/{gid}/view", headers=Api.auth(token)).data
            again = c.get(f"/api/games/{gid}/view", headers=Api.auth(token)).data
            assert first == again == expected
    assert store.hget(LOBBY, gid) == summary_of(cold)


def test_embedded_views_follow_a_whole_game_and_are_served(sqlite_app):
    api = Api(sqlite_app.test_client())
    gid, host, tokens = api.new_game(["human", "human", "cautious"], seed="projected", reaction_seconds=0)
    api.start(gid, host)
    api.play_humans(gid, tokens, random.Random(2), check=lambda g: _views_equal_the_events(sqlite_app, g, tokens))
    _views_equal_the_events(sqlite_app, gid, tokens)
    row = next(g for g in sqlite_app.test_client().get("/api/games").get_json()["games"] if g["id"] == gid)
    assert row["status"] == "finished"


def test_a_view_is_the_same_bytes_from_a_warm_or_a_cold_process_and_never_older_than_a_peers_command(sqlite_env):
    """Two API processes on one store: A plays and reads (its cache warm), B reads each view once before and once
    after A's command. Whatever either process had cached, both answer the same bytes, at the latest seq."""
    a, b = make_app(sqlite_env), make_app(sqlite_env)
    try:
        api = Api(a.test_client())
        gid, host, tokens = api.new_game(["human", "human", "random"], seed="two-processes", reaction_seconds=0)
        api.start(gid, host)
        rng = random.Random(3)
        readers = (None, *tokens.values())
        for _ in range(5):
            before = {t: b.test_client().get(f"/api/games/{gid}/view", headers=Api.auth(t)).data for t in readers}
            _one_move(api, gid, tokens, rng)
            seq = a.extensions["aegis"].view(UUID(gid), None)["seq"]
            for t in readers:
                warm = a.test_client().get(f"/api/games/{gid}/view", headers=Api.auth(t)).data
                peer = b.test_client().get(f"/api/games/{gid}/view", headers=Api.auth(t)).data
                assert warm == peer and json.loads(peer)["seq"] == seq and peer != before[t]
    finally:
        close_app(a)
        close_app(b)


def test_a_host_token_or_a_wrong_token_is_still_refused_on_projected_reads(sqlite_app):
    api = Api(sqlite_app.test_client())
    gid, host, _ = api.new_game(["human", "random", "random"], reaction_seconds=0)
    api.start(gid, host)
    c = sqlite_app.test_client()
    assert c.get(f"/api/games/{gid}/view", headers=api.auth("seat_wrong")).status_code == 401
    assert c.get(f"/api/games/{gid}/view", headers=api.auth(host)).status_code == 403


def test_a_rebuild_gives_the_same_views_and_replayed_events_are_not_applied_twice(sqlite_app):
    api = Api(sqlite_app.test_client())
    gid, host, tokens = api.new_game(["human", "random", "cautious"], seed="rebuild", reaction_seconds=0)
    api.start(gid, host)
    api.play_humans(gid, tokens, random.Random(4))
    live = sqlite_app.extensions["aegis.views"]
    sqlite_app.extensions["aegis.reads"].fresh()
    fresh = MemoryViewStore()
    result = rebuild(sqlite_app.extensions["aegis"].store, fresh)
    end = sqlite_app.extensions["aegis"].store.recorder.max_notification_id()
    assert result["position"] == end == fresh.position()
    assert 0 < result["projected"] < end / 10, "only a game's lifecycle is read: its ruleset's events change no projection"
    assert fresh.dump() == live.dump()
    # a batch at an old position changes nothing
    before = fresh.dump()
    from aegis.projections.store import Batch

    again = Batch()
    again.hset("aegis:lobby", gid, {"status": "tampered"})
    assert fresh.commit(again, 3) is False
    assert fresh.commit(again, fresh.position() + 1, after=fresh.position() - 1) is False  # computed from another state
    assert fresh.dump() == before


# ----- Redis and PostgreSQL, a separate worker process -----


@pytest.fixture
def redis_env():
    try:
        import redis

        redis.Redis.from_url(REDIS, socket_connect_timeout=2).ping()
    except Exception as err:
        need_server("Redis at 127.0.0.1:6379", err)
    prefix = f"aegis-test-{secrets.token_hex(3)}:"
    yield {"REDIS_URL": REDIS, "AEGIS_REDIS_PREFIX": prefix}
    RedisViewStore(REDIS, prefix).clear()


def _worker(env: dict[str, str], tmp_path, name: str = "worker") -> subprocess.Popen:
    log = (tmp_path / f"{name}.log").open("a")
    return subprocess.Popen(aegis("project", "--report", "0.5"), env={**clean_env(), **env}, cwd=tmp_path, stdout=log, stderr=log)


def _wait_position(store, position: int, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if store.position() >= position:
            return
        time.sleep(0.02)
    raise AssertionError(f"the views did not reach position {position} (at {store.position()})")


def test_a_killed_worker_resumes_and_its_views_equal_a_fresh_rebuild(postgres_env, redis_env, tmp_path):
    env = {**postgres_env, **redis_env, "AEGIS_PROJECTOR": "worker"}
    app = make_app(env)
    worker = _worker(env, tmp_path)
    try:
        api = Api(app.test_client())
        gid, host, tokens = api.new_game(["human", "human", "random", "cautious"], seed="kill-9", reaction_seconds=0)
        api.start(gid, host)
        rng = random.Random(9)
        store = app.extensions["aegis.views"]
        recorder = app.extensions["aegis"].store.recorder
        for _ in range(6):  # some moves with the worker running
            _one_move(api, gid, tokens, rng)
        _wait_position(store, recorder.max_notification_id())
        worker.send_signal(signal.SIGKILL)
        worker.wait(timeout=10)
        for _ in range(6):  # more moves while it is dead: commands still work
            _one_move(api, gid, tokens, rng)
        assert store.position() < recorder.max_notification_id()
        worker = _worker(env, tmp_path, "worker-2")
        _wait_position(store, recorder.max_notification_id())
        fresh = RedisViewStore(REDIS, f"aegis-fresh-{secrets.token_hex(3)}:")
        try:
            rebuild(app.extensions["aegis"].store, fresh)
            assert fresh.dump() == store.dump()
        finally:
            fresh.clear()
        _views_equal_the_events(app, gid, tokens)
    finally:
        worker.terminate()
        worker.wait(timeout=10)
        close_app(app)


def _one_move(api: Api, gid: str, tokens: dict[int, str], rng: random.Random) -> None:
    for token in tokens.values():
        view = api.view(gid, token)
        prompts = [p for p in view["prompts"] if not p["free"]]
        if view["status"] == "active" and prompts:
            assert api.post(gid, token, command_of(rng.choice(prompts[0]["options"]), rng)).status_code == 200
            return


def test_flushing_redis_then_rebuild_restores_identical_views(postgres_env, redis_env, tmp_path):
    env = {**postgres_env, **redis_env}
    app = make_app(env)  # projections in-process, into Redis
    try:
        api = Api(app.test_client())
        gid, host, tokens = api.new_game(["human", "random", "cautious"], seed="flush", reaction_seconds=0)
        api.start(gid, host)
        api.play_humans(gid, tokens, random.Random(1))
        app.extensions["aegis.reads"].fresh()
        store = app.extensions["aegis.views"]
        before = store.dump()
        assert before
        app.extensions["aegis.worker"].stop()  # nothing may write while we look
        store.redis.flushdb()
        assert store.dump() == {} and store.position() == 0
        out = subprocess.run(
            aegis("rebuild-projections", "--quiet"), env={**clean_env(), **env}, capture_output=True, text=True, timeout=120
        )
        assert out.returncode == 0, out.stderr
        assert "events_per_s=" in out.stdout
        assert store.dump() == before
    finally:
        close_app(app)


def test_redis_down_commands_still_work_reads_fall_back_and_views_catch_up(sqlite_env, tmp_path):
    server = shutil.which("redis-server")
    if server is None:
        need_server("redis-server (the program)", FileNotFoundError("redis-server"))
    port = free_port()
    cmd = [server, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", str(tmp_path)]

    def start_redis() -> subprocess.Popen:
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        import redis

        for _ in range(200):
            try:
                redis.Redis(port=port).ping()
                return proc
            except Exception:
                time.sleep(0.02)
        proc.kill()
        raise AssertionError("the test's Redis did not start")

    redis_proc = start_redis()
    app = make_app({**sqlite_env, "REDIS_URL": f"redis://127.0.0.1:{port}/0", "AEGIS_VIEW_WAIT": "0.2"})
    try:
        api = Api(app.test_client())
        gid, host, tokens = api.new_game(["human", "human", "random"], seed="outage", reaction_seconds=0)
        api.start(gid, host)
        rng = random.Random(5)
        _one_move(api, gid, tokens, rng)
        c = app.test_client()
        assert gid in {g["id"] for g in c.get("/api/games").get_json()["games"]}

        redis_proc.send_signal(signal.SIGKILL)
        redis_proc.wait(timeout=10)
        for _ in range(3):
            _one_move(api, gid, tokens, rng)  # commands succeed: the events are the truth
        r = c.get(f"/api/games/{gid}/view", headers=api.auth(tokens[0]))
        assert r.status_code == 200 and r.get_json()["seq"] == app.extensions["aegis"].view(UUID(gid), None)["seq"]
        listing = c.get("/api/games")
        assert listing.status_code == 503 and "Redis" in listing.get_json()["detail"]
        assert listing.headers["Retry-After"] == "1"  # Redis comes back by itself: try again
        ready = c.get("/readyz")  # still serving games: not taken out of a load balancer for a shared Redis
        assert ready.status_code == 200 and ready.get_json()["status"] == "degraded" and ready.get_json()["redis"]

        redis_proc = start_redis()  # back, empty: the worker projects everything again
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            listing = c.get("/api/games")
            if listing.status_code == 200:
                break
            time.sleep(0.1)
        assert gid in {g["id"] for g in listing.get_json()["games"]}
        _views_equal_the_events(app, gid, tokens)
        assert c.get("/api/games").status_code == 200 and c.get("/readyz").status_code == 200
    finally:
        close_app(app)
        redis_proc.kill()
        redis_proc.wait(timeout=10)
    assert not os.path.exists(tmp_path / "dump.rdb")


def test_processes_sharing_redis_project_one_at_a_time_and_another_takes_over_when_one_stops(
    sqlite_env, redis_env, monkeypatch
):
    """Several API processes with in-process projectors and one Redis: one holds the store's lease and projects; the
    others leave it the work (two projectors racing did all of it twice and re-read their games on every lost race).
    Their reads still answer from complete views; when the projecting process stops, another takes over."""
    import aegis.projections.worker as worker_module

    monkeypatch.setattr(worker_module, "LEASE_SECONDS", 0.5)
    env = {**sqlite_env, **redis_env}
    first, second = make_app(env), make_app(env)
    try:
        apis = [Api(first.test_client()), Api(second.test_client())]
        for i in range(4):
            gid, host, _ = apis[i % 2].new_game(["random", "random", "cautious"], seed=f"lease-{i}", reaction_seconds=0)
            apis[i % 2].start(gid, host)
        for api in apis:  # each process's reads see every game, whoever projected it
            assert first.extensions["aegis.reads"].fresh() and second.extensions["aegis.reads"].fresh()
            assert api.c.get("/api/games?limit=100").get_json()["total"] == 4
        workers = [first.extensions["aegis.worker"], second.extensions["aegis.worker"]]
        assert sorted(w.applied > 0 for w in workers) == [False, True], "exactly one process projected"
        leader = next(i for i, w in enumerate(workers) if w.applied > 0)
        close_app([first, second][leader])  # the projecting process stops; the other takes the lease once it runs out
        other = [first, second][1 - leader]
        api = apis[1 - leader]
        gid, host, _ = api.new_game(["random", "random", "random"], seed="lease-after", reaction_seconds=0)
        api.start(gid, host)
        deadline = time.monotonic() + 10
        while not other.extensions["aegis.reads"].fresh() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert other.extensions["aegis.reads"].fresh() and workers[1 - leader].applied > 0
        assert api.c.get("/api/games?limit=100").get_json()["total"] == 5
    finally:
        for app in (first, second):
            close_app(app)


def test_while_the_projector_is_held_no_step_runs_and_it_catches_up_after(sqlite_app):
    """``Worker.held`` (what the store benchmark holds while it times a bare save beside the service): a projection
    step asked for meanwhile waits, then projects what was saved."""
    worker = sqlite_app.extensions["aegis.worker"]
    api = Api(sqlite_app.test_client())
    worker.catch_up_locked()
    before = worker.applied
    done = threading.Event()
    with worker.held():
        api.new_game(["human", "human", "cautious"], seed="held", reaction_seconds=0)
        stepper = threading.Thread(target=lambda: (worker.catch_up_locked(), done.set()))
        stepper.start()
        assert not done.wait(0.3), "a step ran while the projector was held"
        assert worker.applied == before
    assert done.wait(10)
    stepper.join()
    assert worker.applied > before, "the step ran once released, and projected the new game"


def test_readyz_says_when_the_projection_worker_stands_still_behind_the_store(sqlite_env, redis_env, tmp_path):
    """AEGIS_PROJECTOR=worker with no worker running: games play, but the lobby goes stale. /readyz (on the service's
    clock) stays ready while the worker may just be behind, says 'degraded' and why once its position has stood still
    behind the store for a minute, and is ready again once a worker has caught up."""
    clock = [1_800_000_000.0]
    service = GameService(load({**sqlite_env, **redis_env, "AEGIS_PROJECTOR": "worker"}), clock=lambda: clock[0])
    app = create_app(service=service, background=False)
    try:
        api = Api(app.test_client())
        gid, host, _ = api.new_game(["random", "random", "random"], seed="stalled")
        api.start(gid, host)
        c = app.test_client()
        assert c.get("/readyz").get_json()["status"] == "ready"  # behind, but not for long yet
        clock[0] += 61
        stalled = c.get("/readyz")
        assert stalled.status_code == 200 and stalled.get_json()["status"] == "degraded"
        assert "is 'aegis project' running?" in stalled.get_json()["projections"]
        worker = _worker({**sqlite_env, **redis_env, "AEGIS_PROJECTOR": "worker"}, tmp_path)
        try:
            _wait_position(app.extensions["aegis.views"], service.store.recorder.max_notification_id())
        finally:
            worker.terminate()
            worker.wait(timeout=10)
        assert c.get("/readyz").get_json()["status"] == "ready"
    finally:
        close_app(app)
