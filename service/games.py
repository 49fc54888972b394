"""The game service: create games, take seats, start, submit commands, read views and events.

Every change follows one pipeline (``_change``): under the game's lock, load the aggregate (from the
cache, fast-forwarded from the store), run the change, let the server play its part (bots, windows
whose deadline has passed), and save. A save that loses a race with another process is retried
against the new state; the caller's ``expected_seq`` turns a stale command into 409 instead.

Games are only touched under their lock, so the aggregate cache hands out the cached object itself
(no deep copy); a failed save evicts it so the next load reads the store.

Reads load the game the same way, under its lock, so what they answer is never older than what the store holds
(a reader's own command included, whichever process saved it). A view is computed from that game and kept for its
version (``service.views.ViewCache``): a view read again before the next event costs no computing.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import secrets
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any, TypeVar
from uuid import UUID

from eventsourcing.application import AggregateNotFoundError, Application, ProcessingEvent
from eventsourcing.persistence import EventStore, IntegrityError, Mapper, PersistenceError, Transcoder

from aegis.domain.kernel.errors import DomainError, MalformedCommand
from aegis.domain.kernel.events import Event
from aegis.domain.kernel.redaction import SPECTATOR, Perspective, reader, redact_event
from aegis.domain.kernel.ruleset import Ruleset
from aegis.service import names, rulesets, tokens
from aegis.service.aggregate import Game, GameSnapshot
from aegis.service.bounded import LRU
from aegis.service.branch_opening import begin as begin_branch
from aegis.service.broker import make_broker
from aegis.service.errors import BadRequest, Conflict, Forbidden, NotFound, ServiceError, Unauthorized, from_domain
from aegis.service.event_json import EventJSON
from aegis.service.group_commit import GroupCommit
from aegis.service.lifecycle_log import lifecycle_of, log_saved
from aegis.service.players import Registry, is_player_key
from aegis.service.postgres import creating
from aegis.service.rulesets import BOT_NAMES, ruleset_named
from aegis.service.settings import MAX_CLOCK, MIN_CLOCK, Settings, load
from aegis.service.snapshots import SnapshotCompressor, Snapshotter, crossed
from aegis.service.store_health import WriteHealth
from aegis.service.store_open import opening_failed
from aegis.service.topics import stored_topics
from aegis.service.views import ViewCache

T = TypeVar("T")
log = logging.getLogger(__name__)
SAVE_ATTEMPTS = 8
DEFAULT_TIMEOUTS_TO_FORFEIT = 3
MAX_TIMEOUTS_TO_FORFEIT = 100
MAX_CONTRIBUTION = 200  # characters of a creator's seed or a seat's entropy
# What a game's creation names for the service itself; every other field is the ruleset's (``make_config``).
SERVICE_FIELDS = frozenset({"ruleset", "seed", "exact_seed", "setup", "turn_seconds", "timeouts_to_forfeit"})
LIFECYCLE = ("Created", "StartRequested", "Finished", "Cancelled")  # the events that change a game's status


def server_secret() -> str:
    """The server's entropy for one game: 32 random bytes nobody sees before the game ends."""
    return secrets.token_hex(32)


class GameStore(Application):
    """The eventsourcing application: games as aggregates, snapshots every ``snapshot_interval`` events."""

    name = "Aegis"

    def __init__(self, settings: Settings):
        self.snapshot_interval = settings.snapshot_interval
        self.health = WriteHealth()  # a save that failed because the store cannot be written (store_health)
        try:
            with creating(settings.store_env):  # processes starting together create the tables one at a time
                super().__init__(env={**settings.store_env, "IS_SNAPSHOTTING_ENABLED": "y"})
        except Exception as err:  # said in one line naming the store, and whether waiting can mend it (store_open)
            found = opening_failed(err, settings.store_env)
            if found is None:
                raise
            raise found from err
        self.snapshotter = Snapshotter(self._write_snapshot)
        self.commits = GroupCommit(self._record)

    def construct_transcoder(self) -> Transcoder:
        """The stored events' JSON written with orjson (``service/event_json.py``), unless ``TRANSCODER_TOPIC`` names
        another transcoder."""
        if self.env.get(self.factory.TRANSCODER_TOPIC):
            return super().construct_transcoder()
        transcoder = EventJSON()
        self.register_transcodings(transcoder)
        return transcoder

    def construct_snapshot_store(self) -> EventStore[UUID]:
        """The library's snapshot store, with its own mapper: snapshots compressed (``service/snapshots.py``), written
        with the library's own JSON transcoder (a snapshot holds the aggregate's fields, its UUID among them)."""
        mapper: Mapper[UUID] = Mapper(
            transcoder=super().construct_transcoder(), cipher=self.factory.cipher(), compressor=SnapshotCompressor()
        )
        return self.factory.event_store(mapper=mapper, recorder=self.factory.aggregate_recorder(purpose="snapshots"))

    def save(self, *objs: Any, **kwargs: Any) -> Any:
        """The library's ``save``, written with the saves of other threads that wait at the same time (one
        transaction for all: ``service/group_commit.py``); then a snapshot of a game that crossed the interval."""
        processing: ProcessingEvent[UUID] = ProcessingEvent()
        # what the library's collect_events does with aggregates, without asking each object two runtime-checkable
        # protocols (about 11 us a save): only aggregates (games, player names) are saved here
        for obj in objs:
            processing.events.extend(obj.collect_events())
            processing.aggregates[obj.id] = obj
        processing.saved_kwargs.update(kwargs)
        try:
            recordings = self.commits.record(processing) if not kwargs else self._record(processing)
            self._take_snapshots(processing)  # the rest of the library's save
            self._notify(recordings)
        except PersistenceError as err:
            self.health.failed(err)
            raise
        self.health.saved()
        versions: dict[UUID, list[int]] = {}  # game -> the versions this save stored
        for r in recordings:
            versions.setdefault(r.domain_event.originator_id, []).append(r.domain_event.originator_version)
        for obj in objs:
            saved = versions.get(obj.id) if isinstance(obj, Game) else None
            if saved and obj.version == max(saved) and crossed(self.snapshot_interval, min(saved) - 1, max(saved)):
                self._snapshot(obj)
        return recordings

    def _snapshot(self, game: Game) -> None:
        """Snapshot ``game`` as just saved (the caller holds its lock): taken and mapped now, written in the background."""
        assert self.snapshots is not None
        snapshot = GameSnapshot.take(game)
        self.snapshotter.ask(game.id, game.version, self.snapshots.mapper.to_stored_event(snapshot))

    def _write_snapshot(self, stored: Any) -> None:
        assert self.snapshots is not None
        self.snapshots.recorder.insert_events([stored])

    def close(self) -> None:
        self.snapshotter.close()
        super().close()

    def payloads(self, game: Game, first: int, last: int) -> list[dict[str, Any]]:
        """The ruleset events ``first``..``last`` (seqs, inclusive) of ``game`` as stored: from the game itself when
        it holds them (the latest few), else read from the store between their versions."""
        held = game.held_payloads(first, last)
        if held is not None:
            return held
        unsaved = [e.payload for e in game.pending_events if isinstance(e, Game.Recorded)]  # a change not saved yet
        saved_up_to = unsaved[0]["seq"] - 1 if unsaved else game.seq
        found = []
        if first <= saved_up_to:
            gt, lte = game.version_range(first, min(last, saved_up_to))
            stored = self.events.get(game.id, gt=gt, lte=lte)
            found = [e.payload for e in stored if isinstance(e, Game.Recorded) and first <= e.payload["seq"] <= last]
        return found + [p for p in unsaved if first <= p["seq"] <= last]


class GameService:
    """What the API calls. Methods raise ``ServiceError`` subclasses; nothing is half-saved."""

    def __init__(
        self,
        settings: Settings | None = None,
        clock: Callable[[], float] = time.time,
        entropy: Callable[[], str] = server_secret,
    ):
        self.settings = settings or load()
        self.store = GameStore(self.settings)
        self.players = Registry(self.store)
        self.clock = clock
        self.entropy = entropy
        # the lock of each game in use now, with how many threads hold it or wait for it (dropped at 0: no entry
        # per game ever touched); and the seq this process last saved of recent open games (a race hint, see submit)
        self._locks: dict[UUID, tuple[threading.Lock, int]] = {}
        self._locks_lock = threading.Lock()
        self._known_seq: LRU[UUID, int] = LRU(self.settings.cache_games)
        self.views = ViewCache(self.settings.cache_views)  # views computed on read, by game version and reader
        self.broker = make_broker(self.settings.redis_url, self.settings.redis_prefix)
        # the version this process saved last of recent games, while nothing says another process saved since: a
        # change then starts from the cached game without reading the store (``_trusted``). With Redis, whose
        # notices come from every process, a notice of a later save makes it forget. Without Redis another process
        # may save unheard: the first change of a game worked out on a stale cached game (its save lost the race, or
        # it was refused) marks the game as shared (``_shared``), and this process reads it afresh from then on.
        self._latest: LRU[UUID, int] = LRU(self.settings.cache_games)
        self._shared: LRU[UUID, bool] | None = None if self.settings.redis_url else LRU(self.settings.cache_games)
        self._stopping = threading.Event()
        if self._shared is None:
            threading.Thread(target=self._hear_others, name="aegis-saves-elsewhere", daemon=True).start()
        # told of every save with the game's next deadline (``deadline_in``): the notices, the deadline keeper, projections
        self.after_save: list[Callable[[Game, float | None], None]] = [self._publish]

    def close(self) -> None:
        self._stopping.set()
        self.broker.flush(2.0)  # the last saves' notices reach the other processes before this one goes
        self.store.close()

    def _hear_others(self) -> None:
        """Forget what this process saved last of a game once a notice says the game moved on elsewhere."""
        while not self._stopping.is_set():
            try:
                with self.broker.listen_all() as listener:
                    while not self._stopping.is_set():
                        for notice in listener.get(timeout=1.0):
                            with contextlib.suppress(ValueError):
                                game_id = UUID(notice.game_id)
                                latest = self._latest.get(game_id)
                                if latest is not None and (notice.version is None or notice.version > latest):
                                    self._latest.pop(game_id)  # saved elsewhere since this process saved it
            except Exception:  # Redis away: the listener outlives it; a stale game only costs a retried save
                log.warning("listening to other processes' saves failed; listening again", exc_info=True)
                self._latest.clear()
                self._stopping.wait(1.0)

    # ----- the pipeline -----

    @contextlib.contextmanager
    def _lock(self, game_id: UUID) -> Iterator[None]:
        """Hold the game's lock; the lock exists while some thread holds it or waits for it."""
        with self._locks_lock:
            lock, users = self._locks.get(game_id) or (threading.Lock(), 0)
            self._locks[game_id] = (lock, users + 1)
        try:
            with lock:
                yield
        finally:
            with self._locks_lock:
                users = self._locks[game_id][1] - 1
                if users:
                    self._locks[game_id] = (lock, users)
                else:
                    del self._locks[game_id]

    def _load(self, game_id: UUID) -> Game:
        """The game as stored now: the cached one brought up to date from the store (the library's fast-forward)."""
        try:
            game: object = self.store.repository.get(game_id)
        except AggregateNotFoundError:
            raise NotFound(f"no game {game_id}") from None
        if not isinstance(game, Game):  # pragma: no cover - the store holds only games
            raise NotFound(f"no game {game_id}")
        return game

    def _trusted(self, game_id: UUID) -> Game | None:
        """The cached game as it is, without reading the store, when this process saved it last and no notice says
        another process saved it since (None otherwise). Only a change that saves may use it: its save then proves
        the game was the latest (were it stale, the save loses the race on the version); an answer given without a
        save (a refusal, nothing to do) is worked out again on the game read afresh (``_change``)."""
        version = self._latest.get(game_id)
        cache = self.store.repository.cache
        if version is None or cache is None:
            return None
        try:
            cached = cache.get(game_id)
        except KeyError:
            return None
        if isinstance(cached, Game) and cached.version == version and not cached.pending_events:
            return cached
        return None

    def _evict(self, game_id: UUID, stale: bool = False) -> None:
        """Drop the cached game; ``stale``: it was found behind the store, so (without Redis) another process saves it."""
        self._latest.pop(game_id)
        if stale and self._shared is not None:
            self._shared[game_id] = True
        cache = self.store.repository.cache
        if cache is not None:
            with contextlib.suppress(KeyError):
                cache.get(game_id, evict=True)

    def _change(self, game_id: UUID, change: Callable[[Game, int], T], also: list[Game] | None = None) -> tuple[Game, T]:
        """Run ``change(game, attempt)`` and save, retrying when another process saved first (``attempt``: how many
        saves lost a race so far). ``also``: new games the change made (it fills the list), saved with the game in
        one transaction (a branch and its original)."""
        with self._lock(game_id):
            attempt = 0
            trust = True
            while attempt < SAVE_ATTEMPTS:
                trusted = self._trusted(game_id) if trust else None
                trust = False
                game = trusted or self._load(game_id)
                extra = also if also is not None else []
                extra.clear()
                try:
                    result = change(game, attempt)
                    if game.finished_seq is not None and game.finished_at is None:
                        game.finish(self.clock())  # the lifecycle event beside the ruleset's last one
                    if trusted is not None and not game.pending_events:
                        self._evict(game_id)  # nothing to save proves the cached game was the latest: read it afresh
                        continue
                    to_log = lifecycle_of(game, *extra)  # read before the save clears them
                    self.store.save(game, *extra)
                    log_saved(to_log)
                except IntegrityError:
                    self._evict(game_id, stale=trusted is not None)
                    if trusted is None:
                        attempt += 1  # another process saved first; a trusted cache that was stale is no race of ours
                    continue
                except ServiceError:
                    self._evict(game_id, stale=trusted is not None)
                    if trusted is not None:
                        continue  # refused on the cached game: the game read afresh decides
                    raise
                except BaseException:
                    self._evict(game_id)  # the cached object may hold unsaved events
                    raise
                self._saved(game)
                for made in extra:
                    self._saved(made)
                return game, result
        raise Conflict(f"game {game_id} is too busy: {SAVE_ATTEMPTS} attempts to save lost a race; try again")

    def _saved(self, game: Game) -> None:
        if game.status in ("lobby", "active"):
            self._known_seq[game.id] = game.seq
            if self._shared is None or game.id not in self._shared:
                self._latest[game.id] = game.version
        else:
            self._known_seq.pop(game.id)
            self._latest.pop(game.id)
        deadline = self.deadline_in(game)
        for hook in self.after_save:
            hook(game, deadline)

    def _publish(self, game: Game, deadline: float | None) -> None:
        """Tell every stream and deadline keeper, in this process or (with Redis) any other, that the game moved on."""
        self.broker.publish(str(game.id), game.seq, deadline, game.version)

    def read(self, game_id: UUID, read: Callable[[Game], T]) -> T:
        """``read(game)`` on the game as stored now, under its lock (the public read API: the replays, the
        streams and the tickets read through it). ``read`` must not keep the game beyond the call."""
        with self._lock(game_id):
            return read(self._load(game_id))

    def record(self, game_id: UUID, last: int | None = None) -> tuple[Game, list[dict[str, Any]]]:
        """The game and its log of ruleset events (payloads, in order: all of them, or 1..``last``), read together under
        its lock. The game object is the cached one: read what is needed of it at once."""
        return self.read(game_id, lambda game: (game, self.store.payloads(game, 1, game.seq if last is None else last)))

    # ----- lobby -----

    def configure(self, spec: dict[str, Any]) -> tuple[Ruleset, Any, Any, dict[str, Any] | None]:
        """What the rules make of a game's creation, stored nowhere: its ruleset, configuration, components and rigged
        position; a ``BadRequest`` naming the rule for what they refuse."""
        rules = _ruleset(spec.get("ruleset", rulesets.DEFAULT))  # None when several are hosted: it must be named
        config_spec = {k: v for k, v in spec.items() if k not in SERVICE_FIELDS and v is not None}
        config_spec.setdefault("reaction_seconds", self.settings.reaction_seconds)
        try:
            config = rules.make_config(config_spec)
            components = rules.components(config, self.settings.catalog)
            rig = spec.get("setup")
            if rig is not None:
                rules.validate_rig(rig, config.seats, components)
        except MalformedCommand as err:
            raise BadRequest(err.message, rule=err.rule) from None
        return rules, config, components, rig

    def create_game(self, spec: dict[str, Any]) -> tuple[UUID, str, str | None]:
        """Validate and store a new game; returns its id, the host token (shown once) and the commitment to the
        server's secret (None for a game with ``exact_seed``: its creator chose the seed)."""
        rules, config, components, rig = self.configure(spec)
        table = _table_options(spec, self.settings.turn_seconds)
        creator_seed = _contribution(spec.get("seed"), "'seed'")
        exact = spec.get("exact_seed", False)
        if not isinstance(exact, bool):
            raise BadRequest("'exact_seed' is true or false")
        if exact and creator_seed is None:
            raise BadRequest("'exact_seed' needs a 'seed': the game's shuffles are then drawn from it exactly")
        host_token = tokens.new_token(tokens.PREFIX_HOST)
        stored_spec = {k: v for k, v in config.to_dict().items() if k != "names"} | table
        if components is not None:  # fixed at creation: a later AEGIS_CATALOG does not change this game
            stored_spec["components"] = components
        now = self.clock()
        game = Game(
            rules.name,
            stored_spec,
            creator_seed if exact and creator_seed is not None else self.entropy(),
            tokens.token_hash(host_token),
            rig,
            now,
            creator_seed=None if exact else creator_seed,
            seeding="exact" if exact else "mixed",
            expires_at=now + self.settings.lobby_ttl,
        )
        fill_seats_of_the_rules(game)
        to_log = lifecycle_of(game)
        self.store.save(game)
        log_saved(to_log)
        self._saved(game)
        return game.id, host_token, game.commitment

    def take_seat(
        self,
        game_id: UUID,
        *,
        name: str | None,
        bot: str | None,
        player_key: str | None = None,
        entropy: str | None = None,
    ) -> tuple[int, str | None]:
        """Seat a person (a registered player with their player key, or a guest) or a bot."""
        if bot is not None and (player_key is not None or entropy is not None):
            raise BadRequest("a bot seat takes no player key and no entropy")
        label = names.normal(name) if name is not None else None
        player = None
        if player_key is not None:
            if not is_player_key(player_key):
                raise Unauthorized("taking a seat as a registered player needs a player key (POST /api/players gives one)")
            player = self.players.by_key(player_key).name
            if label is not None and names.key(label) != names.key(player):
                raise BadRequest(f"this player key belongs to {player!r}, not {label!r}; leave 'name' out to sit as {player!r}")
            label = player
        elif label is not None:
            names.refuse_service_form(label, BOT_NAMES)
            if (owner := self.players.find(label)) is not None:
                raise Conflict(
                    f"{label!r} is the registered player {owner.name!r}'s name: take the seat with that player's key "
                    "(Authorization: Bearer <player key>), or choose another name",
                    kind="name-taken",
                )
        contribution = _contribution(entropy, "'entropy'")
        token = None if bot is not None else tokens.new_token(tokens.PREFIX_SEAT)

        def change(game: Game, attempt: int) -> int:
            if self._expire(game):
                return -1
            if game.status != "lobby":
                raise Conflict(f"the game is {status_words(game.status)}: no seat can be taken")
            bots = ruleset_named(game.ruleset).bots
            if bot is not None and bot not in bots:
                raise BadRequest(f"unknown bot {bot!r}; bots: {', '.join(bots)}")
            if len(game.seats) >= game.spec["seats"]:
                raise Conflict(f"all {game.spec['seats']} seats are taken")
            seat = len(game.seats)
            if player is not None:
                mine = next((s["seat"] for s in game.seats if s.get("player") == player), None)
                if mine is not None:
                    raise Conflict(f"{player} already sits at seat {mine} of this game: a player takes one seat", kind="seated")
            chosen = label if label is not None else (f"{bot.title()} bot {seat}" if bot else f"Seat {seat}")
            taken = {names.key(s["name"]) for s in game.seats}
            if names.key(chosen) in taken:
                raise Conflict(
                    f"a seat of this game is already named {chosen!r}: names are unique within a game", kind="name-taken"
                )
            seat = game.take_seat(chosen, bot, tokens.token_hash(token) if token else None, player, contribution)
            fill_seats_of_the_rules(game)
            return seat

        _, seat = self._change(game_id, change)
        if seat < 0:
            raise _lobby_expired()
        return seat, token

    def register_player(self, name: object) -> tuple[str, str]:
        """Register a player's name; returns (the name as kept, the player key, shown once)."""
        return self.players.register(name, self.clock())

    def cancel(self, game_id: UUID, host_token: str | None) -> None:
        """The host cancels a game that has not started."""

        def change(game: Game, attempt: int) -> bool:
            _host_only(game, host_token, "cancelling a game")
            if self._expire(game):
                return False
            if game.status != "lobby":
                raise Conflict(f"the game is {status_words(game.status)}: only a game that has not started can be cancelled")
            game.cancel("cancelled", self.clock())
            return True

        _, cancelled = self._change(game_id, change)
        if not cancelled:
            raise _lobby_expired()

    def _expire(self, game: Game) -> bool:
        """Record that a game left in the lobby past its time expired; True if it did now."""
        now = self.clock()
        if game.status == "lobby" and game.expires_at is not None and now >= game.expires_at:
            game.cancel("expired", now)
            return True
        return False

    def start(self, game_id: UUID, host_token: str | None) -> int:
        def change(game: Game, attempt: int) -> int:
            _host_only(game, host_token, "starting a game")
            if self._expire(game):
                return -1
            if game.status in ("cancelled", "expired"):
                raise Conflict(f"the game was {game.status} before it started", kind=game.status)
            if game.status != "lobby":
                raise Conflict("the game has already started")
            free = game.spec["seats"] - len(game.seats)
            if free:
                raise Conflict(f"{free} seat(s) still free: fill them (a bot can take one) before starting")
            rules = ruleset_named(game.ruleset)
            now = self.clock()
            config = rules.make_config({**game.spec, "names": [s["name"] for s in game.seats]})
            game.request_start(config.to_dict(), now)
            if game.branch_of is None:
                game.append(setup_events(rules, game, config, now))
            else:  # a branch begins with its original's record up to the branch point (service/branches.py)
                begin_branch(game, now, self.record)
            self._server_moves(game, now)
            return game.seq

        _, seq = self._change(game_id, change)
        if seq < 0:
            raise _lobby_expired()
        return seq

    # ----- play -----

    def submit(
        self, game_id: UUID, token: str | None, body: dict[str, Any], idempotency_key: str | None = None
    ) -> tuple[int, list[dict[str, Any]], bool]:
        """Apply a seat's command. Returns (seq, the new events as that seat sees them, replayed)."""
        arrival = self._known_seq.get(game_id)  # None: not saved here lately (then only a lost save is a race)
        body = dict(body)
        expected = body.pop("expected_seq", None)
        if "at" in body:
            raise BadRequest("'at' is the server's clock; do not send it")

        def change(game: Game, attempt: int) -> tuple[int, list[dict[str, Any]], bool]:
            seat = self._seat_of(game, token)
            request = f"{seat}:{idempotency_key}" if idempotency_key else None
            if request is not None and request in game.idempotency:
                earlier = game.idempotency[request]
                if {k: v for k, v in earlier["command"].items() if k != "at"} != {**body, "seat": seat}:
                    raise BadRequest("this Idempotency-Key was used for a different command", kind="idempotency-key-reused")
                return earlier["last_seq"], self._answer(game, earlier["first_seq"], earlier["last_seq"], seat), True
            if game.status in ("lobby", "cancelled", "expired"):
                raise Conflict("the game has not started" if game.status == "lobby" else f"the game was {game.status}")
            if game.status == "finished":
                raise Conflict("the game is over; nothing more can be played", rule="R9")
            if expected is not None and expected != game.seq:
                raise Conflict(f"stale: you expected seq {expected}, the game is at {game.seq}", seq=game.seq)
            named = body.get("seat", seat)
            if isinstance(named, bool) or not isinstance(named, int) or named < 0:  # before whose seat it names
                raise BadRequest("'seat' must be a seat number (0 or more)", errors={"seat": ["Not a seat number."]})
            if named != seat:
                raise Forbidden(f"your token acts for seat {seat}, not seat {body['seat']}")
            rules = ruleset_named(game.ruleset)
            if body.get("type") in rules.system_commands:
                raise BadRequest(f"{body['type']!r} is a command of the server itself; it cannot be sent")
            if body.get("type") != "resign" and seat in rules.autoplayed(game.state):
                raise Conflict(
                    f"seat {seat} is played by the server now (it resigned, or was given to a bot after "
                    "running out of time): its commands are no longer taken; it may still resign",
                    kind="autoplayed",
                    rule="S3",
                )
            now = self.clock()
            command = {**body, "seat": seat, "at": now}
            raced = attempt > 0 or (arrival is not None and arrival != game.seq)
            first = game.seq + 1
            game.accept(seat, "seat", command, request, now)  # before the rules move the state: its clocks settle first
            try:
                game.play(command)
            except DomainError as err:  # nothing saved: the accepted command is dropped with the cached game
                raise from_domain(err, raced=raced) from None
            self._server_moves(game, now)
            return game.seq, self._answer(game, first, game.seq, seat), False

        _, answer = self._change(game_id, change)
        return answer

    def enforce_deadlines(self, game_id: UUID) -> bool:
        """Act on every deadline of the game that has passed (the deadline keeper calls this): close a reaction
        window, decide for a seat whose clock ran out, expire a game left in the lobby. True if anything changed."""

        def change(game: Game, attempt: int) -> bool:
            if self._expire(game):
                return True
            if game.status != "active":
                return False
            before = game.seq
            self._server_moves(game, self.clock())
            return game.seq != before

        _, changed = self._change(game_id, change)
        return changed

    def _server_moves(self, game: Game, now: float) -> None:
        """The server's part after any change: close windows past their deadline, decide for seats whose clock
        ran out, play bot seats and seats the server plays (resigned, abandoned)."""
        rules = ruleset_named(game.ruleset)
        for _ in range(self.settings.bot_move_limit):
            if game.status != "active":
                return
            state = game.state
            due = rules.deadline(state)
            if due is not None and now >= due[1]:
                command = rules.close_command(due[0], now)
                game.accept(None, "server", command, game.current_request, now)
                game.play(command)
                continue
            clocks = game.deadlines()
            late = sorted((at, seat) for seat, at in clocks.items() if now >= at)
            if late:
                self._time_out(game, rules, late[0][1], late[0][0], now)
                continue
            bots = _awaited_from_server(game, rules)
            if not bots:  # the game waits for people: what deadline_in would work out again, kept for this version
                game.__dict__["_next_deadline"] = (game.version, _soonest(due, clocks))
                return
            seat = bots[0]
            chosen = self._bot(game, seat).choose(rules.view(state, seat), rules.prompts(state, seat))
            if chosen is None:
                return
            command = {**chosen, "at": now}
            game.accept(seat, "bot", command, game.current_request, now)
            game.play(command)

    def _bot(self, game: Game, seat: int) -> Any:
        """The bot that plays ``seat`` now: its own, or the one that stands in for a person (ruling S3)."""
        seed = int.from_bytes(hashlib.sha256(f"{game.seed}#{seat}#{game.seq}".encode()).digest()[:8], "big")
        rules = ruleset_named(game.ruleset)
        own = game.seats[seat]["bot"]
        return rules.bots[own](seed) if own else rules.stand_in(seed)

    def _time_out(self, game: Game, rules: Ruleset, seat: int, deadline: float, now: float) -> None:
        """The seat's clock ran out: the ruleset's stand-in bot decides for it, recorded as a timeout (ruling S3); after
        ``timeouts_to_forfeit`` in a row the seat is abandoned to the bot for the rest of the game."""
        state = game.state
        kinds = game.clock_kinds[str(seat)]
        prompts = [p for p in rules.prompts(state, seat) if not p.free and p.kind in kinds]
        play = self._bot(game, seat).choose(rules.view(state, seat), prompts)
        if play is None:  # pragma: no cover - a blocking prompt always has an option
            raise AssertionError(f"no option for seat {seat}'s timed-out decision")
        kind = next(p.kind for p in prompts if p.accepts(play))
        count = game.timeouts.get(str(seat), 0) + 1
        limit = game.spec.get("timeouts_to_forfeit", DEFAULT_TIMEOUTS_TO_FORFEIT)
        command = {
            "type": "timeout",
            "seat": seat,
            "kind": kind,
            "deadline": deadline,
            "count": count,
            "abandon": bool(limit) and count >= limit,
            "play": play,
            "at": now,
        }
        game.accept(seat, "timeout", command, game.current_request, now)
        game.play(command)

    # ----- reading -----

    def _seat_of(self, game: Game, token: str | None) -> int:
        if not token:
            raise Unauthorized("this needs a seat token (Authorization: Bearer <token>)")
        seat = tokens.seat_of(game.seats, token)
        if seat is not None:
            return seat
        if tokens.matches(token, game.host_token_hash):
            raise Forbidden("the host token starts the game; playing needs a seat token")
        raise Unauthorized("this token is not a seat of this game")

    def perspective_of(self, game_id: UUID, token: str | None) -> Perspective:
        """A seat for a seat token, the spectator for no token; a wrong token is refused."""
        if not token:
            return SPECTATOR
        return self.read(game_id, lambda game: self._seat_of(game, token))

    def _answer(self, game: Game, first: int, last: int, who: Perspective) -> list[dict[str, Any]]:
        """Events ``first``..``last`` as ``who`` may see them: once the game is over, everything, whichever page."""
        effective = reader(who, finished=game.finished_seq is not None)
        return [redact_event(e, effective) for e in self.store.payloads(game, first, last)]

    def events(self, game_id: UUID, token: str | None, after: int, limit: int) -> tuple[list[dict[str, Any]], int]:
        """``GET /events``: a cursor past the game's last event is refused (400), as the stream's Last-Event-ID is:
        no event of the game has it, so it is another game's or a mistake, and waiting on it would say nothing."""

        def page(game: Game) -> tuple[list[dict[str, Any]], int]:
            if after > game.seq:
                raise BadRequest(f"'after' {after} is past this game's last event (seq {game.seq})")
            return self._events(game, self._reader(game, token), after, limit)

        return self.read(game_id, page)

    def events_as(self, game_id: UUID, who: Perspective, after: int, limit: int) -> tuple[list[dict[str, Any]], int]:
        """Up to ``limit`` events after seq ``after`` as ``who`` may see them, and the game's seq."""
        return self.read(game_id, lambda game: self._events(game, who, after, limit))

    def _events(self, game: Game, who: Perspective, after: int, limit: int) -> tuple[list[dict[str, Any]], int]:
        last = min(game.seq, after + limit)
        return self._answer(game, after + 1, last, who) if after < last else [], game.seq

    def view(self, game_id: UUID, token: str | None) -> dict[str, Any]:
        """The reader's view of the game as stored now (so never older than the reader's own last command), computed
        from the game this process holds, or taken from ``self.views`` when already computed at this version. The
        dict is shared: do not change it."""
        return self.read(game_id, lambda game: self.views.view(game, self._reader(game, token)))

    def view_as(self, game_id: UUID, who: Perspective) -> dict[str, Any]:
        return self.read(game_id, lambda game: self.views.view(game, who))

    def _reader(self, game: Game, token: str | None) -> Perspective:
        return self._seat_of(game, token) if token else SPECTATOR

    def finished_at(self, game_id: UUID) -> int | None:
        """The seq of the event that ended the game, or None while it goes on."""
        return self.read(game_id, lambda game: game.finished_seq)

    def deadline_in(self, game: Game) -> float | None:
        """The next moment the server must act on a loaded game: a reaction window or undo pause closing, a
        seat's decision clock running out, the lobby expiring; or at once, when the game waits for a seat the
        server plays (a change plays at most ``AEGIS_BOT_MOVE_LIMIT`` bot moves: the keeper plays on)."""
        if game.status == "lobby":
            return game.expires_at
        if game.status != "active":
            return None
        known = game.__dict__.get("_next_deadline")  # found by the server's moves of this change (``_server_moves``)
        if known is not None and known[0] == game.version:
            return known[1]
        rules = ruleset_named(game.ruleset)
        if _awaited_from_server(game, rules):
            return self.clock()
        return _soonest(rules.deadline(game.state), game.deadlines())

    def deadline_of(self, game_id: UUID) -> float | None:
        return self.read(game_id, self.deadline_in)

    def open_games(self) -> list[UUID]:
        """Every game in the lobby or in play, read from the store itself (never from a view that may lag):
        the deadline keeper starts from these."""
        open_ids: dict[UUID, bool] = {}
        position = 0
        topics = stored_topics(getattr(Game, name) for name in LIFECYCLE)
        while True:
            batch = self.store.recorder.select_notifications(position, 1000, topics=topics, inclusive_of_start=False)
            for n in batch:
                name = n.topic.rsplit(".", 1)[-1]
                if name in ("Created", "StartRequested"):
                    open_ids[n.originator_id] = True  # type: ignore[index]
                else:
                    open_ids.pop(n.originator_id, None)  # type: ignore[arg-type]
            if len(batch) < 1000:
                return list(open_ids)
            position = batch[-1].id


STATUS_WORDS = {"lobby": "still in the lobby", "active": "in play", "finished": "over"}  # "cancelled", "expired" read as they are


def status_words(status: str) -> str:
    """A game's status as a sentence says it: "the game is still in the lobby", "the game is cancelled"."""
    return STATUS_WORDS.get(status, status)


def setup_events(rules: Ruleset, game: Game, config: Any, now: float) -> list[Event]:
    """The ruleset's events that begin ``game``: shuffled from its seed (``Game.shuffle_seed``), with the
    commitment published at its creation (none for a game whose creator chose the seed: it is rigged). The service
    starts a game with them, and ``verify`` re-runs them."""
    commitment = {"mixed": game.commitment, "exact": ""}.get(game.seeding)  # "plain": the seed's own hash
    return list(
        rules.start(
            config, game.shuffle_seed(), now=now, rig=game.rig, components=game.spec.get("components"), commitment=commitment
        )
    )


def _ruleset(name: Any) -> Ruleset:
    if not isinstance(name, str):
        raise BadRequest(f"'ruleset' must be the name of a ruleset this service hosts: {', '.join(rulesets.RULESETS)}")
    try:
        return ruleset_named(name)
    except MalformedCommand as err:
        raise BadRequest(err.message) from None


__all__ = ["GameService", "GameStore", "ServiceError"]


def _soonest(due: tuple[int | str, float] | None, clocks: dict[int, float]) -> float | None:
    """The next moment the server must act on a game that waits for people: its ruleset's deadline (``due``: a
    reaction window or pause closing) or a seat's decision clock running out, whichever comes first."""
    moments = [due[1]] if due else []
    moments.extend(clocks.values())
    return min(moments, default=None)


def _awaited_from_server(game: Game, rules: Ruleset) -> list[int]:
    """The seats the game waits for that the server plays (``Game.served_seats``), in the order it waits."""
    served = game.served_seats()
    return [seat for seat, _ in rules.awaited(game.state) if seat in served]


def _host_only(game: Game, token: str | None, doing: str) -> None:
    """Only the host token may do this: another token of the game (a seat's) is known but not allowed (403); no
    token, or one the game does not know, is a 401, as on every route."""
    if tokens.matches(token, game.host_token_hash):
        return
    if token and tokens.seat_of(game.seats, token) is not None:
        raise Forbidden(f"{doing} needs its host token; this is a seat's token")
    raise Unauthorized(f"{doing} needs its host token (Authorization: Bearer <host_token>)")


def _lobby_expired() -> Conflict:
    return Conflict("the game expired in the lobby: it was not started in time", kind="expired")


def _table_options(spec: dict[str, Any], default_turn_seconds: float) -> dict[str, Any]:
    """The service's own game options: the decision clock and when a seat that keeps timing out is abandoned."""
    seconds = spec.get("turn_seconds", default_turn_seconds)
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or seconds != seconds:
        raise BadRequest("'turn_seconds' is a number of seconds")
    if seconds and not MIN_CLOCK <= seconds <= MAX_CLOCK:
        raise BadRequest(f"'turn_seconds' is 0 (no clock) or {MIN_CLOCK:g} to {MAX_CLOCK:g} seconds, not {seconds}")
    limit = spec.get("timeouts_to_forfeit", DEFAULT_TIMEOUTS_TO_FORFEIT)
    if isinstance(limit, bool) or not isinstance(limit, int) or not 0 <= limit <= MAX_TIMEOUTS_TO_FORFEIT:
        raise BadRequest(f"'timeouts_to_forfeit' is a whole number from 0 (never) to {MAX_TIMEOUTS_TO_FORFEIT}")
    return {"turn_seconds": float(seconds), "timeouts_to_forfeit": limit}


def _contribution(value: Any, what: str) -> str | None:
    """A participant's contribution to the shuffle seed: any text of 1 to ``MAX_CONTRIBUTION`` characters."""
    if value is None:
        return None
    if not isinstance(value, str) or not 1 <= len(value) <= MAX_CONTRIBUTION:
        raise BadRequest(f"{what} is a string of 1 to {MAX_CONTRIBUTION} characters")
    return value


def fill_seats_of_the_rules(game: Game) -> None:
    """Nobody takes a seat the rules play themselves (``Ruleset.seated_by_rules``); each is filled as soon as the
    seats before it are taken, and the server never moves for it."""
    by_rules = ruleset_named(game.ruleset).seated_by_rules(game.spec)
    while len(game.seats) < game.spec["seats"] and len(game.seats) in by_rules:
        game.take_seat(by_rules[len(game.seats)], None, None)
