"""The ``projections`` suite, on the real PostgreSQL and Redis of the machine.

Lag: this process saves commands through its own ``GameService`` (one process), a separate
``aegis project`` worker keeps the projections (lobby, players' records) in Redis, and a separate ``aegis serve``
process holds an SSE stream that this process reads. For every command: the time from its save returning to (a) the
worker's Redis position covering it and (b) its events' arrival on the stream from the other process; p50 and p99.

Views: a seat's view read right after a command (computed from the cached game) and read again at the same version
(from the service's view cache), p50 and p99.

Rebuild: every projection rebuilt from the stored events into a fresh Redis prefix, against reading the same
events without projecting them, in the same run.

Lobby: a page of the lobby list at 1,000 and 10,000 games, in the process and in Redis, answered by a scan of every
row (how it was answered before its index: the baseline) and from the index, in the same run; medians and their ratio.

Servers: the PostgreSQL at 127.0.0.1:5432, database ``test`` (a schema of its own is made and dropped), and
``REDIS_URL`` (default redis://127.0.0.1:6379/15; a key prefix of its own is used and removed).
"""

from __future__ import annotations

import contextlib
import os
import random
import secrets
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

from aegis.domain.kernel.prompts import Option
from aegis.projections import lobby
from aegis.projections.store import Batch, MemoryViewStore, RedisViewStore, ViewStore
from aegis.projections.views import LOBBY
from aegis.projections.worker import read_only, rebuild
from aegis.service.games import GameService
from aegis.service.settings import load
from benchmarks.harness import Service, postgres_schema, projection_worker
from benchmarks.loadgen import percentile


def projections(events_wanted: int = 1000, lobby_sizes: tuple[int, ...] | None = None) -> dict[str, Any]:
    redis_url = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/15")
    prefix = f"aegis-bench-{secrets.token_hex(3)}:"
    with contextlib.ExitStack() as stack:
        tmp = Path(stack.enter_context(tempfile.TemporaryDirectory()))
        env = {
            **stack.enter_context(postgres_schema("aegis_bench_")),
            "REDIS_URL": redis_url,
            "AEGIS_REDIS_PREFIX": prefix,
            "AEGIS_PROJECTOR": "worker",
            "AEGIS_SSE_KEEPALIVE": "1",
        }
        stack.enter_context(projection_worker(env))
        server = Service(env, tmp / "serve.log", workers=0)
        server.start()
        stack.callback(server.stop)
        service = GameService(load(env))
        stack.callback(service.close)
        views = RedisViewStore(redis_url, prefix)
        stack.callback(views.clear)
        fresh = RedisViewStore(redis_url, f"aegis-bench-fresh-{secrets.token_hex(3)}:")
        stack.callback(fresh.clear)
        result = _measure(events_wanted, service, server.url, views, fresh)
        indexed = RedisViewStore(redis_url, f"aegis-bench-lobby-{secrets.token_hex(3)}:")
        stack.callback(indexed.clear)
        stores = {"memory": MemoryViewStore, "redis": lambda: _emptied(indexed)}
        result["lobby_ms"] = lobby_reads(stores, lobby_sizes or LOBBY_SIZES)
        return result


def _emptied(store: ViewStore) -> ViewStore:
    store.clear()
    return store


def _measure(events_wanted: int, service: GameService, url: str, views: RedisViewStore, fresh: RedisViewStore) -> dict[str, Any]:
    """Save commands here; time each event to the worker's Redis view and to the other process's stream."""
    saved: dict[tuple[str, int], float] = {}
    stored: dict[int, float] = {}  # notification id of a command's last event -> when its save returned
    in_view: dict[int, float] = {}  # -> when the worker's position covered it
    on_stream: dict[tuple[str, int], float] = {}
    computed: list[float] = []  # a seat's view read after a command: computed from the cached game
    cached: list[float] = []  # the same read again: from the view cache
    rng = random.Random(1)
    games = 0
    while len(saved) < events_wanted:
        gid, host, _commitment = service.create_game({"seats": 4, "reaction_seconds": 0, "seed": f"bench-{games}"})
        games += 1
        tokens = [service.take_seat(gid, name=f"p{i}", bot=None)[1] for i in range(4)]
        service.start(gid, host)
        g = str(gid)
        stop = threading.Event()
        ready = threading.Event()
        threads = [
            threading.Thread(target=_read_stream, args=(url, g, on_stream, stop, ready), daemon=True),
            threading.Thread(target=_poll_position, args=(views, stored, in_view, stop), daemon=True),
        ]
        for t in threads:
            t.start()
        ready.wait(10)
        moves = 0
        while moves < 400:
            view = service.view(gid, None)
            if view["status"] != "active":
                break
            moved = False
            for token in tokens:
                t0 = time.perf_counter()
                found = service.view(gid, token)
                t1 = time.perf_counter()
                service.view(gid, token)
                computed.append(t1 - t0)
                cached.append(time.perf_counter() - t1)
                prompts = [p for p in found["prompts"] if not p["free"]]
                if prompts:
                    _, events, _ = service.submit(gid, token, Option.from_dict(rng.choice(prompts[0]["options"])).pick(rng))
                    now = time.perf_counter()
                    for e in events:
                        saved[(g, e["seq"])] = now
                    stored[service.store.recorder.max_notification_id() or 0] = now
                    moves += 1
                    moved = True
                    time.sleep(0.002)
                    break
            if not moved:
                break
        time.sleep(0.5)
        stop.set()
        for t in threads:
            t.join(timeout=5)
    view_lags = [in_view[k] - t for k, t in stored.items() if k in in_view]
    stream_lags = [on_stream[k] - t for k, t in saved.items() if k in on_stream]
    rebuilt = rebuild(service.store, fresh)
    floor = read_only(service.store)
    return {
        "suite": "projections",
        "games": games,
        "events": len(saved),
        "redis_position_lag_ms": {
            "n": len(view_lags),
            "p50": percentile(view_lags, 50) * 1000,
            "p99": percentile(view_lags, 99) * 1000,
        },
        "view_read_ms": {
            name: {"n": len(v), "p50": percentile(v, 50) * 1000, "p99": percentile(v, 99) * 1000}
            for name, v in (("computed", computed), ("cached", cached))
        },
        "sse_other_process_lag_ms": {
            "n": len(stream_lags),
            "p50": percentile(stream_lags, 50) * 1000,
            "p99": percentile(stream_lags, 99) * 1000,
        },
        "rebuild_events_per_s": floor["events"] / rebuilt["seconds"] if rebuilt["seconds"] else 0.0,
        "read_only_events_per_s": floor["events_per_s"],
        "rebuild_costs_x_reading": rebuilt["seconds"] / floor["seconds"] if floor["seconds"] else 0.0,
        "stored_events": floor["events"],
        "projected_events": rebuilt["projected"],
    }


def _read_stream(url: str, gid: str, arrivals: dict, stop: threading.Event, ready: threading.Event) -> None:
    with urllib.request.urlopen(f"{url}/api/games/{gid}/stream", timeout=30) as stream:
        for raw in stream:
            line = raw.decode().strip()
            if line.startswith("id:"):
                seq = int(line[3:])
                if seq and not ready.is_set():
                    ready.set()  # the first frame (the view) is here: the stream is listening
                    continue
                arrivals.setdefault((gid, seq), time.perf_counter())
            if line.startswith("event: end") or stop.is_set():
                return


def _poll_position(views: Any, stored: dict[int, float], seen: dict[int, float], stop: threading.Event) -> None:
    while not stop.is_set():
        position = views.position()
        now = time.perf_counter()
        for n in [n for n in list(stored) if n <= position and n not in seen]:
            seen[n] = now
        time.sleep(0.0005)


# ----- the lobby list: a scan of every row against the index -----

LOBBY_SIZES = (1000, 10000)
LOBBY_QUERIES: dict[str, dict[str, Any]] = {  # what the lobby list is asked most: the default list, open tables, a later page
    "default": {},
    "open tables": {"status": "lobby", "open_seats": True},
    "page 10": {"offset": 200},
}


def _lobby_rows(n: int, rng: random.Random) -> list[dict[str, Any]]:
    """``n`` games as a busy server's lobby holds them: most over, some playing, some waiting for players."""
    now = time.time()
    rows = []
    for i in range(n):
        status = rng.choices(("finished", "active", "lobby", "cancelled", "expired"), (60, 15, 15, 5, 5))[0]
        created = now - (n - i) * 30.0
        if status == "lobby" and created + 86400.0 <= now - 60.0:
            status = "expired"  # the deadline keeper recorded it (a minute after its time, at the latest)
        rows.append(
            {
                "id": f"{rng.getrandbits(128):032x}",
                "ruleset": "ever-aegis",
                "variant": rng.choice(("simpleton", "simpleton+hooded-fox", "classic")),
                "status": status,
                "seats": 4,
                "seats_free": rng.randint(0, 3) if status == "lobby" else 0,
                "rigged": False,
                "created": created,
                "expires_at": created + 86400.0 if status == "lobby" else None,
                "turn_seconds": 120.0,
            }
        )
    return rows


def lobby_reads(stores: dict[str, Any], sizes: tuple[int, ...] = LOBBY_SIZES, repeat: int = 30) -> dict[str, Any]:
    """Median ms of a lobby page by the scan (every row read, filtered, sorted: as before the index) and by the
    index, for each store and size; the answers are checked equal."""
    out: dict[str, Any] = {}
    rng = random.Random(5)
    for name, make in stores.items():
        for n in sizes:
            store = make()
            rows = _lobby_rows(n, rng)
            for position, start in enumerate(range(0, n, 500), 1):
                batch = Batch()
                for row in rows[start : start + 500]:
                    lobby.write(batch, row)
                store.commit(batch, position)
            now = time.time()
            for label, query in LOBBY_QUERIES.items():
                q: dict[str, Any] = {**query, "now": now}

                def scan(q: dict[str, Any] = q, store: ViewStore = store) -> Any:
                    return lobby.select(list(store.hgetall(LOBBY).values()), **q)

                def index(q: dict[str, Any] = q, store: ViewStore = store) -> Any:
                    return store.consistent(lambda ix: lobby.page(ix, **q))

                if scan() != index():
                    raise AssertionError(f"the index and the scan differ on {label} at {n} games ({name})")
                timed = {}
                for way, read in (("scan", scan), ("index", index)):
                    times = []
                    for _ in range(repeat if way == "index" or n < 10000 else max(5, repeat // 3)):
                        t0 = time.perf_counter()
                        read()
                        times.append(time.perf_counter() - t0)
                    timed[way] = percentile(times, 50) * 1000
                out.setdefault(name, {}).setdefault(str(n), {})[label] = {**timed, "ratio": timed["scan"] / timed["index"]}
            store.clear()
    return out


def print_projections(r: dict[str, Any]) -> None:
    v, s = r["redis_position_lag_ms"], r["sse_other_process_lag_ms"]
    print(f"projections: {r['events']} events in {r['games']} games, saved by this process")
    print(f"  saved -> Redis position (worker process): p50 {v['p50']:.1f} ms  p99 {v['p99']:.1f} ms  (n={v['n']})")
    print(f"  saved -> SSE stream of another process:  p50 {s['p50']:.1f} ms  p99 {s['p99']:.1f} ms  (n={s['n']})")
    print(
        f"  rebuild: {r['rebuild_events_per_s']:.0f} events/s; reading every event alone {r['read_only_events_per_s']:.0f} "
        f"events/s (the rebuild takes {r['rebuild_costs_x_reading']:.2f}x that; {r['stored_events']} stored events, "
        f"{r.get('projected_events', '?')} of them projected)"
    )
    for name, v in r["view_read_ms"].items():
        print(f"  a seat's view, {name + ':':9}               p50 {v['p50']:.2f} ms  p99 {v['p99']:.2f} ms  (n={v['n']})")
    print("  lobby page, median ms:          scan of every row (before)  index (now)   scan/index")
    for name, sizes in r["lobby_ms"].items():
        for n, queries in sizes.items():
            for label, t in queries.items():
                print(f"    {name:6} {int(n):>6} games {label:12} {t['scan']:10.2f} {t['index']:12.3f} {t['ratio']:10.0f}x")
