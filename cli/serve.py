"""``aegis serve``: run the service. By default (``--server asgi``) uvicorn, in-process or as gunicorn's workers
with ``--workers N``: event streams are served asynchronously (``api/serving.py``) and hold no thread.
``--server wsgi`` is the former way, kept for comparison and as a fallback: Werkzeug (threaded) in-process or
gunicorn's threaded workers, where every open stream holds a thread."""

from __future__ import annotations

import argparse
import contextlib
import faulthandler
import logging
import sys
from typing import Any

KEEPALIVE_SECONDS = 5  # an idle keep-alive connection is closed after this


LOG_FORMAT = "%(asctime)s [%(process)d] %(levelname)s %(name)s: %(message)s"


def run(args: argparse.Namespace) -> int:
    # the service's own log lines (a store that does not answer, a projected read that failed) with when, which
    # process and how grave: without this Python prints the bare message (gunicorn's and uvicorn's own loggers keep
    # their formats); the level stays at warnings, but for the games' lifecycle (service/lifecycle_log.py: created,
    # started, finished, a clock run out; ids and seat numbers only), which an operator looks for
    logging.basicConfig(level=logging.WARNING, format=LOG_FORMAT)
    logging.getLogger("aegis.games").setLevel(logging.INFO)
    faulthandler.enable()  # a crash in C (SIGSEGV, SIGBUS: a store's file failing under SQLite) says where, not nothing
    if args.workers < 0:
        print("aegis serve: --workers must be 0 or more", file=sys.stderr)
        return 2
    if args.threads < 1:
        print("aegis serve: --threads must be 1 or more", file=sys.stderr)
        return 2
    from aegis.service.settings import load

    settings = load()  # the settings refused here, in one line (cli/main.py), not by each worker with a traceback
    if args.workers > 0:
        _check_store(settings)
    if args.server == "asgi":
        return _uvicorn(args) if args.workers == 0 else _gunicorn(args, asgi=True)
    if args.workers == 0:
        from aegis.api import create_app, log_masking

        app = create_app()
        settings = app.extensions["aegis"].settings
        print(f"aegis: serving on http://{args.host}:{args.port} (store: {settings.persistence})", flush=True)
        log_masking.install()
        app.run(host=args.host, port=args.port, threaded=True, use_reloader=False)
        return 0
    return _gunicorn(args, asgi=False)


def _check_store(settings: Any) -> None:
    """Open the store once before gunicorn starts its workers: an error that waiting cannot mend (no such database,
    role or folder) stops the server here, in one line (``StoreNotOpened``, said by ``cli/main.py``), instead of every
    worker waiting for it for ever; one that may pass (nothing answers on the port yet) is said, and the workers
    start and wait for the store (``api/workers.py``)."""
    from aegis.service.games import GameStore
    from aegis.service.store_open import StoreNotOpened

    try:
        GameStore(settings).close()
    except StoreNotOpened as err:
        if err.lasting:
            raise
        logging.getLogger("aegis.cli.serve").warning("%s: starting the workers, which wait for it", err.message)


def _uvicorn(args: argparse.Namespace) -> int:
    import uvicorn

    from aegis.api.serving import create_asgi_app
    from aegis.api.workers import GRACE_SECONDS, Server

    app = create_asgi_app(threads=args.threads)
    settings = app.service.settings
    print(f"aegis: serving on http://{args.host}:{args.port} (store: {settings.persistence})", flush=True)
    config = uvicorn.Config(
        app,
        host=args.host,
        port=args.port,
        timeout_keep_alive=KEEPALIVE_SECONDS,
        timeout_graceful_shutdown=GRACE_SECONDS,
        lifespan="on",
    )
    server = Server(config)  # uvicorn.run's, ending the event streams cleanly when shutdown begins
    with contextlib.suppress(KeyboardInterrupt):
        server.run()
    return 0 if server.started else 3  # uvicorn.run's exit status when the server could not start (a port in use)


def _gunicorn(args: argparse.Namespace, *, asgi: bool) -> int:
    from gunicorn.app.base import BaseApplication  # type: ignore[import-untyped]

    class Server(BaseApplication):  # type: ignore[misc]
        def load_config(self) -> None:
            self.cfg.set("bind", f"{args.host}:{args.port}")
            self.cfg.set("workers", args.workers)
            self.cfg.set("threads", args.threads)
            self.cfg.set("worker_class", "aegis.api.workers.Worker" if asgi else "aegis.api.workers.ThreadedWorker")
            self.cfg.set("timeout", 60)
            # gunicorn's control socket (gunicornc) sits at one path per user: a second server on the machine took the
            # first one's, and the service does not use it
            self.cfg.set("control_socket_disable", True)
            if asgi:
                self.cfg.set("keepalive", KEEPALIVE_SECONDS)

        def load(self) -> Any:
            if asgi:
                from aegis.api.serving import create_asgi_app

                return create_asgi_app(threads=args.threads)
            from aegis.api.wsgi import app

            return app

    print(f"aegis: serving on http://{args.host}:{args.port} with {args.workers} gunicorn worker(s)", flush=True)
    Server().run()
    return 0


def port_number(raw: str) -> int:
    """A TCP port, 1 to 65535 (argparse's type: anything else is refused with the usage and rc 2, before any
    server starts; the socket layer would otherwise take 99999 modulo 65536)."""
    try:
        port = int(raw)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a number 1 to 65535, not {raw!r}") from None
    if not 1 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"must be 1 to 65535, not {port}")
    return port


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "serve",
        help="run the game service (REST API)",
        description="Run the REST API. With no environment set it stores games in ./var/aegis.sqlite "
        "and needs nothing else; see the README for every environment variable.",
    )
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=port_number, default=8000, help="port to listen on (default 8000)")
    p.add_argument("--workers", type=int, default=0, help="gunicorn worker processes; 0 (default) serves in-process")
    p.add_argument("--threads", type=int, default=8, help="threads per process for every route but the stream (default 8)")
    p.add_argument(
        "--server",
        choices=["wsgi", "asgi"],
        default="asgi",
        help="asgi (default): uvicorn (gunicorn's uvicorn workers with --workers), streams served asynchronously; "
        "wsgi: Werkzeug in-process, gunicorn's threads with --workers, a thread held by every open stream",
    )
    p.set_defaults(run=run)
