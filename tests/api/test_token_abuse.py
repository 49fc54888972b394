"""Tokens under abuse: guessed tokens never open a seat, and nothing a reader receives (views, prompts, events,
error bodies) carries another reader's token or the seed before the game ends (issue: fault and abuse tests)."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any
from uuid import UUID

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from benchmarks.harness import UNTHROTTLED
from tests.api_client import Api, command_of
from tests.conftest import close_app, make_app

SEED = "do-not-leak-this-seed-7f3a9c"


@pytest.fixture
def many_games_app(sqlite_env) -> Iterator[Any]:
    """One app for every example hypothesis plays (and replays while shrinking a failure), each creating a game from
    one address: the rate limit is set above that explicitly, so that a failure is reported as itself, not as a 429."""
    app = make_app(sqlite_env, **UNTHROTTLED)
    yield app
    close_app(app)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(guess=st.one_of(st.text(min_size=1, max_size=80), st.from_regex(r"(seat|host)_[A-Za-z0-9_-]{1,60}", fullmatch=True)))
def test_a_guessed_token_never_opens_a_seat_or_starts_a_game(many_games_app, guess):
    api = Api(many_games_app.test_client())
    created = api.create(seats=3, reaction_seconds=0)
    gid = created["id"]
    seat = api.seat(gid, name="Ann")
    api.seat(gid, bot="random")
    api.seat(gid, bot="random")
    if guess in (seat["token"], created["host_token"]):  # pragma: no cover - 32 random bytes
        return
    headers = {"Authorization": f"Bearer {guess}"}
    try:
        headers_ok = guess.isprintable() and "\n" not in guess
    except Exception:  # pragma: no cover
        headers_ok = False
    if not headers_ok:
        return
    start = api.c.post(f"/api/games/{gid}/start", headers=headers)
    assert start.status_code in (400, 401), start.get_json()
    view = api.c.get(f"/api/games/{gid}/view", headers=headers)
    assert view.status_code in (400, 401), view.get_json()
    posted = api.c.post(f"/api/games/{gid}/commands", json={"type": "declare", "action": "recruit"}, headers=headers)
    assert posted.status_code in (400, 401), posted.get_json()


def _bodies_of_abuse(api: Api, gid: str, tokens: dict[int, str], host: str) -> list[tuple[int | None, str]]:
    """What each reader receives when misbehaving: another seat's command, a stale seq, garbage, the host's
    token as a seat's, a token from another game (reader None: no valid token)."""
    out: list[tuple[int | None, str]] = []
    for seat, token in tokens.items():
        other = next(s for s in tokens if s != seat)
        view = api.view(gid, token)
        out.append((seat, json.dumps(view)))
        out.append((seat, json.dumps(api.events(gid, token))))
        for prompt in view["prompts"]:
            for option in prompt["options"][:3]:
                stolen = dict(command_of(option), seat=other)
                out.append((seat, api.post(gid, token, stolen).get_data(as_text=True)))
        out.append(
            (seat, api.post(gid, token, {"type": "declare", "action": "recruit", "expected_seq": 0}).get_data(as_text=True))
        )
        out.append((seat, api.post(gid, token, {"type": "react", "window": 99, "answer": "pass"}).get_data(as_text=True)))
        out.append((seat, api.post(gid, token, {"type": "declare", "action": "fly"}).get_data(as_text=True)))
    out.append((None, api.post(gid, host, {"type": "declare", "action": "recruit"}).get_data(as_text=True)))
    out.append((None, api.c.get(f"/api/games/{gid}/view").get_data(as_text=True)))
    # the lobby, the players' records and the timeline are public too
    for path in ("/api/games?status=active", "/api/players", "/api/players/Human%200", f"/api/games/{gid}/timeline"):
        out.append((None, api.c.get(path).get_data(as_text=True)))
    return out


def test_no_response_carries_another_readers_token_or_the_seed_before_the_end(sqlite_app):
    api = Api(sqlite_app.test_client())
    gid, host, tokens = api.new_game(["human", "human", "human", "random"], seed=SEED, reaction_seconds=0)
    api.start(gid, host)
    secret, seed = sqlite_app.extensions["aegis"].read(UUID(gid), lambda game: (game.seed, game.shuffle_seed()))
    rng = random.Random(5)
    checked = with_legal = 0
    for _round in range(40):
        if api.view(gid, tokens[0])["status"] == "finished":
            break  # from here on everything is public, the seed included (A53)
        for reader, body in _bodies_of_abuse(api, gid, tokens, host):
            assert SEED not in body, "the creator's seed before the game ended"
            assert secret not in body and seed not in body, "the server's secret or the seed before the game ended"
            assert host not in body, "the host token"
            for seat, token in tokens.items():
                assert token not in body, (reader, seat)
            legal = _legal(body)
            if legal is not None and reader is not None:
                assert all(c.get("seat") in (None, reader) for c in legal), (reader, legal)  # only one's own options
                with_legal += 1
            checked += 1
        moved = False
        for token in tokens.values():
            mine = [p for p in api.view(gid, token)["prompts"] if not p["free"]]
            if mine:
                r = api.post(gid, token, command_of(rng.choice(mine[0]["options"]), rng))
                assert r.status_code in (200, 409), r.get_json()  # 409: another seat's answer moved the game on
                moved = True
        assert moved or api.view(gid, tokens[0])["status"] == "finished"
    assert checked > 100 and with_legal > 10


def _legal(body: str) -> list[dict] | None:
    try:
        data = json.loads(body)
    except ValueError:
        return None
    prompts = data.get("prompts") if isinstance(data, dict) and "status" in data else None  # a refusal's open prompts
    if not isinstance(prompts, list):
        return None
    return [o["command"] for p in prompts for o in p["options"]]


def test_a_token_of_one_game_opens_nothing_in_another(sqlite_app):
    """Tokens are per game: game A's seat and host tokens are refused (401) everywhere in game B, and B's own
    seats are not disturbed."""
    api = Api(sqlite_app.test_client())
    a, host_a, tokens_a = api.new_game(["human", "human", "random"], seed="game-a", reaction_seconds=0)
    b, host_b, tokens_b = api.new_game(["human", "human", "random"], seed="game-b", reaction_seconds=0)
    assert api.c.post(f"/api/games/{b}/start", headers=api.auth(host_a)).status_code == 401
    api.start(a, host_a)
    api.start(b, host_b)
    for token in [*tokens_a.values(), host_a]:
        headers = api.auth(token)
        for path in ("view", "events", "stream"):
            r = api.c.get(f"/api/games/{b}/{path}", headers=headers)
            assert r.status_code == 401, (path, r.status_code)
            assert token not in r.get_data(as_text=True)
        views_b = [api.view(b, t) for t in tokens_b.values()]
        commands = [command_of(o) for v in views_b for p in v["prompts"] for o in p["options"]]
        assert commands, "someone in game B has something to do"
        for command in commands:
            r = api.post(b, token, command)
            assert r.status_code == 401 and r.mimetype == "application/problem+json"
    assert api.view(b)["seq"] == views_b[0]["seq"]  # nothing was stored in B
