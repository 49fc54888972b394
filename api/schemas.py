"""Every body in and out of the API, as marshmallow schemas. The OpenAPI document is generated from them.

Where the service or the ruleset enforces a constraint with its own words (and rule), the schema states it in
``metadata`` (``minimum``, ``enum``, ...) so that the document shows it and the refusal keeps its reason; where
only the schema enforces it, ``validate=`` does both."""

from __future__ import annotations

import functools
from typing import Any, TypeVar

from marshmallow import INCLUDE, RAISE, Schema, ValidationError, fields, validate, validates_schema

from aegis.domain.everaegis.catalog import ACTIONS
from aegis.domain.everaegis.classic import TEXT_KNOWN
from aegis.domain.everaegis.config import GAMES, MAX_SEATS, MIN_SEATS, OPTIONS, SELECTIONS, VARIANTS
from aegis.service.games import MAX_CONTRIBUTION, MAX_TIMEOUTS_TO_FORFEIT
from aegis.service.names import MAX_NAME
from aegis.service.rulesets import RULESETS
from aegis.service.settings import MAX_CLOCK, MIN_CLOCK

BOTS = sorted({name for rules in RULESETS.values() for name in rules.bots})  # every hosted ruleset's bots
STATUSES = ("lobby", "active", "finished", "cancelled", "expired")
CLOCK = f"0 (no clock) or {MIN_CLOCK:g} to {MAX_CLOCK:g} seconds"
SEAT = {"type": "integer", "minimum": 0, "maximum": MAX_SEATS - 1}
PERSPECTIVE = {
    "oneOf": [{"type": "integer", "minimum": 0}, {"type": "string", "enum": ["spectator", "omniscient"]}],
    "description": "a seat number, spectator or omniscient",
}
AS_PATTERN = "^(spectator|omniscient|[0-9]+)?$"  # replay/perspective.py: a seat, spectator (also empty) or omniscient


def _refuse(message: str) -> bool:
    raise ValidationError(message)


class Strict(Schema):
    class Meta:
        unknown = RAISE


class Open(Schema):
    """An object that may carry more than its documented fields (the document says additionalProperties)."""

    class Meta:
        unknown = INCLUDE


class Documented(fields.Raw):
    """A value dumped as it is, documented by a component schema of the OpenAPI document (``api/openapi.py``):
    a view's table, an event. ``allow_none``: or null."""

    def __init__(self, component: str, **kwargs: Any):
        super().__init__(**kwargs)
        self.component = component


# ----- in -----

_BY_SEAT = "by seat number ('0', '1', ...)"
_SEAT_FIELD = {"minimum": 0, "maximum": MAX_SEATS - 1}


class HandCard(fields.Field):
    """A card of a rigged hand: its name, or ``{name, revealed}``."""

    def __init__(self, **kwargs: Any):
        card = {
            "type": "object",
            "properties": {"name": {"type": "string"}, "revealed": {"type": "boolean"}},
            "required": ["name"],
            "additionalProperties": False,
        }
        super().__init__(metadata={"oneOf": [{"type": "string"}, card]}, **kwargs)

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        if isinstance(value, str):
            return value
        if (
            isinstance(value, dict)
            and isinstance(value.get("name"), str)
            and isinstance(value.get("revealed", False), bool)
            and set(value) <= {"name", "revealed"}
        ):
            return value
        raise ValidationError('a card name, or {"name": ..., "revealed": true|false}')


class TreatyRigIn(Strict):
    holder = fields.Integer(required=True, strict=True, metadata=_SEAT_FIELD)
    giver = fields.Integer(required=True, strict=True, metadata=_SEAT_FIELD)


class RigIn(Strict):
    """A rigged position. Its shape is checked here; what it means (the cards there are, the seats of the game)
    by the rules (``domain/everaegis/rig.py``), whose refusals name what is wrong."""

    deck = fields.List(
        fields.String(), metadata={"description": "card names, top first (buildings, or a Classic game's estate cards)"}
    )
    hands = fields.Dict(
        keys=fields.String(),
        values=fields.List(HandCard()),
        allow_none=True,
        metadata={"description": f"each seat's cards {_BY_SEAT}: a name, or {{name, revealed}}"},
    )
    years = fields.List(
        fields.List(fields.String()), metadata={"description": "years of card names (the cards left make years of 6)"}
    )
    soldiers = fields.Dict(
        keys=fields.String(),
        values=fields.Integer(strict=True, validate=validate.Range(min=0)),
        allow_none=True,
        metadata={"description": _BY_SEAT},
    )
    wall = fields.Integer(strict=True, allow_none=True, metadata={**_SEAT_FIELD, "description": "who holds the WALL"})
    treaty = fields.Nested(
        TreatyRigIn, allow_none=True, metadata={"description": "the TREATY's holder and who gave it (two players)"}
    )
    brigs = fields.Dict(
        keys=fields.String(),
        values=fields.Integer(strict=True, validate=validate.Range(min=0)),
        allow_none=True,
        metadata={"description": _BY_SEAT},
    )
    sanctions = fields.Dict(
        keys=fields.String(),
        values=fields.List(fields.String(validate=validate.OneOf(ACTIONS)), metadata={"uniqueItems": True}),
        allow_none=True,
        metadata={"description": f"the actions SANCTIONED {_BY_SEAT}"},
    )
    first_player = fields.Integer(strict=True, metadata={**_SEAT_FIELD, "description": "who plays first (default 0)"})
    leaders = fields.Dict(
        keys=fields.String(), values=fields.String(), allow_none=True, metadata={"description": f"Classic leader mats {_BY_SEAT}"}
    )
    items = fields.Dict(
        keys=fields.String(),
        values=fields.List(fields.String()),
        allow_none=True,
        metadata={"description": f"Classic items held {_BY_SEAT}"},
    )
    dictator = fields.String(allow_none=True, metadata={"description": "Dictator: the mat nobody leads (R168)"})
    dice = fields.List(
        fields.Integer(strict=True, validate=validate.Range(1, 8)),
        allow_none=True,
        metadata={"description": "the next D8 results a mob rolls, in order (R173)"},
    )


class CreateGameIn(Strict):
    ruleset = fields.String(
        load_default="ever-aegis",
        metadata={"enum": list(RULESETS), "description": f"the ruleset; this service hosts {', '.join(RULESETS)}"},
    )
    variant = fields.String(
        load_default="simpleton",
        validate=validate.Length(1, 100),
        metadata={
            "description": f"the game ({' or '.join(GAMES)}) and its variants joined with '+', e.g. simpleton+quick, "
            f"classic+long (variants: {', '.join(v for v in VARIANTS if v not in GAMES)}); some combinations are "
            "refused by the rules (400 naming the rule)",
            "examples": ["simpleton", "simpleton+quick", "classic+long"],
        },
    )
    selection = fields.String(
        validate=validate.OneOf(SELECTIONS),
        metadata={"description": "Classic leader selection mode (default limited); Simpleton games use the Simpleton sides"},
    )
    seats = fields.Integer(
        required=True,
        strict=True,
        metadata={"minimum": MIN_SEATS, "maximum": MAX_SEATS, "description": f"{MIN_SEATS} to {MAX_SEATS} (A44)"},
    )
    mobs = fields.List(
        fields.Integer(strict=True, metadata={"minimum": 0, "maximum": MAX_SEATS - 1}),
        metadata={
            "uniqueItems": True,
            "description": "seats played by the D8 as mobs (R173), each a seat of the game, at least one seat left to "
            "a person: never prompted, filled at once; solo makes every seat but 0 a mob when absent",
        },
    )
    seed = fields.String(
        validate=validate.Length(1, MAX_CONTRIBUTION),
        metadata={
            "description": "optional: your contribution to the shuffle seed, mixed with the server's secret (so you "
            "cannot know a draw from it); with exact_seed, the seed itself"
        },
    )
    exact_seed = fields.Boolean(
        truthy={True},
        falsy={False},
        metadata={
            "description": "true: draw every shuffle from 'seed' exactly, with no secret of the server (to reproduce "
            "a past game); the game is rigged, and every view says so"
        },
    )
    reaction_seconds = fields.Float(
        validate=validate.Range(min=0, max=86400),
        metadata={
            "description": "reaction window deadline in seconds; 0 waits for every answer (default: AEGIS_REACTION_SECONDS)"
        },
    )
    turn_seconds = fields.Float(
        validate=[
            validate.Range(min=0, max=MAX_CLOCK),
            lambda v: v == 0 or v >= MIN_CLOCK or _refuse(f"'turn_seconds' is {CLOCK}"),
        ],
        metadata={
            "not": {"exclusiveMinimum": 0, "exclusiveMaximum": MIN_CLOCK},
            "description": f"the clock of every other decision, {CLOCK}: when it runs out the server's cautious bot "
            "decides for the seat (default: AEGIS_TURN_SECONDS)",
        },
    )
    timeouts_to_forfeit = fields.Integer(
        strict=True,
        validate=validate.Range(min=0, max=MAX_TIMEOUTS_TO_FORFEIT),
        metadata={
            "description": "after this many decisions in a row decided by the clock the seat is abandoned: a bot plays "
            "it for the rest of the game (default 3; 0: never)"
        },
    )
    first_player = fields.Integer(
        strict=True, metadata={**SEAT, "description": "seat that plays first (below seats; R18); random when absent"}
    )
    options = fields.Dict(
        load_default=dict,
        metadata={
            "description": "game options (docs/rulings.md), each a whole number in its range; the rules check them (400 "
            "naming the rule)",
            "properties": {
                name: {
                    "type": "integer",
                    "minimum": o.low,
                    "maximum": o.high,
                    "default": o.default,
                    "description": f"{o.help} ({o.ruling})",
                }
                for name, o in OPTIONS.items()
            },
            "additionalProperties": False,
        },
    )
    setup = fields.Nested(RigIn, metadata={"description": "a rigged position; a game that has one is rigged"})


class PersonSeatIn(Strict):
    """A person's seat: a guest with a name, or a registered player with the player key in the Authorization header
    (no name then, or the registered one). With neither a name nor a player key the seat is refused (400)."""

    name = fields.String(
        metadata={
            "minLength": 1,
            "description": f"the player's name: 1-{MAX_NAME} visible characters once trimmed (no control or bidirectional "
            "formatting characters), unique within the game; with a player key, optional: the registered name",
        }
    )
    entropy = fields.String(
        validate=validate.Length(1, MAX_CONTRIBUTION),
        metadata={"description": "optional: your contribution to the shuffle seed, mixed with the server's committed secret"},
    )


class BotSeatIn(Strict):
    """A bot's seat, played by the server: no name, no entropy, no player key."""

    bot = fields.String(required=True, metadata={"enum": BOTS, "description": "the bot that plays the seat"})


class TakeSeatIn(PersonSeatIn):
    """What ``POST /api/games/{id}/seats`` loads: a ``PersonSeatIn`` or a ``BotSeatIn`` (the document says oneOf)."""

    bot = fields.String(metadata={"description": "a bot played by the server"})

    @validates_schema
    def one_of(self, data: dict, **_: object) -> None:
        if "name" in data and "bot" in data:
            raise ValidationError("give a 'name' for a player or a 'bot', not both")


class CommandIn(Schema):
    """A command exactly as a prompt option gives it, or ``{"type": "resign"}`` at any moment, plus an optional
    ``expected_seq``. What the route loads; the document gives each command type its own schema, generated from
    the rulesets' decision kinds (``api/ruleset_schemas.py``), and the ruleset checks each command's fields."""

    class Meta:
        unknown = INCLUDE

    type = fields.String(
        required=True, metadata={"description": "the command type: a prompt's kind, e.g. declare, react; resign leaves the game"}
    )
    seat = fields.Integer(strict=True, metadata={"description": "optional; must be the token's seat"})
    expected_seq = fields.Integer(
        strict=True, validate=validate.Range(min=0), metadata={"description": "refuse with 409 unless the game is at this seq"}
    )


class EmptyIn(Strict):
    """No fields: an empty object, or no body."""


class StreamTicketIn(Strict):
    """No fields: the seat comes from the token in the Authorization header (an empty object or no body)."""


class EventsQuery(Strict):
    after = fields.Integer(load_default=0, validate=validate.Range(min=0))
    limit = fields.Integer(load_default=1000, validate=validate.Range(min=1, max=5000))


class GamesQuery(Strict):
    status = fields.String(
        validate=validate.OneOf(STATUSES),
        metadata={"description": "only games in this status (default: every game but cancelled and expired ones)"},
    )
    ruleset = fields.String()
    variant = fields.String()
    open_seats = fields.Boolean(metadata={"description": "true: only games with a free seat"})
    offset = fields.Integer(load_default=0, validate=validate.Range(min=0))
    limit = fields.Integer(load_default=20, validate=validate.Range(min=1, max=100))


class TimelineQuery(Strict):
    as_ = fields.String(
        data_key="as",
        metadata={
            "pattern": AS_PATTERN,
            "description": "a seat number, 'spectator' (default) or 'omniscient' (after the game)",
        },
    )


class ReplayQuery(TimelineQuery):
    step = fields.Integer(validate=validate.Range(min=0), metadata={"description": "events applied (default: all)"})


class AuditQuery(TimelineQuery):
    step = fields.Integer(required=True, validate=validate.Range(min=1), metadata={"description": "a step of the claim"})


# ----- out -----


class CreatedOut(Schema):
    id = fields.String(required=True)
    host_token = fields.String(required=True, metadata={"description": "shown once; starts or cancels the game"})
    commitment = fields.String(
        required=True,
        allow_none=True,
        metadata={
            "description": "SHA-256 of the server's secret, which every shuffle mixes in: published before anyone adds "
            "entropy, revealed when the game ends (null: a rigged game)"
        },
    )


class SeatOut(Schema):
    seat = fields.Integer(required=True)
    token = fields.String(required=True, allow_none=True, metadata={"description": "shown once; null for a bot seat"})
    bot = fields.String(required=True, allow_none=True)


class CancelledOut(Schema):
    id = fields.String(required=True)
    status = fields.String(required=True)


class StartedOut(Schema):
    id = fields.String(required=True)
    status = fields.String(required=True)
    seq = fields.Integer(required=True)


class ChoiceOut(Schema):
    label = fields.String(required=True, metadata={"description": "the value in words"})
    value = fields.Raw(
        required=True,
        metadata={
            "description": "what to put in the command: a seat number, a card id, an item, or an object such as a "
            "SANCTION slot {seat, action}",
            "examples": [2, "c754b3d4a", {"seat": 1, "action": "war"}],
        },
    )


class ParamOut(Schema):
    name = fields.String(required=True, metadata={"description": "the command field this parameter sets"})
    min = fields.Integer(required=True, metadata={"description": "how many values to pick, at least"})
    max = fields.Integer(
        required=True, metadata={"description": "how many values to pick, at most; above 1, the field is a list of them"}
    )
    distinct = fields.Boolean(required=True, metadata={"description": "true: no value may be picked twice"})
    ordered = fields.Boolean(
        required=True, metadata={"description": "true: the order of the picked values matters (the label says how)"}
    )
    choices = fields.List(fields.Nested(ChoiceOut), required=True)


class OptionOut(Schema):
    label = fields.String(required=True, metadata={"description": "in words; ends with ' …' where params follow"})
    command = fields.Dict(
        required=True,
        metadata={
            "description": "with no params: post it as is to /commands; else set each param's field first. A command "
            "of the type the prompt's kind names (see CommandIn), less the fields its params set",
            "properties": {"type": {"type": "string"}, "seat": {"type": "integer", "minimum": 0}},
            "required": ["type"],
        },
    )
    group = fields.String(required=True, metadata={"description": "the kind of option (an action, pass, call, guard...)"})
    params = fields.List(
        fields.Nested(ParamOut),
        required=True,
        metadata={
            "description": "the parts left to pick; every combination within min, max and distinct is legal; empty: "
            "the command is complete"
        },
    )


class PromptOut(Schema):
    seat = fields.Integer(required=True)
    kind = fields.String(required=True, metadata={"description": "the decision; the command type its options send"})
    text = fields.String(required=True)
    deadline = fields.Float(
        required=True, allow_none=True, metadata={"description": "when the server decides for you (epoch s; null: no clock)"}
    )
    free = fields.Boolean(required=True, metadata={"description": "true: may be answered any time; the game does not wait"})
    about = fields.Dict(
        required=True,
        allow_none=True,
        metadata={"description": "what the decision is about, in structure (a reaction: the claim and what it would do)"},
    )
    options = fields.List(fields.Nested(OptionOut), required=True)


class SeatInfoOut(Schema):
    seat = fields.Integer(required=True)
    name = fields.String(required=True)
    bot = fields.String(allow_none=True)
    mob = fields.Boolean(metadata={"description": "true: a mob seat, played by the D8 (R173)"})
    player = fields.String(allow_none=True, metadata={"description": "the registered player sitting here"})
    guest = fields.Boolean(metadata={"description": "true: a person without a registered name (never counted in records)"})
    autoplayed = fields.Boolean(
        metadata={"description": "true: the server plays this seat now (it resigned, or ran out of time too often)"}
    )


class FairnessOut(Schema):
    seeding = fields.String(
        required=True, metadata={"description": "mixed (the server's secret with every contribution) or exact (rigged)"}
    )
    commitment = fields.String(allow_none=True, metadata={"description": "SHA-256 of the server's secret"})
    creator_seed = fields.Boolean(required=True, metadata={"description": "true: the creator contributed a seed"})
    seat_entropy = fields.List(fields.Integer(), required=True, metadata={"description": "seats that added entropy"})
    rigged = fields.Boolean(required=True, metadata={"description": "true: someone may know the draws"})
    position_chosen = fields.Boolean(required=True, metadata={"description": "true: the creator chose the position"})


class ClockOut(Schema):
    seat = fields.Integer(required=True)
    deadline = fields.Float(required=True, metadata={"description": "when the server decides for the seat (epoch s)"})


class ViewOut(Schema):
    id = fields.String(required=True)
    ruleset = fields.String(required=True)
    status = fields.String(required=True, validate=validate.OneOf(STATUSES))
    seq = fields.Integer(required=True)
    rigged = fields.Boolean(required=True)
    you = fields.Integer(required=True, allow_none=True, metadata={"description": "your seat, or null for a spectator"})
    seats = fields.List(fields.Nested(SeatInfoOut), required=True)
    seats_total = fields.Integer(required=True)
    config = fields.Dict(required=True)
    prompts = fields.List(fields.Nested(PromptOut), required=True)
    table = Documented(
        "TableOut", required=True, allow_none=True, metadata={"description": "the table as you may know it (null in the lobby)"}
    )
    deadline = fields.Float(
        required=True, allow_none=True, metadata={"description": "when the open reaction window closes (null: none)"}
    )
    fairness = fields.Nested(FairnessOut, required=True)
    clocks = fields.List(
        fields.Nested(ClockOut), required=True, metadata={"description": "every running decision clock (turn_seconds)"}
    )
    expires_at = fields.Float(
        required=True, allow_none=True, metadata={"description": "a game in the lobby expires then unless started"}
    )


class StreamTicketOut(Schema):
    ticket = fields.String(
        required=True,
        metadata={
            "description": "opens this seat's stream as GET /api/games/{id}/stream?ticket=<ticket> until expires_at, "
            "and nothing else: v1.<seat>.<expires_at>.<HMAC-SHA256 hex>"
        },
    )
    seat = fields.Integer(required=True, metadata={"description": "the seat whose stream the ticket opens"})
    expires_at = fields.Integer(
        required=True,
        metadata={"description": "seconds since the epoch; a stream opened before then runs on after it"},
    )


class CommandOut(Schema):
    seq = fields.Integer(required=True)
    events = fields.List(Documented("EventOut"), required=True, metadata={"description": "the new events, as you may see them"})


class EventsOut(Schema):
    seq = fields.Integer(required=True, metadata={"description": "the game's latest seq"})
    events = fields.List(Documented("EventOut"), required=True)
    next_after = fields.Integer(required=True, metadata={"description": "pass as ?after= for the next page"})


class GameSummaryOut(Schema):
    id = fields.String(required=True)
    ruleset = fields.String(required=True)
    variant = fields.String(required=True)
    status = fields.String(required=True)
    seats = fields.Integer(required=True)
    seats_free = fields.Integer(required=True)
    rigged = fields.Boolean(required=True)
    created = fields.Float(required=True, metadata={"description": "seconds since the epoch"})
    expires_at = fields.Float(
        required=True, allow_none=True, metadata={"description": "a game in the lobby expires then unless started"}
    )
    turn_seconds = fields.Float(required=True, metadata={"description": "the decision clock (0: none)"})


class Page(Schema):
    """One page of a list: how many match in all, and where this page starts and how long it may be."""

    total = fields.Integer(required=True)
    offset = fields.Integer(required=True)
    limit = fields.Integer(required=True)


class GamesOut(Page):
    games = fields.List(fields.Nested(GameSummaryOut), required=True)


class ProblemOut(Schema):
    """RFC 7807 problem details, with the rule and the open prompts where the rules refused."""

    type = fields.String(required=True)
    title = fields.String(required=True)
    status = fields.Integer(required=True)
    detail = fields.String(required=True)
    instance = fields.String()
    rule = fields.String(allow_none=True, metadata={"description": "the catalog id of the rule (docs/rulings.md)"})
    prompts = fields.List(
        fields.Nested(PromptOut), metadata={"description": "your open prompts, compact: what you may do instead"}
    )
    errors = fields.Dict(metadata={"description": "field -> messages, for a malformed body"})
    seq = fields.Integer(metadata={"description": "the game's seq, for a stale expected_seq"})


class NarratedEventOut(Open):
    """An event (one of EventOut's, as the perspective may see it) with its text."""

    seq = fields.Integer(required=True)
    type = fields.String(required=True, metadata={"description": "the event type (see EventOut)"})
    text = fields.String(required=True, metadata={"description": "the event in plain words, as the perspective knows it"})


# ----- the table (domain/everaegis/redaction.py ``view``): what a reader may know, every known field typed -----


class TableEstateOut(Open):
    type = fields.String(
        required=True,
        allow_none=True,
        validate=validate.OneOf(["trigger", "condition"]),
        metadata={"description": "null: unknown"},
    )
    text_known = fields.String(
        required=True,
        validate=validate.OneOf(TEXT_KNOWN),
        metadata={"description": "how much of the card's text the rulebook prints"},
    )
    plain = fields.Boolean(required=True, metadata={"description": "true: played without effect (A54)"})


class TableCardOut(Open):
    """A card as the reader may know it: without ``name`` unless the reader may know what it is."""

    id = fields.String(required=True, metadata={"description": "an opaque id, stable for the game"})
    revealed = fields.Boolean(required=True)
    name = fields.String(metadata={"description": "absent when the reader may not know the card"})
    estate = fields.Nested(TableEstateOut, metadata={"description": "a Classic estate card: its type and text status"})
    known_to_all = fields.Boolean(metadata={"description": "true: unrevealed, but everyone was shown what it is"})
    discovery = fields.String(validate=validate.OneOf(["discovery", "tree"]), metadata={"description": "Discovery (R160)"})


class TableNamedCardOut(Open):
    id = fields.String(required=True)
    name = fields.String(required=True)


class TablePlayerOut(Open):
    seat = fields.Integer(required=True)
    name = fields.String(required=True)
    soldiers = fields.Integer(required=True)
    eliminated = fields.Boolean(required=True)
    cards = fields.List(fields.Nested(TableCardOut), required=True)
    revealed = fields.Integer(required=True, metadata={"description": "how many of the player's cards are revealed"})
    unrevealed = fields.Integer(required=True)
    sanctions = fields.List(fields.String(), required=True, metadata={"description": "the actions SANCTIONED"})
    items = fields.List(fields.String(), required=True, metadata={"description": "the items held (WALL, TREATY, BRIG...)"})
    sacrifices = fields.Integer(metadata={"description": "soldiers laid on the mat (R149)"})
    leader = fields.String(allow_none=True, metadata={"description": "Classic: the leader mat (null: not chosen yet)"})
    leader_plain = fields.Boolean(metadata={"description": "Classic: the leader's text is not printed (A54)"})
    mats = fields.List(fields.String(), metadata={"description": "leader selection: your mats (yours only)"})
    kept = fields.String(metadata={"description": "Limited Selection: the mat you keep face down (yours only)"})
    mob = fields.Boolean(required=True, metadata={"description": "played by the D8 (R173)"})
    resigned = fields.Boolean(required=True)
    abandoned = fields.Boolean(required=True, metadata={"description": "a bot plays the seat after timeouts (S3)"})


class TableDeckOut(Open):
    size = fields.Integer(required=True)
    known_top = fields.List(fields.Nested(TableCardOut), metadata={"description": "the top cards you know (A21)"})
    cards = fields.List(fields.Nested(TableNamedCardOut), metadata={"description": "omniscient: the whole deck, top first"})


class TableYearOut(Open):
    year = fields.String(required=True)
    size = fields.Integer(required=True)
    composition = fields.Dict(keys=fields.String(), values=fields.Integer(), required=True)


class TableGuardOut(Open):
    seat = fields.Integer(required=True)
    means = fields.String(required=True, metadata={"description": "card or wall"})
    status = fields.String(required=True)


class TableWarOut(Open):
    attacker = fields.Integer(required=True)
    defender = fields.Integer(required=True)
    stage = fields.String(required=True)
    winner = fields.Integer(required=True, allow_none=True)
    loser = fields.Integer(required=True, allow_none=True)


class TableActionOut(Open):
    declarer = fields.Integer(required=True)
    action = fields.String(required=True, validate=validate.OneOf(ACTIONS))
    plan = fields.Dict(required=True, metadata={"description": "the declared plan (the declare command's own fields)"})
    claim = fields.String(required=True, allow_none=True, metadata={"description": "the building claimed (null: none)"})
    sanctioned = fields.Boolean(required=True)
    stage = fields.String(required=True)
    guards = fields.List(fields.Nested(TableGuardOut), required=True)
    war = fields.Nested(TableWarOut)


class TableWindowOut(Open):
    id = fields.Integer(required=True)
    claimant = fields.Integer(required=True)
    claim = fields.String(required=True)
    about = fields.String(required=True, metadata={"description": "action or guard"})
    asked = fields.List(fields.Integer(), required=True)
    answers = fields.Dict(
        keys=fields.String(),
        values=fields.Dict(),
        required=True,
        metadata={"description": "by seat: the answer ({answered: true} where you may not know it yet)"},
    )
    waiting_for = fields.List(fields.Integer(), required=True)
    deadline = fields.Float(required=True, allow_none=True)


class TableChallengeOut(Open):
    caller = fields.Integer(required=True)
    claimant = fields.Integer(required=True)
    claim = fields.String(required=True)
    about = fields.String(required=True)
    stage = fields.String(required=True)


class TableAwaitingOut(Open):
    seat = fields.Integer(required=True)
    kind = fields.String(required=True, metadata={"description": "the prompt kind the game waits for"})


class TableResultOut(Open):
    result = fields.String(required=True, allow_none=True, metadata={"description": "win or draw"})
    winners = fields.List(fields.Integer(), required=True)
    reason = fields.String(required=True, allow_none=True)


class TableEffectOut(Open):
    id = fields.Integer(required=True)
    source = fields.String(required=True)
    owner = fields.Integer(required=True)
    steps = fields.List(fields.Dict(), required=True)
    next_step = fields.Integer(required=True)
    work = fields.Dict(required=True, allow_none=True)


class TableSizeOut(Open):
    size = fields.Integer(required=True)


class TableComponentsOut(Open):
    source = fields.String(required=True)
    plain_estates = fields.List(fields.String(), required=True)
    partial_estates = fields.List(
        fields.String(), metadata={"description": "estate cards that play only the sentences the rulebook prints of them"}
    )


class TableOverlordOut(Open):
    seat = fields.Integer(required=True)
    team = fields.List(fields.Integer(), required=True)
    turns_in_a_row = fields.Integer(required=True)
    turns_due = fields.Integer(required=True)


class TableOfferOut(Open):
    winner = fields.Integer(required=True)
    loser = fields.Integer(required=True)


class TableBlasphemyOut(Open):
    card = fields.Nested(TableNamedCardOut, required=True, allow_none=True)
    action = fields.String(required=True, allow_none=True)
    tokens = fields.List(fields.Integer(), required=True, metadata={"description": "each seat's Blasphemy tokens"})
    to_win = fields.Integer(required=True)
    offer = fields.Nested(TableOfferOut)


class TableOut(Open):
    """The table as a reader may know it (A53): what everyone sees, plus the reader's own cards, plus everything
    once the game is over. Fields a variant or Classic adds appear only in such games."""

    ruleset = fields.String(required=True)
    variants = fields.List(fields.String(), required=True)
    mobs = fields.List(fields.Integer(), required=True)
    perspective = fields.Raw(required=True, metadata=PERSPECTIVE)
    you = fields.Integer(required=True, allow_none=True, metadata={"description": "your seat (null: not a seat)"})
    seq = fields.Integer(required=True)
    status = fields.String(required=True, metadata={"description": "setup, active or finished"})
    turn = fields.Integer(required=True)
    current = fields.Integer(required=True, allow_none=True, metadata={"description": "whose turn it is"})
    phase = fields.String(required=True, allow_none=True)
    stage = fields.String(required=True)
    commitment = fields.String(required=True, allow_none=True)
    players = fields.List(fields.Nested(TablePlayerOut), required=True)
    deck = fields.Nested(TableDeckOut, required=True)
    years = fields.List(fields.Nested(TableYearOut), required=True)
    reserve = fields.Dict(
        keys=fields.String(), values=fields.Integer(), required=True, metadata={"description": "SANCTION, BRIG"}
    )
    action = fields.Nested(TableActionOut, required=True, allow_none=True)
    window = fields.Nested(TableWindowOut, required=True, allow_none=True, metadata={"description": "the open reaction window"})
    challenge = fields.Nested(TableChallengeOut, required=True, allow_none=True)
    awaiting = fields.List(fields.Nested(TableAwaitingOut), required=True, metadata={"description": "what the game waits for"})
    result = fields.Nested(TableResultOut, required=True, allow_none=True, metadata={"description": "once the game is over"})
    effects = fields.List(fields.Nested(TableEffectOut), metadata={"description": "card effects under way (R92, R93)"})
    estate_deck = fields.Nested(TableSizeOut, metadata={"description": "Classic"})
    selection = fields.String(validate=validate.OneOf(SELECTIONS), metadata={"description": "Classic"})
    dictator = fields.String(metadata={"description": "Dictator (R168)"})
    components = fields.Nested(TableComponentsOut, metadata={"description": "Classic"})
    rubble = fields.List(fields.Nested(TableNamedCardOut), metadata={"description": "Rubble Rouser (R158), oldest first"})
    allies = fields.Dict(keys=fields.String(), values=fields.List(fields.Integer()), metadata={"description": "Alliances (R163)"})
    overlord = fields.Nested(TableOverlordOut, metadata={"description": "Overlord (R170)"})
    blasphemy = fields.Nested(TableBlasphemyOut, metadata={"description": "Blasphemy (R171)"})
    seed = fields.String(allow_none=True, metadata={"description": "omniscient: the seed, once the game is over"})


class ReplayOut(Schema):
    id = fields.String(required=True)
    step = fields.Integer(required=True)
    steps = fields.Integer(required=True)
    as_ = fields.Raw(required=True, data_key="as", metadata=PERSPECTIVE)
    seats = fields.List(fields.Nested(SeatInfoOut), required=True)
    rigged = fields.Boolean(required=True)
    table = Documented(
        "TableOut", required=True, metadata={"description": "the table after this step, as the perspective knew it"}
    )
    event = Documented(
        "NarratedEventOut",
        allow_none=True,
        metadata={"description": "the event of this step, as the perspective may see it, with its 'text' (null at step 0)"},
    )


class TimelineItemOut(Schema):
    seq = fields.Integer(required=True)
    type = fields.String(required=True)
    text = fields.String(required=True)
    undone = fields.Boolean(required=True, metadata={"description": "true for events an undo made void (kept, not deleted)"})


class TimelineOut(Schema):
    id = fields.String(required=True)
    as_ = fields.Raw(required=True, data_key="as", metadata=PERSPECTIVE)
    steps = fields.Integer(required=True)
    events = fields.List(fields.Nested(TimelineItemOut), required=True)


class VerifyOut(Schema):
    id = fields.String(required=True)
    ok = fields.Boolean(required=True)
    events = fields.Integer(required=True)
    commands = fields.Integer(required=True)
    seed = fields.String(required=True, metadata={"description": "the seed every shuffle was drawn from"})
    commitment = fields.String(
        required=True, allow_none=True, metadata={"description": "published before the game (none: rigged)"}
    )
    server_secret = fields.String(
        required=True, allow_none=True, metadata={"description": "the server's secret, revealed at the end"}
    )
    creator_seed = fields.String(
        required=True, allow_none=True, metadata={"description": "the creator's seed (mixed in, or exact)"}
    )
    seat_entropy = fields.Dict(
        keys=fields.String(), values=fields.String(), required=True, metadata={"description": "each seat's entropy"}
    )
    rigged = fields.Boolean(required=True)
    problems = fields.List(fields.String(), required=True)
    first_difference = fields.Dict(required=True, allow_none=True)


class AuditOut(Schema):
    class Meta:
        unknown = INCLUDE

    id = fields.String(required=True)
    step = fields.Integer(required=True)
    as_ = fields.Raw(required=True, data_key="as", metadata=PERSPECTIVE)
    finished = fields.Boolean(required=True)
    declared = fields.Dict(required=True)
    claimant = fields.Dict(required=True)
    claim = fields.String(allow_none=True)
    claimant_held = fields.Dict(allow_none=True, metadata={"description": "what the claimant held (when the reader may know)"})
    others_knew = fields.Dict(required=True, metadata={"description": "per player: the claimant's cards that player knew"})
    answers = fields.List(fields.Dict(), required=True, metadata={"description": "every answer in the window, with its time"})
    undo = fields.Dict(required=True)
    followed = fields.List(fields.Dict(), required=True)


class HealthOut(Schema):
    status = fields.String(required=True)
    store = fields.String()
    redis = fields.String()


STATISTICS = {
    "claims_made": "claims made: actions naming a building, and guards made with a card",
    "bluffs_made": "claims made without an unrevealed card of that building",
    "claims_exposed": "own claims another player called and that were not proven",
    "calls_made": "calls made",
    "calls_correct": "calls after which the claim was not proven",
    "calls_wrong": "calls the claimant proved wrong",
    "wars_won": "wars won",
    "timeouts": "decisions the server made because the player's clock ran out",
    "resigned": "games resigned",
    "abandoned": "games given to a bot after timeouts",
}


def _statistics() -> dict[str, fields.Field]:
    return {name: fields.Integer(required=True, metadata={"description": text}) for name, text in STATISTICS.items()}


class RegisterIn(Strict):
    name = fields.String(
        required=True,
        metadata={
            "minLength": 1,
            "pattern": "^[^/]*$",
            "description": f"1-{MAX_NAME} visible characters once trimmed, no '/'; unique among registered players (case "
            "does not count)",
        },
    )


class RegisteredOut(Schema):
    name = fields.String(required=True, metadata={"description": "the name as kept (Unicode NFC, spaces trimmed)"})
    key = fields.String(
        required=True,
        metadata={"description": "your player key, shown once: take seats with Authorization: Bearer <key>"},
    )


class RatingOut(Schema):
    mu = fields.Float(required=True)
    sigma = fields.Float(required=True)
    ordinal = fields.Float(required=True, metadata={"description": "mu - 3 sigma: what the leaderboard sorts by"})


class PlayerOut(Schema):
    name = fields.String(required=True)
    registered_at = fields.Float(required=True)
    rating = fields.Nested(RatingOut, required=True, metadata={"description": "openskill Plackett-Luce"})
    rated_games = fields.Integer(required=True)
    games = fields.Integer(required=True, metadata={"description": "finished games counted (rigged games are not)"})
    wins = fields.Integer(required=True)
    draws = fields.Integer(required=True)
    losses = fields.Integer(required=True)
    statistics = fields.Dict(
        keys=fields.String(), values=fields.Integer(), required=True, metadata={"description": ", ".join(STATISTICS)}
    )


class PlayersQuery(Strict):
    order = fields.String(load_default="rating", validate=validate.OneOf(["rating", "games", "wins", "name"]))
    offset = fields.Integer(load_default=0, validate=validate.Range(min=0))
    limit = fields.Integer(load_default=50, validate=validate.Range(min=1, max=200))


class PlayersOut(Page):
    players = fields.List(fields.Nested(PlayerOut), required=True)
    order = fields.String(required=True)


class PlayerGameOut(Schema):
    """One line of a player's games export."""

    id = fields.String(required=True)
    ruleset = fields.String(required=True)
    variant = fields.String(required=True)
    rigged = fields.Boolean(required=True)
    finished_at = fields.Float(required=True)
    seat = fields.Integer(required=True)
    place = fields.Integer(required=True, metadata={"description": "1 is the best; equal places are ties"})
    result = fields.String(required=True, metadata={"description": "win, draw or loss"})
    winners = fields.List(fields.Integer(), required=True)
    seats = fields.List(fields.Dict(), required=True)
    rated = fields.Boolean(required=True)
    counted = fields.Boolean(required=True, metadata={"description": "false for a rigged game"})
    rating_before = fields.Nested(RatingOut, allow_none=True)
    rating_after = fields.Nested(RatingOut, allow_none=True)


StatsOut = Schema.from_dict(
    {
        "player": fields.String(required=True),
        "games": fields.Integer(required=True),
        "wins": fields.Integer(required=True),
        "draws": fields.Integer(required=True),
        "losses": fields.Integer(required=True),
        **_statistics(),
    },
    name="StatsOut",
)


_S = TypeVar("_S", bound=Schema)


@functools.cache
def built(cls: type[_S]) -> _S:
    """One instance of a schema class for every request: marshmallow builds a schema's fields anew on each
    instantiation (50-100 us for a view); ``load`` and ``dump`` keep no state between calls (no ``context`` is used
    here), so one instance serves every request and thread."""
    return cls()
