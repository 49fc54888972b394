"""The ``store`` suite: commands per second through the whole service (Flask test client, marshmallow,
decide, the eventsourcing save) on SQLite and on PostgreSQL, each against a bare ``eventsourcing`` save of
the same events on the same store, and against raw ``sqlite3`` commits of the same bytes (the floor of
this stack).

Games are played with every seat a human client choosing random options from its prompts. Only the
``POST /commands`` requests are timed, twice: in the app (from the WSGI call into Flask to its answer: routing, the
request, the body, the rules, the save, the answer), which is the service's own work, and with Flask's test client
around it (building the request and reading the answer, which a real client does in its own process).

The baseline stores, in a fresh SQLite file or PostgreSQL schema, one plain aggregate per game and saves the same
stored events (same payloads, same batches: one save per command) with no service around them. Both run in the
same process, in the same run, so their ratio is what the service layer costs.
"""

from __future__ import annotations

import random
import tempfile
import time
from pathlib import Path
from typing import Any
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


def _play(app: Any, games: int, seats: int, seed: int) -> tuple[float, float, int, list[list[list[dict[str, Any]]]]]:
    """Play ``games`` games over HTTP. Returns (seconds spent in POST /commands with the test client, the same in the
    app alone, commands, batches per game)."""
    in_app = _InApp(app)
    client = app.test_client()
    rng = random.Random(seed)
    timed = 0.0
    commands = 0
    game_ids = []
    for g in range(games):
        created = client.post("/api/games", json={"seats": seats, "seed": f"bench-http-{g}", "reaction_seconds": 0}).get_json()
        gid = created["id"]
        game_ids.append(gid)
        tokens = [client.post(f"/api/games/{gid}/seats", json={"name": f"p{i}"}).get_json()["token"] for i in range(seats)]
        client.post(f"/api/games/{gid}/start", headers={"Authorization": "Bearer " + created["host_token"]})
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
                t0 = time.perf_counter()
                r = client.post(f"/api/games/{gid}/commands", json=command, headers=auth)
                timed += time.perf_counter() - t0
                assert r.status_code == 200, r.get_json()
                commands += 1
                moved = True
            if finished or not moved:
                break
    store = app.extensions["aegis"].store
    batches = []
    for gid in game_ids:
        per_command: list[list[dict[str, Any]]] = []
        for stored in store.events.get(UUID(gid)):
            name = type(stored).__name__
            if name == "CommandAccepted" and getattr(stored, "by", "") == "seat":
                per_command.append([])
            if per_command:
                per_command[-1].append(getattr(stored, "payload", {"command": getattr(stored, "command", None)}))
        batches.append(per_command)
    return timed, in_app.seconds, commands, batches


def _bare(env: dict[str, str], batches: list[list[list[dict[str, Any]]]]) -> float:
    app = BareApp(env=env)
    timed = 0.0
    for game in batches:
        aggregate = Bare()
        app.save(aggregate)
        for batch in game:
            for payload in batch:
                aggregate.trigger_event(Bare.Happened, payload=payload)
            t0 = time.perf_counter()
            app.save(aggregate)
            timed += time.perf_counter() - t0
    app.close()
    return timed


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


def _service(env: dict[str, str], games: int, seats: int) -> tuple[float, float, int, list[list[list[dict[str, Any]]]]]:
    from aegis.api import close_app, create_app
    from aegis.service.settings import load
    from benchmarks.harness import UNTHROTTLED

    app = create_app(load({**UNTHROTTLED, **env}))
    try:
        return _play(app, games, seats, seed=1)
    finally:
        close_app(app)


ROUNDS = 3  # each round plays the games again on fresh stores; a shared machine's disk makes single rounds vary


def _row(store: str, commands: int, t_client: float, t_app: float, t_bare: float, rounds: list[float]) -> dict[str, Any]:
    return {
        "store": store,
        "service_commands_per_s": commands / t_client,
        "app_commands_per_s": commands / t_app,
        "bare_save_commands_per_s": commands / t_bare,
        "ratio_service_to_bare": t_client / t_bare,
        "ratio_app_to_bare": t_app / t_bare,
        "rounds_ratio_app_to_bare": rounds,
    }


def store(games: int = 10, seats: int = 4, rounds: int = ROUNDS) -> dict[str, Any]:
    """The same games (same seeds, same choices) through the service on SQLite and on PostgreSQL, ``rounds`` times on
    fresh stores, each store's times summed over the rounds."""
    sums = {name: [0.0, 0.0, 0.0, 0] for name in ("sqlite", "postgres")}  # client, app, bare seconds; commands
    per_round: dict[str, list[float]] = {"sqlite": [], "postgres": []}
    t_raw = 0.0
    stored = 0
    skipped = None
    for _ in range(rounds):
        with tempfile.TemporaryDirectory() as tmp:
            sqlite = {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": f"{tmp}/aegis.sqlite"}
            t_client, t_app, commands, batches = _service(sqlite, games, seats)
            t_bare = _bare({"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": f"{tmp}/bare.sqlite"}, batches)
            t_raw += _raw(Path(tmp) / "raw.sqlite", batches)
            stored = sum(len(b) for game in batches for b in game)
            _add(sums["sqlite"], per_round["sqlite"], t_client, t_app, t_bare, commands)
            if skipped is None:
                try:
                    with postgres_schema("aegis_bench_") as pg:
                        pg_client, pg_app, pg_commands, pg_batches = _service(pg, games, seats)
                        _add(sums["postgres"], per_round["postgres"], pg_client, pg_app, _bare(pg, pg_batches), pg_commands)
                except psycopg.OperationalError as err:  # no PostgreSQL here: say why the row is missing
                    skipped = f"PostgreSQL: {type(err).__name__}: {err}"
    rows = [
        _row(name, int(n), client, app, bare, per_round[name])
        for name, (client, app, bare, n) in sums.items()
        if n and (name == "sqlite" or skipped is None)
    ]
    commands = int(sums["sqlite"][3])
    t_bare_sqlite = sums["sqlite"][2]
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
        "ratio_service_sqlite_to_raw": sums["sqlite"][0] / t_raw,
    }


def _add(sums: list[float], rounds: list[float], t_client: float, t_app: float, t_bare: float, commands: int) -> None:
    sums[0] += t_client
    sums[1] += t_app
    sums[2] += t_bare
    sums[3] += commands
    rounds.append(t_app / t_bare)


def print_store(r: dict[str, Any]) -> None:
    print("store: POST /commands through the service (Flask, marshmallow, decide, save), against a bare eventsourcing")
    print("       save of the same events on the same store, and raw sqlite3 commits of the same bytes")
    print(
        f"  {r['games']} games x {r['seats']} seats, {r['rounds']} rounds: {r['commands']} commands, "
        f"{r['stored_events']} stored events"
    )
    head = f"  {'store':9} {'in the app cmd/s':>17} {'with test client':>17} {'bare save cmd/s':>16}"
    print(f"{head} {'the app costs':>14}  rounds")
    for row in r["rows"]:
        rounds = " ".join(f"{x:.2f}x" for x in row["rounds_ratio_app_to_bare"])
        print(
            f"  {row['store']:9} {row['app_commands_per_s']:>17.0f} {row['service_commands_per_s']:>17.0f}"
            f" {row['bare_save_commands_per_s']:>16.0f} {row['ratio_app_to_bare']:>11.2f}x bare  {rounds}"
            f"  (with the test client {row['ratio_service_to_bare']:.2f}x)"
        )
    if r["skipped"]:
        print(f"  not measured: {r['skipped']}")
    print(
        f"  raw sqlite3 commits: {r['raw_sqlite3_commands_per_s']:.0f} commands/s (the floor of this stack); "
        f"a bare SQLite save costs {r['ratio_bare_sqlite_to_raw']:.1f}x that"
    )
