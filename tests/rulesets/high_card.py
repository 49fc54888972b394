"""High Card, a second ruleset for the tests: two players are dealt one card each from 1 to 13 and show it; the
higher card wins. It implements ``domain.kernel.ruleset.Ruleset`` with the kernel's building blocks only, so that
the tests can host it beside Ever Aegis and check that the service, the API and the command line know neither.
Its rule ids: HC0 (two players), HC1 (show your card when asked). Its event types are prefixed (``HighCard...``):
event types are one namespace across the hosted rulesets."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from aegis.domain.bots import Bot, RandomBot
from aegis.domain.kernel.decisions import DecisionKind, Registry
from aegis.domain.kernel.errors import GameOver, IllegalCommand, MalformedCommand, NotYourTurn
from aegis.domain.kernel.events import Event, event
from aegis.domain.kernel.prompts import Option, Prompt
from aegis.domain.kernel.redaction import OMNISCIENT, Perspective, reader, redact_event
from aegis.domain.kernel.rng import SeededRng, commitment_of
from aegis.domain.kernel.shapes import Shapes

SEATS = 2
CARDS = tuple(range(1, 14))  # 1..13


# ----- configuration and state -----


@dataclass(frozen=True)
class Config:
    seats: int = SEATS
    names: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {"seats": self.seats, "names": list(self.names)}


@dataclass
class State:
    config: Config
    seq: int = 0
    seed: str = ""
    status: str = "setup"
    hands: list[int | None] = field(default_factory=lambda: [None, None])
    shown: list[int | None] = field(default_factory=lambda: [None, None])
    resigned: list[int] = field(default_factory=list)
    result: str | None = None
    winners: list[int] = field(default_factory=list)


# ----- events -----


@event
class HighCardStarted(Event):
    config: dict[str, Any] = field(default_factory=dict)
    commitment: str = ""
    seed: str = ""
    rigged: bool = False
    SECRET = ("seed",)


@event
class HighCardDealt(Event):
    seat: int = 0
    card: int = 0
    knowers: list[int] = field(default_factory=list)
    PRIVATE = {"card": "knowers"}


@event
class HighCardShown(Event):
    seat: int = 0
    card: int = 0


@event
class HighCardResigned(Event):
    seat: int = 0


@event
class HighCardEnded(Event):
    result: str = "win"
    winners: list[int] = field(default_factory=list)


EVENTS: tuple[type[Event], ...] = (HighCardStarted, HighCardDealt, HighCardShown, HighCardResigned, HighCardEnded)


def apply(s: State, e: Event) -> None:
    s.seq = e.seq
    if isinstance(e, HighCardStarted):
        s.seed, s.status = e.seed, "active"
    elif isinstance(e, HighCardDealt):
        s.hands[e.seat] = e.card
    elif isinstance(e, HighCardShown):
        s.shown[e.seat] = e.card
    elif isinstance(e, HighCardResigned):
        s.resigned.append(e.seat)
    elif isinstance(e, HighCardEnded):
        s.status, s.result, s.winners = "finished", e.result, list(e.winners)


WORDS: dict[str, Callable[[dict[str, Any], list[str]], str]] = {
    "HighCardStarted": lambda e, n: "A game of High Card begins",
    "HighCardDealt": lambda e, n: f"{n[e['seat']]} is dealt " + (f"the {e['card']}" if "card" in e else "a card"),
    "HighCardShown": lambda e, n: f"{n[e['seat']]} shows the {e['card']}",
    "HighCardResigned": lambda e, n: f"{n[e['seat']]} resigns",
    "HighCardEnded": lambda e, n: "A draw" if e["result"] == "draw" else f"{n[e['winners'][0]]} wins",
}


# ----- deciding -----


class Ctx:
    def __init__(self, state: State):
        self.state = state
        self.events: list[Event] = []

    def emit(self, e: Event) -> None:
        e = e.with_seq(self.state.seq + 1)
        apply(self.state, e)
        self.events.append(e)


def _waiting(s: State) -> list[int]:
    if s.status != "active":
        return []
    return [seat for seat in range(SEATS) if s.shown[seat] is None and seat not in s.resigned]


def _settle(ctx: Ctx) -> None:
    s = ctx.state
    if s.status != "active":
        return
    if s.resigned:
        ctx.emit(HighCardEnded(result="win", winners=[1 - s.resigned[0]]))
    elif None not in s.shown:
        a, b = s.shown
        assert a is not None and b is not None
        ctx.emit(HighCardEnded(result="draw", winners=[]) if a == b else HighCardEnded(result="win", winners=[0 if a > b else 1]))


def _show_prompt(s: State, seat: int) -> Prompt:
    option = Option(f"Show the {s.hands[seat]}", {"type": "show", "seat": seat}, "show")
    return Prompt(seat, "show", "Show your card (HC1)", (option,))


def _show(ctx: Ctx, cmd: dict[str, Any]) -> None:
    seat = cmd["seat"]
    card = ctx.state.hands[seat]
    assert card is not None
    ctx.emit(HighCardShown(seat=seat, card=card))


def _resign(ctx: Ctx, cmd: dict[str, Any]) -> None:
    ctx.emit(HighCardResigned(seat=cmd["seat"]))


def _timeout(ctx: Ctx, cmd: dict[str, Any]) -> None:
    play = cmd["play"]
    if cmd["seat"] not in _waiting(ctx.state) or play.get("type") != "show" or play.get("seat") != cmd["seat"]:
        raise IllegalCommand("nothing of that seat can time out", rule="S3")
    _show(ctx, play)


SHOW = DecisionKind(
    "show",
    rule="HC1",
    refusal="show your card when asked",
    offer=_show_prompt,
    apply=_show,
    by_rules=lambda ctx, seat: _show(ctx, {"seat": seat}),
    summary="show your card",
)
RESIGN = DecisionKind("resign", rule="HC2", refusal="a player still in the game may resign", summary="give up", handle=_resign)
TIMEOUT = DecisionKind(
    "timeout",
    rule="S3",
    refusal="the service's",
    handle=_timeout,
    system=True,
    fields={"seat": int, "kind": str, "deadline": (int, float), "count": int, "abandon": bool, "play": dict, "at": (int, float)},
)
COMMANDS = Registry([SHOW, RESIGN, TIMEOUT])


def _decide(state: State, command: dict[str, Any]) -> list[Event]:
    if not isinstance(command, dict) or command.get("type") not in COMMANDS:
        raise MalformedCommand(f"unknown command type {command.get('type')!r}; commands: show, resign")
    seat = command.get("seat")
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < SEATS:
        raise MalformedCommand("'seat' must be 0 or 1")
    if state.status == "finished":
        raise GameOver("the game is over", rule="HC1")
    kind = COMMANDS[command["type"]]
    errors = kind.shape_errors(command)
    if errors:
        raise MalformedCommand(f"{kind.kind}: malformed", errors=errors)
    ctx = Ctx(dataclasses.replace(state, hands=list(state.hands), shown=list(state.shown), resigned=list(state.resigned)))
    if kind.handle is not None:
        kind.handle(ctx, command)
    else:
        if seat not in _waiting(state):
            raise NotYourTurn("you have shown your card already", rule="HC1")
        assert kind.apply is not None
        kind.apply(ctx, command)
    _settle(ctx)
    return ctx.events


# ----- the ruleset -----

TABLE = {
    "type": "object",
    "additionalProperties": True,
    "properties": {"hands": {"type": "array"}, "shown": {"type": "array"}, "status": {"type": "string"}},
}


class HighCard:
    name = "high-card"
    rules_version = 1
    window_kinds: frozenset[str] = frozenset()
    system_commands = COMMANDS.system
    event_types: Sequence[type[Event]] = EVENTS
    commands = COMMANDS
    bots: Mapping[str, Callable[[int], Bot]] = {"random": RandomBot}
    stand_in = staticmethod(RandomBot)  # its choices depend on no card: one option, the card it was dealt
    shapes = Shapes(
        creation={"properties": {"seats": {"type": "integer", "minimum": 2, "maximum": 2, "description": "2 (HC0)"}}},
        components={"HighCardTableOut": TABLE},
        table="HighCardTableOut",
        statistics={"card": "the card the seat was dealt"},
        examples={},
    )

    def make_config(self, spec: dict[str, Any]) -> Config:
        if spec.get("seats", SEATS) != SEATS:
            raise MalformedCommand("High Card is for 2 players", rule="HC0")
        return Config(SEATS, tuple(spec.get("names", ())))

    def seated_by_rules(self, spec: dict[str, Any]) -> dict[int, str]:
        return {}

    def variant(self, spec: dict[str, Any]) -> str:
        return "standard"

    def read_catalog(self, data: Any, source: str) -> Any:
        return None

    def catalog_summary(self, catalog: Any) -> str:
        return "High Card has no catalog"

    def start(self, config: Config, seed: str, now: float | None = None, rig: dict[str, Any] | None = None,
              components: Any = None, commitment: str | None = None) -> list[Event]:
        ctx = Ctx(State(config))
        rigged = rig is not None or commitment == ""
        ctx.emit(HighCardStarted(config=config.to_dict(), commitment=commitment_of(seed) if commitment is None else commitment,
                                 seed=seed, rigged=rigged))
        rng = SeededRng(seed)
        deck = rng.shuffle(list(CARDS))
        for seat in range(SEATS):
            ctx.emit(HighCardDealt(seat=seat, card=deck[seat], knowers=[seat]))
        return ctx.events

    def components(self, config: Config, catalog: Any = None) -> Any:
        return None

    def validate_rig(self, rig: Any, seats: int, components: Any = None) -> dict[str, Any]:
        raise MalformedCommand("High Card takes no rigged setup")

    def decide(self, state: State, command: dict[str, Any]) -> list[Event]:
        return _decide(state, command)

    def push(self, state: State, command: dict[str, Any]) -> list[Event]:
        events = _decide(state, command)
        for e in events:
            apply(state, e)
        return events

    def branch(self, state: Any, log: Sequence[dict[str, Any]], *, game: str, step: int, deal: str, knower: int | None,
               names: Sequence[str], seed: str, at: float | None) -> list[Event]:
        raise MalformedCommand("High Card games cannot be branched")

    def evolve(self, state: State, event: Event) -> State:
        new = self.clone(state)
        apply(new, event)
        return new

    def apply(self, state: State, event: Event) -> None:
        apply(state, event)

    def clone(self, state: State) -> State:
        return dataclasses.replace(state, hands=list(state.hands), shown=list(state.shown), resigned=list(state.resigned),
                                   winners=list(state.winners))

    def narrate(self, event: dict[str, Any], names: list[str]) -> str:
        return WORDS[event["type"]](event, names)

    def fold(self, config: Config, events: Iterable[Event]) -> State:
        s = State(config)
        for e in events:
            apply(s, e)
        return s

    def encode_state(self, state: State) -> dict[str, Any]:
        data = dataclasses.asdict(state)
        data["config"] = None
        return data

    def decode_state(self, config: Config, data: dict[str, Any]) -> State:
        return State(**{**data, "config": config})

    def prompts(self, state: State, seat: int | None = None) -> list[Prompt]:
        return [_show_prompt(state, s) for s in _waiting(state) if seat is None or s == seat]

    def legal_commands(self, state: State, seat: int) -> Iterator[dict[str, Any]]:
        for p in self.prompts(state, seat):
            yield from p.commands()

    def view(self, state: State, perspective: Perspective) -> dict[str, Any]:
        who = reader(perspective, finished=state.status == "finished")
        hands = [c if who in (OMNISCIENT, seat) else None for seat, c in enumerate(state.hands)]
        return {"ruleset": self.name, "status": state.status, "seq": state.seq, "hands": hands, "shown": list(state.shown),
                "awaiting": [{"seat": s, "kind": "show"} for s in _waiting(state)],
                "result": {"result": state.result, "winners": state.winners} if state.result else None}

    def describe(self, view: dict[str, Any]) -> str:
        t = view.get("table") or {}
        return f"High Card: hands {t.get('hands')}, shown {t.get('shown')}"

    def redact(self, state: State, event: dict[str, Any], perspective: Perspective) -> dict[str, Any]:
        return redact_event(event, reader(perspective, finished=state.status == "finished"))

    def is_finished(self, state: State) -> bool:
        return state.status == "finished"

    def turn(self, state: State) -> int:
        return 1 if state.status != "setup" else 0

    def outcome(self, state: State) -> tuple[str | None, list[int]]:
        return state.result, list(state.winners)

    def autoplayed(self, state: State) -> list[int]:
        return sorted(state.resigned)

    def awaited(self, state: State) -> list[tuple[int, str]]:
        return [(s, "show") for s in _waiting(state)]

    def deadline(self, state: State) -> tuple[int | str, float] | None:
        return None

    def audit(self, config: Config, log: list[dict[str, Any]], step: int, reader: Perspective, names: list[str],
              accepted: dict[int, dict[str, Any]]) -> dict[str, Any]:
        raise MalformedCommand("High Card has no claims to audit")

    def odds(self, state: State, event: dict[str, Any], perspective: Perspective) -> dict[str, Any] | None:
        return None

    def review(self, config: Config, log: list[dict[str, Any]], events: Sequence[Event], perspective: Perspective,
               since: int = 0) -> dict[str, Any]:
        return {"players": [{"seat": s, "moves": [], "summary": {}, "calibration": []} for s in range(SEATS)]}

    def undone(self, log: list[dict[str, Any]]) -> list[tuple[int, int]]:
        return []

    def summarize(self, config: Config, events: Iterable[Event]) -> dict[str, Any]:
        s = self.fold(config, events)
        seats = []
        for seat in range(SEATS):
            won = seat in s.winners
            place = 1 if won or s.result == "draw" else 2
            seats.append({"seat": seat, "place": place, "won": won, "draw": s.result == "draw", "card": s.hands[seat] or 0})
        return {"result": s.result, "winners": list(s.winners), "seats": seats}

    def close_command(self, key: int | str, at: float) -> dict[str, Any]:
        raise AssertionError("High Card closes no deadline of its own")


RULESET = HighCard()
