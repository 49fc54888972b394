"""Where projected views live: in the process (embedded default) or in Redis (``REDIS_URL``).

Both stores take one batch of writes together with the tracking position of the last event the
batch applied, atomically: either all of it and the new position, or nothing. A batch whose position
is not past the stored one is refused, so a replayed event is never applied twice; a batch computed from the
store as it was at position ``after`` (player records are read, changed and written back) is refused if another
worker moved the position meanwhile, so no update is lost. Both are ``eventsourcing`` tracking recorders
(``insert_tracking``/``max_tracking_id``), the library's notion of a view that knows how far it has read.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from eventsourcing.persistence import Tracking, TrackingRecorder

PREFIX = "aegis:"
HASHES = tuple(PREFIX + name for name in ("lobby", "seats:", "players", "player-games:"))  # keys that hold hashes
RATE_LIMITS = "ratelimit:"  # under the prefix: the rate limiter's counters (api/limits.py), not views
PER_GAME = (PREFIX + "view:", PREFIX + "seats:")  # keys of one game's views and seats (then the game id)


@dataclass
class Batch:
    """Writes of one projection step: whole values, and fields of hashes."""

    sets: dict[str, str] = field(default_factory=dict)
    hash_sets: dict[str, dict[str, str]] = field(default_factory=dict)

    # values keep their keys' order: a view read from the store must be the same text as one computed from the
    # events (a reader can then not tell where it came from, which depends on what the cache holds)
    def set(self, key: str, value: Any) -> None:
        self.sets[key] = json.dumps(value)

    def hset(self, key: str, fieldname: str, value: Any) -> None:
        self.hash_sets.setdefault(key, {})[fieldname] = json.dumps(value)

    def __bool__(self) -> bool:
        return bool(self.sets or self.hash_sets)


class ViewStore(TrackingRecorder):
    """The common interface of both stores."""

    application_name = "Aegis"

    def commit(self, batch: Batch, position: int, after: int | None = None) -> bool:
        """Apply ``batch`` and record ``position``, atomically; False if ``position`` is not new, or if ``after``
        is given and the stored position is not ``after`` (the batch was computed from another state)."""
        raise NotImplementedError

    def position(self) -> int:
        return self.max_tracking_id(self.application_name) or 0

    def insert_tracking(self, tracking: Tracking) -> None:
        self.commit(Batch(), tracking.notification_id)

    def get(self, key: str) -> Any:
        raise NotImplementedError

    def hgetall(self, key: str) -> dict[str, Any]:
        raise NotImplementedError

    def hget(self, key: str, fieldname: str) -> Any:
        raise NotImplementedError

    def keys(self) -> list[str]:
        raise NotImplementedError

    def clear(self) -> None:
        """Forget every view and the position (before a rebuild)."""
        raise NotImplementedError

    def dump(self) -> dict[str, Any]:
        """Everything stored, decoded: for comparing a store with a fresh rebuild."""
        out: dict[str, Any] = {}
        for key in sorted(self.keys()):
            if key.startswith(HASHES):
                out[key] = self.hgetall(key)
            elif key != PREFIX + "position":
                out[key] = self.get(key)
        return out


def game_of(key: str) -> str | None:
    """The game a per-game key belongs to (its views, its seats), or None (the lobby, players' records)."""
    for prefix in PER_GAME:
        if key.startswith(prefix):
            return key[len(prefix) :].split(":", 1)[0]
    return None


class MemoryViewStore(ViewStore):
    """The views in the process. With ``max_games``, the views and seats of at most that many games, the least
    recently written or read forgotten first: a read that finds no view answers from the events
    (``projections/reads.py``), and the game's next event writes them all again. The lobby rows (one small row per
    game) and the players' records are kept whole."""

    def __init__(self, max_games: int | None = None) -> None:
        self._values: dict[str, str] = {}
        self._hashes: dict[str, dict[str, str]] = {}
        self._games: OrderedDict[str, set[str]] = OrderedDict()  # game id -> its keys, least recently used first
        self.max_games = max_games
        self._position = 0
        self._lock = threading.Lock()

    def commit(self, batch: Batch, position: int, after: int | None = None) -> bool:
        with self._lock:
            if position <= self._position or (after is not None and after != self._position):
                return False
            self._values.update(batch.sets)
            for key, fields in batch.hash_sets.items():
                self._hashes.setdefault(key, {}).update(fields)
            for key in (*batch.sets, *batch.hash_sets):
                self._used(key, written=True)
            self._evict()
            self._position = position
            return True

    def _used(self, key: str, written: bool = False) -> None:
        """Mark the game of ``key`` most recently used (under ``_lock``)."""
        gid = game_of(key)
        if gid is None:
            return
        keys = self._games.get(gid)
        if keys is None:
            if not written:
                return
            keys = self._games[gid] = set()
        else:
            self._games.move_to_end(gid)
        if written:
            keys.add(key)

    def _evict(self) -> None:
        while self.max_games is not None and len(self._games) > self.max_games:
            _, keys = self._games.popitem(last=False)
            for key in keys:
                self._values.pop(key, None)
                self._hashes.pop(key, None)

    def max_tracking_id(self, application_name: str) -> int | None:
        return self._position or None

    def get(self, key: str) -> Any:
        with self._lock:
            raw = self._values.get(key)
            if raw is not None:
                self._used(key)
        return None if raw is None else json.loads(raw)

    def hgetall(self, key: str) -> dict[str, Any]:
        with self._lock:
            found = dict(self._hashes.get(key, {}))
            if found:
                self._used(key)
        return {k: json.loads(v) for k, v in found.items()}

    def hget(self, key: str, fieldname: str) -> Any:
        with self._lock:
            raw = self._hashes.get(key, {}).get(fieldname)
            if raw is not None:
                self._used(key)
        return None if raw is None else json.loads(raw)

    def keys(self) -> list[str]:
        with self._lock:
            return [*self._values, *self._hashes]

    def games(self) -> int:
        """How many games' views are kept."""
        return len(self._games)

    def clear(self) -> None:
        with self._lock:
            self._values.clear()
            self._hashes.clear()
            self._games.clear()
            self._position = 0


# KEYS[1]: the position key. ARGV[1]: the new position, ARGV[2]: the batch as JSON, ARGV[3]: the position the
# batch was computed after ("" for none).
_COMMIT = """
local current = tonumber(redis.call('GET', KEYS[1]) or '0')
local position = tonumber(ARGV[1])
if position <= current then return 0 end
if ARGV[3] ~= '' and tonumber(ARGV[3]) ~= current then return 0 end
local batch = cjson.decode(ARGV[2])
for key, value in pairs(batch['sets']) do redis.call('SET', key, value) end
for key, fields in pairs(batch['hash_sets']) do
  for name, value in pairs(fields) do redis.call('HSET', key, name, value) end
end
redis.call('SET', KEYS[1], ARGV[1])
return 1
"""


class RedisViewStore(ViewStore):
    """Views in Redis. Each commit is one Lua script: the writes and the position, or nothing."""

    def __init__(self, url: str, prefix: str = PREFIX):
        import redis

        self.prefix = prefix
        self.redis = redis.Redis.from_url(url, socket_timeout=5, socket_connect_timeout=2, decode_responses=True)
        self._commit = self.redis.register_script(_COMMIT)

    def _key(self, key: str) -> str:
        return self.prefix + key[len(PREFIX) :] if key.startswith(PREFIX) else key

    def commit(self, batch: Batch, position: int, after: int | None = None) -> bool:
        payload = {
            "sets": {self._key(k): v for k, v in batch.sets.items()} or {},
            "hash_sets": {self._key(k): v for k, v in batch.hash_sets.items()},
        }
        # cjson decodes an empty JSON object as an empty table either way
        args = [position, json.dumps(payload), "" if after is None else after]
        return bool(self._commit(keys=[self.prefix + "position"], args=args))

    def max_tracking_id(self, application_name: str) -> int | None:
        raw = self.redis.get(self.prefix + "position")
        return int(raw) if raw else None

    def get(self, key: str) -> Any:
        raw = self.redis.get(self._key(key))
        return None if raw is None else json.loads(raw)

    def hgetall(self, key: str) -> dict[str, Any]:
        return {k: json.loads(v) for k, v in self.redis.hgetall(self._key(key)).items()}

    def hget(self, key: str, fieldname: str) -> Any:
        raw = self.redis.hget(self._key(key), fieldname)
        return None if raw is None else json.loads(raw)

    def _scan(self) -> list[str]:
        """Every key of the views (the rate limiter's counters share the prefix and are left alone)."""
        counters = self.prefix + RATE_LIMITS
        return [k for k in self.redis.scan_iter(match=self.prefix + "*", count=1000) if not k.startswith(counters)]

    def keys(self) -> list[str]:
        return [PREFIX + k[len(self.prefix) :] for k in self._scan()]

    def clear(self) -> None:
        keys = self._scan()
        for i in range(0, len(keys), 500):
            self.redis.delete(*keys[i : i + 500])

    def ping(self) -> bool:
        return bool(self.redis.ping())


def make_store(redis_url: str | None, prefix: str = PREFIX, max_games: int | None = None) -> ViewStore:
    """Redis when ``redis_url`` is set, else the process's memory, keeping the views of ``max_games`` games
    (``AEGIS_CACHE_VIEWS``; None: every game's)."""
    return RedisViewStore(redis_url, prefix) if redis_url else MemoryViewStore(max_games)
