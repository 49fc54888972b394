"""Odds at every claim, over the API: a finished game's replay steps carry the odds of their claim, and its review
lists every claim, call, guard and pass with them; during a game neither exists for anyone (an analysis engine at
the table would be a leak of judgement, and the odds of a seat's reader depend on its hidden cards).

The rigged position is E12's (the book's correct call, R57-R59): Fred bluffs the Treasury, Sally calls, Fred
shows his Laboratory. Fred drew the deck's Mason, so he holds a Laboratory and a Mason; Sally holds a Barracks; the
deck still holds a Treasury and a Temple; the other buildings are in the years, whose composition is public (R16).
"""

from __future__ import annotations

import random

import pytest

from tests.api_client import Api

SETUP = {"deck": ["Mason", "Treasury", "Temple"], "hands": {"0": ["Laboratory"], "1": ["Barracks"]}, "first_player": 0}
READERS = ("spectator", "0", "1", "2", "omniscient")


def _bluff_called(app) -> tuple[Api, str, dict[str, str], str, int]:
    api = Api(app.test_client())
    created = api.create(seats=3, reaction_seconds=0, setup=SETUP)
    gid = created["id"]
    t = {name: api.seat(gid, name=name)["token"] for name in ("Fred", "Sally", "Jeff")}
    api.start(gid, created["host_token"])
    assert api.post(gid, t["Fred"], {"type": "declare", "action": "treasury"}).status_code == 200
    claim = api.view(gid)["seq"] - 1  # the declaration, then the window it opened
    window = api.view(gid, t["Sally"])["table"]["window"]["id"]
    api.post(gid, t["Sally"], {"type": "react", "window": window, "answer": "call"})
    api.post(gid, t["Jeff"], {"type": "react", "window": window, "answer": "pass"})
    lab = next(c["id"] for c in api.view(gid, t["Fred"])["table"]["players"][0]["cards"] if c.get("name") == "Laboratory")
    api.post(gid, t["Fred"], {"type": "reveal", "card": lab})
    return api, gid, t, created["host_token"], claim


def _finish(api: Api, gid: str, t: dict[str, str]) -> None:
    for name in ("Jeff", "Fred"):
        r = api.post(gid, t[name], {"type": "resign"})
        assert r.status_code == 200, r.get_json()
    assert api.view(gid)["status"] == "finished"


def _token_for(t: dict[str, str], host: str, reader: str) -> str | None:
    return {"0": t["Fred"], "1": t["Sally"], "2": t["Jeff"], "omniscient": host}.get(reader)


def test_r57_a_finished_game_s_claim_carries_its_odds_as_each_reader_knew_them(sqlite_app):
    api, gid, t, _, claim = _bluff_called(sqlite_app)
    assert api.c.get(f"/api/games/{gid}/events").get_json()["events"][claim - 1]["type"] == "ActionDeclared"
    _finish(api, gid, t)
    odds = {r: api.c.get(f"/api/games/{gid}/replay?step={claim}&as={r}").get_json()["odds"] for r in READERS}
    # Sally cannot place 4 cards: Fred's 2 and the deck's 2, one of them the Treasury: 1 - C(3,2)/C(4,2) = 1/2.
    # A spectator cannot place Sally's Barracks either: 1 - C(4,2)/C(5,2) = 2/5. Fred knows he bluffs: 0.
    assert odds["1"] == {"claimant": 0, "claim": "Treasury", "about": "action", "probability": 0.5, "as": 1, "held": False}
    assert odds["spectator"]["probability"] == pytest.approx(0.4)
    assert odds["0"]["probability"] == 0 and odds["omniscient"]["probability"] == 0
    assert odds["2"]["probability"] == pytest.approx(0.4)  # Jeff holds nothing: he knows what a spectator knows
    assert api.c.get(f"/api/games/{gid}/replay?step={claim + 1}&as=1").get_json()["odds"] is None  # no claim there
    assert api.c.get(f"/api/games/{gid}/replay?step=0").get_json()["odds"] is None


def test_no_odds_and_no_review_while_the_game_is_on_for_any_reader(sqlite_app):
    """Fairness: during the game every replay step answers ``odds: null`` and the review 409, for every perspective
    the caller may take (a seat with its own token; the omniscient replay is refused to everyone, the host of this
    rigged game included)."""
    api, gid, t, host, claim = _bluff_called(sqlite_app)
    steps = api.view(gid)["seq"]
    for reader in READERS:
        headers = api.auth(_token_for(t, host, reader))
        for step in range(steps + 1):
            r = api.c.get(f"/api/games/{gid}/replay?step={step}&as={reader}", headers=headers)
            if reader == "omniscient":
                assert r.status_code == 403, (reader, step)
                continue
            assert r.status_code == 200 and r.get_json()["odds"] is None, (reader, step)
        r = api.c.get(f"/api/games/{gid}/review?as={reader}", headers=headers)
        assert r.status_code == 409 and r.headers["Content-Type"].startswith("application/problem+json")
    assert claim <= steps


def test_the_review_lists_every_claim_and_answer_with_its_odds_and_what_happened(sqlite_app):
    api, gid, t, _, claim = _bluff_called(sqlite_app)
    _finish(api, gid, t)
    review = api.c.get(f"/api/games/{gid}/review?as=1").get_json()
    assert review["as"] == 1 and review["steps"] == api.view(gid)["seq"]
    fred, sally, jeff = review["players"]
    assert [p["name"] for p in review["players"]] == ["Fred", "Sally", "Jeff"]
    [made] = fred["moves"]
    assert made["kind"] == "claim" and made["step"] == claim and made["claim"] == "Treasury"
    assert made["probability"] == 0.5 and made["held"] is False and made["outcome"] == "exposed"
    assert made["bluff_through"] is False and fred["summary"]["bluffs"] == 1 and fred["summary"]["bluffs_through"] == 0
    [call] = sally["moves"]
    assert call["kind"] == "call" and call["outcome"] == "right" and call["claim_step"] == claim and call["step"] > claim
    assert call["against_odds"] is True  # she called at even odds, as she knew them
    assert sally["calibration"] == {"calls": 1, "mean_probability": 0.5, "held_rate": 0.0, "brier": 0.25}
    assert sally["summary"]["calls_against_odds"] == 1 and sally["summary"]["calls_right"] == 1
    [passed] = jeff["moves"]
    assert passed["kind"] == "pass" and passed["outcome"] == "exposed" and passed["against_odds"] is None
    assert jeff["calibration"]["brier"] is None
    # the omniscient review: what was true, so the same call is not against the odds
    everyone = api.c.get(f"/api/games/{gid}/review?as=omniscient").get_json()
    assert everyone["players"][1]["moves"][0]["probability"] == 0 and everyone["players"][1]["moves"][0]["against_odds"] is False


def test_review_errors_are_problems(sqlite_app):
    api, gid, t, _, _ = _bluff_called(sqlite_app)
    c = sqlite_app.test_client()
    assert c.get("/api/games/00000000-0000-0000-0000-000000000000/review").status_code == 404
    assert c.get("/api/games/not-a-game/review").status_code in (400, 404)
    lobby = api.create(seats=3)["id"]
    assert c.get(f"/api/games/{lobby}/review").status_code == 404
    _finish(api, gid, t)
    for bad in ("7", "nobody", "-1"):
        r = c.get(f"/api/games/{gid}/review?as={bad}")
        assert r.status_code == 400 and r.headers["Content-Type"].startswith("application/problem+json"), bad
    assert c.get(f"/api/games/{gid}/review?as=2&step=3").status_code == 400  # no unknown parameters


def test_the_review_page_is_served_and_writes_names_as_text(sqlite_app):
    gid = _bluff_called(sqlite_app)[1]
    c = sqlite_app.test_client()
    page = c.get(f"/review/{gid}?as=1")
    assert page.status_code == 200 and "/static/review.js" in page.get_data(as_text=True)
    script = c.get("/static/review.js").get_data(as_text=True)
    assert "innerHTML" not in script and "textContent" in script  # names reach the page as text only
    assert "/replay/" in script  # each move links to its step in the viewer
    for path in ("/review/not-a-game", f"/review/{gid}/", f"/replay/{gid}/"):  # a page, which says what is wrong
        served = c.get(path)
        assert served.status_code == 200 and served.mimetype == "text/html", path
    assert c.get("/api/games/not-a-game/review").status_code in (400, 404)  # what the page then shows


def test_random_finished_games_odds_are_probabilities_and_the_omniscient_ones_are_the_truth(sqlite_app):
    """Property over a few random games played to the end over the API: every review move's odds lie in [0, 1], and the
    omniscient review's odds equal ``held`` exactly."""
    api = Api(sqlite_app.test_client())
    moves = 0
    for seed in range(2):
        gid, host, tokens = api.new_game(["human", "human", "cautious"], seed=f"review-{seed}", reaction_seconds=0)
        api.start(gid, host)
        api.play_humans(gid, tokens, random.Random(seed))
        for reader in READERS:
            review = api.c.get(f"/api/games/{gid}/review?as={reader}").get_json()
            for p in review["players"]:
                for m in p["moves"]:
                    moves += 1
                    assert 0 <= m["probability"] <= 1
                    if reader == "omniscient":
                        assert m["probability"] == int(m["held"])
    assert moves > 0
