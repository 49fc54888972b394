"""Benchmark suites. Each prints a table and writes JSON with the machine's description to
``benchmarks/results/``. Figures that depend on the machine are ratios against a baseline measured in
the same run.

engine: commands per second through ``decide`` + ``evolve`` in-process, replaying commands recorded
from bot games (so the bots' own thinking is not timed), against ``evolve`` alone over the same
events (the floor: applying what was decided).

http: commands per second through the REST API on SQLite, against a bare eventsourcing save of the
same events (see ``benchmarks/http.py``).

seek: random steps of a finished game of 5,000+ events with checkpoints, against refolding.

projections: lag from save to the Redis view and to an SSE stream of another process, p50/p99, and
rebuild speed against reading alone (see ``benchmarks/projections.py``; needs PostgreSQL and Redis).
"""

from __future__ import annotations

import json
import os
import platform
import time
from pathlib import Path
from typing import Any

from domain.everaegis.config import make_config
from domain.everaegis.decide import decide, start
from domain.everaegis.evolve import apply, fold
from domain.simulation import play_game

RESULTS = Path(__file__).resolve().parent / "results"


def machine() -> dict[str, Any]:
    return {
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "machine": platform.machine(),
        "system": platform.system(),
        "cpus": os.cpu_count(),
    }


def engine(games: int = 40) -> dict[str, Any]:
    rows = []
    for seats in (3, 5, 8):
        seeds = [f"bench-{seats}-{i}" for i in range(games)]
        recorded = [play_game(seats=seats, variants="simpleton", seed=s, bots=["random"]).commands for s in seeds]
        config = make_config(seats=seats, variants="simpleton", reaction_seconds=0)
        logs = []
        t0 = time.perf_counter()
        for seed, commands in zip(seeds, recorded, strict=True):
            events = start(config, seed)
            state = fold(config, events)
            for cmd in commands:
                new = decide(state, cmd)
                for e in new:
                    apply(state, e)
                events.extend(new)
            logs.append(events)
        t_decide = time.perf_counter() - t0
        t0 = time.perf_counter()
        for events in logs:
            fold(config, events)
        t_evolve = time.perf_counter() - t0
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
    return {"suite": "engine", "machine": machine(), "rows": rows}


def print_engine(result: dict[str, Any]) -> None:
    print("engine: decide+evolve over recorded bot commands, against evolve alone over the same events")
    head = ("seats", "commands", "events", "commands/s (decide+evolve)", "events/s (evolve)", "decide+evolve costs")
    print(f"{head[0]:>5} {head[1]:>9} {head[2]:>8} {head[3]:>27} {head[4]:>18} {head[5]:>20}")
    for r in result["rows"]:
        print(
            f"{r['seats']:>5} {r['commands']:>9} {r['events']:>8} {r['decide_evolve_commands_per_s']:>27.0f}"
            f" {r['evolve_events_per_s']:>18.0f} {r['ratio_evolve_to_decide_evolve']:>16.1f}x evolve"
        )


SUITES = ("engine", "http", "projections", "seek")


def main(suite: str = "engine", games: int = 40) -> int:
    if suite not in SUITES:
        print(f"unknown suite {suite}; suites: {', '.join(SUITES)}")
        return 2
    RESULTS.mkdir(parents=True, exist_ok=True)
    if suite == "engine":
        result = engine(games)
        print_engine(result)
    elif suite == "http":
        from benchmarks.http import http, print_http

        result = {**http(games), "machine": machine()}
        print_http(result)
    elif suite == "seek":
        from benchmarks.seek import print_seek, seek

        result = {**seek(), "machine": machine()}
        print_seek(result)
    else:
        from benchmarks.projections import print_projections, projections

        result = {**projections(max(games, 1000)), "machine": machine()}
        print_projections(result)
    path = RESULTS / f"{suite}-{time.strftime('%Y%m%dT%H%M%S')}.json"
    path.write_text(json.dumps(result, indent=2))
    print(f"written {path}")
    return 0
