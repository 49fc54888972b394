"""The ``http`` suite: commands per second through the whole service (Flask test client, marshmallow,
decide, the eventsourcing save on SQLite) against a bare ``eventsourcing`` save of the same events, and
against raw ``sqlite3`` commits of the same bytes (the floor of this stack).

Games are played with every seat a human client choosing random options from its prompts. Only the
``POST /commands`` requests are timed. The baseline stores, in a fresh SQLite file, one plain aggregate
per game and saves the same stored events (same payloads, same batches: one save per command) with
no service around them. Both run in the same process, in the same run, so their ratio is what the
service layer costs.
"""

from __future__ import annotations

import random
import tempfile
import time
from pathlib import Path
from typing import Any
from uuid import UUID

from eventsourcing.application import Application
from eventsourcing.domain import Aggregate


class Bare(Aggregate):
    class Happened(Aggregate.Event):
        payload: dict[str, Any]

    def __init__(self) -> None:
        pass


class BareApp(Application):
    name = "BareBench"


def _play(app: Any, games: int, seats: int, seed: int) -> tuple[float, int, list[list[list[dict[str, Any]]]]]:
    """Play ``games`` games over HTTP. Returns (seconds spent in POST /commands, commands, batches per game)."""
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
                command = rng.choice(prompts[0]["options"])["command"]
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
    return timed, commands, batches


def _bare(path: Path, batches: list[list[list[dict[str, Any]]]]) -> float:
    app = BareApp(env={"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(path)})
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


def http(games: int = 10, seats: int = 4) -> dict[str, Any]:
    from api import create_app
    from service.settings import load

    with tempfile.TemporaryDirectory() as tmp:
        app = create_app(load({"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": f"{tmp}/aegis.sqlite"}))
        try:
            t_http, commands, batches = _play(app, games, seats, seed=1)
        finally:
            app.extensions["aegis.deadlines"].stop()
            app.extensions["aegis.worker"].stop()
            app.extensions["aegis"].close()
        t_bare = _bare(Path(tmp) / "bare.sqlite", batches)
        t_raw = _raw(Path(tmp) / "raw.sqlite", batches)
    stored = sum(len(b) for game in batches for b in game)
    return {
        "suite": "http",
        "games": games,
        "seats": seats,
        "commands": commands,
        "stored_events": stored,
        "http_commands_per_s": commands / t_http,
        "bare_save_commands_per_s": commands / t_bare,
        "ratio_http_to_bare": t_http / t_bare,
        "raw_sqlite3_commands_per_s": commands / t_raw,
        "ratio_bare_to_raw": t_bare / t_raw,
        "ratio_http_to_raw": t_http / t_raw,
    }


def print_http(result: dict[str, Any]) -> None:
    print("http: POST /commands through the service on SQLite, against a bare eventsourcing save of the same events")
    r = result
    print(f"  {r['games']} games x {r['seats']} seats: {r['commands']} commands, {r['stored_events']} stored events")
    print(f"  service over HTTP : {result['http_commands_per_s']:>8.0f} commands/s")
    print(f"  bare save         : {result['bare_save_commands_per_s']:>8.0f} commands/s")
    print(f"  raw sqlite3 commit: {result['raw_sqlite3_commands_per_s']:>8.0f} commands/s (the floor of this stack)")
    print(f"  the service costs {result['ratio_http_to_bare']:.1f}x a bare save of the same events")
    print(f"  a bare save costs {result['ratio_bare_to_raw']:.1f}x raw sqlite3 commits of the same bytes")
