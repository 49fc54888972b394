"""The lobby list from its index (sorted sets kept in the commit that writes the rows) answers exactly what a scan of
every row answers: the same filters, order (newest first, then id), paging, totals, and lobby games past their
expiry shown as expired at read time. Many random games and queries, in the process and in Redis (the real server).
"""

from __future__ import annotations

import random
import secrets
import uuid
from typing import Any

import pytest

from aegis.projections import lobby
from aegis.projections.store import Batch, MemoryViewStore, RedisViewStore, ViewStore
from tests.conftest import need_server

REDIS = "redis://127.0.0.1:6379/15"
RULESETS = ("ever-aegis", "other")
VARIANTS = ("simpleton", "simpleton+fox", "")
NOW = 1000.0


def _row(rng: random.Random, gid: str) -> dict[str, Any]:
    status = rng.choice(lobby.STATUSES)
    seats = rng.choice((3, 4, 8))
    return {
        "id": gid,
        "ruleset": rng.choice(RULESETS),
        "variant": rng.choice(VARIANTS),
        "status": status,
        "seats": seats,
        "seats_free": rng.randint(0, seats) if status == "lobby" else rng.choice((0, 0, 1)),
        "rigged": rng.random() < 0.1,
        "created": float(rng.randint(0, 60)) + rng.choice((0.0, 0.25, 1 / 3)),  # many games created at the same time
        "expires_at": float(rng.randint(900, 1100)) if status == "lobby" else None,
        "turn_seconds": 120.0,
    }


def _queries(rng: random.Random, n: int) -> list[dict[str, Any]]:
    out = []
    for _ in range(n):
        out.append(
            {
                "status": rng.choice((None, *lobby.STATUSES)),
                "ruleset": rng.choice((None, *RULESETS, "none-such")),
                "variant": rng.choice((None, *VARIANTS)),
                "open_seats": rng.choice((None, True, False)),
                "offset": rng.choice((0, 0, 1, 5, 20, 37, 100, 400)),
                "limit": rng.choice((1, 3, 20, 100)),
                "now": rng.choice((None, NOW, 950.0, 1100.0, 0.0)),
            }
        )
    return out


def _fill(store: ViewStore, rng: random.Random, games: int) -> dict[str, dict[str, Any]]:
    """Random games written in several commits, some of them changed later (seats taken, started, ended, expired,
    cancelled): a changed game leaves the sets it was in."""
    rows: dict[str, dict[str, Any]] = {}
    ids = [str(uuid.UUID(int=rng.getrandbits(128))) for _ in range(games)]
    for position, start in enumerate(range(0, games, 50), 1):
        batch = Batch()
        for gid in ids[start : start + 50]:
            rows[gid] = _row(rng, gid)
            lobby.write(batch, rows[gid])
        for gid in rng.sample(sorted(rows), min(len(rows), 15)):  # some games move on
            changed = {**_row(rng, gid), "created": rows[gid]["created"]}
            rows[gid] = changed
            lobby.write(batch, changed)
        assert store.commit(batch, position)
    return rows


def _same_answers(store: ViewStore, seed: int) -> None:
    rng = random.Random(seed)
    rows = _fill(store, rng, 600)
    assert store.indexed()
    for query in _queries(rng, 400):
        indexed = store.consistent(lambda index, q=query: lobby.page(index, **q))
        assert indexed == lobby.select(list(rows.values()), **query), query


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_index_in_the_process_answers_what_a_scan_answers(seed):
    _same_answers(MemoryViewStore(), seed)


@pytest.fixture
def redis_store():
    try:
        import redis

        redis.Redis.from_url(REDIS, socket_connect_timeout=2).ping()
    except Exception as err:
        need_server("Redis at 127.0.0.1:6379", err)
    store = RedisViewStore(REDIS, f"aegis-test-{secrets.token_hex(3)}:")
    yield store
    store.clear()


@pytest.mark.parametrize("seed", [4, 5])
def test_the_index_in_redis_answers_what_a_scan_answers(redis_store, seed):
    _same_answers(redis_store, seed)


def test_both_stores_hold_the_same_index_after_the_same_commits(redis_store):
    memory = MemoryViewStore()
    _fill(memory, random.Random(7), 300)
    _fill(redis_store, random.Random(7), 300)
    assert redis_store.dump() == memory.dump()


def test_a_lobby_game_past_its_expiry_leaves_the_list_and_shows_as_expired_until_recorded():
    store = MemoryViewStore()
    row = {
        "id": "g1",
        "ruleset": "ever-aegis",
        "variant": "simpleton",
        "status": "lobby",
        "seats": 3,
        "seats_free": 3,
        "rigged": False,
        "created": 10.0,
        "expires_at": 100.0,
        "turn_seconds": 120.0,
    }
    batch = Batch()
    lobby.write(batch, row)
    store.commit(batch, 1)

    def ask(**query: Any) -> tuple[list[dict[str, Any]], int]:
        return store.consistent(lambda index: lobby.page(index, **query))

    assert ask(now=99.0) == ([row], 1) and ask(status="expired", now=99.0) == ([], 0)
    expired = {**row, "status": "expired", "expires_at": None}
    assert ask(now=100.0) == ([], 0) and ask(status="lobby", now=100.0) == ([], 0)
    assert ask(status="expired", now=100.0) == ([expired], 1)
    recorded = Batch()
    lobby.write(recorded, expired)  # the server records the expiry
    store.commit(recorded, 2)
    assert ask(status="expired", now=100.0) == ([expired], 1) and ask(now=100.0) == ([], 0)
    assert store.zcard(lobby.EXPIRY) == 0 and store.zcard(lobby.index_key("lobby", None, None, None)) == 0


def test_a_store_projected_before_the_index_existed_is_not_indexed(redis_store):
    batch = Batch()
    batch.hset(lobby.LOBBY, "g1", {"id": "g1"})
    assert redis_store.commit(batch, 1)
    redis_store.redis.delete(redis_store._key("aegis:indexed"))  # as an older version left it
    assert not redis_store.indexed()
