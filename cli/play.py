"""``aegis play``: a whole game against bots through the REST API, in the terminal.

It knows nothing but the public contract: create a game, take a seat, add bots to the seats still free, start, then
show your prompts and post the option you pick, and tell what happened in the service's words (the timeline).
``--auto`` picks for you (a demo, and how the tests drive it). While others play, and while you decide, it holds the
game's event stream as a doorbell: each new event wakes it to fetch the view at once, and it looks anyway every second
(a multi-process server without Redis tells a stream of other processes' commands only at its keep-alive); a
decision your clock made meanwhile ends the menu shown and the next one is asked.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import io
import json
import math
import os
import random
import select
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from typing import Any, Protocol, TextIO

from aegis.cli import game_options
from aegis.domain.kernel.prompts import Option
from aegis.service.rulesets import BOT_NAMES, DEFAULT, RULESETS


class ApiError(Exception):
    def __init__(self, status: int, problem: dict[str, Any]):
        super().__init__(problem.get("detail", str(status)))
        self.status = status
        self.problem = problem


class Client:
    def __init__(self, base: str):
        self.base = base.rstrip("/")

    def call(self, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.base + path, data=data, method=method)
        req.add_header("Content-Type", "application/json")
        if token:
            req.add_header("Authorization", f"Bearer {token}")
        try:
            with urllib.request.urlopen(req, timeout=30) as resp:
                return json.loads(resp.read() or b"{}")
        except urllib.error.HTTPError as err:
            raw = err.read()
            try:
                problem = json.loads(raw)
            except ValueError:
                problem = {"detail": raw.decode(errors="replace")}
            raise ApiError(err.code, problem) from None


class Doorbell:
    """The seat's event stream, read on a thread of its own: ``wait`` returns as soon as something happened in the
    game, or after ``seconds``. A stream that cannot open or breaks leaves ``wait`` a plain pause."""

    def __init__(self, client: Client, gid: str, token: str):
        self.rang = threading.Event()
        self.request = urllib.request.Request(f"{client.base}/api/games/{gid}/stream")
        self.request.add_header("Authorization", f"Bearer {token}")
        threading.Thread(target=self._listen, name="aegis-play-stream", daemon=True).start()

    def _listen(self) -> None:
        try:
            with urllib.request.urlopen(self.request, timeout=60) as stream:
                framed = False  # the frame being read is an event or the view (not a keep-alive comment)
                for line in stream:
                    if line.startswith((b"id:", b"event:")):
                        framed = True
                    elif not line.strip() and framed:  # one ring per frame, once it has all arrived
                        self.rang.set()
                        framed = False
                    if line.startswith(b"event: end"):
                        return
        except (OSError, ValueError, AttributeError):
            return  # the stream is gone: wait() times out instead, as polling would

    def wait(self, seconds: float) -> bool:
        """Wait for the next event (True), or ``seconds`` (False)."""
        rang = self.rang.wait(seconds)
        self.rang.clear()
        return rang


def describe(view: dict[str, Any]) -> str:
    """The table in a few lines, as its ruleset draws it (``Ruleset.describe``)."""
    rules = RULESETS.get(view.get("ruleset") or "")
    if rules is None or view.get("table") is None:
        return f"-- {view.get('status')} · seq {view.get('seq')} --"
    return rules.describe(view)


def url_problem(url: str) -> str | None:
    """Why ``url`` cannot be the service's address (None: it can)."""
    try:
        parts = urllib.parse.urlsplit(url)
        parts.port  # noqa: B018 - a port outside 0-65535 raises here
    except ValueError:
        parts = None
    if parts is None or parts.scheme not in ("http", "https") or not parts.hostname or parts.port == 0:
        return f"--url must be http(s)://host[:port] (a port 1 to 65535), not {url!r}"
    return None


def run(args: argparse.Namespace, out: TextIO = sys.stdout, inp: TextIO = sys.stdin) -> int:
    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    if not bots or any(b not in BOT_NAMES for b in bots):
        print(f"aegis play: bots are {', '.join(BOT_NAMES)}", file=sys.stderr)
        return 2
    problem = url_problem(args.url)
    if not math.isfinite(args.turn_seconds) or args.turn_seconds < 0:
        problem = f"--turn-seconds is a number of seconds (0: no clock), not {args.turn_seconds}"
    if problem:
        print(f"aegis play: {problem}", file=sys.stderr)
        return 2
    try:
        options = game_options.parse(args.option)
    except ValueError as err:
        print(f"aegis play: {err}", file=sys.stderr)
        return 2
    api = Client(args.url)
    game: dict[str, Any] | None = None  # created and not yet started: cancelled if anything fails before the start
    try:
        spec: dict[str, Any] = {
            "seats": args.seats,
            "variant": args.variant,
            "reaction_seconds": min(args.turn_seconds, 86400),  # your clock in a reaction window too
            "turn_seconds": args.turn_seconds,
        }
        if options:
            spec["options"] = options
        if args.selection:
            spec["selection"] = args.selection
        if args.seed is not None:
            spec["seed"] = str(args.seed)
        game = api.call("POST", "/api/games", spec)
        gid = game["id"]
        me = api.call("POST", f"/api/games/{gid}/seats", {"name": args.name})
        lobby = api.call("GET", f"/api/games/{gid}/view")  # the seats the service filled itself (solo's mobs)
        taken = {s["seat"] for s in lobby["seats"]}
        free = [seat for seat in range(lobby["seats_total"]) if seat not in taken]
        for i in range(len(free)):
            api.call("POST", f"/api/games/{gid}/seats", {"bot": bots[i % len(bots)]})
        api.call("POST", f"/api/games/{gid}/start", {}, token=game["host_token"])
        game = None
        mobs = sum(1 for s in lobby["seats"] if s.get("mob"))
        against = [f"{len(free)} bot(s)"] if free else []
        against += [f"{mobs} mob(s) the rules play"] if mobs else []
        print(f"game {gid}: you are seat {me['seat']} against {' and '.join(against)}", file=out)
        return _play(api, gid, me["token"], args, out, inp)
    except ApiError as err:
        print(f"aegis play: the service refused ({err.status}): {err}", file=sys.stderr)
        return 1
    except urllib.error.URLError as err:
        print(f"aegis play: cannot reach {args.url} ({err.reason}); start it with 'aegis serve'", file=sys.stderr)
        return 1
    except (OSError, http.client.HTTPException) as err:
        print(f"aegis play: the connection to {args.url} broke ({type(err).__name__}: {err})", file=sys.stderr)
        return 1
    finally:
        if game is not None:  # created but not started: no unstartable game is left in the lobby
            with contextlib.suppress(ApiError, OSError, http.client.HTTPException):
                api.call("POST", f"/api/games/{game['id']}/cancel", {}, token=game["host_token"])


WAIT_SECONDS = 1.0  # the longest wait between two looks at the view while others play, or while you decide
LATE = (409, 422)  # what the service answers a command that no longer answers what the seat is asked


def _play(api: Client, gid: str, token: str, args: argparse.Namespace, out: TextIO, inp: TextIO) -> int:
    """Play the started game ``gid`` from the seat of ``token`` to its end (0), or until you quit (0)."""
    rng = random.Random(args.seed)
    bell = Doorbell(api, gid, token)
    keys = Keys(inp)
    moves, told = 0, 0  # your moves; the last event narrated
    while True:
        view = api.call("GET", f"/api/games/{gid}/view", token=token)
        if not args.auto and view["seq"] > told:
            told = narrate(api, gid, token, told, out)
        if view["status"] == "finished":
            print(describe(view), file=out)
            print(f"game over: {outcome(view)} after {count(moves, 'move')} of yours", file=out)
            return 0
        prompts = [p for p in view["prompts"] if not p["free"]]
        if not prompts:
            bell.wait(WAIT_SECONDS)  # waiting for a deadline or another player: woken by their next event
            continue
        prompt = together(prompts)
        if args.auto:
            command: dict[str, Any] | None = fill(rng.choice(prompt["options"]), rng)
        else:
            print(describe(view), file=out)
            left = f" (decide within {max(0, round(prompt['deadline'] - time.time()))} s)" if prompt["deadline"] else ""
            print(prompt["text"] + left, file=out)
            keys.overtaken = _watch(api, gid, token, prompts, bell)
            try:
                command = _menu(prompt, out, keys)
            except Overtaken:
                print("\n  too late: the game went on without your answer; here is where it stands now", file=out)
                continue
            finally:
                keys.overtaken = None
            if command is None:
                print("bye: the game stays on the server", file=out)
                return 0
        assert command is not None
        try:  # answered for the game as it was shown: a later prompt the same command would fit is no taker (409)
            sent = command if command == RESIGN else {**command, "expected_seq": view["seq"]}  # resigning is never late
            api.call("POST", f"/api/games/{gid}/commands", sent, token=token)
        except ApiError as err:
            now = api.call("GET", f"/api/games/{gid}/view", token=token)
            if err.status not in LATE or now["seq"] == view["seq"]:
                raise  # refused for what it is, not for coming late: said as before
            print(f"  too late: the game went on before your answer arrived (the service said: {err})", file=out)
            continue
        moves += 1


class Overtaken(Exception):
    """The decision being asked at the terminal was made meanwhile (a clock ran out): the menu is stale."""


class Keys:
    """The lines you type. Read from the terminal's (or pipe's) descriptor itself when it has one, so that waiting
    for a line can look at the game every ``WAIT_SECONDS`` (or as soon as its event stream rings): when
    ``overtaken()`` says the decision asked has been made meanwhile, the wait ends with ``Overtaken``. Any other input
    (a StringIO) is read line by line, without looking."""

    def __init__(self, inp: TextIO):
        self.inp = inp
        self.overtaken: Callable[[], bool] | None = None
        self.fd: int | None = None
        self.pending = b""
        self.ended = False
        if sys.platform != "win32":  # select() takes only sockets there
            with contextlib.suppress(AttributeError, OSError, ValueError, io.UnsupportedOperation):
                self.fd = inp.fileno()

    def readline(self) -> str:
        if self.fd is None:
            return self.inp.readline()
        while b"\n" not in self.pending and not self.ended:
            ready, _, _ = select.select([self.fd], [], [], 0.1)
            if ready:
                chunk = os.read(self.fd, 4096)
                self.pending += chunk
                self.ended = not chunk
            elif self.overtaken is not None and self.overtaken():
                self._forget_typed()
                raise Overtaken
        line, newline, self.pending = self.pending.partition(b"\n")
        return (line + newline).decode(errors="replace")

    def _forget_typed(self) -> None:
        """What was typed for the stale menu (a line not yet ended) is not an answer to the next one."""
        self.pending = b""
        if self.fd is not None and os.isatty(self.fd):
            with contextlib.suppress(ImportError, OSError):
                import termios

                termios.tcflush(self.fd, termios.TCIFLUSH)


def _watch(api: Client, gid: str, token: str, asked: list[dict[str, Any]], bell: Doorbell) -> Callable[[], bool]:
    """Has the decision ``asked`` been made without you (its clock ran out)? Looked at as soon as the game's event
    stream rings, and at least every ``WAIT_SECONDS``; cheap to call more often."""
    last = time.monotonic()

    def overtaken() -> bool:
        nonlocal last
        if not bell.rang.is_set() and time.monotonic() - last < WAIT_SECONDS:
            return False
        bell.rang.clear()
        last = time.monotonic()
        view = api.call("GET", f"/api/games/{gid}/view", token=token)
        return [p for p in view["prompts"] if not p["free"]] != asked

    return overtaken


def narrate(api: Client, gid: str, token: str, after: int, out: TextIO) -> int:
    """Print the game's events after seq ``after`` in the service's own words (its timeline, as your seat knows them);
    returns the last seq printed."""
    timeline = api.call("GET", f"/api/games/{gid}/timeline?after={after}", token=token)  # only what is new
    for e in timeline["events"]:
        print(f"  {e['seq']:>4} {e['text']}" + (" (undone)" if e.get("undone") else ""), file=out)
        after = e["seq"]
    return after


def outcome(view: dict[str, Any]) -> str:
    """How the game ended, in words: who won, or a draw, and why."""
    result = view["table"]["result"]
    winners = [view["seats"][w]["name"] for w in result["winners"]]
    if result["result"] == "draw":
        said = "a draw"
    elif winners:
        said = f"{', '.join(winners)} won"
    else:
        said = "nobody won"
    return f"{said} ({result['reason']})"


def count(n: int, thing: str) -> str:
    """``n`` things, in the plural only when ``n`` is not 1."""
    return f"{n} {thing}" if n == 1 else f"{n} {thing}s"
RESIGN = {"type": "resign"}
MENU_AT_ONCE = 9  # more options than this, of several kinds: ask for the kind first


def together(prompts: list[dict[str, Any]]) -> dict[str, Any]:
    """The seat's open decisions as one menu: a turn may ask two at once (``declare``, or going on at the End
    Phase with ``end_phase``, beside using a consumable with ``use_item``); each option keeps its own command."""
    if len(prompts) == 1:
        return prompts[0]
    return {**prompts[0], "text": "\n".join(p["text"] for p in prompts), "options": [o for p in prompts for o in p["options"]]}


def fill(option: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """The option's command with each of its params set to values picked at random (the README's contract)."""
    return Option.from_dict(option).pick(rng)


class Lines(Protocol):
    def readline(self) -> str: ...


def _menu(prompt: dict[str, Any], out: TextIO, inp: Lines) -> dict[str, Any] | None:
    """A short menu: the kind of option when there are many (an action), then the option, then each of its
    parameters. Returns the command, ``RESIGN``, or None to quit."""
    options = prompt["options"]
    groups = list(dict.fromkeys(o["group"] for o in options))
    if len(options) > MENU_AT_ONCE and len(groups) > 1:
        sizes = [sum(o["group"] == g for o in options) for g in groups]
        labels = [f"{g.replace('_', ' ').capitalize()} ({count(n, 'option')})" for g, n in zip(groups, sizes, strict=True)]
        picked = _ask(labels, "which kind", out, inp)
        if not isinstance(picked, int):
            return picked
        options = [o for o in options if o["group"] == groups[picked]]
    if len(options) == 1:
        option = options[0]
    else:
        picked = _ask([o["label"] for o in options], "your choice", out, inp)
        if not isinstance(picked, int):
            return picked
        option = options[picked]
    command = dict(option["command"])
    for p in option.get("params", []):
        labels = [c["label"] for c in p["choices"]]
        values = [c["value"] for c in p["choices"]]
        print(f"  {option['label']} {p['name']}:", file=out)
        if p["max"] == 1:
            picked = _ask(labels, p["name"], out, inp)
            if not isinstance(picked, int):
                return picked
            command[p["name"]] = values[picked]
            continue
        chosen = _ask_many(labels, p, out, inp)
        if not isinstance(chosen, list):
            return chosen
        command[p["name"]] = [values[i] for i in chosen]
    return command


def _read(question: str, out: TextIO, inp: Lines) -> str | dict[str, Any] | None:
    print(f"{question} (r to resign, q to quit): ", end="", file=out, flush=True)
    line = inp.readline()
    if not line or line.strip().lower() in ("q", "quit"):
        return None
    if line.strip().lower() in ("r", "resign"):
        return RESIGN
    return line.strip()


def _ask(labels: list[str], question: str, out: TextIO, inp: Lines) -> int | dict[str, Any] | None:
    """The number of one of ``labels``, ``RESIGN``, or None to quit (the game stays on the server)."""
    for i, label in enumerate(labels):
        print(f"  [{i}] {label}", file=out)
    while True:
        line = _read(f"{question} (0-{len(labels) - 1})", out, inp)
        if not isinstance(line, str):
            return line
        if line.isdigit() and int(line) < len(labels):
            return int(line)
        print("  that is not one of the options", file=out)


def _ask_many(labels: list[str], p: dict[str, Any], out: TextIO, inp: Lines) -> list[int] | dict[str, Any] | None:
    """Between ``min`` and ``max`` numbers, separated by spaces (in order, where order matters)."""
    for i, label in enumerate(labels):
        print(f"  [{i}] {label}", file=out)
    how = f"{p['min']}" if p["min"] == p["max"] else f"{p['min']} to {p['max']}"
    order = ", in order" if p["ordered"] else ""
    while True:
        line = _read(f"pick {how}{order}, separated by spaces", out, inp)
        if not isinstance(line, str):
            return line
        parts = line.replace(",", " ").split()
        if not all(x.isdigit() and int(x) < len(labels) for x in parts):
            why = f"each pick is a number 0 to {len(labels) - 1}"
        elif not p["min"] <= len(parts) <= p["max"]:
            why = f"pick exactly {p['min']}" if p["min"] == p["max"] else f"pick {p['min']} to {p['max']}"
            why += f", not {len(parts)}"
        elif p["distinct"] and len(set(parts)) != len(parts):
            why = "pick each number once"
        else:
            return [int(x) for x in parts]
        print(f"  that is not a valid pick: {why}", file=out)


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "play",
        help="play a game against bots in the terminal, through the REST API",
        description="Create a game on a running service (see 'aegis serve'), take a seat, fill the others with bots "
        "and play it to the end by choosing among your prompt's options.",
    )
    p.add_argument("--url", default="http://127.0.0.1:8000", help="the service (default http://127.0.0.1:8000)")
    p.add_argument("--seats", type=int, default=4, help="seats, you included (default 4)")
    p.add_argument(
        "--variant",
        default=game_options.creation_field("variant").get("default"),
        help="the game and its variants joined with '+' (default %(default)s)",
    )
    game_options.add_arguments(p)
    every = ",".join(RULESETS[DEFAULT].bots) if DEFAULT else "random"
    p.add_argument("--bots", default=every, help="bots for the other seats, repeated (default %(default)s)")
    p.add_argument(
        "--name",
        default="Player",
        help="your name at the table, as the others and the narration call you (default %(default)s)",
    )
    p.add_argument(
        "--seed", default=None, help="your contribution to the game's seed, mixed with the server's secret (default: none)"
    )
    p.add_argument(
        "--turn-seconds",
        type=float,
        default=0,
        help="your clock per decision, reaction windows included; when it runs out a bot decides for you (a window "
        "closes without your answer) and the menu moves on to what you are asked next (default 0: no clock, as you "
        "play bots)",
    )
    p.add_argument("--auto", action="store_true", help="pick your options (and their parameters) at random instead of asking")
    p.set_defaults(run=run)
