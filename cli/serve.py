"""``aegis serve``: run the service, in-process (Werkzeug, threaded) or under gunicorn with workers."""

from __future__ import annotations

import argparse
import sys
from typing import Any


def run(args: argparse.Namespace) -> int:
    if args.workers < 0:
        print("aegis serve: --workers must be 0 or more", file=sys.stderr)
        return 2
    if args.workers == 0:
        from api import create_app

        app = create_app()
        settings = app.extensions["aegis"].settings
        print(f"aegis: serving on http://{args.host}:{args.port} (store: {settings.persistence})", flush=True)
        app.run(host=args.host, port=args.port, threaded=True, use_reloader=False)
        return 0
    return _gunicorn(args)


def _gunicorn(args: argparse.Namespace) -> int:
    from gunicorn.app.base import BaseApplication

    class Server(BaseApplication):  # type: ignore[misc]
        def load_config(self) -> None:
            self.cfg.set("bind", f"{args.host}:{args.port}")
            self.cfg.set("workers", args.workers)
            self.cfg.set("threads", args.threads)
            self.cfg.set("worker_class", "gthread")
            self.cfg.set("timeout", 60)

        def load(self) -> Any:
            from api.wsgi import app

            return app

    print(f"aegis: serving on http://{args.host}:{args.port} with {args.workers} gunicorn worker(s)", flush=True)
    Server().run()
    return 0


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "serve",
        help="run the game service (REST API)",
        description="Run the REST API. With no environment set it stores games in ./var/aegis.sqlite "
        "and needs nothing else; see the README for every environment variable.",
    )
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8000, help="port to listen on (default 8000)")
    p.add_argument("--workers", type=int, default=0, help="gunicorn worker processes; 0 (default) serves in-process")
    p.add_argument("--threads", type=int, default=8, help="threads per gunicorn worker (default 8)")
    p.set_defaults(run=run)
