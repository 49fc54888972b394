"""The step-through viewer in a real browser: Debian's Chromium driven by Playwright.

A finished game is played against a running ``aegis serve`` (and one is left waiting for a person, for what is not
open yet); the tests open ``/replay/<id>``, step, jump, use the keyboard, switch perspective, and check what a
reader would notice: a card hidden from a seat stays hidden there; the log stops at the step shown; every press is a
step; the live region speaks; nothing overflows a phone; every control takes the focus; the table shows items,
years, the deck, the open window and the seat's prompts; an unknown game or a view not open yet reads as a page, not
as JSON. Screenshots go to the test's folder (set ``AEGIS_SCREENSHOTS`` to keep them elsewhere, e.g. ``docs``).
"""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import subprocess
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from tests.api_client import command_of
from tests.conftest import need_server
from tests.system.test_serve import ROOT, aegis, clean_env, free_port

CHROMIUM = "/usr/bin/chromium"
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
SIZES = pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])


def _env() -> dict[str, str]:
    """The environment of the server and the player: this checkout's ``aegis`` (its ``src``), not an installed one."""
    env = clean_env()
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT / "src"), str(ROOT)])
    return env


def _call(url: str, method: str = "GET", body: Any = None, token: str | None = None) -> Any:
    headers = {"Content-Type": "application/json"} | ({"Authorization": f"Bearer {token}"} if token else {})
    data = None if body is None else json.dumps(body).encode()
    with urllib.request.urlopen(urllib.request.Request(url, data=data, headers=headers, method=method)) as r:
        return json.loads(r.read())


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("viewer")
    port = free_port()
    process = subprocess.Popen(
        aegis("serve", "--port", str(port)), cwd=tmp, env=_env(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(200):
            try:
                urllib.request.urlopen(url + "/readyz", timeout=1).close()
                break
            except OSError:
                time.sleep(0.05)
        yield url, tmp
    finally:
        process.terminate()
        process.wait(timeout=10)


@pytest.fixture(scope="module")
def finished_game(server):
    url, tmp = server
    played = subprocess.run(
        aegis("play", "--url", url, "--auto", "--seats", "3", "--seed", "viewer", "--name", "Ann"),
        capture_output=True,
        text=True,
        timeout=120,
        env=_env(),
    )
    assert played.returncode == 0, played.stderr
    gid = _call(url + "/api/games?status=finished")["games"][0]["id"]
    log = _call(f"{url}/api/games/{gid}/events?limit=5000")["events"]
    return url, gid, log, tmp


@pytest.fixture(scope="module")
def active_game(server):
    """A game waiting for its person (seat 0): (url, game id, seat 0's token)."""
    url, _ = server
    created = _call(url + "/api/games", "POST", {"seats": 3})
    gid = created["id"]
    mine = _call(f"{url}/api/games/{gid}/seats", "POST", {"name": "Ada"})["token"]
    for bot in ("random", "cautious"):
        _call(f"{url}/api/games/{gid}/seats", "POST", {"bot": bot})
    _call(f"{url}/api/games/{gid}/start", "POST", token=created["host_token"])
    for _ in range(200):  # the bots play until Ada is asked something
        if _call(f"{url}/api/games/{gid}/view", token=mine)["prompts"]:
            break
        time.sleep(0.05)
    return url, gid, mine


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


def _settled(page, step: int) -> None:
    """Wait until the table shows ``step`` (not only the step label: the table too, no fetch outstanding)."""
    page.wait_for_function(
        "step => document.getElementById('step-label').textContent.startsWith(`step ${step} /`)"
        " && document.getElementById('table-area').getAttribute('aria-busy') === 'false'"
        " && document.getElementById('log').querySelector('li.current')?.dataset.seq == String(step)"
        " || (step === 0 && document.getElementById('current-event').textContent === 'Before the first event'"
        " && document.getElementById('table-area').getAttribute('aria-busy') === 'false')",
        arg=step,
    )


def _open(browser, url: str, size: dict[str, int] = DESKTOP, step: int | None = None):
    page = browser.new_page(viewport=size)
    page.goto(url)
    if step is not None:
        _settled(page, step)
    return page


def _window_step(log: list[dict[str, Any]], seat: int) -> int:
    """A step at which a reaction window is open, ``seat`` asked and not answered yet: the one opening it."""
    return next(e["seq"] for e in log if e["type"] == "ReactionWindowOpened" and seat in e["asked"])


def _no_overflow(page) -> None:
    width, client = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    assert width <= client, f"the page is {width}px wide in a {client}px window"


def test_step_jump_keys_and_permalink(browser, finished_game):
    url, gid, log, _ = finished_game
    page = _open(browser, f"{url}/replay/{gid}?step=10&as=spectator", step=10)
    assert page.locator("#step-label").text_content() == f"step 10 / {len(log)}"
    page.click("#next")
    _settled(page, 11)
    page.keyboard.press("ArrowLeft")
    _settled(page, 10)
    page.click("#last")
    _settled(page, len(log))
    assert "Game over" in page.locator("#status").text_content()
    page.locator("#log li a.step").nth(4).click()  # jump by clicking the log
    _settled(page, 5)
    assert f"/replay/{gid}?step=5&as=spectator" in page.url
    page.close()


def test_a_card_hidden_from_a_seat_stays_hidden_there_and_shows_to_the_omniscient(browser, finished_game):
    url, gid, log, _ = finished_game
    # a card seen for the first time as a seat other than 0 draws it (the game differs from run to run: any such seat;
    # a card seat 0 put on the deck with Laboratory is known to seat 0 when another draws it: that one would rightly show)
    drawn = next(
        e
        for i, e in enumerate(log)
        if e["type"] == "CardDrawn" and e["seat"] != 0 and not any(p.get("card") == e["card"] for p in log[:i])
    )
    page = _open(browser, f"{url}/replay/{gid}?step={drawn['seq']}&as=0", step=drawn["seq"])
    where = f".seat[data-seat='{drawn['seat']}'] .card[data-card='{drawn['card']}']"
    card = page.locator(where)
    assert card.text_content() == "?" and "hidden" in card.get_attribute("class")
    assert card.get_attribute("aria-label") == "a card face down, unknown to this perspective"  # in words, not colour
    assert "draws a card" in page.locator("#current-event").text_content()
    page.select_option("#perspective", "omniscient")
    page.wait_for_function(
        f"document.querySelector(\"{where}\").textContent !== '?'"
    )
    assert card.text_content() == drawn["name"]
    assert drawn["name"] in page.locator("#current-event").text_content()
    assert "as=omniscient" in page.url
    page.select_option("#perspective", str(drawn["seat"]))  # the drawer knew it
    page.wait_for_function(f"location.search.includes('as={drawn['seat']}')")
    page.wait_for_function(
        f"!document.querySelector(\"{where}\").classList.contains('hidden')"
    )
    assert card.get_attribute("aria-label") == f"{drawn['name']}, face down, known to this perspective"
    page.close()


@SIZES
def test_nothing_overflows_and_every_control_takes_the_focus(browser, finished_game, size):
    url, gid, log, tmp = finished_game
    step = _window_step(log, 0)
    page = _open(browser, f"{url}/replay/{gid}?step={step}&as=0", size, step=step)
    _no_overflow(page)
    controls = page.evaluate(
        """() => {
            const all = [...document.querySelectorAll('a[href], button, input, select')]
                .filter((e) => e.getClientRects().length && !e.disabled);
            all.forEach((e, i) => { e.dataset.tabCheck = String(i); });
            return all.length;
        }"""
    )
    assert controls > step  # the header's controls, the log's entries up to the step, the audit links
    reached = set()
    for _ in range(controls + 5):
        page.keyboard.press("Tab")
        reached.add(page.evaluate("document.activeElement && document.activeElement.dataset.tabCheck"))
    assert {str(i) for i in range(controls)} <= reached
    page.evaluate("document.activeElement.blur()")
    name = "viewer-desktop.png" if size is DESKTOP else "viewer-phone.png"
    page.screenshot(path=str(_shots(tmp) / name), full_page=size is PHONE)
    page.close()


@SIZES
def test_the_log_stops_at_the_step_and_shows_the_whole_game_on_request_once_it_is_over(browser, finished_game, size):
    url, gid, log, _ = finished_game
    page = _open(browser, f"{url}/replay/{gid}?step=0&as=spectator", size, step=0)
    assert page.locator("#log li:visible").count() == 0  # step 0: no future event is listed
    page.keyboard.press("ArrowRight")
    _settled(page, 1)
    assert page.locator("#log li:visible").count() == 1
    page.goto(f"{url}/replay/{gid}?step=12&as=spectator")
    _settled(page, 12)
    shown = page.locator("#log li:visible")
    assert shown.count() == 12 and shown.last.get_attribute("data-seq") == "12"
    page.check("#whole-game")  # the game is over: the switch is offered
    assert page.locator("#log li:visible").count() == len(log)
    assert page.locator("#log li.future").count() == len(log) - 12
    _no_overflow(page)
    page.close()


def test_forty_presses_reach_step_forty_and_a_held_key_scrubs(browser, finished_game):
    url, gid, _, _ = finished_game
    page = _open(browser, f"{url}/replay/{gid}?step=0&as=spectator", step=0)
    for _ in range(40):
        page.keyboard.press("ArrowRight")
    _settled(page, 40)
    assert page.locator("#current-event").text_content().startswith("40. ")
    for _ in range(25):  # a held key: repeated keydowns, one keyup
        page.keyboard.down("ArrowLeft")
    page.keyboard.up("ArrowLeft")
    _settled(page, 15)
    assert page.locator("#current-event").text_content().startswith("15. ")
    page.close()


def test_the_live_region_announces_the_step_and_its_event(browser, finished_game):
    url, gid, log, _ = finished_game
    page = _open(browser, f"{url}/replay/{gid}?step=20&as=spectator", step=20)
    live = page.locator("#announce")
    assert live.get_attribute("aria-live") == "polite"
    before = live.text_content()
    assert before.startswith(f"Step 20 of {len(log)}: ")
    page.click("#next")
    _settled(page, 21)
    page.wait_for_function("document.getElementById('announce').textContent.startsWith('Step 21 ')")
    assert live.text_content() != before
    assert page.locator("#log li.current a.step").text_content() in live.text_content()
    page.select_option("#perspective", "omniscient")  # a switch of perspective is said too, with the step
    page.wait_for_function("document.getElementById('announce').textContent.startsWith('Step 21 of ')")
    page.wait_for_function("document.getElementById('announce').textContent.includes(', now as the omniscient: ')")
    card = page.locator(".seat .card").first
    assert card.get_attribute("role") == "img" and card.get_attribute("aria-label")  # a card is read with its state
    page.close()


def test_a_log_entry_is_reached_with_tab_and_enter_jumps_there(browser, finished_game):
    url, gid, _, _ = finished_game
    page = _open(browser, f"{url}/replay/{gid}?step=30&as=spectator", step=30)
    page.locator("#log li[data-seq='7'] a.step").focus()
    page.keyboard.press("Enter")
    _settled(page, 7)
    assert "step=7" in page.url
    page.close()


def test_the_table_shows_the_open_window_years_deck_and_items(browser, finished_game):
    url, gid, log, _ = finished_game
    opened = next(e for e in log if e["type"] == "ReactionWindowOpened")
    answer = next(e for e in log if e["type"] == "ReactionGiven" and e["window"] == opened["window"])
    page = _open(browser, f"{url}/replay/{gid}?step={answer['seq']}&as=spectator", step=answer["seq"])
    window = page.locator("#window")
    assert window.is_visible()
    assert opened["claim"] in window.text_content()
    answered = window.locator(f"li[data-seat='{answer['seat']}']")
    assert "answered" in answered.text_content() and answer["answer"] not in answered.text_content()  # hidden for now
    assert page.locator(".years li").count() >= 1 and "Year" in page.locator("#years").text_content()
    assert page.locator("#deck").text_content().startswith("Deck: ")
    gained = next(e for e in log if e["type"] == "ItemGained")
    page.goto(f"{url}/replay/{gid}?step={gained['seq']}&as=spectator")
    _settled(page, gained["seq"])
    assert gained["item"] in page.locator(f".seat[data-seat='{gained['seat']}'] .items").text_content()
    page.close()


def test_a_seat_s_prompts_show_in_its_perspective_only(browser, finished_game):
    url, gid, log, _ = finished_game
    step = _window_step(log, 0)
    page = _open(browser, f"{url}/replay/{gid}?step={step}&as=0", step=step)
    prompts = page.locator("#prompts")
    assert prompts.is_visible()
    assert page.locator("#prompt-list li.prompt[data-kind='react']").count() == 1
    assert page.locator("#prompt-list .options li").count() >= 2  # pass, call...
    page.select_option("#perspective", "spectator")
    page.wait_for_function("location.search.includes('as=spectator')")
    assert not prompts.is_visible()
    page.close()


def test_a_claim_s_audit_opens_in_the_page(browser, finished_game):
    url, gid, log, _ = finished_game
    declared = next(e for e in log if e["type"] == "ActionDeclared" and e.get("claim"))
    page = _open(browser, f"{url}/replay/{gid}?step={declared['seq'] + 5}&as=spectator", step=declared["seq"] + 5)
    page.locator(f"#log li[data-seq='{declared['seq']}'] a.audit-link").click()
    panel = page.locator("#audit")
    panel.wait_for(state="visible")
    page.wait_for_function("document.getElementById('audit-body').textContent.includes('Answers')")
    assert declared["claim"] in panel.text_content() and "held" in panel.text_content()
    assert "{" not in panel.text_content()
    # an arbiter cites it: the link holds the open audit, and opens it again as it was
    page.wait_for_function(f"location.search.includes('audit={declared['seq']}')")
    assert page.title().startswith(f"Step {declared['seq'] + 5} of ")
    link = page.url
    page.keyboard.press("ArrowRight")  # the panel stays open while the reader steps on, and says so
    page.wait_for_function("document.getElementById('audit-heading').textContent.includes('(the table shows step')")
    page.click("#audit-close")
    assert not panel.is_visible()
    page.wait_for_function("!location.search.includes('audit=')")
    page.goto(link)
    page.wait_for_function("document.getElementById('audit-body').textContent.includes('Answers')")
    assert panel.is_visible() and declared["claim"] in panel.text_content()
    href = page.locator(f"#log li[data-seq='{declared['seq']}'] a.audit-link").get_attribute("href")
    assert href.startswith(f"/replay/{gid}?step={declared['seq']}") and href.endswith(f"&audit={declared['seq']}")  # a page
    page.close()


def test_a_claim_shows_its_odds_as_the_perspective_knew_them_and_the_review_is_a_link_away(browser, finished_game):
    """Issue 17: the odds beside each claim of a finished game (the replay's ``odds``), and the review page linked."""
    url, gid, log, _ = finished_game
    claim = next(
        e["seq"] for e in log if _call(f"{url}/api/games/{gid}/replay?step={e['seq']}&as=1")["odds"] is not None
    )
    odds = _call(f"{url}/api/games/{gid}/replay?step={claim}&as=1")["odds"]
    page = _open(browser, f"{url}/replay/{gid}?step={claim}&as=1", step=claim)
    line = page.locator("#odds")
    assert line.is_visible()
    text = line.text_content()
    assert f"{round(odds['probability'] * 100)}%" in text and odds["claim"] in text and "knew then" in text
    assert "Known after the game: " in text  # hindsight apart from what the seat knew, and said as such
    page.keyboard.press("ArrowRight")  # the next step is no claim: no odds
    _settled(page, claim + 1)
    if _call(f"{url}/api/games/{gid}/replay?step={claim + 1}&as=1")["odds"] is None:
        assert not line.is_visible()
    review = page.locator("#review-link")
    assert review.is_visible()
    review.click()
    page.wait_for_url(f"**/review/{gid}?as=1")
    page.close()


@pytest.fixture(scope="module")
def finished_with_token(server):
    """A finished game in which seat 0 was a person, played over HTTP with its token: (url, game id, the token)."""
    url, _ = server
    created = _call(url + "/api/games", "POST", {"seats": 3, "reaction_seconds": 0, "seed": "review-links"})
    gid = created["id"]
    mine = _call(f"{url}/api/games/{gid}/seats", "POST", {"name": "Bea"})["token"]
    for bot in ("random", "cautious"):
        _call(f"{url}/api/games/{gid}/seats", "POST", {"bot": bot})
    _call(f"{url}/api/games/{gid}/start", "POST", token=created["host_token"])
    rng = random.Random("review-links")
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        view = _call(f"{url}/api/games/{gid}/view", token=mine)
        if view["status"] == "finished":
            return url, gid, mine
        asked = [p for p in view["prompts"] if not p["free"]]
        if asked:
            _call(f"{url}/api/games/{gid}/commands", "POST", command_of(rng.choice(asked[0]["options"]), rng), token=mine)
        else:
            time.sleep(0.02)  # the bots' moves
    raise AssertionError("the game did not finish within 60 s")


@SIZES
def test_the_review_page_links_carry_no_token_and_count_in_words(browser, finished_with_token, size):
    """A review opened from a seat's link (#token=...) makes no link that carries the token (a copied step link
    would hand the seat over); its counts read as words ("1 call", "2 calls"); nothing overflows a phone."""
    url, gid, mine = finished_with_token
    page = browser.new_page(viewport=size)
    page.goto(f"{url}/review/{gid}?as=1#token={mine}")
    page.locator(".player .summary").first.wait_for(state="visible")
    hrefs = page.eval_on_selector_all("a", "links => links.map(a => a.getAttribute('href'))")
    assert f"/replay/{gid}?as=1" in hrefs and any("step=" in h for h in hrefs)
    assert all("&audit=" in h for h in hrefs if "step=" in h)  # each move opens its claim with the claim's audit
    assert not [h for h in hrefs if "token" in h], hrefs
    page.select_option("#perspective", "spectator")
    page.wait_for_function("!location.search.includes('as=1')")
    assert "token" not in page.evaluate("location.href")  # switching perspective keeps it out of the address too
    summaries = page.locator(".player .summary").all_text_contents()
    assert summaries and not [t for t in summaries if re.search(r"\b1 (claims|bluffs|calls|passes|guards)\b", t)]
    happened = page.eval_on_selector_all(".player tr td:last-child", "cells => cells.map(c => c.textContent)")
    codes = {"void", "exposed", "proven", "right", "wrong", "unsettled", "not called", "no window"}
    assert happened and not [t for t in happened if t.split(" · ")[0] in codes], happened  # words, not the API's codes
    odds = page.eval_on_selector_all(".player td.num", "cells => cells.map(c => c.textContent)")
    assert all(re.fullmatch(r"\d+%|–", t) for t in odds), odds  # whole percents, as the viewer says them
    _no_overflow(page)
    page.close()


def test_a_step_the_game_does_not_have_is_said_and_a_failed_step_leaves_the_page_in_agreement(browser, finished_game):
    url, gid, log, _ = finished_game
    page = _open(browser, f"{url}/replay/{gid}?step=abc&as=spectator", step=len(log))
    error = page.locator("#error")
    assert error.is_visible() and 'step "abc"' in error.text_content()  # said, not clamped in silence
    assert page.locator("#next").get_attribute("aria-disabled") == "true"  # at the end: nothing further
    assert page.locator("#first").get_attribute("aria-disabled") == "false"
    assert page.locator("#slider").get_attribute("aria-valuetext") == f"step {len(log)} of {len(log)}"
    page.keyboard.press("Home")
    _settled(page, 0)
    assert not error.is_visible()  # the notice goes once the reader moves
    below = _open(browser, f"{url}/replay/{gid}?step=-5&as=spectator", step=0)  # a number below the first: the first
    assert 'step "-5"' in below.locator("#error").text_content()
    below.close()
    assert page.locator("#prev").get_attribute("aria-disabled") == "true"
    page.route("**/replay?step=1&*", lambda route: route.abort())  # the next step's request fails
    page.click("#next")
    error.wait_for(state="visible")
    assert "Step 1 could not be shown" in error.text_content()
    page.wait_for_function("document.getElementById('step-label').textContent.startsWith('step 0 /')")
    assert page.locator("#slider").input_value() == "0" and "step=0" in page.url  # label, slider, table agree
    page.unroute("**/replay?step=1&*")
    page.click("#next")  # asking again retries it
    _settled(page, 1)
    page.close()


def test_the_docs_page_shows_parameters_and_inline_schemas(browser, finished_game):
    url, _, _, _ = finished_game
    page = browser.new_page()
    page.goto(url + "/api/docs")
    page.wait_for_function("document.querySelectorAll('.op').length > 10")
    texts = page.locator("pre").all_text_contents()
    assert not [t for t in texts if not t.strip()]  # no empty box: a stream's or a page's inline schema is shown too
    shown = "\n".join(texts)
    assert "query step (integer)" in shown and "query limit (integer)" in shown and "path gid (string)" in shown
    page.close()


def test_the_omniscient_deck_is_listed_once(browser, finished_game):
    url, gid, _, _ = finished_game
    step = 5  # the omniscient knows the whole deck: its known top is every card of it
    page = _open(browser, f"{url}/replay/{gid}?step={step}&as=omniscient", step=step)
    assert page.locator("#deck-cards").is_visible() and page.locator("#deck-cards").text_content().startswith("Deck, top first")
    assert "known on top" not in page.locator("#deck").text_content()  # the whole order says it already
    page.close()


def test_every_page_lays_out_at_a_phones_width(browser, finished_game):
    """On a phone (a mobile browser honours the page's viewport), each page is laid out at the phone's width,
    not at a desktop's 980 px scaled down, and nothing is wider than the screen."""
    url, gid, _, _ = finished_game
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    for path in ("/api/docs", f"/replay/{gid}", f"/review/{gid}"):
        page.goto(url + path)
        page.wait_for_load_state("networkidle")
        assert page.evaluate("window.innerWidth") == PHONE["width"], path
        _no_overflow(page)
    context.close()


@SIZES
def test_an_unknown_game_reads_as_a_page_with_a_way_back(browser, finished_game, size):
    url, gid, _, _ = finished_game
    for missing in ("00000000-0000-0000-0000-000000000000", "not-a-game"):
        page = browser.new_page(viewport=size)
        response = page.goto(f"{url}/replay/{missing}")
        assert response.status == 200 and "text/html" in response.headers["content-type"]
        heading = page.locator("#problem-heading")
        heading.wait_for(state="visible")
        assert heading.text_content() == "Nothing to replay here"
        assert "no game" in page.locator("#problem-detail").text_content()
        page.wait_for_function(f"!!document.querySelector('#problem-ways a[href=\"/replay/{gid}\"]')")  # a game to open
        assert not page.locator("#viewer").is_visible()
        assert '"status"' not in page.locator("body").inner_text()
        _no_overflow(page)
        page.close()


@SIZES
def test_a_view_not_open_yet_reads_as_a_page_with_a_way_to_watch(browser, active_game, size):
    url, gid, mine = active_game
    page = browser.new_page(viewport=size)
    page.goto(f"{url}/replay/{gid}?as=1")
    heading = page.locator("#problem-heading")
    heading.wait_for(state="visible")
    assert heading.text_content().startswith("Not yet")
    assert "seat 1" in page.locator("#problem-detail").text_content()
    _no_overflow(page)
    page.click("#as-spectator")
    page.locator("#current-event").wait_for()
    page.wait_for_function("document.getElementById('current-event').textContent !== ''")
    assert not heading.is_visible() and "as=spectator" in page.url
    assert not page.locator("#whole-game-switch").is_visible()  # the game is on: no whole game, no branching
    assert not page.locator("#branch").is_visible()
    page.goto(f"{url}/replay/{gid}?as=0#token={mine}")  # the seat's own link opens its view and its prompts
    page.wait_for_function("document.getElementById('table-area').getAttribute('aria-busy') === 'false'")
    assert page.locator("#prompts").is_visible() and page.locator("#prompt-list li.prompt").count() >= 1
    # the token leaves the address bar at once (a moment shared by copying the address must not hand the seat
    # over), and this tab keeps it: a reload still opens the seat's view
    assert "token" not in page.evaluate("location.href") and mine not in page.evaluate("location.href")
    page.reload()
    page.wait_for_function("document.getElementById('table-area').getAttribute('aria-busy') === 'false'")
    assert page.locator("#prompt-list li.prompt").count() >= 1 and "token" not in page.evaluate("location.href")
    page.goto(f"{url}/replay/{gid}#token={mine}")  # the same link without ?as= opens the same view, not a spectator's
    page.wait_for_function("document.getElementById('perspective').value === '0'")
    page.wait_for_function("document.getElementById('table-area').getAttribute('aria-busy') === 'false'")
    assert page.locator("#prompt-list li.prompt").count() >= 1 and "as=0" in page.url
    page.goto(f"{url}/replay/{gid}?as=0&step=1#token=seat_not_a_token")  # a token of nobody here is said to be so
    heading.wait_for(state="visible")
    assert heading.text_content() == "This link's token is not valid for this game"
    page.close()


def test_a_dispute_shows_beside_its_step_with_its_comments_and_verdict(browser, active_game):
    """Issue 17: disputes on the record are shown in the viewer beside the step they are about (marked in the log,
    in a panel at that step), the player's words as text, never markup."""
    url, gid, mine = active_game
    step = 3
    opened = _call(f"{url}/api/games/{gid}/disputes", "POST", {"step": step, "text": "<b>the clock</b> was wrong"}, token=mine)
    _call(f"{url}/api/disputes/{opened['id']}/comments", "POST", {"text": "I saw it too"}, token=mine)
    page = _open(browser, f"{url}/replay/{gid}?step={step}&as=0#token={mine}", step=step)
    panel = page.locator("#step-disputes")
    panel.wait_for(state="visible")
    text = panel.text_content()
    assert "<b>the clock</b> was wrong" in text and "I saw it too" in text and "open" in text
    assert page.locator("#step-disputes b").count() == 0  # the player's words are text, not markup
    assert page.locator(f"#log li[data-seq='{step}'] .dispute-mark").count() == 1
    page.close()
    settled = _call(f"{url}/api/games/{gid}/disputes", "POST", {"step": step + 2, "text": "a second look"}, token=mine)
    voted = _call(f"{url}/api/disputes/{settled['id']}/votes", "POST", {"verdict": "dismissed", "text": "fine"}, token=mine)
    assert voted["status"] == "settled"  # Ada is the table's only person: her vote is its majority
    page = _open(browser, f"{url}/replay/{gid}?step={step + 1}&as=0#token={mine}", step=step + 1)
    assert not page.locator("#step-disputes").is_visible()  # nothing disputed at this step
    page.keyboard.press("ArrowRight")
    _settled(page, step + 2)
    verdict = page.locator("#step-disputes .verdict")
    verdict.wait_for(state="visible")
    assert verdict.text_content().startswith("Verdict of the table's majority: dismissed (")
    assert page.locator("#step-disputes .votes li").all_text_contents() == ["Ada votes dismissed: fine"]  # who voted what
    _no_overflow(page)
    page.close()


def test_branch_here_makes_a_new_game_and_links_it_both_ways(browser, finished_game):
    """The button is offered once the game is over; it makes a branch with the same deal from the step shown and
    answers with the new game (its id, its host token once, a link to it), never raw JSON; the branch's replay links
    back to its original, and the original's replay to its branches."""
    url, gid, _, _ = finished_game
    page = _open(browser, f"{url}/replay/{gid}?step=10&as=spectator", step=10)
    page.click("#branch-here")
    page.wait_for_function("/New game|Could not branch/.test(document.getElementById('branch-result').textContent)")
    said = page.locator("#branch-result").text_content()
    assert said.startswith("New game") and "{" not in said, said
    assert page.locator("#host-token").text_content() and "only this once" in said
    next_steps = page.locator("#branch-next").text_content()  # what makes its replay open: seats, then the start
    assert "/seats" in next_steps and "/start" in next_steps and "host token" in next_steps
    link = page.locator("#branch-link").get_attribute("href")
    assert link.startswith("/replay/")
    branch = link.split("/replay/")[1].split("?")[0]
    made = _call(f"{url}/api/games/{gid}/replay?as=spectator")["branches"]
    point = next(b["step"] for b in made if b["id"] == branch)
    host = page.locator("#host-token").text_content().strip()
    page.close()
    for bot in ("random", "random", "cautious"):  # the branch is a new game: seat it and start it
        _call(f"{url}/api/games/{branch}/seats", "POST", {"bot": bot})
    _call(f"{url}/api/games/{branch}/start", "POST", token=host)
    page = _open(browser, f"{url}/replay/{branch}?step={point}&as=spectator", step=point)
    back = page.locator("#branch-of")
    back.wait_for(state="visible")
    assert back.get_attribute("href").startswith(f"/replay/{gid}?step={point}")
    assert "the original game's" in page.locator("#copied").text_content()  # a copied step says so
    page.close()
    page = _open(browser, f"{url}/replay/{branch}?step={point + 1}&as=spectator", step=point + 1)
    page.locator("#branch-of").wait_for(state="visible")
    assert page.locator("#copied").count() == 0  # the branch's own steps do not
    page.close()
    page = _open(browser, f"{url}/replay/{gid}?step=10&as=spectator", step=10)
    page.locator(f"#lineage a.branch[href*='{branch}']").wait_for(state="visible")
    page.close()


def test_a_viewer_at_the_last_step_of_a_game_still_on_follows_it(browser, active_game):
    """Last in this module: it plays the waiting game on. The page hears the new steps: a reader at the last step is
    moved to the new last step, and the log lists the new events, without a reload."""
    url, gid, mine = active_game
    before = _call(f"{url}/api/games/{gid}/replay?as=spectator")["steps"]
    page = _open(browser, f"{url}/replay/{gid}?as=spectator", step=before)
    prompt = next(p for p in _call(f"{url}/api/games/{gid}/view", token=mine)["prompts"] if not p["free"])
    _call(f"{url}/api/games/{gid}/commands", "POST", command_of(prompt["options"][0]), token=mine)
    for _ in range(300):  # the bots play on until Ada is asked again (or the game ends): then the steps stand still
        view = _call(f"{url}/api/games/{gid}/view", token=mine)
        if view["status"] == "finished" or [p for p in view["prompts"] if not p["free"]]:
            break
        time.sleep(0.05)
    after = _call(f"{url}/api/games/{gid}/events?after={before}&limit=5000")["seq"]
    assert after > before
    _settled(page, after)
    assert page.locator(f"#log li[data-seq='{after}']").count() == 1
    page.close()


@pytest.fixture(scope="module")
def undone_game(server):
    """A finished game where Cy let a window run out and then claimed an undo: (url, game id, the declared step)."""
    url, _ = server
    setup = {"hands": {"0": ["Laboratory"], "1": ["Temple"], "2": ["Mason"]}, "deck": ["Mason"], "first_player": 0}
    created = _call(url + "/api/games", "POST", {"seats": 3, "reaction_seconds": 1, "turn_seconds": 0, "setup": setup})
    gid = created["id"]
    tokens = [_call(f"{url}/api/games/{gid}/seats", "POST", {"name": n})["token"] for n in ("Ada", "Bo", "Cy")]
    _call(f"{url}/api/games/{gid}/start", "POST", token=created["host_token"])
    declared = _call(f"{url}/api/games/{gid}/commands", "POST", {"type": "declare", "action": "treasury"}, token=tokens[0])
    window = _call(f"{url}/api/games/{gid}/view", token=tokens[1])["table"]["window"]["id"]
    _call(f"{url}/api/games/{gid}/commands", "POST", {"type": "react", "window": window, "answer": "pass"}, token=tokens[1])
    for _ in range(100):  # Cy lets the window run out: the server closes it at its deadline and offers the undo
        if any(p["kind"] == "undo" for p in _call(f"{url}/api/games/{gid}/view", token=tokens[2])["prompts"]):
            break
        time.sleep(0.05)
    _call(f"{url}/api/games/{gid}/commands", "POST", {"type": "undo", "window": window, "answer": "claim"}, token=tokens[2])
    for seat in (1, 2):
        _call(f"{url}/api/games/{gid}/commands", "POST", {"type": "resign"}, token=tokens[seat])
    assert _call(f"{url}/api/games/{gid}/view")["status"] == "finished"
    first = min(e["seq"] for e in declared["events"] if e["type"] == "ActionDeclared")
    return url, gid, first


def test_the_audit_of_a_claim_an_undo_reopened_says_how_each_answer_came_and_what_was_undone(browser, undone_game):
    """An arbiter's questions, answered in the panel: when the window opened and closed and how, who did not answer,
    that Cy's call came by an undo claim after the deadline, what the undo made void (marked in what followed), the
    times to the millisecond with their date, and that the finished game's audit shows the whole record."""
    url, gid, step = undone_game
    page = _open(browser, f"{url}/replay/{gid}?step={step}&as=spectator", step=step)
    page.locator(f"#log li[data-seq='{step}'] a.audit-link").click()
    page.wait_for_function("document.getElementById('audit-body').textContent.includes('Answers')")
    text = page.locator("#audit-body").text_content()
    assert "this audit shows the full record" in text
    cited = r"\(20\d\d-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} UTC\)"  # a date, a time to the millisecond, UTC
    assert re.search(r"Window 1 \(action of Ada; asked: Bo, Cy\): opened at step \d+ " + cited, text)
    assert "by its deadline" in text and "no answer from Cy" in text and "by an undo claim" in text
    assert re.search(r"Cy: call by an undo claim, after the window's deadline \(step \d+\) at 20", text)
    assert re.search(r"Cy claimed the undo: it made steps \d+ to \d+ void", text)
    assert page.locator("#audit-body .followed-list li.undone").count() >= 1
    assert "(undone)" in page.locator("#audit-body .followed-list").text_content()
    page.close()


def test_what_if_i_had_called_is_a_click_and_plays_the_branch_with_me_at_my_seat(browser, finished_game):
    """The headline of branches, from the page: at a step where Ann was asked to answer a claim, each of her options
    is offered as a branch; 'Call' makes the branch with that call, and 'Play ... myself' seats Ann as a guest
    and bots elsewhere, starts it and opens its replay from her seat (her token out of the address). At the last
    step there is nothing to play on, and the page says so."""
    url, gid, log, _ = finished_game
    step = next(
        e["seq"]
        for e in log
        if any(
            p["kind"] == "react" and any(o["command"].get("answer") == "call" for o in p["options"])
            for p in _call(f"{url}/api/games/{gid}/replay?step={e['seq']}&as=0")["prompts"]
        )
    )
    page = _open(browser, f"{url}/replay/{gid}?step={step}&as=0", step=step)
    call = page.locator("#branch-moves button.branch-move", has_text="Call")
    call.first.click()
    page.wait_for_function("/New game|Could not branch/.test(document.getElementById('branch-result').textContent)")
    said = page.locator("#branch-result").text_content()
    assert said.startswith("New game") and "plays “Call" in said, said
    page.click("#branch-me")
    page.wait_for_url(re.compile(r"/replay/(?!" + gid + ")"), timeout=20000)
    page.wait_for_function("document.getElementById('table-area').getAttribute('aria-busy') === 'false'")
    assert "token" not in page.evaluate("location.href") and "as=0" in page.url
    page.locator("#branch-of").wait_for(state="visible")
    branch = page.url.split("/replay/")[1].split("?")[0]
    events = _call(f"{url}/api/games/{branch}/events?limit=5000")["events"]
    began = next(e["seq"] for e in events if e["type"] == "BranchBegan")
    closed = next(e for e in events if e["seq"] > began and e["type"] == "ReactionWindowClosed")
    assert closed["answers"]["0"]["answer"] == "call"  # her call, played there (another caller may be heard first)
    seats = _call(f"{url}/api/games/{branch}/view")["seats"]
    assert seats[0]["name"].endswith("(what if)") and all(s["bot"] for s in seats[1:])
    page.close()
    steps = _call(f"{url}/api/games/{gid}/replay?as=spectator")["steps"]
    page = _open(browser, f"{url}/replay/{gid}?step={steps}&as=spectator", step=steps)
    assert page.locator("#branch-here").is_disabled() and "nothing to play on" in page.locator("#branch-intro").text_content()
    page.close()


def test_a_long_game_is_walked_by_step_number_and_claim_by_claim(browser, finished_game):
    """The slider of a long game cannot land on one step under a finger: a step number goes straight there, and the
    claim buttons go from one declaration or claim to the next and back."""
    url, gid, log, _ = finished_game
    claims = [e["seq"] for e in log if e["type"] in ("ActionDeclared", "GuardDeclared")]
    page = _open(browser, f"{url}/replay/{gid}?step=5&as=spectator", step=5)
    page.click("#next-claim")
    first = next(seq for seq in claims if seq > 5)
    _settled(page, first)
    page.click("#next-claim")
    second = next(seq for seq in claims if seq > first)
    _settled(page, second)
    page.click("#prev-claim")
    _settled(page, first)
    page.fill("#goto", "40")
    page.press("#goto", "Enter")
    _settled(page, 40)
    assert "step=40" in page.url
    page.close()


def test_a_review_that_cannot_be_shown_reads_as_a_page_with_a_way_on(browser, active_game, finished_game):
    """A game still on (409), an unknown game (404), a perspective the game has not (400): a heading that says what is
    wrong, the server's words, and a link to go on (watch as a spectator; the finished games; the spectator's review)."""
    url, active, _ = active_game
    _, finished, _, _ = finished_game
    for path, heading, way in (
        (f"/review/{active}", "Not yet: the review opens when the game is over", f"/replay/{active}?as=spectator"),
        ("/review/00000000-0000-0000-0000-000000000000", "No finished game to review here", "/api/games?status=finished"),
        (
            f"/review/{finished}?as=7",
            "This link asks for a perspective the game does not have",
            f"/review/{finished}?as=spectator",
        ),
    ):
        page = browser.new_page()
        page.goto(url + path)
        page.locator("#problem-heading").wait_for(state="visible")
        assert page.locator("#problem-heading").text_content() == heading
        assert page.locator(f"#problem-ways a[href='{way}']").count() == 1
        assert page.title().startswith(heading) and not page.locator("#controls").is_visible()
        page.close()
