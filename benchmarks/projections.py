"""The ``projections`` suite, on the real PostgreSQL and Redis of the machine.

Lag: this process saves commands through its own ``GameService`` (one process), a separate
``aegis project`` worker keeps the views in Redis, and a separate ``aegis serve`` process holds an SSE
stream that this process reads. For every event: the time from its save returning to (a) the Redis
spectator view showing its seq and (b) its arrival on the stream from the other process; p50 and p99.

Rebuild: every view rebuilt from the stored events into a fresh Redis prefix, against reading the same
events without projecting them, in the same run.

Servers: the PostgreSQL at 127.0.0.1:5432, database ``test`` (a schema of its own is made and dropped), and
``REDIS_URL`` (default redis://127.0.0.1:6379/15; a key prefix of its own is used and removed).
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import secrets
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

from benchmarks.harness import Service, postgres_schema, projection_worker
from benchmarks.loadgen import percentile
from domain.kernel.prompts import Option
from projections.store import RedisViewStore
from projections.views import view_key
from projections.worker import read_only, rebuild
from service.games import GameService
from service.settings import load


def projections(events_wanted: int = 1000) -> dict[str, Any]:
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
        return _measure(events_wanted, service, server.url, views, fresh)


def _measure(events_wanted: int, service: GameService, url: str, views: RedisViewStore, fresh: RedisViewStore) -> dict[str, Any]:
    """Save commands here; time each event to the worker's Redis view and to the other process's stream."""
    saved: dict[tuple[str, int], float] = {}
    in_view: dict[tuple[str, int], float] = {}
    on_stream: dict[tuple[str, int], float] = {}
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
            threading.Thread(target=_poll_view, args=(views, view_key(g, "spectator"), g, in_view, stop), daemon=True),
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
                prompts = [p for p in service.view(gid, token)["prompts"] if not p["free"]]
                if prompts:
                    _, events, _ = service.submit(gid, token, Option.from_dict(rng.choice(prompts[0]["options"])).pick(rng))
                    now = time.perf_counter()
                    for e in events:
                        saved[(g, e["seq"])] = now
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
    view_lags = [in_view[k] - t for k, t in saved.items() if k in in_view]
    stream_lags = [on_stream[k] - t for k, t in saved.items() if k in on_stream]
    rebuilt = rebuild(service.store, fresh)
    floor = read_only(service.store)
    return {
        "suite": "projections",
        "games": games,
        "events": len(saved),
        "redis_view_lag_ms": {
            "n": len(view_lags),
            "p50": percentile(view_lags, 50) * 1000,
            "p99": percentile(view_lags, 99) * 1000,
        },
        "sse_other_process_lag_ms": {
            "n": len(stream_lags),
            "p50": percentile(stream_lags, 50) * 1000,
            "p99": percentile(stream_lags, 99) * 1000,
        },
        "rebuild_events_per_s": rebuilt["events_per_s"],
        "read_only_events_per_s": floor["events_per_s"],
        "rebuild_costs_x_reading": rebuilt["seconds"] / floor["seconds"] if floor["seconds"] else 0.0,
        "stored_events": rebuilt["events"],
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


def _poll_view(views: Any, key: str, gid: str, seen: dict, stop: threading.Event) -> None:
    last = 0
    while not stop.is_set():
        raw = views.redis.get(views._key(key))
        if raw is not None:
            seq = json.loads(raw)["seq"]
            now = time.perf_counter()
            for s in range(last + 1, seq + 1):
                seen.setdefault((gid, s), now)
            last = max(last, seq)
        time.sleep(0.0005)


def print_projections(r: dict[str, Any]) -> None:
    v, s = r["redis_view_lag_ms"], r["sse_other_process_lag_ms"]
    print(f"projections: {r['events']} events in {r['games']} games, saved by this process")
    print(f"  saved -> Redis view (worker process):    p50 {v['p50']:.1f} ms  p99 {v['p99']:.1f} ms  (n={v['n']})")
    print(f"  saved -> SSE stream of another process:  p50 {s['p50']:.1f} ms  p99 {s['p99']:.1f} ms  (n={s['n']})")
    print(
        f"  rebuild: {r['rebuild_events_per_s']:.0f} events/s; reading alone {r['read_only_events_per_s']:.0f} events/s "
        f"(projecting costs {r['rebuild_costs_x_reading']:.1f}x reading; {r['stored_events']} stored events)"
    )
