"""Over HTTP, as a client sees them: the item sentences the rulebook prints play in a rigged Classic game of four people
(R62, R86, R87, R89, R104, R129; docs/rulings.md "Classic items")."""

from __future__ import annotations

from typing import Any

from tests.api_client import Api

NAMES = ["Jeff", "Sally", "Fred", "Peter"]
HANDS = {"0": ["Temple"], "1": ["Mason"], "2": ["Library"], "3": ["Treasury"]}


def game(app: Any, items: dict[str, list[str]], variant: str = "classic", selection: str = "simpleton", **rig: Any):
    """A started game of four people on the shipped catalog; Jeff (seat 0) plays first. Returns (api, id, tokens)."""
    api = Api(app.test_client())
    setup = {"deck": ["Barracks", "Mason", "Laboratory", "Temple"], "hands": HANDS, "first_player": 0, "items": items, **rig}
    gid, tokens = api.people(
        NAMES, variant=variant, selection=selection, options={"plain_unknown": 1}, setup=setup, reaction_seconds=0
    )
    return api, gid, tokens


def prompts(api: Api, gid: str, token: str) -> list[dict[str, Any]]:
    return [p for p in api.view(gid, token)["prompts"] if not p["free"]]


def war_targets(api: Api, gid: str, token: str) -> list[int] | None:
    for p in prompts(api, gid, token):
        for option in p["options"]:
            if option["command"].get("action") == "war":
                return [c["value"] for c in option["params"][0]["choices"]]
    return None


def events(api: Api, gid: str, kind: str) -> list[dict[str, Any]]:
    return [e for e in api.events(gid)["events"] if e["type"] == kind]


def pass_window(api: Api, gid: str, tokens: dict[str, str]) -> None:
    for name in NAMES:
        for p in prompts(api, gid, tokens[name]):
            if p["kind"] == "react":
                answer = next(o["command"] for o in p["options"] if o["command"]["answer"] == "pass")
                assert api.post(gid, tokens[name], answer).status_code == 200


def test_torch_over_http_its_holder_is_not_offered_and_a_war_on_them_is_refused_naming_it(sqlite_app):
    api, gid, tokens = game(sqlite_app, {"2": ["TORCH"]})
    assert war_targets(api, gid, tokens["Jeff"]) == [1, 3]
    refused = api.post(gid, tokens["Jeff"], {"type": "declare", "seat": 0, "action": "war", "target": 2})
    body = refused.get_json()
    assert refused.status_code == 422 and body["rule"] == "R86" and "TORCH" in body["detail"]


def test_target_over_http_only_its_holder_may_be_attacked(sqlite_app):
    api, gid, tokens = game(sqlite_app, {"3": ["TARGET"]})
    assert war_targets(api, gid, tokens["Jeff"]) == [3]
    refused = api.post(gid, tokens["Jeff"], {"type": "declare", "seat": 0, "action": "war", "target": 1}).get_json()
    assert refused["rule"] == "R86" and "TARGET" in refused["detail"]


def test_penguin_effigy_over_http_its_holder_stays_out_of_war_with_the_grand_penguin(sqlite_app):
    api, gid, tokens = game(sqlite_app, {"0": ["PENGUIN EFFIGY"]}, selection="freeform", leaders={"2": "Grand Penguin"})
    assert war_targets(api, gid, tokens["Jeff"]) == [1, 3]


def test_scales_over_http_nobody_is_asked_to_call_its_holders_claim(sqlite_app):
    api, gid, tokens = game(sqlite_app, {"0": ["SCALES"]})
    assert api.post(gid, tokens["Jeff"], {"type": "declare", "seat": 0, "action": "treasury"}).status_code == 200
    assert not events(api, gid, "ReactionWindowOpened") and events(api, gid, "ActionResolving")


def test_shield_over_http_plague_takes_nothing_from_its_holder(sqlite_app):
    api, gid, tokens = game(sqlite_app, {"0": ["SHIELD"]}, variant="classic+plague")
    table = api.view(gid, tokens["Jeff"])["table"]
    assert table["players"][0]["soldiers"] == 20
    kept = events(api, gid, "SoldiersKept")
    assert kept and kept[0]["seat"] == 0 and kept[0]["item"] == "SHIELD"


def test_bones_over_http_a_player_with_3_is_eliminated(sqlite_app):
    api, gid, tokens = game(sqlite_app, {"2": ["BONE", "BONE", "BONE"]})
    out = events(api, gid, "PlayerEliminated")
    assert [e["seat"] for e in out] == [2] and "3 BONES" in out[0]["reason"]
    assert api.view(gid, tokens["Fred"])["table"]["players"][2]["eliminated"] is True


def test_sword_over_http_its_holder_chooses_whom_to_go_to_war_with_at_the_end_of_their_turn(sqlite_app):
    api, gid, tokens = game(sqlite_app, {"0": ["SWORD"]}, soldiers={"0": 6})
    assert api.post(gid, tokens["Jeff"], {"type": "declare", "seat": 0, "action": "treasury"}).status_code == 200
    pass_window(api, gid, tokens)
    asked = prompts(api, gid, tokens["Jeff"])
    assert [p["kind"] for p in asked] == ["effect_choice"] and "SWORD" in asked[0]["text"]
    fred = next(o["command"] for o in asked[0]["options"] if o["command"]["choice"] == 2)
    assert api.post(gid, tokens["Jeff"], fred).status_code == 200
    began = events(api, gid, "EffectWarBegan")
    assert began and (began[0]["attacker"], began[0]["defender"], began[0]["source"]) == (0, 2, "SWORD")


def test_caltrops_over_http_its_holder_stops_a_draw(sqlite_app):
    api, gid, tokens = game(sqlite_app, {"2": ["CALTROPS"]})
    asked = prompts(api, gid, tokens["Fred"])
    assert [p["kind"] for p in asked] == ["draw_reaction"]
    use = next(o["command"] for o in asked[0]["options"] if o["command"]["answer"] == "use")
    assert api.post(gid, tokens["Fred"], use).status_code == 200
    assert events(api, gid, "DrawStopped")[0]["seat"] == 0


def test_axe_over_http_its_user_reveals_a_card_of_their_choice(sqlite_app):
    api, gid, tokens = game(sqlite_app, {"0": ["AXE"]}, first_player=3)
    assert api.post(gid, tokens["Peter"], {"type": "declare", "seat": 3, "action": "treasury"}).status_code == 200
    pass_window(api, gid, tokens)
    assert "use_item" in [p["kind"] for p in prompts(api, gid, tokens["Jeff"])]
    assert api.post(gid, tokens["Jeff"], {"type": "use_item", "seat": 0, "item": "AXE"}).status_code == 200
    asked = prompts(api, gid, tokens["Jeff"])
    assert [p["kind"] for p in asked] == ["effect_choice"]
    fred = next(o for o in asked[0]["options"] if "Fred's unrevealed card" in o["label"])
    assert api.post(gid, tokens["Jeff"], fred["command"]).status_code == 200
    shown = events(api, gid, "CardRevealed")[-1]
    assert shown["seat"] == 2 and shown["name"] == "Library"


def test_a_revealed_chapel_over_http_keeps_war_out_of_every_prompt(sqlite_app):
    """The Chapel's printed sentence: "players cannot go to war with each other" [L812-813]."""
    hands = {**HANDS, "2": [{"name": "Chapel", "revealed": True}]}
    api, gid, tokens = game(sqlite_app, {}, hands=hands)
    assert war_targets(api, gid, tokens["Jeff"]) is None
    components = api.view(gid)["table"]["components"]
    assert "Chapel" in components["partial_estates"] and "Chapel" not in components["plain_estates"]
