"""Registered players: a name, and a player key shown once and stored only as its SHA-256 hash.

Each registered name is one ``Player`` aggregate in the game store, whose id is derived from the name's key
(``service.names.key``), so a name can be registered once: a second registration, even a concurrent one,
fails on the store's uniqueness of ``(id, version)``. A player key carries that id, so the key finds its
player with one read; the rest of the key is 32 random bytes, compared in constant time with the stored hash.
"""

from __future__ import annotations

import secrets
from uuid import UUID, uuid5

from eventsourcing.application import AggregateNotFoundError, Application
from eventsourcing.domain import Aggregate
from eventsourcing.persistence import IntegrityError

from aegis.service import names, tokens
from aegis.service.errors import BadRequest, Conflict, Unauthorized
from aegis.service.rulesets import BOT_NAMES
from aegis.service.topics import register_legacy

NAMESPACE = UUID("0b6f3d55-6a1f-4f0e-9d6e-5c2f1f7b9a41")
PREFIX = "player_"


class Player(Aggregate):
    class Registered(Aggregate.Created):
        name: str
        key_hash: str
        at: float

    def __init__(self, name: str, key_hash: str, at: float):
        self.name = name
        self.key_hash = key_hash
        self.at = at

    @staticmethod
    def create_id(name: str) -> UUID:
        """One aggregate per name: its id is the name's (see ``player_id``)."""
        return player_id(name)


def player_id(name: str) -> UUID:
    return uuid5(NAMESPACE, names.key(name))


def new_key(pid: UUID) -> str:
    return f"{PREFIX}{pid.hex}_{secrets.token_urlsafe(32)}"


def is_player_key(token: str | None) -> bool:
    return bool(token) and token.startswith(PREFIX)  # type: ignore[union-attr]


class Registry:
    """Registration and look-ups, on the service's store."""

    def __init__(self, store: Application):
        self.store = store

    def register(self, raw_name: object, at: float) -> tuple[str, str]:
        """Register a name; returns (the name as kept, the player key, shown once)."""
        name = names.normal(raw_name)
        if "/" in name:
            raise BadRequest("a registered name has no '/': it is part of the player's address (/api/players/<name>)")
        if name in (".", ".."):  # a path's dot segment: clients and browsers resolve /api/players/.. to /api/
            raise BadRequest(
                f"a registered name is not {name!r}: in the player's address (/api/players/<name>) it would be read as "
                "a step of the path"
            )
        names.refuse_service_form(name, BOT_NAMES)
        found = self.find(name)
        if found is not None:
            raise Conflict(f"the name {name!r} is already registered (as {found.name!r})", kind="name-taken")
        key = new_key(player_id(name))
        player = Player(name=name, key_hash=tokens.token_hash(key), at=at)
        try:
            self.store.save(player)
        except IntegrityError:
            raise Conflict(f"the name {name!r} is already registered", kind="name-taken") from None
        return name, key

    def find(self, name: str) -> Player | None:
        try:
            found: object = self.store.repository.get(player_id(name))
        except AggregateNotFoundError:
            return None
        return found if isinstance(found, Player) else None

    def by_key(self, key: str) -> Player:
        """The player a key belongs to, or 401."""
        body = key[len(PREFIX) :]
        try:
            pid = UUID(hex=body[:32])
        except ValueError:
            raise Unauthorized("this is not a player key") from None
        try:
            player: object = self.store.repository.get(pid)
        except AggregateNotFoundError:
            raise Unauthorized("no player has this key") from None
        if not isinstance(player, Player) or not tokens.matches(key, player.key_hash):
            raise Unauthorized("no player has this key")
        return player


register_legacy(__name__)  # players stored before the service became the package ``aegis`` (service/topics.py)
