"""Every body in and out of the API, as marshmallow schemas. The OpenAPI document is generated from them."""

from __future__ import annotations

from marshmallow import INCLUDE, RAISE, Schema, ValidationError, fields, validate, validates_schema

STATUSES = ("lobby", "active", "finished")


class Strict(Schema):
    class Meta:
        unknown = RAISE


# ----- in -----


class CreateGameIn(Strict):
    ruleset = fields.String(load_default="ever-aegis", metadata={"description": "the ruleset; this service hosts ever-aegis"})
    variant = fields.String(
        load_default="simpleton",
        validate=validate.Length(1, 100),
        metadata={
            "description": "the game (simpleton or classic) and its variants joined with '+', e.g. simpleton+quick, "
            "classic+long (variants: quick, long, plague, survival, solo, alliances, blasphemy, overlord)"
        },
    )
    selection = fields.String(
        validate=validate.OneOf(["simpleton", "limited", "drafting", "freeform"]),
        metadata={"description": "Classic leader selection mode (default limited); Simpleton games use the Simpleton sides"},
    )
    seats = fields.Integer(required=True, strict=True, metadata={"description": "3 to 10"})
    mobs = fields.List(
        fields.Integer(strict=True),
        metadata={
            "description": "seats played by the D8 as mobs (R173): never prompted, filled at once; "
            "solo makes every seat but 0 a mob when absent"
        },
    )
    seed = fields.String(validate=validate.Length(1, 200), metadata={"description": "optional; random when absent"})
    reaction_seconds = fields.Float(
        validate=validate.Range(min=0, max=86400),
        metadata={
            "description": "reaction window deadline in seconds; 0 waits for every answer (default: AEGIS_REACTION_SECONDS)"
        },
    )
    first_player = fields.Integer(strict=True, metadata={"description": "seat that plays first; random when absent"})
    options = fields.Dict(
        keys=fields.String(), values=fields.Raw(), load_default=dict, metadata={"description": "see docs/rulings.md"}
    )
    setup = fields.Dict(
        metadata={"description": "a rigged position (deck, hands, soldiers, wall, treaty, brigs, sanctions, first_player)"}
    )


class TakeSeatIn(Strict):
    name = fields.String(validate=validate.Length(1, 40), metadata={"description": "the player's name"})
    bot = fields.String(metadata={"description": "a bot played by the server: random or cautious"})

    @validates_schema
    def one_of(self, data: dict, **_: object) -> None:
        if "name" in data and "bot" in data:
            raise ValidationError("give a 'name' for a player or a 'bot', not both")


class CommandIn(Schema):
    """A command exactly as a prompt option gives it, plus an optional ``expected_seq``."""

    class Meta:
        unknown = INCLUDE

    type = fields.String(required=True, metadata={"description": "the command type, e.g. declare, react, reveal"})
    seat = fields.Integer(strict=True, metadata={"description": "optional; must be the token's seat"})
    expected_seq = fields.Integer(
        strict=True, validate=validate.Range(min=0), metadata={"description": "refuse with 409 unless the game is at this seq"}
    )


class StreamTicketIn(Strict):
    """No fields: the seat comes from the token in the Authorization header (an empty object or no body)."""


class EventsQuery(Strict):
    after = fields.Integer(load_default=0, validate=validate.Range(min=0))
    limit = fields.Integer(load_default=1000, validate=validate.Range(min=1, max=5000))


class GamesQuery(Strict):
    status = fields.String(validate=validate.OneOf(STATUSES))
    ruleset = fields.String()
    variant = fields.String()
    open_seats = fields.Boolean(metadata={"description": "true: only games with a free seat"})
    offset = fields.Integer(load_default=0, validate=validate.Range(min=0))
    limit = fields.Integer(load_default=20, validate=validate.Range(min=1, max=100))


class TimelineQuery(Strict):
    as_ = fields.String(
        data_key="as", metadata={"description": "a seat number, 'spectator' (default) or 'omniscient' (after the game)"}
    )


class ReplayQuery(TimelineQuery):
    step = fields.Integer(validate=validate.Range(min=0), metadata={"description": "events applied (default: all)"})


class AuditQuery(TimelineQuery):
    step = fields.Integer(required=True, validate=validate.Range(min=1), metadata={"description": "a step of the claim"})


# ----- out -----


class CreatedOut(Schema):
    id = fields.String(required=True)
    host_token = fields.String(required=True, metadata={"description": "shown once; starts the game"})


class SeatOut(Schema):
    seat = fields.Integer(required=True)
    token = fields.String(allow_none=True, metadata={"description": "shown once; null for a bot seat"})
    bot = fields.String(allow_none=True)


class StartedOut(Schema):
    id = fields.String(required=True)
    status = fields.String(required=True)
    seq = fields.Integer(required=True)


class OptionOut(Schema):
    label = fields.String(required=True)
    command = fields.Dict(required=True, metadata={"description": "post it as is to /commands"})


class PromptOut(Schema):
    seat = fields.Integer(required=True)
    kind = fields.String(required=True)
    text = fields.String(required=True)
    deadline = fields.Float(allow_none=True)
    free = fields.Boolean(required=True, metadata={"description": "true: may be answered any time; the game does not wait"})
    options = fields.List(fields.Nested(OptionOut), required=True)


class SeatInfoOut(Schema):
    seat = fields.Integer(required=True)
    name = fields.String(required=True)
    bot = fields.String(allow_none=True)
    mob = fields.Boolean(metadata={"description": "true: a mob seat, played by the D8 (R173)"})


class ViewOut(Schema):
    id = fields.String(required=True)
    ruleset = fields.String(required=True)
    status = fields.String(required=True, validate=validate.OneOf(STATUSES))
    seq = fields.Integer(required=True)
    rigged = fields.Boolean(required=True)
    you = fields.Integer(allow_none=True, metadata={"description": "your seat, or null for a spectator"})
    seats = fields.List(fields.Nested(SeatInfoOut), required=True)
    seats_total = fields.Integer(required=True)
    config = fields.Dict(required=True)
    prompts = fields.List(fields.Nested(PromptOut), required=True)
    table = fields.Dict(allow_none=True, metadata={"description": "the table as you may know it (null in the lobby)"})
    deadline = fields.Float(allow_none=True, metadata={"description": "when the open reaction window closes"})


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
    events = fields.List(fields.Dict(), required=True, metadata={"description": "the new events, as you may see them"})


class EventsOut(Schema):
    seq = fields.Integer(required=True, metadata={"description": "the game's latest seq"})
    events = fields.List(fields.Dict(), required=True)
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


class GamesOut(Schema):
    games = fields.List(fields.Nested(GameSummaryOut), required=True)
    total = fields.Integer(required=True)
    offset = fields.Integer(required=True)
    limit = fields.Integer(required=True)


class ProblemOut(Schema):
    """RFC 7807 problem details, with the rule and the legal options where the rules refused."""

    type = fields.String(required=True)
    title = fields.String(required=True)
    status = fields.Integer(required=True)
    detail = fields.String(required=True)
    instance = fields.String()
    rule = fields.String(allow_none=True, metadata={"description": "the catalog id of the rule (docs/rulings.md)"})
    legal = fields.List(fields.Dict(), metadata={"description": "commands that are legal instead"})
    errors = fields.Dict(metadata={"description": "field -> messages, for a malformed body"})
    seq = fields.Integer(metadata={"description": "the game's seq, for a stale expected_seq"})


class NarratedEventOut(Schema):
    class Meta:
        unknown = INCLUDE

    seq = fields.Integer(required=True)
    type = fields.String(required=True)
    text = fields.String(required=True, metadata={"description": "the event in plain words, as the perspective knows it"})


class ReplayOut(Schema):
    id = fields.String(required=True)
    step = fields.Integer(required=True)
    steps = fields.Integer(required=True)
    as_ = fields.Raw(required=True, data_key="as", metadata={"description": "a seat number, 'spectator' or 'omniscient'"})
    seats = fields.List(fields.Nested(SeatInfoOut), required=True)
    rigged = fields.Boolean(required=True)
    table = fields.Dict(required=True, metadata={"description": "the table after this step, as the perspective knew it"})
    event = fields.Dict(allow_none=True, metadata={"description": "the event of this step, redacted, with its 'text'"})


class TimelineItemOut(Schema):
    seq = fields.Integer(required=True)
    type = fields.String(required=True)
    text = fields.String(required=True)
    undone = fields.Boolean(required=True, metadata={"description": "true for events an undo made void (kept, not deleted)"})


class TimelineOut(Schema):
    id = fields.String(required=True)
    as_ = fields.Raw(required=True, data_key="as")
    steps = fields.Integer(required=True)
    events = fields.List(fields.Nested(TimelineItemOut), required=True)


class VerifyOut(Schema):
    id = fields.String(required=True)
    ok = fields.Boolean(required=True)
    events = fields.Integer(required=True)
    commands = fields.Integer(required=True)
    seed = fields.String(required=True)
    commitment = fields.String(allow_none=True)
    rigged = fields.Boolean(required=True)
    problems = fields.List(fields.String(), required=True)
    first_difference = fields.Dict(allow_none=True)


class AuditOut(Schema):
    class Meta:
        unknown = INCLUDE

    id = fields.String(required=True)
    step = fields.Integer(required=True)
    as_ = fields.Raw(required=True, data_key="as")
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


class StatsOut(Schema):
    player = fields.String(required=True)
    games = fields.Integer(required=True)
    wins = fields.Integer(required=True)
    draws = fields.Integer(required=True)
    bluffs_made = fields.Integer(required=True, metadata={"description": "claims made without the claimed card"})
    calls_made = fields.Integer(required=True)
    bluffs_caught = fields.Integer(required=True, metadata={"description": "own bluffs exposed by a call"})
    wars_won = fields.Integer(required=True)
