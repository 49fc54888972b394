"""The benchmark suites still run (at a tiny size: the figures themselves are never asserted, they are for
``aegis bench``), their results carry their baselines and the machine, and the performance page is written
from them with the load suite's plot."""

from __future__ import annotations

import json

from benchmarks.load import load
from benchmarks.report import write_report
from benchmarks.run import machine
from benchmarks.store import store
from tests.conftest import need_server


def _postgres() -> None:
    try:
        import psycopg

        psycopg.connect(host="127.0.0.1", port=5432, dbname="test", user="postgres", connect_timeout=3).close()
    except Exception as err:
        need_server("PostgreSQL at 127.0.0.1:5432", err)


def test_store_and_load_suites_measure_against_their_baselines_and_write_the_page(tmp_path):
    _postgres()
    stored = store(games=1, seats=3)
    assert [row["store"] for row in stored["rows"]] == ["sqlite", "postgres"] and stored["skipped"] is None
    assert all(row["ratio_service_to_bare"] > 0 for row in stored["rows"]) and stored["ratio_bare_sqlite_to_raw"] > 0

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

    results = {
        "store": {**stored, "machine": machine(), "at": "now", "seconds": 1.0},
        "load": {**loaded, "machine": machine(), "at": "now", "seconds": 1.0},
    }
    written = write_report(results, tmp_path / "docs")
    page = (tmp_path / "docs" / "performance.md").read_text()
    assert [p.name for p in written] == ["performance.md", "load-latency.png"]
    assert "| postgres |" in page and "errors**" in page and "![Latency distribution" in page
    assert json.dumps(machine()["cpus"]) in page


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
