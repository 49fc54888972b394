"""The game aggregate: one per game, stored with the ``eventsourcing`` library.

The stored log reads like the game: every domain event of the ruleset is recorded as an aggregate
event class of the same name (``service.aggregate:Game.CardDrawn``, ``Game.BluffCalled``, ...) whose
``payload`` is the domain event as a dict. Around them sit a few service events: the lobby
(``Created``, ``SeatTaken``, ``StartRequested``) and, before the events each command caused,
``CommandAccepted`` (who sent what, when, under which idempotency key), so an auditor reading the
store sees the command next to its consequences.

The ruleset state is folded from the payloads as they are applied. The game does not hold its whole log: it
keeps the last ``RECENT`` payloads (what streams and players ask for) and, for every ruleset event, the
aggregate version it was stored at, so the service reads any other range from the store. A snapshot holds the
ruleset's state as data (``Ruleset.encode_state``), not the log, so its size does not grow with the game's length
(``GameSnapshot``).

The game's lifecycle is recorded by service events too: ``Finished`` once the ruleset says the game is over,
``Cancelled`` when its host cancels it or it expires in the lobby. Decision clocks are derived from the
recorded command times (see ``settle_clock``), so they survive a restart without a stored event of their own.
"""

from __future__ import annotations

import dataclasses
from array import array
from collections import deque
from datetime import datetime
from typing import Any

from eventsourcing.domain import Aggregate, Snapshot

from aegis.domain.kernel.events import Event, event_class, event_from_dict
from aegis.domain.kernel.rng import commitment_of, mix_seed
from aegis.service.rulesets import RULESETS, ruleset_named
from aegis.service.topics import register_legacy

# the state is stored encoded (``GameSnapshot``); recent payloads not at all; ``_applied_through``: while ``play``
# records what the state has already moved on by
TRANSIENT = ("_game_state", "_recent", "_applied_through", "_next_deadline")
RECENT = 48  # ruleset payloads a game keeps in memory, the latest (older ones are read from the store)


class Game(Aggregate):
    """A game's lobby, its seats and the ruleset's event log."""

    class Created(Aggregate.Created):
        ruleset: str
        spec: dict[str, Any]
        seed: str  # "mixed": the server's secret; "exact" or "plain" (games from before secrets): the seed itself
        host_token_hash: str
        rig: dict[str, Any] | None
        created_at: float
        creator_seed: str | None = None  # mixed into the server's secret (seeding "mixed")
        seeding: str = "plain"  # "mixed" (server secret + contributions), "exact" (the creator's seed: rigged)
        expires_at: float | None = None  # the lobby expires unless started by then

    class SeatTaken(Aggregate.Event):
        seat: int
        name: str
        bot: str | None
        token_hash: str | None
        player: str | None = None  # the registered player sitting here (None: a guest, a bot or a mob)
        entropy: str | None = None  # the seat's contribution to the shuffle seed (seeding "mixed")

        def apply(self, aggregate: Game) -> None:
            aggregate.seats.append(
                {
                    "seat": self.seat,
                    "name": self.name,
                    "bot": self.bot,
                    "token_hash": self.token_hash,
                    "player": self.player,
                    "entropy": self.entropy,
                }
            )

    class StartRequested(Aggregate.Event):
        config: dict[str, Any]
        at: float
        rules_version: int | None = None  # the ruleset's ``rules_version`` that started it (None: before versions)

        def apply(self, aggregate: Game) -> None:
            aggregate.config = self.config
            aggregate.rules_versions = [{"version": self.rules_version, "from_seq": 1}]
            rules = ruleset_named(aggregate.ruleset)
            aggregate.__dict__["_game_state"] = rules.fold(rules.make_config(self.config), ())
            aggregate.started_at = self.at
            aggregate.clock_change = {"at": self.at, "by": None}

    class RulesChanged(Aggregate.Event):
        """The service was upgraded while the game was on: from the ruleset event ``from_seq`` on, its commands
        are decided under the ruleset's ``version`` (``Ruleset.rules_version``)."""

        version: int
        from_seq: int

        def apply(self, aggregate: Game) -> None:
            aggregate.rules_versions.append({"version": self.version, "from_seq": self.from_seq})

    class Finished(Aggregate.Event):
        """The ruleset's log reached its end (recorded with the command that ended it)."""

        seq: int
        at: float

        def apply(self, aggregate: Game) -> None:
            aggregate.finished_at = self.at
            aggregate.finished_seq = self.seq  # as the ruleset's last event set it; a game folded without them needs it

    class Cancelled(Aggregate.Event):
        """A game that never started: cancelled by its host, or expired in the lobby."""

        reason: str  # "cancelled" or "expired"
        at: float

        def apply(self, aggregate: Game) -> None:
            aggregate.cancelled = self.reason

    class BranchMade(Aggregate.Event):
        """This game is a branch of ``game``: it begins from the position after that game's step ``step``
        (``service/branches.py``), dealt ``deal`` ("same" or "as_known" for the seat ``knower``), with ``command`` (or
        none) played there instead of what was played. Recorded right after ``Created``."""

        game: str
        step: int
        deal: str
        knower: int | None
        command: dict[str, Any] | None

        def apply(self, aggregate: Game) -> None:
            aggregate.branch_of = {
                "game": self.game,
                "step": self.step,
                "deal": self.deal,
                "knower": self.knower,
                "command": self.command,
            }

    class Branched(Aggregate.Event):
        """A branch of this game was made from its step ``step``: the game ``branch`` (linked both ways)."""

        branch: str
        step: int

        def apply(self, aggregate: Game) -> None:
            aggregate.branches.append({"id": self.branch, "step": self.step})

    class CommandAccepted(Aggregate.Event):
        seat: int | None  # None: a command of the service itself (a deadline)
        by: str  # "seat", "bot", "server", "timeout" or "branch" (the command a branch was made with)
        command: dict[str, Any]
        request: str | None  # "<seat>:<Idempotency-Key>" of the request this command belongs to
        first_seq: int
        at: float

        def apply(self, aggregate: Game) -> None:
            aggregate.current_request = self.request
            if self.request is not None and self.by == "seat":
                aggregate.idempotency[self.request] = {"command": self.command, "first_seq": self.first_seq, "last_seq": 0}
            aggregate.settle_clock()  # the state is settled before a command: its clocks are due from the last change
            aggregate.clock_change = {"at": self.at, "by": self.seat}
            if self.seat is not None and self.by == "seat":
                aggregate.timeouts.pop(str(self.seat), None)  # the player is back: their run of timeouts is over
            elif self.seat is not None and self.by == "timeout":
                aggregate.timeouts[str(self.seat)] = aggregate.timeouts.get(str(self.seat), 0) + 1

    class Recorded(Aggregate.Event):
        """Base of the per-type classes made below: one ruleset event."""

        payload: dict[str, Any]

        def apply(self, aggregate: Game) -> None:
            aggregate.record(self.payload, self.originator_version)

    def __init__(
        self,
        ruleset: str,
        spec: dict[str, Any],
        seed: str,
        host_token_hash: str,
        rig: dict[str, Any] | None,
        created_at: float,
        creator_seed: str | None = None,
        seeding: str = "plain",
        expires_at: float | None = None,
    ):
        self.ruleset = ruleset
        self.spec = spec
        self.seed = seed
        self.host_token_hash = host_token_hash
        self.rig = rig
        self.created_at = created_at
        self.creator_seed = creator_seed
        self.seeding = seeding
        self.expires_at = expires_at
        self.seats: list[dict[str, Any]] = []
        self.config: dict[str, Any] | None = None
        self.started_at: float | None = None
        self.rules_versions: list[dict[str, Any]] = []  # {"version", "from_seq"}: the rules it was decided under
        self.versions = array("L")  # the aggregate version of each ruleset event, by seq - 1 (0: not known)
        self.idempotency: dict[str, dict[str, Any]] = {}  # request -> the command and the seqs it caused
        self.current_request: str | None = None
        self.finished_seq: int | None = None  # the seq at which the game ended
        self.finished_at: float | None = None
        self.cancelled: str | None = None  # "cancelled" or "expired"
        self.clocks: dict[str, float] = {}  # seat -> when its running decision began (turn clock)
        self.clock_kinds: dict[str, list[str]] = {}  # seat -> the prompt kinds that decision is made of
        self.clock_change: dict[str, Any] | None = None  # the last change's time and actor, not yet settled
        self.timeouts: dict[str, int] = {}  # seat -> decisions in a row the clock made for it
        self.branch_of: dict[str, Any] | None = None  # a branch: the game and step it starts from (``BranchMade``)
        self.branches: list[dict[str, Any]] = []  # the branches made of this game: {"id", "step"} (``Branched``)

    # ----- the ruleset's state, derived -----

    @property
    def started_config(self) -> dict[str, Any]:
        """The ruleset configuration the game started with (a game still in its lobby has none: a fault to ask)."""
        if self.config is None:
            raise RuntimeError(f"game {self.id} has not started: it has no ruleset configuration yet")
        return self.config

    @property
    def state(self) -> Any:
        """The ruleset state after the whole log (``None`` in the lobby)."""
        if self.config is None:
            return None
        return self.__dict__["_game_state"]

    def record(self, payload: dict[str, Any], version: int) -> None:
        rules = ruleset_named(self.ruleset)
        state = self.state
        applied = self.__dict__.get("_applied_through", 0)  # > 0: the state has moved on by this event already (play)
        if payload["seq"] > applied:
            rules.apply(state, event_from_dict(payload))
        self.versions.append(version)
        self._recent_payloads().append(payload)
        if self.current_request in self.idempotency:
            self.idempotency[self.current_request]["last_seq"] = payload["seq"]
        if self.finished_seq is None and payload["seq"] >= applied and rules.is_finished(state):
            self.finished_seq = payload["seq"]

    @property
    def status(self) -> str:
        if self.cancelled is not None:
            return self.cancelled
        if self.config is None:
            return "lobby"
        return "active" if self.finished_seq is None else "finished"

    # ----- decision clocks (the game option turn_seconds), derived from the recorded command times -----

    def settle_clock(self) -> None:
        """Bring ``clocks`` up to the last change: a seat's decision clock starts when the game begins waiting for
        it, and again when it acted or what it is asked changed. Kinds the ruleset times itself (reaction windows)
        and seats the server plays (bots, autoplayed seats) have none."""
        change = self.clock_change
        if change is None or self.config is None:
            return
        self.clock_change = None
        if not self.spec.get("turn_seconds"):
            return
        rules = ruleset_named(self.ruleset)
        state = self.state
        needs: dict[str, list[str]] = {}
        if self.finished_seq is None:
            served = self.served_seats()
            for seat, kind in rules.awaited(state):
                if kind not in rules.window_kinds and seat not in served:
                    needs.setdefault(str(seat), []).append(kind)
        clocks: dict[str, float] = {}
        for key, kinds in needs.items():
            kinds.sort()
            goes_on = key in self.clocks and self.clock_kinds.get(key) == kinds and str(change["by"]) != key
            clocks[key] = self.clocks[key] if goes_on else change["at"]
        self.clocks, self.clock_kinds = clocks, needs

    def served_seats(self) -> set[int]:
        """The seats the server plays: bot seats, and those the ruleset gives to it (resigned, abandoned)."""
        bots = {s["seat"] for s in self.seats if s["bot"]}
        return bots if self.config is None else bots | set(ruleset_named(self.ruleset).autoplayed(self.state))

    def deadlines(self) -> dict[int, float]:
        """seat -> when its running decision times out (none without ``turn_seconds``)."""
        seconds = self.spec.get("turn_seconds") or 0
        if not seconds or self.status != "active":
            return {}
        self.settle_clock()
        return {int(seat): since + seconds for seat, since in self.clocks.items()}

    @property
    def seq(self) -> int:
        """The number of ruleset events recorded."""
        return len(self.versions)

    def _recent_payloads(self) -> deque[dict[str, Any]]:
        recent = self.__dict__.get("_recent")
        if recent is None:
            recent = self.__dict__["_recent"] = deque(maxlen=RECENT)
        return recent

    def held_payloads(self, first: int, last: int) -> list[dict[str, Any]] | None:
        """The ruleset events ``first``..``last`` (seqs) if the game holds them all in memory, else None."""
        recent = self._recent_payloads()
        if last < first:
            return []
        if not recent or recent[0]["seq"] > first or last > self.seq:
            return None
        start = first - recent[0]["seq"]
        return [recent[i] for i in range(start, start + last - first + 1)]

    def version_range(self, first: int, last: int) -> tuple[int | None, int]:
        """(gt, lte): the aggregate versions between which the ruleset events ``first``..``last`` are stored (gt None:
        from the start, for games whose versions are not known: snapshots taken before versions were kept)."""
        low = self.versions[first - 1] if first >= 1 else 0
        high = self.versions[last - 1] if last >= 1 else 0
        return (low - 1 if low else None), (high or self.version)

    @property
    def rigged(self) -> bool:
        """A chosen position, a seed its creator chose, or a branch of another game's record: someone may know the
        draws."""
        return self.rig is not None or self.seeding == "exact" or self.branch_of is not None

    @property
    def commitment(self) -> str | None:
        """The hash of the server's secret, published at creation, before any seat adds entropy (None: rigged)."""
        return commitment_of(self.seed) if self.seeding == "mixed" else None

    def shuffle_seed(self) -> str:
        """The seed every shuffle of the game is drawn from: the server's secret mixed with the creator's seed and
        every seat's entropy ("mixed"), or the seed as it was given ("exact", and games from before secrets)."""
        if self.seeding != "mixed":
            return self.seed
        contributions = {f"seat {s['seat']}": s["entropy"] for s in self.seats if s.get("entropy")}
        if self.creator_seed:
            contributions["creator"] = self.creator_seed
        return mix_seed(self.seed, contributions)

    # ----- commands on the aggregate (validated by the application first) -----

    def take_seat(
        self, name: str, bot: str | None, token_hash: str | None, player: str | None = None, entropy: str | None = None
    ) -> int:
        seat = len(self.seats)
        self.trigger_event(self.SeatTaken, seat=seat, name=name, bot=bot, token_hash=token_hash, player=player, entropy=entropy)
        return seat

    def finish(self, at: float) -> None:
        assert self.finished_seq is not None
        self.trigger_event(self.Finished, seq=self.finished_seq, at=at)

    def cancel(self, reason: str, at: float) -> None:
        self.trigger_event(self.Cancelled, reason=reason, at=at)

    def made_as_branch(self, game: str, step: int, deal: str, knower: int | None, command: dict[str, Any] | None) -> None:
        self.trigger_event(self.BranchMade, game=game, step=step, deal=deal, knower=knower, command=command)

    def branched(self, branch: str, step: int) -> None:
        self.trigger_event(self.Branched, branch=branch, step=step)

    def request_start(self, config: dict[str, Any], at: float) -> None:
        version = ruleset_named(self.ruleset).rules_version
        self.trigger_event(self.StartRequested, config=config, at=at, rules_version=version)

    def accept(self, seat: int | None, by: str, command: dict[str, Any], request: str | None, at: float) -> None:
        version = ruleset_named(self.ruleset).rules_version
        if self.rules_versions[-1]["version"] != version:  # this process plays other rules than the game began with
            self.trigger_event(self.RulesChanged, version=version, from_seq=self.seq + 1)
        self._trigger(
            self.CommandAccepted,
            self.CommandAccepted.create_timestamp(),
            seat=seat,
            by=by,
            command=command,
            request=request,
            first_seq=self.seq + 1,
            at=at,
        )

    def append(self, events: list[Event]) -> None:
        """Record ruleset events, numbering them from the current ``seq``; stored with one timestamp, the moment
        they were recorded together."""
        timestamp = self.Recorded.create_timestamp()
        for e in events:
            if e.seq not in (0, self.seq + 1):
                raise ValueError(f"event {e.TYPE} numbered {e.seq}, but the log is at {self.seq}")
            payload = e.to_dict()
            payload["seq"] = self.seq + 1
            self._trigger(recorded_class(e.TYPE), timestamp, payload=payload)

    def _trigger(self, event_class: type[Aggregate.Event], timestamp: datetime, **fields: Any) -> None:
        """What the library's ``trigger_event`` does with an event of this aggregate (make it the next version, apply
        it, keep it pending), without the checks it makes for any class and any caller: about 1.6 us an event of the
        2.7 it takes (timeit), and a command records six or seven. The commands and the ruleset events go through
        here; the rarer lifecycle events through the library's own.

        The event is a frozen dataclass, made without its ``__init__`` (which sets each field through
        ``object.__setattr__`` and checks the id's type: 2.5 us for a command's nine fields): its ``__dict__`` is set
        at once, and ``fields`` must name every field of its class but the three common ones
        (tests/service/test_aggregate_events.py compares what both ways make)."""
        event = object.__new__(event_class)
        event.__dict__.update(originator_id=self.id, originator_version=self.version + 1, timestamp=timestamp, **fields)
        event.apply(self)
        self.version = event.originator_version
        self.modified_on = timestamp
        self._pending_events.append(event)

    def play(self, command: dict[str, Any]) -> None:
        """Decide ``command`` by the rules and record the events it causes. The state moves on as the rules decide
        (``Ruleset.push``: no copy of the state, each event applied once) and the events are recorded without being
        applied again. A refusal (a ``DomainError``) is raised before anything changes; any other failure may leave
        the state part-moved, so the service drops this object (``GameService._change``) and reads the game afresh."""
        rules = ruleset_named(self.ruleset)
        first = self.seq + 1
        events = rules.push(self.state, command)
        self.__dict__["_applied_through"] = first - 1 + len(events)
        try:
            self.append(events)
        finally:
            del self.__dict__["_applied_through"]


class GameSnapshot(Snapshot):
    """A snapshot of a game: its own fields and the ruleset's state as data (``Ruleset.encode_state``), without
    the log. Its size depends on the table, not on how long the game has been played."""

    class_version = 3

    @staticmethod
    def upcast_v1_v2(state: dict[str, Any]) -> None:
        """Snapshots from before seeds, clocks and the lifecycle events: the values those games had."""
        game = state["state"]
        for name, value in (
            ("creator_seed", None),
            ("seeding", "plain"),
            ("expires_at", None),
            ("finished_at", None),
            ("cancelled", None),
            ("clocks", {}),
            ("clock_kinds", {}),
            ("clock_change", None),
            ("timeouts", {}),
        ):
            game.setdefault(name, value)
        for seat in game.get("seats", []):
            seat.setdefault("player", None)
            seat.setdefault("entropy", None)

    @staticmethod
    def upcast_v2_v3(state: dict[str, Any]) -> None:
        """Snapshots that held the whole log: the state is folded from it when the snapshot is read (``mutate``)."""
        game = state["state"]
        log = game.pop("log", [])
        game["versions"] = [0] * len(log)  # not known: those events are read from the start of the game's record
        game["legacy_log"] = log

    @classmethod
    def take(cls, aggregate: Any) -> GameSnapshot:
        snapshot = super().take(aggregate)
        state = {k: v for k, v in snapshot.state.items() if k not in TRANSIENT}
        state["versions"] = list(aggregate.versions)
        if aggregate.config is not None:
            state["game_state"] = ruleset_named(aggregate.ruleset).encode_state(aggregate.state)
        return dataclasses.replace(snapshot, state=state)

    def mutate(self, _: None) -> Game:
        game = super().mutate(_)
        assert isinstance(game, Game)
        fields = game.__dict__
        data = fields.pop("game_state", None)
        legacy = fields.pop("legacy_log", None)
        fields["versions"] = array("L", fields["versions"])
        fields.setdefault("branch_of", None)  # snapshots from before branches: no game was a branch, none had any
        fields.setdefault("branches", [])
        # snapshots from before rules versions: a started game was played under rules nobody numbered
        fields.setdefault("rules_versions", [{"version": None, "from_seq": 1}] if game.config is not None else [])
        if game.config is not None:
            rules = ruleset_named(game.ruleset)
            config = rules.make_config(game.config)
            if data is not None:
                fields["_game_state"] = rules.decode_state(config, data)
            else:
                fields["_game_state"] = rules.fold(config, (event_from_dict(e) for e in legacy or ()))
        return game


Game.Snapshot = GameSnapshot  # type: ignore[attr-defined]

_RECORDED: dict[str, type[Game.Recorded]] = {}


def recorded_class(type_name: str) -> type[Game.Recorded]:
    """The stored event class for a ruleset event type, named like it (``Game.CardDrawn``)."""
    cls = _RECORDED.get(type_name)
    if cls is None:
        event_class(type_name)  # an unknown ruleset event is a programming error
        if hasattr(Game, type_name):
            raise TypeError(f"ruleset event {type_name} clashes with a service event of the game aggregate")
        cls = type(type_name, (Game.Recorded,), {"__qualname__": f"Game.{type_name}", "__module__": __name__})
        setattr(Game, type_name, cls)
        _RECORDED[type_name] = cls
    return cls


def register_ruleset_events(event_types: list[type[Event]]) -> None:
    """Make every stored class resolvable by topic before anything is read from the store."""
    for cls in event_types:
        recorded_class(cls.TYPE)


for _rules in RULESETS.values():  # every stored topic resolves as soon as this module is imported
    register_ruleset_events(list(_rules.event_types))

register_legacy(__name__)  # games stored before the service became the package ``aegis`` (service/topics.py)
