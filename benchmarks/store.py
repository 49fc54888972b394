"""The ``store`` suite: commands per second through the whole service (Flask test client, marshmallow,
decide, the eventsourcing save) on SQLite and on PostgreSQL, each against a bare ``eventsourcing`` save of
the same events on the same store, and against raw ``sqlite3`` commits of the same bytes (the floor of
this stack).

Games are played with every seat a human client choosing random options from its prompts. Only the
``POST /commands`` requests are timed, twice: in the app (from the WSGI call into Flask to its answer: routing, the
request, the body, the rules, the save, the answer), which is the service's own work, and with Flask's test client
around it (building the request and reading the answer, which a real client does in its own process).

The baseline, a bare ``eventsourcing`` application in the same SQLite directory or PostgreSQL schema, stores one plain
aggregate per game and saves the same stored events (same payloads, same batches: one save per command) with no
service around them, in two ways:

- beside each command: once the service has answered a command and its views were read, just before the next command
  is sent, the bare application saves that command's events. Each pair sees the same moment of the same disk (on a
  shared machine the time of a flush drifts by 2x within seconds), and the bare save runs amid other work, as the
  service's own save does; the service's projector is held while it runs (its work is the service's). The ratio the
  suite reports is against this one.
- back to back: after the games, every command's events saved in a tight loop (as the suite measured before), with
  nothing between the saves to take the processor's caches.

Everything runs in one process, in the same run, so the ratios are what the service layer costs.
"""

from __future__ import annotations

import contextlib
import random
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple
from uuid import UUID

import psycopg
from eventsourcing.application import Application
from eventsourcing.domain import Aggregate

from aegis.domain.kernel.prompts import Option
from benchmarks.harness import postgres_schema


class Bare(Aggregate):
    class Happened(Aggregate.Event):
        payload: dict[str, Any]

    def __init__(self) -> None:
        pass


class BareApp(Application):
    name = "BareBench"


class PairedApp(Application):
    name = "BarePaired"


class _BareSaves:
    """A bare application that stores one plain aggregate per game and times each save of a command's events alone
    (``held`` around it, outside the timing)."""

    def __init__(self, app: Application, held: Callable[[], contextlib.AbstractContextManager[None]] = contextlib.nullcontext):
        self.app = app
        self.held = held
        self.aggregates: dict[str, Bare] = {}
        self.seconds = 0.0

    def save(self, game: str, payloads: list[dict[str, Any]]) -> None:
        aggregate = self.aggregates.get(game)
        if aggregate is None:
            aggregate = self.aggregates[game] = Bare()
            self.app.save(aggregate)
        for payload in payloads:
            aggregate.trigger_event(Bare.Happened, payload=payload)
        with self.held():
            t0 = time.perf_counter()
            self.app.save(aggregate)
            self.seconds += time.perf_counter() - t0

    def close(self) -> None:
        self.app.close()


class _Beside(_BareSaves):
    """The bare saves beside the service: each command's events saved just before the service is sent the next
    command (or once the game is over): after the views of the command were read, when the service's own writes of it
    (a snapshot in the background) are done. The service's projector is held meanwhile (``Worker.held``): its work is
    the service's, timed when it runs beside the service's commands, not against the bare save."""

    def __init__(self, env: dict[str, str], held: Callable[[], contextlib.AbstractContextManager[None]]):
        super().__init__(PairedApp(env=env), held)
        self.waiting: tuple[str, list[dict[str, Any]]] | None = None

    def after(self, game: str, payloads: list[dict[str, Any]]) -> None:
        """The events of a command just answered: saved before the next one is sent."""
        self.flush()
        self.waiting = (game, payloads)

    def flush(self) -> None:
        if self.waiting is not None:
            game, payloads = self.waiting
            self.waiting = None
            self.save(game, payloads)


class _InApp:
    """Times the app's own work on each ``POST .../commands``: from the WSGI call into Flask to its answer, without
    the test client building the request and reading the answer (in production, the client's own process)."""

    def __init__(self, app: Any):
        self.inner = app.wsgi_app
        self.seconds = 0.0
        app.wsgi_app = self

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Any:
        if environ["REQUEST_METHOD"] != "POST" or not environ["PATH_INFO"].endswith("/commands"):
            return self.inner(environ, start_response)
        t0 = time.perf_counter()
        try:
            return self.inner(environ, start_response)
        finally:
            self.seconds += time.perf_counter() - t0


def _play(
    app: Any, games: int, seats: int, seed: int, beside: _Beside
) -> tuple[float, float, int, list[list[list[dict[str, Any]]]]]:
    """Play ``games`` games over HTTP, each command's events saved by ``beside`` before the next command is sent.
    Returns (seconds spent in POST /commands with the test client, the same in the app alone, commands, batches per
    game)."""
    in_app = _InApp(app)
    client = app.test_client()
    store = app.extensions["aegis"].store
    batches: list[list[list[dict[str, Any]]]] = []
    rng = random.Random(seed)
    timed = 0.0
    commands = 0
    for g in range(games):
        created = client.post("/api/games", json={"seats": seats, "seed": f"bench-http-{g}", "reaction_seconds": 0}).get_json()
        gid = created["id"]
        tokens = [client.post(f"/api/games/{gid}/seats", json={"name": f"p{i}"}).get_json()["token"] for i in range(seats)]
        client.post(f"/api/games/{gid}/start", headers={"Authorization": "Bearer " + created["host_token"]})
        seen = store.repository.get(UUID(gid)).version
        per_command: list[list[dict[str, Any]]] = []
        batches.append(per_command)
        while True:
            moved = False
            finished = False
            for token in tokens:
                auth = {"Authorization": "Bearer " + token}
                view = client.get(f"/api/games/{gid}/view", headers=auth).get_json()
                if view["status"] == "finished":
                    finished = True
                    break
                prompts = [p for p in view["prompts"] if not p["free"]]
                if not prompts:
                    continue
                command = Option.from_dict(rng.choice(prompts[0]["options"])).pick(rng)
                beside.flush()  # the last command's events, saved by the bare application now
                t0 = time.perf_counter()
                r = client.post(f"/api/games/{gid}/commands", json=command, headers=auth)
                timed += time.perf_counter() - t0
                assert r.status_code == 200, r.get_json()
                commands += 1
                stored = list(store.events.get(UUID(gid), gt=seen))  # what this command saved (untimed)
                seen = stored[-1].originator_version
                payloads = [getattr(e, "payload", {"command": getattr(e, "command", None)}) for e in stored]
                per_command.append(payloads)
                beside.after(gid, payloads)
                moved = True
            if finished or not moved:
                break
    return timed, in_app.seconds, commands, batches


def _bare(env: dict[str, str], batches: list[list[list[dict[str, Any]]]]) -> float:
    """The same saves back to back, after the games: every command's events of every game, in a tight loop."""
    saves = _BareSaves(BareApp(env=env))
    try:
        for g, game in enumerate(batches):
            for batch in game:
                saves.save(str(g), batch)
    finally:
        saves.close()
    return saves.seconds


def _raw(path: Path, batches: list[list[list[dict[str, Any]]]]) -> float:
    """The floor of this stack: the same event payloads, as JSON bytes, inserted with ``sqlite3`` and
    committed once per command, in a table like the library's (no aggregate, no mapper, no service)."""
    import json
    import sqlite3

    db = sqlite3.connect(str(path), isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute(
        "CREATE TABLE events (originator TEXT, version INTEGER, topic TEXT, state BLOB, PRIMARY KEY (originator, version))"
    )
    timed = 0.0
    for g, game in enumerate(batches):
        version = 0
        for batch in game:
            rows = []
            for payload in batch:
                version += 1
                rows.append((f"game-{g}", version, "Bare.Happened", json.dumps(payload, sort_keys=True).encode()))
            t0 = time.perf_counter()
            db.execute("BEGIN")
            db.executemany("INSERT INTO events VALUES (?, ?, ?, ?)", rows)
            db.execute("COMMIT")
            timed += time.perf_counter() - t0
    db.close()
    return timed


def _service(env: dict[str, str], beside_env: dict[str, str], back_env: dict[str, str], games: int, seats: int) -> _Timed:
    from aegis.api import close_app, create_app
    from aegis.service.settings import load
    from benchmarks.harness import UNTHROTTLED

    app = create_app(load({**UNTHROTTLED, **env}))
    worker = app.extensions["aegis.worker"]
    beside = _Beside(beside_env, worker.held if worker is not None else contextlib.nullcontext)
    try:
        t_client, t_app, commands, batches = _play(app, games, seats, 1, beside)
        beside.flush()
    finally:
        beside.close()
        close_app(app)
    t_back = _bare(back_env, batches)
    return _Timed(t_client, t_app, beside.seconds, t_back, commands, batches)


class _Timed(NamedTuple):
    client: float  # seconds in POST /commands around the test client
    app: float  # the same in the app
    beside: float  # the bare saves, each just before the next command (``_Beside``)
    back: float  # the bare saves again, back to back
    commands: int
    batches: list[list[list[dict[str, Any]]]]


ROUNDS = 3  # each round plays the games again on fresh stores; a shared machine's disk makes single rounds vary


def _row(store: str, rounds: list[_Timed]) -> dict[str, Any]:
    commands = sum(r.commands for r in rounds)
    client, app, beside, back = (sum(getattr(r, k) for r in rounds) for k in ("client", "app", "beside", "back"))
    return {
        "store": store,
        "service_commands_per_s": commands / client,
        "app_commands_per_s": commands / app,
        "bare_save_commands_per_s": commands / beside,
        "bare_back_to_back_commands_per_s": commands / back,
        "ratio_service_to_bare": client / beside,
        "ratio_app_to_bare": app / beside,
        "ratio_app_to_back_to_back": app / back,
        "rounds_ratio_app_to_bare": [r.app / r.beside for r in rounds],
        "rounds_ratio_app_to_back_to_back": [r.app / r.back for r in rounds],
    }


def store(games: int = 10, seats: int = 4, rounds: int = ROUNDS) -> dict[str, Any]:
    """The same games (same seeds, same choices) through the service on SQLite and on PostgreSQL, ``rounds`` times on
    fresh stores, each store's times summed over the rounds."""
    timed: dict[str, list[_Timed]] = {"sqlite": [], "postgres": []}
    t_raw = 0.0
    stored = 0
    skipped = None
    for _ in range(rounds):
        with tempfile.TemporaryDirectory() as tmp:
            sqlite = {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": f"{tmp}/aegis.sqlite"}
            beside = {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": f"{tmp}/beside.sqlite"}
            back = {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": f"{tmp}/bare.sqlite"}
            got = _service(sqlite, beside, back, games, seats)
            t_raw += _raw(Path(tmp) / "raw.sqlite", got.batches)
            stored = sum(len(b) for game in got.batches for b in game)
            timed["sqlite"].append(got)
            if skipped is None:
                try:
                    with postgres_schema("aegis_bench_") as pg:
                        timed["postgres"].append(_service(pg, pg, pg, games, seats))  # tables named by each app
                except psycopg.OperationalError as err:  # no PostgreSQL here: say why the row is missing
                    skipped = f"PostgreSQL: {type(err).__name__}: {err}"
    rows = [_row(name, got) for name, got in timed.items() if got and (name == "sqlite" or skipped is None)]
    commands = sum(r.commands for r in timed["sqlite"])
    t_bare_sqlite = sum(r.back for r in timed["sqlite"])
    return {
        "suite": "store",
        "games": games,
        "seats": seats,
        "rounds": rounds,
        "commands": commands,
        "stored_events": stored * rounds,
        "rows": rows,
        "skipped": skipped,
        "raw_sqlite3_commands_per_s": commands / t_raw,
        "ratio_bare_sqlite_to_raw": t_bare_sqlite / t_raw,
        "ratio_service_sqlite_to_raw": sum(r.client for r in timed["sqlite"]) / t_raw,
    }


def print_store(r: dict[str, Any]) -> None:
    print("store: POST /commands through the service (Flask, marshmallow, decide, save), against a bare eventsourcing")
    print("       save of the same events on the same store (beside each command, and back to back), and raw sqlite3")
    print(
        f"  {r['games']} games x {r['seats']} seats, {r['rounds']} rounds: {r['commands']} commands, "
        f"{r['stored_events']} stored events"
    )
    head = f"  {'store':9} {'in the app cmd/s':>17} {'with test client':>17} {'bare beside cmd/s':>18}"
    print(f"{head} {'the app costs':>14}  rounds")
    for row in r["rows"]:
        rounds = " ".join(f"{x:.2f}x" for x in row["rounds_ratio_app_to_bare"])
        print(
            f"  {row['store']:9} {row['app_commands_per_s']:>17.0f} {row['service_commands_per_s']:>17.0f}"
            f" {row['bare_save_commands_per_s']:>18.0f} {row['ratio_app_to_bare']:>11.2f}x bare  {rounds}"
            f"  (bare back to back {row['bare_back_to_back_commands_per_s']:.0f}/s: {row['ratio_app_to_back_to_back']:.2f}x;"
            f" with the test client {row['ratio_service_to_bare']:.2f}x)"
        )
    if r["skipped"]:
        print(f"  not measured: {r['skipped']}")
    print(
        f"  raw sqlite3 commits: {r['raw_sqlite3_commands_per_s']:.0f} commands/s (the floor of this stack); "
        f"a bare SQLite save back to back costs {r['ratio_bare_sqlite_to_raw']:.1f}x that"
    )
