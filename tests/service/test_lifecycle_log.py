"""The games' lifecycle in the log (logger ``aegis.games``, INFO): one line per moment an operator looks for, written
once per save, with ids and seat numbers only: no name, card, seed, secret or token."""

from __future__ import annotations

import logging

from tests.api_client import Api
from tests.service.test_clocks import _people, manual  # noqa: F401 (manual: a fixture)

CARDS = ("Temple", "Mason", "Barracks", "Treasury", "Laboratory", "Library")


def test_a_game_s_life_is_logged_once_per_moment_with_ids_only(sqlite_app, caplog):
    caplog.set_level(logging.INFO, logger="aegis.games")
    api = Api(sqlite_app.test_client())
    gid, host, tokens = api.new_game(["human", "random", "random"], seed="logged", reaction_seconds=0)
    api.start(gid, host)
    api.post(gid, tokens[0], {"type": "resign"})  # the bots play the game out
    assert api.view(gid)["status"] == "finished"
    lobby = api.create(seats=3)
    api.c.post(f"/api/games/{lobby['id']}/cancel", headers=api.auth(lobby["host_token"]))
    lines = [r.getMessage() for r in caplog.records if r.name == "aegis.games"]
    ours = [line for line in lines if gid in line]
    assert ours[0] == f"game {gid} created: ever-aegis, 3 seats"
    assert ours[1] == f"game {gid} started"
    assert ours[2].startswith(f"game {gid} finished after ") and len(ours) == 3
    assert f"game {lobby['id']} cancelled in the lobby" in lines
    everything = " ".join(lines)
    secret = api.c.get(f"/api/games/{gid}/verify").get_json()["server_secret"]
    for hidden in (*CARDS, "logged", secret, host, *(t for t in tokens if isinstance(t, str)), "Random bot"):
        assert hidden not in everything, hidden


def test_a_clock_run_out_is_logged_with_the_seat_and_the_decision_kind(manual, caplog):  # noqa: F811
    """The clock is the test's (tests/service/test_clocks.py): it runs out, and the service acts on it."""
    caplog.set_level(logging.INFO, logger="aegis.games")
    api, clock, act = manual
    gid, _ = _people(api, ["Ann", "cautious", "cautious"], turn_seconds=5, reaction_seconds=5, first_player=0)
    clock.now += 6
    act(gid)
    [line] = [r.getMessage() for r in caplog.records if "clock ran out" in r.getMessage()]
    assert line.startswith(f"game {gid}: seat 0's clock ran out on a '") and line.endswith("(1 in a row)")
