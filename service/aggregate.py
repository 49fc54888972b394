"""The game aggregate: one per game, stored with the ``eventsourcing`` library.

The stored log reads like the game: every domain event of the ruleset is recorded as an aggregate
event class of the same name (``service.aggregate:Game.CardDrawn``, ``Game.BluffCalled``, ...) whose
``payload`` is the domain event as a dict. Around them sit a few service events: the lobby
(``Created``, ``SeatTaken``, ``StartRequested``) and, before the events each command caused,
``CommandAccepted`` (who sent what, when, under which idempotency key), so an auditor reading the
store sees the command next to its consequences.

The ruleset state is derived: it is folded from the payloads and kept out of snapshots.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from eventsourcing.domain import Aggregate, Snapshot

from domain.kernel.events import Event, event_class, event_from_dict
from service.rulesets import EVENT_TYPES, ruleset_named

TRANSIENT = ("_game_state",)  # rebuilt by folding the log; never stored in a snapshot


class Game(Aggregate):
    """A game's lobby, its seats and the ruleset's event log."""

    class Created(Aggregate.Created):
        ruleset: str
        spec: dict[str, Any]
        seed: str
        host_token_hash: str
        rig: dict[str, Any] | None
        created_at: float

    class SeatTaken(Aggregate.Event):
        seat: int
        name: str
        bot: str | None
        token_hash: str | None

        def apply(self, aggregate: Game) -> None:
            aggregate.seats.append({"seat": self.seat, "name": self.name, "bot": self.bot, "token_hash": self.token_hash})

    class StartRequested(Aggregate.Event):
        config: dict[str, Any]
        at: float

        def apply(self, aggregate: Game) -> None:
            aggregate.config = self.config
            aggregate.started_at = self.at

    class CommandAccepted(Aggregate.Event):
        seat: int | None  # None: a command of the service itself (a deadline)
        by: str  # "seat", "bot" or "server"
        command: dict[str, Any]
        request: str | None  # "<seat>:<Idempotency-Key>" of the request this command belongs to
        first_seq: int
        at: float

        def apply(self, aggregate: Game) -> None:
            aggregate.current_request = self.request
            if self.request is not None and self.by == "seat":
                aggregate.idempotency[self.request] = {"command": self.command, "first_seq": self.first_seq, "last_seq": 0}

    class Recorded(Aggregate.Event):
        """Base of the per-type classes made below: one ruleset event."""

        payload: dict[str, Any]

        def apply(self, aggregate: Game) -> None:
            aggregate.record(self.payload)

    def __init__(
        self, ruleset: str, spec: dict[str, Any], seed: str, host_token_hash: str, rig: dict[str, Any] | None, created_at: float
    ):
        self.ruleset = ruleset
        self.spec = spec
        self.seed = seed
        self.host_token_hash = host_token_hash
        self.rig = rig
        self.created_at = created_at
        self.seats: list[dict[str, Any]] = []
        self.config: dict[str, Any] | None = None
        self.started_at: float | None = None
        self.log: list[dict[str, Any]] = []
        self.idempotency: dict[str, dict[str, Any]] = {}  # request -> the command and the seqs it caused
        self.current_request: str | None = None
        self.finished_seq: int | None = None  # the seq at which the game ended

    # ----- the ruleset's state, derived -----

    @property
    def state(self) -> Any:
        """The ruleset state after the whole log (``None`` in the lobby)."""
        if self.config is None:
            return None
        cached = self.__dict__.get("_game_state")
        if cached is None or cached.seq != len(self.log):
            rules = ruleset_named(self.ruleset)
            cached = rules.fold(rules.make_config(self.config), (event_from_dict(e) for e in self.log))
            self.__dict__["_game_state"] = cached
        return cached

    def record(self, payload: dict[str, Any]) -> None:
        rules = ruleset_named(self.ruleset)
        state = self.state  # folded before the new event joins the log
        self.log.append(payload)
        rules.apply(state, event_from_dict(payload))
        if self.current_request in self.idempotency:
            self.idempotency[self.current_request]["last_seq"] = payload["seq"]
        if self.finished_seq is None and rules.is_finished(state):
            self.finished_seq = payload["seq"]

    @property
    def status(self) -> str:
        if self.config is None:
            return "lobby"
        return "active" if self.finished_seq is None else "finished"

    @property
    def seq(self) -> int:
        return len(self.log)

    @property
    def rigged(self) -> bool:
        return self.rig is not None

    # ----- commands on the aggregate (validated by the application first) -----

    def take_seat(self, name: str, bot: str | None, token_hash: str | None) -> int:
        seat = len(self.seats)
        self.trigger_event(self.SeatTaken, seat=seat, name=name, bot=bot, token_hash=token_hash)
        return seat

    def request_start(self, config: dict[str, Any], at: float) -> None:
        self.trigger_event(self.StartRequested, config=config, at=at)

    def accept(self, seat: int | None, by: str, command: dict[str, Any], request: str | None, at: float) -> None:
        self.trigger_event(
            self.CommandAccepted, seat=seat, by=by, command=command, request=request, first_seq=self.seq + 1, at=at
        )

    def append(self, events: list[Event]) -> None:
        """Record ruleset events, numbering them from the current ``seq``."""
        for e in events:
            if e.seq not in (0, self.seq + 1):
                raise ValueError(f"event {e.TYPE} numbered {e.seq}, but the log is at {self.seq}")
            payload = e.to_dict()
            payload["seq"] = self.seq + 1
            self.trigger_event(recorded_class(e.TYPE), payload=payload)


class GameSnapshot(Snapshot):
    """A snapshot of a game without its derived ruleset state (folded again on load)."""

    @classmethod
    def take(cls, aggregate: Any) -> GameSnapshot:
        snapshot = super().take(aggregate)
        state = {k: v for k, v in snapshot.state.items() if k not in TRANSIENT}
        return dataclasses.replace(snapshot, state=state)


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


for _types in EVENT_TYPES.values():  # every stored topic resolves as soon as this module is imported
    register_ruleset_events(_types)
