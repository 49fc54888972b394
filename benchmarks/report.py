"""``docs/performance.md`` from benchmark results: one table per suite, the machine, and the load suite's
latency plot copied beside it. Suites missing from the run are taken from their newest JSON in
``benchmarks/results/`` (their own date is shown)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from benchmarks.run import RESULTS, SUITES

PLOT = "load-latency.png"


def newest(suite: str) -> dict[str, Any] | None:
    found = sorted(RESULTS.glob(f"{suite}-*.json"))
    return json.loads(found[-1].read_text()) if found else None


def _engine(r: dict[str, Any]) -> list[str]:
    lines = [
        "| seats | commands | events | decide+evolve commands/s | evolve alone events/s | decide+evolve costs |",
        "|---:|---:|---:|---:|---:|---:|",
    ]
    for row in r["rows"]:
        lines.append(
            f"| {row['seats']} | {row['commands']} | {row['events']} | {row['decide_evolve_commands_per_s']:.0f} "
            f"| {row['evolve_events_per_s']:.0f} | {row['ratio_evolve_to_decide_evolve']:.1f}x evolve |"
        )
    if r.get("by_type"):
        lines += [
            "",
            f"By command type (each command timed alone; evolving one event takes {r['evolve_us_per_event']:.2f} µs). "
            "A command that causes few events, such as a reaction answer that leaves its window open, costs mostly "
            "its check (the seat's prompt is built and matched) and the flow's look at who is asked next:",
            "",
            "| command type | commands | µs each | events each | costs |",
            "|---|---:|---:|---:|---:|",
        ]
        for t in r["by_type"]:
            ratio = f"{t['ratio_to_evolving_its_events']:.1f}x evolving its events" if t["ratio_to_evolving_its_events"] else "-"
            lines.append(
                f"| {t['type']} | {t['commands']} | {t['us_per_command']:.1f} | {t['events_per_command']:.1f} | {ratio} |"
            )
    return lines


def _store(r: dict[str, Any]) -> list[str]:
    lines = [
        f"{r['games']} games x {r['seats']} seats, {r['commands']} commands, {r['stored_events']} stored events.",
        "",
        "| store | service (HTTP path) commands/s | bare eventsourcing save commands/s | the service costs |",
        "|---|---:|---:|---:|",
    ]
    for row in r["rows"]:
        lines.append(
            f"| {row['store']} | {row['service_commands_per_s']:.0f} | {row['bare_save_commands_per_s']:.0f} "
            f"| {row['ratio_service_to_bare']:.1f}x bare |"
        )
    lines.append(
        f"| raw sqlite3 commits (floor) | | {r['raw_sqlite3_commands_per_s']:.0f} "
        f"| bare SQLite save = {r['ratio_bare_sqlite_to_raw']:.1f}x raw |"
    )
    if r.get("skipped"):
        lines += ["", f"Not measured: {r['skipped']}"]
    return lines


def _load(r: dict[str, Any]) -> list[str]:
    light = r["light"]
    lines = [
        f"{r['games']} concurrent games of {r['seats']} seats, each played to the end by bots over HTTP on loopback "
        f"(one thread and one keep-alive connection per game), against gunicorn with {r['workers']} workers x "
        f"{r['threads']} threads on {r['store']}. The bots ran on the same machine: server CPU {r['server_cpu_s']:.0f} s, "
        f"bots CPU {r['bots_cpu_s']:.0f} s.",
        "",
        f"- **{r['finished']}** of {r['games']} games finished, **{r['errors']} errors**, in {r['play_s']:.0f} s",
        f"- throughput: **{r['commands_per_s']:.0f} commands/s**, {r['requests_per_s']:.0f} requests/s (commands and views)",
        f"- a command's median latency is {r['command_p50_x_healthz_p50']:.0f}x that of a lone `GET /healthz` (the baseline)",
        f"- then {light['games']} games one at a time (light load): {light['commands_per_s']:.0f} commands/s, "
        f"{light['finished']} finished, {light['errors']} errors",
        "",
        "Every bot sends its next request as soon as the last is answered, so under the full load the latency is",
        "mostly queueing: concurrent requests / throughput (Little's law). The light-load rows (one game at a time)",
        "show what a request costs when it waits behind no other.",
        "",
        "| request (concurrent games) | n | p50 ms | p90 ms | p99 ms | max ms |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    rows = (
        (f"POST /commands ({r['games']})", r["command_latency"]),
        (f"GET /view ({r['games']})", r["view_latency"]),
        ("POST /commands (1)", light["command_latency"]),
        ("GET /view (1)", light["view_latency"]),
    )
    for name, row in rows:
        lines.append(
            f"| {name} | {row['n']} | {row['p50_ms']:.1f} | {row['p90_ms']:.1f} | {row['p99_ms']:.1f} | {row['max_ms']:.1f} |"
        )
    b = r["baseline_healthz_latency"]
    lines.append(
        f"| GET /healthz, alone (baseline) | {b['n']} | {b['p50_ms']:.1f} | {b['p90_ms']:.1f} | {b['p99_ms']:.1f} "
        f"| {b['max_ms']:.1f} |"
    )
    e = r.get("embedded")
    if e:
        ec, ev = e["command_latency"], e["view_latency"]
        lines += [
            "",
            f"The same load on {e['store']}, the store a first install uses: **{e['finished']}** of {e['games']} games "
            f"finished, **{e['errors']} errors**, **{e['commands_per_s']:.0f} commands/s** "
            f"({e['commands_per_s'] / r['commands_per_s']:.2f}x the run above); `POST /commands` p50 {ec['p50_ms']:.1f} ms, "
            f"p99 {ec['p99_ms']:.1f} ms; `GET /view` p50 {ev['p50_ms']:.1f} ms, p99 {ev['p99_ms']:.1f} ms.",
        ]
    lines += ["", f"![Latency distribution of the load suite]({PLOT})"]
    return lines


def _projections(r: dict[str, Any]) -> list[str]:
    v, s = r["redis_position_lag_ms"], r["sse_other_process_lag_ms"]
    return [
        f"{r['events']} events in {r['games']} games, saved by the benchmark's process on PostgreSQL.",
        "",
        "| lag | n | p50 ms | p99 ms |",
        "|---|---:|---:|---:|",
        f"| saved -> Redis projections (`aegis project` worker) | {v['n']} | {v['p50']:.1f} | {v['p99']:.1f} |",
        f"| saved -> SSE stream held by another API process | {s['n']} | {s['p50']:.1f} | {s['p99']:.1f} |",
        "",
        f"Rebuilding every projection: {r['rebuild_events_per_s']:.0f} events/s, against {r['read_only_events_per_s']:.0f} "
        f"events/s reading alone: projecting costs {r['rebuild_costs_x_reading']:.1f}x reading.",
        "",
        "| lobby page (median ms) | scan of every row | index | scan / index |",
        "|---|---:|---:|---:|",
        *(
            f"| {name}, {int(n):,} games, {label} | {t['scan']:.2f} | {t['index']:.3f} | {t['ratio']:.0f}x |"
            for name, sizes in r.get("lobby_ms", {}).items()
            for n, queries in sizes.items()
            for label, t in queries.items()
        ),
    ]


def _seek(r: dict[str, Any]) -> list[str]:
    return [
        f"{r['seeks']} random steps of one finished game of {r['events']} events.",
        "",
        "| seek | p50 ms | p99 ms |",
        "|---|---:|---:|",
        f"| replay engine (checkpoints every 64 events) | {r['checkpoint_p50_ms']:.2f} | {r['checkpoint_p99_ms']:.2f} |",
        f"| refold from the first event (baseline) | {r['refold_p50_ms']:.2f} | {r['refold_p99_ms']:.2f} |",
        "",
        f"Checkpoints are {r['speedup_p50']:.0f}x faster at the median; building them took {r['build_ms']:.0f} ms.",
    ]


def _prompts(r: dict[str, Any]) -> list[str]:
    return [
        f"{r['games']} games of {r['seats']} seats (random bots), every seat's table and prompts as JSON after every "
        f"command: {r['views']} views.",
        "",
        "| view bytes p50 | view bytes max | most options in a prompt | most complete commands they stand for |",
        "|---:|---:|---:|---:|",
        f"| {r['view_bytes_p50']} | {r['view_bytes_max']} | {r['most_options']} | {r['most_commands']} |",
    ]


SECTIONS = {
    "engine": ("Engine: decide+evolve in-process, against evolve alone", _engine),
    "prompts": ("Prompts: compact options at 10 seats, against the commands they stand for", _prompts),
    "store": ("Store: the HTTP command path, against a bare save and raw sqlite3", _store),
    "load": ("Load: concurrent games over HTTP against gunicorn", _load),
    "projections": ("Lag: saved event to Redis view and to another process's SSE stream", _projections),
    "seek": ("Replay: seeking in a long game, against refolding", _seek),
}


def write_report(results: dict[str, dict[str, Any]], docs: Path) -> list[Path]:
    """Write ``docs/performance.md`` (and the load plot) from ``results``, completed by the newest saved ones."""
    docs.mkdir(parents=True, exist_ok=True)
    chosen = {s: results.get(s) or newest(s) for s in SUITES}
    lines = [
        "# Performance",
        "",
        "Written by `aegis bench --docs` (every suite; `aegis bench SUITE` runs one). Each figure that depends on the",
        "machine is also given as a ratio against a baseline measured in the same run, so runs on other machines",
        "compare by their ratios. The JSON of each run is in `benchmarks/results/` (not committed). On a shared",
        "virtual machine absolute figures can differ by up to 2x between runs minutes apart; the ratios move far less.",
        "",
    ]
    machines = {json.dumps(r["machine"], sort_keys=True) for r in chosen.values() if r}
    for m in sorted(machines):
        d = json.loads(m)
        lines.append(
            f"Machine: {d.get('cpu')}, {d.get('cpus')} CPUs, {d.get('memory_gib')} GiB, {d.get('system')}, {d.get('python')}."
        )
    written = []
    for suite in SUITES:
        title, render = SECTIONS[suite]
        r = chosen[suite]
        lines += ["", f"## {title}", ""]
        if r is None:
            lines.append("Not run yet.")
            continue
        lines.append(f"Run {r.get('at', '?')}, {r.get('seconds', 0):.0f} s.")
        lines.append("")
        lines += render(r)
        if suite == "load" and r.get("plot") and Path(r["plot"]).exists():
            shutil.copyfile(r["plot"], docs / PLOT)
            written.append(docs / PLOT)
    path = docs / "performance.md"
    path.write_text("\n".join(lines) + "\n")
    return [path, *written]
