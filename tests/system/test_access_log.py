"""No token reaches a server's log: the real server, as a process, plays a game whose seat streams with a
ticket, then its whole output (stdout and stderr: uvicorn's or Werkzeug's access log, gunicorn's error log and,
when turned on, its access log) is searched for every token and every token's hash.

- ``aegis serve``: in-process, uvicorn writes each request line, query string included, to stdout.
- ``aegis serve --workers 1``: gunicorn as we configure it (``cli/serve.py``) writes no access log.
- the README's equivalent gunicorn line with ``--access-logfile -``: an access log of every request line.
- ``aegis serve --server wsgi``: in-process, Werkzeug writes each request line to stderr.

Where an access log is written, the test also finds the stream's own request line with its ``?ticket=``
in it: query strings are logged, so a ``?token=`` would have been."""

from __future__ import annotations

import hashlib
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.api.test_stream import _call, sse
from tests.api_client import command_of
from tests.system.test_serve import aegis, clean_env, free_port, running

SERVERS = {
    "in-process": lambda port: aegis("serve", "--port", str(port)),
    "aegis-gunicorn": lambda port: aegis("serve", "--port", str(port), "--workers", "1"),
    "gunicorn-access-log": lambda port: [
        *(sys.executable, "-m", "gunicorn", "-w", "1", "-k", "aegis.api.workers.Worker"),
        *("-b", f"127.0.0.1:{port}", "--access-logfile", "-", "aegis.api.asgi:app"),
    ],
    "werkzeug": lambda port: aegis("serve", "--port", str(port), "--server", "wsgi"),
}
WRITES_ACCESS_LOG = {"in-process": True, "aegis-gunicorn": False, "gunicorn-access-log": True, "werkzeug": True}


@pytest.fixture(params=sorted(SERVERS))
def server(request, tmp_path) -> Iterator[tuple[str, str, Path]]:
    port = free_port()
    log_path = tmp_path / "server.log"
    env = {**clean_env(), "AEGIS_SSE_KEEPALIVE": "1"}
    with running(SERVERS[request.param](port), port, tmp_path, log_path, env) as url:
        yield request.param, url, log_path


def _frames_through(frames: Iterator[dict[str, Any]], seq: int) -> list[dict[str, Any]]:
    """Event frames up to and including ``seq`` (or the end of the game), within 30 s (keep-alives every 1 s)."""
    got = []
    deadline = time.monotonic() + 30
    for frame in frames:
        assert time.monotonic() < deadline, f"seq {seq} did not reach the stream within 30 s"
        if frame.get("event") == "end":
            break
        if "id" in frame:
            got.append(frame)
            if int(frame["id"]) >= seq:
                break
    return got


def test_no_token_reaches_the_servers_log_while_a_ticket_stream_plays(server):
    name, url, log_path = server
    created = _call(url, "POST", "/api/games", {"seats": 3, "reaction_seconds": 0, "seed": "access-log"})
    gid, host = created["id"], created["host_token"]
    seats = [_call(url, "POST", f"/api/games/{gid}/seats", {"name": who}) for who in ("Ann", "Ben")]
    _call(url, "POST", f"/api/games/{gid}/seats", {"bot": "random"})
    _call(url, "POST", f"/api/games/{gid}/start", {}, host)
    ann, ben = seats[0]["token"], seats[1]["token"]
    issued = _call(url, "POST", f"/api/games/{gid}/stream-ticket", {}, ann)
    assert issued["seat"] == 0
    stream = urllib.request.urlopen(f"{url}/api/games/{gid}/stream?ticket={issued['ticket']}", timeout=30)
    frames = sse(line.decode() for line in stream)
    view = next(frames)
    assert view["event"] == "view" and view["data"]["you"] == 0 and view["data"]["status"] == "active"
    received: list[dict[str, Any]] = []
    moves = 0
    for _ in range(40):
        views = {t: _call(url, "GET", f"/api/games/{gid}/view", token=t) for t in (ann, ben)}
        if moves >= 8 or any(v["status"] == "finished" for v in views.values()):
            break
        token, mine = next((t, v) for t, v in views.items() if [p for p in v["prompts"] if not p["free"]])
        prompt = next(p for p in mine["prompts"] if not p["free"])
        answer = _call(url, "POST", f"/api/games/{gid}/commands", command_of(prompt["options"][0]), token)
        moves += 1
        received += _frames_through(frames, answer["seq"])
    stream.close()
    assert moves >= 3
    for path, parameter in (("view", "token"), ("stream", "token"), ("events", "Access_Token")):  # refused, masked
        try:
            urllib.request.urlopen(f"{url}/api/games/{gid}/{path}?{parameter}={ben}&views=0", timeout=30)
            raise AssertionError(f"?token= on {path} was not refused")
        except urllib.error.HTTPError as refused:
            assert refused.code == 400 and "token-in-url" in refused.read().decode()
    log = _call(url, "GET", f"/api/games/{gid}/events?after={view['data']['seq']}&limit=5000", token=ann)["events"]
    assert [int(f["id"]) for f in received] == [e["seq"] for e in log][: len(received)]
    assert received and int(received[-1]["id"]) >= answer["seq"]  # every event to the last move, as Ann may see it
    assert [f["data"] for f in received] == log[: len(received)]
    if WRITES_ACCESS_LOG[name]:  # gunicorn logs a request when its response ends: the closed stream's, soon
        deadline = time.monotonic() + 15
        while f"GET /api/games/{gid}/stream?ticket=v1.0." not in log_path.read_text() and time.monotonic() < deadline:
            time.sleep(0.2)
    text = log_path.read_text()
    if WRITES_ACCESS_LOG[name]:
        assert f"/api/games/{gid}/stream?ticket=v1.0." in text, text[-3000:]  # the query string is in the log
        assert f"POST /api/games/{gid}/commands" in text
        assert f"/api/games/{gid}/view?token=<hidden>&views=0" in text, text[-3000:]  # logged, its token masked
        assert f"/api/games/{gid}/events?Access_Token=<hidden>&views=0" in text
    else:
        assert f"/api/games/{gid}/" not in text, text[-3000:]  # no access log at all
    for secret in (host, ann, ben):
        assert secret not in text, f"a token in the {name} log"
        assert hashlib.sha256(secret.encode()).hexdigest() not in text
