"""Benchmark suites. Each prints a table and writes JSON with the machine's description to
``benchmarks/results/``. Figures that depend on the machine are ratios against a baseline measured in
the same run.

engine: commands per second through ``decide`` + ``evolve`` in-process, replaying commands recorded
from bot games (so the bots' own thinking is not timed), against ``evolve`` alone over the same
events (the floor: applying what was decided). ``push`` decides and applies in one. Each figure is the
best of ``REPEATS`` passes in process CPU time.

prompts: the size of a seat's table and prompts as JSON along whole 10-seat games, and the most options in a
prompt against the complete commands they stand for (``benchmarks/prompts.py``).

store: commands per second through the REST API on SQLite and on PostgreSQL, against a bare
eventsourcing save of the same events and raw sqlite3 commits of the same bytes (``benchmarks/store.py``).

load: at least 200 concurrent games played by bots over real HTTP against gunicorn with several workers:
throughput, latency p50/p99/max, errors, against a lone health check (``benchmarks/load.py``); on PostgreSQL the
recorder's table lock sampled while they play (``benchmarks/pglock.py``), and the same load without that lock.

seek (the replay suite): random steps of a finished game of 5,000+ events with checkpoints, against refolding.

projections: lag from save to the Redis view and to an SSE stream of another process, p50/p99, and
rebuild speed against reading alone (see ``benchmarks/projections.py``; needs PostgreSQL and Redis).

streams: bots playing with and without 2,000 open event streams on their games: command p50/p99 and their ratio,
stream open time, every event delivered to every stream (``benchmarks/streams.py``).

footprint: one long game read into a cache (memory, against its log as payload dicts) and its snapshots' stored
bytes by version, against the whole log at that version (``benchmarks/footprint.py``).

peer: a full move cycle (a move, then every seat holding its new view) on boardgame.io's server, in memory and on
flat files, against Aegis on SQLite (``benchmarks/peer.py``; needs Node and npm, else Aegis alone).
"""

from __future__ import annotations

import json
import os
import platform
import time
from pathlib import Path
from typing import Any

from aegis.domain.everaegis.config import make_config
from aegis.domain.everaegis.decide import push, start
from aegis.domain.everaegis.evolve import fold
from aegis.domain.everaegis.simulation import play_game
from benchmarks.suites import DEFAULT_SIZE, RESULTS, SUITES


def _proc_field(path: str, name: str) -> str | None:
    try:
        for line in Path(path).read_text().splitlines():
            key, _, value = line.partition(":")
            if key.strip() == name:
                return value.strip()
    except OSError:
        return None
    return None


def machine() -> dict[str, Any]:
    """What the figures were measured on."""
    memory = _proc_field("/proc/meminfo", "MemTotal")
    return {
        "cpu": _proc_field("/proc/cpuinfo", "model name") or platform.processor() or "unknown",
        "cpus": os.cpu_count(),
        "memory_gib": round(int(memory.split()[0]) / 2**20, 1) if memory else None,
        "system": f"{platform.system()} {platform.release()}",
        "machine": platform.machine(),
        "python": f"{platform.python_implementation()} {platform.python_version()}",
    }


REPEATS = 3  # engine passes; each figure is the best (process CPU time)


def engine(games: int = 40) -> dict[str, Any]:
    rows = []
    by_type: dict[str, list[float]] = {}  # command type -> [commands, seconds, events]
    for seats in (3, 5, 8):
        seeds = [f"bench-{seats}-{i}" for i in range(games)]
        recorded = [play_game(seats=seats, variants="simpleton", seed=s, bots=["random"]).commands for s in seeds]
        config = make_config(seats=seats, variants="simpleton", reaction_seconds=0)
        logs: list[list[Any]] = []
        t_decide = t_evolve = float("inf")
        for _ in range(REPEATS):  # the best of a few passes: a shared machine slows some passes down
            logs = []
            t0 = time.process_time()
            for seed, commands in zip(seeds, recorded, strict=True):
                events = start(config, seed)
                state = fold(config, events)
                for cmd in commands:
                    events.extend(push(state, cmd))  # decide, each event applied once to the state
                logs.append(events)
            t_decide = min(t_decide, time.process_time() - t0)
            t0 = time.process_time()
            for events in logs:
                fold(config, events)
            t_evolve = min(t_evolve, time.process_time() - t0)
        for seed, commands in zip(seeds, recorded, strict=True):  # again, each command timed: the cost by type
            state = fold(config, start(config, seed))
            for cmd in commands:
                c0 = time.perf_counter()
                caused = len(push(state, cmd))
                row = by_type.setdefault(cmd["type"], [0, 0.0, 0])
                row[0] += 1
                row[1] += time.perf_counter() - c0
                row[2] += caused
        n_commands = sum(len(c) for c in recorded)
        n_events = sum(len(e) for e in logs)
        rows.append(
            {
                "seats": seats,
                "games": games,
                "commands": n_commands,
                "events": n_events,
                "decide_evolve_commands_per_s": n_commands / t_decide,
                "evolve_events_per_s": n_events / t_evolve,
                "evolve_commands_per_s": n_commands / t_evolve,
                "ratio_evolve_to_decide_evolve": t_decide / t_evolve,
            }
        )
    evolve_us = sum(r["events"] for r in rows) and 1e6 * sum(r["events"] / r["evolve_events_per_s"] for r in rows) / sum(
        r["events"] for r in rows
    )
    types = [
        {
            "type": name,
            "commands": int(n),
            "us_per_command": 1e6 * t / n,
            "events_per_command": e / n,
            "ratio_to_evolving_its_events": (1e6 * t / n) / (evolve_us * e / n) if e else None,
        }
        for name, (n, t, e) in sorted(by_type.items(), key=lambda kv: -kv[1][1])
    ]
    return {"suite": "engine", "machine": machine(), "rows": rows, "by_type": types, "evolve_us_per_event": evolve_us}


def print_engine(result: dict[str, Any]) -> None:
    print("engine: decide+evolve over recorded bot commands, against evolve alone over the same events")
    for t in result.get("by_type", []):
        ratio = f"{t['ratio_to_evolving_its_events']:.1f}x" if t["ratio_to_evolving_its_events"] else "-"
        commands = "command, " if t["commands"] == 1 else "commands,"
        print(
            f"  {t['type']:>18}: {t['commands']:>6} {commands} {t['us_per_command']:6.1f} us each, "
            f"{t['events_per_command']:.1f} events each, {ratio} evolving them"
        )
    head = ("seats", "commands", "events", "commands/s (decide+evolve)", "events/s (evolve)", "decide+evolve costs")
    print(f"{head[0]:>5} {head[1]:>9} {head[2]:>8} {head[3]:>27} {head[4]:>18} {head[5]:>20}")
    for r in result["rows"]:
        print(
            f"{r['seats']:>5} {r['commands']:>9} {r['events']:>8} {r['decide_evolve_commands_per_s']:>27.0f}"
            f" {r['evolve_events_per_s']:>18.0f} {r['ratio_evolve_to_decide_evolve']:>16.1f}x evolve"
        )




def run_suite(suite: str, size: int, stamp: str) -> dict[str, Any]:
    """Run one suite, print its table and write its JSON (and the load suite's plot) to ``RESULTS``."""
    t0 = time.perf_counter()
    print(f"== {suite} ==", flush=True)
    if suite == "engine":
        result = engine(size)
        printer: Any = print_engine
    elif suite == "prompts":
        from benchmarks.prompts import print_prompts, prompts

        result, printer = prompts(size), print_prompts
    elif suite == "store":
        from benchmarks.store import print_store, store

        result, printer = store(size), print_store
    elif suite == "load":
        from benchmarks.load import load, print_load

        result, printer = load(size, plot=RESULTS / f"load-{stamp}.png"), print_load
    elif suite == "seek":
        from benchmarks.seek import print_seek, seek

        result, printer = seek(), print_seek
    elif suite == "footprint":
        from benchmarks.footprint import run, table

        result, printer = run(size), lambda r: print(table(r))
    elif suite == "streams":
        from benchmarks.streams import print_streams, streams

        result, printer = streams(size), print_streams
    elif suite == "peer":
        from benchmarks.peer import peer, print_peer

        result, printer = peer(size), print_peer
    else:
        from benchmarks.projections import print_projections, projections

        result, printer = projections(size), print_projections
    result = {**result, "machine": machine(), "seconds": time.perf_counter() - t0, "at": stamp}
    printer(result)
    path = RESULTS / f"{suite}-{stamp}.json"
    path.write_text(json.dumps(result, indent=2))
    print(f"written {path} ({result['seconds']:.0f} s)", flush=True)
    return result


def main(suite: str = "all", size: int | None = None, docs: Path | None = None) -> int:
    """``aegis bench [suite]``: one suite, or every suite then ``docs/performance.md`` from their results."""
    if suite != "all" and suite not in SUITES:
        print(f"unknown suite {suite}; suites: all, {', '.join(SUITES)}")
        return 2
    RESULTS.mkdir(parents=True, exist_ok=True)
    stamp = time.strftime("%Y%m%dT%H%M%S")
    t0 = time.perf_counter()
    results = {}
    failed = []
    for name in SUITES if suite == "all" else (suite,):
        try:
            results[name] = run_suite(name, size if size is not None else DEFAULT_SIZE[name], stamp)
        except Exception as err:  # one suite that cannot run (a missing server, a crash) stops none of the others
            if suite != "all":
                raise
            failed.append(name)
            print(f"== {name} FAILED, not measured: {type(err).__name__}: {err}", flush=True)
    if suite == "all":
        print(f"every suite ran in {time.perf_counter() - t0:.0f} s" + (f"; failed: {', '.join(failed)}" if failed else ""))
    if docs is not None:
        from benchmarks.report import write_report

        written = write_report(results, docs)
        print(f"written {', '.join(str(p) for p in written)}")
    return 1 if failed else 0
