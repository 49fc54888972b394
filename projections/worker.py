"""Running the projections: follow the store's notification log from the view store's position, project
each run of new events, commit it with its position, and start over cleanly when the view store was
emptied behind our back. Also the full rebuild.

New events are found with the ``eventsourcing`` subscription (LISTEN/NOTIFY) on PostgreSQL. SQLite's
recorder has no subscription, so there the worker reads the log when the service in the same process
says it saved (``wake``) and, for other processes, every ``poll`` seconds.
"""

from __future__ import annotations

import contextlib
import logging
import os
import queue
import socket
import threading
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from eventsourcing.application import Application
from eventsourcing.persistence import Notification

from aegis.projections.store import ViewStore
from aegis.projections.views import KEEP_GAMES, TOPICS, Projector
from aegis.service.games import GameStore
from aegis.service.outage import Outage

log = logging.getLogger(__name__)
BATCH = 500
LEASE_SECONDS = 5.0  # a projector that stops is replaced by another process's after this (renewed at every step)


class Worker:
    def __init__(self, app: GameStore, store: ViewStore, *, poll: float = 0.05, linger: float = 0.05, keep: int = KEEP_GAMES):
        self.app = app
        self.store = store
        self.projector = Projector(app, store, keep)  # ``keep``: games kept folded (AEGIS_CACHE_GAMES)
        self.poll = poll
        # after a save's wake, how long to let further saves gather before reading the log: one step then projects
        # them all, instead of a store read per command competing with the commands; a read of a projection never
        # waits for it (it catches up itself, ``catch_up_unless_busy``)
        self.linger = linger
        self.wake = threading.Event()
        self.stopping = threading.Event()
        self.applied = 0  # events applied since start
        self._position = 0
        self._thread: threading.Thread | None = None
        self._step = threading.Lock()
        self.owner = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex}"  # this projector, for the store's lease

    def catch_up_locked(self) -> int:
        """``catch_up`` from any thread (the API's reads and saves call it in the embedded setup)."""
        with self._step:
            return self.catch_up()

    @contextlib.contextmanager
    def held(self) -> Iterator[None]:
        """No projection step runs while this is held (one under way is waited for): what the store benchmark holds
        while it times a bare save beside the service, so that the projector's work is not timed against it."""
        with self._step:
            yield

    def catch_up_unless_busy(self) -> int:
        """``catch_up`` unless another thread is doing it (a read then waits for the position instead): reads
        never queue behind each other on the store, which matters when it is slow or away."""
        if not self._step.acquire(blocking=False):
            return 0
        try:
            return self.catch_up()
        finally:
            self._step.release()

    # ----- one step -----

    def catch_up(self) -> int:
        """Apply everything stored after the view store's position; returns how many events it projected (0 while
        another process's projector holds the store's lease: it does the work, ``ViewStore.lead``)."""
        if not self.store.lead(self.owner, LEASE_SECONDS):
            return 0
        end = self.app.recorder.max_notification_id() or 0
        total = 0
        while self._sync_position() < end:
            total += self.step(end)
        return total

    def step(self, end: int) -> int:
        """Project the next events of ``TOPICS`` up to the log's position ``end``, at most ``BATCH`` of them, and move
        the position on past every event read or passed over; returns how many were projected. Every id up to ``end``
        is committed once ``end`` is seen: the store commits saves in the order of their ids (its table lock on
        PostgreSQL, one writer at a time on SQLite), so no event is passed over before it is there."""
        batch = self.app.recorder.select_notifications(
            start=self._position, limit=BATCH, stop=end, topics=TOPICS, inclusive_of_start=False
        )
        self._apply(batch, end if len(batch) < BATCH else batch[-1].id)
        return len(batch)

    def _sync_position(self) -> int:
        """The store's position; if it went back (Redis flushed), forget what we folded and rebuild."""
        stored = self.store.position()
        if stored < self._position:
            log.warning("the view store is behind us (%s < %s): projecting again from %s", stored, self._position, stored)
            self.projector.forget()
        if stored != self._position:
            self.projector.forget()  # another worker moved the store on: fold again from the store
        self._position = stored
        return stored

    def _apply(self, notifications: Sequence[Notification], position: int) -> None:
        writes = self.projector.project(notifications)
        if not self.store.commit(writes, position, after=self._position):
            self.projector.forget()  # someone else applied these first: re-read their position next time
            return
        self._position = position
        self.applied += len(notifications)

    # ----- running -----

    def run(self, on_error: Callable[[BaseException], None] | None = None) -> None:
        """Project until ``stop``. Store outages are retried; the position makes the retry safe."""
        source: _subscribed | None = None
        subscribable: bool | None = None
        # 0.5 s doubling to 30 s between attempts, the first failure logged and then a line at growing intervals
        outage = Outage(log, "projection step failed, retrying")
        try:
            while not self.stopping.is_set():
                try:
                    if subscribable is None:
                        subscribable = self._can_subscribe()
                        source = _subscribed(self) if subscribable else None
                    self.catch_up_locked()
                except Exception as err:  # Redis or the database away: wait and try again, less and less often
                    self.projector.forget()
                    if on_error:
                        on_error(err)
                    self.stopping.wait(outage.failed(err))
                    continue
                outage.succeeded()
                if source is not None and not source.thread.is_alive():
                    with contextlib.suppress(Exception):
                        source.stop()  # the database dropped the subscription: subscribe again next step
                    source, subscribable = None, None
                    continue
                if source is not None:
                    source.wait(self.poll * 20)
                else:
                    if self.wake.wait(self.poll):
                        self.stopping.wait(self.linger)  # let the saves of the next moments join this one's step
                    self.wake.clear()
        finally:
            if source is not None:
                source.stop()

    def start(self) -> Worker:
        self._thread = threading.Thread(target=self.run, name="aegis-projections", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self.stopping.set()
        self.wake.set()
        if self._thread is not None:
            self._thread.join(timeout=10)

    def _can_subscribe(self) -> bool:
        try:
            sub = self.app.recorder.subscribe(gt=self.app.recorder.max_notification_id())
        except NotImplementedError:
            return False
        sub.stop()
        return True

    def wait_for(self, position: int, timeout: float = 5.0) -> bool:
        """Block until the view store has applied ``position`` (for tests and read-your-writes)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.store.position() >= position:
                return True
            time.sleep(0.005)
        return False


class _subscribed:
    """Wakes the worker when the database notifies new events (PostgreSQL LISTEN/NOTIFY)."""

    def __init__(self, worker: Worker):
        self.worker = worker
        self.heard: queue.Queue[int] = queue.Queue()
        self.subscription = worker.app.recorder.subscribe(gt=worker.app.recorder.max_notification_id())
        self.thread = threading.Thread(target=self._listen, name="aegis-projections-listen", daemon=True)
        self.thread.start()

    def _listen(self) -> None:
        try:
            for n in self.subscription:
                self.heard.put(n.id)
        except Exception:  # the worker's own loop notices the database going away
            log.debug("subscription ended", exc_info=True)

    def wait(self, timeout: float) -> None:
        try:
            self.heard.get(timeout=timeout)
            while True:
                self.heard.get_nowait()
        except queue.Empty:
            return

    def stop(self) -> None:
        self.subscription.stop()


def rebuild(app: GameStore, store: ViewStore, progress: Callable[[int, int], None] | None = None) -> dict[str, Any]:
    """Empty the view store and project every stored event again: those of ``TOPICS`` (the others change no
    projection, and are passed over unread). Returns ``projected`` (events), ``position`` (the log's end) and the time;
    ``progress(position, end)`` after each step."""
    store.clear()
    worker = Worker(app, store)
    last = app.recorder.max_notification_id() or 0
    t0 = time.perf_counter()
    projected = 0
    while worker._sync_position() < last:
        projected += worker.step(last)
        if progress:
            progress(worker._position, last)
    return {"projected": projected, "position": last, "seconds": time.perf_counter() - t0}


def read_only(app: Application) -> dict[str, Any]:
    """Read every stored event without projecting it (the floor a rebuild is measured against)."""
    t0 = time.perf_counter()
    done, position = 0, 0
    while True:
        batch = app.recorder.select_notifications(start=position, limit=BATCH, inclusive_of_start=False)
        if not batch:
            break
        for n in batch:
            app.mapper.to_domain_event(n)
        done += len(batch)
        position = batch[-1].id
    seconds = time.perf_counter() - t0
    return {"events": done, "seconds": seconds, "events_per_s": done / seconds if seconds else 0.0}
