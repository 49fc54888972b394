"""Bots that play whole games over real HTTP, many games at once, timing every request.

Each game is one thread with one keep-alive connection, holding every seat's token: it reads each seat's
view and posts a random option of that seat's first prompt, with an ``Idempotency-Key``, until the game is
over. The load suite times them; the fault tests kill servers under them and check afterwards that every
answer they got is in the store.

With ``retry`` a bot rides out an outage: a dropped connection or a 503 is retried (the same request, the
same ``Idempotency-Key``) until ``give_up`` seconds have passed. Without it, any answer other than the
expected one is an error and ends that bot's game.
"""

from __future__ import annotations

import http.client
import json
import math
import random
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from aegis.domain.kernel.prompts import Option

MAX_COMMANDS = 3000  # a game of random bots never gets near this; beyond it the bot reports a stuck game


class Dropped(Exception):
    """The connection failed (refused, reset, closed) before an answer came."""


@dataclass
class Reply:
    status: int
    headers: dict[str, str]
    body: Any
    seconds: float


class Http:
    """One keep-alive connection to the service. A reused connection that the server had already closed is
    opened again and the request sent once more (the request never reached the service)."""

    def __init__(self, url: str, timeout: float = 30.0):
        parts = urlsplit(url)
        self.host, self.port = parts.hostname or "127.0.0.1", parts.port or 80
        self.timeout = timeout
        self.conn: http.client.HTTPConnection | None = None
        self.used = False

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
        self.conn, self.used = None, False

    def request(
        self, method: str, path: str, body: Any = None, token: str | None = None, headers: dict[str, str] | None = None
    ) -> Reply:
        sent = {"Content-Type": "application/json", **(headers or {})}
        if token:
            sent["Authorization"] = f"Bearer {token}"
        data = None if body is None else json.dumps(body).encode()
        for attempt in (0, 1):
            reused = self.used
            if self.conn is None:
                self.conn = http.client.HTTPConnection(self.host, self.port, timeout=self.timeout)
            t0 = time.perf_counter()
            try:
                self.conn.request(method, path, body=data, headers=sent)
                response = self.conn.getresponse()
                raw = response.read()
            except (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError) as err:
                self.close()
                if reused and attempt == 0:
                    continue  # an idle keep-alive connection the server had closed: open a new one
                raise Dropped(f"{type(err).__name__}: {err}") from None
            except (OSError, http.client.HTTPException) as err:
                self.close()
                raise Dropped(f"{type(err).__name__}: {err}") from None
            seconds = time.perf_counter() - t0
            self.used = True
            kind = response.getheader("Content-Type", "")
            parsed = json.loads(raw) if raw and "json" in kind else raw.decode(errors="replace")
            return Reply(response.status, {k.lower(): v for k, v in response.getheaders()}, parsed, seconds)
        raise Dropped("the connection closed twice")  # pragma: no cover - the loop returns or raises


@dataclass
class Ack:
    """A command the service answered 200 to."""

    game: str
    seat: int
    key: str
    seq: int
    replayed: bool


@dataclass
class Record:
    """Everything the bots saw, gathered from every thread."""

    samples: list[tuple[str, int, float]] = field(default_factory=list)  # (request kind, status or 0, seconds)
    errors: list[str] = field(default_factory=list)
    acks: list[Ack] = field(default_factory=list)
    retried: int = 0
    unavailable: list[tuple[float, str | None]] = field(default_factory=list)  # 503s: seconds, Retry-After
    finished: int = 0
    answered: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def sample(self, kind: str, status: int, seconds: float) -> None:
        with self.lock:
            self.samples.append((kind, status, seconds))
            if kind == "command" and status == 200:
                self.answered += 1

    def error(self, message: str) -> None:
        with self.lock:
            self.errors.append(message)

    def commands(self) -> int:
        """Commands answered 200 so far."""
        return self.answered


class GameBot:
    """One game, from its creation to its end."""

    def __init__(
        self,
        url: str,
        index: int,
        record: Record,
        *,
        seats: int,
        variant: str,
        seed: str,
        retry: bool,
        give_up: float,
        pause: float = 0.0,
    ):
        self.http = Http(url)
        self.index = index
        self.record = record
        self.seats = seats
        self.variant = variant
        self.seed = f"{seed}/{index}"
        self.rng = random.Random(self.seed)
        self.retry = retry
        self.give_up = give_up
        self.pause = pause  # seconds between a bot's commands (a human pace), 0 for as fast as it can
        self.game: str | None = None
        self.tokens: list[str] = []
        self.sent = 0
        self.status = "new"

    def call(self, kind: str, method: str, path: str, body: Any = None, token: str | None = None, **headers: str) -> Reply:
        """One request; with ``retry``, again (the same request) after a dropped connection or a 503."""
        deadline = time.monotonic() + self.give_up
        while True:
            try:
                reply = self.http.request(method, path, body, token, headers)
            except Dropped:
                self.record.sample(kind, 0, 0.0)
                if not self.retry or time.monotonic() > deadline:
                    raise
                with self.record.lock:
                    self.record.retried += 1
                time.sleep(0.1)
                continue
            self.record.sample(kind, reply.status, reply.seconds)
            if reply.status == 503:
                with self.record.lock:
                    self.record.unavailable.append((reply.seconds, reply.headers.get("retry-after")))
                if self.retry and time.monotonic() <= deadline:
                    with self.record.lock:
                        self.record.retried += 1
                    time.sleep(min(1.0, float(reply.headers.get("retry-after") or 1)))
                    continue
            return reply

    def expect(self, reply: Reply, status: int, what: str) -> Any:
        if reply.status != status:
            raise RuntimeError(f"game {self.game or self.index}: {what} answered {reply.status}: {reply.body}")
        return reply.body

    def setup(self) -> None:
        spec = {"ruleset": "ever-aegis", "variant": self.variant, "seats": self.seats, "seed": self.seed, "reaction_seconds": 0}
        created = self.expect(self.call("create", "POST", "/api/games", spec), 201, "creating the game")
        self.game = created["id"]
        for seat in range(self.seats):
            taken = self.call("seat", "POST", f"/api/games/{self.game}/seats", {"name": f"bot {self.index}.{seat}"})
            self.tokens.append(self.expect(taken, 201, "taking a seat")["token"])
        self.expect(self.call("start", "POST", f"/api/games/{self.game}/start", {}, created["host_token"]), 200, "starting")
        self.status = "active"

    def play(self) -> None:
        """Play to the end: every seat's view, a random option of its first prompt."""
        while self.sent < MAX_COMMANDS:
            moved = False
            for seat, token in enumerate(self.tokens):
                view = self.expect(self.call("view", "GET", f"/api/games/{self.game}/view", token=token), 200, "a view")
                if view["status"] == "finished":
                    self.status = "finished"
                    with self.record.lock:
                        self.record.finished += 1
                    return
                prompts = [p for p in view["prompts"] if not p["free"]]
                if not prompts:
                    continue
                command = Option.from_dict(self.rng.choice(prompts[0]["options"])).pick(self.rng)
                key = f"move-{self.sent}"
                self.sent += 1
                path = f"/api/games/{self.game}/commands"
                answer = self.call("command", "POST", path, command, token, **{"Idempotency-Key": key})
                body = self.expect(answer, 200, f"command {command}")
                replayed = answer.headers.get("idempotent-replayed") == "true"
                with self.record.lock:
                    self.record.acks.append(Ack(str(self.game), seat, key, int(body["seq"]), replayed))
                moved = True
                if self.pause:
                    time.sleep(self.pause)
            if not moved:
                raise RuntimeError(f"game {self.game}: no seat has a prompt, yet the game is not over")
        raise RuntimeError(f"game {self.game}: not over after {MAX_COMMANDS} commands")

    def run(self, step: Callable[[GameBot], None]) -> None:
        try:
            step(self)
        except (Dropped, RuntimeError, ValueError, KeyError) as err:
            self.status = "failed"
            self.record.error(f"{type(err).__name__}: {err}")


@dataclass
class Load:
    record: Record
    bots: list[GameBot]
    setup_seconds: float
    play_seconds: float


def run_load(
    url: str,
    games: int,
    *,
    seats: int = 3,
    variant: str = "simpleton",
    seed: str = "load",
    retry: bool = False,
    give_up: float = 60.0,
    progress: Callable[[Record, float], None] | None = None,
    progress_every: float = 5.0,
    record: Record | None = None,
    pause: float = 0.0,
    before_play: Callable[[list[GameBot]], None] | None = None,
) -> Load:
    """Set up ``games`` games (32 at a time), then play all of them at once, one thread each. ``record`` may be
    given to watch the run from another thread; ``before_play`` is called with the bots of the games set up, before
    any plays (and before the play time starts), e.g. to open streams on them."""
    record = record if record is not None else Record()
    bots = [
        GameBot(url, i, record, seats=seats, variant=variant, seed=seed, retry=retry, give_up=give_up, pause=pause)
        for i in range(games)
    ]
    t0 = time.perf_counter()
    with ThreadPoolExecutor(max_workers=min(32, games)) as pool:
        list(pool.map(lambda bot: bot.run(GameBot.setup), bots))
    setup_seconds = time.perf_counter() - t0
    playing = [bot for bot in bots if bot.status == "active"]
    if before_play is not None:
        before_play(playing)
    done = threading.Event()
    t0 = time.perf_counter()

    def report() -> None:
        while not done.wait(progress_every):
            if progress is not None:
                progress(record, time.perf_counter() - t0)

    reporter = threading.Thread(target=report, daemon=True)
    reporter.start()
    threads = [threading.Thread(target=bot.run, args=(GameBot.play,), daemon=True) for bot in playing]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    play_seconds = time.perf_counter() - t0
    done.set()
    for bot in bots:
        bot.http.close()
    return Load(record, bots, setup_seconds, play_seconds)


def percentile(values: list[float], p: float) -> float:
    """The ``p``-th percentile (nearest rank) of ``values``; 0 for none."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = min(len(ordered), max(1, math.ceil(p / 100 * len(ordered))))
    return ordered[rank - 1]
