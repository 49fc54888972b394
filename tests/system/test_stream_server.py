"""Event streams on ``aegis serve --server asgi`` (uvicorn; gunicorn's uvicorn workers with ``--workers``), over
real HTTP against the server as a process (issue 18): many open streams hold no thread, so health checks and
commands are answered while they run; sockets that send half a request and stall hold no thread either; and the
stream keeps its contract (view first with its id, events with ids, keep-alives, the end, ``Last-Event-ID``,
tickets, refusals as problem+json). Nothing here is timed: a generous timeout only says "it answered"."""

from __future__ import annotations

import contextlib
import json
import os
import random
import socket
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.api.test_stream import _call, redis_url, sse  # noqa: F401 (redis_url: a fixture)
from tests.api_client import command_of
from tests.system.test_serve import aegis, clean_env, free_port, running, wait_ready

ANSWER_SECONDS = 10.0  # "answered": far above any real latency, far below a stall


@contextlib.contextmanager
def served(tmp_path: Path, workers: int, **env: str) -> Iterator[str]:
    port = free_port()
    command = aegis("serve", "--server", "asgi", "--port", str(port), "--workers", str(workers))
    with running(command, port, tmp_path, tmp_path / f"serve-{port}.log", {**clean_env(), **env}, stop_seconds=20) as url:
        yield url


def _port(url: str) -> int:
    return int(url.rsplit(":", 1)[1])


def _started_game(url: str, humans: int = 1, bots: int = 2, seed: str = "server") -> tuple[str, list[dict[str, Any]]]:
    created = _call(url, "POST", "/api/games", {"seats": humans + bots, "reaction_seconds": 0, "seed": seed})
    gid = created["id"]
    seats = [_call(url, "POST", f"/api/games/{gid}/seats", {"name": f"P{i}"}) for i in range(humans)]
    for _ in range(bots):
        _call(url, "POST", f"/api/games/{gid}/seats", {"bot": "random"})
    _call(url, "POST", f"/api/games/{gid}/start", {}, created["host_token"])
    return gid, seats


def _move(url: str, gid: str, seats: list[dict[str, Any]], rng: random.Random) -> dict[str, Any] | None:
    """One human move (a random option of the first open prompt); None once the game is over."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        for seat in seats:
            view = _call(url, "GET", f"/api/games/{gid}/view", token=seat["token"])
            if view["status"] == "finished":
                return None
            prompts = [p for p in view["prompts"] if not p["free"]]
            if prompts:
                command = command_of(rng.choice(prompts[0]["options"]), rng)
                return _call(url, "POST", f"/api/games/{gid}/commands", command, seat["token"])
        time.sleep(0.02)
    raise AssertionError("no human was asked anything for 30 s, yet the game is not over")


def _timed_get(url: str) -> tuple[int, float]:
    began = time.perf_counter()
    with urllib.request.urlopen(url, timeout=ANSWER_SECONDS) as r:
        r.read()
        return r.status, time.perf_counter() - began


class RawStream:
    """A stream read off a bare socket (hundreds of them, with no thread each, in the test too)."""

    def __init__(self, port: int, path: str):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=ANSWER_SECONDS)
        self.sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n".encode())
        self.data = b""

    def wait_for(self, needle: bytes, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while needle not in self.data:
            left = deadline - time.monotonic()
            assert left > 0, f"{needle!r} did not arrive within {timeout:.0f} s: {self.data[-300:]!r}"
            self.sock.settimeout(left)
            chunk = self.sock.recv(65536)
            assert chunk, f"the stream closed before {needle!r}: {self.data[-300:]!r}"
            self.data += chunk

    def close(self) -> None:
        self.sock.close()


def test_two_hundred_open_streams_leave_health_and_commands_answered(tmp_path, redis_url):  # noqa: F811
    """Issue 18: with 2 workers, 200 spectators streaming one game held every thread (16), and /healthz and every
    command waited 10 s and more. Here the streams hold none: both answer, and every stream gets the command's
    events from the notice (the keep-alive is 60 s, longer than the test waits)."""
    prefix = f"aegis-test-{os.getpid()}-{time.monotonic_ns()}:"
    env = {"REDIS_URL": redis_url.rsplit("/", 1)[0] + "/15", "AEGIS_REDIS_PREFIX": prefix, "AEGIS_SSE_KEEPALIVE": "60"}
    streams: list[RawStream] = []
    try:
        with served(tmp_path, 2, **env) as url:
            gid, seats = _started_game(url)
            for _ in range(200):
                streams.append(RawStream(_port(url), f"/api/games/{gid}/stream"))
            for s in streams:
                s.wait_for(b"event: view\n", 30)
            status, health = _timed_get(url + "/healthz")
            assert status == 200
            began = time.perf_counter()
            answer = _move(url, gid, seats, random.Random(1))
            command = time.perf_counter() - began
            assert answer is not None and answer["events"]
            for s in streams:
                s.wait_for(b"\nid: %d\n" % answer["seq"], 30)
            print(f"\n200 streams open on 2 workers: /healthz {health * 1000:.0f} ms, view+command {command * 1000:.0f} ms")
    finally:
        for s in streams:
            s.close()
        from aegis.projections.store import RedisViewStore

        RedisViewStore(env["REDIS_URL"], prefix).clear()


def test_one_client_may_not_hold_more_streams_than_its_share(tmp_path):
    """AEGIS_STREAMS_PER_CLIENT on the asynchronous server: a stream more is refused with 429 before it opens; a
    closed stream frees its slot."""
    with served(tmp_path, 0, AEGIS_STREAMS_PER_CLIENT="3") as url:
        gid, _ = _started_game(url, seed="slots")
        path = f"/api/games/{gid}/stream"
        held = [RawStream(_port(url), path) for _ in range(3)]
        for s in held:
            s.wait_for(b"event: view\n", 30)
        refused = RawStream(_port(url), path)
        refused.wait_for(b"rate-limited", 30)
        head = refused.data.split(b"\r\n\r\n")[0].lower()
        assert head.startswith(b"http/1.1 429") and b"retry-after: 5" in head, refused.data
        refused.close()
        held.pop().close()
        deadline = time.monotonic() + ANSWER_SECONDS
        while True:  # the server notices the closed socket at its next write or read: try until a slot is free
            again = RawStream(_port(url), path)
            again.wait_for(b"\r\n\r\n", 30)
            if again.data.startswith(b"HTTP/1.1 200"):
                break
            again.close()
            assert time.monotonic() < deadline, "the closed stream's slot was never freed"
            time.sleep(0.2)
        again.wait_for(b"event: view\n", 30)
        for s in (*held, again):
            s.close()


def test_half_sent_requests_do_not_stall_the_server(tmp_path):
    """Issue 18: 20 half-sent request headers stalled a 2-worker server (a thread blocked reading each). Here 40
    sockets stall mid-header and 10 mid-body; /healthz, a new game and a command are answered meanwhile."""
    with served(tmp_path, 2) as url:
        stalled = []
        for i in range(50):
            sock = socket.create_connection(("127.0.0.1", _port(url)), timeout=ANSWER_SECONDS)
            if i < 40:
                sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
            else:
                head = b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 200\r\n"
                sock.sendall(head + b'\r\n{"seats"')
            stalled.append(sock)
        try:
            time.sleep(0.5)
            for _ in range(5):
                status, _elapsed = _timed_get(url + "/healthz")
                assert status == 200
            gid, seats = _started_game(url, seed="stalled")
            assert _move(url, gid, seats, random.Random(2)) is not None
            for sock in stalled[:3]:  # and the stalled ones were not answered as if complete
                sock.settimeout(0.2)
                with pytest.raises(TimeoutError):
                    sock.recv(1)
        finally:
            for sock in stalled:
                sock.close()


class Reader:
    """An SSE client over urllib, reading in a thread until ``event: end`` (or the connection ends)."""

    def __init__(self, url: str, headers: dict[str, str] | None = None):
        self.response = urllib.request.urlopen(urllib.request.Request(url, headers=headers or {}), timeout=30)
        self.frames: list[dict[str, Any]] = []
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        for frame in sse(line.decode() for line in self.response):
            self.frames.append(frame)
            if frame.get("event") == "end":
                break

    def events(self) -> list[dict[str, Any]]:
        return [f for f in self.frames if "id" in f and f.get("event") is None]

    def wait(self, condition: Any, timeout: float = 30) -> None:
        deadline = time.monotonic() + timeout
        while not condition(self.frames):
            assert time.monotonic() < deadline, f"timed out; frames so far: {self.frames[-3:]}"
            time.sleep(0.02)


def _problem(url: str, headers: dict[str, str] | None = None) -> tuple[int, dict[str, Any]]:
    with pytest.raises(urllib.error.HTTPError) as caught:
        urllib.request.urlopen(urllib.request.Request(url, headers=headers or {}), timeout=10)
    assert caught.value.headers["Content-Type"] == "application/problem+json"
    return caught.value.code, json.loads(caught.value.read())


def test_the_stream_contract_on_the_asynchronous_server(tmp_path):
    with served(tmp_path, 0, AEGIS_SSE_KEEPALIVE="0.3") as url:
        gid, seats = _started_game(url, humans=2, bots=1, seed="contract")
        stream_url = f"{url}/api/games/{gid}/stream"
        ticket = _call(url, "POST", f"/api/games/{gid}/stream-ticket", {}, seats[1]["token"])["ticket"]

        # refusals, as problem+json, before any frame
        assert _problem(stream_url + "?token=" + seats[0]["token"])[1]["type"] == "/api/problems/token-in-url"
        assert _problem(stream_url, {"Authorization": "Bearer seat_wrong"})[0] == 401
        assert _problem(stream_url + "?ticket=v1.1.1.00")[0] == 401
        assert _problem(stream_url, {"Last-Event-ID": "x"})[0] == 400
        status, body = _problem(f"{url}/api/games/00000000-0000-0000-0000-000000000000/stream")
        assert status == 404 and body["status"] == 404 and body["instance"].endswith("/stream")
        assert _problem(f"{url}/api/games/not-a-game/stream")[0] == 404

        seat = Reader(f"{stream_url}?ticket={ticket}")  # seat 1, by its ticket
        spectator = Reader(stream_url)
        header = Reader(stream_url, {"Authorization": f"Bearer {seats[0]['token']}"})  # seat 0, by its token
        for r in (seat, spectator, header):
            r.wait(lambda frames: len(frames) >= 2)
        first = seat.frames[0]
        assert first["event"] == "view" and first["data"]["you"] == 1 and int(first["id"]) == first["data"]["seq"]
        assert header.frames[0]["data"]["you"] == 0 and spectator.frames[0]["data"]["you"] is None
        assert seat.frames[1] == {"comment": "keep-alive"}  # nothing happened yet

        rng = random.Random(5)
        readers = ((seat, seats[1]["token"]), (spectator, None), (header, seats[0]["token"]))
        answer = None
        for _ in range(6):  # mid-game, each stream's events are the reader's, as /events redacts them
            answer = _move(url, gid, seats, rng) or answer
        assert answer is not None
        for r, token in readers:
            r.wait(lambda frames, seq=answer["seq"]: any(f.get("id") == str(seq) for f in frames))
            start = r.frames[0]["data"]["seq"]
            log = _call(url, "GET", f"/api/games/{gid}/events?after={start}&limit={answer['seq'] - start}", token=token)
            assert log["seq"] >= answer["seq"] and _call(url, "GET", f"/api/games/{gid}/view")["status"] == "active"
            assert [f["data"] for f in r.events() if f["data"]["seq"] <= answer["seq"]] == log["events"]
        while _move(url, gid, seats, rng) is not None:
            pass
        for r, _token in readers:
            r.wait(lambda frames: frames and frames[-1].get("event") == "end", 60)
            r.thread.join(timeout=10)
        for r, token in readers:  # every event once, in order, with its id; then the end at the last seq
            start = r.frames[0]["data"]["seq"]
            log = _call(url, "GET", f"/api/games/{gid}/events?after={start}&limit=5000", token=token)["events"]
            assert [int(f["id"]) for f in r.events()] == [e["seq"] for e in log] == [f["data"]["seq"] for f in r.events()]
            assert r.frames[-1]["data"]["seq"] == log[-1]["seq"]
        last = seat.events()[-1]["data"]["seq"]
        finished_log = _call(url, "GET", f"/api/games/{gid}/events?after=0&limit=5000", token=seats[1]["token"])["events"]

        # resume: after seq k, every later event once, no view, then the end
        for k in (last - 7, last - 3):
            for resumed in (
                Reader(f"{stream_url}?ticket={ticket}", {"Last-Event-ID": str(k)}),
                Reader(f"{stream_url}?ticket={ticket}&last_event_id={k}"),
            ):
                resumed.thread.join(timeout=30)
                assert [f.get("event") for f in resumed.frames][-1] == "end"
                assert "view" not in [f.get("event") for f in resumed.frames]
                assert [int(f["id"]) for f in resumed.events()] == list(range(k + 1, last + 1))
                assert [f["data"] for f in resumed.events()] == [e for e in finished_log if e["seq"] > k]

        finished = Reader(stream_url)  # a finished game: its view, then the end
        finished.thread.join(timeout=30)
        assert [f.get("event") for f in finished.frames] == ["view", "end"]
        assert finished.frames[0]["data"]["status"] == "finished"


def test_a_stream_of_views_on_the_asynchronous_server(tmp_path):
    """``?views=1`` on the hub: a seat plays a whole game from the views its stream pushes (never fetching one), a
    spectator's stream of views follows it, and each stream's every event comes once, each read's followed by the
    view as of its last event; refusals as on the Flask route."""
    from tests.api.test_stream import views_follow_events

    with served(tmp_path, 0, AEGIS_SSE_KEEPALIVE="0.3") as url:
        gid, seats = _started_game(url, humans=1, bots=2, seed="views")
        stream_url = f"{url}/api/games/{gid}/stream"
        assert _problem(stream_url + "?views=2")[0] == 400
        player = Reader(stream_url + "?views=1", {"Authorization": f"Bearer {seats[0]['token']}"})
        spectator = Reader(stream_url + "?views=1")
        plain = Reader(stream_url)  # the spectator again, without views: its reads are shared with the one above
        rng, done, moves = random.Random(4), 0, 0
        deadline = time.monotonic() + 120
        while not (player.frames and player.frames[-1].get("event") == "end"):
            assert time.monotonic() < deadline, f"the game did not end; last frames {player.frames[-3:]}"
            frames = [f for f in player.frames if "comment" not in f]
            fresh = [f for f in frames[done:] if f.get("event") == "view"]
            done = len(frames)
            prompts = [p for p in fresh[-1]["data"]["prompts"] if not p["free"]] if fresh else []
            if prompts:
                command = command_of(rng.choice(prompts[0]["options"]), rng)
                _call(url, "POST", f"/api/games/{gid}/commands", command, seats[0]["token"])
                moves += 1
            time.sleep(0.01)
        for r in (spectator, plain):
            r.wait(lambda frames: frames and frames[-1].get("event") == "end", 60)
        assert [f.get("event") for f in plain.frames if f.get("event")] == ["view", "end"], "views only where asked"
        log = _call(url, "GET", f"/api/games/{gid}/events?after=0&limit=5000")["events"]
        for reader, seat in ((player, 0), (spectator, None)):
            frames = [f for f in reader.frames if "comment" not in f]
            views = views_follow_events(frames[:-1], seat)
            assert views[-1]["status"] == "finished" and views[-1]["seq"] == log[-1]["seq"]
            assert [int(f["id"]) for f in reader.events()] == [e["seq"] for e in log if e["seq"] > views[0]["seq"]]
        assert moves > 3


@pytest.mark.parametrize("workers", [0, 1], ids=["in-process", "gunicorn-1-worker"])
def test_a_shutdown_ends_open_streams_cleanly_with_no_error_line(tmp_path, workers):
    """L3: SIGTERM with streams open. Before, uvicorn cancelled them when its graceful shutdown (5 s) ran out, logged
    "ERROR: Cancel 1 running task(s), timeout graceful shutdown exceeded", and the client's chunked body was cut
    (curl: exit 18). Now shutdown ends every stream at once, whole: curl exits 0, soon, and no ERROR is logged."""
    import shutil
    import signal
    import subprocess

    curl = shutil.which("curl")
    if curl is None:
        pytest.skip("curl is not installed")
    port = free_port()
    log_path = tmp_path / "serve.log"
    command = aegis("serve", "--port", str(port), "--workers", str(workers))
    with log_path.open("w") as log:
        proc = subprocess.Popen(command, cwd=tmp_path, env=clean_env(), stdout=log, stderr=log)
    url = f"http://127.0.0.1:{port}"
    clients: list[subprocess.Popen[bytes]] = []
    try:
        wait_ready(url, proc, command, log_path)
        gid, seats = _started_game(url)
        for token in (seats[0]["token"], None):  # a seat's stream and a spectator's
            auth = ["-H", f"Authorization: Bearer {token}"] if token else []
            out = (tmp_path / f"stream-{len(clients)}.txt").open("wb")
            clients.append(subprocess.Popen([curl, "-sS", "-N", *auth, f"{url}/api/games/{gid}/stream"], stdout=out))
        deadline = time.monotonic() + ANSWER_SECONDS
        while not all((tmp_path / f"stream-{i}.txt").read_bytes().count(b"event: view") for i in range(len(clients))):
            assert time.monotonic() < deadline, "the streams did not open"
            time.sleep(0.05)
        t0 = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        codes = [client.wait(timeout=20) for client in clients]
        ended = time.monotonic() - t0
        proc.wait(timeout=20)
    finally:
        for client in clients:
            if client.poll() is None:
                client.kill()
        if proc.poll() is None:
            proc.kill()
    logged = log_path.read_text()
    assert codes == [0, 0], (codes, logged[-3000:])  # curl 18: the chunked body was cut
    assert ended < 4.0, ended  # before uvicorn's own 5 s timeout
    assert "ERROR" not in logged and "Cancel" not in logged, logged[-3000:]
    last_words = b": the server is shutting down; resume with Last-Event-ID\n\n"
    for i in range(len(clients)):
        assert (tmp_path / f"stream-{i}.txt").read_bytes().endswith(last_words)
