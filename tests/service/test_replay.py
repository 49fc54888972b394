"""The replay engine and its endpoints: any step, any perspective the caller may take, narrated."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from aegis.domain.everaegis.config import make_config
from aegis.domain.everaegis.narration import narrate
from aegis.domain.everaegis.ruleset import RULESET
from aegis.domain.everaegis.simulation import play_game
from aegis.replay.engine import Replay
from tests.api_client import Api


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10_000), seats=st.integers(3, 6), every=st.sampled_from([1, 7, 64]), data=st.data())
def test_the_state_at_any_step_equals_a_refold_from_the_start(seed, seats, every, data):
    game = play_game(seats=seats, variants="simpleton", seed=f"replay-{seed}", bots=["random"])
    replay = Replay(RULESET, make_config(seats=seats, reaction_seconds=0), game.events, every=every)
    for step in data.draw(st.lists(st.integers(0, replay.steps), min_size=1, max_size=6)):
        assert RULESET.view(replay.state_at(step), "omniscient") == RULESET.view(replay.refold(step), "omniscient")
    assert replay.state_at(replay.steps).status == "finished"
    with pytest.raises(IndexError):
        replay.state_at(replay.steps + 1)


def test_a_state_handed_out_is_independent_of_the_checkpoints():
    game = play_game(seats=3, variants="simpleton", seed="indep", bots=["random"])
    replay = Replay(RULESET, make_config(seats=3, reaction_seconds=0), game.events, every=10)
    first = replay.state_at(25)
    first.players[0].soldiers = 999
    assert replay.state_at(25).players[0].soldiers != 999


def _finished_game(app, seats=("human", "human", "random"), seed="replayed", **spec):
    api = Api(app.test_client())
    gid, host, tokens = api.new_game(list(seats), seed=seed, reaction_seconds=0, **spec)
    api.start(gid, host)
    return api, gid, tokens


def test_the_book_s_correct_call_reads_in_plain_words(sqlite_app):
    """E12 as a story: Fred bluffs the Treasury, Sally calls, Fred shows a Laboratory."""
    api = Api(sqlite_app.test_client())
    setup = {"deck": ["Mason"], "hands": {"0": ["Laboratory"]}, "first_player": 0}
    gid, t = api.people(["Fred", "Sally", "Jeff"], reaction_seconds=0, setup=setup)
    fred, sally, jeff = t["Fred"], t["Sally"], t["Jeff"]
    api.post(gid, fred, {"type": "declare", "action": "treasury"})
    window = api.view(gid, sally)["table"]["window"]["id"]
    api.post(gid, sally, {"type": "react", "window": window, "answer": "call"})
    api.post(gid, jeff, {"type": "react", "window": window, "answer": "pass"})
    lab = next(c["id"] for c in api.view(gid, fred)["table"]["players"][0]["cards"] if c["name"] == "Laboratory")
    api.post(gid, fred, {"type": "reveal", "card": lab})
    texts = [e["text"] for e in sqlite_app.test_client().get(f"/api/games/{gid}/timeline").get_json()["events"]]
    assert "Fred claims the Treasury" in texts
    assert "Sally calls Fred's bluff on the Treasury" in texts
    shown = texts.index("Fred reveals a Laboratory to answer the call")  # once, then what it shows, no repeat
    assert texts[shown + 1] == "It is no Treasury: Fred's Treasury claim is not proven"
    assert "Fred's Treasury is thwarted" in texts


def test_who_may_look_from_where_during_and_after_a_game(sqlite_app):
    api, gid, tokens = _finished_game(sqlite_app)
    c = sqlite_app.test_client()
    assert c.get(f"/api/games/{gid}/replay?as=spectator").status_code == 200
    assert c.get(f"/api/games/{gid}/replay?as=0", headers=api.auth(tokens[0])).status_code == 200
    assert c.get(f"/api/games/{gid}/replay?as=1", headers=api.auth(tokens[0])).status_code == 403
    assert c.get(f"/api/games/{gid}/replay?as=omniscient").status_code == 403
    assert c.get(f"/api/games/{gid}/timeline?as=omniscient").status_code == 403
    assert c.get(f"/api/games/{gid}/replay?as=7").status_code == 400
    assert c.get(f"/api/games/{gid}/replay?step=99999").status_code == 400
    # a seat's token without 'as' looks from its seat, as its view does; a token of nobody here is refused (401),
    # as the view refuses it, not taken for no token
    assert c.get(f"/api/games/{gid}/replay", headers=api.auth(tokens[1])).get_json()["as"] == 1
    assert c.get(f"/api/games/{gid}/replay").get_json()["as"] == "spectator"
    for path in ("replay?as=0", "replay?as=spectator", "timeline", "view"):
        assert c.get(f"/api/games/{gid}/{path}", headers=api.auth("seat_bogus")).status_code == 401, path
    api.play_humans(gid, tokens, random.Random(6))
    assert c.get(f"/api/games/{gid}/replay?as=1").status_code == 200
    assert c.get(f"/api/games/{gid}/replay?as=omniscient").status_code == 200
    lobby = api.create(seats=3)["id"]
    assert c.get(f"/api/games/{lobby}/replay").status_code == 404


def test_a_card_hidden_from_a_seat_stays_hidden_in_its_replay_and_shows_in_the_omniscient_one(sqlite_app):
    api, gid, tokens = _finished_game(sqlite_app, seed="hidden")
    api.play_humans(gid, tokens, random.Random(2))
    c = sqlite_app.test_client()
    timeline = c.get(f"/api/games/{gid}/timeline?as=omniscient").get_json()["events"]
    omni_log = c.get(f"/api/games/{gid}/events").get_json()["events"]
    drawn = next(e for e in omni_log if e["type"] == "CardDrawn" and e["seat"] == 1)
    step = drawn["seq"]
    as0 = c.get(f"/api/games/{gid}/replay?step={step}&as=0").get_json()
    as1 = c.get(f"/api/games/{gid}/replay?step={step}&as=1").get_json()
    omni = c.get(f"/api/games/{gid}/replay?step={step}&as=omniscient").get_json()
    card = drawn["card"]
    find = lambda r: next(x for x in r["table"]["players"][1]["cards"] if x["id"] == card)  # noqa: E731
    assert "name" not in find(as0)
    assert find(as1)["name"] == find(omni)["name"] == drawn["name"]
    assert as0["event"]["text"].endswith("draws a card") and drawn["name"] in omni["event"]["text"]
    assert timeline[step - 1]["text"] == omni["event"]["text"]
    seat0_line = c.get(f"/api/games/{gid}/timeline?as=0").get_json()["events"][step - 1]["text"]
    assert drawn["name"] not in seat0_line


def test_narration_uses_only_what_the_reader_sees():
    hidden = {"type": "CardDrawn", "seq": 9, "seat": 1, "card": "c1", "knowers": [1], "reason": "draw phase", "deck_left": 3}
    assert narrate(hidden, ["Ann", "Bob"]) == "Bob draws a card"
    assert narrate({**hidden, "name": "Temple"}, ["Ann", "Bob"]) == "Bob draws a Temple"
    secret = {"type": "ReactionGiven", "seq": 10, "window": 1, "seat": 0, "audience": [0]}
    assert narrate(secret, ["Ann", "Bob"]) == "Ann answers"


def test_an_undo_over_the_api_and_the_undone_span_in_the_timeline(sqlite_app):
    """Jeff lets the deadline pass on Fred's Treasury bluff, then claims an undo: the game goes back, Jeff's
    call exposes the bluff, and the timeline keeps the undone events, marked as such."""
    import time

    api = Api(sqlite_app.test_client())
    setup = {"deck": ["Mason"], "hands": {"0": ["Laboratory"]}}
    gid, t = api.people(["Fred", "Sally", "Jeff"], reaction_seconds=0.3, setup=setup)
    fred, sally, jeff = t["Fred"], t["Sally"], t["Jeff"]
    api.post(gid, fred, {"type": "declare", "action": "treasury"})
    window = api.view(gid, sally)["table"]["window"]["id"]
    api.post(gid, sally, {"type": "react", "window": window, "answer": "pass"})
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and not [p for p in api.view(gid, jeff)["prompts"] if p["kind"] == "undo"]:
        time.sleep(0.05)
    prompt = next(p for p in api.view(gid, jeff)["prompts"] if p["kind"] == "undo")
    claim = next(o["command"] for o in prompt["options"] if o["command"]["answer"] == "claim")
    assert api.post(gid, jeff, claim).status_code == 200
    view = api.view(gid, fred)
    assert view["prompts"][0]["kind"] == "prove"
    lab = next(c["id"] for c in view["table"]["players"][0]["cards"] if c["name"] == "Laboratory")
    api.post(gid, fred, {"type": "reveal", "card": lab})
    assert api.view(gid)["table"]["players"][0]["soldiers"] == 3
    timeline = sqlite_app.test_client().get(f"/api/games/{gid}/timeline").get_json()["events"]
    claimed = next(e for e in timeline if e["type"] == "UndoClaimed")
    assert "Jeff claims an undo" in claimed["text"] and not claimed["undone"]
    undone = [e for e in timeline if e["undone"]]
    assert undone and any(e["type"] == "SoldiersChanged" for e in undone)
    for e in timeline:  # a replay step says what the timeline says of its event
        step = sqlite_app.test_client().get(f"/api/games/{gid}/replay?step={e['seq']}").get_json()["event"]
        assert (step["undone"], step["text"]) == (e["undone"], e["text"])
    sally_answer = next(e for e in timeline if e["type"] == "ReactionGiven")
    assert not sally_answer["undone"]  # the window the undo closes again keeps her pass
    assert "Jeff calls Fred's bluff on the Treasury" in [e["text"] for e in timeline]


def test_the_timeline_after_a_seq_gives_only_what_came_after(sqlite_app):
    """A client that narrates as the game goes on (aegis play) asks for what it has not printed: ``after=N`` gives the
    events from N+1 in the same words as the whole timeline, ``steps`` still counts the whole log; a cursor past the
    last event is refused, as GET /events refuses it."""
    _, gid, _ = _finished_game(sqlite_app)
    c = sqlite_app.test_client()
    whole = c.get(f"/api/games/{gid}/timeline").get_json()
    half = whole["steps"] // 2
    assert half > 0
    part = c.get(f"/api/games/{gid}/timeline?after={half}").get_json()
    assert part["events"] == whole["events"][half:] and part["steps"] == whole["steps"]
    assert c.get(f"/api/games/{gid}/timeline?after={whole['steps']}").get_json()["events"] == []
    late = c.get(f"/api/games/{gid}/timeline?after={whole['steps'] + 1}")
    assert late.status_code == 400 and "past this game's last event" in late.get_json()["detail"]
    assert c.get(f"/api/games/{gid}/timeline?after=-1").status_code == 400
