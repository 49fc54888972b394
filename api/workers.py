"""The gunicorn worker class of ``aegis serve --workers N``: uvicorn's, which serves ``api.asgi:app`` on an
event loop, with a bounded graceful shutdown: an event stream never ends by itself, so on shutdown the streams
still open after ``GRACE_SECONDS`` are closed (their clients resume elsewhere with ``Last-Event-ID``)."""

from uvicorn_worker import UvicornWorker  # type: ignore[import-untyped]

GRACE_SECONDS = 5


class Worker(UvicornWorker):  # type: ignore[misc]
    CONFIG_KWARGS = {"timeout_graceful_shutdown": GRACE_SECONDS}
