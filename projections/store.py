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
from dataclasses import dataclass, field
from typing import Any

from eventsourcing.persistence import Tracking, TrackingRecorder

PREFIX = "aegis:"
HASHES = tuple(PREFIX + name for name in ("lobby", "seats:", "players", "player-games:"))  # keys that hold hashes


@dataclass
class Batch:
    """Writes of one projection step: whole values, and fields of hashes."""

    sets: dict[str, str] = field(default_factory=dict)
    hash_sets: dict[str, dict[str, str]] = field(default_factory=dict)

    def set(self, key: str, value: Any) -> None:
        self.sets[key] = json.dumps(value, sort_keys=True)

    def hset(self, key: str, fieldname: str, value: Any) -> None:
        self.hash_sets.setdefault(key, {})[fieldname] = json.dumps(value, sort_keys=True)

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


class MemoryViewStore(ViewStore):
    def __init__(self) -> None:
        self._values: dict[str, str] = {}
        self._hashes: dict[str, dict[str, str]] = {}
        self._position = 0
        self._lock = threading.Lock()

    def commit(self, batch: Batch, position: int, after: int | None = None) -> bool:
        with self._lock:
            if position <= self._position or (after is not None and after != self._position):
                return False
            self._values.update(batch.sets)
            for key, fields in batch.hash_sets.items():
                self._hashes.setdefault(key, {}).update(fields)
            self._position = position
            return True

    def max_tracking_id(self, application_name: str) -> int | None:
        return self._position or None

    def get(self, key: str) -> Any:
        raw = self._values.get(key)
        return None if raw is None else json.loads(raw)

    def hgetall(self, key: str) -> dict[str, Any]:
        return {k: json.loads(v) for k, v in self._hashes.get(key, {}).items()}

    def hget(self, key: str, fieldname: str) -> Any:
        raw = self._hashes.get(key, {}).get(fieldname)
        return None if raw is None else json.loads(raw)

    def keys(self) -> list[str]:
        return [*self._values, *self._hashes]

    def clear(self) -> None:
        with self._lock:
            self._values.clear()
            self._hashes.clear()
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

    def keys(self) -> list[str]:
        return [PREFIX + k[len(self.prefix) :] for k in self.redis.scan_iter(match=self.prefix + "*", count=1000)]

    def clear(self) -> None:
        keys = list(self.redis.scan_iter(match=self.prefix + "*", count=1000))
        for i in range(0, len(keys), 500):
            self.redis.delete(*keys[i : i + 500])

    def ping(self) -> bool:
        return bool(self.redis.ping())


def make_store(redis_url: str | None, prefix: str = PREFIX) -> ViewStore:
    return RedisViewStore(redis_url, prefix) if redis_url else MemoryViewStore()
