"""The REST API: a Flask app factory over the game service (``service/``)."""

from __future__ import annotations

from flask import Flask, Response, current_app, request
from marshmallow import ValidationError

from aegis.api import branches, disputes, games, jsonio, limits, openapi, players, problems, replays, sse, stream
from aegis.api.schemas import HealthOut, built
from aegis.api.stream_slots import StreamSlots
from aegis.projections.reads import ProjectedReads
from aegis.projections.store import make_store
from aegis.projections.worker import Worker
from aegis.replay.disputes import Disputes
from aegis.replay.replays import Replays
from aegis.service import store_health
from aegis.service.deadlines import DeadlineKeeper
from aegis.service.errors import BadRequest
from aegis.service.games import GameService
from aegis.service.settings import Settings, load

PROJECTOR_STALL_SECONDS = 60  # /readyz: the projection worker's position standing still behind the store this long


def create_app(settings: Settings | None = None, *, service: GameService | None = None, background: bool = True) -> Flask:
    """Build the app. ``background``: run the deadline keeper thread (the server closes late windows)."""
    app = Flask(__name__)
    app.json.sort_keys = False  # type: ignore[attr-defined]
    svc = service or GameService(settings or load())
    app.config["MAX_CONTENT_LENGTH"] = svc.settings.max_body  # a larger body: 413, read no further
    views = make_store(svc.settings.redis_url, svc.settings.redis_prefix)
    worker = Worker(svc.store, views, keep=svc.settings.cache_games) if svc.settings.projector == "in-process" else None
    if worker is not None:
        svc.after_save.append(lambda game, deadline: worker.wake.set())
    reads = ProjectedReads(svc, views, worker, wait=svc.settings.view_wait)
    keeper = DeadlineKeeper(svc)
    app.extensions["aegis"] = svc
    app.extensions["aegis.broker"] = svc.broker
    app.extensions["aegis.reads"] = reads
    app.extensions["aegis.replays"] = Replays(svc)
    app.extensions["aegis.disputes"] = Disputes(svc, reads)
    app.extensions["aegis.views"] = views
    app.extensions["aegis.worker"] = worker
    app.extensions["aegis.deadlines"] = keeper
    app.extensions["aegis.stream_slots"] = StreamSlots(svc.settings.streams_per_client)
    # the threaded server's streams, without Redis: other processes' saves looked for in the store (api/stream.py)
    app.extensions["aegis.stream_watch"] = None if svc.broker.crosses_processes else stream.ThreadedWatch(svc)
    prober = app.extensions["aegis.prober"] = store_health.Prober()  # /readyz's look at the store, once per 5 s
    if background:
        keeper.start()
        if worker is not None:
            worker.start()
    problems.install(app)
    app.register_blueprint(games.bp)
    app.register_blueprint(stream.bp)
    app.register_blueprint(players.bp)
    app.register_blueprint(replays.bp)
    app.register_blueprint(branches.bp)
    app.register_blueprint(replays.viewer_bp)
    app.register_blueprint(disputes.bp)
    app.register_blueprint(openapi.bp)
    limits.install(app, svc.settings)  # per-client limits on creating games, taking seats, dispute posts

    @app.before_request
    def _no_token_in_url() -> None:
        """No route takes a token in its query: one given there would be ignored (a seat's view answered as a
        spectator's, silently) and written to the access log. The stream refuses it itself, saying how to get a
        ticket instead (``api/sse.py``), on whichever server holds it."""
        named = any(name.lower() in sse.TOKEN_PARAMETERS for name in request.args)
        if named and request.path.startswith("/api/") and request.endpoint != "stream.stream":
            raise BadRequest(sse.TOKEN_IN_QUERY, kind="token-in-url")

    @app.before_request
    def _each_parameter_once() -> None:
        """A query parameter given twice (``?limit=1&limit=2``) is refused, naming it, rather than one of its values
        taken silently."""
        repeated = sorted({name for name in request.args if len(request.args.getlist(name)) > 1})
        if repeated and request.path.startswith("/api/"):
            raise ValidationError({name: ["given more than once: give it once"] for name in repeated})

    @app.get("/healthz")
    def healthz() -> Response:
        return jsonio.response(built(HealthOut).dump({"status": "ok"}))

    projector_seen: dict[str, float] = {}  # the projection worker's position as /readyz last saw it move, and when

    def projector_stalled(stored: int, position: int) -> str | None:
        """With AEGIS_PROJECTOR=worker: why the lobby and players' records are going stale, if the worker's position
        has stood still behind the store for ``PROJECTOR_STALL_SECONDS`` (is ``aegis project`` running?)."""
        now = svc.clock()
        if position >= stored or projector_seen.get("position") != position:
            projector_seen.update(position=position, since=now)
            return None
        still = now - projector_seen["since"]
        if still < PROJECTOR_STALL_SECONDS:
            return None
        return (
            f"the projection worker has not moved for {still:.0f} s and is {stored - position} events behind the store: "
            "is 'aegis project' running? (the lobby and players' records are going stale)"
        )

    @app.get("/readyz")
    def readyz() -> Response:
        store = current_app.extensions["aegis"].store
        try:
            stored = store.recorder.max_notification_id() or 0
            reason = prober(store.recorder, svc.settings.store_env, svc.settings.min_free_bytes)
        except Exception as err:  # any failure of the store means not ready; unwritable if it says it cannot be written
            reason = store_health.cause(err)
            if reason is None:
                out = {"status": "unavailable", "store": f"{type(err).__name__}: {err}"}
                return jsonio.response(built(HealthOut).dump(out), 503)
        failure = store.health.failure  # a save failed for such a reason, and none has succeeded since
        if reason is None and failure is not None:
            reason = failure[0]
        if reason is not None:
            words = f"{store_health.WORDS[reason]}: {store_health.FIX[reason]}"
            if failure is not None and failure[0] == reason:
                words += f" (the database said: {failure[2]})"
            return jsonio.response(built(HealthOut).dump({"status": "unwritable", "store": words}), 503)
        out = {"status": "ready", "store": svc.settings.persistence}
        if svc.settings.redis_url:
            try:
                position = views.position()
                out["redis"] = "ok"
            except Exception as err:
                # games still play (commands, views, streams: Redis is shared, and answering 503 here would make a
                # load balancer take every process out at once); the lobby and players' records answer 503 meanwhile
                degraded = {**out, "status": "degraded", "redis": f"{type(err).__name__}: {err}"}
                return jsonio.response(built(HealthOut).dump(degraded), 200)
            stalled = projector_stalled(stored, position) if svc.settings.projector == "worker" else None
            if stalled is not None:  # games play on: degraded, as with Redis away
                return jsonio.response(built(HealthOut).dump({**out, "status": "degraded", "projections": stalled}), 200)
        return jsonio.response(built(HealthOut).dump(out))

    return app


def close_app(app: Flask) -> None:
    """Stop the app's background threads (deadlines, in-process projections) and close its store."""
    app.extensions["aegis.deadlines"].stop()
    if app.extensions["aegis.worker"] is not None:
        app.extensions["aegis.worker"].stop()
    app.extensions["aegis"].close()
