"""Live notices: "game G is now at seq S", published after every save and heard by every stream.

A notice carries no event: a stream that hears one reads the events it has not sent yet from the
store, redacted for its reader, so a lost or repeated notice can delay an event but never skip or
double it. With ``REDIS_URL`` the notices go through a Redis channel per game, so a stream held on
one API process hears the commands saved by any other; without it they stay in the process.
"""

from __future__ import annotations

import json
import logging
import queue
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, Protocol

log = logging.getLogger(__name__)
CHANNEL = "aegis:game:{}"


class Listener(Protocol):
    def get(self, timeout: float) -> int | None:
        """The latest seq heard (waiting up to ``timeout`` seconds), or None when nothing came."""


class Broker(Protocol):
    def publish(self, game_id: str, seq: int) -> None: ...

    def listen(self, game_id: str) -> Any:
        """A context manager yielding a ``Listener`` for one game."""


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


class MemoryBroker:
    """Notices within one process (the embedded default)."""

    def __init__(self) -> None:
        self._listeners: dict[str, set[_QueueListener]] = {}
        self._lock = threading.Lock()

    def publish(self, game_id: str, seq: int) -> None:
        with self._lock:
            targets = list(self._listeners.get(game_id, ()))
        for listener in targets:
            listener.q.put(seq)

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


class _RedisListener:
    def __init__(self, pubsub: Any):
        self.pubsub = pubsub

    def get(self, timeout: float) -> int | None:
        message = self.pubsub.get_message(ignore_subscribe_messages=True, timeout=timeout)
        latest = None
        while message is not None:
            try:
                latest = max(latest or 0, int(json.loads(message["data"])["seq"]))
            except (ValueError, KeyError, TypeError):
                log.warning("ignoring a malformed notice on %s", message.get("channel"))
            message = self.pubsub.get_message(ignore_subscribe_messages=True, timeout=0)
        return latest


class RedisBroker:
    """Notices through Redis pub/sub, a channel per game. Publishing never fails a command: the events
    are already stored, and a stream that missed a notice catches up at its next notice or keep-alive."""

    def __init__(self, url: str):
        import redis

        self.redis = redis.Redis.from_url(url, socket_timeout=2, socket_connect_timeout=2)

    def publish(self, game_id: str, seq: int) -> None:
        try:
            self.redis.publish(CHANNEL.format(game_id), json.dumps({"seq": seq}))
        except Exception as err:  # Redis down: the command stands; streams catch up later
            log.warning("could not publish game %s seq %s: %s", game_id, seq, err)

    @contextmanager
    def listen(self, game_id: str) -> Iterator[_RedisListener]:
        pubsub = self.redis.pubsub()
        pubsub.subscribe(CHANNEL.format(game_id))
        try:
            yield _RedisListener(pubsub)
        finally:
            try:
                pubsub.close()
            except Exception:  # the connection may already be gone
                log.debug("closing a pubsub failed", exc_info=True)

    def ping(self) -> bool:
        return bool(self.redis.ping())


def make_broker(redis_url: str | None) -> MemoryBroker | RedisBroker:
    return RedisBroker(redis_url) if redis_url else MemoryBroker()
