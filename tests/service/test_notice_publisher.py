"""Notices go to Redis from a thread of the process's own (``service/broker.py``, ``_Publisher``): a save never
waits for Redis, not even for a Redis that accepts connections and never answers; notices arrive in the order they
were published, several to a pipeline; and while Redis does not take them, the waiting ones are bounded."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

from aegis.service import broker as broker_module
from aegis.service.broker import RedisBroker
from tests.api.test_stream import redis_url  # noqa: F401 (a fixture)


@pytest.fixture
def silent_redis() -> Iterator[str]:
    """A server on a real port that accepts connections and never answers (a hung Redis)."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(64)
    held: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        server.settimeout(0.2)
        while not stop.is_set():
            try:
                held.append(server.accept()[0])
            except OSError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield f"redis://127.0.0.1:{server.getsockname()[1]}/0"
    stop.set()
    thread.join()
    for conn in held:
        conn.close()
    server.close()


def test_publishing_never_waits_for_a_redis_that_does_not_answer(silent_redis):
    broker = RedisBroker(silent_redis)
    t0 = time.monotonic()
    for seq in range(1, 21):
        broker.publish("g-hung", seq, None, seq)
    spent = time.monotonic() - t0
    assert spent < 1.0, f"20 notices took {spent:.2f} s to publish"  # in the saving thread each waited 2 s
    assert broker.flush(timeout=30.0)  # the publisher gives up on them after Redis's socket timeout
    assert broker.unpublished == 20


def test_the_notices_waiting_for_redis_are_bounded(silent_redis, monkeypatch):
    monkeypatch.setattr(broker_module, "PUBLISH_BACKLOG", 10)
    broker = RedisBroker(silent_redis)
    for seq in range(1, 16):
        broker.publish("g-hung", seq)
    assert broker.unpublished >= 5  # dropped at once: nothing grows while Redis hangs
    assert broker.flush(timeout=30.0)
    assert broker.unpublished == 15


def test_notices_reach_redis_in_the_order_they_were_published(redis_url):  # noqa: F811
    broker = RedisBroker(redis_url)
    count = broker_module.PUBLISH_BATCH * 2 + 7  # more than one pipeline's worth
    with broker.listen_all() as listener:
        for seq in range(1, count + 1):
            broker.publish("g-order", seq, float(seq), seq)
        assert broker.flush(timeout=10.0)
        heard: list[Any] = []
        deadline = time.monotonic() + 10
        while len(heard) < count and time.monotonic() < deadline:
            heard += [n for n in listener.get(timeout=0.5) if n.game_id == "g-order"]
    assert [n.seq for n in heard] == list(range(1, count + 1))
    assert [n.deadline for n in heard[:3]] == [1.0, 2.0, 3.0]
    assert broker.unpublished == 0


@pytest.mark.parametrize("other", ["aegis-b:", "aeg*:"])
def test_two_deployments_sharing_a_redis_hear_only_their_own_notices(redis_url, other):  # noqa: F811
    """``AEGIS_REDIS_PREFIX`` keeps each deployment's live channels apart, as it keeps its projections and limits:
    a stream of one deployment never wakes for, nor is told the deadline of, a game of the other. A prefix holding
    a glob character ("aeg*:") must not make its pattern match the default deployment's channels."""
    ours, theirs = RedisBroker(redis_url), RedisBroker(redis_url, other)
    with ours.listen_all() as everything, ours.listen("g-shared") as one, theirs.listen_all() as their_all:
        theirs.publish("g-shared", 7, 12.5, 7)
        assert theirs.flush(timeout=10.0)
        assert [n.seq for n in their_all.get(timeout=2.0) if n.game_id == "g-shared"] == [7]
        assert one.get(timeout=0.5) is None
        assert [n for n in everything.get(timeout=0.5) if n.game_id == "g-shared"] == []
        ours.publish("g-shared", 3)
        assert ours.flush(timeout=10.0)
        assert one.get(timeout=2.0) == 3
        assert [n.seq for n in everything.get(timeout=2.0) if n.game_id == "g-shared"] == [3]
        assert [n for n in their_all.get(timeout=0.5) if n.game_id == "g-shared"] == []
