"""``docs/performance.md`` from benchmark results: one table per suite, the machine, and the load suite's
latency plot copied beside it. Suites missing from the run are taken from their newest JSON in
``benchmarks/results/`` (their own date is shown)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from benchmarks.footprint import table
from benchmarks.suites import RESULTS, SUITES

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
            "the pipeline around its one event: its check (matched against what the seat's prompt would accept, "
            "without building the prompt) and the flow's look at who is asked next:",
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
        f"{r['games']} games x {r['seats']} seats, {r.get('rounds', 1)} rounds on fresh stores, {r['commands']} commands, "
        f"{r['stored_events']} stored events. \"In the app\": from the WSGI call into Flask to its answer (routing, the body, "
        "the rules, the save, the answer), the service's own work; \"with the test client\": the same requests timed "
        "around Flask's test client, which also builds each request and reads each answer, as a client does in its own "
        "process. The bare eventsourcing application saves the same events, one save per command, twice: \"beside each "
        "command\", the command's events saved just before the next command is sent (after its views were read; the "
        "service's projector held meanwhile), so that each pair meets the same moment of the same disk and the bare save "
        "runs amid other work as the service's does; and \"back to back\", every command's events saved again in a tight "
        "loop after the games, with the processor's caches kept warm by nothing else. \"The app costs\" is against the "
        "first.",
        "",
        "| store | in the app commands/s | with the test client commands/s | bare save beside each command commands/s "
        "| the app costs | each round | bare saves back to back commands/s | the app against those |",
        "|---|---:|---:|---:|---:|---|---:|---:|",
    ]
    for row in r["rows"]:
        app = row.get("app_commands_per_s", row["service_commands_per_s"])
        ratio = row.get("ratio_app_to_bare", row["ratio_service_to_bare"])
        rounds = ", ".join(f"{x:.2f}x" for x in row.get("rounds_ratio_app_to_bare", []))
        back = row.get("bare_back_to_back_commands_per_s")
        back_cells = f"{back:.0f} | {row['ratio_app_to_back_to_back']:.2f}x" if back else " | "
        lines.append(
            f"| {row['store']} | {app:.0f} | {row['service_commands_per_s']:.0f} | {row['bare_save_commands_per_s']:.0f} "
            f"| {ratio:.2f}x bare | {rounds} | {back_cells} |"
        )
    lines.append(
        f"| raw sqlite3 commits (floor) | | | | | | {r['raw_sqlite3_commands_per_s']:.0f} "
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
    lines += _pg_lock(r)
    lines += ["", f"![Latency distribution of the load suite]({PLOT})"]
    return lines


def _pg_lock(r: dict[str, Any]) -> list[str]:
    """The PostgreSQL recorder's table lock under the load (``benchmarks/pglock.py``), and the same load without it."""
    k = r.get("pg_lock")
    if not k:
        return []
    states = k["holder_states"]
    held = k["held_fraction"] or 1.0
    holder = ", ".join(
        f"{name} {states.get(key, 0.0) / held:.0%}"
        for key, name in (
            ("running", "running"),
            ("io", "WAL I/O"),
            ("handoff", "granted, not yet running again"),
            ("lock", "another lock"),
            ("client", "waiting for the service mid-statement"),
            ("idle_in_transaction", "idle in transaction (waiting for the service)"),
            ("other", "other"),
        )
        if states.get(key)
    )
    lines = [
        "",
        "**The table lock.** Every save takes `LOCK TABLE <events> IN EXCLUSIVE MODE` (as eventsourcing's PostgreSQL "
        "recorder does, so that the notification log commits in id order) and holds it to its commit: one save at a time "
        "in the whole store. The service takes it, NOTIFYs and INSERTs in one statement (a function, "
        "`service/postgres.py`), so the lock is not held across a round trip to the service. "
        f"Sampled from the server every {k['interval_ms']:.0f} ms while the {r['games']} games played "
        f"(`pg_locks` joined to `pg_stat_activity`, this run's table only; {k['samples']} samples, one every "
        f"{k['mean_interval_ms']:.0f} ms on average; {k['saves']} saves of {k['events']} events, "
        f"{k['saves_per_s']:.0f} saves/s):",
        "",
        "| samples with a save waiting for the lock | waiters mean | waiters max | lock held | wait per save (ms) "
        "| hold per save (ms) | wait share of a save's time in PostgreSQL | most saves/s the lock passes | of which used |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
        f"| **{k['waiting_fraction']:.0%}** | {k['waiters_mean']:.2f} | {k['waiters_max']} | {k['held_fraction']:.0%} "
        f"| {k['wait_ms_per_save']:.1f} | {k['hold_ms_per_save']:.1f} | **{k['wait_share_of_locked_save']:.0%}** "
        f"| {k['lock_ceiling_saves_per_s']:.0f} | "
        f"{k['saves_per_s'] / k['lock_ceiling_saves_per_s'] if k['lock_ceiling_saves_per_s'] else 0:.0%} |",
        "",
        f"While held, the holder was: {holder or 'never seen'}. The wait and hold per save, the share and the ceiling "
        "follow from the samples by Little's law (every save takes the lock once: mean waiters = saves/s x wait, "
        "fraction of time held = saves/s x hold); the saves are counted exactly (distinct transaction ids of the events "
        "stored while sampling). `pg_stat_statements` is not loaded on this server, so the lock's time is not measured "
        'per statement. "Granted, not yet running again": PostgreSQL grants the next waiter the lock as the holder '
        'lets go, and the waiter needs a CPU to go on; "idle in transaction": PostgreSQL waits for the service '
        "mid-transaction (the library's own insert sends `COMMIT` after a round trip; the service's one statement "
        "never leaves a transaction open).",
    ]
    u = r.get("unlocked")
    if u:
        uk = u.get("pg_lock") or {}
        lines += [
            "",
            f"The same load without the table lock (`POSTGRES_ENABLE_DB_FUNCTIONS=y`): **{u['commands_per_s']:.0f} commands/s**, "
            f"**{r.get('unlocked_x_locked_commands_per_s', 0):.2f}x** the run above; `POST /commands` p50 "
            f"{u['command_latency']['p50_ms']:.1f} ms, p99 {u['command_latency']['p99_ms']:.1f} ms; {u['finished']} of "
            f"{u['games']} finished, {u['errors']} errors"
            + (
                f"; saves then waited for NOTIFY's commit lock (one per cluster) in {uk['notify_waiting_fraction']:.0%} "
                f"of samples (against {k['notify_waiting_fraction']:.0%} with the table lock)"
                if uk
                else ""
            )
            + f"; server CPU {u['server_cpu_s']:.0f} s in {u['play_s']:.0f} s of play (against {r['server_cpu_s']:.0f} s "
            f"in {r['play_s']:.0f} s with the lock). {u['note']}",
        ]
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
        f"Rebuilding every projection: {r['rebuild_events_per_s']:.0f} events of the log/s, against "
        f"{r['read_only_events_per_s']:.0f} events/s reading every event alone: the rebuild takes "
        f"{r['rebuild_costs_x_reading']:.2f}x that, since it reads only the events a projection is made of "
        f"({r.get('projected_events', '?')} of {r['stored_events']}: games' lifecycles, players, disputes).",
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


def _streams(r: dict[str, Any]) -> list[str]:
    lines = [
        f"{r['games']} games of {r['seats']} seats played by bots over HTTP (one thread each, as fast as answered) against "
        f"`aegis serve` (uvicorn under gunicorn, {r['workers']} workers) on a fresh SQLite file: first with no stream "
        "open, then as many games again (the same bot seeds; games of the same kind, not the same moves) with "
        f"{r['streams']} streams open on them, spread over "
        "the games and, in each, over its seats and the spectator, held by one asyncio process. Each stream's event "
        "ids are checked against `GET /events` (same token) after its view, and its end. Open files allowed: "
        f"{r['nofile'][0]}. The bots, the streams' client and the service share the machine's cores. Each setup plays "
        f"{r.get('rounds', 1)} rounds (without, then with the streams) on one service; the table pools the commands of "
        "every round, and the list below it gives each round's own p99 ratio.",
        "",
        "| setup | streams | command p50 ms (none / with) | command p99 ms (none / with) | p99 ratio | commands/s (none / with) "
        "| events delivered | streams complete | open all (s) | open p99 ms | errors |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for run in r["runs"]:
        q, w = run["no_streams"], run["with_streams"]
        qc, wc = q["command_latency"], w["command_latency"]
        lines.append(
            f"| {run['setup']} | {run['opened']} | {qc['p50_ms']:.0f} / {wc['p50_ms']:.0f} | {qc['p99_ms']:.0f} / "
            f"{wc['p99_ms']:.0f} | **{run['p99_ratio']:.2f}x** | {q['commands_per_s']:.0f} / {w['commands_per_s']:.0f} "
            f"| {run['events_delivered']} of {run['events_expected']} | {run['streams_complete']} of "
            f"{run['streams'] * run.get('rounds', 1)} "
            f"| {run['open_s']:.1f} | {run['open_latency']['p99_ms']:.0f} | {q['errors'] + w['errors'] + run['open_failed']} |"
        )
    lines += [
        "",
        "The issue asks for a command p99 with 2,000 streams at most 2x the p99 without, every stream receiving every "
        "event. With SQLite alone a process finds the commands the other process stored by looking at the store every "
        "0.2 s, so its streams lag by up to that; with Redis the notices cross at once.",
        "",
    ]
    for run in r["runs"]:
        lines.append(
            f"- {run['setup']}: server CPU with the streams {run['server_cpu_with_streams_s']:.0f} s, the streams' "
            f"client {run['holder_cpu_s']:.0f} s; last stream ended {run['drain_s']:.1f} s after the last command; "
            f"each round's p99 ratio: {', '.join(f'{x:.2f}x' for x in run.get('round_p99_ratios', [run['p99_ratio']]))}"
        )
        lines += [f"  - problem: {p}" for p in run["problems"] + run["open_errors"] + run["server_log_errors"]]
    if r.get("skipped"):
        lines += ["", f"Not measured: {r['skipped']}"]
    return lines


def _peer(r: dict[str, Any]) -> list[str]:
    lines = [
        f"A cycle: one move, then every one of {r['seats']} seats holding its new view, over loopback, {r['cycles']} "
        "cycles in a row after a warm-up. boardgame.io: its `Server` (socket.io) in one Node process, a 4-seat card game "
        "with secret hands (`playerView`), one socket.io client per seat in another Node process; the move runs on the "
        "server only and the cycle ends when every client has the new state. Aegis: `aegis serve` in one process on its "
        "default SQLite file; the seat asked posts a command, then every seat fetches its view with its own token, or "
        "(streams of views) every seat holds its event stream with `?views=1` and the cycle ends when each has pushed "
        "the view as of the command's last event. "
        "`aegis bench peer` installs the pinned boardgame.io with npm (benchmarks/peer/).",
        "",
        "| server | store | cycles/s | cycle p50 ms | cycle p99 ms |",
        "|---|---|---:|---:|---:|",
    ]
    if r.get("bgio_memory"):
        for key, store in (("bgio_memory", "in memory"), ("bgio_flatfile", "FlatFile (node-persist, written at once)")):
            row = r[key]
            lines.append(
                f"| boardgame.io {r['boardgameio']} (Node {r['node']}) | {store} | {row['cycles_per_s']:.0f} "
                f"| {row['cycle_latency']['p50_ms']:.2f} | {row['cycle_latency']['p99_ms']:.2f} |"
            )
    ways = [("aegis", "fetch every view"), ("aegis_streams", "streams of views")]
    for key, way in ways:
        if r.get(key):
            a = r[key]
            lines.append(
                f"| Aegis ({way}) | SQLite | {a['cycles_per_s']:.0f} | {a['cycle_latency']['p50_ms']:.2f} "
                f"| {a['cycle_latency']['p99_ms']:.2f} |"
            )
    if r.get("bgio_memory"):
        lines.append("")
        for key, way in ways:
            if r.get(f"{key}_x_memory") is not None:
                lines.append(
                    f"Aegis ({way}) does **{r[f'{key}_x_memory']:.2f}x** the cycles of boardgame.io in memory (the issue "
                    f"asks at least 0.5x) and **{r[f'{key}_x_flatfile']:.2f}x** those on flat files (asks at least 1x)."
                )
        retries = r["bgio_memory"].get("retries", 0) + r["bgio_flatfile"].get("retries", 0)
        reconnects = r["bgio_memory"].get("reconnects", 0) + r["bgio_flatfile"].get("reconnects", 0)
        if retries or reconnects:
            lines.append(
                f"boardgame.io's driver sent {retries} move(s) again after a second without the new state, and connected "
                f"a seat again {reconnects} time(s) before the timed cycles."
            )
    if r.get("skipped"):
        lines += ["", f"Not measured: {r['skipped']}"]
    return lines


SECTIONS = {
    "engine": ("Engine: decide+evolve in-process, against evolve alone", _engine),
    "prompts": ("Prompts: compact options at 10 seats, against the commands they stand for", _prompts),
    "store": ("Store: the HTTP command path, against a bare save and raw sqlite3", _store),
    "load": ("Load: concurrent games over HTTP against gunicorn", _load),
    "projections": (
        "Projections: lag to Redis and to another process's SSE stream, views on read, the lobby index",
        _projections,
    ),
    "seek": ("Replay: seeking in a long game, against refolding", _seek),
    "streams": ("Streams: bots playing with and without 2,000 open event streams", _streams),
    "peer": ("Peer: a move and every seat's new view, against boardgame.io", _peer),
    "footprint": ("Footprint: one game in memory and in its snapshots, by its length", lambda r: table(r).split("\n")),
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
