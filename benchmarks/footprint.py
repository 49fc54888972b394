"""The ``footprint`` suite: what one game costs to hold and to snapshot, by its length.

One game is played over the API (Flask test client, every seat a client choosing random options) on a fresh
SQLite file, snapshotted every ``INTERVAL`` versions. Then:

- memory: the game read into a new process's cache (``tracemalloc``, what stays allocated), against the log as
  payload dicts, which is what a game held before snapshots carried the state instead (measured in the same run);
- snapshots: the stored bytes of each snapshot the game got, by version, against the whole log as JSON at that
  version (what each snapshot stored before).
"""

from __future__ import annotations

import gc
import json
import random
import tempfile
import tracemalloc
from pathlib import Path
from typing import Any
from uuid import UUID

from aegis.domain.kernel.prompts import Option

INTERVAL = 50


def _long_game(app: Any, least: int, seed: int) -> str:
    """Play games until one has at least ``least`` ruleset events (the longest of 12 otherwise); its id."""
    client = app.test_client()
    rng = random.Random(seed)
    best, best_seq = "", 0
    for g in range(12):
        created = client.post("/api/games", json={"seats": 4, "seed": f"footprint-{seed}-{g}", "reaction_seconds": 0}).get_json()
        gid = created["id"]
        tokens = [client.post(f"/api/games/{gid}/seats", json={"name": f"p{i}"}).get_json()["token"] for i in range(4)]
        client.post(f"/api/games/{gid}/start", headers={"Authorization": "Bearer " + created["host_token"]})
        seq = _play_out(client, gid, tokens, rng)
        if seq > best_seq:
            best, best_seq = gid, seq
        if seq >= least:
            break
    return best


def _play_out(client: Any, gid: str, tokens: list[str], rng: random.Random) -> int:
    while True:
        moved = False
        for token in tokens:
            auth = {"Authorization": "Bearer " + token}
            view = client.get(f"/api/games/{gid}/view", headers=auth).get_json()
            if view["status"] != "active":
                return int(view["seq"])
            prompts = [p for p in view["prompts"] if not p["free"]]
            if not prompts:
                continue
            command = Option.from_dict(rng.choice(prompts[0]["options"])).pick(rng)  # as the store suite picks
            answer = client.post(f"/api/games/{gid}/commands", json=command, headers=auth)
            assert answer.status_code == 200, answer.get_json()
            moved = True
        if not moved:
            return int(client.get(f"/api/games/{gid}/view").get_json()["seq"])


def _held(make: Any) -> tuple[Any, int]:
    """(what ``make()`` returns, the bytes it keeps allocated)."""
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        made = make()
        gc.collect()
        return made, tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()


def run(least: int = 430, seed: int = 1) -> dict[str, Any]:
    from aegis.api import close_app, create_app
    from aegis.service.games import GameService, GameStore
    from aegis.service.settings import load

    with tempfile.TemporaryDirectory() as tmp:
        env = {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(Path(tmp) / "footprint.sqlite")}
        app = create_app(service=GameService(load({**env, "AEGIS_SNAPSHOT_INTERVAL": str(INTERVAL)})))
        gid = _long_game(app, least, seed)
        app.extensions["aegis"].store.snapshotter.flush()
        close_app(app)

        store = GameStore(load({**env, "AEGIS_SNAPSHOT_INTERVAL": str(INTERVAL)}))
        try:
            game, game_bytes = _held(lambda: store.repository.get(UUID(gid)))
            payloads = store.payloads(game, 1, game.seq)
            text = json.dumps(payloads)
            _, log_bytes = _held(lambda: json.loads(text))  # the log as payload dicts, as a game held it before
            snapshots = []
            assert store.snapshots is not None, "the footprint needs snapshots (AEGIS_SNAPSHOT_INTERVAL > 0)"
            for s in store.snapshots.recorder.select_events(UUID(gid)):
                seq = sum(1 for v in game.versions if v <= s.originator_version)
                old = len(json.dumps(payloads[:seq]).encode())
                snapshots.append({"version": s.originator_version, "events": seq, "bytes": len(s.state), "log_bytes": old})
        finally:
            store.close()
    return {
        "game_events": game.seq,
        "game_versions": game.version,
        "game_bytes": game_bytes,
        "log_bytes": log_bytes,
        "interval": INTERVAL,
        "snapshots": snapshots,
    }


def table(result: dict[str, Any]) -> str:
    r = result
    lines = [
        f"one game of {r['game_events']} events ({r['game_versions']} stored versions), read into a cache: "
        f"{r['game_bytes'] / 1024:.0f} KiB; its log as payload dicts (what a game held before): {r['log_bytes'] / 1024:.0f} KiB",
        "",
        "| version | events | snapshot bytes (compressed state) | whole log as JSON (the former snapshot) |",
        "|---:|---:|---:|---:|",
    ]
    for s in r["snapshots"]:
        lines.append(f"| {s['version']} | {s['events']} | {s['bytes']:,} | {s['log_bytes']:,} |")
    return "\n".join(lines)
