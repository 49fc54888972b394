"""The REST API: a Flask app factory over the game service (``service/``)."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from flask import Flask, Response, current_app, json

from api import games, openapi, problems, stream
from api.schemas import HealthOut
from projections.lobby import LobbyProjection
from service.broker import make_broker
from service.deadlines import DeadlineKeeper
from service.games import GameService
from service.settings import Settings, load


def create_app(settings: Settings | None = None, *, service: GameService | None = None, background: bool = True) -> Flask:
    """Build the app. ``background``: run the deadline keeper thread (the server closes late windows)."""
    app = Flask(__name__)
    app.json.sort_keys = False  # type: ignore[attr-defined]
    svc = service or GameService(settings or load())
    lobby = LobbyProjection(svc.store)
    keeper = DeadlineKeeper(svc, active_games=lambda: [UUID(g["id"]) for g in lobby.query(status="active", limit=10**6)[0]])
    broker = make_broker(svc.settings.redis_url)
    svc.after_save.append(lambda game: broker.publish(str(game.id), game.seq))
    app.extensions["aegis"] = svc
    app.extensions["aegis.broker"] = broker
    app.extensions["aegis.lobby"] = lobby
    app.extensions["aegis.deadlines"] = keeper
    if background:
        keeper.start()
    problems.install(app)
    app.register_blueprint(games.bp)
    app.register_blueprint(stream.bp)
    app.register_blueprint(openapi.bp)

    @app.get("/healthz")
    def healthz() -> Response:
        return _json(HealthOut().dump({"status": "ok"}))

    @app.get("/readyz")
    def readyz() -> Response:
        try:
            current_app.extensions["aegis"].store.recorder.max_notification_id()
        except Exception as err:  # any failure of the store means not ready
            return _json(HealthOut().dump({"status": "unavailable", "store": f"{type(err).__name__}: {err}"}), 503)
        return _json(HealthOut().dump({"status": "ready", "store": svc.settings.persistence}))

    return app


def _json(data: Any, status: int = 200) -> Response:
    return Response(json.dumps(data), status=status, mimetype="application/json")
