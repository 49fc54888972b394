"""Faults under load, on the real PostgreSQL and Redis of the machine: an API process SIGKILLed while bots
play, Redis restarted under connected SSE clients, PostgreSQL refusing connections mid-load. Each test is
bounded in time; nothing here is a fake (``benchmarks/harness.py`` runs real processes and servers).

What a user must see: every command a client was told succeeded is stored, once; ``seq`` has no gap;
every game goes on to its end and replays exactly (``/verify``); a stream misses nothing; while the store
is away requests fail fast with 503 and ``Retry-After``, and the service recovers without a restart."""

from __future__ import annotations

import collections
import contextlib
import os
import re
import secrets
import signal
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest

from aegis.service.aggregate import Game
from aegis.service.games import GameStore
from aegis.service.settings import load
from benchmarks.harness import PG, RedisServer, Service, aegis_command, clean_env, postgres_env, read_json
from benchmarks.loadgen import GameBot, Http, Load, Record, run_load
from tests.api.test_stream import sse
from tests.api_client import command_of
from tests.conftest import need_server, pg_schema

pytestmark = pytest.mark.slow  # whole games: CI runs them; pytest -m 'not slow' leaves them out


def _wait(condition: Any, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what}")
        time.sleep(0.05)


def _in_background(target: Any) -> tuple[threading.Thread, list[Any]]:
    out: list[Any] = []
    thread = threading.Thread(target=lambda: out.append(target()), daemon=True)
    thread.start()
    return thread, out


def _stored_games_are_whole(env: dict[str, str], result: Load) -> int:
    """Every acknowledged command is stored exactly once, every stored seat command was acknowledged,
    aggregate versions and ``seq`` have no gap. Returns how many commands were checked."""
    acks: dict[str, dict[str, Any]] = collections.defaultdict(dict)
    for a in result.record.acks:
        acks[a.game][f"{a.seat}:{a.key}"] = a
    store = GameStore(load(env))
    checked = 0
    try:
        for bot in result.bots:
            events = list(store.events.get(UUID(bot.game)))
            assert [e.originator_version for e in events] == list(range(1, len(events) + 1))
            seqs = [e.payload["seq"] for e in events if isinstance(e, Game.Recorded)]
            assert seqs == list(range(1, len(seqs) + 1)), f"game {bot.game}: seq has a gap or a repeat"
            accepted = [e for e in events if isinstance(e, Game.CommandAccepted) and e.by == "seat"]
            requests = collections.Counter(e.request for e in accepted)
            assert all(n == 1 for n in requests.values()), f"game {bot.game}: a command stored twice"
            assert set(requests) == set(acks[bot.game]), f"game {bot.game}: stored and acknowledged commands differ"
            first_seq = {e.request: e.first_seq for e in accepted}
            for request, ack in acks[bot.game].items():
                assert first_seq[request] <= ack.seq <= len(seqs)
                checked += 1
    finally:
        store.close()
    return checked


def _verified(url: str, result: Load) -> None:
    for bot in result.bots:
        report = read_json(f"{url}/api/games/{bot.game}/verify", timeout=60)
        assert report["ok"], (bot.game, report["problems"])


def test_sigkill_of_api_processes_under_load_loses_nothing(tmp_path):
    """A gunicorn worker is SIGKILLed mid-load (its master starts another), then the whole service (master
    and workers) is SIGKILLed and started again on the same port. The bots retry what was cut off with the
    same Idempotency-Key."""
    with pg_schema("aegis_fault_") as env:
        service = Service({**env, "AEGIS_REACTION_SECONDS": "0"}, tmp_path / "serve.log", workers=2, threads=4)
        service.start()
        try:
            record = Record()
            thread, out = _in_background(lambda: run_load(service.url, 16, seed="sigkill", retry=True, record=record))
            _wait(lambda: record.commands() >= 150, 120, "150 commands before the first kill")
            victim = service.worker_pids()[0]
            os.kill(victim, signal.SIGKILL)
            _wait(lambda: record.commands() >= 300, 120, "150 more commands after a worker was killed")
            _wait(lambda: victim not in service.worker_pids() and len(service.worker_pids()) == 2, 30, "a new worker")
            at_crash = record.commands()
            service.kill()
            time.sleep(0.5)  # the bots meet refused connections meanwhile
            service.start()
            thread.join(timeout=240)
            assert not thread.is_alive(), "the bots did not finish within 4 minutes"
            result = out[0]
            assert result.record.errors == []
            assert result.record.finished == 16
            assert result.record.retried > 0, "no request was cut off: the kills did not hit the load"
            assert result.record.commands() > at_crash, "no game went on after the restart"
            checked = _stored_games_are_whole(env, result)
            assert checked == len(result.record.acks) >= 300
            _verified(service.url, result)
        finally:
            service.stop()
        print(f"\n{checked} acknowledged commands checked, {result.record.retried} requests retried")


class StreamReader:
    """One SSE client: reads frames in a thread and, when its connection ends before ``event: end``, connects
    again with ``Last-Event-ID`` (like a browser's EventSource). ``cut`` closes the connection from here.
    A seat's client opens each connection with a new stream ticket, asked of ``ticket_url`` (another API
    process may check it) with its token in the header, as a browser must (EventSource sends no header)."""

    def __init__(self, url: str, game: str, token: str | None, ticket_url: str | None = None):
        self.url, self.game, self.token = url, game, token
        self.ticket_url = ticket_url or url
        self.view_seq: int | None = None
        self.seqs: list[int] = []
        self.reconnects = 0
        self.ended = threading.Event()
        self.started = threading.Event()
        self.response: Any = None
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def last(self) -> int | None:
        return self.seqs[-1] if self.seqs else self.view_seq

    def _run(self) -> None:
        import urllib.request

        deadline = time.monotonic() + 180
        while not self.ended.is_set() and time.monotonic() < deadline:
            try:
                query = f"?ticket={self._ticket()}" if self.token else ""
                request = urllib.request.Request(f"{self.url}/api/games/{self.game}/stream{query}")
                if self.last() is not None:
                    request.add_header("Last-Event-ID", str(self.last()))
                self.response = urllib.request.urlopen(request, timeout=30)
                for frame in sse(line.decode() for line in self.response):
                    if frame.get("event") == "view":
                        self.view_seq = int(frame["id"])
                        self.started.set()
                    elif frame.get("event") == "end":
                        self.ended.set()
                        return
                    elif "id" in frame:
                        self.seqs.append(int(frame["id"]))
            except (OSError, ValueError, AttributeError):
                pass  # cut, reset or refused: connect again with Last-Event-ID
            self.reconnects += 1
            time.sleep(0.1)

    def _ticket(self) -> str:
        import json
        import urllib.request

        asked = urllib.request.Request(
            f"{self.ticket_url}/api/games/{self.game}/stream-ticket",
            method="POST",
            headers={"Authorization": f"Bearer {self.token}"},
        )
        with urllib.request.urlopen(asked, timeout=30) as r:
            return str(json.loads(r.read())["ticket"])

    def cut(self) -> None:
        with contextlib.suppress(Exception):
            self.response.fp.raw._sock.shutdown(2)  # drop the socket, as a network failure would


def _own_redis(tmp_path: Path) -> RedisServer:
    """A redis-server of the test's own, started (one the test may kill without touching anyone else's)."""
    try:
        server = RedisServer(tmp_path)
        server.start()
    except (FileNotFoundError, RuntimeError, ImportError) as err:
        need_server("a redis-server of the test's own", err)
    return server


def test_redis_restart_under_connected_streams_misses_nothing(tmp_path):
    """Two API processes share PostgreSQL and a Redis of the test's own. Commands go to one, SSE clients (each
    seat and a spectator, for three games) hold streams on the other. Redis is killed mid-game; half the
    clients lose their connection while it is away and half just after it is back; all reconnect with
    Last-Event-ID. Every stream must carry every event after its view exactly once, in order, to the end."""
    redis_server = _own_redis(tmp_path)
    with pg_schema("aegis_fault_") as env:
        env = {**env, "REDIS_URL": redis_server.url, "AEGIS_REDIS_PREFIX": "aegis-fault:", "AEGIS_SSE_KEEPALIVE": "1"}
        env["AEGIS_REACTION_SECONDS"] = "0"
        writer = Service(env, tmp_path / "writer.log", workers=1, threads=8)
        reader = Service(env, tmp_path / "reader.log", workers=1, threads=32)
        writer.start()
        reader.start()
        streams: list[StreamReader] = []
        try:
            record = Record()
            bots = [
                GameBot(writer.url, i, record, seats=3, variant="simpleton", seed="redis", retry=True, give_up=60, pause=0.05)
                for i in range(3)
            ]
            for bot in bots:
                bot.setup()
                for token in [*bot.tokens, None]:
                    streams.append(StreamReader(reader.url, str(bot.game), token, ticket_url=writer.url))
            _wait(lambda: all(s.started.is_set() for s in streams), 30, "every stream's first view")
            players = [threading.Thread(target=bot.run, args=(GameBot.play,), daemon=True) for bot in bots]
            for p in players:
                p.start()
            _wait(lambda: record.commands() >= 15, 60, "15 commands before Redis goes")
            redis_server.kill()
            during = record.commands()
            for s in streams[::2]:
                s.cut()
            _wait(lambda: record.commands() >= during + 15, 60, "15 commands while Redis is away")
            redis_server.start()
            for s in streams[1::2]:
                s.cut()
            for p in players:
                p.join(timeout=180)
            assert record.errors == [] and all(bot.status == "finished" for bot in bots)
            _wait(lambda: all(s.ended.is_set() for s in streams), 60, "every stream's end")
            assert record.commands() > during + 15
            for s, bot in zip(streams, [b for b in bots for _ in range(4)], strict=True):
                final = read_json(f"{writer.url}/api/games/{bot.game}/view")["seq"]
                assert s.view_seq is not None
                assert s.seqs == list(range(s.view_seq + 1, final + 1)), "a stream missed or repeated an event"
            assert [s.reconnects for s in streams] == [1] * len(streams), "a Redis restart ended a stream"
        finally:
            for s in streams:
                s.ended.set()
                s.cut()
            writer.stop()
            reader.stop()
            redis_server.kill()
        print(f"\n{len(streams)} streams, reconnects {sum(s.reconnects for s in streams)}, {record.commands()} commands")


@contextlib.contextmanager
def _database() -> Iterator[tuple[dict[str, str], Any]]:
    """A PostgreSQL database of the test's own (so that refusing its connections touches nothing else)."""
    try:
        import psycopg

        admin = psycopg.connect(**PG, autocommit=True, connect_timeout=3)
    except Exception as err:
        need_server("PostgreSQL at 127.0.0.1:5432", err)
    name = "aegis_fault_" + secrets.token_hex(4)
    admin.execute(f"CREATE DATABASE {name}")
    try:
        yield postgres_env(name), admin
    finally:
        admin.execute(f"ALTER DATABASE {name} ALLOW_CONNECTIONS true")
        admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        admin.close()


def test_postgres_away_mid_load_gives_fast_503s_then_recovers_without_restart(tmp_path):
    """Mid-load the service's database refuses new connections and its open ones are terminated, for 3 s.
    Every request meanwhile is answered (no hang, no 5xx but 503) within the connection wait (3 s by default)
    plus a margin, with ``Retry-After``; then the same processes serve every game to its end."""
    with _database() as (env, admin):
        name = env["POSTGRES_DBNAME"]
        service = Service({**env, "AEGIS_REACTION_SECONDS": "0"}, tmp_path / "serve.log", workers=2, threads=4)
        service.start()
        pids = sorted(service.worker_pids())
        try:
            record = Record()
            thread, out = _in_background(lambda: run_load(service.url, 12, seed="pg-away", retry=True, record=record))
            _wait(lambda: record.commands() >= 100, 120, "100 commands before the database goes")
            admin.execute(f"ALTER DATABASE {name} ALLOW_CONNECTIONS false")
            admin.execute(f"SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '{name}'")
            time.sleep(3)
            probe = Http(service.url)
            t0 = time.monotonic()
            answer = probe.request("GET", f"/api/games/{record.acks[0].game}/events?after=0&limit=1")
            probe_seconds = time.monotonic() - t0
            admin.execute(f"ALTER DATABASE {name} ALLOW_CONNECTIONS true")
            back = record.commands()
            thread.join(timeout=180)
            assert not thread.is_alive(), "the bots did not finish within 3 minutes after the database came back"
            result = out[0]
            assert result.record.errors == []
            assert result.record.finished == 12
            assert result.record.commands() > back, "no game went on after the database came back"
            assert answer.status == 503 and answer.headers.get("retry-after") == "1", answer
            assert answer.body["type"] == "/api/problems/unavailable"
            assert probe_seconds < 5.0
            assert result.record.unavailable, "no request met the outage"
            assert all(seconds < 5.0 for seconds, _ in result.record.unavailable)
            assert all(after == "1" for _, after in result.record.unavailable)
            statuses = collections.Counter(status for _, status, _ in result.record.samples)
            assert not [s for s in statuses if s >= 500 and s != 503], statuses
            assert sorted(service.worker_pids()) == pids, "a worker was restarted: recovery must need none"
            assert read_json(service.url + "/readyz")["status"] == "ready"
            logged = [line for line in service.log.read_text().splitlines() if "event store error on" in line]
            assert logged and all(re.match(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d+ \[\d+\] WARNING ", x) for x in logged), logged[:3]
            _stored_games_are_whole(env, result)
            _verified(service.url, result)
        finally:
            service.stop()
        print(f"\n503s: {len(result.record.unavailable)}, slowest {max(s for s, _ in result.record.unavailable):.2f} s")


def test_a_worker_restarted_while_the_database_refuses_waits_for_it_and_the_server_stays_up(tmp_path):
    """A worker that dies while the database refuses connections is replaced by one that cannot build its app yet.
    gunicorn stops the whole server when a worker fails to boot; the new worker waits for the store instead (and
    says so), the other worker and the master live on, and once the database is back the server has both workers
    and plays."""
    with _database() as (env, admin):
        name = env["POSTGRES_DBNAME"]
        service = Service(env, tmp_path / "serve.log", workers=2, threads=4)
        service.start()
        try:
            admin.execute(f"ALTER DATABASE {name} ALLOW_CONNECTIONS false")
            admin.execute(f"SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '{name}'")
            victim, survivor = sorted(service.worker_pids())
            os.kill(victim, signal.SIGKILL)
            _wait(lambda: "the event store does not answer" in service.log.read_text(), 30, "the new worker to wait")
            time.sleep(2)  # long enough for a failed boot to have stopped the server
            assert service.proc is not None and service.proc.poll() is None, service.log_tail()
            assert survivor in service.worker_pids() and len(service.worker_pids()) == 2
            admin.execute(f"ALTER DATABASE {name} ALLOW_CONNECTIONS true")
            # the waiting worker answers meanwhile (503, "try again": api/workers.StoreWait); it serves once it says so
            _wait(lambda: "the event store answers: serving" in service.log.read_text(), 60, "the waiting worker to serve")
            booted = lambda: "Worker failed to boot" not in service.log.read_text()  # noqa: E731
            _wait(lambda: booted() and all(_ready(service.url) for _ in range(6)), 60, "readiness of both workers")
            created = Http(service.url).request("POST", "/api/games", {"seats": 3})
            assert created.status == 201, created
        finally:
            service.stop()


def _ready(url: str) -> bool:
    try:
        return read_json(url + "/readyz")["status"] == "ready"
    except Exception:
        return False


def test_the_projection_worker_outlives_a_redis_outage_and_the_lobby_comes_back(tmp_path):
    """``aegis project`` (AEGIS_PROJECTOR=worker) while its Redis is away for 3 s, progress lines every 0.2 s: the
    worker says Redis does not answer, lives on, and once Redis is back (empty: it keeps nothing) a game created
    afterwards is in the lobby again, without restarting anything."""
    redis_server = _own_redis(tmp_path)
    with pg_schema("aegis_fault_") as env:
        env = {**env, "REDIS_URL": redis_server.url, "AEGIS_REDIS_PREFIX": "aegis-fault:", "AEGIS_PROJECTOR": "worker"}
        service = Service(env, tmp_path / "serve.log", workers=1, threads=4)
        log = tmp_path / "project.log"
        with log.open("w") as out:
            projector = subprocess.Popen(
                aegis_command("project", "--report", "0.2"), env={**clean_env(), **env}, stdout=out, stderr=out
            )
        try:
            service.start()
            http = Http(service.url)
            first = http.request("POST", "/api/games", {"seats": 3}).body["id"]
            _wait(lambda: first in str(http.request("GET", "/api/games").body), 30, "the first game in the lobby")
            redis_server.kill()
            _wait(lambda: "Redis does not answer" in log.read_text(), 30, "the projector to say Redis is away")
            time.sleep(3)
            assert projector.poll() is None, log.read_text()[-2000:]
            redis_server.start()
            second = http.request("POST", "/api/games", {"seats": 3}).body["id"]
            _wait(lambda: second in str(http.request("GET", "/api/games").body), 60, "the lobby to come back")
            assert projector.poll() is None and "Traceback" not in log.read_text()
        finally:
            projector.terminate()
            projector.wait(timeout=30)
            service.stop()
            redis_server.kill()


def _three_people(http: Http) -> tuple[str, list[str]]:
    """A started game of three people (A, B, C): its id and their tokens."""
    created = http.request("POST", "/api/games", {"seats": 3}).body
    gid = created["id"]
    tokens = [http.request("POST", f"/api/games/{gid}/seats", {"name": n}).body["token"] for n in ("A", "B", "C")]
    http.request("POST", f"/api/games/{gid}/start", {}, created["host_token"])
    return gid, tokens


def _whoever_is_asked_plays(http: Http, gid: str, tokens: list[str]) -> int:
    """The seat asked posts its first option; returns the seq the command brought the game to."""
    views = [http.request("GET", f"/api/games/{gid}/view", token=t).body for t in tokens]
    seat, view = next((i, v) for i, v in enumerate(views) if [p for p in v["prompts"] if not p["free"]])
    prompt = next(p for p in view["prompts"] if not p["free"])
    answer = http.request("POST", f"/api/games/{gid}/commands", command_of(prompt["options"][0]), tokens[seat])
    assert answer.status == 200, answer
    return int(answer.body["seq"])


def test_while_redis_is_away_a_processs_own_commands_reach_its_streams_at_once(tmp_path):
    """With REDIS_URL the notices of saves go through Redis. While it is away, a command posted to the process that
    holds a game's stream still reaches that stream at once (the process hears its own saves), not at the next
    keep-alive (here 30 s)."""
    redis_server = _own_redis(tmp_path)
    with pg_schema("aegis_fault_") as env:
        env = {**env, "REDIS_URL": redis_server.url, "AEGIS_REDIS_PREFIX": "aegis-fault:", "AEGIS_SSE_KEEPALIVE": "30"}
        service = Service({**env, "AEGIS_REACTION_SECONDS": "0"}, tmp_path / "serve.log", workers=0)
        try:
            service.start()
            http = Http(service.url)
            gid, tokens = _three_people(http)
            stream = StreamReader(service.url, gid, None)  # a spectator: no ticket needed
            assert stream.started.wait(30)
            redis_server.kill()
            time.sleep(1)
            for _ in range(3):  # a command of whoever is asked, posted to this same process
                seq = _whoever_is_asked_plays(http, gid, tokens)
                _wait(lambda seq=seq: (stream.last() or 0) >= seq, 10, "the stream to carry the command")
            stream.ended.set()
        finally:
            service.stop()
            redis_server.kill()


def test_while_redis_is_away_another_processs_commands_reach_a_stream_without_waiting_for_a_keepalive(tmp_path):
    """Two API processes share PostgreSQL and Redis; commands go to one, a spectator's stream is held on the other.
    While Redis is away its notices do not come, so the process holding the stream looks at the store itself, as it
    does with no Redis at all: each command reaches the stream within a few seconds, not at the keep-alive (30 s)."""
    redis_server = _own_redis(tmp_path)
    with pg_schema("aegis_fault_") as env:
        env = {**env, "REDIS_URL": redis_server.url, "AEGIS_REDIS_PREFIX": "aegis-fault:", "AEGIS_SSE_KEEPALIVE": "30"}
        env["AEGIS_REACTION_SECONDS"] = "0"
        writer = Service(env, tmp_path / "writer.log", workers=0)
        reader = Service(env, tmp_path / "reader.log", workers=0)
        stream = None
        try:
            writer.start()
            reader.start()
            http = Http(writer.url)
            gid, tokens = _three_people(http)
            stream = StreamReader(reader.url, gid, None)
            assert stream.started.wait(30)
            redis_server.kill()
            time.sleep(2)  # the reader's subscription has found Redis gone
            for _ in range(3):
                seq = _whoever_is_asked_plays(http, gid, tokens)
                _wait(lambda seq=seq: (stream.last() or 0) >= seq, 10, "the other process's stream")
            assert stream.reconnects == 0
        finally:
            if stream is not None:
                stream.ended.set()
                stream.cut()
            writer.stop()
            reader.stop()
            redis_server.kill()


def test_the_harness_kills_the_whole_service(tmp_path):
    """The SIGKILL test relies on this: after ``kill`` nothing of the service is left (no orphan worker holds
    the port), and ``start`` serves again on the same port."""
    service = Service({"SQLITE_DBNAME": str(tmp_path / "a.sqlite")}, tmp_path / "serve.log", workers=2, threads=2)
    service.start()
    try:
        # the service answers once one worker is up; the second may still be starting (uvicorn workers import more)
        _wait(lambda: len(service.worker_pids()) == 2, 20, "both workers up")
        port, workers = service.port, service.worker_pids()
        service.kill()
        for pid in workers:
            _wait(lambda pid=pid: not Path(f"/proc/{pid}").exists() or "zombie" in _state(pid), 10, f"worker {pid} gone")
        service.start()
        assert service.port == port and read_json(service.url + "/healthz")["status"] == "ok"
    finally:
        service.stop()


def _state(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/status").read_text().split("State:")[1].split("\n")[0].lower()
    except (OSError, IndexError):
        return "zombie"


_START_STORE = """
import os, sys, time
from aegis.service.games import GameStore
from aegis.service.settings import load
while not os.path.exists(sys.argv[1]):
    time.sleep(0.001)
GameStore(load()).close()
"""


def test_processes_starting_together_on_a_new_database_all_start(tmp_path):
    """Six processes open the store of a new PostgreSQL schema at the same moment (as the workers of
    ``aegis serve --workers N`` or ``docker compose up`` do): each creates the tables if they are missing, and
    none may fail (PostgreSQL's CREATE TABLE IF NOT EXISTS is not safe against itself)."""
    import subprocess
    import sys

    from benchmarks.harness import clean_env

    for attempt in range(3):
        with pg_schema("aegis_fault_") as env:
            go = tmp_path / f"go-{attempt}"
            procs = [
                subprocess.Popen(
                    [sys.executable, "-c", _START_STORE, str(go)],
                    env={**clean_env(), **env},
                    stdout=subprocess.PIPE,
                    stderr=subprocess.PIPE,
                    text=True,
                )
                for _ in range(6)
            ]
            time.sleep(3)  # every process has imported the service and waits for the signal
            go.touch()
            outcomes = [(p.wait(timeout=60), p.stderr.read() if p.stderr else "") for p in procs]
            failed = [err.strip().splitlines()[-1] for code, err in outcomes if code != 0]
            assert failed == [], f"attempt {attempt}: {len(failed)} of 6 processes failed to start: {failed[0]}"
