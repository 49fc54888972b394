"""A game's creation: the service checks its own fields, and the ruleset's fields against the ruleset's declared
JSON Schema (``Ruleset.shapes``); a value of the right type outside a documented range goes to the rules, which
refuse it naming the rule (issue 16: the API names no field of Ever Aegis itself)."""

from __future__ import annotations

import pytest

from aegis.api import openapi
from aegis.domain.everaegis.ruleset import RULESET


def _post(app, body):
    r = app.test_client().post("/api/games", json=body)
    return r.status_code, r.get_json()


@pytest.mark.parametrize(
    ("body", "field", "words"),
    [
        ({"seats": 3.0}, "seats", "Not a valid integer."),  # a whole number, not 3.0
        ({"seats": True}, "seats", "Not a valid integer."),
        ({"seats": 3, "colour": "red"}, "colour", "Unknown field."),
        ({"variant": "simpleton"}, "seats", "Missing data for required field."),
        ({"seats": 3, "variant": ""}, "variant", "should be non-empty"),
        ({"seats": 3, "selection": "x"}, "selection", "is not one of"),
        ({"seats": 3, "setup": {"hands": {"0": [{"name": "Temple", "x": 1}]}}}, "setup", "hands.0.0:"),
        ({"seats": 3, "setup": {"sanctions": {"0": ["fly"]}}}, "setup", "sanctions.0.0: 'fly' is not one of"),
    ],
)
def test_a_malformed_field_of_the_ruleset_is_named_in_the_400(sqlite_app, body, field, words):
    status, problem = _post(sqlite_app, body)
    assert status == 400 and problem["type"].endswith("malformed"), problem
    assert any(words in message for message in problem["errors"][field]), problem


@pytest.mark.parametrize(
    ("body", "rule", "words"),
    [
        ({"seats": 2}, "A44", ""),
        ({"seats": 3, "mobs": [1, 1]}, "R173", "a seat is named twice"),
        ({"seats": 3, "mobs": [12]}, "R173", "every mob is a seat from 0 to 2"),
        ({"seats": 3, "first_player": 9}, "R18", "first_player must be a seat from 0 to 2"),
        ({"seats": 3, "setup": {"dice": [9]}}, "R173", "each from 1 to 8"),
        ({"seats": 3, "setup": {"soldiers": {"0": -1}}}, None, "soldiers of seat 0 must be a whole number, 0 or more"),
        ({"seats": 3, "setup": {"wall": 20}}, None, "there is no seat 20"),
    ],
)
def test_a_value_outside_its_range_is_refused_by_the_rules_naming_the_rule(sqlite_app, body, rule, words):
    status, problem = _post(sqlite_app, body)
    assert status == 400 and problem.get("rule") == rule and words in problem["detail"], problem


def test_the_document_shows_the_ruleset_s_fields_and_table_from_the_ruleset_itself():
    schemas = openapi.document()["components"]["schemas"]
    create = schemas["CreateGameIn"]
    assert set(RULESET.shapes.creation["properties"]) <= set(create["properties"])
    assert {"seed", "turn_seconds", "ruleset"} <= set(create["properties"]) and create["required"] == ["seats"]
    assert create["additionalProperties"] is False
    for name, schema in RULESET.shapes.components.items():
        assert schemas[name] == schema
    assert RULESET.shapes.table == "TableOut"
