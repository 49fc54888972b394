"""Rate limits per client on the routes that make things: creating a game, taking a seat (a bot's too),
registering a player name, and posting to disputes (opening one, a comment, a vote, a verdict).

Flask-Limiter counts each client's requests by its remote address (``request.remote_addr``). The Flask app trusts
no ``X-Forwarded-For`` itself: the address is the server's (``aegis serve``'s uvicorn takes it from the header only
on connections from ``FORWARDED_ALLOW_IPS``, by default this machine); behind another proxy every client has the
proxy's address unless the operator says otherwise (README, "Running in production"). The counters live in Redis
when ``REDIS_URL`` is set (shared by every API process, under ``AEGIS_REDIS_PREFIX`` + ``ratelimit:``), else in the
process. The limiter fails open: while Redis does not answer, each process counts in its own memory with the same
limits, and asks Redis again now and then; a request is never refused because the counter store is down.
"""

from __future__ import annotations

import math
import time
from functools import partial
from typing import Any

from flask import Flask, Response, request
from flask_limiter import Limiter, RateLimitExceeded
from flask_limiter.util import get_remote_address

from aegis.api.disputes import POSTS as DISPUTE_POSTS
from aegis.api.problems import problem
from aegis.projections.store import RATE_LIMITS
from aegis.service.settings import Settings

# endpoint -> (what is counted, the setting that sets its limit)
LIMITED = {
    "games.create_game": ("games created", "AEGIS_RATE_CREATE"),
    "branches.create_branch": ("branches made", "AEGIS_RATE_CREATE"),  # a branch is a new game: counted apart
    "games.take_seat": ("seats taken", "AEGIS_RATE_SEAT"),
    "players.register": ("players registered", "AEGIS_RATE_REGISTER"),
    **{endpoint: ("dispute posts", "AEGIS_RATE_DISPUTE") for endpoint in DISPUTE_POSTS},
}
REDIS_TIMEOUT = 1  # second: a counter store slower than this is treated as down (fail open)


def storage(settings: Settings) -> tuple[str, dict[str, str | int]]:
    """The limiter's storage URI and options: Redis (``REDIS_URL``) under the service's prefix, or memory."""
    url = settings.redis_url
    if not url:
        return "memory://", {}
    if url.startswith("unix://"):  # redis-py's spelling; the limits library names it redis+unix://
        url = "redis+unix://" + url[len("unix://") :]
    options: dict[str, str | int] = {
        "key_prefix": settings.redis_prefix + RATE_LIMITS.rstrip(":"),  # the library adds the ':'
        "socket_timeout": REDIS_TIMEOUT,
        "socket_connect_timeout": REDIS_TIMEOUT,
    }
    return url, options


def install(app: Flask, settings: Settings) -> Limiter | None:
    """Limit the app's create and seat routes as ``settings`` say (call after the blueprints are registered).
    Returns the limiter, or None when both limits are off."""
    rates = {
        "games.create_game": settings.rate_create,
        "branches.create_branch": settings.rate_create,
        "games.take_seat": settings.rate_seat,
        "players.register": settings.rate_register,
        **dict.fromkeys(DISPUTE_POSTS, settings.rate_dispute),
    }
    if not any(rates.values()):
        return None
    uri, options = storage(settings)
    limiter = Limiter(
        get_remote_address,
        app=app,
        storage_uri=uri,
        storage_options=options,
        strategy="fixed-window",  # a window starts at a client's first request: Retry-After is exact
        headers_enabled=False,  # no X-RateLimit-* or Retry-After on successful answers; a 429 has Retry-After
        in_memory_fallback_enabled=True,  # Redis down: count in this process with the same limits
        swallow_errors=True,  # and never refuse a request because the limiter failed
    )
    # the limited routes are decorated below, and a decorated route checks its limits itself; the check the
    # limiter also runs before every request (for default limits, of which there are none here) only cost every
    # other request, a view read or a command, about 0.3 ms
    app.before_request_funcs[None].remove(limiter._check_request_limit)
    _only_where_limited(app, limiter, set(LIMITED))
    for endpoint, rate in rates.items():
        if rate:
            view: Any = app.view_functions[endpoint]  # a route of ours, returning a Response
            app.view_functions[endpoint] = limiter.limit(rate)(view)

    @app.errorhandler(RateLimitExceeded)
    def _too_many(err: RateLimitExceeded) -> Response:
        what, setting = LIMITED.get(request.endpoint or "", ("requests", "the rate limits"))
        wait = _retry_after(limiter, err)
        detail = f"too many {what} from your address: at most {err.limit.limit} ({setting}); try again in {wait} s"
        response = problem(429, "Too many requests", detail, "rate-limited")
        response.headers["Retry-After"] = str(wait)
        return response

    return limiter


def _only_where_limited(app: Flask, limiter: Limiter, endpoints: set[str]) -> None:
    """Run the limiter's after-request and teardown hooks only on the limited routes. Elsewhere the limiter made no
    context to release, and with its headers off and no conditional deduction the after-request hook changes
    nothing; yet both ran on every request, a view read or a command (about 15 us of a 200 us view read)."""
    after, teardown = app.after_request_funcs[None], app.teardown_request_funcs[None]
    inject = next(f for f in after if isinstance(f, partial) and f.args == (limiter,))
    release = next(f for f in teardown if getattr(f, "__self__", None) is limiter)

    def inject_where_limited(response: Response) -> Response:
        return inject(response) if request.endpoint in endpoints else response

    def release_where_limited(error: BaseException | None = None) -> None:
        if request.endpoint in endpoints:
            release(error)

    after[after.index(inject)] = inject_where_limited
    teardown[teardown.index(release)] = release_where_limited


def _retry_after(limiter: Limiter, err: RateLimitExceeded) -> int:
    """Whole seconds until the refused limit's window ends (at least 1)."""
    current = limiter.current_limit
    try:
        if current is not None and current.breached:
            return max(1, math.ceil(current.window[0] - time.time()))  # window: (when it resets, remaining)
    except Exception:  # the counter store failed just now: the whole window is a safe answer
        pass
    return max(1, int(err.limit.limit.get_expiry()))
