"""PostgreSQL specifics of the service: the library's recorders made to fail fast, and one process at a time
creating the tables.

Failing fast. ``eventsourcing`` retries every statement up to 10 times when the database does not answer,
each attempt waiting up to ``POSTGRES_CONNECT_TIMEOUT`` for a connection: while PostgreSQL was away a
request could hang for half a minute (the snapshot read alone took 20 s), and requests piled up behind it.
Here the recorders (events and snapshots) retry a statement once, for a pooled connection the database
dropped, and share a ``Breaker``: after a failure every statement fails at once for ``COOLDOWN`` seconds,
then one is let through to try. The API answers 503 with ``Retry-After`` meanwhile; the client retries
(commands with their ``Idempotency-Key``), and the service recovers by itself when the database is back.
``service.settings`` chooses this factory (``FACTORY_TOPIC``) for ``PERSISTENCE_MODULE=eventsourcing.postgres``.

Creating the tables. The library creates them (``CREATE TABLE IF NOT EXISTS``) when an application starts.
PostgreSQL does not make that safe when several processes do it at once on a new database (a duplicate key
in ``pg_type``): ``aegis serve --workers 4`` or ``docker compose up`` then lost a worker and gunicorn
stopped. ``creating`` holds an advisory lock around the start of the store, so the processes create the
tables one after the other.
"""

from __future__ import annotations

import contextlib
import functools
import zlib
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from eventsourcing.persistence import InterfaceError, OperationalError, StoredEvent
from eventsourcing.postgres import PostgresAggregateRecorder, PostgresApplicationRecorder, PostgresDatastore, PostgresFactory
from eventsourcing.utils import retry
from psycopg.sql import SQL, Identifier

from aegis.service.breaker import Breaker

ATTEMPTS = 2
COOLDOWN = 1.0  # seconds; the API's Retry-After says the same
FACTORY_TOPIC = f"{__name__}:FailFastPostgresFactory"
_DOWN = (InterfaceError, OperationalError)


def _breaker(recorder: Any) -> Breaker:
    """The breaker of the recorder's store (its datastore is shared by the events and the snapshots)."""
    datastore = recorder.datastore
    found = datastore.__dict__.get("aegis_breaker")
    if found is None:
        found = datastore.__dict__.setdefault("aegis_breaker", Breaker(COOLDOWN))
    return found


def _fail_fast(library: Callable[..., Any]) -> Callable[..., Any]:
    """The library's statement with one retry instead of ten, behind the store's breaker."""
    inner: Callable[..., Any] = getattr(library, "__wrapped__", library)  # the library's retry wraps its own
    bounded = retry(_DOWN, max_attempts=ATTEMPTS, wait=0.1)(inner)

    @functools.wraps(inner)
    def statement(self: Any, *args: Any, **kwargs: Any) -> Any:
        breaker = _breaker(self)
        if breaker.allow() is None:
            raise OperationalError("PostgreSQL did not answer a moment ago; not trying again yet")
        try:
            result = bounded(self, *args, **kwargs)
        except _DOWN:
            breaker.failed()
            raise
        except Exception:
            breaker.succeeded()  # the database answered (with a refusal, e.g. a concurrent save)
            raise
        breaker.succeeded()
        return result

    return statement


class FailFastAggregateRecorder(PostgresAggregateRecorder):
    """The snapshots."""

    insert_events = _fail_fast(PostgresAggregateRecorder.insert_events)
    select_events = _fail_fast(PostgresAggregateRecorder.select_events)


class FailFastApplicationRecorder(PostgresApplicationRecorder):
    """The events and their notification log, saved in one statement (``insert_events``)."""

    def __init__(self, datastore: PostgresDatastore, **kwargs: Any) -> None:
        super().__init__(datastore, **kwargs)
        self.locked_insert_name = f"{self.events_table_name}_insert_locked"
        self.check_identifier_length(self.locked_insert_name)
        names = {
            "function": Identifier(self.locked_insert_name),
            "schema": Identifier(self.datastore.schema),
            "table": Identifier(self.events_table_name),
            "event": Identifier(self.stored_event_type_name),
            "channel": Identifier(self.channel_name),
        }
        self.sql_create_statements.append(
            SQL(
                "CREATE OR REPLACE FUNCTION {schema}.{function}(events {schema}.{event}[]) "
                "RETURNS SETOF bigint LANGUAGE plpgsql AS $BODY$ BEGIN "
                "SET LOCAL lock_timeout = '{lock_timeout}s'; "
                "LOCK TABLE {schema}.{table} IN EXCLUSIVE MODE; "
                "NOTIFY {channel}; "
                "RETURN QUERY INSERT INTO {schema}.{table} (originator_id, originator_version, topic, state) "
                "SELECT originator_id, originator_version, topic, state FROM unnest(events) RETURNING notification_id; "
                "END; $BODY$"
            ).format(lock_timeout=self.datastore.lock_timeout, **names)
        )
        self.sql_insert_locked = SQL("SELECT * FROM {schema}.{function}((%s))").format(**names)

    def _insert_locked(self, stored_events: Sequence[StoredEvent], **kwargs: Any) -> Sequence[int] | None:
        """Save events as the library does (lock the table, NOTIFY, INSERT ... RETURNING the notification ids,
        commit), in one statement: a function that runs in the statement's own transaction.

        The library sends the lock and the INSERT, waits for their answer, then sends COMMIT. The table lock,
        which lets one save at a time into the whole store, was held across that second round trip and every
        wait of the saving thread for the GIL between them: under load, 5 ms and more (one switch interval per
        wait), and 75% of the lock's time was PostgreSQL waiting for the service (``aegis bench load``). Here the
        lock is taken and let go within one statement, while PostgreSQL works. Ids are still issued and committed
        in the same order (what the lock is for); a refused insert (a concurrent save of the same version)
        raises the same ``IntegrityError`` and leaves nothing."""
        if self.datastore.enable_db_functions or not stored_events:
            return _LIBRARY_INSERT(self, stored_events, **kwargs)
        rows = [self.construct_pg_stored_event(e.originator_id, e.originator_version, e.topic, e.state) for e in stored_events]
        with self.datastore.get_connection() as conn, conn.cursor() as curs:
            curs.execute(self.sql_insert_locked, (rows,), prepare=True)
            return [row[self.locked_insert_name] for row in curs.fetchall()]

    insert_events = _fail_fast(_insert_locked)
    select_events = _fail_fast(PostgresApplicationRecorder.select_events)
    select_notifications = _fail_fast(PostgresApplicationRecorder.select_notifications)
    max_notification_id = _fail_fast(PostgresApplicationRecorder.max_notification_id)


_LIBRARY_INSERT: Callable[..., Any] = getattr(PostgresApplicationRecorder.insert_events, "__wrapped__")  # noqa: B009


class FailFastPostgresFactory(PostgresFactory):
    aggregate_recorder_class = FailFastAggregateRecorder
    application_recorder_class = FailFastApplicationRecorder


LOCK_KEY = zlib.crc32(b"aegis: creating the tables")  # one advisory lock id for every Aegis process


@contextlib.contextmanager
def creating(env: Mapping[str, str]) -> Iterator[None]:
    """Hold PostgreSQL's advisory lock while the store starts (and creates its tables), when ``env`` is a
    PostgreSQL store; otherwise do nothing."""
    if env.get("PERSISTENCE_MODULE") not in ("eventsourcing.postgres", FACTORY_TOPIC):
        yield
        return
    import psycopg

    with psycopg.connect(
        host=env["POSTGRES_HOST"],
        port=env.get("POSTGRES_PORT", "5432"),
        dbname=env["POSTGRES_DBNAME"],
        user=env["POSTGRES_USER"],
        password=env.get("POSTGRES_PASSWORD", ""),
        connect_timeout=int(env.get("POSTGRES_CONNECT_TIMEOUT") or 10),
        autocommit=True,
    ) as conn:
        conn.execute("SELECT pg_advisory_lock(%s)", (LOCK_KEY,))
        try:
            yield
        finally:
            conn.execute("SELECT pg_advisory_unlock(%s)", (LOCK_KEY,))
