"""The benchmark suites still run (at a tiny size: the figures themselves are never asserted, they are for
``aegis bench``), their results carry their baselines and the machine, and the performance page is written
from them with the load suite's plot."""

from __future__ import annotations

import json

import pytest

from benchmarks.load import load
from benchmarks.report import write_report
from benchmarks.run import machine
from benchmarks.store import store
from tests.conftest import need_server

pytestmark = pytest.mark.slow  # whole games: CI runs them; pytest -m 'not slow' leaves them out


def _postgres() -> None:
    try:
        import psycopg

        psycopg.connect(host="127.0.0.1", port=5432, dbname="test", user="postgres", connect_timeout=3).close()
    except Exception as err:
        need_server("PostgreSQL at 127.0.0.1:5432", err)


def test_store_and_load_suites_measure_against_their_baselines_and_write_the_page(tmp_path):
    _postgres()
    stored = store(games=1, seats=3, rounds=2)
    assert [row["store"] for row in stored["rows"]] == ["sqlite", "postgres"] and stored["skipped"] is None
    assert all(row["ratio_service_to_bare"] > 0 for row in stored["rows"]) and stored["ratio_bare_sqlite_to_raw"] > 0
    for row in stored["rows"]:  # the app's own time is part of the time around the test client
        assert 0 < row["ratio_app_to_bare"] < row["ratio_service_to_bare"] and len(row["rounds_ratio_app_to_bare"]) == 2
        # the bare application saved every command's events twice: beside each command, and back to back
        assert row["bare_save_commands_per_s"] > 0 and row["ratio_app_to_back_to_back"] > 0
        assert len(row["rounds_ratio_app_to_back_to_back"]) == 2

    plot = tmp_path / "load.png"
    loaded = load(games=4, plot=plot)
    assert loaded["errors"] == 0 and loaded["finished"] == 4
    assert loaded["light"]["errors"] == 0 and loaded["light"]["finished"] == loaded["light"]["games"] == 5
    assert loaded["command_latency"]["n"] == loaded["commands"] > 0
    assert loaded["command_latency"]["p50_ms"] <= loaded["command_latency"]["p99_ms"] <= loaded["command_latency"]["max_ms"]
    assert loaded["store"].startswith("PostgreSQL") and loaded["baseline_healthz_latency"]["n"] == 500
    embedded = loaded["embedded"]  # the same load on the embedded default store
    assert embedded["store"].startswith("SQLite") and embedded["errors"] == 0 and embedded["finished"] == 4
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    _lock_figures_are_sane(loaded)

    results = {
        "store": {**stored, "machine": machine(), "at": "now", "seconds": 1.0},
        "load": {**loaded, "machine": machine(), "at": "now", "seconds": 1.0},
    }
    written = write_report(results, tmp_path / "docs")
    page = (tmp_path / "docs" / "performance.md").read_text()
    assert [p.name for p in written] == ["performance.md", "load-latency.png"]
    assert "| postgres |" in page and "errors**" in page and "![Latency distribution" in page
    assert json.dumps(machine()["cpus"]) in page
    assert "**The table lock.**" in page and "The same load without the table lock" in page


def _lock_figures_are_sane(loaded: dict) -> None:
    """The table lock was sampled on this run's own table while the games played, every save counted; the figures
    are fractions, counts and non-negative times, consistent with each other (their values are never asserted)."""
    lock = loaded["pg_lock"]
    assert lock["table"].endswith("_events") and lock["sample_errors"] == [] and lock["samples"] > 0
    assert lock["saves"] > 0 and lock["events"] >= lock["saves"]  # a save stores one event or more, in one transaction
    assert 0 <= lock["waiting_fraction"] <= 1 and 0 <= lock["held_fraction"] <= 1 and 0 <= lock["wait_share_of_locked_save"] <= 1
    assert 0 <= lock["waiters_mean"] <= lock["waiters_max"]
    assert sum(lock["waiters_histogram"].values()) == lock["samples"]
    assert abs(sum(lock["holder_states"].values()) - lock["held_fraction"]) < 1e-9
    assert lock["wait_ms_per_save"] >= 0 and lock["hold_ms_per_save"] >= 0 and lock["lock_ceiling_saves_per_s"] >= 0
    unlocked = loaded["unlocked"]  # the same load with the library's lock-free insert function: no table lock taken
    assert unlocked["errors"] == 0 and unlocked["finished"] == 4 and "POSTGRES_ENABLE_DB_FUNCTIONS" in unlocked["store"]
    assert unlocked["pg_lock"]["saves"] > 0 and unlocked["pg_lock"]["held_fraction"] == 0 == unlocked["pg_lock"]["waiters_max"]
    assert loaded["unlocked_x_locked_commands_per_s"] > 0 and "not for use" in unlocked["note"]


def test_prompts_suite_reports_view_sizes_and_options_against_the_commands_they_stand_for():
    from benchmarks.prompts import prompts

    r = prompts(games=1, seats=10)
    assert r["views"] > 100 and 0 < r["view_bytes_p50"] <= r["view_bytes_max"] <= 32 * 1024
    assert 0 < r["most_options"] <= 100 < r["most_commands"]  # compact: a few options stand for hundreds of commands


def test_projections_suite_measures_lag_and_rebuild_against_reading():
    """The projections suite (PostgreSQL, Redis, another API process) runs at a tiny size: it broke once unseen."""
    _postgres()
    from benchmarks.projections import projections

    r = projections(events_wanted=60, lobby_sizes=(300,))
    assert r["redis_position_lag_ms"]["n"] > 0 and r["sse_other_process_lag_ms"]["n"] > 0
    assert r["view_read_ms"]["computed"]["n"] > 0 and set(r["lobby_ms"]) == {"memory", "redis"}
    assert r["rebuild_events_per_s"] > 0 and r["read_only_events_per_s"] > 0 and r["rebuild_costs_x_reading"] > 0


def test_footprint_suite_measures_a_game_in_memory_and_its_snapshots_against_the_log():
    from benchmarks.footprint import INTERVAL, run, table

    r = run(least=120)
    assert r["game_events"] >= 120 and r["game_bytes"] > 0 and r["log_bytes"] > 0
    assert len(r["snapshots"]) >= r["game_versions"] // INTERVAL - 1 > 0
    assert all(s["bytes"] > 0 and s["log_bytes"] > 0 for s in r["snapshots"])
    assert f"| {r['snapshots'][0]['version']} |" in table(r)


def test_streams_suite_delivers_every_event_to_every_stream_and_measures_against_no_stream(tmp_path):
    """The streams suite at a tiny size: every stream opens, gets every event of its game in order and its end, and
    the command latency is measured with and without the streams (the ratio is for ``aegis bench``, never asserted)."""
    from benchmarks.streams import streams

    r = streams(8, games=2, rounds=2)
    assert r["runs"] and r["runs"][0]["setup"] == "SQLite"
    for run in r["runs"]:  # two rounds, pooled: the figures count both
        assert run["opened"] == 8 and run["open_failed"] == 0, run["open_errors"]
        assert run["no_streams"]["errors"] == run["with_streams"]["errors"] == 0
        assert run["no_streams"]["finished"] == run["with_streams"]["finished"] == 4
        assert run["streams_complete"] == run["streams_ended"] == 16, run["problems"]
        assert run["events_delivered"] == run["events_expected"] > 0
        assert run["p99_ratio"] > 0 and run["open_latency"]["n"] == 16
        assert len(run["round_p99_ratios"]) == 2 and all(x > 0 for x in run["round_p99_ratios"])
    written = write_report({"streams": {**r, "machine": machine(), "at": "now", "seconds": 1.0}}, tmp_path / "docs")
    page = written[0].read_text()
    assert "## Streams" in page and "| SQLite | 8 |" in page


def test_peer_suite_runs_boardgameio_beside_aegis(tmp_path):
    """The peer suite at a tiny size: boardgame.io (installed from the npm registry, pinned) in memory and on flat files,
    and Aegis, each completing its cycles, every boardgame.io seat holding only its own hand."""
    import shutil

    from benchmarks.peer import Unavailable, install, peer

    try:
        install()
    except Unavailable as err:
        if shutil.which("node") is None or shutil.which("npm") is None:
            need_server("Node.js and npm", err)
        need_server("the npm registry (for boardgame.io)", err)
    r = peer(cycles=10, warmup=2)
    assert r["skipped"] is None and r["boardgameio"] == "0.50.2"
    for key in ("bgio_memory", "bgio_flatfile", "aegis", "aegis_streams"):
        assert r[key]["cycles"] == 10 and r[key]["cycles_per_s"] > 0 and r[key]["cycle_latency"]["n"] == 10
    assert r["bgio_memory"]["secret_hands"] and r["bgio_flatfile"]["secret_hands"]
    assert r["aegis_x_memory"] > 0 and r["aegis_x_flatfile"] > 0 and r["aegis_streams_x_flatfile"] > 0
    written = write_report({"peer": {**r, "machine": machine(), "at": "now", "seconds": 1.0}}, tmp_path / "docs")
    page = written[0].read_text()
    assert "| Aegis (fetch every view) | SQLite |" in page and "| Aegis (streams of views) | SQLite |" in page
