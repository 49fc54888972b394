"""The review page in a real browser (Debian's Chromium driven by Playwright), against a running ``aegis serve`` of
this checkout: a finished game's players in tables, their names shown as text (a name that looks like markup stays
text), each move linked to its step in the replay viewer, and the perspective selector reloading the odds."""

from __future__ import annotations

import json
import subprocess
import urllib.request
from pathlib import Path

import pytest

from tests.system.test_serve import aegis
from tests.system.test_viewer_browser import _call, _env, _shots
from tests.system.test_viewer_browser import browser as browser  # the same Chromium fixture
from tests.system.test_viewer_browser import server as server  # the same running service

NAME = "<i>Ann</i>"


@pytest.fixture(scope="module")
def reviewed_game(server):
    """A finished game, played against the viewer tests' running ``aegis serve`` of this checkout, whose person's
    name looks like markup."""
    url, tmp = server
    played = subprocess.run(
        aegis("play", "--url", url, "--auto", "--seats", "3", "--seed", "review", "--name", NAME),
        capture_output=True,
        text=True,
        timeout=120,
        env=_env(),
    )
    assert played.returncode == 0, played.stderr
    gid = _call(url + "/api/games?status=finished")["games"][0]["id"]  # this module's server: its only game
    return url, gid, tmp


def test_the_review_page_shows_every_player_s_moves_as_text_with_links_to_the_viewer(browser, reviewed_game):
    url, gid, tmp = reviewed_game
    with urllib.request.urlopen(f"{url}/api/games/{gid}/review?as=0") as r:
        review = json.loads(r.read())
    moves = sum(len(p["moves"]) for p in review["players"])
    assert moves > 0
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(f"{url}/review/{gid}?as=0")
    page.wait_for_selector("section.player")
    assert page.locator("section.player").count() == 3
    assert page.locator("section.player tr").count() == moves + sum(1 for p in review["players"] if p["moves"])
    heading = page.locator("section.player h2").first
    assert heading.inner_text().startswith(NAME) and heading.locator("i").count() == 0  # markup in a name stays text
    first = next(m for p in review["players"] for m in p["moves"])
    claim = first["claim_step"]  # a move links to its claim's step, with the claim's audit open
    link = page.locator(f'section.player a[href="/replay/{gid}?step={claim}&as=0&audit={claim}"]')
    assert link.count() >= 1
    page.screenshot(path=str(_shots(Path(tmp)) / "review.png"), full_page=False)  # AEGIS_SCREENSHOTS=docs: the README's
    page.select_option("#perspective", "omniscient")
    page.wait_for_function("() => new URLSearchParams(location.search).get('as') === 'omniscient'")
    page.wait_for_selector(f'section.player a[href="/replay/{gid}?step={claim}&as=omniscient&audit={claim}"]')
    odds = page.locator("section.player td.num").all_inner_texts()
    assert odds and set(odds) <= {"0%", "100%"}  # what was true
    page.close()


def test_the_review_page_fits_a_phone_and_every_control_takes_the_focus(browser, reviewed_game):
    """At 390x844 the page never scrolls sideways (a player's table scrolls in its own box), and Tab reaches the
    perspective selector and every link."""
    url, gid, _ = reviewed_game
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.goto(f"{url}/review/{gid}?as=0")
    page.wait_for_selector("section.player")
    width, client = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    assert width <= client, f"the page is {width}px wide in a {client}px window"
    controls = page.evaluate(
        """() => {
            const all = [...document.querySelectorAll('a[href], button, input, select')].filter((e) => e.getClientRects().length);
            all.forEach((e, i) => { e.dataset.tabCheck = String(i); });
            return all.length;
        }"""
    )
    reached = set()
    for _ in range(controls + 5):
        page.keyboard.press("Tab")
        reached.add(page.evaluate("document.activeElement && document.activeElement.dataset.tabCheck"))
    assert {str(i) for i in range(controls)} <= reached
    page.close()


def test_a_review_that_cannot_be_shown_says_why_and_still_names_its_game(browser, reviewed_game):
    """An id that is no game, and a game not over yet: the page says why (a heading, the server's words), names the
    id it was asked for and offers a way on (a game still on can be watched as a spectator)."""
    url, _, _ = reviewed_game
    created = _call(url + "/api/games", "POST", {"seats": 3})
    for gid in ("not-a-game", created["id"]):
        page = browser.new_page()
        response = page.goto(f"{url}/review/{gid}/")
        assert response.status == 200 and "text/html" in response.headers["content-type"]
        page.locator("#problem-heading").wait_for(state="visible")
        assert page.locator("#problem-heading").text_content() and page.locator("#problem-detail").text_content()
        assert page.locator("#game-id").text_content() == gid
        ways = page.eval_on_selector_all("#problem-ways a", "links => links.map(a => a.getAttribute('href'))")
        assert f"/replay/{gid}?as=spectator" in ways  # its replay (watched as a spectator while the game is on)
        page.close()
