"""Seat and host tokens: random, shown once, stored only as SHA-256 hashes."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterable, Mapping
from typing import Any

PREFIX_SEAT = "seat_"
PREFIX_HOST = "host_"


def new_token(prefix: str) -> str:
    return prefix + secrets.token_urlsafe(24)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def matches(token: str | None, stored_hash: str | None) -> bool:
    """Constant-time comparison of a presented token with a stored hash."""
    if not token or not stored_hash:
        return False
    return hmac.compare_digest(token_hash(token), stored_hash)


def seat_of(seats: Iterable[Mapping[str, Any]], token: str | None) -> int | None:
    """The seat (of a game's ``seats``) whose token ``token`` is, or None. The token is hashed once, then compared
    with each seat's hash in constant time."""
    if not token:
        return None
    presented = token_hash(token)
    return next((int(s["seat"]) for s in seats if s["token_hash"] and hmac.compare_digest(presented, s["token_hash"])), None)
