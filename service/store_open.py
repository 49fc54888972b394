"""Why the event store could not be opened, in one line that names the store, and whether waiting can mend it.

Opening the store (``GameStore``) connects to PostgreSQL or opens the SQLite file, and creates the tables. What fails
there reached the command line as a traceback of the library and its driver (``unable to open database file``, with
no path). ``opening_failed`` turns it into ``StoreNotOpened``: one line for ``aegis: ...`` (``cli/main.py``) saying
which database or file and why, and ``lasting``: whether the error stays until an operator acts (no such database,
no such role, refused credentials, a folder that is not there) or may pass by itself (nothing answers on the port
yet, a timeout: a database restarting). ``aegis serve --workers N`` checks the store once before it starts its workers
and stops at once on a lasting error; a worker that meets a passing one waits for the store (``api/workers.py``).
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from pathlib import Path

from eventsourcing.persistence import PersistenceError

from aegis.service.settings import sqlite_file

_LASTING_POSTGRES = (  # PostgreSQL's words for what waiting does not mend
    "does not exist",  # database "x" does not exist; role "x" does not exist
    "authentication failed",
    "no pg_hba.conf entry",
    "permission denied",
    "invalid dsn",
    "invalid connection option",
    "invalid integer value",
)


class StoreNotOpened(PersistenceError):
    """The event store could not be opened: ``message`` says which and why in one line; ``lasting``: waiting will not
    mend it."""

    def __init__(self, message: str, *, lasting: bool):
        super().__init__(message)
        self.message = message
        self.lasting = lasting


def one_line(text: str) -> str:
    """The driver's words on one line: psycopg's connection errors run over two or three."""
    return re.sub(r"\s+", " ", text).strip()


def describe(store_env: Mapping[str, str]) -> str:
    """The store ``store_env`` names, as a person would look for it."""
    module = store_env.get("PERSISTENCE_MODULE", "")
    if "postgres" in module:
        host, port = store_env.get("POSTGRES_HOST", "127.0.0.1"), store_env.get("POSTGRES_PORT", "5432")
        return f"PostgreSQL database {store_env.get('POSTGRES_DBNAME')!r} on {host}:{port} as {store_env.get('POSTGRES_USER')!r}"
    if "sqlite" in module:
        return f"SQLite file {store_env.get('SQLITE_DBNAME')}"
    return module or "the event store"


def _postgres_reason(text: str) -> str:
    """psycopg's 'connection failed: connection to server at "h", port p failed: FATAL:  database "x" does not
    exist' without the parts the line already says (the host and port)."""
    reason = one_line(text)
    if "failed:" in reason:
        reason = reason.rsplit("failed:", 1)[1].strip()
    return reason.removeprefix("FATAL:").strip() or one_line(text)


def _sqlite_folder_problem(path: Path) -> str | None:
    """What is wrong with the place of a SQLite file that SQLite cannot open, found without creating anything."""
    folder = path.parent if str(path.parent) else Path(".")
    if path.is_dir():
        return f"{path} is a folder, not a file (SQLITE_DBNAME names the file)"
    if not folder.exists():
        return f"its folder {folder} does not exist (SQLITE_DBNAME: create the folder, or name a file in one that exists)"
    if not folder.is_dir():
        return f"{folder} is not a folder"
    if not path.exists() and not os.access(folder, os.W_OK | os.X_OK):
        return f"the file cannot be created in {folder}: permission denied"
    if path.exists() and not os.access(path, os.R_OK):
        return f"{path} cannot be read: permission denied"
    return None


def opening_failed(err: BaseException, store_env: Mapping[str, str]) -> StoreNotOpened | None:
    """``err``, raised while the store named by ``store_env`` was opened, as a ``StoreNotOpened``; None when it is no
    error of the store's (a bug: let it show as it is)."""
    if isinstance(err, StoreNotOpened):
        return err
    where = describe(store_env)
    module = store_env.get("PERSISTENCE_MODULE", "")
    if type(err) is OSError and err.errno is None:  # the library refuses one of its own settings (it names the variable)
        return StoreNotOpened(f"cannot open the event store ({where}): {one_line(str(err))}", lasting=True)
    try:
        import psycopg

        driver: tuple[type[BaseException], ...] = (psycopg.Error,)
    except ImportError:  # pragma: no cover - installed with the service
        driver = ()
    if not isinstance(err, (PersistenceError, *driver)):
        return None
    text = str(err)
    if "postgres" in module:
        reason = _postgres_reason(text)
        lasting = any(sign in reason.lower() for sign in _LASTING_POSTGRES)
        return StoreNotOpened(f"cannot open the event store ({where}): {reason}", lasting=lasting)
    if "sqlite" in module:
        path = sqlite_file(store_env)  # None for a URI or an in-memory database: no folder to look at
        problem = _sqlite_folder_problem(path) if path is not None else None
        if problem is not None:
            return StoreNotOpened(f"cannot open the event store ({where}): {problem}", lasting=True)
        return StoreNotOpened(f"cannot open the event store ({where}): {one_line(text)}", lasting=False)
    return StoreNotOpened(f"cannot open the event store ({where}): {one_line(text)}", lasting=False)
