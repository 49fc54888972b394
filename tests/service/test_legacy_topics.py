"""A store written before the service became the package ``aegis`` (issue 16): its events, snapshots and players
carry topics of the modules "service.aggregate" and "service.players". Such a store is read as before: the games
answer the same, play on, and the deadline keeper still finds the open ones."""

from __future__ import annotations

import random
import sqlite3
from uuid import UUID

from tests.api_client import Api
from tests.conftest import close_app, make_app


def _rename_topics_as_before(path: str) -> int:
    """Every stored topic as the earlier version wrote it; how many rows were changed."""
    changed = 0
    with sqlite3.connect(path) as db:
        tables = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        for table in tables:
            columns = [r[1] for r in db.execute(f"PRAGMA table_info({table})")]
            if "topic" in columns:
                cur = db.execute(
                    f"UPDATE {table} SET topic = 'service.' || substr(topic, 15) WHERE topic LIKE 'aegis.service.%'"
                )
                changed += cur.rowcount
    return changed


def test_a_store_written_under_the_old_module_names_is_read_and_played_on(sqlite_env):
    first = make_app(sqlite_env)
    api = Api(first.test_client())
    assert api.c.post("/api/players", json={"name": "Sally"}).status_code == 201
    gid, host, tokens = api.new_game(["human", "random", "random"], seed="old-topics", reaction_seconds=0)
    api.start(gid, host)
    rng = random.Random(3)
    for _ in range(10):
        found = api.open_command(gid, tokens, rng)
        assert found is not None and api.post(gid, *found).status_code == 200
    waiting, _, _ = api.new_game(["human", "human", "human"], seed="old-topics-lobby")
    before = {seat: api.view(gid, token) for seat, token in tokens.items()}
    events = api.events(gid, tokens[0])
    store = first.extensions["aegis"].store
    store.snapshotter.flush()
    close_app(first)

    assert _rename_topics_as_before(sqlite_env["SQLITE_DBNAME"]) > 20

    second = make_app(sqlite_env)
    try:
        api2 = Api(second.test_client())
        assert {seat: api2.view(gid, token) for seat, token in tokens.items()} == before
        assert api2.events(gid, tokens[0]) == events
        assert api2.c.get("/api/players/Sally").status_code == 200
        service = second.extensions["aegis"]
        assert {UUID(gid), UUID(waiting)} <= set(service.open_games())
        api2.play_humans(gid, tokens, rng)
        assert api2.view(gid)["status"] == "finished"
        assert UUID(gid) not in set(service.open_games())
    finally:
        close_app(second)
