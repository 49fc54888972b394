"""PostgreSQL specifics of the service: its recorder, and one process at a time creating the tables.

The recorder is the library's own, retrying a failed statement once instead of ten times.

``eventsourcing`` retries every statement up to 10 times when the database does not answer, each attempt
waiting up to ``POSTGRES_CONNECT_TIMEOUT`` for a connection: a request could hang for half a minute in an
outage. The service answers 503 with ``Retry-After`` instead, fast, and the client retries (commands with
their ``Idempotency-Key``). One retry stays, for a pooled connection the database dropped (the pool then
replaces it). Chosen by ``service.settings`` with the library's ``APPLICATION_RECORDER_TOPIC``.

The library creates its tables (``CREATE TABLE IF NOT EXISTS``) when an application starts. PostgreSQL does
not make that safe when several processes do it at once on a new database (a duplicate key in ``pg_type``):
``aegis serve --workers 4`` or ``docker compose up`` then lost a worker and gunicorn stopped. ``creating``
holds an advisory lock around the start of the store, so the processes create the tables one after the other.
"""

from __future__ import annotations

import contextlib
import zlib
from collections.abc import Iterator, Mapping

from eventsourcing.persistence import InterfaceError, OperationalError
from eventsourcing.postgres import PostgresApplicationRecorder
from eventsourcing.utils import retry

ATTEMPTS = 2
RETRIED = ("insert_events", "select_events", "select_notifications", "max_notification_id")
TOPIC = f"{__name__}:FailFastPostgresRecorder"


class FailFastPostgresRecorder(PostgresApplicationRecorder):
    pass


for _name in RETRIED:
    _library = getattr(PostgresApplicationRecorder, _name)
    _bounded = retry((InterfaceError, OperationalError), max_attempts=ATTEMPTS, wait=0.1)(_library.__wrapped__)
    setattr(FailFastPostgresRecorder, _name, _bounded)


LOCK_KEY = zlib.crc32(b"aegis: creating the tables")  # one advisory lock id for every Aegis process


@contextlib.contextmanager
def creating(env: Mapping[str, str]) -> Iterator[None]:
    """Hold PostgreSQL's advisory lock while the store starts (and creates its tables), when ``env`` is a
    PostgreSQL store; otherwise do nothing."""
    if env.get("PERSISTENCE_MODULE") != "eventsourcing.postgres":
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
