"""Fixtures for the service tests: a store per backend (a SQLite file, the real PostgreSQL of this
machine), the Flask app over it, and a client that speaks the public contract.

PostgreSQL and Redis are real servers. Outside CI a test may skip when one is absent, saying why;
under ``CI=true`` it must run, so an absent server fails the test instead.
"""

from __future__ import annotations

import contextlib
import itertools
import os
from collections.abc import Iterator
from typing import Any

import pytest

from aegis.api import close_app
from benchmarks.harness import postgres_schema

__all__ = ["close_app", "make_app", "need_server", "pg_schema"]


def need_server(what: str, error: Exception) -> None:
    """Skip outside CI, fail under CI=true, naming the server and the error."""
    message = f"{what} is not reachable ({type(error).__name__}: {error})"
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(message + "; under CI=true the real server is required")
    pytest.skip(message)


@contextlib.contextmanager
def pg_schema(prefix: str = "aegis_test_") -> Iterator[dict[str, str]]:
    """A fresh schema in the local PostgreSQL database ``test``, dropped afterwards (skipped or failed, as
    ``need_server`` says, when the server does not answer)."""
    context = postgres_schema(prefix)
    try:
        env = context.__enter__()
    except Exception as err:
        need_server("PostgreSQL at 127.0.0.1:5432", err)
    try:
        yield env
    finally:
        context.__exit__(None, None, None)


@pytest.fixture
def postgres_env() -> Iterator[dict[str, str]]:
    with pg_schema() as env:
        yield env


@pytest.fixture
def sqlite_env(tmp_path) -> dict[str, str]:
    return {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(tmp_path / "aegis.sqlite")}


@pytest.fixture(params=["sqlite", "postgres"])
def store_env(request) -> dict[str, str]:
    return request.getfixturevalue(f"{request.param}_env")


def make_app(env: dict[str, str], **settings: str) -> Any:
    """The app over ``env``. Its server secrets are a sequence ("test-secret-1", "-2", ... in the order games are
    created) instead of 32 random bytes, so that a test's games, and a failure, are the same on every run; the
    fairness tests, ``aegis serve`` and the benchmarks use the real secrets."""
    from aegis.api import create_app
    from aegis.service.games import GameService
    from aegis.service.settings import load

    created = itertools.count(1)
    return create_app(service=GameService(load({**env, **settings}), entropy=lambda: f"test-secret-{next(created)}"))


@pytest.fixture
def app(store_env) -> Iterator[Any]:
    application = make_app(store_env)
    yield application
    close_app(application)


@pytest.fixture
def sqlite_app(sqlite_env) -> Iterator[Any]:
    application = make_app(sqlite_env)
    yield application
    close_app(application)
