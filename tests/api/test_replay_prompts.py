"""A replay step carries the prompts the perspective's seat had then (``prompts``): what its view listed, to whom may
look as that seat only; a spectator and the omniscient have none."""

from __future__ import annotations

import random

from tests.api_client import Api

SETUP = {"deck": ["Mason", "Temple"], "hands": {"0": ["Laboratory"]}, "first_player": 0}


def _replay(api: Api, gid: str, as_: str, step: int | None = None, token: str | None = None):
    query = f"as={as_}" + ("" if step is None else f"&step={step}")
    return api.c.get(f"/api/games/{gid}/replay?{query}", headers=api.auth(token))


def _without_clocks(prompts):
    return [{k: v for k, v in p.items() if k != "deadline"} for p in prompts]


def test_a_seat_replays_the_prompts_its_view_listed_and_nobody_else_may_during_the_game(sqlite_app):
    api = Api(sqlite_app.test_client())
    gid, t = api.people(["Fred", "Sally", "Jeff"], reaction_seconds=0, setup=SETUP)
    api.post(gid, t["Fred"], {"type": "declare", "action": "treasury"})
    window_step = api.view(gid)["seq"]
    sally_now = api.view(gid, t["Sally"])["prompts"]
    assert [p["kind"] for p in sally_now] == ["react"]

    mine = _replay(api, gid, "1", token=t["Sally"])
    assert mine.status_code == 200
    assert _without_clocks(mine.get_json()["prompts"]) == _without_clocks(sally_now)
    # Fred waits for the window: his view lists no react prompt, nor does his replay
    assert "react" not in [p["kind"] for p in _replay(api, gid, "0", token=t["Fred"]).get_json()["prompts"]]
    # Sally's prompts are hers: not to another seat's token, nor to no token, and a spectator gets none
    assert _replay(api, gid, "1", token=t["Jeff"]).status_code == 403
    assert _replay(api, gid, "1").status_code == 403
    spectator = _replay(api, gid, "spectator").get_json()
    assert spectator["prompts"] == [] and spectator["step"] == window_step

    window = api.view(gid, t["Sally"])["table"]["window"]["id"]
    api.post(gid, t["Sally"], {"type": "react", "window": window, "answer": "pass"})
    # once answered the prompt is gone now, and still there at the step she had it
    assert "react" not in [p["kind"] for p in _replay(api, gid, "1", token=t["Sally"]).get_json()["prompts"]]
    then = _replay(api, gid, "1", step=window_step, token=t["Sally"]).get_json()["prompts"]
    assert _without_clocks(then) == _without_clocks(sally_now)


def test_after_the_game_anyone_replays_a_seat_s_prompts_and_the_omniscient_has_none(sqlite_app):
    api = Api(sqlite_app.test_client())
    gid, host, tokens = api.new_game(["human", "human", "random"], seed="prompts", reaction_seconds=0)
    api.start(gid, host)
    api.play_humans(gid, tokens, random.Random(3))
    steps = _replay(api, gid, "spectator").get_json()["steps"]
    seen = {"0": 0, "1": 0}
    for step in range(0, steps + 1, 7):
        for seat in seen:
            prompts = _replay(api, gid, seat, step=step).get_json()["prompts"]
            assert all(p["seat"] == int(seat) for p in prompts)
            seen[seat] += len(prompts)
        assert _replay(api, gid, "omniscient", step=step).get_json()["prompts"] == []
        assert _replay(api, gid, "spectator", step=step).get_json()["prompts"] == []
    assert seen["0"] > 0 and seen["1"] > 0
