"""Stream tickets (``POST /api/games/{id}/stream-ticket``): a seat trades its token, sent in the header, for a
short-lived ticket that opens its stream as ``?ticket=`` and nothing else; ``?token=`` is refused, since a
URL is written to access logs. Tickets are stateless: another app over the same store accepts them."""

from __future__ import annotations

import random
import re
import time
import urllib.parse
from collections.abc import Iterator
from typing import Any
from uuid import UUID

import pytest

from aegis.api import create_app
from aegis.service import tickets, tokens
from aegis.service.games import GameService
from aegis.service.settings import load
from tests.api.test_stream import _lines, sse, ticket_for
from tests.api_client import Api, command_of
from tests.conftest import close_app


class Clock:
    """The service's clock, moved by the test (tickets expire by it; games run with no deadlines)."""

    def __init__(self) -> None:
        self.now = time.time()

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def app(sqlite_env, clock):
    application = create_app(service=GameService(load({**sqlite_env, "AEGIS_SSE_KEEPALIVE": "0.2"}), clock=clock))
    yield application
    close_app(application)


def _game(app: Any, seats: tuple[str, ...] = ("human", "human", "random"), seed: str = "tickets") -> tuple[Api, str, str, dict]:
    api = Api(app.test_client())
    gid, host, seat_tokens = api.new_game(list(seats), seed=seed, reaction_seconds=0, first_player=0)  # seat 0 acts first
    api.start(gid, host)
    return api, gid, host, seat_tokens


def _ask(app: Any, gid: str, token: str | None, **kwargs: Any) -> Any:
    return app.test_client().post(f"/api/games/{gid}/stream-ticket", headers=Api.auth(token), **kwargs)


def _open(app: Any, gid: str, query: str = "", headers: dict[str, str] | None = None) -> Any:
    return app.test_client().get(f"/api/games/{gid}/stream{query}", headers=headers or {}, buffered=False)


def _refused(response: Any, status: int, *words: str) -> dict[str, Any]:
    assert response.status_code == status, response.get_data(as_text=True)
    assert response.mimetype == "application/problem+json"
    problem = response.get_json()
    for word in words:
        assert word in problem["detail"], problem["detail"]
    return problem


def _frames_until_quiet(frames: Iterator[dict[str, Any]]) -> list[dict[str, Any]]:
    got = []
    for frame in frames:
        if "comment" in frame:
            return got
        got.append(frame)
    return got


def _play(app: Any, gid: str, seat_tokens: dict[int, str], moves: int) -> int:
    """The people of the game post ``moves`` random options of their open prompts (fewer if it ends)."""
    api, rng, made = Api(app.test_client()), random.Random(4), 0
    for _ in range(moves * 4):
        for token in seat_tokens.values():
            view = api.view(gid, token)
            if view["status"] == "finished" or made == moves:
                return made
            prompts = [p for p in view["prompts"] if not p["free"]]
            if prompts:
                r = api.post(gid, token, command_of(rng.choice(prompts[0]["options"]), rng))
                assert r.status_code == 200, r.get_json()
                made += 1
    return made


def test_a_ticket_names_its_seat_and_expiry_and_is_signed_for_the_game(app, clock):
    _api, gid, _host, seat_tokens = _game(app)
    r = _ask(app, gid, seat_tokens[1])
    assert r.status_code == 201 and r.headers["Cache-Control"] == "no-store"
    out = r.get_json()
    assert set(out) == {"ticket", "seat", "expires_at"}
    assert out["seat"] == 1 and out["expires_at"] == int(clock.now) + tickets.TTL_SECONDS == int(clock.now) + 60
    assert re.fullmatch(rf"v1\.1\.{out['expires_at']}\.[0-9a-f]{{64}}", out["ticket"])
    key = tokens.token_hash(seat_tokens[1])  # keyed with the seat's stored token hash: no shared secret
    assert out["ticket"] == tickets.mint(key, UUID(gid), 1, out["expires_at"])
    assert seat_tokens[1] not in out["ticket"] and key not in out["ticket"]
    assert _ask(app, gid, seat_tokens[1], json={}).status_code == 201  # an empty object is no body too


def test_a_ticket_opens_its_seats_stream_which_runs_on_past_the_expiry(app, clock):
    api, gid, _host, seat_tokens = _game(app)
    ticket = ticket_for(app.test_client(), gid, seat_tokens[0])
    response = _open(app, gid, f"?ticket={ticket}")
    assert response.status_code == 200 and response.mimetype == "text/event-stream"
    frames = sse(_lines(response))
    first = next(frames)
    assert first["event"] == "view" and first["data"]["you"] == 0
    assert first["data"]["prompts"] == api.view(gid, seat_tokens[0])["prompts"]  # the seat's own prompts
    clock.now += tickets.TTL_SECONDS + 30  # the ticket has expired; the open stream goes on
    assert _open(app, gid, f"?ticket={ticket}").status_code == 401  # but opens no new one

    assert _play(app, gid, seat_tokens, 6) > 0
    got = [f for f in _frames_until_quiet(frames) if "id" in f]
    mine = {e["seq"]: e for e in api.events(gid, seat_tokens[0])["events"]}
    assert got, "no event reached the stream after the ticket expired"
    assert [int(f["id"]) for f in got] == [s for s in sorted(mine) if s > first["data"]["seq"]]
    assert all(f["data"] == mine[int(f["id"])] for f in got)  # as seat 0 may see them
    response.close()


def test_a_ticket_with_last_event_id_resumes(app):
    api, gid, _host, seat_tokens = _game(app)
    log = api.events(gid, seat_tokens[1])["events"]
    ticket = ticket_for(app.test_client(), gid, seat_tokens[1])
    frames = _frames_until_quiet(sse(_lines(_open(app, gid, f"?ticket={ticket}&last_event_id={log[3]['seq']}"))))
    assert [int(f["id"]) for f in frames] == [e["seq"] for e in log[4:]]
    assert [f["data"] for f in frames] == log[4:]


def test_an_expired_ticket_is_refused(app, clock):
    _api, gid, _host, seat_tokens = _game(app)
    ticket = ticket_for(app.test_client(), gid, seat_tokens[0])
    clock.now += tickets.TTL_SECONDS - 1
    assert _open(app, gid, f"?ticket={ticket}").status_code == 200
    clock.now += 1
    problem = _refused(_open(app, gid, f"?ticket={ticket}"), 401, "expired", "stream-ticket")
    assert problem["type"] == "/api/problems/ticket-expired"
    past = tickets.mint(tokens.token_hash(seat_tokens[0]), UUID(gid), 0, int(clock.now) - 3600)
    _refused(_open(app, gid, f"?ticket={past}"), 401, "expired 3600 s ago")
    short = tickets.issue(app.extensions["aegis"], UUID(gid), seat_tokens[0], ttl=0)
    _refused(_open(app, gid, f"?ticket={short.text}"), 401, "expired")


def test_a_ticket_of_another_game_or_seat_or_altered_is_refused(app):
    _api, gid, _host, seat_tokens = _game(app)
    _api_b, other, _host_b, tokens_b = _game(app, seed="other")
    theirs = ticket_for(app.test_client(), other, tokens_b[0])  # seat 0 too, of another game
    _refused(_open(app, gid, f"?ticket={theirs}"), 401, "another game or seat")
    ticket = ticket_for(app.test_client(), gid, seat_tokens[0])
    version, seat, expires, mac = ticket.split(".")
    flipped = mac[:-1] + ("0" if mac[-1] != "0" else "1")
    for tampered in (
        f"{version}.1.{expires}.{mac}",  # seat 1's stream with seat 0's ticket
        f"{version}.2.{expires}.{mac}",  # a bot's seat: it has no token, so no ticket
        f"{version}.9.{expires}.{mac}",  # no such seat
        f"{version}.{seat}.{int(expires) + 3600}.{mac}",  # a later expiry
        f"{version}.{seat}.{expires}.{flipped}",
        f"{version}.{seat}.{expires}.{mac.upper()}",
        f"{version}.{seat}.{expires}.{mac[:32]}",
    ):
        _refused(_open(app, gid, f"?ticket={tampered}"), 401, "another game or seat, or altered")
    for malformed in ("", "v2." + ticket[3:], ticket + ".0", f"v1.x.{expires}.{mac}", "v1.0.1" + "0" * 40 + ".00", "v1.0.1.é"):
        _refused(_open(app, gid, "?" + urllib.parse.urlencode({"ticket": malformed})), 401, "not a stream ticket")
    assert _open(app, gid, f"?ticket={ticket}").status_code == 200  # the genuine one still opens


def test_a_ticket_is_no_token_for_views_events_or_commands(app):
    api, gid, _host, seat_tokens = _game(app)
    ticket = ticket_for(app.test_client(), gid, seat_tokens[0])
    c = app.test_client()
    as_bearer = Api.auth(ticket)
    _refused(c.get(f"/api/games/{gid}/view", headers=as_bearer), 401)
    _refused(c.get(f"/api/games/{gid}/events", headers=as_bearer), 401)
    _refused(c.get(f"/api/games/{gid}/stream", headers=as_bearer), 401)  # a ticket goes in ?ticket=, not the header
    _refused(c.post(f"/api/games/{gid}/stream-ticket", headers=as_bearer), 401)  # no ticket for a ticket
    prompt = next(p for p in api.view(gid, seat_tokens[0])["prompts"] if not p["free"])
    before = api.view(gid)["seq"]
    _refused(c.post(f"/api/games/{gid}/commands", json=command_of(prompt["options"][0]), headers=as_bearer), 401)
    _refused(c.post(f"/api/games/{gid}/commands?ticket={ticket}", json=command_of(prompt["options"][0])), 401)
    _refused(c.get(f"/api/games/{gid}/events?ticket={ticket}"), 400)
    _refused(c.get(f"/api/games/{gid}/view?ticket={ticket}"), 400)  # a ticket opens the stream only, and says so
    assert api.view(gid)["seq"] == before  # nothing was played


def test_the_host_a_spectator_and_strangers_get_no_ticket(app):
    _api, gid, host, seat_tokens = _game(app)
    _refused(_ask(app, gid, host), 403, "host token gets no stream ticket")
    _refused(_ask(app, gid, None), 401, "seat token", "spectator opens the stream without")
    _refused(_ask(app, gid, "seat_guessed"), 401)
    basic = app.test_client().post(f"/api/games/{gid}/stream-ticket", headers={"Authorization": "Basic abc"})
    _refused(basic, 401, "Bearer")
    _refused(_ask(app, gid, seat_tokens[0], json={"seat": 1}), 400)
    assert _ask(app, "00000000-0000-0000-0000-000000000000", seat_tokens[0]).status_code == 404
    assert _ask(app, "not-a-game", seat_tokens[0]).status_code == 404
    spectator = sse(_lines(_open(app, gid)))  # a spectator streams with no credential at all
    assert next(spectator)["data"]["you"] is None


def test_a_token_in_the_url_is_refused_and_the_header_still_works(app):
    _api, gid, _host, seat_tokens = _game(app)
    problem = _refused(
        _open(app, gid, f"?token={seat_tokens[0]}"), 400, "access log", "Authorization: Bearer", "stream-ticket", "?ticket="
    )
    assert problem["type"] == "/api/problems/token-in-url" and seat_tokens[0] not in str(problem)
    _refused(_open(app, gid, "?token="), 400, "access log")
    _refused(_open(app, "00000000-0000-0000-0000-000000000000", "?token=x"), 400)
    both = _open(app, gid, f"?ticket={ticket_for(app.test_client(), gid, seat_tokens[0])}", Api.auth(seat_tokens[0]))
    _refused(both, 400, "not both")
    header = sse(_lines(_open(app, gid, headers=Api.auth(seat_tokens[1]))))
    assert next(header)["data"]["you"] == 1


def test_another_process_over_the_same_store_accepts_the_ticket(app, sqlite_env):
    """Stateless: nothing of the ticket is kept by the app that issued it."""
    _api, gid, _host, seat_tokens = _game(app)
    ticket = ticket_for(app.test_client(), gid, seat_tokens[1])
    other = create_app(service=GameService(load(sqlite_env)), background=False)
    try:
        response = other.test_client().get(f"/api/games/{gid}/stream?ticket={ticket}", buffered=False)
        assert next(sse(_lines(response)))["data"]["you"] == 1
        response.close()
    finally:
        close_app(other)
