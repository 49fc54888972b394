"""The store's breaker (``service/breaker.py``): after a failure it refuses at once for its cooldown, then lets
exactly one attempt through; that attempt's success closes it, its failure opens it again. And the service's
PostgreSQL store is the failing-fast one (``service/postgres.py``) for both events and snapshots."""

from __future__ import annotations

import time

import pytest
from eventsourcing.persistence import OperationalError

from aegis.service.breaker import Breaker


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_refuses_during_the_cooldown_then_lets_one_attempt_try():
    clock = Clock()
    breaker = Breaker(cooldown=1.0, clock=clock)
    assert breaker.allow() == "closed" and not breaker.is_open
    breaker.failed()
    assert breaker.is_open and breaker.allow() is None
    clock.now += 0.99
    assert breaker.allow() is None
    clock.now += 0.02
    assert breaker.allow() == "trial"
    assert breaker.allow() is None, "only one attempt tries while the store may still be away"
    breaker.failed()  # the trial failed: another full cooldown
    clock.now += 0.5
    assert breaker.allow() is None
    clock.now += 0.6
    assert breaker.allow() == "trial"
    breaker.succeeded()
    assert not breaker.is_open and breaker.allow() == "closed" and breaker.allow() == "closed"


def test_a_success_elsewhere_closes_it_and_success_when_closed_changes_nothing():
    breaker = Breaker(cooldown=5.0, clock=Clock())
    breaker.succeeded()
    assert breaker.allow() == "closed"
    breaker.failed()
    breaker.succeeded()  # a statement that was already running when it opened came back fine
    assert breaker.allow() == "closed"


def test_the_postgres_store_uses_the_failing_fast_recorders(postgres_env):
    from aegis.service.games import GameStore
    from aegis.service.postgres import FailFastAggregateRecorder, FailFastApplicationRecorder, _breaker
    from aegis.service.settings import load

    settings = load(postgres_env)
    assert settings.persistence == "eventsourcing.postgres"
    store = GameStore(settings)
    try:
        assert isinstance(store.recorder, FailFastApplicationRecorder)
        assert isinstance(store.snapshots.recorder, FailFastAggregateRecorder)
        assert _breaker(store.recorder) is _breaker(store.snapshots.recorder)
        assert store.recorder.max_notification_id() is None  # an empty store answers
        breaker = _breaker(store.recorder)
        breaker.failed()  # as after a statement the database did not answer
        with pytest.raises(OperationalError, match="not trying again yet"):
            store.recorder.max_notification_id()
        breaker.clock = lambda: time.monotonic() + 2  # the cooldown is over: one statement tries, and succeeds
        assert store.recorder.max_notification_id() is None and not breaker.is_open
    finally:
        store.close()
