"""A second ruleset hosted beside Ever Aegis (High Card, ``tests/rulesets/high_card.py``): the service, the API's
document and the command line know neither, so both play side by side (the kernel's ruleset protocol)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import jsonschema_rs
import pytest

from aegis.api import openapi
from aegis.service import rulesets
from aegis.service.aggregate import register_ruleset_events
from tests.api_client import Api
from tests.conftest import close_app, make_app
from tests.rulesets.high_card import RULESET as HIGH_CARD


@pytest.fixture
def two_rulesets(sqlite_env, monkeypatch) -> Iterator[Any]:
    """An app hosting Ever Aegis and High Card, as if both were installed (entry points of ``aegis.rulesets``)."""
    monkeypatch.setitem(rulesets.RULESETS, HIGH_CARD.name, HIGH_CARD)
    monkeypatch.setattr(rulesets, "DEFAULT", None)
    register_ruleset_events(list(HIGH_CARD.event_types))
    openapi.document.cache_clear()
    app = make_app(sqlite_env)
    yield app
    close_app(app)
    openapi.document.cache_clear()


def test_the_document_describes_both_rulesets_where_they_differ(two_rulesets):
    r = two_rulesets.test_client().get("/api/openapi.json")
    assert r.status_code == 200
    doc = r.get_json()
    seats = doc["components"]["schemas"]["CreateGameIn"]["properties"]["seats"]
    assert [s["maximum"] for s in seats["anyOf"]] == [10, 2] and "high-card: 2 (HC0)" in seats["description"]
    resign = doc["components"]["schemas"]["ResignCommand"]
    assert "ever-aegis:" in resign["description"] and "high-card: give up" in resign["description"]
    assert "ShowCommand" in doc["components"]["schemas"] and "ever-aegis, high-card" in doc["info"]["description"]

    def valid(name: str, body: dict[str, Any]) -> bool:
        return jsonschema_rs.validator_for({"components": doc["components"], "$ref": f"#/components/schemas/{name}"}).is_valid(
            body
        )

    assert valid("CreateGameIn", {"ruleset": "high-card", "seats": 2}) and valid("CreateGameIn", {"seats": 8})
    assert valid("CommandIn", {"type": "show"}) and valid("CommandIn", {"type": "resign"})


def test_each_game_is_checked_against_its_own_ruleset_and_played_over_http(two_rulesets):
    c = two_rulesets.test_client()
    api = Api(c)
    refused = c.post("/api/games", json={"ruleset": "ever-aegis", "seats": 2})
    assert refused.status_code == 400 and "seats" in json.dumps(refused.get_json())
    assert c.post("/api/games", json={"seats": 3}).status_code == 400  # two hosted: a game names its own
    created = api.create(ruleset="high-card", seats=2)
    gid = created["id"]
    ann, bob = api.seat(gid, name="Ann"), api.seat(gid, name="Bob")
    api.start(gid, created["host_token"])
    view = api.view(gid, ann["token"])
    assert view["ruleset"] == "high-card" and [p["kind"] for p in view["prompts"]] == ["show"]
    assert view["table"]["hands"][1] is None and api.view(gid)["table"]["hands"] == [None, None]
    assert api.post(gid, ann["token"], view["prompts"][0]["options"][0]["command"]).status_code == 200
    last = api.post(gid, bob["token"], api.view(gid, bob["token"])["prompts"][0]["options"][0]["command"])
    assert last.status_code == 200 and last.get_json()["events"][-1]["type"] == "HighCardEnded"
    verified = c.get(f"/api/games/{gid}/verify").get_json()
    assert verified["ok"] is True and verified["rules"] == {"played_under": [{"version": 1, "from_seq": 1}], "server": 1}
    texts = [e["text"] for e in c.get(f"/api/games/{gid}/timeline").get_json()["events"]]
    assert texts[0] == "A game of High Card begins" and (texts[-1].endswith(" wins") or texts[-1] == "A draw")
    aegis = api.create(ruleset="ever-aegis", seats=3)  # and Ever Aegis beside it
    assert c.get(f"/api/games/{aegis['id']}/view").get_json()["ruleset"] == "ever-aegis"


def test_simulate_plays_the_ruleset_it_is_told_and_asks_which_when_several_are_hosted(two_rulesets, capsys):
    from aegis.cli.main import main

    assert main(["simulate", "--games", "2", "--seats", "3", "--quiet"]) == 2
    assert "--ruleset names the ruleset to play: this service hosts ever-aegis, high-card" in capsys.readouterr().err
    assert main(["simulate", "--ruleset", "high-card", "--seats", "2", "--games", "5", "--quiet"]) == 0
    line = capsys.readouterr().out.strip()
    assert line.startswith("games=5 finished=5 draws=") and "digest=" in line
    assert main(["simulate", "--ruleset", "ever-aegis", "--seats", "3", "--games", "1", "--quiet"]) == 0
    assert capsys.readouterr().out.startswith("games=1 finished=")
