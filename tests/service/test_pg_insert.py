"""The PostgreSQL store saves events in one statement (``service/postgres.py``): the library's table lock, its
NOTIFY and its INSERT run in a function, in the statement's own transaction, so the lock is never held across a
round trip to the service. These tests check what that must keep from the library: the lock is taken (so
notification ids commit in the order they are issued), a concurrent save of the same version is refused and
leaves nothing, and the store goes on working after a refusal."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest
from eventsourcing.application import Application
from eventsourcing.domain import Aggregate
from eventsourcing.persistence import IntegrityError

from aegis.service.postgres import FACTORY_TOPIC
from tests.conftest import pg_schema


class Tally(Aggregate):
    class Counted(Aggregate.Event):
        n: int

    def count(self, n: int) -> None:
        self.trigger_event(self.Counted, n=n)


class Tallies(Application):
    name = "Tallies"


@pytest.fixture
def store() -> Iterator[tuple[Tallies, dict[str, str]]]:
    with pg_schema() as env:
        app = Tallies(env={**env, "PERSISTENCE_MODULE": FACTORY_TOPIC})
        try:
            yield app, env
        finally:
            app.close()


def _connect(env: dict[str, str]) -> psycopg.Connection[Any]:
    return psycopg.connect(
        host=env["POSTGRES_HOST"], port=env["POSTGRES_PORT"], dbname=env["POSTGRES_DBNAME"], user=env["POSTGRES_USER"]
    )


def test_saves_are_numbered_in_order_and_a_concurrent_save_of_the_same_version_is_refused_and_leaves_nothing(store):
    app, _ = store
    tally = Tally()
    tally.count(1)
    app.save(tally)
    stale = app.repository.get(tally.id)
    tally.count(2)
    app.save(tally)
    stale.count(99)
    with pytest.raises(IntegrityError):
        app.save(stale)
    tally.count(3)
    app.save(tally)  # the store goes on after the refusal
    kept = [n for n in app.recorder.select_notifications(1, 100)]
    assert [n.originator_version for n in kept] == [1, 2, 3, 4]
    assert [n.id for n in kept] == sorted(n.id for n in kept)
    assert [e.n for e in app.repository.get(tally.id).collect_events()] == [] and app.repository.get(tally.id).version == 4
    assert b'"n":99' not in b"".join(n.state for n in kept)


def test_a_save_takes_the_tables_exclusive_lock_and_waits_for_a_writer_that_has_not_committed(store):
    """EXCLUSIVE mode conflicts with the ROW EXCLUSIVE lock of any uncommitted insert: a save that took no table
    lock (a plain INSERT) would not wait for one."""
    app, env = store
    table = f"{env['POSTGRES_SCHEMA']}.tallies_events"
    tally = Tally()
    app.save(tally)
    tally.count(1)
    with _connect(env) as other:
        other.execute(f"LOCK TABLE {table} IN ROW EXCLUSIVE MODE")  # as an insert of another game's events would
        done = threading.Event()
        saver = threading.Thread(target=lambda: (app.save(tally), done.set()))
        saver.start()
        waited = False
        for _ in range(100):  # until the save is seen waiting for the lock (it cannot finish before)
            waiting = other.execute(
                "SELECT mode FROM pg_locks WHERE relation = %s::regclass AND NOT granted", (table,)
            ).fetchall()
            if ("ExclusiveLock",) in waiting:
                waited = True
                break
            time.sleep(0.02)
        assert waited and not done.is_set(), "the save did not wait for the table's lock"
        other.rollback()  # the other writer ends: the save goes on
        saver.join(timeout=10)
    assert done.is_set()
    assert app.repository.get(tally.id).version == 2
