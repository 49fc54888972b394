"""Live notices: "game G is now at seq S, and the server must act on it at D", published after every save
and heard by every stream of that game and by the deadline keeper of every process.

A notice carries no event: a stream that hears one reads the events it has not sent yet from the
store, redacted for its reader, so a lost or repeated notice can delay an event but never skip or
double it. With ``REDIS_URL`` the notices go through a Redis channel per game, so a stream held on
one API process hears the commands saved by any other, and every process's deadline keeper (listening to
all the channels) learns every game's next deadline; without it they stay in the process.
"""

from __future__ import annotations

import json
import logging
import queue
import re
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Protocol

from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from aegis.service.outage import Outage

log = logging.getLogger(__name__)
DEFAULT_PREFIX = "aegis:"  # AEGIS_REDIS_PREFIX: two deployments sharing a Redis hear only their own notices
WARN_EVERY = 10.0  # seconds between warnings while Redis does not take notices
_REDIS_DOWN = (RedisConnectionError, RedisTimeoutError, OSError)


PUBLISH_BATCH = 256  # notices sent to Redis in one pipeline, at most
PUBLISH_BACKLOG = 10_000  # notices waiting for Redis, at most: beyond that a notice is dropped (a hint, not an event)
FAN_OUT_WAIT = 0.5  # seconds the shared subscription waits for a notice before it looks at who still listens


@dataclass(frozen=True)
class Notice:
    game_id: str
    seq: int
    deadline: float | None  # when the server must next act on the game (None: nothing is due)
    version: int | None = None  # the game's stored version (every save moves it, a lobby save too)


class Listener(Protocol):
    def get(self, timeout: float) -> int | None:
        """The latest seq heard (waiting up to ``timeout`` seconds), or None when nothing came."""


class Broker(Protocol):
    def publish(self, game_id: str, seq: int, deadline: float | None = None, version: int | None = None) -> None: ...

    def flush(self, timeout: float = 5.0) -> bool:
        """Wait until every notice published so far is on its way to every process's listeners."""

    def listen(self, game_id: str) -> Any:
        """A context manager yielding a ``Listener`` for one game."""

    def listen_all(self) -> Any:
        """A context manager yielding an ``AllListener``: the notices of every game."""

    def carrying(self) -> bool:
        """Whether the notices of other processes' saves reach this process now."""


def channel_of(prefix: str, game_id: str) -> str:
    """The Redis channel of one game's notices."""
    return f"{prefix}game:{game_id}"


def pattern_of(prefix: str) -> str:
    """The pattern of every game's channel under ``prefix``, with the prefix's own glob characters escaped."""
    return re.sub(r"([*?\[\]\\])", r"\\\1", prefix) + "game:*"


def _notice(channel: str, data: Any, prefix: str) -> Notice | None:
    try:
        body = json.loads(data)
        version = None if body.get("version") is None else int(body["version"])
        return Notice(channel[len(channel_of(prefix, "")) :], int(body["seq"]), body.get("deadline"), version)
    except (ValueError, KeyError, TypeError):
        log.warning("ignoring a malformed notice on %s", channel)
        return None


class _QueueListener:
    def __init__(self) -> None:
        self.q: queue.Queue[int] = queue.Queue()

    def get(self, timeout: float) -> int | None:
        try:
            seq = self.q.get(timeout=timeout)
        except queue.Empty:
            return None
        while True:  # coalesce a burst into its latest seq
            try:
                seq = max(seq, self.q.get_nowait())
            except queue.Empty:
                return seq


class _AllQueueListener:
    def __init__(self) -> None:
        self.q: queue.Queue[Notice] = queue.Queue()

    def get(self, timeout: float) -> list[Notice]:
        """Every notice heard (waiting up to ``timeout`` seconds for the first)."""
        out: list[Notice] = []
        try:
            out.append(self.q.get(timeout=timeout))
            while True:
                out.append(self.q.get_nowait())
        except queue.Empty:
            return out


class MemoryBroker:
    """Notices within one process (the embedded default)."""

    crosses_processes = False  # every notice is of a save this process made, and heard directly too

    def __init__(self) -> None:
        self._listeners: dict[str, set[_QueueListener]] = {}
        self._all: set[_AllQueueListener] = set()
        self._lock = threading.Lock()

    def flush(self, timeout: float = 5.0) -> bool:
        return True  # every notice is handed to its listeners as it is published

    def carrying(self) -> bool:
        return False  # no other process's notices come here: a process with streams looks at the store

    def publish(self, game_id: str, seq: int, deadline: float | None = None, version: int | None = None) -> None:
        with self._lock:
            targets = list(self._listeners.get(game_id, ()))
            everything = list(self._all)
        for listener in targets:
            listener.q.put(seq)
        for all_listener in everything:
            all_listener.q.put(Notice(game_id, seq, deadline, version))

    @contextmanager
    def listen_all(self) -> Iterator[_AllQueueListener]:
        listener = _AllQueueListener()
        with self._lock:
            self._all.add(listener)
        try:
            yield listener
        finally:
            with self._lock:
                self._all.discard(listener)

    @contextmanager
    def listen(self, game_id: str) -> Iterator[_QueueListener]:
        listener = _QueueListener()
        with self._lock:
            self._listeners.setdefault(game_id, set()).add(listener)
        try:
            yield listener
        finally:
            with self._lock:
                self._listeners[game_id].discard(listener)
                if not self._listeners[game_id]:
                    del self._listeners[game_id]


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


class _Subscription:
    """A Redis subscription that outlives Redis restarts. While Redis does not answer, ``notices`` returns None: the
    attempts are spaced out (``Outage``: 0.5 s doubling to 30 s, the first failure logged, then a line at growing
    intervals), and it subscribes again once Redis is back (redis-py also does by itself when it reconnects)."""

    def __init__(self, redis: Any, prefix: str, subscribe: Callable[[Any], None], what: str):
        self.pubsub = redis.pubsub()
        self.prefix = prefix
        self._subscribe_to = subscribe
        self.subscribed = False
        self.outage = Outage(log, what)
        self._subscribe()

    def _subscribe(self) -> None:
        try:
            self._subscribe_to(self.pubsub)
            self.subscribed = True
        except _REDIS_DOWN as err:
            self.outage.failed(err)

    def live(self) -> bool:
        """Whether a read that raised nothing means the subscription works (see ``_RedisAllListener``)."""
        return True

    def notices(self, timeout: float) -> list[Notice] | None:
        """The notices that come within ``timeout``; None while Redis does not answer (returning within ``timeout``)."""
        wait = self.outage.due()
        if wait > 0:  # Redis failed a moment ago: the next attempt waits its turn
            time.sleep(min(timeout, wait))
            return None
        if not self.subscribed:
            self._subscribe()
            if not self.subscribed:
                return None
        out: list[Notice] = []
        try:
            message = self.pubsub.get_message(ignore_subscribe_messages=True, timeout=timeout)
            while message is not None:
                notice = _notice(_text(message["channel"]), message["data"], self.prefix)
                if notice is not None:
                    out.append(notice)
                message = self.pubsub.get_message(ignore_subscribe_messages=True, timeout=0)
        except _REDIS_DOWN as err:
            self.outage.failed(err)
            return None
        if self.live():
            self.outage.succeeded()
        return out

    def close(self) -> None:
        try:
            self.pubsub.close()
        except Exception:  # the connection may already be gone
            log.debug("closing a pubsub failed", exc_info=True)


class _RedisAllListener(_Subscription):
    """Notices of every game's channel (a pattern subscription). ``flowing``: the last look at it worked, so notices
    of other processes' saves arrive (while they do not, streams look at the store: ``api/hub.py``)."""

    def __init__(self, redis: Any, prefix: str):
        self.flowing = False
        pattern = pattern_of(prefix)
        what = "cannot listen to every game's notices (streams look at the store meanwhile)"
        super().__init__(redis, prefix, lambda pubsub: pubsub.psubscribe(pattern), what)

    def live(self) -> bool:
        return self.pubsub.connection is not None and bool(self.pubsub.subscribed)

    def get(self, timeout: float) -> list[Notice]:
        found = self.notices(timeout)
        self.flowing = found is not None and self.live()
        return found or []


class _RedisListener(_Subscription):
    """Notices of one game's channel. While Redis does not answer, ``get`` waits a little and returns None (the stream
    then reads the store, which it does after any wait): a Redis restart delays notices but never ends a stream."""

    def __init__(self, redis: Any, prefix: str, game_id: str):
        self.channel = channel = channel_of(prefix, game_id)
        what = f"cannot listen to {channel}, reading the store meanwhile"
        super().__init__(redis, prefix, lambda pubsub: pubsub.subscribe(channel), what)

    def get(self, timeout: float) -> int | None:
        """The latest seq a notice announced within ``timeout``, if any."""
        found = self.notices(timeout)
        return max((n.seq for n in found), default=None) if found else None


class _Publisher:
    """Sends a process's notices to Redis on a thread of its own, in the order they were published, as many as are
    waiting in one pipeline. A save never waits for Redis: publishing in the save's thread held the game's lock
    for a round trip to Redis on every command, and for the whole socket timeout (2 s) while Redis hung."""

    def __init__(self, redis: Any, failed: Callable[[int, Exception], None]):
        self._redis = redis
        self._failed = failed  # (how many notices were lost, why)
        self._queue: queue.SimpleQueue[tuple[str, str]] = queue.SimpleQueue()
        self._waiting = 0  # published, not yet sent (or lost)
        self._idle = threading.Condition()
        self._thread: threading.Thread | None = None

    def put(self, channel: str, body: str) -> None:
        with self._idle:
            if self._waiting >= PUBLISH_BACKLOG:  # Redis has not taken notices for a while: drop, and say so
                full = True
            else:
                full = False
                self._waiting += 1
                self._queue.put((channel, body))
                if self._thread is None:
                    self._thread = threading.Thread(target=self._run, name="notice-publisher", daemon=True)
                    self._thread.start()
        if full:
            self._failed(1, RuntimeError(f"{PUBLISH_BACKLOG} notices are waiting for Redis already"))

    def flush(self, timeout: float) -> bool:
        """Wait until every notice published so far is sent (or lost); False if that took over ``timeout``."""
        with self._idle:
            return self._idle.wait_for(lambda: self._waiting == 0, timeout)

    def _run(self) -> None:
        while True:
            batch = [self._queue.get()]
            while len(batch) < PUBLISH_BATCH:
                try:
                    batch.append(self._queue.get_nowait())
                except queue.Empty:
                    break
            try:
                pipe = self._redis.pipeline(transaction=False)
                for channel, body in batch:
                    pipe.publish(channel, body)
                pipe.execute()
            except Exception as err:  # Redis down: the commands stand; streams catch up later
                self._failed(len(batch), err)
            with self._idle:
                self._waiting -= len(batch)
                if self._waiting == 0:
                    self._idle.notify_all()


class RedisBroker:
    """Notices through Redis pub/sub, a channel per game, sent by a thread of the process's own (``_Publisher``).
    Publishing never fails or holds a command: the events are already stored, and a stream that missed a notice
    catches up at its next notice or keep-alive."""

    crosses_processes = True  # notices of every process's saves

    def __init__(self, url: str, prefix: str = DEFAULT_PREFIX):
        import redis

        self.redis = redis.Redis.from_url(url, socket_timeout=2, socket_connect_timeout=2)
        self.prefix = prefix
        self.unpublished = 0  # notices Redis did not take
        self._warned = -WARN_EVERY
        self._lost_lock = threading.Lock()
        self._publisher = _Publisher(self.redis, self._lost)
        self._all: set[_AllQueueListener] = set()  # listeners of every game's notices, fed by one subscription
        self._fanout: _RedisAllListener | None = None
        self._fanout_lock = threading.Lock()

    def publish(self, game_id: str, seq: int, deadline: float | None = None, version: int | None = None) -> None:
        body = {"seq": seq, "deadline": deadline, "version": version}
        self._publisher.put(channel_of(self.prefix, game_id), json.dumps(body))

    def flush(self, timeout: float = 5.0) -> bool:
        """Wait until every notice published so far has gone to Redis (or was lost); False after ``timeout``."""
        return self._publisher.flush(timeout)

    def _lost(self, count: int, err: Exception) -> None:
        with self._lost_lock:  # from the publisher's thread, and from a saving thread when the backlog is full
            self.unpublished += count
            now = time.monotonic()
            if now - self._warned < WARN_EVERY:  # one line per WARN_EVERY seconds of an outage, not per command
                return
            self._warned = now
        log.warning("could not publish notices (%s so far; streams read the store meanwhile): %s", self.unpublished, err)

    @contextmanager
    def listen(self, game_id: str) -> Iterator[_RedisListener]:
        listener = _RedisListener(self.redis, self.prefix, game_id)
        try:
            yield listener
        finally:
            listener.close()

    @contextmanager
    def listen_all(self) -> Iterator[_AllQueueListener]:
        """Every game's notices. The process's listeners (its deadline keeper, its streams' hub) share one pattern
        subscription, read by one thread that hands each notice to all of them; it is subscribed before this
        returns, and closed when the last listener leaves."""
        listener = _AllQueueListener()
        with self._fanout_lock:
            if self._fanout is None:
                self._fanout = _RedisAllListener(self.redis, self.prefix)
                threading.Thread(target=self._fan_out, args=(self._fanout,), name="notices", daemon=True).start()
            self._all.add(listener)
        try:
            yield listener
        finally:
            with self._fanout_lock:
                self._all.discard(listener)

    def _fan_out(self, source: _RedisAllListener) -> None:
        try:
            while True:
                notices = source.get(timeout=FAN_OUT_WAIT)
                with self._fanout_lock:  # who listens now: a listener that came while we waited hears these too
                    if not self._all:
                        self._fanout = None
                        return
                    targets = list(self._all)
                for notice in notices:
                    for target in targets:
                        target.q.put(notice)
        finally:
            source.close()

    def carrying(self) -> bool:
        """Whether notices of other processes' saves reach this process now (its shared subscription works): while
        Redis is away they do not, and a process that holds streams looks at the store instead (``api/hub.py``)."""
        fanout = self._fanout
        return fanout is not None and fanout.flowing

    def ping(self) -> bool:
        return bool(self.redis.ping())


def make_broker(redis_url: str | None, prefix: str = DEFAULT_PREFIX) -> MemoryBroker | RedisBroker:
    return RedisBroker(redis_url, prefix) if redis_url else MemoryBroker()
