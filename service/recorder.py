"""The PostgreSQL recorder of the service: the library's own, retrying a failed statement once instead of ten
times.

``eventsourcing`` retries every statement up to 10 times when the database does not answer, each attempt
waiting up to ``POSTGRES_CONNECT_TIMEOUT`` for a connection: a request could hang for half a minute in an
outage. The service answers 503 with ``Retry-After`` instead, fast, and the client retries (commands with
their ``Idempotency-Key``). One retry stays, for a pooled connection the database dropped (the pool then
replaces it). Chosen by ``service.settings`` with the library's ``APPLICATION_RECORDER_TOPIC``.
"""

from __future__ import annotations

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
