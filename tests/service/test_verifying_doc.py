"""docs/verifying.md tells an arbiter how to check a finished game's deal with nothing but SHA-256; its checker,
run here as the page prints it, must find the deal of real games and refuse a deal that was changed."""

from __future__ import annotations

import copy
import re
from pathlib import Path
from typing import Any

import pytest

from tests.api_client import Api

PAGE = Path(__file__).parents[2] / "docs" / "verifying.md"


def _checker() -> Any:
    code = re.search(r"```python\n(.*?)```", PAGE.read_text(), re.S)
    assert code is not None, "docs/verifying.md has no checker"
    found: dict[str, Any] = {}
    exec(compile(code.group(1), str(PAGE), "exec"), found)  # the page's own code, as a reader would run it
    return found["check_deal"]


def _events(api: Api, gid: str) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []
    after = 0
    while True:
        page = api.c.get(f"/api/games/{gid}/events?after={after}&limit=5000").get_json()
        events += page["events"]
        if not page["events"] or page["next_after"] >= page["seq"]:
            return events
        after = page["next_after"]


@pytest.mark.parametrize(
    "spec",
    [
        {"seats": ["random", "cautious", "random"]},
        {"seats": ["random"] * 4, "variant": "classic", "options": {"plain_unknown": 1}},
        {"seats": ["random"] * 5, "variant": "classic", "selection": "drafting", "options": {"plain_unknown": 1}},
    ],
    ids=["simpleton", "classic", "classic-drafting"],
)
def test_the_page_s_checker_finds_the_deal_of_a_finished_game_and_refuses_a_changed_one(sqlite_app, spec):
    check_deal = _checker()
    api = Api(sqlite_app.test_client())
    seats = spec.pop("seats")
    gid, host, _ = api.new_game(seats, seed="verify-doc", reaction_seconds=0, **spec)
    api.start(gid, host)
    assert api.view(gid)["status"] == "finished"
    events = _events(api, gid)
    assert ("EstateDeckFormed" in {e["type"] for e in events}) == (spec.get("variant") == "classic")
    assert check_deal(events) == []
    changed = copy.deepcopy(events)
    deck = next(e for e in changed if e["type"] == "DeckFormed")["cards"]
    deck[0], deck[1] = deck[1], deck[0]
    assert check_deal(changed) == ["the deck is not what the seed deals"]
    changed = copy.deepcopy(events)
    next(e for e in changed if e["type"] == "GameStarted")["seed"] = "0" * 64
    assert "the years are not what the seed deals" in check_deal(changed)
