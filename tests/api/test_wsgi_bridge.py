"""The bridge that serves the Flask app under the ASGI server (``api/wsgi_bridge.py``): a response arrives whole and
in order, whether gathered at once or streamed a chunk at a time past ``GATHER`` bytes, and the app's iterable is
closed (its ``call_on_close`` callbacks run) once it is sent."""

from __future__ import annotations

import asyncio
from typing import Any

from flask import Flask, Response

from aegis.api.wsgi_bridge import GATHER, WsgiBridge

CHUNK = b"x" * 10_000


def _app(closed: list[str]) -> Flask:
    app = Flask("bridge-test")

    @app.get("/small")
    def small() -> Response:
        response = Response('{"ok": true}', status=201, mimetype="application/json", headers={"X-Test": "yes"})
        response.call_on_close(lambda: closed.append("small"))
        return response

    @app.get("/long")
    def long() -> Response:
        def lines() -> Any:
            for i in range(2 * GATHER // len(CHUNK) + 5):
                yield CHUNK[:-7] + f"{i:06d}\n".encode()

        response = Response(lines(), mimetype="application/x-ndjson")
        response.call_on_close(lambda: closed.append("long"))
        return response

    @app.post("/echo")
    def echo() -> Response:
        from flask import request

        return Response(request.get_data(), mimetype="application/octet-stream")

    return app


def _call(app: Flask, method: str, path: str, body: bytes = b"") -> list[dict[str, Any]]:
    """The ASGI messages the bridge sends for one request to ``app`` (a bridge of its own, shut down after)."""
    bridge = WsgiBridge(app, threads=2)
    try:
        return _sent(bridge, method, path, body)
    finally:
        bridge.shutdown()


def _sent(bridge: WsgiBridge, method: str, path: str, body: bytes) -> list[dict[str, Any]]:
    scope = {
        "type": "http",
        "method": method,
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "headers": [(b"host", b"test"), (b"content-length", str(len(body)).encode())],
        "client": ("127.0.0.1", 5000),
        "server": ("127.0.0.1", 80),
        "scheme": "http",
        "http_version": "1.1",
        "root_path": "",
    }
    sent: list[dict[str, Any]] = []

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    asyncio.run(bridge(scope, body, send))
    return sent


def test_a_small_response_is_sent_with_its_start_in_one_piece_and_closed():
    closed: list[str] = []
    sent = _call(_app(closed), "GET", "/small")
    assert sent[0]["type"] == "http.response.start" and sent[0]["status"] == 201
    assert (b"x-test", b"yes") in sent[0]["headers"]
    assert sent[1:] == [{"type": "http.response.body", "body": b'{"ok": true}', "more_body": False}]
    assert closed == ["small"]


def test_a_long_streamed_body_arrives_whole_and_in_order_past_the_gathered_part():
    closed: list[str] = []
    sent = _call(_app(closed), "GET", "/long")
    bodies = sent[1:]
    assert len(bodies) > 2, "past GATHER bytes the body streams a chunk at a time"
    assert all(b["more_body"] for b in bodies[:-1]) and not bodies[-1]["more_body"]
    data = b"".join(b["body"] for b in bodies)
    lines = data.split(b"\n")[:-1]
    assert [int(line[-6:]) for line in lines] == list(range(len(lines))) and len(lines) == 2 * GATHER // len(CHUNK) + 5
    assert closed == ["long"]


def test_the_request_body_reaches_the_app():
    sent = _call(_app([]), "POST", "/echo", b"hello bridge")
    assert sent[0]["status"] == 200 and b"".join(m["body"] for m in sent[1:]) == b"hello bridge"
