"""``aegis project`` (the projection worker) and ``aegis rebuild-projections``."""

from __future__ import annotations

import argparse
import logging
import signal
import sys
import threading
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from aegis.projections.store import ViewStore
    from aegis.service.games import GameStore
    from aegis.service.settings import Settings


def _parts() -> tuple[GameStore, ViewStore, Settings]:
    from aegis.projections.store import make_store
    from aegis.service.games import GameStore
    from aegis.service.settings import load

    settings = load()
    return GameStore(settings), make_store(settings.redis_url, settings.redis_prefix), settings


def project(args: argparse.Namespace) -> int:
    from aegis.projections.worker import Worker

    if not args.report > 0:  # also refuses nan
        print(f"aegis project: --report is a number of seconds above 0, not {args.report}", file=sys.stderr)
        return 2
    app, store, settings = _parts()
    if settings.redis_url is None:
        print("aegis project: REDIS_URL is not set; without Redis the projections run inside 'aegis serve'", file=sys.stderr)
        return 2
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")
    worker = Worker(app, store, keep=settings.cache_games)
    stop = threading.Event()

    def stopping(*_: Any) -> None:
        stop.set()
        worker.stop()

    signal.signal(signal.SIGTERM, stopping)
    signal.signal(signal.SIGINT, stopping)
    def position() -> str:
        """Where the projections stand, read from Redis; while Redis does not answer, that (the worker retries its
        steps meanwhile and goes on once Redis is back: a progress line never stops the projector)."""
        try:
            return f"position {store.position()}"
        except Exception as err:
            return f"Redis does not answer ({type(err).__name__}: {err}); projecting again once it does"

    print(f"aegis project: keeping the projections in Redis: {position()}", flush=True)
    thread = threading.Thread(target=worker.run, daemon=True)
    thread.start()
    while not stop.wait(args.report):
        print(f"aegis project: {position()}, {worker.applied} events applied", flush=True)
    thread.join(timeout=10)
    app.close()
    return 0


def rebuild_projections(args: argparse.Namespace) -> int:
    from aegis.cli.records import store_missing
    from aegis.service.store_open import one_line

    if store_missing("rebuild-projections"):  # it reads the events; an empty store would rebuild nothing
        return 1
    app, store, settings = _parts()
    try:
        return _rebuild(args, app, store, settings)
    except Exception as err:
        from redis.exceptions import RedisError

        if not isinstance(err, RedisError):
            raise
        print(
            f"aegis: Redis at {_where(settings.redis_url)} does not answer ({type(err).__name__}: {one_line(str(err))}): "
            "the projections were not rebuilt; run 'aegis rebuild-projections' again once it answers",
            file=sys.stderr,
        )
        return 1
    finally:
        app.close()


def _where(url: str | None) -> str:
    """A Redis URL without its credentials (``redis://:secret@host``), for a message."""
    from urllib.parse import urlsplit

    parts = urlsplit(url or "")
    return f"{parts.scheme}://{parts.hostname or ''}{f':{parts.port}' if parts.port else ''}{parts.path}"


def _rebuild(args: argparse.Namespace, app: GameStore, store: ViewStore, settings: Settings) -> int:
    from aegis.cli.progress import Progress
    from aegis.projections.worker import read_only, rebuild

    total = app.recorder.max_notification_id() or 0
    where = "Redis" if settings.redis_url else "memory (nothing is kept: set REDIS_URL to rebuild the Redis views)"
    print(f"aegis rebuild-projections: {total} stored events into {where}", flush=True)
    progress = None if args.quiet else Progress(total, "rebuild")
    result = rebuild(app, store, progress)
    floor = read_only(app)
    seconds = result["seconds"]
    print(
        f"rebuilt: events={floor['events']} projected={result['projected']} seconds={seconds:.2f} "
        f"events_per_s={floor['events'] / seconds if seconds else 0:.0f} (the lifecycle, player and dispute events are "
        f"projected, the rest passed over unread; reading every event alone: {floor['events_per_s']:.0f} events/s, "
        f"the rebuild took {seconds / floor['seconds'] if floor['seconds'] else 0:.2f}x that)"
    )
    return 0


def add_parsers(sub: Any) -> None:
    p = sub.add_parser(
        "project",
        help="run the projection worker (lobby and player records in Redis)",
        description="Follow the event store and keep what the API processes share (the lobby list and its index, players' "
        "records, ratings and game lists) in Redis, "
        "resuming from the position stored with the views. Needs REDIS_URL; run the API with AEGIS_PROJECTOR=worker.",
    )
    p.add_argument("--report", type=float, default=30.0, help="seconds between progress lines (default 30)")
    p.set_defaults(run=project)
    r = sub.add_parser(
        "rebuild-projections",
        help="rebuild every projection from the events",
        description="Empty the projections (the lobby and its index, players' records) and project every stored event "
        "again, with a progress bar; reports events/second "
        "against reading the same events without projecting them.",
    )
    r.add_argument("--quiet", action="store_true", help="no progress bar")
    r.set_defaults(run=rebuild_projections)
