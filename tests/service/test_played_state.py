"""The service moves a game's state on as the rules decide each command (``Game.play``: ``Ruleset.push``, each event
applied once, no copy) and records the events without applying them again. Whatever the path (a person's command,
a bot's, a deadline's, a refusal in between), the state it holds is the state its recorded log folds to, and the
game ends at the event that ended it."""

from __future__ import annotations

import random
from uuid import UUID

import pytest

from aegis.domain.kernel.events import event_from_dict
from aegis.service.rulesets import ruleset_named
from tests.api_client import Api
from tests.conftest import close_app, make_app


@pytest.mark.parametrize("seed", ["played-1", "played-2", "played-3"])
def test_the_state_held_is_the_state_the_recorded_log_folds_to(sqlite_env, seed):
    app = make_app(sqlite_env)
    try:
        api = Api(app.test_client())
        gid, host, tokens = api.new_game(["human", "random", "cautious", "human"], seed=seed, reaction_seconds=0)
        api.start(gid, host)
        service = app.extensions["aegis"]
        rng = random.Random(seed)
        refused = 0
        checked = 0
        while (found := api.open_command(gid, tokens, rng)) is not None:
            if checked % 7 == 3:  # now and then a command the rules refuse: nothing may move
                bad = {**found[1], "type": "declare", "action": "no-such-action"}
                assert api.post(gid, found[0], bad).status_code in (400, 409, 422)
                refused += 1
            r = api.post(gid, found[0], found[1])
            assert r.status_code == 200, r.get_json()
            checked += 1
            if checked % 10 == 0 or checked < 5:
                _same_as_folded(service, gid)
        _same_as_folded(service, gid)
        assert refused > 0 and checked > 10
        game, log = service.record(UUID(gid))
        ended = [e["seq"] for e in log if e["type"] == "GameEnded"]
        assert game.finished_seq == (ended[0] if ended else None)
    finally:
        close_app(app)


def _same_as_folded(service, gid: str) -> None:
    game, log = service.record(UUID(gid))
    rules = ruleset_named(game.ruleset)
    folded = rules.fold(rules.make_config(game.started_config), [event_from_dict(e) for e in log])
    assert rules.encode_state(game.state) == rules.encode_state(folded)
    assert game.seq == len(log)
