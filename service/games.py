"""The game service: create games, take seats, start, submit commands, read views and events.

Every change follows one pipeline (``_change``): under the game's lock, load the aggregate (from the
cache, fast-forwarded from the store), run the change, let the server play its part (bots, windows
whose deadline has passed), and save. A save that loses a race with another process is retried
against the new state; the caller's ``expected_seq`` turns a stale command into 409 instead.

Games are only touched under their lock, so the aggregate cache hands out the cached object itself
(no deep copy); a failed save evicts it so the next load reads the store.
"""

from __future__ import annotations

import contextlib
import hashlib
import secrets
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar
from uuid import UUID

from eventsourcing.application import AggregateNotFoundError, Application
from eventsourcing.persistence import IntegrityError

from domain.bots import BOTS, make_bot
from domain.kernel.errors import DomainError, MalformedCommand
from domain.kernel.redaction import SPECTATOR, Perspective, reader, redact_event
from service import tokens
from service.aggregate import Game
from service.broker import make_broker
from service.errors import BadRequest, Conflict, Forbidden, NotFound, ServiceError, Unauthorized, from_domain
from service.postgres import creating
from service.rulesets import ruleset_named
from service.settings import Settings, load
from service.views import view_of

T = TypeVar("T")
SAVE_ATTEMPTS = 8
MAX_NAME = 40


class GameStore(Application):
    """The eventsourcing application: games as aggregates, snapshots every ``snapshot_interval`` events."""

    name = "Aegis"

    def __init__(self, settings: Settings):
        self.snapshotting_intervals = {Game: settings.snapshot_interval}  # type: ignore[misc]
        with creating(settings.store_env):  # processes starting together create the tables one at a time
            super().__init__(env={**settings.store_env, "IS_SNAPSHOTTING_ENABLED": "y"})


class GameService:
    """What the API calls. Methods raise ``ServiceError`` subclasses; nothing is half-saved."""

    def __init__(self, settings: Settings | None = None, clock: Callable[[], float] = time.time):
        self.settings = settings or load()
        self.store = GameStore(self.settings)
        self.clock = clock
        self._locks: dict[UUID, threading.Lock] = {}
        self._locks_lock = threading.Lock()
        self._known_seq: dict[UUID, int] = {}
        self.broker = make_broker(self.settings.redis_url)
        self.after_save: list[Callable[[Game], None]] = [self._publish]  # and the deadline keeper, projections

    def close(self) -> None:
        self.store.close()

    # ----- the pipeline -----

    def _lock(self, game_id: UUID) -> threading.Lock:
        with self._locks_lock:
            lock = self._locks.get(game_id)
            if lock is None:
                lock = self._locks[game_id] = threading.Lock()
            return lock

    def _load(self, game_id: UUID) -> Game:
        try:
            game = self.store.repository.get(game_id)
        except AggregateNotFoundError:
            raise NotFound(f"no game {game_id}") from None
        if not isinstance(game, Game):  # pragma: no cover - the store holds only games
            raise NotFound(f"no game {game_id}")
        return game

    def _evict(self, game_id: UUID) -> None:
        cache = self.store.repository.cache
        if cache is not None:
            with contextlib.suppress(KeyError):
                cache.get(game_id, evict=True)

    def _change(self, game_id: UUID, change: Callable[[Game, int], T]) -> tuple[Game, T]:
        """Run ``change(game, attempt)`` and save, retrying when another process saved first."""
        with self._lock(game_id):
            for attempt in range(SAVE_ATTEMPTS):
                game = self._load(game_id)
                try:
                    result = change(game, attempt)
                    self.store.save(game)
                except IntegrityError:
                    self._evict(game_id)
                    continue
                except BaseException:
                    self._evict(game_id)  # the cached object may hold unsaved events
                    raise
                self._saved(game)
                return game, result
        raise Conflict(f"game {game_id} is too busy: {SAVE_ATTEMPTS} attempts to save lost a race; try again")

    def _saved(self, game: Game) -> None:
        self._known_seq[game.id] = game.seq
        for hook in self.after_save:
            hook(game)

    def _publish(self, game: Game) -> None:
        """Tell every stream, in this process or (with Redis) any other, that the game moved on."""
        self.broker.publish(str(game.id), game.seq)

    def _read(self, game_id: UUID, read: Callable[[Game], T]) -> T:
        with self._lock(game_id):
            return read(self._load(game_id))

    # ----- lobby -----

    def create_game(self, spec: dict[str, Any]) -> tuple[UUID, str]:
        """Validate and store a new game; returns its id and the host token (shown once)."""
        rules = _ruleset(spec.get("ruleset", "ever-aegis"))
        config_spec = {
            "seats": spec.get("seats"),
            "variants": spec.get("variant", "simpleton"),
            "reaction_seconds": spec.get("reaction_seconds", self.settings.reaction_seconds),
            "options": spec.get("options") or {},
            "mobs": spec.get("mobs") or (),
        }
        if spec.get("first_player") is not None:
            config_spec["first_player"] = spec["first_player"]
        if spec.get("selection") is not None:
            config_spec["selection"] = spec["selection"]
        try:
            config = rules.make_config(config_spec)
            components = rules.components(config, self.settings.catalog)
            rig = spec.get("setup")
            if rig is not None:
                rules.validate_rig(rig, config.seats, components)
        except MalformedCommand as err:
            raise BadRequest(err.message, rule=err.rule) from None
        seed = spec.get("seed") or secrets.token_hex(16)
        host_token = tokens.new_token(tokens.PREFIX_HOST)
        stored_spec = {k: v for k, v in config.to_dict().items() if k != "names"}
        if components is not None:  # fixed at creation: a later AEGIS_CATALOG does not change this game
            stored_spec["components"] = components
        game = Game(rules.name, stored_spec, seed, tokens.token_hash(host_token), rig, self.clock())
        _fill_mob_seats(game)
        self.store.save(game)
        self._saved(game)
        return game.id, host_token

    def take_seat(self, game_id: UUID, *, name: str | None, bot: str | None) -> tuple[int, str | None]:
        if bot is not None and bot not in BOTS:
            raise BadRequest(f"unknown bot {bot!r}; bots: {', '.join(BOTS)}")
        if name is not None and not 1 <= len(name.strip()) <= MAX_NAME:
            raise BadRequest(f"a name has 1 to {MAX_NAME} characters")
        token = None if bot is not None else tokens.new_token(tokens.PREFIX_SEAT)

        def change(game: Game, attempt: int) -> int:
            if game.status != "lobby":
                raise Conflict("the game has started: no seat can be taken")
            if len(game.seats) >= game.spec["seats"]:
                raise Conflict(f"all {game.spec['seats']} seats are taken")
            seat = len(game.seats)
            label = name.strip() if name else (f"{bot.title()} bot {seat}" if bot else f"Seat {seat}")
            seat = game.take_seat(label, bot, tokens.token_hash(token) if token else None)
            _fill_mob_seats(game)
            return seat

        _, seat = self._change(game_id, change)
        return seat, token

    def start(self, game_id: UUID, host_token: str | None) -> int:
        def change(game: Game, attempt: int) -> int:
            if not tokens.matches(host_token, game.host_token_hash):
                raise Unauthorized("starting a game needs its host token (Authorization: Bearer <host_token>)")
            if game.status != "lobby":
                raise Conflict("the game has already started")
            free = game.spec["seats"] - len(game.seats)
            if free:
                raise Conflict(f"{free} seat(s) still free: fill them (a bot can take one) before starting")
            rules = ruleset_named(game.ruleset)
            now = self.clock()
            config = rules.make_config({**game.spec, "names": [s["name"] for s in game.seats]})
            game.request_start(config.to_dict(), now)
            game.append(rules.start(config, game.seed, now=now, rig=game.rig, components=game.spec.get("components")))
            self._server_moves(game, now)
            return game.seq

        _, seq = self._change(game_id, change)
        return seq

    # ----- play -----

    def submit(
        self, game_id: UUID, token: str | None, body: dict[str, Any], idempotency_key: str | None = None
    ) -> tuple[int, list[dict[str, Any]], bool]:
        """Apply a seat's command. Returns (seq, the new events as that seat sees them, replayed)."""
        arrival = self._known_seq.get(game_id)
        body = dict(body)
        expected = body.pop("expected_seq", None)
        if "at" in body:
            raise BadRequest("'at' is the server's clock; do not send it")

        def change(game: Game, attempt: int) -> tuple[int, list[dict[str, Any]], bool]:
            seat = self._seat_of(game, token)
            request = f"{seat}:{idempotency_key}" if idempotency_key else None
            if request is not None and request in game.idempotency:
                first = game.idempotency[request]
                if {k: v for k, v in first["command"].items() if k != "at"} != {**body, "seat": seat}:
                    raise BadRequest("this Idempotency-Key was used for a different command", kind="idempotency-key-reused")
                return first["last_seq"], self._answer(game, first["first_seq"], first["last_seq"], seat), True
            if game.status == "lobby":
                raise Conflict("the game has not started")
            if game.status == "finished":
                raise Conflict("the game is over; nothing more can be played", rule="R9")
            if expected is not None and expected != game.seq:
                raise Conflict(f"stale: you expected seq {expected}, the game is at {game.seq}", seq=game.seq)
            if "seat" in body and body["seat"] != seat:
                raise Forbidden(f"your token acts for seat {seat}, not seat {body['seat']}")
            now = self.clock()
            command = {**body, "seat": seat, "at": now}
            rules = ruleset_named(game.ruleset)
            raced = attempt > 0 or (arrival is not None and arrival != game.seq)
            try:
                events = rules.decide(game.state, command)
            except DomainError as err:
                raise from_domain(err, raced=raced) from None
            first = game.seq + 1
            game.accept(seat, "seat", command, request, now)
            game.append(events)
            self._server_moves(game, now)
            return game.seq, self._answer(game, first, game.seq, seat), False

        _, answer = self._change(game_id, change)
        return answer

    def close_due_window(self, game_id: UUID) -> bool:
        """Close the open window if its deadline has passed (the deadline keeper calls this)."""

        def change(game: Game, attempt: int) -> bool:
            if game.status != "active":
                return False
            before = game.seq
            self._server_moves(game, self.clock())
            return game.seq != before

        _, changed = self._change(game_id, change)
        return changed

    def _server_moves(self, game: Game, now: float) -> None:
        """The server's part after any change: close windows past their deadline, play bot seats."""
        rules = ruleset_named(game.ruleset)
        for _ in range(self.settings.bot_move_limit):
            if game.status != "active":
                return
            state = game.state
            due = rules.deadline(state)
            if due is not None and now >= due[1]:
                command = rules.close_command(due[0], now)
                game.accept(None, "server", command, game.current_request, now)
                game.append(rules.decide(state, command))
                continue
            bots = [seat for seat, _ in rules.awaited(state) if game.seats[seat]["bot"]]
            if not bots:
                return
            seat = bots[0]
            seed = int.from_bytes(hashlib.sha256(f"{game.seed}#{seat}#{game.seq}".encode()).digest()[:8], "big")
            bot = make_bot(game.seats[seat]["bot"], seed)
            option = bot.choose(rules.view(state, seat), rules.prompts(state, seat))
            if option is None:
                return
            command = {**option.command, "at": now}
            game.accept(seat, "bot", command, game.current_request, now)
            game.append(rules.decide(state, command))

    # ----- reading -----

    def _seat_of(self, game: Game, token: str | None) -> int:
        if not token:
            raise Unauthorized("this needs a seat token (Authorization: Bearer <token>)")
        for s in game.seats:
            if tokens.matches(token, s["token_hash"]):
                return int(s["seat"])
        if tokens.matches(token, game.host_token_hash):
            raise Forbidden("the host token starts the game; playing needs a seat token")
        raise Unauthorized("this token is not a seat of this game")

    def perspective_of(self, game_id: UUID, token: str | None) -> Perspective:
        """A seat for a seat token, the spectator for no token; a wrong token is refused."""
        if not token:
            return SPECTATOR
        return self._read(game_id, lambda game: self._seat_of(game, token))

    def _answer(self, game: Game, first: int, last: int, who: Perspective) -> list[dict[str, Any]]:
        finished = game.finished_seq is not None and game.finished_seq <= last
        effective = reader(who, finished=finished)
        return [redact_event(e, effective) for e in game.log[first - 1 : last]]

    def events(self, game_id: UUID, token: str | None, after: int, limit: int) -> tuple[list[dict[str, Any]], int]:
        def read(game: Game) -> tuple[list[dict[str, Any]], int]:
            who = self._seat_of(game, token) if token else SPECTATOR
            last = min(game.seq, after + limit)
            return self._answer(game, after + 1, last, who) if after < last else [], game.seq

        return self._read(game_id, read)

    def view(self, game_id: UUID, token: str | None) -> dict[str, Any]:
        def read(game: Game) -> dict[str, Any]:
            return view_of(game, self._seat_of(game, token) if token else SPECTATOR)

        return self._read(game_id, read)

    def finished_at(self, game_id: UUID) -> int | None:
        """The seq of the event that ended the game, or None while it goes on."""
        return self._read(game_id, lambda game: game.finished_seq)

    def deadline_in(self, game: Game) -> float | None:
        """When the open reaction window of a loaded game closes, if it has a deadline."""
        if game.status != "active":
            return None
        due = ruleset_named(game.ruleset).deadline(game.state)
        return due[1] if due else None

    def deadline_of(self, game_id: UUID) -> float | None:
        return self._read(game_id, self.deadline_in)


def _ruleset(name: Any) -> Any:
    if not isinstance(name, str):
        raise BadRequest("'ruleset' must be a name, e.g. ever-aegis")
    try:
        return ruleset_named(name)
    except MalformedCommand as err:
        raise BadRequest(err.message) from None


__all__ = ["GameService", "GameStore", "ServiceError"]


def _fill_mob_seats(game: Game) -> None:
    """R173: nobody takes a mob's seat; each is filled as soon as the seats before it are taken. The
    D8 plays it inside the rules' own flow, so the server never moves for a mob."""
    mobs = set(game.spec.get("mobs", ()))
    while len(game.seats) < game.spec["seats"] and len(game.seats) in mobs:
        game.take_seat(f"Mob {len(game.seats)}", None, None)
