"""While Redis does not answer, a process's background loops (its subscription to every game's notices, its
projection step) try again less and less often (``service/outage.py``) and say so in a few lines, not three a
second for ever; once Redis is back, one line says so and the work goes on. A real Redis: none at first on the
port (connections refused), then a ``redis-server`` of the test's own started on that port."""

from __future__ import annotations

import logging
import time

import pytest

from aegis.projections.store import make_store
from aegis.projections.worker import Worker
from aegis.service.broker import RedisBroker
from aegis.service.games import GameStore
from aegis.service.outage import Outage
from aegis.service.settings import load
from benchmarks.harness import RedisServer
from tests.conftest import need_server


def _lines(caplog: pytest.LogCaptureFixture, logger: str) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == logger and r.levelno >= logging.WARNING]


@pytest.fixture
def later_redis(tmp_path):
    """A port where no Redis listens yet, and ``start()`` to start one there."""
    try:
        server = RedisServer(tmp_path)
    except FileNotFoundError as err:
        need_server("a redis-server of the test's own", err)
    yield server
    server.kill()


def _wait(condition, seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.05)


def test_the_notices_subscription_backs_off_while_redis_is_away_and_says_when_it_is_back(caplog, later_redis):
    caplog.set_level(logging.WARNING, logger="aegis.service.broker")
    broker = RedisBroker(later_redis.url, "aegis-test-outage:")
    with broker.listen_all() as listener:
        t0 = time.monotonic()
        while time.monotonic() - t0 < 5:
            listener.get(timeout=0.2)  # the hub's pace: it must still return within its timeout
        down = _lines(caplog, "aegis.service.broker")
        # before: a line every 0.5 s (10 in 5 s); now the first failure, then a line 10 s into the outage
        assert 1 <= len(down) <= 2, down
        assert "cannot listen to every game's notices" in down[0] and "Connection refused" in down[0], down
        later_redis.start()
        _wait(broker.carrying, 40, "the subscription to come back")
        back = _lines(caplog, "aegis.service.broker")[len(down) :]
        assert any("works again after" in line for line in back), back
        broker.publish("g1", 7)
        _wait(lambda: any(n.seq == 7 for n in listener.get(timeout=0.2)), 10, "a notice through Redis")


def test_the_projection_worker_backs_off_while_redis_is_away_and_projects_once_it_is_back(caplog, later_redis, tmp_path):
    caplog.set_level(logging.WARNING, logger="aegis.projections.worker")
    settings = load({"SQLITE_DBNAME": str(tmp_path / "aegis.sqlite")})
    app = GameStore(settings)
    views = make_store(later_redis.url, "aegis-test-outage:")
    worker = Worker(app, views).start()
    try:
        time.sleep(5)
        down = _lines(caplog, "aegis.projections.worker")
        assert 1 <= len(down) <= 2, down  # before: one a second
        assert down[0].startswith("projection step failed, retrying: ConnectionError"), down
        later_redis.start()
        _wait(lambda: any("works again" in line for line in _lines(caplog, "aegis.projections.worker")), 40, "recovery")
    finally:
        worker.stop()
        app.close()


def test_an_outage_spaces_its_attempts_and_its_lines_out_and_starts_over_after_a_success(caplog):
    now = [0.0]
    outage = Outage(logging.getLogger("aegis.test.outage"), "cannot reach it", clock=lambda: now[0])
    caplog.set_level(logging.WARNING, logger="aegis.test.outage")
    waits = []
    for _ in range(12):
        waits.append(outage.failed(ConnectionError("refused")))
        now[0] += waits[-1]
    assert waits[:8] == [0.5, 1, 2, 4, 8, 16, 30, 30]
    lines = _lines(caplog, "aegis.test.outage")
    assert lines[0] == "cannot reach it: ConnectionError: refused; trying again in 0.5 s, then less often (every 30 s at most)"
    assert [line.split(" (")[0] for line in lines[1:]] == [
        "cannot reach it: still failing after 16 s",
        "cannot reach it: still failing after 62 s",
        "cannot reach it: still failing after 122 s",  # 10, 20, 40 s after the last line: the next one 80 s on
    ], lines
    outage.succeeded()
    assert _lines(caplog, "aegis.test.outage")[-1] == f"cannot reach it: works again after {now[0]:.0f} s (12 attempts failed)"
    assert outage.due() == 0 and outage.failed(ConnectionError("again")) == 0.5
