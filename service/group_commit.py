"""Group commit: saves that arrive while another is being written are written together next, in one transaction.

Every save into the store is one transaction, and on PostgreSQL one at a time in the whole store: each takes the
events table's lock (the library's, so that notification ids commit in order) and holds it through its commit,
including the flush of the write-ahead log. Under the 200-game load that lock was busy 85% of the time and the
saves queued behind it. Here the first save to arrive writes at once (a save alone waits for nothing); those that
arrive meanwhile wait, and the next of them writes all of them in one transaction: one lock, one flush. The pattern
is the databases' own group commit, done where the saves are made.

Nothing changes for a save's caller. Each gets the recordings of its own events, or the error its own save would
have raised: when a joint write fails (one of the games was saved by another process first, an ``IntegrityError``;
or anything else), each save of it is written again alone, so only the one that lost the race is refused (and a
store that is away refuses each, the breaker at once after the first).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from eventsourcing.application import ProcessingEvent
from eventsourcing.persistence import Recording

MOST = 64  # saves written in one transaction at most
Record = Callable[[ProcessingEvent[Any]], list[Recording[Any]]]


class _Save:
    __slots__ = ("done", "error", "processing", "recordings")

    def __init__(self, processing: ProcessingEvent[Any]):
        self.processing = processing
        self.recordings: list[Recording[Any]] = []
        self.error: BaseException | None = None
        self.done = False


class GroupCommit:
    def __init__(self, record: Record):
        self._record = record  # writes one ProcessingEvent in one transaction (``Application._record``)
        self._changed = threading.Condition()
        self._queue: list[_Save] = []
        self._writing = False
        self.joint = 0  # transactions that wrote more than one save (the tests read it)

    def record(self, processing: ProcessingEvent[Any]) -> list[Recording[Any]]:
        """Write the events of ``processing``, alone or with others that wait at the same time."""
        mine = _Save(processing)
        with self._changed:
            self._queue.append(mine)
            while not mine.done and self._writing:
                self._changed.wait()
            if not mine.done:  # nobody is writing: this thread writes what waits, its own save among it
                self._writing = True
                batch, self._queue = self._queue[:MOST], self._queue[MOST:]
        if not mine.done:
            try:
                self._write(batch)
            finally:
                with self._changed:
                    self._writing = False
                    for save in batch:
                        save.done = True
                    self._changed.notify_all()
        if mine.error is not None:
            raise mine.error
        return mine.recordings

    def _write(self, batch: list[_Save]) -> None:
        if len(batch) > 1:
            joint: ProcessingEvent[Any] = ProcessingEvent()
            for save in batch:
                joint.events.extend(save.processing.events)
                joint.aggregates.update(save.processing.aggregates)
            try:
                recordings = self._record(joint)
            except BaseException:
                pass  # one of them lost a race, or cannot be stored: each is written again alone, to its own end
            else:
                self.joint += 1
                by_event = {id(r.domain_event): r for r in recordings}
                for save in batch:
                    save.recordings = [by_event[id(e)] for e in save.processing.events]
                return
        for save in batch:
            try:
                save.recordings = self._record(save.processing)
            except BaseException as err:
                save.error = err
