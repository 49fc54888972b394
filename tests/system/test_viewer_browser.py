"""The step-through viewer in a real browser: Debian's Chromium driven by Playwright.

A finished game is played against a running ``aegis serve``; the test opens ``/replay/<id>``, steps,
jumps, uses the keyboard, switches perspective, and checks that a card hidden from a seat stays hidden
in that seat's perspective and shows in the omniscient one. Screenshots go to the test's folder (set
``AEGIS_SCREENSHOTS`` to keep them elsewhere).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest

from tests.conftest import need_server
from tests.system.test_serve import aegis, clean_env, free_port

CHROMIUM = "/usr/bin/chromium"


@pytest.fixture(scope="module")
def finished_game(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("viewer")
    port = free_port()
    server = subprocess.Popen(
        aegis("serve", "--port", str(port)), cwd=tmp, env=clean_env(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(200):
            try:
                urllib.request.urlopen(url + "/readyz", timeout=1).close()
                break
            except OSError:
                time.sleep(0.05)
        played = subprocess.run(
            aegis("play", "--url", url, "--auto", "--seats", "3", "--seed", "viewer", "--name", "Ann"),
            capture_output=True,
            text=True,
            timeout=120,
            env=clean_env(),
        )
        assert played.returncode == 0, played.stderr
        with urllib.request.urlopen(url + "/api/games?status=finished") as r:
            gid = json.loads(r.read())["games"][0]["id"]
        with urllib.request.urlopen(f"{url}/api/games/{gid}/events?limit=5000") as r:
            log = json.loads(r.read())["events"]
        yield url, gid, log, tmp
    finally:
        server.terminate()
        server.wait(timeout=10)


@pytest.fixture(scope="module")
def browser():
    if not Path(CHROMIUM).exists() or shutil.which("chromium") is None:
        need_server("Debian's chromium (/usr/bin/chromium)", FileNotFoundError(CHROMIUM))
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        launched = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox", "--disable-dev-shm-usage"])
        yield launched
        launched.close()


def _shots(tmp: Path) -> Path:
    out = Path(os.environ.get("AEGIS_SCREENSHOTS") or tmp)
    out.mkdir(parents=True, exist_ok=True)
    return out


def test_step_jump_keys_and_permalink(browser, finished_game):
    url, gid, log, tmp = finished_game
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(f"{url}/replay/{gid}?step=10&as=spectator")
    label = page.locator("#step-label")
    label.wait_for()
    page.wait_for_function("document.getElementById('step-label').textContent.startsWith('step 10 /')")
    assert label.text_content() == f"step 10 / {len(log)}"
    page.click("#next")
    page.wait_for_function("document.getElementById('step-label').textContent.startsWith('step 11 /')")
    assert page.locator("#log li.current").get_attribute("data-seq") == "11"
    page.keyboard.press("ArrowLeft")
    page.wait_for_function("document.getElementById('step-label').textContent.startsWith('step 10 /')")
    page.click("#last")
    page.wait_for_function(f"document.getElementById('step-label').textContent === 'step {len(log)} / {len(log)}'")
    assert "Game over" in page.locator("#status").text_content()
    page.locator("#log li").nth(4).click()  # jump by clicking the log
    page.wait_for_function("document.getElementById('step-label').textContent.startsWith('step 5 /')")
    assert f"/replay/{gid}?step=5&as=spectator" in page.url
    page.screenshot(path=str(_shots(tmp) / "replay-steps.png"), full_page=True)
    page.close()


def test_a_card_hidden_from_a_seat_stays_hidden_there_and_shows_to_the_omniscient(browser, finished_game):
    url, gid, log, tmp = finished_game
    # a card seen for the first time as seat 1 draws it (a card seat 0 put on the deck with Laboratory is known to
    # seat 0 when seat 1 draws it: that one would rightly show)
    drawn = next(
        e
        for i, e in enumerate(log)
        if e["type"] == "CardDrawn" and e["seat"] == 1 and not any(p.get("card") == e["card"] for p in log[:i])
    )
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(f"{url}/replay/{gid}?step={drawn['seq']}&as=0")
    card = page.locator(f".seat[data-seat='1'] .card[data-card='{drawn['card']}']")
    card.wait_for()
    assert card.text_content() == "?" and "hidden" in card.get_attribute("class")
    assert "draws a card" in page.locator("#current-event").text_content()
    page.screenshot(path=str(_shots(tmp) / "replay-as-seat-0.png"), full_page=True)
    page.select_option("#perspective", "omniscient")
    page.wait_for_function(
        f"document.querySelector(\".seat[data-seat='1'] .card[data-card='{drawn['card']}']\").textContent !== '?'"
    )
    assert card.text_content() == drawn["name"]
    assert drawn["name"] in page.locator("#current-event").text_content()
    assert "as=omniscient" in page.url
    page.select_option("#perspective", "1")  # the drawer knew it
    page.wait_for_function("location.search.includes('as=1')")
    page.wait_for_function(
        f"!document.querySelector(\".seat[data-seat='1'] .card[data-card='{drawn['card']}']\").classList.contains('hidden')"
    )
    page.screenshot(path=str(_shots(tmp) / "replay-omniscient.png"), full_page=True)
    page.close()


def test_an_unknown_game_shows_an_error(browser, finished_game):
    url, _, _, _ = finished_game
    page = browser.new_page()
    response = page.goto(f"{url}/replay/00000000-0000-0000-0000-000000000000")
    assert response.status == 200
    page.locator("#error").wait_for(state="visible")
    assert "no game" in page.locator("#error").text_content()
    page.close()
