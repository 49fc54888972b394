"""Branches ("what if I had called?"), through the API: a new game from the position after a step of a finished
game, with another command or none, dealt the same or as one seat knew it; linked both ways; refused clearly."""

from __future__ import annotations

import random
import time
from collections import Counter
from typing import Any

import pytest

from aegis.api import close_app, create_app
from aegis.service.aggregate import Game
from aegis.service.games import GameService
from aegis.service.settings import load
from tests.api_client import Api
from tests.conftest import make_app

SEATS = ["random", "random", "random"]


def _wait_over(api: Api, gid: str) -> dict[str, Any]:
    for _ in range(600):  # the server plays the bots (the deadline keeper plays on past AEGIS_BOT_MOVE_LIMIT)
        view = api.view(gid)
        if view["status"] == "finished":
            return view
        time.sleep(0.02)
    raise AssertionError(f"game {gid} did not end")


@pytest.fixture
def finished(sqlite_app) -> tuple[Api, str]:
    """A game three bots played to its end (no reaction clock: every window closes when all have answered)."""
    api = Api(sqlite_app.test_client())
    gid, host, _ = api.new_game(SEATS, reaction_seconds=0)
    api.start(gid, host)
    _wait_over(api, gid)
    return api, gid


def _branch(api: Api, gid: str, expect: int | None = 201, token: str | None = None, **body: Any) -> dict[str, Any]:
    r = api.c.post(f"/api/games/{gid}/branches", json=body, headers=api.auth(token))
    assert expect is None or r.status_code == expect, r.get_json()
    if expect != 201 and r.status_code != 201:
        assert r.headers["Content-Type"].startswith("application/problem+json")
    return r.get_json()


def _seat_people(api: Api, made: dict[str, Any]) -> dict[int, str]:
    """Seat three people in the branch and start it: nothing moves until they do."""
    tokens = {i: api.seat(made["id"], name=f"Who {i}")["token"] for i in range(3)}
    api.start(made["id"], made["host_token"])
    return tokens


def _finish_branch(api: Api, made: dict[str, Any], tokens: dict[int, str]) -> None:
    """Two of the three people resign: the branch is over, and its record public."""
    for seat in (0, 1):
        r = api.post(made["id"], tokens[seat], {"type": "resign"})
        assert r.status_code == 200, r.get_json()
    assert api.view(made["id"])["status"] == "finished"


def _replay(api: Api, gid: str, step: int | None = None, as_: str = "", token: str | None = None) -> dict[str, Any]:
    query = f"?as={as_}" + (f"&step={step}" if step is not None else "")
    r = api.c.get(f"/api/games/{gid}/replay{query}", headers=api.auth(token))
    assert r.status_code == 200, r.get_json()
    return r.get_json()


def _commands(app: Any, gid: str) -> list[tuple[int, dict[str, Any]]]:
    """(the seq before it, the command) of every command of a finished game's record, as accepted (the record is
    public once the game is over; the API serves its events, the store its commands)."""
    from uuid import UUID

    stored = app.extensions["aegis"].store.events.get(UUID(gid))
    return [(e.first_seq - 1, e.command) for e in stored if isinstance(e, Game.CommandAccepted)]


def _without_seq(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{k: v for k, v in e.items() if k != "seq"} for e in events]


def test_a_branch_dealt_the_same_replays_the_original_future_draw_for_draw(sqlite_app, finished):
    api, gid = finished
    commands = _commands(sqlite_app, gid)
    point, _ = commands[len(commands) // 3]
    made = _branch(api, gid, step=point)
    assert made["step"] == point and set(made) == {"id", "host_token", "step"}
    tokens = _seat_people(api, made)
    for _, command in commands[len(commands) // 3 :]:
        sent = {k: v for k, v in command.items() if k != "at"}
        r = api.post(made["id"], tokens[sent["seat"]], sent)
        assert r.status_code == 200, (sent, r.get_json())
    original = api.events(gid)["events"]
    branch = api.events(made["id"])["events"]
    assert [e["type"] for e in branch[point : point + 1]] == ["BranchBegan"]
    assert _without_seq(branch[:point]) == _without_seq(original[:point])  # the record up to the branch point, copied
    assert _without_seq(branch[point + 1 :]) == _without_seq(original[point:])  # every later draw is the original's
    assert api.view(made["id"])["status"] == "finished"


def test_a_step_inside_what_one_command_caused_starts_at_its_decision_point(sqlite_app, finished):
    api, gid = finished
    before, after = _commands(sqlite_app, gid)[5][0], _commands(sqlite_app, gid)[6][0]
    assert after > before + 1, "the command between them caused more than one event"
    made = _branch(api, gid, step=before + 1)
    assert made["step"] == after
    assert _replay(api, gid, 0)["branches"][-1] == {"id": made["id"], "step": after}
    first = _branch(api, gid, step=0)  # before the setup: the first decision point is after it
    assert first["step"] == _commands(sqlite_app, gid)[0][0]


def _window_steps(api: Api, gid: str) -> list[int]:
    """Decision points of the finished game where a reaction window is open and someone has answered already."""
    timeline = api.c.get(f"/api/games/{gid}/timeline").get_json()["events"]
    found = []
    for item in timeline:
        if item["type"] == "ReactionGiven":
            table = _replay(api, gid, item["seq"])["table"]
            if table["window"] is not None and table["window"]["waiting_for"]:
                found.append(item["seq"])
    return found


def test_a_branch_from_inside_an_open_window_with_another_answer(sqlite_app, finished):
    api, gid = finished
    commands = dict(_commands(sqlite_app, gid))
    mid = [s for s in _window_steps(api, gid) if s in commands]
    assert mid, "the bots' game had an open window with an answer given"
    step = mid[0]
    played = commands[step]
    # the position there, played on by people: the window is open, the seat the original answered is asked again
    probe = _branch(api, gid, step=step)
    tokens = _seat_people(api, probe)
    view = api.view(probe["id"], tokens[played["seat"]])
    assert view["table"]["window"] is not None and view["table"]["window"]["deadline"] is None
    options = [o for p in view["prompts"] if p["kind"] == "react" for o in p["options"] if not o.get("params")]
    other = next((o["command"] for o in options if o["command"].get("answer") != played.get("answer")), None)
    assert other is not None, options
    made = _branch(api, gid, step=step, command=other)
    people = _seat_people(api, made)
    assert "answer" not in api.events(made["id"])["events"][step + 1]  # the window is open: the answer is the seat's
    branch = api.events(made["id"], people[other["seat"]])["events"]
    assert branch[step]["type"] == "BranchBegan"
    given = branch[step + 1]
    assert given["type"] == "ReactionGiven" and given["seat"] == other["seat"] and given["answer"] == other["answer"]
    assert api.events(gid)["events"][step]["answer"] == played["answer"] != other["answer"]


def test_a_branch_is_rigged_linked_both_ways_and_bots_play_it_to_its_end(sqlite_app, finished):
    api, gid = finished
    point = _commands(sqlite_app, gid)[10][0]
    made = _branch(api, gid, step=point)
    lobby = api.view(made["id"])
    assert lobby["status"] == "lobby" and lobby["rigged"] is True and lobby["branch_of"] == {"game": gid, "step": point}
    assert lobby["fairness"]["commitment"] is None and lobby["fairness"]["rigged"] is True
    for _ in SEATS:
        api.seat(made["id"], bot="random")
    api.start(made["id"], made["host_token"])
    over = _wait_over(api, made["id"])
    assert over["branch_of"] == {"game": gid, "step": point} and over["rigged"] is True
    assert _replay(api, made["id"])["branch_of"] == {"game": gid, "step": point}
    assert _replay(api, made["id"])["branches"] == []
    assert _replay(api, gid, 3)["branches"] == [{"id": made["id"], "step": point}]
    assert _replay(api, gid)["branch_of"] is None and api.view(gid)["branch_of"] is None
    row = next(g for g in api.c.get("/api/games").get_json()["games"] if g["id"] == made["id"])
    assert row["rigged"] is True  # so never rated nor counted (projections/players.py)
    assert "branch" in api.c.get(f"/api/games/{made['id']}/timeline").get_json()["events"][point]["text"]


def test_the_links_survive_a_restart(store_env):
    app = make_app(store_env)
    api = Api(app.test_client())
    gid, host, _ = api.new_game(SEATS, reaction_seconds=0)
    api.start(gid, host)
    _wait_over(api, gid)
    made = [_branch(api, gid, step=s) for s in (10, 40)]
    close_app(app)
    again = make_app(store_env)  # a fresh service on the same store (SQLite file, PostgreSQL)
    try:
        api = Api(again.test_client())
        assert _replay(api, gid)["branches"] == [{"id": m["id"], "step": m["step"]} for m in made]
        for m in made:
            assert api.view(m["id"])["branch_of"] == {"game": gid, "step": m["step"]}
        api.seat(made[0]["id"], bot="random")
        api.seat(made[0]["id"], bot="random")
        api.seat(made[0]["id"], bot="random")
        api.start(made[0]["id"], made[0]["host_token"])  # its opening is read from the original's record in the store
        assert (
            _replay(api, made[0]["id"], made[0]["step"], "0")["table"]["turn"]
            == _replay(api, gid, made[0]["step"])["table"]["turn"]
        )
    finally:
        close_app(again)


def _cards(table: dict[str, Any]) -> dict[str, Any]:
    """Every card of a table as a reader sees it: each seat's cards (ids, and names where known), the deck."""
    return {
        "players": [[(c["id"], c.get("name"), c["revealed"]) for c in p["cards"]] for p in table["players"]],
        "deck": table["deck"].get("size"),
        "known_top": table["deck"].get("known_top"),
        "years": table["years"],
    }


def _names(table: dict[str, Any]) -> Counter[str]:
    """The omniscient table's card names: every hand and the deck."""
    names = Counter(c["name"] for p in table["players"] for c in p["cards"])
    names.update(c["name"] for c in table["deck"].get("cards", []))
    return names


def test_a_branch_as_known_deals_again_only_what_that_seat_could_not_name(sqlite_app, finished):
    api, gid = finished
    point = _commands(sqlite_app, gid)[20][0]
    seen_before = _replay(api, gid, point, "1")["table"]
    whole_before = _replay(api, gid, point, "omniscient")["table"]
    made = _branch(api, gid, step=point, deal="as_known", **{"as": 1})
    tokens = _seat_people(api, made)
    seen_after = api.view(made["id"], tokens[1])["table"]
    assert _cards(seen_after) == _cards(seen_before)  # what seat 1 knew: the same, card for card
    # nobody, its host included, sees the new deal while the branch goes on; everyone once it is over
    refused = api.c.get(f"/api/games/{made['id']}/replay?as=omniscient", headers=api.auth(made["host_token"]))
    assert refused.status_code == 403
    events = api.events(made["id"], tokens[1])["events"]
    dealt = events[point + 1]
    assert dealt["type"] == "CardsDealtAgain" and "names" not in dealt and "seed" not in dealt  # secret in play
    _finish_branch(api, made, tokens)
    whole_after = _replay(api, made["id"], dealt["seq"], "omniscient")["table"]
    assert _names(whole_after) == _names(whole_before)  # the same cards in all
    hidden = [
        (c["id"], c["name"])
        for p in whole_before["players"]
        for c in p["cards"]
        if not any(mine[0] == c["id"] and mine[1] for p1 in _cards(seen_before)["players"] for mine in p1)
    ]
    hidden += [(c["id"], c["name"]) for c in whole_before["deck"]["cards"]]
    after = {c["id"]: c["name"] for p in whole_after["players"] for c in p["cards"]}
    after.update((c["id"], c["name"]) for c in whole_after["deck"]["cards"])
    assert any(after[cid] != name for cid, name in hidden), "some card seat 1 could not name was dealt differently"


def test_a_branch_dealt_the_same_keeps_every_card(sqlite_app, finished):
    api, gid = finished
    point = _commands(sqlite_app, gid)[20][0]
    made = _branch(api, gid, step=point)
    tokens = _seat_people(api, made)
    began = api.events(made["id"])["events"][point]
    assert began["type"] == "BranchBegan"
    _finish_branch(api, made, tokens)
    whole = _replay(api, made["id"], began["seq"], "omniscient")["table"]
    assert _cards(whole) == _cards(_replay(api, gid, point, "omniscient")["table"])


def test_refusals_are_problems_and_create_nothing(sqlite_app, finished):
    api, gid = finished
    steps = _replay(api, gid)["steps"]
    for body in ({"step": -1}, {"step": steps + 1}):
        assert "outside" in _branch(api, gid, 400, **body)["detail"]
    assert _branch(api, gid, 409, step=steps)["status"] == 409  # the game is over there: nothing to play on
    point = _commands(sqlite_app, gid)[3][0]
    illegal = _branch(api, gid, 422, step=point, command={"type": "react", "seat": 0, "window": 999, "answer": "call"})
    assert illegal["status"] == 422
    players = [s["name"] for s in api.view(gid)["seats"]]
    wrong = [  # a war on oneself, by each seat: the one asked there is refused with its prompts
        _branch(api, gid, None, step=point, command={"type": "declare", "seat": seat, "action": "war", "target": seat})
        for seat in range(3)
    ]
    said = " ".join(p["text"] for refused in wrong if refused.get("status") for p in refused.get("prompts", []))
    assert said and "Seat 0" not in said and any(name in said for name in players)  # the position's own players
    assert _branch(api, gid, 400, step=point, command={"type": "close_window", "window": 1})["status"] == 400
    assert "as" in _branch(api, gid, 400, step=point, deal="as_known")["detail"]
    _branch(api, gid, 400, step=point, deal="as_known", **{"as": 7})
    _branch(api, gid, 400, step=point, deal="guessed")
    _branch(api, gid, 400, step=point, **{"as": 1})  # 'as' belongs to the deal as_known
    _branch(api, gid, 400, step="3")
    _branch(api, gid, 400, step=point, colour="red")
    assert _branch(api, "00000000-0000-0000-0000-000000000000", 404, step=1)["status"] == 404
    assert _replay(api, gid)["branches"] == []  # nothing was made by any refusal
    assert api.c.get("/api/games?status=lobby").get_json()["total"] == 0


def test_a_fair_game_in_play_cannot_be_branched_by_anyone(sqlite_app):
    api = Api(sqlite_app.test_client())
    gid, host, tokens = api.new_game(["human", "human", "human"], reaction_seconds=0)
    api.start(gid, host)
    for token in (None, host, tokens[0]):
        problem = _branch(api, gid, 409, token=token, step=1)
        assert "future" in problem["detail"]
    lobby = api.create(seats=3)
    assert _branch(api, lobby["id"], 409, token=lobby["host_token"], step=0)["status"] == 409


def test_a_rigged_game_in_play_is_not_branched_even_by_its_host(sqlite_app):
    """A finished branch's record is public: a branch of a game in play would show everyone the original's hidden
    cards and its draws to come while it goes on, so no game in play is branched, a rigged one by its host included."""
    api = Api(sqlite_app.test_client())
    setup = {"deck": ["Mason", "Temple"], "hands": {"0": ["Laboratory"]}, "first_player": 0}
    created = api.create(seats=3, reaction_seconds=0, setup=setup)
    gid = created["id"]
    tokens = {i: api.seat(gid, name=f"P{i}")["token"] for i in range(3)}
    api.start(gid, created["host_token"])
    for token in (created["host_token"], tokens[0], None):
        problem = _branch(api, gid, 409, token=token, step=1)
        assert problem["status"] == 409 and "setup" in problem["detail"]
    assert _replay(api, gid, token=created["host_token"])["branches"] == []


def test_a_finished_branch_verifies_from_its_revealed_secret(sqlite_app, finished):
    api, gid = finished
    point = _commands(sqlite_app, gid)[12][0]
    for deal in ({}, {"deal": "as_known", "as": 2}):
        made = _branch(api, gid, step=point, **deal)
        for _ in SEATS:
            api.seat(made["id"], bot="random")
        api.start(made["id"], made["host_token"])
        _wait_over(api, made["id"])
        verified = api.c.get(f"/api/games/{made['id']}/verify").get_json()
        assert verified["ok"] and verified["rigged"], verified["problems"]
        # as its view says: no commitment of its own, no creator's seed (its record opens with the original's start)
        assert verified["commitment"] is None is verified["creator_seed"] is api.view(made["id"])["fairness"]["commitment"]


def test_a_window_open_at_the_branch_point_gets_its_full_time_again(sqlite_env):
    later = [0.0]  # the service's clock runs this much ahead: the original was played an hour before its branch
    service = GameService(load(sqlite_env), clock=lambda: time.time() + later[0])
    app = create_app(service=service)
    try:
        api = Api(app.test_client())
        gid, host, _ = api.new_game(SEATS, reaction_seconds=30)  # the bots answer at once: their windows close early
        api.start(gid, host)
        _wait_over(api, gid)
        commands = dict(_commands(app, gid))
        step = next(s for s in _window_steps(api, gid) if s in commands)
        later[0] = 3600.0
        made = _branch(api, gid, step=step)
        before = service.clock()
        _seat_people(api, made)
        window = api.view(made["id"])["table"]["window"]
        assert window is not None, "the server closed the window at once, on the original's deadline"
        assert before + 29 <= window["deadline"] <= service.clock() + 30
    finally:
        close_app(app)


def test_branches_are_counted_by_the_creation_limit(sqlite_env):
    app = make_app(sqlite_env, AEGIS_RATE_CREATE="3/minute")
    try:
        api = Api(app.test_client())
        gid, host, _ = api.new_game(SEATS, reaction_seconds=0)
        api.start(gid, host)
        _wait_over(api, gid)
        for _ in range(3):
            _branch(api, gid, step=10)
        assert _branch(api, gid, 429, step=10)["status"] == 429
    finally:
        close_app(app)


def test_a_claim_in_play_when_an_as_known_branch_deals_again_is_judged_on_the_branchs_deal(sqlite_app, finished):
    """A branch as seat s knew it, from a step where s is asked about another seat's claim, with s calling: the
    cards s could not name are dealt again, so whether the claimant held the claimed card is the branch's deal.
    The claim's audit and the branch's review judge it on that deal: never 'held: false' beside 'proven' (a
    claimant holding the card may still show another: exposed), and the call's own row agrees. Several branches:
    several deals."""
    api, gid = finished
    log = api.events(gid)["events"]
    windows = {e["window"]: e for e in log if e["type"] == "ReactionWindowOpened" and e["claim"] and e["about"] == "action"}
    points = list(
        {  # one per window: the first seat (not its claimant) that answered it
            command["window"]: (before, command)
            for before, command in reversed(_commands(sqlite_app, gid))
            if command.get("type") == "react"
            and command.get("window") in windows
            and command["seat"] != windows[command["window"]]["claimant"]
        }.values()
    )[::-1][:10]
    assert points, "the bots' game has no claim a seat answered"
    rng = random.Random(11)
    for before, command in points:
        seat, window = command["seat"], windows[command["window"]]
        call = {"type": "react", "seat": seat, "window": command["window"], "answer": "call"}
        made = _branch(api, gid, step=before, command=call, deal="as_known", **{"as": seat})
        api.play_humans(made["id"], _seat_people(api, made), rng)
        claim_step = max(e["seq"] for e in log if e["type"] == "ActionDeclared" and e["seq"] < window["seq"])
        review = api.c.get(f"/api/games/{made['id']}/review?as=omniscient").get_json()
        moves = [m for p in review["players"] for m in p["moves"] if m["claim_step"] == claim_step]
        claim = next(m for m in moves if m["kind"] == "claim")
        assert claim["outcome"] in ("proven", "exposed"), claim
        assert claim["held"] or claim["outcome"] == "exposed", claim  # a proof shows the card (one held may go unshown)
        assert all(m["held"] == claim["held"] for m in moves), moves  # the call's row too
        audited = api.c.get(f"/api/games/{made['id']}/audit?step={claim_step}&as=omniscient").get_json()
        assert audited["claimant_held"]["holds_claimed_card"] == claim["held"], audited["claimant_held"]


def test_a_branchs_copied_part_is_told_with_the_originals_players_and_its_review_is_of_the_branch(sqlite_app, finished):
    """The events before the branch point were played by the original's players: the timeline, a replay step and the
    audit tell them with the original's names, not the branch's; the branch's review lists only the moves made in
    the branch (the others are in the original's review)."""
    api, gid = finished
    point = _commands(sqlite_app, gid)[20][0]
    made = _branch(api, gid, step=point)
    tokens = _seat_people(api, made)
    _finish_branch(api, made, tokens)
    original = [s["name"] for s in api.view(gid)["seats"]]
    theirs = {e["seq"]: e["text"] for e in api.c.get(f"/api/games/{gid}/timeline").get_json()["events"]}
    ours = {e["seq"]: e["text"] for e in api.c.get(f"/api/games/{made['id']}/timeline").get_json()["events"]}
    assert all(ours[seq] == theirs[seq] for seq in range(1, point + 1))
    assert any(name in ours[seq] for seq in range(1, point + 1) for name in original)
    assert not any(f"Who {i}" in ours[seq] for seq in range(1, point + 1) for i in range(3))
    assert _replay(api, made["id"], point)["event"]["text"] == theirs[point]
    assert [_replay(api, made["id"], n)["copied"] for n in (0, point, point + 1)] == [True, True, False]
    assert _replay(api, gid, point)["copied"] is False  # a game that is no branch has nothing copied
    review = api.c.get(f"/api/games/{made['id']}/review").get_json()
    before = [m for p in review["players"] for m in p["moves"] if m["step"] <= point]
    whole = api.c.get(f"/api/games/{gid}/review").get_json()
    latest = max(m["claim_step"] for p in whole["players"] for m in p["moves"] if m["claim_step"] <= point)
    assert all(m["claim_step"] == latest for m in before), before  # only a claim still in play at the point
