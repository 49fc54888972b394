"""Where projections live: in the process (embedded default) or in Redis (``REDIS_URL``): what several processes
share (the lobby rows and their index, players' records and game lists). Views of a game are not here: the service
computes them on read (``service/views.py``).

Both stores take one batch of writes together with the tracking position of the last event the
batch applied, atomically: either all of it and the new position, or nothing. A batch whose position
is not past the stored one is refused, so a replayed event is never applied twice; a batch computed from the
store as it was at position ``after`` (player records are read, changed and written back) is refused if another
worker moved the position meanwhile, so no update is lost. Both are ``eventsourcing`` tracking recorders
(``insert_tracking``/``max_tracking_id``), the library's notion of a view that knows how far it has read.

Besides values and hash fields, a batch *places* members in sorted sets (the lobby's index): a member is put in
exactly the sets named, with their scores, and taken out of those it was in before, which the store records in a
hash beside them. Reads of several keys that must agree (a lobby page) run through ``consistent``.
"""

from __future__ import annotations

import bisect
import json
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar, cast

from eventsourcing.persistence import Tracking, TrackingRecorder

PREFIX = "aegis:"
RATE_LIMITS = "ratelimit:"  # under the prefix: the rate limiter's counters (api/limits.py), not views
INDEXED = PREFIX + "indexed"  # set by the first commit into an empty store: its sorted sets cover every row
T = TypeVar("T")


class Moved(Exception):
    """The store moved on while a consistent read ran, every time it was tried."""


@dataclass
class Batch:
    """Writes of one projection step: whole values, fields of hashes, and members placed in sorted sets."""

    sets: dict[str, str] = field(default_factory=dict)
    hash_sets: dict[str, dict[str, str]] = field(default_factory=dict)
    places: dict[str, dict[str, str]] = field(default_factory=dict)  # record hash -> member -> {set: score} as JSON

    # values keep their keys' order: what a reader gets from the store is the same text whichever worker wrote it
    def set(self, key: str, value: Any) -> None:
        self.sets[key] = json.dumps(value)

    def hset(self, key: str, fieldname: str, value: Any) -> None:
        self.hash_sets.setdefault(key, {})[fieldname] = json.dumps(value)

    def place(self, record: str, member: str, scores: dict[str, str]) -> None:
        """Put ``member`` in exactly the sorted sets of ``scores`` (set -> score as text), and out of the others it
        was placed in; where it is, is kept in the hash ``record``."""
        self.places.setdefault(record, {})[member] = json.dumps(scores)

    def __bool__(self) -> bool:
        return bool(self.sets or self.hash_sets or self.places)


class ViewStore(TrackingRecorder):
    """The common interface of both stores; the sorted-set reads are ``projections.lobby.Index``."""

    application_name = "Aegis"

    def commit(self, batch: Batch, position: int, after: int | None = None) -> bool:
        """Apply ``batch`` and record ``position``, atomically; False if ``position`` is not new, or if ``after``
        is given and the stored position is not ``after`` (the batch was computed from another state)."""
        raise NotImplementedError

    def position(self) -> int:
        return self.max_tracking_id(self.application_name) or 0

    def lead(self, owner: str, seconds: float) -> bool:
        """May ``owner`` project now? True for the only projector of a store in one process's memory; a store shared
        by several processes grants it to one at a time (``RedisViewStore``)."""
        return True

    def insert_tracking(self, tracking: Tracking) -> None:
        self.commit(Batch(), tracking.notification_id)

    def indexed(self) -> bool:
        """Do the sorted sets cover every row? (Not in a store projected before they existed: rebuild it.)"""
        return self.get(INDEXED) is not None or self.position() == 0

    def consistent(self, read: Callable[[ViewStore], T]) -> T:
        """``read(self)`` as of one position of the store (no commit in between); ``Moved`` if that failed."""
        raise NotImplementedError

    def get(self, key: str) -> Any:
        raise NotImplementedError

    def hgetall(self, key: str) -> dict[str, Any]:
        raise NotImplementedError

    def hget(self, key: str, fieldname: str) -> Any:
        raise NotImplementedError

    def hmget(self, key: str, fields: list[str]) -> list[Any]:
        raise NotImplementedError

    def zcard(self, key: str) -> int:
        raise NotImplementedError

    def zwindow(self, key: str, start: int, stop: int) -> list[tuple[str, float]]:
        raise NotImplementedError

    def zranks(self, key: str, members: list[str]) -> list[int | None]:
        raise NotImplementedError

    def zscores(self, key: str, members: list[str]) -> list[float | None]:
        raise NotImplementedError

    def zdue(self, key: str, at: float) -> list[str]:
        raise NotImplementedError

    def clear(self) -> None:
        """Forget everything and the position (before a rebuild)."""
        raise NotImplementedError

    def dump(self) -> dict[str, Any]:
        """Everything stored, decoded (sorted sets as [member, score] lists): for comparing with a fresh rebuild."""
        raise NotImplementedError


Entry = tuple[float, str]  # (score, member): the order of a sorted set
Placed = tuple[tuple[tuple[str, ...], Entry], ...]  # where a member is: (sets, its entry there) per score


class MemoryViewStore(ViewStore):
    """The projections in the process: one small lobby row per game (and its places in the index), the players'
    records and game lists. A sorted set is a list of (score, member) kept in order (bisect); a member's entry is
    one tuple shared by every set it is in with that score, and the tuples of set names are shared by every member
    placed alike, so the index costs a game a few hundred bytes."""

    def __init__(self) -> None:
        self._values: dict[str, str] = {}
        self._hashes: dict[str, dict[str, str]] = {}
        self._sorted: dict[str, list[Entry]] = {}
        self._placed: dict[str, dict[str, Placed]] = {}  # record -> member -> where it is
        self._names: dict[tuple[str, ...], tuple[str, ...]] = {}
        self._position = 0
        self._lock = threading.RLock()

    def commit(self, batch: Batch, position: int, after: int | None = None) -> bool:
        with self._lock:
            if position <= self._position or (after is not None and after != self._position):
                return False
            if self._position == 0:
                self._values[INDEXED] = "1"
            self._values.update(batch.sets)
            for key, fields in batch.hash_sets.items():
                self._hashes.setdefault(key, {}).update(fields)
            for record, members in batch.places.items():
                placed = self._placed.setdefault(record, {})
                for member, scores in members.items():
                    new = self._where(member, json.loads(scores))
                    old = placed.get(member, ())
                    if old == new:
                        continue
                    for keys, entry in old:
                        for key in keys:
                            items = self._sorted[key]
                            del items[bisect.bisect_left(items, entry)]
                    for keys, entry in new:
                        for key in keys:
                            bisect.insort(self._sorted.setdefault(key, []), entry)
                    placed[member] = new
            self._position = position
            return True

    def _where(self, member: str, scores: dict[str, str]) -> Placed:
        by_score: dict[str, list[str]] = {}
        for key, score in scores.items():
            by_score.setdefault(score, []).append(key)
        out = []
        for score, keys in by_score.items():
            names = tuple(keys)
            out.append((self._names.setdefault(names, names), (float(score), member)))
        return tuple(out)

    def _entry(self, key: str, member: str) -> Entry | None:
        for placed in self._placed.values():
            for keys, entry in placed.get(member, ()):
                if key in keys:
                    return entry
        return None

    def consistent(self, read: Callable[[ViewStore], T]) -> T:
        with self._lock:
            return read(self)

    def max_tracking_id(self, application_name: str) -> int | None:
        return self._position or None

    def get(self, key: str) -> Any:
        with self._lock:
            raw = self._values.get(key)
        return None if raw is None else json.loads(raw)

    def hgetall(self, key: str) -> dict[str, Any]:
        with self._lock:
            found = dict(self._hashes.get(key, {}))
        return {k: json.loads(v) for k, v in found.items()}

    def hget(self, key: str, fieldname: str) -> Any:
        with self._lock:
            raw = self._hashes.get(key, {}).get(fieldname)
        return None if raw is None else json.loads(raw)

    def hmget(self, key: str, fields: list[str]) -> list[Any]:
        with self._lock:
            kept = self._hashes.get(key, {})
            raws = [kept.get(f) for f in fields]
        return [None if raw is None else json.loads(raw) for raw in raws]

    def zcard(self, key: str) -> int:
        with self._lock:
            return len(self._sorted.get(key, ()))

    def zwindow(self, key: str, start: int, stop: int) -> list[tuple[str, float]]:
        with self._lock:
            return [(member, score) for score, member in self._sorted.get(key, [])[start:stop]]

    def zranks(self, key: str, members: list[str]) -> list[int | None]:
        with self._lock:
            entries = [self._entry(key, m) for m in members]
            items = self._sorted.get(key, [])
            return [None if e is None else bisect.bisect_left(items, e) for e in entries]

    def zscores(self, key: str, members: list[str]) -> list[float | None]:
        with self._lock:
            return [None if (e := self._entry(key, m)) is None else e[0] for m in members]

    def zdue(self, key: str, at: float) -> list[str]:
        with self._lock:
            items = self._sorted.get(key, [])
            return [member for _, member in items[: bisect.bisect_right(items, (at, "\uffff"))]]

    def keys(self) -> list[str]:
        with self._lock:
            return [*self._values, *self._hashes, *self._placed, *(k for k, items in self._sorted.items() if items)]

    def dump(self) -> dict[str, Any]:
        with self._lock:
            out: dict[str, Any] = {k: json.loads(v) for k, v in self._values.items()}
            out |= {k: {f: json.loads(v) for f, v in h.items()} for k, h in self._hashes.items() if h}
            out |= {k: [[m, score] for score, m in items] for k, items in self._sorted.items() if items}
            out |= {
                record: {m: {k: repr(entry[0]) for keys, entry in where for k in keys} for m, where in placed.items()}
                for record, placed in self._placed.items()
                if placed
            }
        return dict(sorted(out.items()))

    def clear(self) -> None:
        with self._lock:
            self._values.clear()
            self._hashes.clear()
            self._sorted.clear()
            self._placed.clear()
            self._names.clear()
            self._position = 0


# KEYS[1]: the position key, KEYS[2]: the "indexed" marker. ARGV[1]: the new position, ARGV[2]: the batch as JSON,
# ARGV[3]: the position the batch was computed after ("" for none), ARGV[4]: this store's prefix, ARGV[5]: ``PREFIX``
# (the names inside a placement are the store's own: ``named`` puts them under this prefix). Scores stay text: Redis
# reads them exactly (a Lua number would be printed with 14 digits).
LEASE = "projector"  # the key of the projectors' lease (``RedisViewStore.lead``), beside the views, not one of them
_LEAD = """
local holder = redis.call('GET', KEYS[1])
if not holder or holder == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
return 0
"""
_COMMIT = """
local function named(key)
  if string.sub(key, 1, #ARGV[5]) == ARGV[5] then return ARGV[4] .. string.sub(key, #ARGV[5] + 1) end
  return key
end
local current = tonumber(redis.call('GET', KEYS[1]) or '0')
local position = tonumber(ARGV[1])
if position <= current then return 0 end
if ARGV[3] ~= '' and tonumber(ARGV[3]) ~= current then return 0 end
if current == 0 then redis.call('SET', KEYS[2], '1') end
local batch = cjson.decode(ARGV[2])
for key, value in pairs(batch['sets']) do redis.call('SET', key, value) end
for key, fields in pairs(batch['hash_sets']) do
  for name, value in pairs(fields) do redis.call('HSET', key, name, value) end
end
for record, members in pairs(batch['places']) do
  for member, scores in pairs(members) do
    local old = redis.call('HGET', record, member)
    if old ~= scores then
      if old then
        for key, _ in pairs(cjson.decode(old)) do redis.call('ZREM', named(key), member) end
      end
      for key, score in pairs(cjson.decode(scores)) do redis.call('ZADD', named(key), score, member) end
      redis.call('HSET', record, member, scores)
    end
  end
end
redis.call('SET', KEYS[1], ARGV[1])
return 1
"""
ATTEMPTS = 5  # consistent reads tried before ``Moved``


class RedisViewStore(ViewStore):
    """Projections in Redis. Each commit is one Lua script: the writes and the position, or nothing."""

    def __init__(self, url: str, prefix: str = PREFIX):
        import redis

        self.prefix = prefix
        self.redis = redis.Redis.from_url(url, socket_timeout=5, socket_connect_timeout=2, decode_responses=True)
        self._commit = self.redis.register_script(_COMMIT)
        self._lead = self.redis.register_script(_LEAD)

    def lead(self, owner: str, seconds: float) -> bool:
        """A lease of ``seconds`` on projecting into this store, taken or renewed by ``owner``: while one process's
        projector holds it the others leave the work to it (two projectors racing each other's commits both did all
        the work, and the loser of each race folded its games again from the event store). A projector whose process
        stops loses the lease when it runs out; another takes it then."""
        return bool(self._lead(keys=[self.prefix + LEASE], args=[owner, int(seconds * 1000)]))

    def _key(self, key: str) -> str:
        return self.prefix + key[len(PREFIX) :] if key.startswith(PREFIX) else key

    def commit(self, batch: Batch, position: int, after: int | None = None) -> bool:
        payload = {
            "sets": {self._key(k): v for k, v in batch.sets.items()},
            "hash_sets": {self._key(k): v for k, v in batch.hash_sets.items()},
            "places": {self._key(k): v for k, v in batch.places.items()},
        }
        # cjson decodes an empty JSON object as an empty table either way
        args: list[str | int] = [position, json.dumps(payload), "" if after is None else after, self.prefix, PREFIX]
        return bool(self._commit(keys=[self.prefix + "position", self._key(INDEXED)], args=args))

    def consistent(self, read: Callable[[ViewStore], T]) -> T:
        """Read, then check that the position did not move meanwhile (every commit moves it, atomically with its
        writes): the reads saw one state. Tried ``ATTEMPTS`` times."""
        for _ in range(ATTEMPTS):
            before = self.position()
            out = read(self)
            if self.position() == before:
                return out
        raise Moved(f"the views moved on during each of {ATTEMPTS} reads")

    def max_tracking_id(self, application_name: str) -> int | None:
        raw = self.redis.get(self.prefix + "position")
        return int(raw) if raw else None

    def get(self, key: str) -> Any:
        raw = self.redis.get(self._key(key))
        return None if raw is None else json.loads(raw)

    def hgetall(self, key: str) -> dict[str, Any]:
        return {str(k): json.loads(v) for k, v in self.redis.hgetall(self._key(key)).items()}

    def hget(self, key: str, fieldname: str) -> Any:
        raw = self.redis.hget(self._key(key), fieldname)
        return None if raw is None else json.loads(raw)

    def hmget(self, key: str, fields: list[str]) -> list[Any]:
        return [None if raw is None else json.loads(raw) for raw in self.redis.hmget(self._key(key), fields)]

    def zcard(self, key: str) -> int:
        return int(self.redis.zcard(self._key(key)))

    def zwindow(self, key: str, start: int, stop: int) -> list[tuple[str, float]]:
        if stop <= start:
            return []
        return self._pairs(self.redis.zrange(self._key(key), start, stop - 1, withscores=True))

    @staticmethod
    def _pairs(found: Any) -> list[tuple[str, float]]:
        return [(str(m), float(s)) for m, s in cast(list[tuple[str, float]], found)]

    def zranks(self, key: str, members: list[str]) -> list[int | None]:
        pipe = self.redis.pipeline(transaction=False)
        for member in members:
            pipe.zrank(self._key(key), member)
        return list(pipe.execute())

    def zscores(self, key: str, members: list[str]) -> list[float | None]:
        return list(self.redis.zmscore(self._key(key), members)) if members else []

    def zdue(self, key: str, at: float) -> list[str]:
        return [str(m) for m in cast(list[str], self.redis.zrangebyscore(self._key(key), "-inf", repr(float(at))))]

    def _scan(self) -> list[str]:
        """Every key of the views (the rate limiter's counters and the projectors' lease share the prefix and are left
        alone)."""
        counters, lease = self.prefix + RATE_LIMITS, self.prefix + LEASE
        found = self.redis.scan_iter(match=self.prefix + "*", count=1000)
        return [k for k in found if not k.startswith(counters) and k != lease]

    def keys(self) -> list[str]:
        return [PREFIX + k[len(self.prefix) :] for k in self._scan()]

    def dump(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for raw in sorted(self._scan()):
            key = PREFIX + raw[len(self.prefix) :]
            kind = self.redis.type(raw)
            if raw == self.prefix + "position":
                continue
            if kind == "hash":
                out[key] = self.hgetall(key)
            elif kind == "zset":
                out[key] = [list(pair) for pair in self._pairs(self.redis.zrange(raw, 0, -1, withscores=True))]
            else:
                out[key] = self.get(key)
        return out

    def clear(self) -> None:
        keys = self._scan()
        for i in range(0, len(keys), 500):
            self.redis.delete(*keys[i : i + 500])

    def ping(self) -> bool:
        return bool(self.redis.ping())


def make_store(redis_url: str | None, prefix: str = PREFIX) -> ViewStore:
    """Redis when ``redis_url`` is set, else the process's memory."""
    return RedisViewStore(redis_url, prefix) if redis_url else MemoryViewStore()
