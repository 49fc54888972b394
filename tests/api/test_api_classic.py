"""A Classic game over HTTP: leader selection through prompts, plain components marked, verified from the
record; a catalog from AEGIS_CATALOG is checked at start-up and fixed per game at creation."""

from __future__ import annotations

import json
import random

import pytest

from aegis.domain.kernel.errors import MalformedCommand
from tests.api_client import Api, command_of
from tests.conftest import close_app, make_app


def test_a_classic_game_with_limited_selection_is_played_and_verified(sqlite_app):
    api = Api(sqlite_app.test_client())
    refused = api.create(expect=400, seats=4, variant="classic")
    assert refused["rule"] == "A54" and "plain_unknown=1" in refused["detail"]
    gid, host, tokens = api.new_game(
        ["human", "random", "human", "cautious"],
        variant="classic",
        selection="limited",
        options={"plain_unknown": 1},
        seed="classic-http",
        reaction_seconds=0,
    )
    api.start(gid, host)
    mine = api.view(gid, tokens[0])
    assert mine["table"]["stage"] == "leaders" and len(mine["table"]["players"][0]["mats"]) == 3
    assert "mats" not in api.view(gid, tokens[2])["table"]["players"][0]
    assert [p["kind"] for p in mine["prompts"]] == ["choose_leader"]
    moves = api.play_humans(gid, tokens, random.Random(4))
    assert moves > 0
    final = api.view(gid)
    assert final["status"] == "finished"
    table = final["table"]
    assert all(p["leader"] and p["leader_plain"] for p in table["players"])
    assert len(table["components"]["plain_estates"]) == 19  # 23, less the 4 that play their printed sentence
    assert table["components"]["partial_estates"] == ["Ballista", "Chapel", "Pyramid", "Tailor"]
    verified = sqlite_app.test_client().get(f"/api/games/{gid}/verify").get_json()
    assert verified["ok"] is True, verified


def _catalog(tmp_path, change=None):
    from importlib import resources

    data = json.loads(resources.files("aegis.domain.everaegis").joinpath("data/classic.json").read_text("utf-8"))
    if change:
        change(data)
    path = tmp_path / "mine.json"
    path.write_text(json.dumps(data))
    return path


def test_aegis_catalog_with_a_typo_stops_the_service_naming_file_entry_and_problem(tmp_path, sqlite_env):
    from aegis.service.settings import load

    def typo(data):
        data["leaders"][4]["text_known"] = "fulll"

    path = _catalog(tmp_path, typo)
    with pytest.raises(MalformedCommand) as err:
        load({**sqlite_env, "AEGIS_CATALOG": str(path)})
    name = json.loads(path.read_text())["leaders"][4]["name"]
    assert str(path) in err.value.message and f"leaders[4] ({name})" in err.value.message
    assert "text_known must be one of" in err.value.message
    with pytest.raises(MalformedCommand) as err:
        load({**sqlite_env, "AEGIS_CATALOG": str(tmp_path / "absent.json")})
    assert "absent.json: cannot read the catalog" in err.value.message


def test_a_game_keeps_the_catalog_it_was_created_with(tmp_path, sqlite_env):
    app = make_app(sqlite_env, AEGIS_CATALOG=str(_catalog(tmp_path)))
    try:
        api = Api(app.test_client())
        gid, host, _ = api.new_game(
            ["random", "random", "random"], variant="classic", selection="simpleton", options={"plain_unknown": 1}, seed="cat"
        )
        api.start(gid, host)
        started = next(e for e in api.events(gid)["events"] if e["type"] == "ComponentsChosen")
        assert started["source"].startswith("AEGIS_CATALOG mine.json sha256:")
        assert len(started["estates"]) == 23 and started["leaders"] == []
    finally:
        close_app(app)


HAMMER_SETUP = {
    "deck": ["Barracks", "Mason", "Library", "Temple", "Treasury", "Laboratory"],
    "hands": {"0": ["Temple", "Mason"], "1": ["Treasury", {"name": "Library", "revealed": True}]},
    "first_player": 0,
    "items": {"1": ["HAMMER"]},
}


def test_r103_over_http_the_end_phase_offers_the_hammer_after_the_action_to_keep_or_to_use(sqlite_app):
    api = Api(sqlite_app.test_client())
    gid, host, tokens = api.new_game(
        ["human", "human", "human"],
        variant="classic",
        selection="simpleton",
        options={"plain_unknown": 1},
        setup=HAMMER_SETUP,
        reaction_seconds=0,
    )
    api.start(gid, host)

    def asked(seat):
        return [p for p in api.view(gid, tokens[seat])["prompts"] if not p["free"]]

    def recruit(seat):
        assert api.post(gid, tokens[seat], {"type": "declare", "action": "recruit"}).status_code == 200

    recruit(0)
    assert [p["kind"] for p in asked(1)] == ["declare", "use_item"]
    recruit(1)  # Keith keeps the HAMMER through his action: his End Phase offers it again
    prompts = asked(1)
    assert [p["kind"] for p in prompts] == ["end_phase", "use_item"]
    table = api.view(gid)["table"]
    assert table["phase"] == "end" and table["awaiting"] == [{"seat": 1, "kind": "end_phase"}, {"seat": 1, "kind": "use_item"}]
    assert prompts[0]["options"][0]["command"] == {"type": "end_phase", "seat": 1}
    assert prompts[1]["options"][0]["command"] == {"type": "use_item", "seat": 1, "item": "HAMMER"}
    refused = api.post(gid, tokens[2], {"type": "end_phase"})
    assert refused.status_code == 403 and refused.get_json()["rule"] == "R24"  # not Sally's to decide
    assert api.post(gid, tokens[1], {"type": "end_phase"}).status_code == 200  # he keeps it
    assert api.view(gid)["table"]["current"] == 2 and api.view(gid)["table"]["players"][1]["items"] == ["HAMMER"]
    recruit(2)
    recruit(0)
    recruit(1)
    assert [p["kind"] for p in asked(1)] == ["end_phase", "use_item"]
    assert api.post(gid, tokens[1], {"type": "use_item", "item": "HAMMER"}).status_code == 200
    for _ in range(2):  # the HAMMER's text: discard any 2 cards in play
        choice = next(p for p in asked(1) if p["kind"] == "effect_choice")
        assert "HAMMER" in choice["text"]
        assert api.post(gid, tokens[1], command_of(choice["options"][0])).status_code == 200
    view = api.view(gid, tokens[2])
    assert view["table"]["current"] == 2 and [p["kind"] for p in asked(2)] == ["declare"]
    assert view["table"]["players"][1]["items"] == []
    timeline = [e["text"] for e in sqlite_app.test_client().get(f"/api/games/{gid}/timeline").get_json()["events"]]
    used = next(i for i, text in enumerate(timeline) if "HAMMER takes effect: used (R103)" in text)
    assert "End Phase" in timeline[used - 1]  # right after the action, in the End Phase
    api.play_humans(gid, tokens, random.Random(5))  # to the end: the record, end_phase command included, replays
    assert sqlite_app.test_client().get(f"/api/games/{gid}/verify").get_json()["ok"] is True


def test_r172_an_artificers_giver_may_give_the_treaty_over_http_and_takes_the_ink_quill(sqlite_app):
    """R172, R107, R108: the one TREATY is among the items a player may give in the Artificers setup; its giver and
    its receiver are then its two parties, as every view shows."""
    api = Api(sqlite_app.test_client())
    spec = {"variant": "classic+artificers", "selection": "simpleton", "options": {"plain_unknown": 1}, "first_player": 0}
    gid, tokens = api.people(["Sally", "Fred", "Jeff"], reaction_seconds=0, **spec)
    (prompt,) = api.view(gid, tokens["Sally"])["prompts"]
    assert prompt["kind"] == "artificer_gift"
    (option,) = prompt["options"]
    item, to = option["params"]
    assert "TREATY" in [c["value"] for c in item["choices"]] and [c["value"] for c in to["choices"]] == [1, 2]
    r = api.post(gid, tokens["Sally"], {**option["command"], "item": "TREATY", "to": 2})
    assert r.status_code == 200, r.get_json()
    players = api.view(gid, tokens["Fred"])["table"]["players"]
    assert players[2]["items"] == ["TREATY"] and players[0]["items"] == ["INK QUILL"]
    (prompt,) = api.view(gid, tokens["Fred"])["prompts"]
    assert "TREATY" not in [c["value"] for c in prompt["options"][0]["params"][0]["choices"]]
