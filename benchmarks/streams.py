"""The ``streams`` suite: many open event streams held against one machine's service while bots play.

``aegis serve`` (uvicorn under gunicorn, ``WORKERS`` workers) on a fresh SQLite file. Bots play ``GAMES`` games of
``SEATS`` seats at once over HTTP (``benchmarks/loadgen.py``) with no stream open: the baseline. Then as many games
again (the same bot seeds; games of the same kind, not move for move the same) with N streams
(``GET /api/games/{id}/stream``) opened on them after
they are set up and before any plays, spread evenly over the games and, within each game, over its seats' tokens
and the spectator. The streams are held by one asyncio process of their own (``benchmarks/sseclient.py``). Reported
per setup: command latency p50/p99 with and without the streams and their ratio (the issue asks for at most 2x at
the p99 with 2,000 streams), the time to open the streams (each until its ``view`` frame), and every stream checked
against its game: the ``id`` of every event frame it got, in order, must be exactly the seqs that
``GET /api/games/{id}/events`` (with the same token) lists after the stream's view, and it must get the ``end``.

Each setup plays ``ROUNDS`` rounds (the bots alone, then with the streams) on one service, and pools the commands of
all its rounds: a single round's p99 moves by half its value between runs on a shared machine. Each round's own
p99 ratio is reported beside the pooled one.

Run twice when Redis answers: SQLite alone (each process finds the commands the other process stored by looking at
the store every 0.2 s, ``service/store_watch.py``) and SQLite with ``REDIS_URL`` (notices across processes at once).
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks.harness import ROOT, Service, clean_env
from benchmarks.load import _cpu_seconds, _latency
from benchmarks.loadgen import GameBot, Http, Load, run_load
from benchmarks.sseclient import raise_nofile

GAMES = 20  # games played at once, in both runs
SEATS = 3
WORKERS = 2
SEED = "bench-streams"
ROUNDS = 3  # each setup: this many rounds of the bots without and with the streams, their latencies pooled
FINISH_SECONDS = 60.0  # after the bots are done, how long every stream has to get its last events and its end
REDIS_URL = "redis://127.0.0.1:6379/15"


class Holder:
    """``python -m benchmarks.sseclient``: the process that holds the streams."""

    def __init__(self) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "benchmarks.sseclient"],
            env={**clean_env(), "PYTHONPATH": str(ROOT)},
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )

    def ask(self, data: dict[str, Any]) -> dict[str, Any]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps(data) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"the stream holder exited with {self.proc.wait()}")
        answer: dict[str, Any] = json.loads(line)
        return answer

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(timeout=30)


def spread(bots: list[GameBot], n: int) -> list[tuple[str, int | None, str | None]]:
    """``n`` streams over the games of ``bots``: stream i on game i mod G, as seat (i div G) mod (seats + 1) (the
    last of which is the spectator: no token). (game, seat or None, token or None)."""
    out = []
    for i in range(n):
        bot = bots[i % len(bots)]
        who = (i // len(bots)) % (len(bot.tokens) + 1)
        seat = who if who < len(bot.tokens) else None
        out.append((str(bot.game), seat, bot.tokens[seat] if seat is not None else None))
    return out


def event_seqs(url: str, game: str, token: str | None) -> list[int]:
    """Every seq ``GET /api/games/{game}/events`` lists for this token (the spectator without one)."""
    http = Http(url)
    seqs: list[int] = []
    try:
        after = 0
        while True:
            reply = http.request("GET", f"/api/games/{game}/events?after={after}&limit=5000", token=token)
            if reply.status != 200:
                raise RuntimeError(f"GET /events of game {game} answered {reply.status}: {reply.body}")
            found = [int(e["seq"]) for e in reply.body["events"]]
            seqs += found
            if not found or reply.body["next_after"] >= reply.body["seq"]:
                return seqs
            after = int(reply.body["next_after"])
    finally:
        http.close()


def check(url: str, held: list[tuple[str, int | None, str | None]], got: list[dict[str, Any]]) -> dict[str, Any]:
    """Each stream's event ids against its game's events as its reader may see them."""
    expected: dict[tuple[str, str | None], list[int]] = {}
    delivered = wanted = complete = ended = 0
    problems: list[str] = []
    for (game, seat, token), stream in zip(held, got, strict=True):
        key = (game, token)
        if key not in expected:
            expected[key] = event_seqs(url, game, token)
        view = stream["view_seq"]
        if view is None:
            problems.append(f"game {game} seat {seat}: no view ({stream['error']})")
            continue
        want = [s for s in expected[key] if s > view]
        wanted += len(want)
        delivered += len(set(stream["seqs"]) & set(want))
        ended += stream["end"] is not None
        if stream["seqs"] == want and stream["end"] == (expected[key][-1] if expected[key] else view):
            complete += 1
        elif len(problems) < 5:
            missing = sorted(set(want) - set(stream["seqs"]))
            extra = len(stream["seqs"]) - len(set(stream["seqs"]))
            problems.append(
                f"game {game} seat {seat}: after view {view}, {len(stream['seqs'])} of {len(want)} events, "
                f"missing {missing[:5]}{'...' if len(missing) > 5 else ''}, {extra} twice, end {stream['end']}, "
                f"{stream['error'] or 'no error'}"
            )
    return {
        "events_delivered": delivered,
        "events_expected": wanted,
        "streams_complete": complete,
        "streams_ended": ended,
        "problems": problems,
    }


def _summary(runs: list[Load]) -> dict[str, Any]:
    """The bots' runs pooled: every command of them in one latency distribution."""
    by_kind: dict[str, list[float]] = {}
    for run in runs:
        for kind, status, seconds in run.record.samples:
            if status:
                by_kind.setdefault(kind, []).append(seconds)
    commands = by_kind.get("command", [])
    play_s = sum(run.play_seconds for run in runs)
    return {
        "games": sum(len(run.bots) for run in runs),
        "finished": sum(run.record.finished for run in runs),
        "errors": sum(len(run.record.errors) for run in runs),
        "error_samples": [e for run in runs for e in run.record.errors][:5],
        "play_s": play_s,
        "commands": len(commands),
        "commands_per_s": len(commands) / play_s if play_s else 0.0,
        "command_latency": _latency(commands),
        "view_latency": _latency(by_kind.get("view", [])),
    }


def setup_run(name: str, env: dict[str, str], n: int, games: int, seats: int, workers: int, rounds: int = 1) -> dict[str, Any]:
    """One setup, on one service: ``rounds`` times the bots alone, then the bots with ``n`` streams open on their
    games. The latencies of every round are pooled: the p99 of a single round of a few thousand commands moves by
    half its value from run to run on a shared machine, so one round cannot settle a ratio; each round's own ratio
    is kept beside the pooled one, to show the spread."""
    with contextlib.ExitStack() as stack:
        tmp = Path(stack.enter_context(tempfile.TemporaryDirectory()))
        store = {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(tmp / "streams.sqlite")}
        service = Service({**store, **env, "AEGIS_REACTION_SECONDS": "0"}, tmp / "serve.log", workers=workers)
        service.start()
        stack.callback(service.stop)
        pids = [service.proc.pid, *service.worker_pids()] if service.proc else []
        quiet_runs: list[Load] = []
        loud_runs: list[Load] = []
        each: list[dict[str, Any]] = []
        for r in range(1, rounds + 1):
            print(f"  streams: {name}: round {r} of {rounds}: {games} games of {seats} seats, no stream open", flush=True)
            quiet_runs.append(run_load(service.url, games, seats=seats, seed=SEED))
            loud, facts = _with_streams(service, name, n, games, seats, pids)
            loud_runs.append(loud)
            each.append(facts | {"p99_ratio": _ratio(_summary([loud]), _summary([quiet_runs[-1]]), "p99_ms")})
        log_errors = [line for line in service.log_tail(400).splitlines() if "Error" in line or "Traceback" in line]
    quiet, loud_all = _summary(quiet_runs), _summary(loud_runs)
    latencies = [f["open_latency_s"] for f in each]
    summed = ("events_delivered", "events_expected", "streams_complete", "streams_ended", "keepalives", "open_failed")
    return {
        "setup": name,
        "streams": n,
        "rounds": rounds,
        "opened": min(f["opened"] for f in each),
        **{key: sum(f[key] for f in each) for key in summed},
        "open_errors": [e for f in each for e in f["open_errors"]][:5],
        "open_s": max(f["open_s"] for f in each),
        "open_latency": _latency([x for lat in latencies for x in lat]),
        "no_streams": quiet,
        "with_streams": loud_all,
        "p50_ratio": _ratio(loud_all, quiet, "p50_ms"),
        "p99_ratio": _ratio(loud_all, quiet, "p99_ms"),
        "round_p99_ratios": [f["p99_ratio"] for f in each],
        "drain_s": max(f["drain_s"] for f in each),
        "holder_cpu_s": sum(f["holder_cpu_s"] for f in each),
        "server_cpu_with_streams_s": sum(f["server_cpu_s"] for f in each),
        "server_log_errors": log_errors[:5],
        "problems": [p for f in each for p in f["problems"]][:5],
    }


def _with_streams(service: Service, name: str, n: int, games: int, seats: int, pids: list[int]) -> tuple[Load, dict[str, Any]]:
    """One round of the bots with ``n`` streams open on their games (held by a fresh stream holder), and what the
    streams got, checked against the games' events."""
    with contextlib.ExitStack() as stack:
        holder = Holder()
        stack.callback(holder.close)
        held: list[tuple[str, int | None, str | None]] = []
        opened: dict[str, Any] = {}

        def open_streams(bots: list[GameBot]) -> None:
            held.extend(spread(bots, n))
            print(f"  streams: {name}: opening {n} streams on {len(bots)} games", flush=True)
            spec = {"port": service.port, "streams": [[g, t] for g, _, t in held], "opening": 64}
            opened.update(holder.ask(spec))
            print(
                f"  streams: {name}: {opened['opened']} open in {opened['open_s']:.1f} s ({opened['failed']} failed); "
                f"the same games again with them",
                flush=True,
            )

        cpu0 = _cpu_seconds(pids)
        loud = run_load(service.url, games, seats=seats, seed=SEED, before_play=open_streams)
        server_cpu = _cpu_seconds(pids) - cpu0
        t0 = time.perf_counter()
        got = holder.ask({"finish": FINISH_SECONDS})
        drain_s = time.perf_counter() - t0
        verified = check(service.url, held, got["streams"])
    return loud, {
        "opened": opened.get("opened", 0),
        "open_failed": opened.get("failed", n),
        "open_errors": opened.get("errors", []),
        "open_s": opened.get("open_s", 0.0),
        "open_latency_s": opened.get("open_latency_s", []),
        "keepalives": sum(s["keepalives"] for s in got["streams"]),
        "drain_s": drain_s,
        "holder_cpu_s": got["cpu_s"],
        "server_cpu_s": server_cpu,
        **verified,
    }


def _ratio(loud: dict[str, Any], quiet: dict[str, Any], key: str) -> float:
    base = quiet["command_latency"][key]
    return float(loud["command_latency"][key] / base) if base else 0.0


def streams(
    n: int = 2000, games: int = GAMES, seats: int = SEATS, workers: int = WORKERS, rounds: int = ROUNDS
) -> dict[str, Any]:
    """SQLite alone, then (when Redis answers) SQLite with Redis notices: each with and without ``n`` streams."""
    nofile = raise_nofile()  # the service inherits it (each stream is a socket there too)
    games = max(1, min(games, n))
    setups: list[tuple[str, dict[str, str]]] = [("SQLite", {})]
    skipped = None
    redis_url = os.environ.get("REDIS_URL", REDIS_URL)
    try:
        import redis

        redis.Redis.from_url(redis_url, socket_connect_timeout=2).ping()
        prefix = f"aegis-bench-{secrets.token_hex(3)}:"
        setups.append(("SQLite + Redis notices", {"REDIS_URL": redis_url, "AEGIS_REDIS_PREFIX": prefix}))
    except Exception as err:
        skipped = f"SQLite + Redis notices: Redis does not answer at {redis_url} ({type(err).__name__})"
        print(f"  streams: {skipped}", flush=True)
    runs = []
    for name, env in setups:
        try:
            runs.append(setup_run(name, env, n, games, seats, workers, rounds))
        finally:
            if "REDIS_URL" in env:
                from aegis.projections.store import RedisViewStore

                with contextlib.suppress(Exception):
                    RedisViewStore(env["REDIS_URL"], env["AEGIS_REDIS_PREFIX"]).clear()
    return {
        "suite": "streams",
        "streams": n,
        "games": games,
        "seats": seats,
        "workers": workers,
        "rounds": rounds,
        "nofile": list(nofile),
        "runs": runs,
        "skipped": skipped,
    }


def print_streams(r: dict[str, Any]) -> None:
    print(
        f"streams: {r['streams']} streams on {r['games']} games of {r['seats']} seats played by bots, "
        f"aegis serve (asgi) with {r['workers']} workers, open files allowed {r['nofile'][0]}; {r['rounds']} rounds "
        "each without and with them, their commands pooled"
    )
    for run in r["runs"]:
        q, w = run["no_streams"], run["with_streams"]
        print(
            f"  {run['setup']}: {run['opened']} of {run['streams']} streams open in {run['open_s']:.1f} s "
            f"(each p50 {run['open_latency']['p50_ms']:.0f} ms, p99 {run['open_latency']['p99_ms']:.0f} ms)"
        )
        print(f"    {'':22} {'games':>5} {'errors':>6} {'commands/s':>10} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8}")
        for label, row in (("no stream", q), (f"{run['opened']} streams", w)):
            c = row["command_latency"]
            print(
                f"    {label:22} {row['finished']:>5} {row['errors']:>6} {row['commands_per_s']:>10.0f} "
                f"{c['p50_ms']:>8.1f} {c['p99_ms']:>8.1f} {c['max_ms']:>8.1f}"
            )
        print(
            f"    command p50 {run['p50_ratio']:.2f}x, p99 {run['p99_ratio']:.2f}x without streams (each round's p99: "
            f"{', '.join(f'{x:.2f}x' for x in run['round_p99_ratios'])}); events delivered {run['events_delivered']} of "
            f"{run['events_expected']}; {run['streams_complete']} of {run['streams'] * run['rounds']} streams complete and "
            f"in order, {run['streams_ended']} got their end (within {run['drain_s']:.1f} s of the last command)"
        )
        print(f"    CPU with streams: server {run['server_cpu_with_streams_s']:.0f} s, stream holder {run['holder_cpu_s']:.0f} s")
        for p in run["problems"] + run["open_errors"] + run["server_log_errors"]:
            print(f"    ! {p}")
    if r.get("skipped"):
        print(f"  not run: {r['skipped']}")
