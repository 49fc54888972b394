"""``GET /api/games/{id}/stream``: a full view first, then every event for the reader with ``id: <seq>``,
keep-alives, ``Last-Event-ID`` resumption without gaps or duplicates, and the end of the game.
Across processes: two API servers sharing PostgreSQL and Redis, the stream held on one, the command
posted to the other."""

from __future__ import annotations

import itertools
import json
import os
import random
import statistics
import subprocess
import threading
import time
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from tests.api_client import Api, command_of
from tests.conftest import close_app, make_app, need_server
from tests.system.test_serve import aegis, clean_env, free_port


def sse(lines: Iterator[str]) -> Iterator[dict[str, Any]]:
    """Parse an event stream into frames: {"id", "event", "data"} or {"comment"}."""
    frame: dict[str, Any] = {}
    for raw in lines:
        line = raw.rstrip("\n").rstrip("\r")
        if line == "":
            if frame:
                if "data" in frame:
                    frame["data"] = json.loads(frame["data"])
                yield frame
                frame = {}
            continue
        if line.startswith(":"):
            yield {"comment": line[1:].strip()}
            continue
        field, _, value = line.partition(":")
        value = value[1:] if value.startswith(" ") else value
        frame[field] = frame.get(field, "") + value if field == "data" else value


def _lines(response: Any) -> Iterator[str]:
    buffer = ""
    for chunk in response.response:
        buffer += chunk.decode() if isinstance(chunk, bytes) else chunk
        while "\n" in buffer:
            line, buffer = buffer.split("\n", 1)
            yield line + "\n"


@pytest.fixture
def fast_app(sqlite_env):
    app = make_app(sqlite_env, AEGIS_SSE_KEEPALIVE="0.2")
    yield app
    close_app(app)


def _game(app, seats=("human", "random", "cautious"), **spec):
    api = Api(app.test_client())
    gid, host, tokens = api.new_game(list(seats), seed="stream", reaction_seconds=0, **spec)
    api.start(gid, host)
    return api, gid, tokens


def test_a_stream_starts_with_the_view_then_sends_each_event_once(fast_app):
    api, gid, tokens = _game(fast_app)
    response = fast_app.test_client().get(f"/api/games/{gid}/stream", headers=api.auth(tokens[0]), buffered=False)
    assert response.status_code == 200 and response.mimetype == "text/event-stream"
    frames = sse(_lines(response))
    first = next(frames)
    assert first["event"] == "view" and first["data"]["you"] == 0 and int(first["id"]) == first["data"]["seq"]
    seen = [first["data"]["seq"]]
    comments = 0

    def play() -> None:
        Api(fast_app.test_client()).play_humans(gid, {0: tokens[0]}, __import__("random").Random(3))

    player = threading.Thread(target=play)
    player.start()
    end = None
    for frame in frames:
        if "comment" in frame:
            comments += 1
            continue
        if frame.get("event") == "end":
            end = frame
            break
        assert int(frame["id"]) == frame["data"]["seq"] == seen[-1] + 1
        seen.append(frame["data"]["seq"])
    player.join(timeout=60)
    log = api.events(gid, tokens[0])["events"]
    assert seen[1:] == [e["seq"] for e in log if e["seq"] > seen[0]]
    assert end is not None and end["data"]["seq"] == log[-1]["seq"]


def ticket_for(client: Any, gid: str, token: str) -> str:
    """A stream ticket for the seat of ``token`` (asked with the token in the header, as a browser would)."""
    r = client.post(f"/api/games/{gid}/stream-ticket", headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 201, r.get_json()
    return r.get_json()["ticket"]


def test_the_stream_redacts_for_its_reader(fast_app):
    api, gid, tokens = _game(fast_app, seats=("human", "human", "random"))
    ticket = ticket_for(fast_app.test_client(), gid, tokens[1])
    response = fast_app.test_client().get(f"/api/games/{gid}/stream?ticket={ticket}", buffered=False)
    frames = sse(_lines(response))
    assert next(frames)["data"]["you"] == 1
    for token in tokens.values():  # whoever is asked something moves, so that events follow
        view = api.view(gid, token)
        if view["prompts"]:
            assert api.post(gid, token, command_of(view["prompts"][0]["options"][0])).status_code == 200
            break
    got = []
    for frame in frames:
        if "comment" in frame:
            break
        got.append(frame["data"])
    mine = {e["seq"]: e for e in api.events(gid, tokens[1])["events"]}
    assert got and all(e == mine[e["seq"]] for e in got)


def test_last_event_id_resumes_without_gap_or_duplicate(fast_app):
    api, gid, tokens = _game(fast_app)
    log = api.events(gid, tokens[0])["events"]
    resume_at = log[5]["seq"]
    response = fast_app.test_client().get(
        f"/api/games/{gid}/stream", headers={**api.auth(tokens[0]), "Last-Event-ID": str(resume_at)}, buffered=False
    )
    frames = sse(_lines(response))
    got = []
    for frame in frames:
        if "comment" in frame:
            break
        got.append(frame)
    assert "view" not in [f.get("event") for f in got]
    assert [int(f["id"]) for f in got] == [e["seq"] for e in log if e["seq"] > resume_at]


def test_keep_alives_while_nothing_happens_and_the_end_of_a_finished_game(fast_app):
    api, gid, tokens = _game(fast_app)
    response = fast_app.test_client().get(f"/api/games/{gid}/stream", headers=api.auth(tokens[0]), buffered=False)
    frames = sse(_lines(response))
    next(frames)
    assert next(frames) == {"comment": "keep-alive"}
    api.play_humans(gid, {0: tokens[0]}, __import__("random").Random(8))
    finished = fast_app.test_client().get(f"/api/games/{gid}/stream", buffered=False)
    frames = list(sse(_lines(finished)))
    assert [f.get("event") for f in frames] == ["view", "end"]
    assert frames[0]["data"]["status"] == "finished"


def views_follow_events(frames: list[dict[str, Any]], seat: int) -> list[dict[str, Any]]:
    """Check a ``?views=1`` stream's frames: after its first view, each view comes right after one or more events
    and is the reader's view as of the last of them; every event is followed by a view before the next read's
    events (one per read: never two views in a row, never an event left without one before the end). The views."""
    views = [f["data"] for f in frames if f.get("event") == "view"]
    assert frames[0].get("event") == "view"
    last_event = None
    for before, frame in itertools.pairwise(frames):
        if frame.get("event") == "view":
            assert before.get("event") is None and "id" in before, "a view follows the events it brings in"
            assert frame["data"]["seq"] == int(before["id"]) == int(frame["id"]) and frame["data"]["you"] == seat
        elif "id" in frame and frame.get("event") is None:
            last_event = int(frame["id"])
    assert views[-1]["seq"] == last_event, "the last events were followed by the view"
    return views


def test_a_stream_of_views_lets_a_client_play_from_it_alone(fast_app):
    """``?views=1``: a client that keeps no rules plays a whole game from the views its stream pushes (prompts
    included), never fetching its view; every event still comes once, each read's events followed by the view."""
    api, gid, tokens = _game(fast_app)
    client = fast_app.test_client()
    response = client.get(f"/api/games/{gid}/stream?views=1", headers=api.auth(tokens[0]), buffered=False)
    rng = __import__("random").Random(11)
    got: list[dict[str, Any]] = []
    moves = 0
    for frame in sse(_lines(response)):
        if "comment" in frame:
            continue
        got.append(frame)
        if frame.get("event") == "end":
            break
        if frame.get("event") == "view":
            prompts = [p for p in frame["data"]["prompts"] if not p["free"]]
            if prompts:  # the pushed view is the latest: its prompt is open
                sent = api.post(gid, tokens[0], command_of(rng.choice(prompts[0]["options"]), rng))
                assert sent.status_code == 200, sent.get_json()
                moves += 1
    assert moves > 3 and got[-1]["event"] == "end"
    views = views_follow_events(got[:-1], 0)
    assert views[-1]["status"] == "finished" and views[-1]["seq"] == got[-1]["data"]["seq"]
    log = api.events(gid, tokens[0])["events"]
    assert [int(f["id"]) for f in got if f.get("event") is None] == [e["seq"] for e in log if e["seq"] > got[0]["data"]["seq"]]


def test_a_resumed_stream_of_views_brings_the_view_after_its_first_read(fast_app):
    api, gid, tokens = _game(fast_app)
    log = api.events(gid, tokens[0])["events"]
    headers = {**api.auth(tokens[0]), "Last-Event-ID": str(log[3]["seq"])}
    response = fast_app.test_client().get(f"/api/games/{gid}/stream?views=true", headers=headers, buffered=False)
    got = []
    for frame in sse(_lines(response)):
        if "comment" in frame:
            break
        got.append(frame)
    assert [int(f["id"]) for f in got[:-1]] == [e["seq"] for e in log if e["seq"] > log[3]["seq"]]
    assert got[-1]["event"] == "view" and got[-1]["data"] == api.view(gid, tokens[0])


def test_stream_refusals(fast_app):
    _, gid, _ = _game(fast_app)
    c = fast_app.test_client()
    assert c.get(f"/api/games/{gid}/stream", headers={"Authorization": "Bearer seat_wrong"}).status_code == 401
    assert c.get(f"/api/games/{gid}/stream?ticket=v1.0.1.00").status_code == 401
    assert c.get(f"/api/games/{gid}/stream?token=seat_wrong").status_code == 400  # a token in a URL is logged
    assert "stream-ticket" in c.get(f"/api/games/{gid}/stream?token=seat_wrong").get_json()["detail"]  # the way instead
    for path, name in (("view", "token"), ("events", "access_token"), ("timeline", "Token"), ("stream", "Access_Token")):
        refused = c.get(f"/api/games/{gid}/{path}?{name}=seat_wrong")  # never taken as a spectator's, in silence
        assert refused.status_code == 400 and refused.get_json()["type"].endswith("/token-in-url"), path
    assert c.get(f"/api/games/{gid}/stream", headers={"Last-Event-ID": "x"}).status_code == 400
    seq = c.get(f"/api/games/{gid}/view").get_json()["seq"]
    past = c.get(f"/api/games/{gid}/stream?last_event_id={seq + 1}")  # no event has it: resuming would wait in silence
    assert past.status_code == 400 and f"past this game's last event (seq {seq})" in past.get_json()["detail"]
    refused = c.get(f"/api/games/{gid}/stream?views=yes")
    assert refused.status_code == 400 and "views must be 1" in refused.get_json()["detail"]
    assert c.get("/api/games/00000000-0000-0000-0000-000000000000/stream").status_code == 404


def test_one_client_holds_at_most_its_share_of_open_streams(sqlite_env):
    """AEGIS_STREAMS_PER_CLIENT on the threaded route: one stream more is refused before it opens (429, Retry-After)
    and holds nothing; closing a stream frees its slot."""
    app = make_app(sqlite_env, AEGIS_STREAMS_PER_CLIENT="2", AEGIS_SSE_KEEPALIVE="0.2")
    try:
        _, gid, _ = _game(app)
        c = app.test_client()
        held = [c.get(f"/api/games/{gid}/stream", buffered=False) for _ in range(2)]
        assert [r.status_code for r in held] == [200, 200]
        refused = c.get(f"/api/games/{gid}/stream", buffered=False)
        assert refused.status_code == 429 and refused.headers["Retry-After"] == "5"
        body = refused.get_json()
        assert body["type"] == "/api/problems/rate-limited" and "AEGIS_STREAMS_PER_CLIENT" in body["detail"]
        held.pop().close()
        again = c.get(f"/api/games/{gid}/stream", buffered=False)
        assert again.status_code == 200
        first = next(sse(_lines(again)))
        assert first["event"] == "view"
        for r in (*held, again):
            r.close()
        assert app.extensions["aegis.stream_slots"].holding("127.0.0.1") == 0
    finally:
        close_app(app)


# ----- two processes sharing PostgreSQL and Redis -----


@pytest.fixture
def redis_url() -> str:
    url = "redis://127.0.0.1:6379/0"
    try:
        import redis

        redis.Redis.from_url(url, socket_connect_timeout=2).ping()
    except Exception as err:
        need_server("Redis at 127.0.0.1:6379", err)
    return url


def _serve(env: dict[str, str], tmp_path, name: str, server: str = "asgi") -> tuple[subprocess.Popen, str]:
    port = free_port()
    log = (tmp_path / f"{name}.log").open("w")
    command = aegis("serve", "--port", str(port), "--server", server)
    proc = subprocess.Popen(command, env={**clean_env(), **env}, cwd=tmp_path, stdout=log, stderr=log)
    url = f"http://127.0.0.1:{port}"
    for _ in range(300):
        try:
            with urllib.request.urlopen(url + "/readyz", timeout=1):
                return proc, url
        except OSError:
            time.sleep(0.05)
    proc.kill()
    pytest.fail(f"{name} did not start: " + (tmp_path / f"{name}.log").read_text())


def _call(url: str, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
    req = urllib.request.Request(url + path, data=None if body is None else json.dumps(body).encode(), method=method)
    req.add_header("Content-Type", "application/json")
    if token:
        req.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.loads(r.read())


def _moves_seen_on_another_process(url_a: str, url_b: str, seed: str) -> tuple[list[float], str, dict[str, Any]]:
    """A game made and played on process A while one of its seats holds its stream on process B: for each of up
    to 12 commands posted to A, the seconds until B's stream sent its last event. Returns those, the game and the
    seat whose stream it was."""
    created = _call(url_a, "POST", "/api/games", {"seats": 3, "reaction_seconds": 0, "seed": seed})
    gid = created["id"]
    me = _call(url_a, "POST", f"/api/games/{gid}/seats", {"name": "A"})
    them = _call(url_a, "POST", f"/api/games/{gid}/seats", {"name": "B"})
    _call(url_a, "POST", f"/api/games/{gid}/seats", {"bot": "random"})
    _call(url_a, "POST", f"/api/games/{gid}/start", {}, created["host_token"])
    ticket = _call(url_a, "POST", f"/api/games/{gid}/stream-ticket", {}, them["token"])["ticket"]  # any process checks it
    stream = urllib.request.urlopen(f"{url_b}/api/games/{gid}/stream?ticket={ticket}", timeout=30)
    try:
        frames = sse(line.decode() for line in stream)
        first = next(frames)
        assert first["event"] == "view" and first["data"]["you"] == them["seat"]
        latencies = []
        for _ in range(12):
            views = {t: _call(url_a, "GET", f"/api/games/{gid}/view", token=t) for t in (me["token"], them["token"])}
            if any(v["status"] == "finished" for v in views.values()):
                break
            token, view = next((t, v) for t, v in views.items() if [p for p in v["prompts"] if not p["free"]])
            prompt = next(p for p in view["prompts"] if not p["free"])
            sent = time.perf_counter()
            answer = _call(url_a, "POST", f"/api/games/{gid}/commands", command_of(prompt["options"][0]), token)
            for frame in frames:
                if "comment" in frame:
                    continue
                if frame.get("event") == "end" or int(frame["id"]) >= answer["seq"]:
                    break
            latencies.append(time.perf_counter() - sent)
    finally:
        stream.close()
    assert len(latencies) >= 3
    return latencies, gid, them


def test_a_command_on_one_process_reaches_a_stream_held_on_another(postgres_env, redis_url, tmp_path):
    prefix = f"aegis-test-{os.getpid()}-{time.monotonic_ns()}:"
    env = {
        **postgres_env,
        "REDIS_URL": redis_url,
        "AEGIS_SSE_KEEPALIVE": "1",
        "AEGIS_PROJECTOR": "worker",
        "AEGIS_REDIS_PREFIX": prefix,
    }
    a, url_a = _serve(env, tmp_path, "api-a")
    b, url_b = _serve(env, tmp_path, "api-b")
    worker = subprocess.Popen(
        aegis("project", "--report", "1"),
        env={**clean_env(), **env},
        cwd=tmp_path,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        latencies, gid, them = _moves_seen_on_another_process(url_a, url_b, "two-processes")
        print(f"\ncross-process delivery: n={len(latencies)} median={statistics.median(latencies) * 1000:.1f} ms")
        assert statistics.median(latencies) < 0.9  # a notice, not a keep-alive (every 1 s), brought the events
        # process B serves A's latest move at once (it reads the game from the store), the same view as A's
        req = urllib.request.Request(f"{url_b}/api/games/{gid}/view", headers={"Authorization": f"Bearer {them['token']}"})
        with urllib.request.urlopen(req, timeout=10) as r:
            seen = json.loads(r.read())
        assert seen == _call(url_a, "GET", f"/api/games/{gid}/view", token=them["token"])
    finally:
        for proc in (a, b, worker):
            proc.terminate()
            proc.wait(timeout=10)
        from aegis.projections.store import RedisViewStore

        RedisViewStore(redis_url, prefix).clear()
    assert os.path.exists(tmp_path / "api-a.log")


@pytest.mark.parametrize("server", ["asgi", "wsgi"])
def test_without_redis_a_stream_hears_of_another_processes_commands_from_the_store(sqlite_env, tmp_path, server):
    """Two processes on one SQLite file and no Redis (``aegis serve --workers 2`` on the default store): notices stay in
    each process, so process B finds A's saves in the store itself (``service/store_watch.py``), within a fraction of a
    second, not at its keep-alive (30 s here). On either server: the asynchronous one, and the threaded one."""
    env = {**sqlite_env, "AEGIS_SSE_KEEPALIVE": "30"}
    a, url_a = _serve(env, tmp_path, "api-a", server)
    b, url_b = _serve(env, tmp_path, "api-b", server)
    try:
        latencies, _, _ = _moves_seen_on_another_process(url_a, url_b, "two-processes-sqlite")
    finally:
        for proc in (a, b):
            proc.terminate()
            proc.wait(timeout=10)
    print(f"\ncross-process delivery without Redis: n={len(latencies)} median={statistics.median(latencies) * 1000:.1f} ms")
    assert max(latencies) < 5.0  # the keep-alive is 30 s: only the look at the store can have brought them
    assert statistics.median(latencies) < 1.0


def test_every_listener_of_a_process_shares_one_redis_subscription(redis_url):
    """The deadline keeper and the streams' hub of a process both hear every game's notices: through one pattern
    subscription (one Redis connection), not one each; both hear every notice; it closes when the last one leaves."""
    import redis

    from aegis.service.broker import RedisBroker

    admin = redis.Redis.from_url(redis_url)

    def pattern_clients() -> int:
        return sum(1 for c in admin.client_list() if int(c.get("psub", 0)) > 0)

    before = pattern_clients()
    broker = RedisBroker(redis_url)
    with broker.listen_all() as keeper, broker.listen_all() as hub:
        assert pattern_clients() == before + 1
        broker.publish("g-shared", 7, 12.5)
        for listener in (keeper, hub):
            heard: list[Any] = []
            deadline = time.monotonic() + 10
            while not any(n.game_id == "g-shared" for n in heard) and time.monotonic() < deadline:
                heard += listener.get(timeout=0.5)
            assert [(n.seq, n.deadline) for n in heard if n.game_id == "g-shared"] == [(7, 12.5)]
    deadline = time.monotonic() + 10
    while pattern_clients() > before and time.monotonic() < deadline:
        time.sleep(0.1)
    assert pattern_clients() == before, "the shared subscription outlived its last listener"


def test_the_threaded_stream_route_hears_of_another_apps_saves_and_stops_watching_when_it_ends(sqlite_env):
    """Without Redis, the threaded server's stream (a thread per stream, ``api/stream.py``) learns of a save made by
    another process on the same store from the store itself, long before its keep-alive (30 s here); once its last
    stream ends, the watching thread ends too."""
    here, there = make_app(sqlite_env, AEGIS_SSE_KEEPALIVE="30"), make_app(sqlite_env)
    try:
        api_here, api_there = Api(here.test_client()), Api(there.test_client())
        gid, host, tokens = api_here.new_game(["human", "human", "human"], seed="threaded-watch", reaction_seconds=0)
        api_here.start(gid, host)
        watch = here.extensions["aegis.stream_watch"]
        response = here.test_client().get(f"/api/games/{gid}/stream", buffered=False)
        frames = sse(_lines(response))
        view = next(frames)
        assert view["event"] == "view" and watch.games[gid] == 1
        found = api_there.open_command(gid, tokens, random.Random(5))
        assert found is not None
        started = time.monotonic()
        answer = api_there.post(gid, *found).get_json()
        got = next(f for f in frames if "comment" not in f)
        assert int(got["id"]) == view["data"]["seq"] + 1 and time.monotonic() - started < 5
        while int(got["id"]) < answer["seq"]:
            got = next(f for f in frames if "comment" not in f)
        response.close()
        thread = watch._thread
        assert not watch.games and thread is not None
        thread.join(timeout=5)
        assert not thread.is_alive() and watch._thread is None
    finally:
        close_app(here)
        close_app(there)
