"""Golden ``aegis simulate`` digests: the same arguments must keep giving the same event logs, byte for byte.

A refactor keeps every digest. A change of the rules changes some: re-pin them (``tests/golden_digests.json``)
in a commit that says why. Each case is six games of one combination: Simpleton at 3/5/8 seats, Classic in each
selection mode, each variant, mobs and the optional rules.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from aegis.domain.everaegis.config import make_config
from aegis.domain.everaegis.evolve import apply
from aegis.domain.everaegis.ruleset import RULESET
from aegis.domain.everaegis.simulation import simulate
from aegis.domain.simulation import log_bytes

pytestmark = pytest.mark.slow  # whole games: CI runs them; pytest -m 'not slow' leaves them out

GOLDEN = json.loads((Path(__file__).parents[1] / "golden_digests.json").read_text())


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_simulate_digest_is_pinned(name):
    case = GOLDEN[name]
    assert simulate(games=6, seed="golden", **case["args"]).line() == case["line"]


RECORDED = json.loads((Path(__file__).parents[1] / "golden_games.json").read_text())


def _replay(args: dict, seed: str, commands: list[dict]) -> list:
    config = make_config(
        seats=args["seats"],
        variants=args.get("variants", "simpleton"),
        reaction_seconds=0,
        options=args.get("options"),
        selection=args.get("selection"),
        mobs=args.get("mobs"),
    )
    events = RULESET.start(config, seed)
    state = RULESET.fold(config, events)
    for command in commands:
        new = RULESET.decide(state, command)
        for e in new:
            apply(state, e)
        events.extend(new)
    return events


def test_the_recorded_games_are_pinned_under_todays_rules_version():
    """A record is re-decided by the rules it was played under (``verify`` names them): the rules' outcomes pinned
    below belong to one ``rules_version``, and ``tests/pin_golden.py`` re-pins changed outcomes only under a new one."""
    pinned = json.loads((Path(__file__).parents[1] / "golden_rules_version.json").read_text())["rules_version"]
    assert pinned == RULESET.rules_version


@pytest.mark.parametrize("name", sorted(RECORDED))
def test_recorded_games_replay_command_by_command_to_the_same_log(name):
    """The rules' outcomes, apart from any bot: two games of each golden combination, recorded as the commands the
    bots sent (``tests/golden_games.json``), must give the same event log byte for byte. A change of how bots choose
    re-pins the digests above but never these; a change of the rules must say why it changes them."""
    case = RECORDED[name]
    for game in case["games"]:
        events = _replay(case["args"], game["seed"], game["commands"])
        assert len(events) == game["events"], game["seed"]
        assert hashlib.sha256(log_bytes(events)).hexdigest() == game["digest"], game["seed"]
