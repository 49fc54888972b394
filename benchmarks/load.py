"""The ``load`` suite: many games at once, played by bots over real HTTP on loopback, against ``aegis serve``
under gunicorn with several workers, set up as the README says for workers: PostgreSQL, and the projections in
Redis kept by one ``aegis project`` worker (SQLite, or projections in each API process, where this machine lacks
one of them; the result says which); then the same load on the embedded defaults a first install uses (a SQLite
file, the projections in each API process), reported beside it (``embedded``).

Every game has its own thread and keep-alive connection (``benchmarks/loadgen.py``). The games are set
up first, then all of them play at once to the end. Reported: commands and requests per second over the
playing time, latency p50/p99/max of ``POST /commands`` and ``GET /view``, errors (anything but the
expected answer; must be 0), and the CPU time the bots and the server each used, since on a small machine
they share the cores. The baseline of the same run is ``GET /healthz`` on the same server with no other
load: what one request through gunicorn and Flask costs with no game work at all.
"""

from __future__ import annotations

import contextlib
import os
import resource
import secrets
import tempfile
from pathlib import Path
from typing import Any

from benchmarks.harness import Service, postgres_schema, projection_worker
from benchmarks.loadgen import GameBot, Http, Load, Record, percentile, run_load
from benchmarks.pglock import LockSampler

WORKERS = 4
LIGHT = 5  # games played one at a time after the load
THREADS = 8
UNLOCKED_ENV = {"POSTGRES_ENABLE_DB_FUNCTIONS": "y"}
UNLOCKED_NOTE = (
    "POSTGRES_ENABLE_DB_FUNCTIONS=y makes eventsourcing 9.5.6 insert with a stored function that takes no table lock "
    "(NOTIFY; INSERT ... RETURNING notification_id): notification ids are then issued in insert order but may commit "
    "out of it, so a reader of the log (the projection worker, the event streams, both reading after their last id) "
    "can pass over an id that commits later and never see it. Measured here only for what the lock costs; not for use."
)


def _cpu_seconds(pids: list[int]) -> float:
    """User+system CPU seconds of these processes so far (from /proc; 0 where unreadable)."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for pid in pids:
        with contextlib.suppress(OSError, IndexError, ValueError):
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / tick
    return total


def _baseline(url: str, n: int = 500) -> list[float]:
    http = Http(url)
    try:
        return [http.request("GET", "/healthz").seconds for _ in range(n)]
    finally:
        http.close()


def _latency(values: list[float]) -> dict[str, float]:
    ms = 1000.0
    return {
        "n": len(values),
        "p50_ms": percentile(values, 50) * ms,
        "p90_ms": percentile(values, 90) * ms,
        "p99_ms": percentile(values, 99) * ms,
        "max_ms": max(values, default=0.0) * ms,
    }


def _progress(record: Record, seconds: float) -> None:
    print(
        f"  load: {seconds:5.0f} s, {record.commands():6d} commands, {record.finished:4d} games over, "
        f"{len(record.errors)} errors",
        flush=True,
    )


def _setup(stack: contextlib.ExitStack, tmp: Path, production: bool = True) -> tuple[dict[str, str], str, list[int]]:
    """The production setup of the README where this machine has it: PostgreSQL, the projections in Redis kept by
    one ``aegis project`` worker. Without PostgreSQL: SQLite; without Redis: projections in each API process.
    ``production`` False: the embedded defaults (a SQLite file, the projections in each API process)."""
    if not production:
        return {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(tmp / "load.sqlite")}, (
            "SQLite (the embedded default), projections in each API process"
        ), []
    try:
        env = stack.enter_context(postgres_schema("aegis_bench_"))
        setup = "PostgreSQL"
    except Exception as err:  # no PostgreSQL here: measure the embedded store instead, and say so
        print(f"  load: PostgreSQL does not answer ({type(err).__name__}); using SQLite", flush=True)
        env = {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(tmp / "load.sqlite")}
        setup = "SQLite"
    redis_url = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/15")
    try:
        import redis

        redis.Redis.from_url(redis_url, socket_connect_timeout=2).ping()
    except Exception as err:
        print(f"  load: Redis does not answer at {redis_url} ({type(err).__name__}); projections in each API process", flush=True)
        return env, setup + ", projections in each API process", []
    from aegis.projections.store import RedisViewStore

    prefix = f"aegis-bench-{secrets.token_hex(3)}:"
    env = {**env, "REDIS_URL": redis_url, "AEGIS_REDIS_PREFIX": prefix, "AEGIS_PROJECTOR": "worker"}
    stack.callback(lambda: RedisViewStore(redis_url, prefix).clear())
    worker = stack.enter_context(projection_worker(env))
    return env, setup + ", projections in Redis kept by one aegis project worker", [worker.pid]


def _summary(runs: list[Load]) -> dict[str, Any]:
    """Throughput, latency and errors of runs of the bots (one after the other)."""
    by_kind: dict[str, list[float]] = {}
    for run in runs:
        for kind, status, seconds in run.record.samples:
            if status:
                by_kind.setdefault(kind, []).append(seconds)
    commands = by_kind.get("command", [])
    requests = len(commands) + len(by_kind.get("view", []))
    play = sum(run.play_seconds for run in runs)
    errors = [e for run in runs for e in run.record.errors]
    return {
        "games": sum(len(run.bots) for run in runs),
        "finished": sum(run.record.finished for run in runs),
        "errors": len(errors),
        "error_samples": errors[:5],
        "setup_s": sum(run.setup_seconds for run in runs),
        "play_s": play,
        "commands": len(commands),
        "commands_per_s": len(commands) / play if play else 0.0,
        "requests_per_s": requests / play if play else 0.0,
        "command_latency": _latency(commands),
        "view_latency": _latency(by_kind.get("view", [])),
        "_samples": by_kind,
    }


def load(
    games: int = 200, seats: int = 3, workers: int = WORKERS, plot: Path | None = None, unlocked: bool = True
) -> dict[str, Any]:
    """The production setup under load (``run``), then, on PostgreSQL and with ``unlocked``, the same without the
    recorder's table lock (``unlocked``: measured, not safe), then the same load on the embedded defaults
    (``embedded``: SQLite, the store a first install uses)."""
    result = run(games, seats, workers, plot)
    if unlocked and result.get("pg_lock"):
        print(f"  load: the same without the table lock ({', '.join(f'{k}={v}' for k, v in UNLOCKED_ENV.items())})", flush=True)
        free = run(games, seats, workers, None, lock_free=True)
        result["unlocked"] = {k: free.get(k) for k in (*EMBEDDED_KEYS, "pg_lock", "server_cpu_s")}
        result["unlocked"]["note"] = UNLOCKED_NOTE
        result["unlocked_x_locked_commands_per_s"] = (
            free["commands_per_s"] / result["commands_per_s"] if result["commands_per_s"] else 0.0
        )
    print("  load: the same on the embedded defaults (SQLite, projections in each API process)", flush=True)
    embedded = run(games, seats, workers, None, production=False)
    result["embedded"] = {k: embedded[k] for k in EMBEDDED_KEYS}
    return result


EMBEDDED_KEYS = (
    "store", "games", "finished", "errors", "play_s", "commands", "commands_per_s", "command_latency", "view_latency"
)  # fmt: skip


def run(
    games: int, seats: int, workers: int, plot: Path | None, production: bool = True, lock_free: bool = False
) -> dict[str, Any]:
    """``games`` concurrent games (the load), then ``LIGHT`` games one at a time (no request waits behind
    another: what a request itself costs). On PostgreSQL the table lock is sampled while the games play;
    ``lock_free``: with ``UNLOCKED_ENV`` (no table lock)."""
    with contextlib.ExitStack() as stack:
        tmp = Path(stack.enter_context(tempfile.TemporaryDirectory()))
        env, store, helpers = _setup(stack, tmp, production)
        postgres = env.get("PERSISTENCE_MODULE") == "eventsourcing.postgres"
        if postgres and lock_free:
            env, store = {**env, **UNLOCKED_ENV}, store + ", no table lock (POSTGRES_ENABLE_DB_FUNCTIONS)"
        service = Service({**env, "AEGIS_REACTION_SECONDS": "0"}, tmp / "serve.log", workers=workers, threads=THREADS)
        service.start()
        stack.callback(service.stop)
        baseline = _baseline(service.url)
        server_pids = [*helpers, service.proc.pid, *service.worker_pids()] if service.proc else helpers
        server_cpu0, client0 = _cpu_seconds(server_pids), resource.getrusage(resource.RUSAGE_SELF)
        print(f"  load: {games} games of {seats} seats, gunicorn {workers} workers x {THREADS} threads, {store}", flush=True)
        sampler = LockSampler(env) if postgres else None

        def sample(_bots: list[GameBot]) -> None:
            if sampler is not None:
                sampler.start()

        try:
            run = run_load(service.url, games, seats=seats, seed="bench-load", progress=_progress, before_play=sample)
        finally:
            if sampler is not None:
                sampler.stop()
        client1 = resource.getrusage(resource.RUSAGE_SELF)
        server_cpu = _cpu_seconds(server_pids) - server_cpu0
        client_cpu = (client1.ru_utime - client0.ru_utime) + (client1.ru_stime - client0.ru_stime)
        print(f"  load: then {LIGHT} games one at a time (light load)", flush=True)
        light = _summary([run_load(service.url, 1, seats=seats, seed=f"bench-light-{i}") for i in range(LIGHT)])
    main = _summary([run])
    alone = _latency(baseline)
    samples = main.pop("_samples")
    light.pop("_samples")
    result = {
        "suite": "load",
        "store": store,
        "workers": workers,
        "threads": THREADS,
        "seats": seats,
        **main,
        "light": light,
        "baseline_healthz_latency": alone,
        "command_p50_x_healthz_p50": main["command_latency"]["p50_ms"] / alone["p50_ms"] if baseline else 0.0,
        "server_cpu_s": server_cpu,
        "bots_cpu_s": client_cpu,
        "pg_lock": sampler.result() if sampler is not None else None,
    }
    if plot is not None:
        result["plot"] = str(plot)
        draw(samples.get("command", []), samples.get("view", []), result, plot)
    return result


def draw(commands: list[float], views: list[float], result: dict[str, Any], path: Path) -> None:
    """The latency distribution of the run as a PNG: a histogram per request kind on a log scale, with the
    p50 and p99 of the commands marked."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    ms = 1000.0
    data = [np.array(commands) * ms, np.array(views) * ms]
    low = max(0.1, min((d.min() for d in data if d.size), default=1.0))
    high = max((d.max() for d in data if d.size), default=10.0)
    bins = list(np.logspace(np.log10(low), np.log10(high * 1.01), 60))
    fig, ax = plt.subplots(figsize=(9, 4.5), dpi=100)
    ax.hist(data[0], bins=bins, alpha=0.65, label=f"POST /commands (n={len(commands)})", color="#1f6feb")
    ax.hist(data[1], bins=bins, alpha=0.45, label=f"GET /view (n={len(views)})", color="#d29922")
    for p, style in ((50, "--"), (99, ":")):
        value = result["command_latency"][f"p{p}_ms"]
        ax.axvline(value, color="#0b3d91", linestyle=style, label=f"commands p{p} = {value:.0f} ms")
    ax.set_xscale("log")
    ax.set_xlabel("latency (ms, log scale)")
    ax.set_ylabel("requests")
    ax.set_title(
        f"{result['games']} concurrent games over HTTP, gunicorn {result['workers']} workers, {result['store'].split(',')[0]}: "
        f"{result['commands_per_s']:.0f} commands/s, {result['errors']} errors",
        fontsize=10,
    )
    ax.legend(fontsize=8)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path)
    plt.close(fig)


def print_load(r: dict[str, Any]) -> None:
    c, v, b, light = r["command_latency"], r["view_latency"], r["baseline_healthz_latency"], r["light"]
    print(
        f"load: {r['games']} concurrent games x {r['seats']} seats over HTTP, gunicorn {r['workers']} workers x "
        f"{r['threads']} threads, {r['store']}"
    )
    print(f"  {r['finished']} games played to the end in {r['play_s']:.1f} s (setup {r['setup_s']:.1f} s), errors: {r['errors']}")
    print(f"  throughput: {r['commands_per_s']:.0f} commands/s, {r['requests_per_s']:.0f} requests/s")
    print(f"  {'':24} {'n':>7} {'p50 ms':>8} {'p90 ms':>8} {'p99 ms':>8} {'max ms':>8}")
    rows = (
        (f"POST /commands ({r['games']})", c),
        (f"GET /view ({r['games']})", v),
        ("POST /commands (1)", light["command_latency"]),
        ("GET /view (1)", light["view_latency"]),
        ("GET /healthz, alone", b),
    )
    for name, row in rows:
        figures = " ".join(f"{row[k]:>8.1f}" for k in ("p50_ms", "p90_ms", "p99_ms", "max_ms"))
        print(f"  {name:24} {row['n']:>7} {figures}")
    print(
        f"  light load ({light['games']} games one at a time): {light['commands_per_s']:.0f} commands/s, "
        f"{light['finished']} finished, errors: {light['errors']}"
    )
    print(
        f"  a command's median is {r['command_p50_x_healthz_p50']:.0f}x the baseline's (a lone GET /healthz); "
        f"CPU: server {r['server_cpu_s']:.0f} s, bots {r['bots_cpu_s']:.0f} s (they share the machine's cores)"
    )
    e = r.get("embedded")
    if e:
        ec = e["command_latency"]
        print(
            f"  on {e['store']}: {e['finished']} of {e['games']} finished, errors: {e['errors']}, "
            f"{e['commands_per_s']:.0f} commands/s ({e['commands_per_s'] / r['commands_per_s']:.2f}x the above), "
            f"POST /commands p50 {ec['p50_ms']:.1f} ms, p99 {ec['p99_ms']:.1f} ms"
        )
    k = r.get("pg_lock")
    if k:
        print(
            f"  table lock ({k['samples']} samples every {k['mean_interval_ms']:.0f} ms, {k['saves']} saves, "
            f"{k['saves_per_s']:.0f} saves/s): a save waiting in {k['waiting_fraction']:.0%} of samples, waiters mean "
            f"{k['waiters_mean']:.2f} max {k['waiters_max']}; held {k['held_fraction']:.0%} of the time; per save "
            f"wait {k['wait_ms_per_save']:.1f} ms, hold {k['hold_ms_per_save']:.1f} ms (wait share "
            f"{k['wait_share_of_locked_save']:.0%}); the lock passes at most {k['lock_ceiling_saves_per_s']:.0f} saves/s"
        )
        print(f"  holder states (fraction of samples): {k['holder_states']}")
    u = r.get("unlocked")
    if u:
        print(
            f"  without the table lock (not safe, measured only): {u['commands_per_s']:.0f} commands/s "
            f"({r['unlocked_x_locked_commands_per_s']:.2f}x), POST /commands p50 {u['command_latency']['p50_ms']:.1f} ms, "
            f"p99 {u['command_latency']['p99_ms']:.1f} ms, {u['finished']} of {u['games']} finished, errors: {u['errors']}"
        )
