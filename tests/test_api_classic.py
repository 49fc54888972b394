"""A Classic game over HTTP: leader selection through prompts, plain components marked, verified from the
record; a catalog from AEGIS_CATALOG is checked at start-up and fixed per game at creation."""

from __future__ import annotations

import json
import random

import pytest

from domain.kernel.errors import MalformedCommand
from tests.api_client import Api
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
    assert len(table["components"]["plain_estates"]) == 23
    verified = sqlite_app.test_client().get(f"/api/games/{gid}/verify").get_json()
    assert verified["ok"] is True, verified


def _catalog(tmp_path, change=None):
    from importlib import resources

    data = json.loads(resources.files("domain.everaegis").joinpath("data/classic.json").read_text("utf-8"))
    if change:
        change(data)
    path = tmp_path / "mine.json"
    path.write_text(json.dumps(data))
    return path


def test_aegis_catalog_with_a_typo_stops_the_service_naming_file_entry_and_problem(tmp_path, sqlite_env):
    from service.settings import load

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
