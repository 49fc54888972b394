"""Abuse a public service must survive (issue 18): bodies nested to exhaust a parser, bodies too large to hold,
and a store that cannot be written (a read-only database, a full disk), which retrying cannot mend: every refusal
is a problem+json that says why, never a 500, and /readyz tells a load balancer the truth."""

from __future__ import annotations

import os
import subprocess
import uuid

import pytest
from eventsourcing.persistence import PersistenceError

from benchmarks.harness import UNTHROTTLED
from tests.api_client import Api
from tests.conftest import close_app, make_app, pg_schema

PROBLEM = "application/problem+json"


def test_a_body_nested_to_exhaust_the_parser_gets_a_400_not_a_500(sqlite_app):
    c = sqlite_app.test_client()
    brackets = "[" * 2000 + "]" * 2000  # about 4 KB: enough to exhaust a recursive parser's stack
    for path, data in (("/api/games", brackets), ("/api/games", '{"seats": 3, "rig": ' + brackets + "}")):
        r = c.post(path, data=data, content_type="application/json")
        assert r.status_code == 400 and r.mimetype == PROBLEM and "nests more than" in r.get_json()["detail"]
    api = Api(c)
    gid, tokens = api.people(["Ann", "Bob", "Cy"], reaction_seconds=0)
    r = api.c.post(
        f"/api/games/{gid}/commands", data=brackets, content_type="application/json", headers=api.auth(tokens["Ann"])
    )
    assert r.status_code == 400 and "nests more than" in r.get_json()["detail"]
    quoted = '{"seats": 3, "seed": "' + "[" * 40 + '"}'  # brackets inside a string are no nesting
    assert c.post("/api/games", data=quoted, content_type="application/json").status_code == 201


def test_a_body_over_the_limit_gets_a_413_that_names_the_limit(sqlite_env):
    app = make_app(sqlite_env, AEGIS_MAX_BODY="4096")
    try:
        c = app.test_client()
        r = c.post("/api/games", data=b'{"seats": 3, "x": "' + b"a" * 200_000 + b'"}', content_type="application/json")
        assert r.status_code == 413 and r.mimetype == PROBLEM
        assert "4096 bytes" in r.get_json()["detail"] and "AEGIS_MAX_BODY" in r.get_json()["detail"]
        assert c.post("/api/games", json={"seats": 3}).status_code == 201  # the service goes on
    finally:
        close_app(app)


def test_a_read_only_sqlite_store_is_not_ready_and_a_write_says_so_without_inviting_a_retry(tmp_path):
    path = tmp_path / "aegis.sqlite"
    writable = make_app({"SQLITE_DBNAME": str(path)})
    assert writable.test_client().post("/api/games", json={"seats": 3}).status_code == 201
    close_app(writable)
    app = make_app({"SQLITE_DBNAME": f"file:{path}?mode=ro"})
    try:
        c = app.test_client()
        ready = c.get("/readyz")
        assert ready.status_code == 503 and ready.get_json()["status"] == "unwritable"
        assert "read-only" in ready.get_json()["store"]
        r = c.post("/api/games", json={"seats": 3})
        body = r.get_json()
        assert r.status_code == 503 and body["type"] == "/api/problems/store-read-only"
        assert "read-only" in body["detail"] and "retrying will not help" in body["detail"]
        assert "Retry-After" not in r.headers
        assert c.get("/api/games").status_code == 200  # reads still work
    finally:
        close_app(app)


@pytest.fixture
def tiny_disk(tmp_path):
    """A 512 KiB file system of its own (a tmpfs), so that the store really runs out of space."""
    mount = tmp_path / "tiny"
    mount.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=512k", "tmpfs", str(mount)], capture_output=True, text=True)
    if done.returncode != 0:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"cannot mount a small tmpfs to fill ({done.stderr.strip()}); CI runs as root on this machine")
        pytest.skip(f"cannot mount a small tmpfs to fill: {done.stderr.strip()}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


def test_a_full_disk_is_not_ready_and_a_write_says_the_disk_is_full(tiny_disk):
    app = make_app(  # games from one address until the disk is full: above any rate limit, explicitly
        {"SQLITE_DBNAME": str(tiny_disk / "aegis.sqlite")}, AEGIS_MIN_FREE_MB="0", AEGIS_SNAPSHOT_INTERVAL="5", **UNTHROTTLED
    )
    try:
        c = app.test_client()
        assert c.get("/readyz").status_code == 200
        r = None
        for _ in range(2000):  # games until the disk is full
            r = c.post("/api/games", json={"seats": 10})
            if r.status_code != 201:
                break
        assert r is not None and r.status_code == 503, "the disk never filled"
        body = r.get_json()
        assert body["type"] == "/api/problems/store-full" and "disk is full" in body["detail"]
        assert "Retry-After" not in r.headers
        ready = c.get("/readyz")
        assert ready.status_code == 503 and "disk is full" in ready.get_json()["store"]
    finally:
        close_app(app)


def test_readyz_looks_at_the_store_at_most_once_every_few_seconds(sqlite_env):
    """On SQLite a look at whether the store can be written is a write (the database's lock): a load balancer asking
    /readyz every second must not make one each time. The answer is reused for PROBE_SECONDS, then looked at again."""
    from aegis.service.store_health import PROBE_SECONDS

    app = make_app(sqlite_env)
    try:
        prober = app.extensions["aegis.prober"]
        now = [1000.0]
        prober.clock = lambda: now[0]
        c = app.test_client()
        for _ in range(20):
            assert c.get("/readyz").get_json()["status"] == "ready"
        assert prober.looks == 1
        now[0] += PROBE_SECONDS
        assert c.get("/readyz").status_code == 200 and prober.looks == 2
    finally:
        close_app(app)


def test_readyz_says_full_when_the_disk_beside_the_store_is_below_the_minimum(sqlite_env):
    app = make_app(sqlite_env, AEGIS_MIN_FREE_MB="100000000")  # 100 TB free required
    try:
        ready = app.test_client().get("/readyz")
        assert ready.status_code == 503 and ready.get_json()["status"] == "unwritable"
        assert "disk is full" in ready.get_json()["store"]
    finally:
        close_app(app)


def test_a_read_only_postgres_store_is_not_ready_and_a_write_says_so(monkeypatch):
    with pg_schema() as env:
        writable = make_app(env)
        close_app(writable)  # the tables exist; every new connection is now read-only
        monkeypatch.setenv("PGOPTIONS", "-c default_transaction_read_only=on")
        app = make_app({**env, "CREATE_TABLE": "n"})
        try:
            c = app.test_client()
            ready = c.get("/readyz")
            assert ready.status_code == 503 and "read-only" in ready.get_json()["store"]
            r = c.post("/api/games", json={"seats": 3})
            assert r.status_code == 503 and r.get_json()["type"] == "/api/problems/store-read-only"
        finally:
            close_app(app)
            monkeypatch.delenv("PGOPTIONS")


def test_a_store_that_is_writable_again_is_ready_again(tmp_path):
    """The memory of a failed write lasts until a save succeeds."""
    from aegis.service.store_health import WriteHealth

    health = WriteHealth()
    assert health.failed(PersistenceError("database or disk is full")) == "full" and health.failure is not None
    assert health.failed(PersistenceError(f"connection refused {uuid.uuid4()}")) is None  # worth retrying: not kept
    assert health.failure is not None and health.failure[0] == "full"
    health.saved()
    assert health.failure is None


def _immutable(path, on: bool) -> subprocess.CompletedProcess:
    return subprocess.run(["chattr", "+i" if on else "-i", str(path)], capture_output=True, text=True)


def test_a_store_whose_files_refuse_writes_mid_run_is_unwritable_not_try_again(tmp_path):
    """L2: the operating system refuses SQLite's writes while the service is up (its write-ahead log made immutable:
    every write() gets EPERM, SQLite says "disk I/O error"). That lasts until an operator acts: the write's 503 says
    the store cannot be written, without Retry-After, and /readyz says 'unwritable', as for a read-only database;
    not "does not answer, try again" every second. Once the file takes writes again, so does the service."""
    path = tmp_path / "aegis.sqlite"
    app = make_app({"SQLITE_DBNAME": str(path)})
    wal = tmp_path / "aegis.sqlite-wal"
    now = [1000.0]
    app.extensions["aegis.prober"].clock = lambda: now[0]  # /readyz's look is reused for PROBE_SECONDS
    try:
        c = app.test_client()
        assert c.post("/api/games", json={"seats": 3}).status_code == 201
        assert wal.exists()
        done = _immutable(wal, True)
        if done.returncode != 0:
            if os.environ.get("CI", "").lower() == "true":
                pytest.fail(f"cannot make a file immutable ({done.stderr.strip()}); CI runs as root on ext4 here")
            pytest.skip(f"cannot make a file immutable: {done.stderr.strip()}")
        try:
            r = c.post("/api/games", json={"seats": 3})
            body = r.get_json()
            assert r.status_code == 503 and body["type"] == "/api/problems/store-read-only", body
            assert "retrying will not help" in body["detail"] and "Retry-After" not in r.headers, (body, r.headers)
            ready = c.get("/readyz")
            assert ready.status_code == 503 and ready.get_json()["status"] == "unwritable", ready.get_json()
            assert "disk I/O error" in ready.get_json()["store"], ready.get_json()
        finally:
            _immutable(wal, False)
        assert c.post("/api/games", json={"seats": 3}).status_code == 201
        now[0] += 60
        assert c.get("/readyz").get_json()["status"] == "ready"
    finally:
        _immutable(wal, False)
        close_app(app)
