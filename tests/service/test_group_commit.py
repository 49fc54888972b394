"""Group commit (``service/group_commit.py``): saves of different games made at the same time are written together
in one transaction, each caller gets the recordings of its own events, and when one of them lost a race with
another process, only that one is refused: the others are stored."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from eventsourcing.application import Application, ProcessingEvent
from eventsourcing.domain import Aggregate
from eventsourcing.persistence import IntegrityError, Recording

from aegis.service.group_commit import GroupCommit


class Tally(Aggregate):
    class Counted(Aggregate.Event):
        n: int

    def count(self, n: int) -> None:
        self.trigger_event(self.Counted, n=n)


class Slow:
    """Application._record, held up while a gate is closed: saves pile up behind the first one."""

    def __init__(self, app: Application) -> None:
        self.app = app
        self.gate = threading.Event()
        self.calls: list[int] = []  # how many events each transaction wrote

    def __call__(self, processing: ProcessingEvent[Any]) -> list[Recording[Any]]:
        self.gate.wait(5)
        self.calls.append(len(processing.events))
        return self.app._record(processing)


def _processing(*aggregates: Aggregate) -> ProcessingEvent[Any]:
    processing: ProcessingEvent[Any] = ProcessingEvent()
    processing.collect_events(*aggregates)
    return processing


@pytest.fixture(params=["sqlite", "postgres"])
def app(request, tmp_path):
    if request.param == "sqlite":
        application = Application(env={"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(tmp_path / "t.db")})
        yield application
        application.close()
        return
    from tests.conftest import pg_schema

    with pg_schema() as env:
        from aegis.service.postgres import FACTORY_TOPIC

        application = Application(env={**env, "PERSISTENCE_MODULE": FACTORY_TOPIC})
        yield application
        application.close()


def _save_together(commits: GroupCommit, slow: Slow, saves: list[ProcessingEvent[Any]]) -> list[Any]:
    """The first save waits at the gate; the others arrive meanwhile; then the gate opens."""
    results: list[Any] = [None] * len(saves)

    def run(i: int) -> None:
        try:
            results[i] = commits.record(saves[i])
        except Exception as err:
            results[i] = err

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(saves))]
    threads[0].start()
    while not slow.calls and not commits._writing:
        pass
    for t in threads[1:]:
        t.start()
    while len(commits._queue) < len(saves) - 1:  # every other save waits behind the first
        threading.Event().wait(0.005)
    slow.gate.set()
    for t in threads:
        t.join(10)
    return results


def test_saves_that_wait_together_are_written_in_one_transaction_and_each_gets_its_own_recordings(app):
    slow = Slow(app)
    commits = GroupCommit(slow)
    tallies = [Tally() for _ in range(6)]
    for i, t in enumerate(tallies):
        t.count(i)
    results = _save_together(commits, slow, [_processing(t) for t in tallies])
    assert slow.calls == [2, 10], "the first alone, then the five that waited in one transaction"
    assert commits.joint == 1
    for t, recordings in zip(tallies, results, strict=True):
        assert [r.domain_event.originator_id for r in recordings] == [t.id, t.id]
        assert app.repository.get(t.id).version == 2
    ids = [r.notification.id for rec in results for r in rec]
    assert len(set(ids)) == 12


def test_a_save_that_lost_a_race_is_refused_alone_and_the_others_of_its_batch_are_stored(app):
    slow = Slow(app)
    commits = GroupCommit(slow)
    first, second, third, loser = Tally(), Tally(), Tally(), Tally()
    app.save(loser)
    stale = app.repository.get(loser.id)
    loser.count(1)
    app.save(loser)  # another process saved version 2 first
    stale.count(99)
    for t in (first, second, third):
        t.count(7)
    results = _save_together(commits, slow, [_processing(first), _processing(second), _processing(stale), _processing(third)])
    assert isinstance(results[2], IntegrityError)
    assert [isinstance(r, list) for r in results] == [True, True, False, True]
    for t in (first, second, third):
        assert app.repository.get(t.id).version == 2
    assert app.repository.get(loser.id).version == 2 and commits.joint == 0


def test_a_save_that_cannot_be_stored_fails_alone_and_the_others_of_its_batch_are_stored(app):
    slow = Slow(app)
    commits = GroupCommit(slow)
    first, bad, last, opening = Tally(), Tally(), Tally(), Tally()
    for t in (first, last, opening):
        t.count(1)
    bad.count(object())  # type: ignore[arg-type] - no transcoding for it: its save fails before it reaches the store
    results = _save_together(commits, slow, [_processing(opening), _processing(first), _processing(bad), _processing(last)])
    assert isinstance(results[2], Exception) and not isinstance(results[2], IntegrityError)
    assert [isinstance(r, list) for r in results] == [True, True, False, True]
    for t in (opening, first, last):
        assert app.repository.get(t.id).version == 2
