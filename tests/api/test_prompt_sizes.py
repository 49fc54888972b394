"""Compact prompts keep every answer small: a 10-seat Simpleton game of people only, played over HTTP to its end,
never sends a seat a view over 32 KB or a prompt of more than 100 options (issue: "no prompt lists thousands of
choices"; before compact options a Library turn offered 496 SANCTION pairs and a view weighed 666-723 KB)."""

from __future__ import annotations

import json
import random

from tests.api_client import Api

MAX_VIEW_BYTES = 32 * 1024
MAX_OPTIONS = 100


def test_a_10_seat_game_of_people_keeps_every_view_under_32_kb_and_every_prompt_under_100_options(sqlite_app):
    api = Api(sqlite_app.test_client())
    gid, host, tokens = api.new_game(["human"] * 10, seed="sizes", reaction_seconds=0, turn_seconds=0)
    api.start(gid, host)
    largest = {"view": 0, "options": 0, "checks": 0}

    def check(game: str) -> None:
        for token in tokens.values():
            r = api.c.get(f"/api/games/{game}/view", headers=api.auth(token))
            assert r.status_code == 200
            body = r.get_data()
            view = json.loads(body)
            largest["view"] = max(largest["view"], len(body))
            largest["checks"] += 1
            assert len(body) <= MAX_VIEW_BYTES, (view["seq"], len(body))
            for prompt in view["prompts"]:
                largest["options"] = max(largest["options"], len(prompt["options"]))
                assert len(prompt["options"]) <= MAX_OPTIONS, (view["seq"], prompt["kind"], len(prompt["options"]))

    check(gid)
    moves = api.play_humans(gid, tokens, random.Random(10), max_moves=3000, check=check)
    assert api.view(gid, tokens[0])["status"] == "finished", "the game is played to its end"
    assert moves > 50 and largest["checks"] > 500
    print(f"10 seats, {moves} moves: largest view {largest['view']} bytes, most options in a prompt {largest['options']}")
