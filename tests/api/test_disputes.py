"""Disputes on the record (issue 17), through the API: a seat of a game disputes a step, the seats comment, a moderator
or the players' majority records a verdict; the dispute shows the audit of its step only as its reader may know it."""

from __future__ import annotations

import json
import random
import secrets
import threading
import uuid
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from aegis.api import close_app, create_app
from aegis.projections.store import RedisViewStore
from aegis.service.games import GameService
from aegis.service.settings import load
from tests.api.test_openapi import assert_matches
from tests.api.test_players import register, sit
from tests.api_client import Api
from tests.conftest import make_app, need_server

MODERATOR = "moderator-key-" + "x" * 16
FRED_BLUFFS = {"deck": ["Mason"], "hands": {"0": ["Laboratory"]}, "first_player": 0}  # Fred holds no Treasury


def _claim(api: Api, gid: str, token: str) -> int:
    """Seat 0 (Fred) claims the Treasury; the step of that claim."""
    r = api.post(gid, token, {"type": "declare", "action": "treasury"})
    assert r.status_code == 200, r.get_json()
    return int(r.get_json()["events"][0]["seq"])


def _open(api: Api, gid: str, token: str | None, expect: int = 201, **body: Any) -> dict[str, Any]:
    r = api.c.post(f"/api/games/{gid}/disputes", json=body, headers=api.auth(token))
    assert r.status_code == expect, r.get_json()
    return r.get_json()


def _post(api: Api, did: str, what: str, token: str | None, expect: int = 201, **body: Any) -> dict[str, Any]:
    r = api.c.post(f"/api/disputes/{did}/{what}", json=body, headers=api.auth(token))
    assert r.status_code == expect, r.get_json()
    if expect >= 400:
        assert r.mimetype == "application/problem+json"
    return r.get_json()


def _get(api: Api, path: str, token: str | None = None, expect: int = 200) -> Any:
    r = api.c.get(path, headers=api.auth(token))
    assert r.status_code == expect, r.get_json()
    return r.get_json()


@pytest.fixture
def moderated_app(sqlite_env):
    app = make_app(sqlite_env, AEGIS_MODERATOR_KEYS=f" {MODERATOR} , another-moderator-key-0000")
    yield app
    close_app(app)


def test_a_seat_disputes_a_step_and_the_dispute_carries_its_audit_as_the_reader_may_know_it(sqlite_app):
    api = Api(sqlite_app.test_client())
    gid, t = api.people(["Fred", "Sally", "Jeff"], reaction_seconds=0, setup=FRED_BLUFFS)
    step = _claim(api, gid, t["Fred"])
    r = api.c.post(
        f"/api/games/{gid}/disputes", json={"step": step, "text": "Fred has no Treasury"}, headers=api.auth(t["Sally"])
    )
    assert r.status_code == 201 and r.headers["Location"].endswith(f"/api/disputes/{r.get_json()['id']}")
    opened = r.get_json()
    assert {k: opened[k] for k in ("game", "step", "status", "seat", "by", "text", "comments", "votes", "verdict")} == {
        "game": gid,
        "step": step,
        "status": "open",
        "seat": 1,
        "by": "Sally",
        "text": "Fred has no Treasury",
        "comments": [],
        "votes": [],
        "verdict": None,
    }
    assert opened["steps"] == api.view(gid)["seq"] and opened["as"] == 1 and opened["settles_by"] == "majority"
    assert opened["votes_needed"] == 2  # more than half of 3 players
    audit = opened["audit"]
    assert audit["claim"] == "Treasury" and audit["declared"]["text"] == "Fred claims the Treasury"
    assert audit["claimant_held"] is None and audit["others_knew"] == {"Sally": []}  # what Sally knew, no more
    did = opened["id"]
    # a spectator sees the spectator's audit; Fred, with his seat token, his own hand; nobody the omniscient one yet
    spectator = _get(api, f"/api/disputes/{did}")
    assert spectator["as"] == "spectator" and spectator["audit"]["claimant_held"] is None
    assert spectator["audit"]["others_knew"] == {}
    fred = _get(api, f"/api/disputes/{did}", t["Fred"])
    assert fred["as"] == 0 and fred["audit"]["claimant_held"] == {"cards": ["Laboratory", "Mason"], "holds_claimed_card": False}
    assert _get(api, f"/api/games/{gid}/disputes", t["Fred"])["disputes"] == [fred]
    listed = _get(api, f"/api/games/{gid}/disputes")
    assert listed == {"disputes": [spectator], "total": 1, "offset": 0, "limit": 100}
    for shown in (opened, spectator, fred):  # as the OpenAPI document says
        assert_matches("DisputeOut", shown)
    assert_matches("DisputesOut", listed)


def test_a_registered_player_disputes_with_their_player_key(sqlite_app):
    api = Api(sqlite_app.test_client())
    created = api.create(seats=3, reaction_seconds=0, setup=FRED_BLUFFS)
    gid = created["id"]
    fred = sit(api, gid, name="Fred")["token"]
    ann = register(api, "Ann")["key"]
    sit(api, gid, ann)
    sit(api, gid, bot="random")
    api.start(gid, created["host_token"])
    step = _claim(api, gid, fred)
    opened = _open(api, gid, ann, step=step, text="a bluff")
    assert (opened["seat"], opened["by"]) == (1, "Ann")
    assert opened["as"] == "spectator"  # a player key is no seat token: the spectator's audit while the game runs
    assert _post(api, opened["id"], "comments", ann, text="again")["comments"][0]["by"] == "Ann"
    # a registered player who did not sit here may not
    bob = register(api, "Bob")["key"]
    problem = _open(api, gid, bob, 403, step=step, text="me too")
    assert "Bob did not play" in problem["detail"]
    assert _open(api, gid, "player_" + "0" * 32 + "_nope", 401, step=step, text="forged")["status"] == 401


def test_refusals_are_clear_problems(sqlite_app):
    api = Api(sqlite_app.test_client())
    gid, t = api.people(["Fred", "Sally", "Jeff"], reaction_seconds=0, setup=FRED_BLUFFS)
    other, other_t = api.people(["Ann", "Bob", "Cid"], reaction_seconds=0)
    created = api.create(seats=3)
    step = _claim(api, gid, t["Fred"])
    seq = api.view(gid)["seq"]
    # not a seat of this game: another game's seat token, the host's token; no token at all
    assert "not a seat of game" in _open(api, gid, other_t["Ann"], 403, step=step, text="x")["detail"]
    host = api.create(seats=3)["host_token"]
    _open(api, gid, host, 403, step=step, text="x")
    _open(api, gid, None, 401, step=step, text="x")
    # no such game; a game without a record yet
    _open(api, str(uuid.uuid4()), t["Sally"], 404, step=1, text="x")
    _open(api, "not-a-game", t["Sally"], 404, step=1, text="x")
    assert _open(api, created["id"], t["Sally"], 409, step=1, text="x")["type"] == "/api/problems/not-started"
    # a step outside the record; text empty, blank or too long; a field too many
    assert "outside the game's record" in _open(api, gid, t["Sally"], 400, step=seq + 1, text="x")["detail"]
    _open(api, gid, t["Sally"], 400, step=0, text="x")
    _open(api, gid, t["Sally"], 400, step="1", text="x")
    for text in ("", "   \n ", "x" * 2001):
        _open(api, gid, t["Sally"], 400, step=step, text=text)
    _open(api, gid, t["Sally"], 400, step=step, text="x", seat=1)
    assert _open(api, gid, t["Sally"], step=step, text="y" * 2000)["text"] == "y" * 2000
    did = _open(api, gid, t["Sally"], step=1, text="the deal")["id"]
    assert _get(api, f"/api/disputes/{did}")["audit"] is None  # nothing at step 1 to audit: no claim yet
    # comments: only the game's seats, 1-2000 characters
    _post(api, did, "comments", other_t["Ann"], 403, text="x")
    _post(api, did, "comments", None, 401, text="x")
    _post(api, did, "comments", t["Jeff"], 400, text=" ")
    _post(api, str(uuid.uuid4()), "comments", t["Jeff"], 404, text="x")
    _post(api, "nope", "comments", t["Jeff"], 404, text="x")
    _post(api, other, "comments", t["Jeff"], 404, text="x")  # a game's id is no dispute's
    _get(api, f"/api/disputes/{uuid.uuid4()}", expect=404)
    # votes: an unknown verdict, a non-seat
    _post(api, did, "votes", t["Jeff"], 400, verdict="guilty", text="x")
    _post(api, did, "votes", other_t["Bob"], 403, verdict="upheld", text="x")
    # without moderators nobody records a verdict directly
    assert _post(api, did, "verdict", t["Jeff"], 403, verdict="upheld", text="x")["type"] == "/api/problems/no-moderators"


def test_text_refusals_name_the_field(sqlite_app):
    api = Api(sqlite_app.test_client())
    gid, t = api.people(["Fred", "Sally", "Jeff"], reaction_seconds=0)
    for text in ("", "   \n ", "x" * 2001):
        problem = _open(api, gid, t["Sally"], 400, step=1, text=text)
        assert list(problem["errors"]) == ["text"], problem
    assert list(_open(api, gid, t["Sally"], 400, step=1)["errors"]) == ["text"]


def test_seats_comment_and_the_majority_of_the_players_records_the_verdict(app):
    api = Api(app.test_client())
    names = ["Fred", "Sally", "Jeff", "Kim"]
    gid, t = api.people(names, reaction_seconds=0, setup=FRED_BLUFFS)
    did = _open(api, gid, t["Sally"], step=_claim(api, gid, t["Fred"]), text="Fred bluffs")["id"]
    shown = _post(api, did, "comments", t["Fred"], text="I hold it")
    shown = _post(api, did, "comments", t["Sally"], text="you do not")
    assert [(c["seat"], c["by"], c["text"]) for c in shown["comments"]] == [(0, "Fred", "I hold it"), (1, "Sally", "you do not")]
    assert shown["votes_needed"] == 3  # more than half of 4 players
    _post(api, did, "votes", t["Sally"], verdict="upheld", text="no Treasury")
    _post(api, did, "votes", t["Jeff"], verdict="upheld", text="agreed")
    _post(api, did, "votes", t["Fred"], verdict="dismissed", text="no")
    tie = _post(api, did, "votes", t["Kim"], verdict="dismissed", text="unsure")
    assert tie["status"] == "open" and tie["verdict"] is None  # 2 against 2: no verdict
    assert len(tie["votes"]) == 4
    changed = _post(api, did, "votes", t["Kim"], verdict="upheld", text="convinced")  # a later vote replaces Kim's
    assert len(changed["votes"]) == 4 and changed["status"] == "settled"
    assert changed["verdict"]["verdict"] == "upheld" and changed["verdict"]["by"] == "majority"
    assert changed["verdict"]["text"] == "3 of the 4 players' seats voted upheld"
    assert_matches("DisputeOut", changed)
    assert _post(api, did, "comments", t["Fred"], 409, text="but")["type"] == "/api/problems/settled"
    _post(api, did, "votes", t["Fred"], 409, verdict="dismissed", text="but")


def test_votes_at_the_same_moment_record_one_verdict(sqlite_app):
    """Four players vote at once: each vote is saved on the dispute as it stands (a lost race is run again), the third
    vote alike records the verdict, and the fourth finds the dispute settled."""
    api = Api(sqlite_app.test_client())
    gid, t = api.people(["Fred", "Sally", "Jeff", "Kim"], reaction_seconds=0)
    did = _open(api, gid, t["Sally"], step=1, text="the deal")["id"]
    barrier = threading.Barrier(4)

    def vote(token: str) -> int:
        client = sqlite_app.test_client()
        barrier.wait()
        body = {"verdict": "upheld", "text": "yes"}
        return int(client.post(f"/api/disputes/{did}/votes", json=body, headers=api.auth(token)).status_code)

    with ThreadPoolExecutor(4) as pool:
        codes = sorted(pool.map(vote, t.values()))
    assert codes == [201, 201, 201, 409]
    settled = _get(api, f"/api/disputes/{did}")
    assert len(settled["votes"]) == 3 and settled["verdict"]["by"] == "majority" and settled["status"] == "settled"


def test_bots_do_not_count_among_the_voters(sqlite_app):
    api = Api(sqlite_app.test_client())
    gid, host, tokens = api.new_game(["human", "human", "random"], reaction_seconds=0)
    api.start(gid, host)
    did = _open(api, gid, tokens[0], step=1, text="the deal")["id"]
    assert _get(api, f"/api/disputes/{did}")["votes_needed"] == 2
    assert _post(api, did, "votes", tokens[0], verdict="dismissed", text="fine")["status"] == "open"
    assert _post(api, did, "votes", tokens[1], verdict="dismissed", text="fine")["status"] == "settled"


def test_a_moderator_records_the_verdict_and_nobody_else(moderated_app):
    api = Api(moderated_app.test_client())
    gid, t = api.people(["Fred", "Sally", "Jeff"], reaction_seconds=0, setup=FRED_BLUFFS)
    did = _open(api, gid, t["Sally"], step=_claim(api, gid, t["Fred"]), text="Fred bluffs")["id"]
    shown = _get(api, f"/api/disputes/{did}")
    assert shown["settles_by"] == "moderator" and shown["votes_needed"] is None
    assert _post(api, did, "votes", t["Sally"], 403, verdict="upheld", text="x")["type"] == "/api/problems/moderated"
    assert _post(api, did, "verdict", t["Sally"], 403, verdict="upheld", text="x")["type"] == "/api/problems/not-moderator"
    _post(api, did, "verdict", "moderator-key-" + "y" * 16, 403, verdict="upheld", text="x")
    _post(api, did, "verdict", None, 401, verdict="upheld", text="x")
    _post(api, did, "verdict", MODERATOR, 400, verdict="maybe", text="x")
    _post(api, did, "verdict", MODERATOR, 400, verdict="upheld", text="")
    settled = _post(api, did, "verdict", MODERATOR, verdict="dismissed", text="the record stands")
    assert settled["status"] == "settled"
    assert_matches("DisputeOut", settled)
    assert {k: settled["verdict"][k] for k in ("verdict", "text", "by")} == {
        "verdict": "dismissed",
        "text": "the record stands",
        "by": "moderator",
    }
    _post(api, did, "verdict", "another-moderator-key-0000", 409, verdict="upheld", text="no")
    _post(api, did, "comments", t["Jeff"], 409, text="late")


def test_moderator_keys_are_checked_at_start_up():
    from aegis.domain.kernel.errors import MalformedCommand

    assert load({"PERSISTENCE_MODULE": "eventsourcing.popo"}).moderator_keys == ()
    keys = load({"PERSISTENCE_MODULE": "eventsourcing.popo", "AEGIS_MODERATOR_KEYS": f"{MODERATOR},, "}).moderator_keys
    assert keys == (MODERATOR,)
    with pytest.raises(MalformedCommand, match="AEGIS_MODERATOR_KEYS"):
        load({"PERSISTENCE_MODULE": "eventsourcing.popo", "AEGIS_MODERATOR_KEYS": "short"})


def test_disputes_are_listed_by_status_newest_first(moderated_app):
    api = Api(moderated_app.test_client())
    gid, t = api.people(["Fred", "Sally", "Jeff"], reaction_seconds=0)
    other, u = api.people(["Ann", "Bob", "Cid"], reaction_seconds=0)
    first = _open(api, gid, t["Sally"], step=1, text="one")["id"]
    second = _open(api, other, u["Bob"], step=2, text="two")["id"]
    third = _open(api, gid, t["Jeff"], step=1, text="three")["id"]
    _post(api, second, "verdict", MODERATOR, verdict="upheld", text="yes")
    ids = lambda page: [d["id"] for d in page["disputes"]]  # noqa: E731
    assert ids(_get(api, "/api/disputes?status=open")) == [third, first]
    assert ids(_get(api, "/api/disputes?status=settled")) == [second]
    everything = _get(api, "/api/disputes")
    assert ids(everything) == [third, second, first] and everything["total"] == 3
    paged = _get(api, "/api/disputes?limit=1&offset=1")
    assert ids(paged) == [second] and (paged["total"], paged["offset"], paged["limit"]) == (3, 1, 1)
    assert ids(_get(api, f"/api/games/{gid}/disputes")) == [first, third]  # a game's: oldest first
    assert ids(_get(api, f"/api/games/{other}/disputes")) == [second]
    _get(api, "/api/disputes?status=closed", expect=400)
    _get(api, "/api/disputes?limit=101", expect=400)
    _get(api, f"/api/games/{uuid.uuid4()}/disputes", expect=404)


def test_disputes_survive_a_restart(sqlite_env):
    app = make_app(sqlite_env)
    api = Api(app.test_client())
    gid, t = api.people(["Fred", "Sally", "Jeff"], reaction_seconds=0, setup=FRED_BLUFFS)
    did = _open(api, gid, t["Sally"], step=_claim(api, gid, t["Fred"]), text="Fred bluffs")["id"]
    _post(api, did, "comments", t["Fred"], text="I hold it")
    before = {token: _get(api, f"/api/disputes/{did}", token) for token in (None, t["Fred"], t["Sally"])}
    close_app(app)
    app = make_app(sqlite_env)  # a fresh process on the same file: its projections are built again from the store
    try:
        api = Api(app.test_client())
        for token, shown in before.items():
            assert _get(api, f"/api/disputes/{did}", token) == shown
        assert _get(api, "/api/disputes?status=open")["disputes"] == [before[None]]
        assert _get(api, f"/api/games/{gid}/disputes", t["Fred"])["disputes"] == [before[t["Fred"]]]
        assert _post(api, did, "votes", t["Jeff"], verdict="upheld", text="yes")["votes"][0]["by"] == "Jeff"
    finally:
        close_app(app)


def test_once_the_game_is_over_everyone_sees_the_audit_as_the_record_stood_when_disputed(sqlite_app):
    api = Api(sqlite_app.test_client())
    gid, t = api.people(["Fred", "Sally", "Jeff"], reaction_seconds=0, setup=FRED_BLUFFS)
    step = _claim(api, gid, t["Fred"])
    opened = _open(api, gid, t["Sally"], step=step, text="Fred bluffs")
    assert opened["audit"]["claimant_held"] is None
    api.play_humans(gid, {i: t[n] for i, n in enumerate(["Fred", "Sally", "Jeff"])}, random.Random(5))
    assert api.view(gid)["seq"] > opened["steps"]
    after = _get(api, f"/api/disputes/{opened['id']}")  # a spectator, now
    assert after["as"] == "omniscient"
    assert after["audit"]["claimant_held"] == {"cards": ["Laboratory", "Mason"], "holds_claimed_card": False}
    assert after["audit"]["others_knew"] == {"Sally": [], "Jeff": []}
    assert max(f["seq"] for f in after["audit"]["followed"]) <= opened["steps"]  # the record as it stood then
    # a dispute opened after the game: the record as it is at its end
    late = _open(api, gid, t["Jeff"], step=step, text="and again")
    assert late["as"] == "omniscient" and late["steps"] == api.view(gid)["seq"] and late["audit"]["claimant_held"]


# ----- fairness: nothing a reader reaches of a dispute depends on a hidden card while the game runs -----

NOW = 1_800_000_000.0
TWINS = (  # seat 0's hand and the deck: the same cards dealt differently, so only seat 0 may know which it holds
    {"first_player": 0, "hands": {"0": ["Mason"], "1": ["Library"], "2": ["Treasury"]}, "deck": ["Barracks", "Library"]},
    {"first_player": 0, "hands": {"0": ["Library"], "1": ["Library"], "2": ["Treasury"]}, "deck": ["Barracks", "Mason"]},
)


def test_twin_games_differing_only_in_hidden_cards_show_identical_disputes_while_they_run(tmp_path):
    service = GameService(load({"SQLITE_DBNAME": str(tmp_path / "aegis.sqlite")}), clock=lambda: NOW)
    app = create_app(service=service, background=False)
    try:
        api = Api(app.test_client())
        twins = []
        for setup in TWINS:
            created = api.create(seats=3, seed="twins", exact_seed=True, reaction_seconds=0, setup=setup)
            tokens = [sit(api, created["id"], name=n)["token"] for n in ("Ann", "Bob", "Cid")]
            api.start(created["id"], created["host_token"])
            step = _claim(api, created["id"], tokens[0])  # Ann claims the Treasury she holds in neither
            did = _open(api, created["id"], tokens[1], step=step, text="Ann has no Treasury")["id"]
            _post(api, did, "comments", tokens[0], text="I do")
            twins.append((created["id"], tokens, did))
        (a, tokens_a, did_a), (b, tokens_b, did_b) = twins
        for reader in (None, 1, 2):
            seen_a = _surfaces(api, a, did_a, None if reader is None else tokens_a[reader])
            seen_b = _surfaces(api, b, did_b, None if reader is None else tokens_b[reader])
            assert seen_a == seen_b.replace(b, a).replace(did_b, did_a), reader
        # the claimant's own seat does see the difference: the audit is there, only shown as each reader may know it
        held = [_get(api, f"/api/disputes/{did}", tokens[0])["audit"]["claimant_held"]["cards"] for _, tokens, did in twins]
        assert [sorted(h) for h in held] == [["Barracks", "Mason"], ["Barracks", "Library"]]
    finally:
        close_app(app)


def _surfaces(api: Api, gid: str, did: str, token: str | None) -> str:
    """Every read of the game's disputes, as the bytes the API sends to ``token``'s holder."""
    listed = [d for d in _get(api, "/api/disputes?status=open", token)["disputes"] if d["game"] == gid]
    return json.dumps(
        [
            api.c.get(f"/api/games/{gid}/disputes", headers=api.auth(token)).get_data(as_text=True),
            api.c.get(f"/api/disputes/{did}", headers=api.auth(token)).get_data(as_text=True),
            listed,
        ]
    )


# ----- projected in Redis, as several API processes share it -----


@pytest.fixture
def redis_env():
    try:
        import redis

        redis.Redis.from_url("redis://127.0.0.1:6379/15", socket_connect_timeout=2).ping()
    except Exception as err:
        need_server("Redis at 127.0.0.1:6379", err)
    prefix = f"aegis-test-{secrets.token_hex(3)}:"
    yield {"REDIS_URL": "redis://127.0.0.1:6379/15", "AEGIS_REDIS_PREFIX": prefix}
    RedisViewStore("redis://127.0.0.1:6379/15", prefix).clear()


def test_the_lists_are_projected_in_redis_too(sqlite_env, redis_env):
    app = make_app({**sqlite_env, **redis_env})
    try:
        api = Api(app.test_client())
        gid, t = api.people(["Fred", "Sally", "Jeff"], reaction_seconds=0)
        did = _open(api, gid, t["Sally"], step=1, text="the deal")["id"]
        assert [d["id"] for d in _get(api, "/api/disputes?status=open")["disputes"]] == [did]
        _post(api, did, "votes", t["Sally"], verdict="dismissed", text="fine")
        _post(api, did, "votes", t["Jeff"], verdict="dismissed", text="fine")
        assert _get(api, "/api/disputes?status=open")["total"] == 0
        assert [d["status"] for d in _get(api, f"/api/games/{gid}/disputes")["disputes"]] == ["settled"]
    finally:
        close_app(app)


def test_a_client_posting_to_disputes_beyond_the_limit_gets_429(sqlite_env):
    """AEGIS_RATE_DISPUTE limits each posting route per client address (60 a minute by default)."""
    app = make_app(sqlite_env, AEGIS_RATE_DISPUTE="2/minute")
    try:
        api = Api(app.test_client())
        gid, t = api.people(["Fred", "Sally", "Jeff"], reaction_seconds=0)
        codes = [
            api.c.post(f"/api/games/{gid}/disputes", json={"step": 1, "text": "x"}, headers=api.auth(t["Sally"])).status_code
            for _ in range(3)
        ]
        assert codes == [201, 201, 429]
        refused = _open(api, gid, t["Sally"], 429, step=1, text="x")
        assert "dispute posts" in refused["detail"] and "AEGIS_RATE_DISPUTE" in refused["detail"]
        did = _get(api, f"/api/games/{gid}/disputes")["disputes"][0]["id"]
        assert [_post(api, did, "comments", t["Jeff"], text="x")["status"] for _ in range(2)] == ["open", "open"]
        _post(api, did, "comments", t["Jeff"], 429, text="x")
    finally:
        close_app(app)
