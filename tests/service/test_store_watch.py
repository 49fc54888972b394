"""Without Redis, a process that holds streams finds other processes' saves in the store (``service/store_watch.py``).
Two apps on one store (a SQLite file, a PostgreSQL schema) stand for two processes: what one saves, the other's
watch reports with the game's seq; what the watching process heard of already (its own saves' versions) is not
reported again; and a process that holds no stream does not look at all."""

from __future__ import annotations

import random
from uuid import UUID

from aegis.service.store_watch import StoreWatch
from tests.api_client import Api
from tests.conftest import close_app, make_app


def test_the_watch_reports_what_another_process_saved_and_nothing_else(store_env):
    here, there = make_app(store_env), make_app(store_env)
    try:
        api_here, api_there = Api(here.test_client()), Api(there.test_client())
        gid, host, tokens = api_here.new_game(["human", "human", "human"], seed="watch", reaction_seconds=0)
        api_here.start(gid, host)
        service = here.extensions["aegis"]
        watch = StoreWatch(service)

        assert watch.moved({gid}, {}) == []  # no stream held: no look, nothing reported
        watch.streams = 1
        watch.mark()
        assert watch.moved({gid}, {}) == []  # nothing saved since the mark

        rng = random.Random(3)
        for _ in range(2):  # the other process plays two commands
            found = api_there.open_command(gid, tokens, rng)
            assert found is not None
            assert api_there.post(gid, *found).status_code == 200
        version = there.extensions["aegis"].store.repository.get(UUID(gid)).version
        seq = api_there.view(gid, None)["seq"]
        assert watch.moved({gid}, {}) == [(gid, seq, version)]  # once, with the seq this process now holds too
        assert api_here.view(gid, None)["seq"] == seq
        assert watch.moved({gid}, {}) == []  # nothing new since

        found = api_there.open_command(gid, tokens, rng)
        assert found is not None and api_there.post(gid, *found).status_code == 200
        newer = there.extensions["aegis"].store.repository.get(UUID(gid)).version
        assert watch.moved({"another-game"}, {}) == []  # a game watched by nobody here is not read
        found = api_there.open_command(gid, tokens, rng)
        assert found is not None and api_there.post(gid, *found).status_code == 200
        newest = there.extensions["aegis"].store.repository.get(UUID(gid)).version
        assert newest > newer
        assert watch.moved({gid}, {gid: newest}) == []  # heard of already (as a process hears its own saves)

        watch.streams = 0
        assert watch.moved({gid}, {}) == []  # the last stream went: watching stops
        assert watch._position is None
    finally:
        close_app(there)
        close_app(here)
