"""Real processes and stores for the load suite and the fault tests: the service run by ``aegis serve`` in a
process group of its own (gunicorn workers when asked), a PostgreSQL schema of its own and a Redis server
of its own, each removed afterwards. Nothing here is a fake: the tests kill and restart these."""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
PG_HOST, PG_PORT, PG_DBNAME, PG_USER = "127.0.0.1", 5432, "test", "postgres"  # the local server, trust auth
PG: dict[str, Any] = {"host": PG_HOST, "port": PG_PORT, "dbname": PG_DBNAME, "user": PG_USER}  # psycopg.connect(**PG)
# the benchmarks, the fault tests and the few tests that create many games on one app (schemathesis, hypothesis) play
# from one address (127.0.0.1): they set a rate limit far above what they send, explicitly, so that the limiter still
# runs (and is measured) but never throttles them; the defaults stay as they are
UNTHROTTLED = {
    "AEGIS_RATE_CREATE": "1000000/minute",
    "AEGIS_RATE_SEAT": "1000000/minute",
    "AEGIS_RATE_REGISTER": "1000000/minute",
    "AEGIS_RATE_DISPUTE": "1000000/minute",
    "AEGIS_STREAMS_PER_CLIENT": "100000",
}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def aegis_command(*args: str) -> list[str]:
    """``aegis ARGS`` run by this Python, from this checkout."""
    return [sys.executable, "-m", "aegis.cli.main", *args]


def clean_env() -> dict[str, str]:
    """This process's environment without any of the service's own settings."""
    own = ("PERSISTENCE_MODULE", "SQLITE_", "POSTGRES_", "AEGIS_", "REDIS_URL")
    env = {k: v for k, v in os.environ.items() if not k.startswith(own)}
    env["PYTHONPATH"] = str(ROOT)
    return env


class Service:
    """``aegis serve`` in its own process group on a fixed port, so that it can be killed outright (SIGKILL to
    the master and every worker, as a crash would) and started again on the same address."""

    def __init__(self, env: dict[str, str], log: Path, *, workers: int = 2, threads: int = 8, port: int | None = None):
        self.env = {**UNTHROTTLED, **env}
        self.log = log
        self.workers = workers
        self.threads = threads
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self, timeout: float = 60.0) -> None:
        args = ["serve", "--port", str(self.port), "--workers", str(self.workers), "--threads", str(self.threads)]
        with self.log.open("a") as out:
            self.proc = subprocess.Popen(
                aegis_command(*args),
                env={**clean_env(), **self.env},
                cwd=self.log.parent,
                stdout=out,
                stderr=out,
                start_new_session=True,
            )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"aegis serve exited with {self.proc.returncode}: {self.log_tail()}")
            with contextlib.suppress(OSError, ValueError), urllib.request.urlopen(self.url + "/readyz", timeout=2) as r:
                if json.loads(r.read())["status"] == "ready" and self._all_workers_up():
                    return
            time.sleep(0.05)
        self.kill()
        raise RuntimeError(f"aegis serve was not ready within {timeout:.0f} s: {self.log_tail()}")

    def _all_workers_up(self) -> bool:
        """One worker answering /readyz is not all of them: tests that compare worker pids before and after
        need every worker forked first."""
        return self.workers <= 1 or len(self.worker_pids()) >= self.workers

    def worker_pids(self) -> list[int]:
        """The gunicorn workers (children of the master) now running."""
        if self.proc is None:
            return []
        path = Path(f"/proc/{self.proc.pid}/task/{self.proc.pid}/children")
        try:
            return [int(p) for p in path.read_text().split()]
        except OSError:
            return []

    def kill(self) -> None:
        """SIGKILL the whole process group: no shutdown code runs, as in a crash."""
        if self.proc is None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=30)
        self.proc = None

    def stop(self) -> None:
        if self.proc is None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, signal.SIGTERM)
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.kill()
        self.proc = None

    def log_tail(self, lines: int = 30) -> str:
        try:
            return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return "(no log)"


def postgres_env(dbname: str = PG_DBNAME, schema: str = "") -> dict[str, str]:
    """The service's environment for the local PostgreSQL: a database, and a schema in it if given."""
    env = {
        "PERSISTENCE_MODULE": "eventsourcing.postgres",
        "POSTGRES_DBNAME": dbname,
        "POSTGRES_HOST": PG_HOST,
        "POSTGRES_PORT": str(PG_PORT),
        "POSTGRES_USER": PG_USER,
        "POSTGRES_PASSWORD": "",
    }
    return {**env, "POSTGRES_SCHEMA": schema} if schema else env


@contextlib.contextmanager
def postgres_schema(prefix: str = "aegis_load_") -> Iterator[dict[str, str]]:
    """A fresh schema in the local PostgreSQL database ``test`` (the service's environment for it), dropped
    afterwards. Raises the connection error when the server does not answer."""
    import psycopg

    conn = psycopg.connect(**PG, autocommit=True, connect_timeout=3)
    schema = prefix + secrets.token_hex(4)
    conn.execute(f"CREATE SCHEMA {schema}")
    try:
        yield postgres_env(schema=schema)
    finally:
        conn.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
        conn.close()


@contextlib.contextmanager
def projection_worker(env: dict[str, str]) -> Iterator[subprocess.Popen[bytes]]:
    """``aegis project`` in a process of its own (the projections in Redis), stopped afterwards."""
    proc = subprocess.Popen(
        aegis_command("project"), env={**clean_env(), **env}, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        yield proc
    finally:
        proc.terminate()
        proc.wait(timeout=30)


class RedisServer:
    """A ``redis-server`` of its own on a free port, without persistence, that can be killed and restarted."""

    def __init__(self, workdir: Path):
        program = shutil.which("redis-server")
        if program is None:
            raise FileNotFoundError("redis-server (the program) is not installed")
        self.port = free_port()
        self.workdir = workdir
        self.cmd = [program, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
        self.cmd += ["--dir", str(workdir)]
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        import redis

        self.proc = subprocess.Popen(self.cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        client = redis.Redis(port=self.port, socket_connect_timeout=1)
        for _ in range(250):
            with contextlib.suppress(Exception):
                client.ping()
                return
            time.sleep(0.02)
        self.kill()
        raise RuntimeError("the test's redis-server did not start")

    def kill(self) -> None:
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait(timeout=10)
            self.proc = None


def read_json(url: str, timeout: float = 10.0) -> Any:
    with urllib.request.urlopen(url, timeout=timeout) as r:
        return json.loads(r.read())
