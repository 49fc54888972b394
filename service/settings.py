"""Configuration from environment variables only, each with a default that needs nothing installed.

Every variable here is listed in the README. The ``eventsourcing`` library reads its own
(``PERSISTENCE_MODULE``, ``SQLITE_DBNAME``, ``POSTGRES_*``, ``AGGREGATE_CACHE_MAXSIZE``); this module
only fills in the embedded defaults: a SQLite file under ``./var/``.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from aegis.domain.kernel.errors import MalformedCommand
from aegis.service.postgres import FACTORY_TOPIC  # the library's PostgreSQL factory, failing fast
from aegis.service.rulesets import DEFAULT, ruleset_named

SQLITE = "eventsourcing.sqlite"
MIN_CLOCK, MAX_CLOCK = 1.0, 7 * 86400.0  # a decision clock's range in seconds (0: no clock)
POSTGRES = "eventsourcing.postgres"
# per client (remote address), in Flask-Limiter's notation; api/limits.py applies them. A person creates a game every
# few minutes and takes a seat in it; 120 a minute (and 600 seats: 60 full 10-seat tables) leaves room for a whole
# classroom behind one address, while a flood (20,000 games in 115 s) is cut to 2 games a second
RATE_CREATE, RATE_SEAT, RATE_REGISTER = "120/minute", "600/minute", "30/minute"
RATE_DISPUTE = "60/minute"  # disputes opened, comments, votes and verdicts one client may post (api/limits.py)
MIN_MODERATOR_KEY = 16  # characters a moderator key has at least (a short one could be guessed)


@dataclass(frozen=True)
class Settings:
    store_env: dict[str, str]  # handed to the eventsourcing Application
    reaction_seconds: float
    snapshot_interval: int
    bot_move_limit: int
    redis_url: str | None = None
    keepalive_seconds: float = 15.0
    redis_prefix: str = "aegis:"
    projector: str = "in-process"  # or "worker": a separate `aegis project` process keeps the projections
    view_wait: float = 0.5
    catalog: Any = None  # AEGIS_CATALOG: the default ruleset's component texts, from the physical game (None: shipped)
    turn_seconds: float = 120.0  # AEGIS_TURN_SECONDS: default decision clock of new games (0: none)
    lobby_ttl: float = 86400.0  # AEGIS_LOBBY_TTL: a game not started this many seconds after its creation expires
    max_body: int = 65536  # AEGIS_MAX_BODY: bytes a request body may hold (a larger one gets a 413)
    min_free_bytes: int = 64 * 2**20  # AEGIS_MIN_FREE_MB: free disk beside a SQLite store below which /readyz says full
    rate_create: str | None = RATE_CREATE  # AEGIS_RATE_CREATE: games one client may create (None: no limit)
    rate_seat: str | None = RATE_SEAT  # AEGIS_RATE_SEAT: seats (bots too) one client may take (None: no limit)
    rate_register: str | None = RATE_REGISTER  # AEGIS_RATE_REGISTER: player names one client may register
    cache_games: int = 500  # AEGIS_CACHE_GAMES: games kept folded in memory (the aggregate cache, the projector's)
    streams_per_client: int | None = 1000  # AEGIS_STREAMS_PER_CLIENT: open streams per client address and process
    cache_views: int = 500  # AEGIS_CACHE_VIEWS: games whose views (as last read) the service keeps (service.views)
    moderator_keys: tuple[str, ...] = ()  # AEGIS_MODERATOR_KEYS: who records dispute verdicts (none: the table votes)
    rate_dispute: str | None = RATE_DISPUTE  # AEGIS_RATE_DISPUTE: dispute posts one client may make (None: no limit)

    @property
    def persistence(self) -> str:
        """The store as the user named it (``PERSISTENCE_MODULE``)."""
        module = self.store_env["PERSISTENCE_MODULE"]
        return POSTGRES if module == FACTORY_TOPIC else module


BOOLEAN_WORDS = ("y", "yes", "t", "true", "on", "1", "n", "no", "f", "false", "off", "0")


def _number(env: Mapping[str, str], name: str, default: float, low: float) -> float:
    raw = env.get(name)
    if raw is None or raw == "":
        return default
    try:
        value = float(raw)
    except ValueError:
        raise MalformedCommand(f"environment variable {name} must be a number, not {raw!r}") from None
    if not math.isfinite(value):
        raise MalformedCommand(f"environment variable {name} must be a finite number, not {raw!r}")
    if value < low:
        raise MalformedCommand(f"environment variable {name} must be {low} or more")
    return value


def sqlite_file(env: Mapping[str, str] | None = None) -> Path | None:
    """The SQLite file ``env`` names (``SQLITE_DBNAME``, else ``aegis.sqlite`` in ``AEGIS_DATA_DIR``, else in ``./var``),
    found without creating anything; None when the store is not a SQLite file (PostgreSQL, in memory)."""
    env = os.environ if env is None else env
    if env.get("PERSISTENCE_MODULE", SQLITE) not in ("sqlite", SQLITE):
        return None
    name = env.get("SQLITE_DBNAME")
    if name and (name.startswith("file:") or ":memory:" in name):
        return None
    return Path(name) if name else Path(env.get("AEGIS_DATA_DIR") or "var") / "aegis.sqlite"


def load(env: Mapping[str, str] | None = None) -> Settings:
    """Read the settings from ``env`` (default: the process environment)."""
    env = dict(os.environ if env is None else env)
    library = ("PERSISTENCE_MODULE", "SQLITE_", "POSTGRES_", "AGGREGATE_CACHE", "CREATE_TABLE")  # the library's own settings
    store = {k: v for k, v in env.items() if k.startswith(library)}
    store.setdefault("PERSISTENCE_MODULE", SQLITE)
    if store["PERSISTENCE_MODULE"] in ("sqlite", "eventsourcing.sqlite"):
        store["PERSISTENCE_MODULE"] = SQLITE
        if not store.get("SQLITE_DBNAME"):
            data = Path(env.get("AEGIS_DATA_DIR") or "var")
            data.mkdir(parents=True, exist_ok=True)
            store["SQLITE_DBNAME"] = str(data / "aegis.sqlite")
        store.setdefault("SQLITE_LOCK_TIMEOUT", "10")
        lock_timeout = store["SQLITE_LOCK_TIMEOUT"].strip()
        if lock_timeout and not (lock_timeout.isascii() and lock_timeout.isdigit()):  # the library takes whole seconds
            raise MalformedCommand(
                f"environment variable SQLITE_LOCK_TIMEOUT must be a whole number of seconds, not {lock_timeout!r}"
            )
    elif store["PERSISTENCE_MODULE"] in ("postgres", "eventsourcing.postgres"):
        store["PERSISTENCE_MODULE"] = POSTGRES
        for name, default in (("POSTGRES_DBNAME", "aegis"), ("POSTGRES_HOST", "127.0.0.1"), ("POSTGRES_PORT", "5432")):
            store.setdefault(name, default)
        store.setdefault("POSTGRES_USER", env.get("USER", "postgres"))
        store.setdefault("POSTGRES_PASSWORD", "")
        # fail fast while PostgreSQL is away (503 + Retry-After; the pool reconnects by itself when it is
        # back): wait at most this many seconds for a connection (the library's default is 30), and use the
        # library's recorders retrying a statement once, not ten times, behind a breaker (service/postgres.py)
        store.setdefault("POSTGRES_CONNECT_TIMEOUT", "2")
        port = _number(store, "POSTGRES_PORT", 5432, 1)
        if port != int(port) or port > 65535:
            raise MalformedCommand(
                f"environment variable POSTGRES_PORT must be a port number (1 to 65535), not {store['POSTGRES_PORT']!r}"
            )
        if _number(store, "POSTGRES_CONNECT_TIMEOUT", 2, 0) <= 0:
            raise MalformedCommand("environment variable POSTGRES_CONNECT_TIMEOUT must be a number of seconds above 0")
        store["PERSISTENCE_MODULE"] = FACTORY_TOPIC
    elif store["PERSISTENCE_MODULE"] not in ("eventsourcing.popo",):
        raise MalformedCommand(
            f"PERSISTENCE_MODULE {store['PERSISTENCE_MODULE']!r} is not supported; use {SQLITE}, {POSTGRES} or eventsourcing.popo"
        )
    if store.get("CREATE_TABLE", "y").strip().lower() not in BOOLEAN_WORDS:  # the library's own words
        raise MalformedCommand(
            f"environment variable CREATE_TABLE must be y or n (or {', '.join(BOOLEAN_WORDS)}), not {store['CREATE_TABLE']!r}"
        )
    redis_url = env.get("REDIS_URL") or None
    if redis_url is not None and not redis_url.startswith(("redis://", "rediss://", "unix://")):
        raise MalformedCommand(f"environment variable REDIS_URL must be a redis://, rediss:// or unix:// URL, not {redis_url!r}")
    projector = _choice(env, "AEGIS_PROJECTOR", ("in-process", "worker"), "in-process")
    if projector == "worker" and redis_url is None:
        raise MalformedCommand("AEGIS_PROJECTOR=worker needs REDIS_URL: the projection worker keeps the projections in Redis")
    cache_name = "AGGREGATE_CACHE_MAXSIZE" if store.get("AGGREGATE_CACHE_MAXSIZE") else "AEGIS_CACHE_GAMES"
    cache_games = int(_number(env, cache_name, 500, 1))  # at least 1: the library takes 0 for a cache without any bound
    store["AGGREGATE_CACHE_MAXSIZE"] = str(cache_games)
    store["DEEPCOPY_FROM_AGGREGATE_CACHE"] = "n"  # games are only touched under their lock (see application.py)
    return Settings(
        store_env=store,
        reaction_seconds=_number(env, "AEGIS_REACTION_SECONDS", 30.0, 0),
        snapshot_interval=int(_number(env, "AEGIS_SNAPSHOT_INTERVAL", 200, 1)),
        bot_move_limit=int(_number(env, "AEGIS_BOT_MOVE_LIMIT", 5000, 1)),
        redis_url=redis_url,
        keepalive_seconds=_number(env, "AEGIS_SSE_KEEPALIVE", 15.0, 0.05),
        redis_prefix=env.get("AEGIS_REDIS_PREFIX") or "aegis:",
        projector=projector,
        view_wait=_number(env, "AEGIS_VIEW_WAIT", 0.5, 0),
        catalog=read_catalog(env["AEGIS_CATALOG"]) if env.get("AEGIS_CATALOG") else None,
        turn_seconds=_seconds(env, "AEGIS_TURN_SECONDS", 120.0),
        lobby_ttl=_number(env, "AEGIS_LOBBY_TTL", 86400.0, 1),
        max_body=int(_number(env, "AEGIS_MAX_BODY", 65536, 1024)),
        min_free_bytes=int(_number(env, "AEGIS_MIN_FREE_MB", 64, 0) * 2**20),
        rate_create=_rate(env, "AEGIS_RATE_CREATE", RATE_CREATE),
        rate_seat=_rate(env, "AEGIS_RATE_SEAT", RATE_SEAT),
        rate_register=_rate(env, "AEGIS_RATE_REGISTER", RATE_REGISTER),
        cache_games=cache_games,
        cache_views=int(_number(env, "AEGIS_CACHE_VIEWS", 500, 1)),
        streams_per_client=int(_number(env, "AEGIS_STREAMS_PER_CLIENT", 1000, 0)) or None,
        moderator_keys=_moderator_keys(env),
        rate_dispute=_rate(env, "AEGIS_RATE_DISPUTE", RATE_DISPUTE),
    )


def _moderator_keys(env: Mapping[str, str]) -> tuple[str, ...]:
    """AEGIS_MODERATOR_KEYS: comma-separated keys, each of at least ``MIN_MODERATOR_KEY`` characters (none: unset)."""
    keys = tuple(k.strip() for k in (env.get("AEGIS_MODERATOR_KEYS") or "").split(",") if k.strip())
    if any(len(k) < MIN_MODERATOR_KEY for k in keys):
        raise MalformedCommand(
            f"environment variable AEGIS_MODERATOR_KEYS holds comma-separated keys of at least {MIN_MODERATOR_KEY} "
            "characters each (a short key could be guessed)"
        )
    return keys


def _rate(env: Mapping[str, str], name: str, default: str) -> str | None:
    """A rate limit in Flask-Limiter's notation ("120/minute", several joined by ';': "120/minute;2000/day"), or
    "off" / "0": no limit (None)."""
    raw = env.get(name)
    if raw is None or raw.strip() == "":
        return default
    value = raw.strip()
    if value.lower() in ("off", "0"):
        return None
    from limits import parse_many  # Flask-Limiter's own parser: what it accepts, no more

    hint = f"environment variable {name} must be a rate such as '{default}' (several joined by ';') or 'off', not {raw!r}"
    try:
        parsed = parse_many(value)
    except ValueError:
        raise MalformedCommand(hint) from None
    if not parsed or any(item.amount < 1 for item in parsed):
        raise MalformedCommand(hint + " (a rate of 0 requests would refuse every one: say 'off' for no limit)")
    return value


def _seconds(env: Mapping[str, str], name: str, default: float) -> float:
    """A decision clock: 0 (none) or 1 second to 7 days, like the game option it is the default of."""
    value = _number(env, name, default, 0)
    if value and not MIN_CLOCK <= value <= MAX_CLOCK:
        raise MalformedCommand(f"environment variable {name} must be 0 (no clock) or {MIN_CLOCK:g} to {MAX_CLOCK:g} seconds")
    return value


def read_catalog(path: str) -> Any:
    """A catalog file of the default ruleset's component texts (Ever Aegis: the Classic texts of your physical game),
    checked by the ruleset (``Ruleset.read_catalog``); every error names the file, the entry and the problem."""
    rules = ruleset_named(DEFAULT or "")
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except OSError as err:
        raise MalformedCommand(f"{path}: cannot read the catalog: {err.strerror}") from None
    except json.JSONDecodeError as err:
        raise MalformedCommand(f"{path}: not JSON: {err.msg} at line {err.lineno}, column {err.colno}") from None
    digest = hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:16]
    try:
        return rules.read_catalog(data, f"{os.path.basename(path)} sha256:{digest}")
    except MalformedCommand as err:
        raise MalformedCommand(f"{path}: {err.message}", rule=err.rule) from None


def _choice(env: Mapping[str, str], name: str, choices: tuple[str, ...], default: str) -> str:
    value = env.get(name) or default
    if value not in choices:
        raise MalformedCommand(f"environment variable {name} must be one of {', '.join(choices)}, not {value!r}")
    return value
