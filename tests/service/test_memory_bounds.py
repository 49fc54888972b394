"""Memory per game is bounded (issue 18, "Abuse"): nothing in the process keeps an entry for every game ever created.

What only a live game needs (its lock, its deadline) is dropped when the game is over; what can be read again from
the store (games folded by the projector, the views the service computed, the last seq saved) is kept for at most
``AEGIS_CACHE_GAMES`` or ``AEGIS_CACHE_VIEWS`` games, and a game forgotten by them reads exactly as before (from the
events). Only the lobby row (one small row per game) stays. Here the bounds are tiny and the games many; memory is
measured with tracemalloc as a ratio against an app whose caches take every game in, never as an absolute figure.
"""

from __future__ import annotations

import gc
import threading
import time
import tracemalloc
from typing import Any
from uuid import UUID

import pytest

from aegis.domain.kernel.errors import MalformedCommand
from aegis.projections.store import MemoryViewStore
from aegis.projections.views import LOBBY
from aegis.projections.worker import rebuild
from aegis.service.bounded import LRU
from aegis.service.broker import Notice
from aegis.service.deadlines import COMPACT_SLACK, DeadlineKeeper
from aegis.service.settings import load
from benchmarks.harness import UNTHROTTLED
from tests.api_client import Api
from tests.conftest import close_app, make_app

BOUND = 4


@pytest.fixture
def small(sqlite_env):
    """An app keeping at most ``BOUND`` games folded and ``BOUND`` games' views; no background threads (the reads
    project what is stored; the keeper hears this process's saves). Its games come from one address, hundreds a
    minute: the rate limit is set above that explicitly."""
    from aegis.api import create_app

    env = {**sqlite_env, **UNTHROTTLED, "AEGIS_CACHE_GAMES": str(BOUND), "AEGIS_CACHE_VIEWS": str(BOUND)}
    env["AEGIS_REACTION_SECONDS"] = "0"
    app = create_app(load(env), background=False)
    yield app
    close_app(app)


def _parts(app: Any) -> tuple[Any, Any, Any, Any]:
    """The service, the view store, the in-process projection worker, the deadline keeper."""
    ext = app.extensions
    return ext["aegis"], ext["aegis.views"], ext["aegis.worker"], ext["aegis.deadlines"]


def _finished_by_resignations(api: Api) -> tuple[str, dict[int, str]]:
    """A 3-seat game of people: seats 0 and 1 resign, seat 2 wins."""
    gid, host, tokens = api.new_game(["human", "human", "human"], reaction_seconds=0, turn_seconds=0)
    api.start(gid, host)
    for seat in (0, 1):
        r = api.post(gid, tokens[seat], {"type": "resign"})
        assert r.status_code == 200, r.get_json()
    assert api.view(gid)["status"] == "finished"
    return gid, tokens


def _assert_bounded(app: Any, open_games: set[str]) -> None:
    svc, _, worker, keeper = _parts(app)
    worker.catch_up_locked()
    assert svc._locks == {}  # no request is in flight: no lock is kept
    assert len(svc._known_seq) <= BOUND
    folded = {str(g) for g in worker.projector.games}
    assert len(folded) <= BOUND and folded <= open_games  # never a game that is over
    assert len(svc.views) <= BOUND
    assert set(keeper._due) <= open_games and set(keeper._seq) <= set(keeper._due)
    assert len(keeper._heap) <= 2 * len(keeper._due) + COMPACT_SLACK
    assert len(keeper._recent) <= keeper._recent.maxsize
    assert svc.store.repository.cache is not None and len(svc.store.repository.cache.cache) <= BOUND


def test_many_games_keep_at_most_the_bound_and_forgotten_games_read_from_the_store(small):
    api = Api(small.test_client())
    svc, views, _, _ = _parts(small)
    finished = [_finished_by_resignations(api) for _ in range(3)]
    cancelled = []
    for _ in range(3):
        made = api.create(seats=3)
        assert api.c.post(f"/api/games/{made['id']}/cancel", headers=api.auth(made["host_token"])).status_code == 200
        cancelled.append(made["id"])
    lobby = [api.new_game(["human", "random", "random"], reaction_seconds=0)[0] for _ in range(6)]
    for _ in range(5 * BOUND):  # games created and read, pushing the early ones out of every cache
        gid = api.create(seats=3)["id"]
        api.view(gid)
        lobby.append(gid)
    _assert_bounded(small, set(lobby))
    assert not ({UUID(gid) for gid, _ in finished} & set(svc.views._games))  # the first games' views are forgotten...

    # ... and read as before: the views (each seat's and the spectator's), the events, the lobby list
    c = small.test_client()
    for gid, tokens in finished:
        for token in (None, *tokens.values()):
            r = c.get(f"/api/games/{gid}/view", headers=api.auth(token))
            assert r.status_code == 200 and r.get_json()["status"] == "finished"
            assert r.get_data() == c.get(f"/api/games/{gid}/view", headers=api.auth(token)).get_data()  # now cached
        assert c.get(f"/api/games/{gid}/view", headers=api.auth("seat_wrong")).status_code == 401
        events = api.events(gid, tokens[2])
        assert events["seq"] == len(events["events"]) and events["events"][-1]["type"] == "GameEnded"
    rows = {g["id"]: g for g in c.get("/api/games?status=finished&limit=100").get_json()["games"]}
    assert {gid for gid, _ in finished} <= set(rows)
    gone = {g["id"] for g in c.get("/api/games?status=cancelled&limit=100").get_json()["games"]}
    assert set(cancelled) <= gone

    # an early lobby game, forgotten everywhere, goes on
    early = lobby[6]  # the first created without seats
    assert UUID(early) not in svc.views._games
    taken = api.seat(early, name="Late")
    r = c.get(f"/api/games/{early}/view", headers=api.auth(taken["token"]))
    assert r.get_json()["you"] == taken["seat"] and r.get_json() == svc.view(UUID(early), taken["token"])
    _assert_bounded(small, set(lobby))

    # the store holds what a full rebuild holds: nothing per game but the lobby row (and its places in the index)
    fresh = MemoryViewStore()
    rebuild(svc.store, fresh)
    assert views.dump() == fresh.dump() and len(fresh.dump()[LOBBY]) == 3 + 3 + 6 + 5 * BOUND


def test_memory_per_extra_game_stays_a_fraction_of_what_caching_every_game_costs(small, sqlite_env, tmp_path):
    """tracemalloc, the same games in two apps: one whose caches take every game in (the baseline: what every
    game cost before the bounds, about 4 KB a lobby game: its folded aggregate, its view, its lobby row, its
    deadline, its seq) and ``small``, whose caches are full. There a game costs at most a third of the baseline."""
    from aegis.api import create_app

    roomy = create_app(
        load(
            {
                **sqlite_env,
                **UNTHROTTLED,
                "SQLITE_DBNAME": str(tmp_path / "roomy.sqlite"),
                "AEGIS_CACHE_GAMES": "100000",
                "AEGIS_CACHE_VIEWS": "100000",
                "AEGIS_REACTION_SECONDS": "0",
            }
        ),
        background=False,
    )

    def games(app: Any, n: int, cancel: bool) -> None:
        api = Api(app.test_client())
        for _ in range(n):
            made = api.create(seats=3)
            api.view(made["id"])
            if cancel:
                assert api.c.post(f"/api/games/{made['id']}/cancel", headers=api.auth(made["host_token"])).status_code == 200
        app.extensions["aegis.worker"].catch_up_locked()

    def per_game(app: Any, n: int, cancel: bool = False) -> float:
        gc.collect()
        before = tracemalloc.take_snapshot()
        games(app, n, cancel)
        gc.collect()
        after = tracemalloc.take_snapshot()
        return sum(s.size_diff for s in after.compare_to(before, "filename")) / n

    tracemalloc.start()  # before the warm-up, so that what a bounded cache drops later counts as freed
    try:
        for app in (roomy, small):  # fill what every process fills once (URL and statement caches, each bounded)
            games(app, 150, cancel=True)
        cached = per_game(roomy, 60)
        lobby_games = per_game(small, 60)
        cancelled = per_game(small, 60, cancel=True)
    finally:
        tracemalloc.stop()
        close_app(roomy)
    assert cached > 2000, f"a game every cache takes in costs {cached:.0f} B"
    assert lobby_games < cached / 3, f"a lobby game beyond the bounds costs {lobby_games:.0f} B, one cached {cached:.0f} B"
    assert cancelled < cached / 3, f"a cancelled game beyond the bounds costs {cancelled:.0f} B, one cached {cached:.0f} B"
    _, _, worker, keeper = _parts(small)
    _assert_bounded(small, {str(g) for g in worker.projector.games} | set(keeper._due))


def test_a_games_lock_exists_only_while_it_is_held_or_awaited(sqlite_app):
    svc = sqlite_app.extensions["aegis"]
    gid = UUID(Api(sqlite_app.test_client()).create(seats=3)["id"])
    assert svc._locks == {}
    inside = threading.Event()
    release = threading.Event()
    order: list[str] = []

    def first() -> None:
        with svc._lock(gid):
            order.append("first in")
            inside.set()
            release.wait(5)
            order.append("first out")

    def second() -> None:
        with svc._lock(gid):
            order.append("second in")

    a = threading.Thread(target=first)
    a.start()
    inside.wait(5)
    b = threading.Thread(target=second)
    b.start()
    deadline = time.monotonic() + 5
    while svc._locks.get(gid, (None, 0))[1] < 2 and time.monotonic() < deadline:
        time.sleep(0.001)
    assert svc._locks[gid][1] == 2 and order == ["first in"]  # the second waits on the same lock
    release.set()
    a.join(5)
    b.join(5)
    assert order == ["first in", "first out", "second in"]
    assert svc._locks == {}
    with pytest.raises(RuntimeError), svc._lock(gid):
        raise RuntimeError("a change that fails")
    assert svc._locks == {}  # released and dropped all the same


def test_the_keeper_keeps_only_games_with_a_deadline(small):
    svc = small.extensions["aegis"]
    keeper = DeadlineKeeper(svc)  # not started: only what it hears
    far = time.time() + 3600
    for i in range(300):
        keeper.heard(Notice(f"game-{i}", 1, far + i))
    assert len(keeper._due) == len(keeper._seq) == 300
    for round_ in range(50):  # each deadline replaced many times: the heap holds about one entry per game
        for i in range(300):
            keeper.heard(Notice(f"game-{i}", 2 + round_, far + i + round_))
        assert len(keeper._heap) <= 2 * len(keeper._due) + COMPACT_SLACK
    keeper.heard(Notice("game-0", 52, far))
    keeper.heard(Notice("game-0", 52, far))  # the same notice again (heard directly and through the broker)
    assert sum(1 for _, g in keeper._heap if g == "game-0") <= 2
    for i in range(300):
        keeper.heard(Notice(f"game-{i}", 100, None))  # over
    assert keeper._due == {} and keeper._seq == {}
    keeper.heard(Notice("game-7", 99, far))  # a late notice from before the end
    assert keeper._due == {}
    keeper.heard(Notice("new", 1, far))  # the next push drops the stale entries
    assert keeper._heap == [(far, "new")]
    keeper._recent = LRU(10)
    for i in range(50):
        keeper.heard(Notice(f"other-{i}", 3, None))
    assert len(keeper._recent) == 10 and list(keeper._recent) == [f"other-{i}" for i in range(40, 50)]


def test_cache_settings_are_read_and_checked(sqlite_env):
    settings = load(sqlite_env)
    assert (settings.cache_games, settings.cache_views) == (500, 500)
    assert settings.store_env["AGGREGATE_CACHE_MAXSIZE"] == "500"
    settings = load({**sqlite_env, "AEGIS_CACHE_GAMES": "7", "AEGIS_CACHE_VIEWS": "9"})
    assert (settings.cache_games, settings.cache_views, settings.store_env["AGGREGATE_CACHE_MAXSIZE"]) == (7, 9, "7")
    assert load({**sqlite_env, "AGGREGATE_CACHE_MAXSIZE": "11"}).cache_games == 11  # the library's own name wins
    for name in ("AEGIS_CACHE_GAMES", "AEGIS_CACHE_VIEWS", "AGGREGATE_CACHE_MAXSIZE"):
        with pytest.raises(MalformedCommand, match=name):
            load({**sqlite_env, name: "0"})  # the library would take 0 for a cache without bound
    app = make_app(sqlite_env, AEGIS_CACHE_GAMES="3", AEGIS_CACHE_VIEWS="2")
    try:
        assert app.extensions["aegis"].views._games.maxsize == 2
        assert app.extensions["aegis.worker"].projector.games.maxsize == 3
        assert app.extensions["aegis"]._known_seq.maxsize == 3
    finally:
        close_app(app)

