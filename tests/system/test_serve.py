"""``aegis serve`` runs the service with embedded defaults (a SQLite file under ./var/), in-process (uvicorn) or
under gunicorn's uvicorn workers, and ``aegis play`` plays a whole game against bots through it."""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def aegis(*args: str) -> list[str]:
    return [sys.executable, "-m", "aegis.cli.main", *args]


def clean_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PERSISTENCE_MODULE", "SQLITE_", "POSTGRES_", "AEGIS_"))}
    env["PYTHONPATH"] = str(ROOT)
    return env


def wait_ready(url: str, proc: subprocess.Popen[Any], command: list[str], log_path: Path) -> None:
    """Until the server at ``url`` (the process ``proc``) says ready on /readyz, within 60 s; else the test fails
    with the server's log."""
    deadline = time.monotonic() + 60
    while True:
        with contextlib.suppress(OSError, ValueError), urllib.request.urlopen(url + "/readyz", timeout=2) as r:
            if json.loads(r.read())["status"] == "ready":
                return
        if proc.poll() is not None or time.monotonic() > deadline:
            pytest.fail(f"{' '.join(command[2:])} did not become ready: {log_path.read_text()}")
        time.sleep(0.05)


@contextlib.contextmanager
def running(
    command: list[str], port: int, cwd: Path, log_path: Path, env: dict[str, str] | None = None, stop_seconds: float = 30
) -> Iterator[str]:
    """A server started with ``command`` (listening on ``port``), once its /readyz says ready (within 60 s; else the
    test fails with the server's log). Yields its URL; afterwards it must stop within ``stop_seconds`` of SIGTERM."""
    with log_path.open("w") as log:
        proc = subprocess.Popen(command, cwd=cwd, env=env or clean_env(), stdout=log, stderr=log)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_ready(url, proc, command, log_path)
        try:
            yield url
        except BaseException:  # what the server said, beside the test's failure (captured output shows on failure)
            print(f"--- the server's log ({log_path}), its last 4000 characters ---\n{log_path.read_text()[-4000:]}")
            raise
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=stop_seconds)
        except subprocess.TimeoutExpired:
            proc.kill()
            pytest.fail(f"the server did not stop within {stop_seconds:g} s of SIGTERM: " + log_path.read_text()[-3000:])


@pytest.fixture(params=[0, 2], ids=["in-process", "gunicorn-2-workers"])
def server(request, tmp_path):
    port = free_port()
    command = aegis("serve", "--port", str(port), "--workers", str(request.param))
    with running(command, port, tmp_path, tmp_path / "serve.log", stop_seconds=10) as url:
        yield url, tmp_path


def test_serve_then_play_a_whole_game_against_bots(server):
    url, cwd = server
    out = subprocess.run(
        aegis("play", "--url", url, "--auto", "--seats", "4", "--seed", "11"),
        capture_output=True,
        text=True,
        timeout=300,
        env=clean_env(),
        cwd=cwd,
    )
    assert out.returncode == 0, out.stderr
    assert "you are seat 0 against 3 bot(s)" in out.stdout
    assert "game over: " in out.stdout
    assert (cwd / "var" / "aegis.sqlite").exists()  # the embedded default store
    with urllib.request.urlopen(url + "/api/games?status=finished") as r:
        assert json.loads(r.read())["total"] == 1


def test_play_says_when_the_service_is_not_running():
    out = subprocess.run(
        aegis("play", "--url", f"http://127.0.0.1:{free_port()}", "--auto"),
        capture_output=True,
        text=True,
        timeout=60,
        env=clean_env(),
    )
    assert out.returncode == 1 and "cannot reach" in out.stderr and "aegis serve" in out.stderr


def test_play_interactively_reads_choices_and_quits_on_q(server):
    url, _cwd = server
    for _attempt in range(3):  # a game may end before you are asked twice (shuffles are random): play another
        out = subprocess.run(
            aegis("play", "--url", url, "--seats", "3", "--seed", "4"),
            input="0\n9999\nq\n",
            capture_output=True,
            text=True,
            timeout=120,
            env=clean_env(),
        )
        if "game over" not in out.stdout:
            break
    assert out.returncode == 0, out.stderr + out.stdout
    assert "[0] " in out.stdout and "that is not one of the options" in out.stdout and "bye" in out.stdout, (
        out.stdout + out.stderr
    )


def test_play_resigns_on_r_and_the_bots_play_the_game_out(server):
    url, _cwd = server
    out = subprocess.run(
        aegis("play", "--url", url, "--seats", "3", "--turn-seconds", "60"),
        input="r\n",
        capture_output=True,
        text=True,
        timeout=120,
        env=clean_env(),
    )
    assert out.returncode == 0, out.stderr + out.stdout
    assert "r to resign" in out.stdout and "Player resigns and leaves the game" in out.stdout, out.stdout
    assert "game over" in out.stdout, out.stdout


@pytest.mark.parametrize("command", ["serve", "play", "simulate", "bench"])
def test_every_command_has_help(command):
    out = subprocess.run(aegis(command, "--help"), capture_output=True, text=True, timeout=60, env=clean_env())
    assert out.returncode == 0 and "usage: aegis " + command in out.stdout


def test_play_is_woken_by_the_next_event_while_others_play(tmp_path):
    """aegis play waits for other players on the game's event stream (its doorbell): it rings when the stream opens
    (the view), stays quiet while nothing happens, and rings when another player moves."""
    from aegis.cli.play import Client, Doorbell
    from tests.api_client import command_of

    port = free_port()
    with running(aegis("serve", "--port", str(port)), port, tmp_path, tmp_path / "serve.log", stop_seconds=10) as url:
        api = Client(url)
        game = api.call("POST", "/api/games", {"seats": 3, "reaction_seconds": 0, "seed": "doorbell"})
        gid = game["id"]
        seats = [api.call("POST", f"/api/games/{gid}/seats", {"name": f"P{i}"}) for i in range(3)]
        api.call("POST", f"/api/games/{gid}/start", {}, token=game["host_token"])
        views = [api.call("GET", f"/api/games/{gid}/view", token=s["token"]) for s in seats]
        mover = next(i for i, v in enumerate(views) if [p for p in v["prompts"] if not p["free"]])
        waiter = seats[(mover + 1) % 3]
        bell = Doorbell(api, gid, waiter["token"])
        assert bell.wait(30), "the stream's first frame (the view) rings"
        assert not bell.wait(0.5), "nothing happens while nobody moves"
        prompt = next(p for p in views[mover]["prompts"] if not p["free"])
        api.call("POST", f"/api/games/{gid}/commands", command_of(prompt["options"][0]), token=seats[mover]["token"])
        assert bell.wait(30), "another player's move rings at once"


def test_two_multi_worker_servers_on_one_machine_each_serve_and_leave_no_shared_control_socket(tmp_path):
    """gunicorn's control socket is one path per user (``$HOME/.gunicorn/gunicorn.ctl``): two ``aegis serve --workers``
    on one machine fought over it. The service does not use it, so it opens none."""
    from benchmarks.harness import Service

    home = tmp_path / "home"
    home.mkdir()
    env = {"HOME": str(home), "XDG_RUNTIME_DIR": "", "SQLITE_DBNAME": str(tmp_path / "a.sqlite")}
    servers = [Service(env, tmp_path / f"serve{i}.log", workers=1, threads=2) for i in range(2)]
    try:
        for server in servers:
            server.start()
        for server in servers:
            with urllib.request.urlopen(f"{server.url}/healthz", timeout=10) as r:
                assert json.loads(r.read())["status"] == "ok"
        assert not (home / ".gunicorn").exists()
    finally:
        for server in servers:
            server.stop()


NO_DATABASE = {"PERSISTENCE_MODULE": "eventsourcing.postgres", "POSTGRES_DBNAME": "aegis_no_such_db", "POSTGRES_USER": "postgres"}


def _one_line_refusal(argv: list[str], env: dict[str, str], cwd: Path, *words: str) -> None:
    """``aegis <argv>`` stops within 30 s with rc != 0 and says why in one ``aegis: ...`` line naming ``words``."""
    out = subprocess.run(aegis(*argv), env={**clean_env(), **env}, cwd=cwd, capture_output=True, text=True, timeout=30)
    assert out.returncode != 0, out
    lines = out.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("aegis: "), out.stderr
    assert all(w in lines[0] for w in words), lines[0]


@pytest.mark.parametrize("workers", ["0", "2"])
@pytest.mark.parametrize(
    ("env", "words"),
    [
        (NO_DATABASE, ["cannot open the event store", "'aegis_no_such_db'", "does not exist"]),
        (
            {"SQLITE_DBNAME": "/nonexistent/aegis-dir/x.sqlite"},
            ["/nonexistent/aegis-dir/x.sqlite", "/nonexistent/aegis-dir does not exist"],
        ),
        ({"SQLITE_LOCK_TIMEOUT": "abc"}, ["SQLITE_LOCK_TIMEOUT", "'abc'"]),
    ],
    ids=["no-such-database", "no-such-folder", "bad-lock-timeout"],
)
def test_serve_refuses_a_store_that_cannot_come_back_in_one_line_before_serving(tmp_path, env, words, workers):
    """M2/M3: a database that does not exist, a folder that is not there or a bad SQLite setting is said in one line
    naming it (not a traceback), and with --workers the server stops at once instead of its workers waiting for ever."""
    if "POSTGRES_DBNAME" in env:
        _need_postgres()
    argv = ["serve", "--port", str(free_port()), "--workers", workers]
    _one_line_refusal(argv, env, tmp_path, *words)


def _need_postgres() -> None:
    from tests.conftest import need_server

    try:
        with socket.create_connection(("127.0.0.1", 5432), timeout=3):
            pass
    except OSError as err:
        need_server("PostgreSQL at 127.0.0.1:5432", err)


def test_the_record_commands_say_in_one_line_that_the_store_cannot_be_opened(tmp_path):
    """M2: verify and export on a database that does not exist or a port where nothing listens; serve in-process on
    that port (it does not wait); rebuild-projections with Redis away: one line each, naming what failed."""
    _need_postgres()
    game = "00000000-0000-0000-0000-000000000000"
    _one_line_refusal(["verify", game], NO_DATABASE, tmp_path, "'aegis_no_such_db' on 127.0.0.1:5432", "does not exist")
    closed = {**NO_DATABASE, "POSTGRES_DBNAME": "test", "POSTGRES_PORT": str(free_port())}
    _one_line_refusal(["export", game], closed, tmp_path, f"127.0.0.1:{closed['POSTGRES_PORT']}", "Connection refused")
    _one_line_refusal(["serve", "--port", str(free_port())], closed, tmp_path, "Connection refused")
    no_redis = {**closed, "POSTGRES_PORT": "5432", "REDIS_URL": f"redis://127.0.0.1:{free_port()}/5"}
    _one_line_refusal(["rebuild-projections", "--quiet"], {**no_redis, "AEGIS_REDIS_PREFIX": "aegis-test-nowhere:"}, tmp_path)
    _one_line_refusal(["rebuild-projections", "--quiet"], no_redis, tmp_path, "Redis at redis://127.0.0.1:", "does not answer")


class _Proxy:
    """A TCP relay from a port of its own to PostgreSQL, started when the test says: until then nothing listens on
    that port (a database that is not up yet), and a worker's connections are refused for real."""

    def __init__(self, port: int, target: int = 5432):
        import asyncio
        import threading

        self.port, self.target = port, target
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.server: Any = None

    def start(self) -> None:
        import asyncio

        async def pipe(reader: Any, writer: Any) -> None:
            with contextlib.suppress(OSError):
                while data := await reader.read(65536):
                    writer.write(data)
                    await writer.drain()
            writer.close()

        async def relay(reader: Any, writer: Any) -> None:
            up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.target)
            await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer))

        async def serve() -> Any:
            return await asyncio.start_server(relay, "127.0.0.1", self.port)

        self.thread.start()
        self.server = asyncio.run_coroutine_threadsafe(serve(), self.loop).result(10)

    def stop(self) -> None:
        if self.server is not None:
            self.loop.call_soon_threadsafe(self.server.close)
        self.loop.call_soon_threadsafe(self.loop.stop)


def _get(url: str, timeout: float = 3) -> tuple[int, dict[str, Any], float]:
    import urllib.error

    t0 = time.monotonic()
    try:
        with urllib.request.urlopen(url, timeout=timeout) as r:
            return r.status, json.loads(r.read()), time.monotonic() - t0
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read()), time.monotonic() - t0


def test_a_worker_waiting_for_the_store_answers_its_probes_and_serves_once_the_database_is_up(tmp_path):
    """M3: PostgreSQL is not up yet when ``aegis serve --workers 1`` starts (nothing listens on its port: that may
    pass, so the server starts and its worker waits, as the README says). Meanwhile /healthz answers at once,
    /readyz answers 503 with the reason, and a route 503 with Retry-After; once the database is up the same worker
    serves, ready."""
    from tests.conftest import pg_schema

    with pg_schema("aegis_wait_") as pg:
        db_port = free_port()
        env = {**clean_env(), **pg, "POSTGRES_PORT": str(db_port)}
        port = free_port()
        url = f"http://127.0.0.1:{port}"
        log_path = tmp_path / "serve.log"
        proxy = _Proxy(db_port)
        with log_path.open("w") as log:
            command = aegis("serve", "--port", str(port), "--workers", "1")
            proc = subprocess.Popen(command, env=env, cwd=tmp_path, stdout=log, stderr=log)
        try:
            deadline = time.monotonic() + 30
            while "this worker waits" not in json.dumps(_probe(url + "/readyz")):
                assert proc.poll() is None and time.monotonic() < deadline, log_path.read_text()
                time.sleep(0.1)
            status, body, seconds = _get(url + "/healthz")
            assert (status, body) == (200, {"status": "ok"}) and seconds < 1.0, (status, body, seconds)
            status, body, seconds = _get(url + "/readyz")
            assert status == 503 and body["status"] == "unavailable" and seconds < 1.0, (body, seconds)
            assert f"127.0.0.1:{db_port}" in body["store"] and "Connection refused" in body["store"], body
            status, body, _ = _get(url + "/api/games")
            assert status == 503 and body["type"] == "/api/problems/unavailable", body
            proxy.start()
            deadline = time.monotonic() + 40
            while _probe(url + "/readyz").get("status") != "ready":
                assert proc.poll() is None and time.monotonic() < deadline, log_path.read_text()[-3000:]
                time.sleep(0.2)
            status, body, _ = _get(url + "/api/games")
            assert status == 200, body
            assert "Traceback" not in log_path.read_text(), log_path.read_text()[-3000:]
        finally:
            proc.terminate()
            proc.wait(timeout=30)
            proxy.stop()


def _probe(url: str) -> dict[str, Any]:
    try:
        return _get(url)[1]
    except (OSError, ValueError):
        return {}
