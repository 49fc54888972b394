"""Whether the event store can be written, and why not when retrying cannot help (a full disk, a read-only store, or
files the operating system will not let it write: SQLite's "disk I/O error", a permission refused).

A store that does not answer (PostgreSQL restarting, a lock held too long) is worth retrying: the API answers 503
with ``Retry-After``. A full disk or a read-only database fails every write until an operator acts: the 503 says
so, and ``/readyz`` reports it, so that a load balancer stops sending writes and a person knows what to fix.

``WriteHealth`` remembers the last save that failed for such a reason until a save succeeds; ``probe`` looks at
the store without changing any event: a write that changes nothing, and the free space beside a SQLite file.
"""

from __future__ import annotations

import shutil
import threading
import time
from pathlib import Path
from typing import Any

FULL = "full"
READ_ONLY = "read-only"
WORDS = {
    FULL: "the event store's disk is full",
    READ_ONLY: "the event store is read-only (its database, files or disk refuse writes)",
}
FIX = {
    FULL: "retrying will not help until an operator frees disk space",
    READ_ONLY: "retrying will not help until an operator makes the database writable",
}
_SIGNS = {  # words the databases use (SQLite, PostgreSQL, the operating system)
    FULL: ("database or disk is full", "no space left on device", "could not extend file", "disk quota exceeded"),
    # an I/O error or a permission the operating system refuses on a write (SQLite's "disk I/O error": EPERM, EIO,
    # EROFS on its files) lasts until an operator looks, as a read-only database does: not "try again in a second"
    READ_ONLY: (
        "readonly database",
        "read-only transaction",
        "read-only file system",
        "during recovery",
        "disk i/o error",
        "permission denied",
        "operation not permitted",
    ),
}


def cause(err: BaseException) -> str | None:
    """``FULL`` or ``READ_ONLY`` if ``err`` (or what caused it) says the store cannot be written; None otherwise."""
    seen: BaseException | None = err
    text = ""
    while seen is not None and len(text) < 4000:
        text += " " + str(seen).lower()
        seen = seen.__cause__ or seen.__context__
    for reason, signs in _SIGNS.items():
        if any(sign in text for sign in signs):
            return reason
    return None


class WriteHealth:
    """The last save that failed because the store cannot be written, until a save succeeds."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._failure: tuple[str, float, str] | None = None  # (reason, when, the database's words)

    def failed(self, err: BaseException) -> str | None:
        reason = cause(err)
        if reason is not None:
            with self._lock:
                self._failure = (reason, time.time(), str(err))
        return reason

    def saved(self) -> None:
        if self._failure is not None:
            with self._lock:
                self._failure = None

    @property
    def failure(self) -> tuple[str, float, str] | None:
        return self._failure


def probe(recorder: Any, store_env: dict[str, str], min_free_bytes: int) -> str | None:
    """Why the store cannot be written now (``FULL``, ``READ_ONLY``), or None. Changes no event: SQLite rewrites its
    header's user version with the same value and the disk beside its file must keep ``min_free_bytes``;
    PostgreSQL must not be in a read-only transaction or in recovery. Raises what the store raises otherwise."""
    datastore = getattr(recorder, "datastore", None)
    db_name = store_env.get("SQLITE_DBNAME")
    if db_name and datastore is not None and hasattr(datastore, "pool") and ":memory:" not in db_name:
        path = Path(db_name.removeprefix("file:").split("?", 1)[0])
        if shutil.disk_usage(path.parent if path.parent.exists() else Path(".")).free < min_free_bytes:
            return FULL
        try:
            with datastore.transaction(commit=True) as c:
                c.execute("PRAGMA user_version")
                version = c.fetchone()[0]
                c.execute(f"PRAGMA user_version = {int(version)}")
        except Exception as err:
            reason = cause(err)
            if reason is None:
                raise
            return reason
        return None
    if store_env.get("POSTGRES_DBNAME") and datastore is not None:
        with datastore.transaction(commit=False) as c:
            c.execute("SELECT current_setting('transaction_read_only') AS ro, pg_is_in_recovery() AS recovering")
            row = c.fetchone()
        if row and (row["ro"] == "on" or row["recovering"]):
            return READ_ONLY
    return None


PROBE_SECONDS = 5.0  # /readyz looks at the store at most this often; a failed save shows at once (WriteHealth)


class Prober:
    """``probe`` at most once every ``seconds``, its answer reused meanwhile: a load balancer may ask ``/readyz`` every
    second, and on SQLite each look is a write that takes the database's lock. A store that stops being writable in
    between is reported by the next save that fails (``WriteHealth``) at once, or by the next look. A look that
    raises (the store does not answer) is not kept: the next call looks again."""

    def __init__(self, seconds: float = PROBE_SECONDS, clock: Any = time.monotonic):
        self.seconds = seconds
        self.clock = clock
        self.looks = 0  # how many times the store was looked at (for the tests and the curious)
        self._lock = threading.Lock()
        self._last: tuple[float, str | None] | None = None

    def __call__(self, recorder: Any, store_env: dict[str, str], min_free_bytes: int) -> str | None:
        with self._lock:
            now = self.clock()
            if self._last is not None and now - self._last[0] < self.seconds:
                return self._last[1]
            self.looks += 1
            reason = probe(recorder, store_env, min_free_bytes)
            self._last = (now, reason)
            return reason
