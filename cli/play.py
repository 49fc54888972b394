"""``aegis play``: a whole game against bots through the REST API, in the terminal.

It knows nothing but the public contract: create a game, take a seat, add bots, start, then show your
prompts and post the option you pick. ``--auto`` picks for you (a demo, and how the tests drive it). While others
play, it holds the game's event stream as a doorbell: each new event wakes it to fetch the view at once, and it
looks anyway every second (a multi-process server without Redis tells a stream of other processes' commands only
at its keep-alive).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import threading
import time
import urllib.error
import urllib.request
from typing import Any, TextIO

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


def run(args: argparse.Namespace, out: TextIO = sys.stdout, inp: TextIO = sys.stdin) -> int:
    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    if any(b not in BOT_NAMES for b in bots):
        print(f"aegis play: bots are {', '.join(BOT_NAMES)}", file=sys.stderr)
        return 2
    try:
        options = game_options.parse(args.option)
    except ValueError as err:
        print(f"aegis play: {err}", file=sys.stderr)
        return 2
    api = Client(args.url)
    rng = random.Random(args.seed)
    try:
        spec: dict[str, Any] = {
            "seats": args.seats,
            "variant": args.variant,
            "reaction_seconds": 0,
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
        for i in range(args.seats - 1):
            api.call("POST", f"/api/games/{gid}/seats", {"bot": bots[i % len(bots)]})
        api.call("POST", f"/api/games/{gid}/start", {}, token=game["host_token"])
        print(f"game {gid}: you are seat {me['seat']} against {args.seats - 1} bot(s)", file=out)
        moves = 0
        bell = Doorbell(api, gid, me["token"])
        while True:
            view = api.call("GET", f"/api/games/{gid}/view", token=me["token"])
            if view["status"] == "finished":
                result = view["table"]["result"]
                winners = ", ".join(view["seats"][w]["name"] for w in result["winners"]) or "nobody"
                print(describe(view), file=out)
                print(f"game over: {result['result']}, won by {winners} ({result['reason']}) after {moves} move(s)", file=out)
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
                command = _menu(prompt, out, inp)
                if command is None:
                    print("bye: the game stays on the server", file=out)
                    return 0
            result = api.call("POST", f"/api/games/{gid}/commands", command, token=me["token"])
            moves += 1
            if not args.auto:
                for e in result["events"]:
                    print("   ", _event_line(e), file=out)
    except ApiError as err:
        print(f"aegis play: the service refused ({err.status}): {err}", file=sys.stderr)
        return 1
    except urllib.error.URLError as err:
        print(f"aegis play: cannot reach {args.url} ({err.reason}); start it with 'aegis serve'", file=sys.stderr)
        return 1


WAIT_SECONDS = 1.0  # the longest wait between two looks at the view while others play
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


def _menu(prompt: dict[str, Any], out: TextIO, inp: TextIO) -> dict[str, Any] | None:
    """A short menu: the kind of option when there are many (an action), then the option, then each of its
    parameters. Returns the command, ``RESIGN``, or None to quit."""
    options = prompt["options"]
    groups = list(dict.fromkeys(o["group"] for o in options))
    if len(options) > MENU_AT_ONCE and len(groups) > 1:
        labels = [f"{g.replace('_', ' ').capitalize()} ({sum(o['group'] == g for o in options)} options)" for g in groups]
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


def _read(question: str, out: TextIO, inp: TextIO) -> str | dict[str, Any] | None:
    print(f"{question} (r to resign, q to quit): ", end="", file=out, flush=True)
    line = inp.readline()
    if not line or line.strip().lower() in ("q", "quit"):
        return None
    if line.strip().lower() in ("r", "resign"):
        return RESIGN
    return line.strip()


def _ask(labels: list[str], question: str, out: TextIO, inp: TextIO) -> int | dict[str, Any] | None:
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


def _ask_many(labels: list[str], p: dict[str, Any], out: TextIO, inp: TextIO) -> list[int] | dict[str, Any] | None:
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
        if all(x.isdigit() and int(x) < len(labels) for x in parts) and p["min"] <= len(parts) <= p["max"]:
            picked = [int(x) for x in parts]
            if not p["distinct"] or len(set(picked)) == len(picked):
                return picked
        print("  that is not a valid pick", file=out)


def _event_line(e: dict[str, Any]) -> str:
    rest = {k: v for k, v in e.items() if k not in ("type", "seq")}
    return f"{e['seq']:>4} {e['type']} {json.dumps(rest, sort_keys=True)[:140]}"


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
    p.add_argument("--name", default="You", help="your name at the table (default You)")
    p.add_argument(
        "--seed", default=None, help="your contribution to the game's seed, mixed with the server's secret (default: none)"
    )
    p.add_argument(
        "--turn-seconds",
        type=float,
        default=0,
        help="your clock per decision; when it runs out a bot decides for you (default 0: no clock, as you play bots)",
    )
    p.add_argument("--auto", action="store_true", help="pick your options (and their parameters) at random instead of asking")
    p.set_defaults(run=run)
