"""The rulesets the service hosts are plug-ins found by entry point (group ``aegis.rulesets``), and the service
learns about a game only through their protocol (issue 16)."""

from __future__ import annotations

from importlib.metadata import entry_points

import pytest

from aegis.domain.everaegis.ruleset import RULESET as EVER_AEGIS
from aegis.domain.kernel.events import Event
from aegis.service import rulesets
from aegis.service.errors import BadRequest
from aegis.service.games import GameService
from aegis.service.settings import load


def test_the_hosted_rulesets_are_the_installed_entry_points():
    points = {p.name: p.value for p in entry_points(group=rulesets.GROUP)}
    assert points == {"ever-aegis": "aegis.domain.everaegis.ruleset:RULESET"}
    assert rulesets.RULESETS == {"ever-aegis": EVER_AEGIS} and rulesets.DEFAULT == "ever-aegis"


def test_the_store_and_the_api_know_every_event_and_command_from_the_ruleset_itself():
    types = list(rulesets.RULESETS["ever-aegis"].event_types)
    assert types and all(issubclass(t, Event) for t in types)
    assert len({t.TYPE for t in types}) == len(types)
    assert {"CardDrawn", "BluffCalled", "PlayerResigned"} <= {t.TYPE for t in types}
    assert rulesets.RULESETS["ever-aegis"].commands is EVER_AEGIS.commands
    assert rulesets.BOT_NAMES == ["cautious", "random"]


def test_with_several_rulesets_hosted_a_game_must_name_its_own(sqlite_env, monkeypatch):
    service = GameService(load(sqlite_env))
    monkeypatch.setattr(rulesets, "DEFAULT", None)  # what the service sets when more than one is installed
    with pytest.raises(BadRequest) as err:
        service.create_game({"seats": 3})
    assert "'ruleset' must be the name of a ruleset this service hosts: ever-aegis" in str(err.value)
    gid, _, _ = service.create_game({"seats": 3, "ruleset": "ever-aegis"})
    assert gid
    with pytest.raises(BadRequest) as err:
        service.create_game({"seats": 3, "ruleset": "chess"})
    assert "unknown ruleset 'chess'" in str(err.value)


def test_seats_the_rules_play_are_filled_by_the_service_with_the_ruleset_s_names(sqlite_env):
    service = GameService(load(sqlite_env))
    gid, _, _ = service.create_game({"seats": 4, "mobs": [0, 2]})
    seats = service.read(gid, lambda game: list(game.seats))
    assert [s["name"] for s in seats] == ["Mob 0"]  # seat 2 waits until seat 1 is taken
    service.take_seat(gid, name="Ann", bot=None)
    seats = service.read(gid, lambda game: list(game.seats))
    assert [s["name"] for s in seats] == ["Mob 0", "Ann", "Mob 2"]


def test_a_ruleset_lacking_a_member_of_the_protocol_is_refused_at_start_up_naming_what_it_lacks():
    """The entry point's object is not typed, so mypy cannot check it: the service does, before hosting it."""
    from tests.rulesets.high_card import HighCard

    rulesets.check_ruleset(HighCard(), "High Card")  # the whole protocol: nothing said

    import types

    partial = types.SimpleNamespace(**{name: None for name in rulesets.protocol_members() if name not in ("outcome", "turn")})
    with pytest.raises(RuntimeError) as err:
        rulesets.check_ruleset(partial, "the ruleset of entry point aegis.rulesets:partial")
    assert str(err.value).startswith("the ruleset of entry point aegis.rulesets:partial lacks outcome, turn: ")
    assert "outcome" in rulesets.protocol_members() and "stand_in" in rulesets.protocol_members()
