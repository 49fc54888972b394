"""``aegis play`` against one running service (``aegis serve``): what a bad setting leaves behind on the server, the
variants whose seats the service fills itself, the narration it prints, answers the clock overtook."""

from __future__ import annotations

import io
import json
import subprocess
import time
import urllib.request
from collections.abc import Iterator

import pytest

from tests.system.test_serve import aegis, clean_env, free_port, running


@pytest.fixture(scope="module")
def url(tmp_path_factory) -> Iterator[str]:
    tmp = tmp_path_factory.mktemp("play")
    port = free_port()
    with running(aegis("serve", "--port", str(port)), port, tmp, tmp / "serve.log", stop_seconds=10) as found:
        yield found


def play(url: str, *args: str, stdin: str = "", timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        aegis("play", "--url", url, *args), input=stdin, capture_output=True, text=True, timeout=timeout, env=clean_env()
    )


def lobby(url: str) -> list[dict]:
    with urllib.request.urlopen(url + "/api/games?status=lobby") as r:
        return json.loads(r.read())["games"]


def test_a_game_that_cannot_be_set_up_is_cancelled_not_left_in_the_lobby(url):
    """F2: a refusal after the game was created (here the name of your seat) leaves no game waiting in the lobby."""
    out = play(url, "--name", " ", "--auto")
    assert out.returncode == 1 and "aegis play: the service refused (400)" in out.stderr, out.stderr
    assert "Traceback" not in out.stderr
    assert lobby(url) == []


def test_solo_seats_you_and_plays_against_the_mobs_the_service_seats(url):
    """F20: the service fills solo's mob seats itself; aegis play adds bots only to seats still free (none here) and
    starts the game, instead of a 409 ('all 4 seats are taken') that left a full, unstartable game in the lobby."""
    out = play(url, "--variant", "simpleton+solo", "--auto", "--seed", "5")
    assert out.returncode == 0, out.stderr
    assert "you are seat 0 against 3 mob(s) the rules play" in out.stdout and "game over: " in out.stdout, out.stdout
    assert lobby(url) == []


def test_play_tells_each_event_in_the_services_words_not_as_json(url):
    """F12: what happens is printed as the timeline narrates it for your seat, not as raw event dumps; the default
    name reads as a name in the third person ('Player's Recruit', 'Player resigns'), not 'You's'."""
    out = play(url, "--seats", "3", "--seed", "12", stdin="r\n")
    assert out.returncode == 0, out.stderr
    assert "Player resigns and leaves the game" in out.stdout, out.stdout
    assert "The game begins; the seed's commitment is published" in out.stdout
    assert "ReactionWindow" not in out.stdout and '{"' not in out.stdout and "You's" not in out.stdout
    assert "game over: " in out.stdout and ", won by" not in out.stdout and " won (" in out.stdout, out.stdout


class Slow:
    """Typed input that comes late: each line after its own number of seconds."""

    def __init__(self, lines: list[tuple[str, float]]):
        self.lines = lines

    def readline(self) -> str:
        if not self.lines:
            return ""
        line, seconds = self.lines.pop(0)
        time.sleep(seconds)
        return line


def test_an_answer_that_comes_after_the_clock_decided_is_said_too_late_and_the_game_goes_on(url, capsys):
    """F19: an answer posted after the clock decided for you is refused by the service; aegis play says it came too
    late (with the service's words), shows where the game stands and asks again, instead of ending the session."""
    from aegis.cli import play as play_module
    from aegis.cli.main import build_parser

    args = build_parser().parse_args(["play", "--url", url, "--seats", "3", "--turn-seconds", "1", "--seed", "8"])
    out = io.StringIO()
    assert play_module.run(args, out, Slow([("0\n", 3), ("q\n", 0)])) == 0, capsys.readouterr().err
    said = out.getvalue()
    too_late = "too late: the game went on before your answer arrived (the service said: "
    assert too_late in said, said
    # The session goes on: the game is shown again and you are asked again; with a 1-second clock the game can also
    # reach its end before the next menu (CI once saw it), and then the session ends with the result.
    after = said.split(too_late, 1)[1]
    assert "-- turn " in after, after[-2000:]
    assert after.rstrip().endswith("bye: the game stays on the server") or "game over: " in after, after[-2000:]


def test_the_menu_moves_on_when_the_clock_decides_while_you_think(url):
    """F19: while you have not answered, aegis play keeps looking at the game; when the clock decides for you it says
    so and shows the new menu, without waiting for your line."""
    proc = subprocess.Popen(
        aegis("play", "--url", url, "--seats", "3", "--turn-seconds", "1", "--seed", "9"),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=clean_env(),
    )
    time.sleep(6)  # answer nothing: at least one decision's clock runs out
    stdout, stderr = proc.communicate("q\n", timeout=120)
    assert proc.returncode == 0, stderr
    assert "too late: the game went on without your answer; here is where it stands now" in stdout, stdout
    assert "no answer from Player" in stdout or "Player ran out of time" in stdout, stdout
