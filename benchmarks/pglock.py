"""The PostgreSQL recorder's table lock, watched from the server while the load plays.

``eventsourcing`` (``PostgresApplicationRecorder._lock_table``) takes ``LOCK TABLE <events> IN EXCLUSIVE MODE``
at the start of every save's transaction and holds it to the commit, so that notification ids commit in the
order they are issued (a reader of the notification log never passes over a gap filled in later). EXCLUSIVE
conflicts with itself: one save at a time, in the whole database, holds it; every other save waits.

``LockSampler`` polls ``pg_locks`` joined to ``pg_stat_activity`` every ``interval`` seconds on a connection of
its own, looking only at the ``ExclusiveLock`` on this run's events table (a fresh schema: no other work on
the machine is counted). Each sample says how many sessions wait for the lock (``granted`` false; their
``wait_event_type`` is ``Lock``, ``wait_event`` ``relation``) and what the session holding it is doing: running
(on the CPU or an LWLock), waiting on I/O (the commit's WAL flush), granted the lock but not yet running again
(``handoff``: PostgreSQL grants the next waiter the lock as the holder lets go; the waiter then needs a CPU to
notice, and until it clears its wait it still shows ``Lock``/``relation``; a read of ``pg_locks`` and
``pg_stat_activity`` a moment apart shows the same), waiting on another heavyweight lock (e.g. the NOTIFY
queue's at commit), waiting for the service's next message within a statement (``Client``), or
``idle in transaction`` (PostgreSQL waits for the service's next statement, the ``COMMIT`` after the insert's
ids came back: the lock is held while the Python process is busy or descheduled).

From the samples (Little's law; every save takes the lock exactly once): the mean number of waiters is
saves/s x mean wait, and the fraction of samples with a holder (the lock's utilisation) is saves/s x mean hold.
So the share of a save's time in PostgreSQL spent waiting for the lock is waiters / (waiters + held), and the
lock could pass at most saves / (held fraction x seconds) saves per second if holding it stays as long: the
ceiling the lock puts on throughput, set against the saves per second the run achieved. The saves are counted
exactly afterwards: the distinct transaction ids (``xmin``) of the events stored while the sampler ran.

Not available here, hence the sampling: ``pg_stat_statements`` is not in ``shared_preload_libraries``, and
``log_lock_waits`` logs only waits longer than ``deadlock_timeout`` (1 s), far above a save's.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections import Counter
from typing import Any

# the holder's state, from pg_stat_activity: a name for each
HOLDER_STATES = ("running", "io", "handoff", "lock", "client", "idle_in_transaction", "other")

# the table's EXCLUSIVE lock (kind 't'), and sessions of this database waiting for the lock that NOTIFY takes at
# commit (kind 'n': one for the whole cluster, class pg_database, object 0), which serialises notifying commits too
_SAMPLE = """
SELECT CASE WHEN l.locktype = 'relation' THEN 't' ELSE 'n' END, l.granted, a.state, a.wait_event_type, a.wait_event
FROM pg_locks l LEFT JOIN pg_stat_activity a ON a.pid = l.pid
WHERE (l.locktype = 'relation' AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
       AND l.relation = %s AND l.mode = 'ExclusiveLock')
   OR (l.locktype = 'object' AND l.classid = 'pg_database'::regclass AND l.objid = 0 AND NOT l.granted
       AND a.datname = current_database())
"""


def _holder_state(state: str | None, wait_type: str | None, wait_event: str | None) -> str:
    if state == "idle in transaction":
        return "idle_in_transaction"
    if state != "active":
        return "other"
    if wait_type is None or wait_type == "LWLock":
        return "running"
    if wait_type == "IO":
        return "io"
    if wait_type == "Lock" and wait_event == "relation":
        return "handoff"  # granted the lock as the last holder let go, not yet run again (it needs a CPU)
    if wait_type == "Lock":
        return "lock"
    if wait_type == "Client":
        return "client"
    return "other"


class LockSampler:
    """Samples the events table's EXCLUSIVE lock in the schema of ``env`` (the service's PostgreSQL settings)."""

    def __init__(self, env: dict[str, str], interval: float = 0.02):
        self.env = env
        self.schema = env.get("POSTGRES_SCHEMA") or "public"
        self.interval = interval
        self.samples = 0
        self.with_waiter = 0
        self.with_holder = 0
        self.waiters_total = 0
        self.waiters_max = 0
        self.waiters_hist: Counter[int] = Counter()
        self.holder_states: Counter[str] = Counter()
        self.waiter_events: Counter[str] = Counter()
        self.holder_details: Counter[str] = Counter()
        self.notify_waiters_total = 0
        self.with_notify_waiter = 0
        self.errors: list[str] = []
        self.table = ""
        self.seconds = 0.0
        self.first_id = 0
        self.last_id = 0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._conn: Any = None
        self._oid = 0
        self._t0 = time.perf_counter()
        self._saves = 0
        self._events = 0

    def _connect(self) -> Any:
        import psycopg

        return psycopg.connect(
            host=self.env.get("POSTGRES_HOST", "127.0.0.1"),
            port=self.env.get("POSTGRES_PORT", "5432"),
            dbname=self.env["POSTGRES_DBNAME"],
            user=self.env.get("POSTGRES_USER", "postgres"),
            password=self.env.get("POSTGRES_PASSWORD", ""),
            autocommit=True,
            connect_timeout=5,
        )

    def _events_table(self, conn: Any) -> tuple[int, str]:
        """The application recorder's table in the schema: the one with a ``notification_id`` column."""
        row = conn.execute(
            "SELECT c.oid, c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
            "JOIN pg_attribute a ON a.attrelid = c.oid "
            "WHERE n.nspname = %s AND c.relkind = 'r' AND a.attname = 'notification_id' AND NOT a.attisdropped "
            "ORDER BY c.relname LIMIT 1",
            (self.schema,),
        ).fetchone()
        if row is None:
            raise RuntimeError(f"no events table (with notification_id) in schema {self.schema}")
        return int(row[0]), str(row[1])

    def _max_id(self, conn: Any) -> int:
        query = f'SELECT coalesce(max(notification_id), 0) FROM "{self.schema}"."{self.table}"'
        return int(conn.execute(query).fetchone()[0])

    def start(self) -> None:
        """Start sampling; a sampler that cannot start says why in ``sample_errors`` and takes no samples."""
        self._t0 = time.perf_counter()
        try:
            self._conn = self._connect()
            self._oid, self.table = self._events_table(self._conn)
            self.first_id = self._max_id(self._conn)
        except Exception as err:
            self.errors.append(f"not started: {type(err).__name__}: {err}")
            return
        self._thread = threading.Thread(target=self._loop, name="pg-lock-sampler", daemon=True)
        self._thread.start()

    def _loop(self) -> None:
        next_at = time.perf_counter()
        while not self._stop.is_set():
            try:
                rows = self._conn.execute(_SAMPLE, (self._oid,)).fetchall()
            except Exception as err:  # a sample lost is counted, never fatal to the run
                if len(self.errors) < 5:
                    self.errors.append(f"{type(err).__name__}: {err}")
                rows = None
            if rows is not None:
                self._count(rows)
            next_at += self.interval
            self._stop.wait(max(0.0, next_at - time.perf_counter()))
            next_at = max(next_at, time.perf_counter() - self.interval)  # behind (a busy machine): do not burst

    def _count(self, rows: list[tuple[str, bool, str | None, str | None, str | None]]) -> None:
        notify = [r for r in rows if r[0] == "n"]
        waiters = [r[1:] for r in rows if r[0] == "t" and not r[1]]
        holders = [r[1:] for r in rows if r[0] == "t" and r[1]]
        self.samples += 1
        self.notify_waiters_total += len(notify)
        self.with_notify_waiter += bool(notify)
        self.waiters_total += len(waiters)
        self.waiters_max = max(self.waiters_max, len(waiters))
        self.waiters_hist[len(waiters)] += 1
        if waiters:
            self.with_waiter += 1
        for w in waiters:
            self.waiter_events[f"{w[2]}:{w[3]}"] += 1
        if holders:  # EXCLUSIVE conflicts with itself: at most one
            self.with_holder += 1
            state, wait_type, wait_event = holders[0][1:]
            self.holder_states[_holder_state(state, wait_type, wait_event)] += 1
            self.holder_details[f"{state}/{wait_type}:{wait_event}"] += 1

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=10)
        self.seconds = time.perf_counter() - self._t0
        if self._thread is None:
            return
        with contextlib.suppress(Exception):
            self.last_id = self._max_id(self._conn)
            saves, events = self._conn.execute(
                f'SELECT count(DISTINCT xmin::text), count(*) FROM "{self.schema}"."{self.table}" '
                "WHERE notification_id > %s AND notification_id <= %s",
                (self.first_id, self.last_id),
            ).fetchone()
            self._saves, self._events = int(saves), int(events)
        with contextlib.suppress(Exception):
            self._conn.close()

    def result(self) -> dict[str, Any]:
        """The figures (see the module's docstring); fractions are of the samples."""
        n = self.samples or 1
        saves = self._saves
        seconds = self.seconds or 1.0
        waiters_mean = self.waiters_total / n
        held = self.with_holder / n
        per_save = seconds / saves * 1000 if saves else 0.0
        return {
            "table": f"{self.schema}.{self.table}",
            "interval_ms": self.interval * 1000,
            "samples": self.samples,
            "sampled_s": self.seconds,
            "mean_interval_ms": self.seconds / n * 1000,
            "sample_errors": self.errors,
            "saves": saves,
            "events": self._events,
            "saves_per_s": saves / seconds,
            "waiting_fraction": self.with_waiter / n,
            "waiters_mean": waiters_mean,
            "waiters_max": self.waiters_max,
            "waiters_histogram": {str(k): v for k, v in sorted(self.waiters_hist.items())},
            "waiter_wait_events": dict(self.waiter_events.most_common()),
            "held_fraction": held,
            "holder_states": {s: self.holder_states[s] / n for s in HOLDER_STATES},
            "holder_details": dict(self.holder_details.most_common()),
            "wait_share_of_locked_save": waiters_mean / (waiters_mean + held) if waiters_mean + held else 0.0,
            "wait_ms_per_save": waiters_mean * per_save,
            "hold_ms_per_save": held * per_save,
            "notify_waiting_fraction": self.with_notify_waiter / n,
            "notify_waiters_mean": self.notify_waiters_total / n,
            "lock_ceiling_saves_per_s": saves / (held * seconds) if saves and held else 0.0,
        }
