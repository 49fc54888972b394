"""Every body in and out of the API, as marshmallow schemas. The OpenAPI document is generated from them."""

from __future__ import annotations

from marshmallow import INCLUDE, RAISE, Schema, ValidationError, fields, validate, validates_schema

STATUSES = ("lobby", "active", "finished", "cancelled", "expired")
CLOCK = "0 (no clock) or 1 to 604800 seconds"


def _refuse(message: str) -> bool:
    raise ValidationError(message)


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
    seed = fields.String(
        validate=validate.Length(1, 200),
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
        }
    )
    reaction_seconds = fields.Float(
        validate=validate.Range(min=0, max=86400),
        metadata={
            "description": "reaction window deadline in seconds; 0 waits for every answer (default: AEGIS_REACTION_SECONDS)"
        },
    )
    turn_seconds = fields.Float(
        validate=[validate.Range(min=0, max=604800), lambda v: v == 0 or v >= 1 or _refuse(f"'turn_seconds' is {CLOCK}")],
        metadata={
            "description": f"the clock of every other decision, {CLOCK}: when it runs out the server's cautious bot "
            "decides for the seat (default: AEGIS_TURN_SECONDS)"
        },
    )
    timeouts_to_forfeit = fields.Integer(
        strict=True,
        validate=validate.Range(min=0, max=100),
        metadata={
            "description": "after this many decisions in a row decided by the clock the seat is abandoned: a bot plays "
            "it for the rest of the game (default 3; 0: never)"
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
    name = fields.String(
        metadata={
            "description": "the player's name (1-40 visible characters, unique within the game); with a player key, "
            "optional: the registered name"
        }
    )
    bot = fields.String(metadata={"description": "a bot played by the server: random or cautious"})
    entropy = fields.String(
        validate=validate.Length(1, 200),
        metadata={"description": "optional: your contribution to the shuffle seed, mixed with the server's committed secret"},
    )

    @validates_schema
    def one_of(self, data: dict, **_: object) -> None:
        if "name" in data and "bot" in data:
            raise ValidationError("give a 'name' for a player or a 'bot', not both")


class CommandIn(Schema):
    """A command exactly as a prompt option gives it, or ``{"type": "resign"}`` at any moment, plus an optional
    ``expected_seq``."""

    class Meta:
        unknown = INCLUDE

    type = fields.String(
        required=True, metadata={"description": "the command type, e.g. declare, react, reveal; resign leaves the game"}
    )
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
        data_key="as", metadata={"description": "a seat number, 'spectator' (default) or 'omniscient' (after the game)"}
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
        allow_none=True,
        metadata={
            "description": "SHA-256 of the server's secret, which every shuffle mixes in: published before anyone adds "
            "entropy, revealed when the game ends (null: a rigged game)"
        },
    )


class SeatOut(Schema):
    seat = fields.Integer(required=True)
    token = fields.String(allow_none=True, metadata={"description": "shown once; null for a bot seat"})
    bot = fields.String(allow_none=True)


class CancelledOut(Schema):
    id = fields.String(required=True)
    status = fields.String(required=True)


class StartedOut(Schema):
    id = fields.String(required=True)
    status = fields.String(required=True)
    seq = fields.Integer(required=True)


class ChoiceOut(Schema):
    label = fields.String(required=True, metadata={"description": "the value in words"})
    value = fields.Raw(required=True, metadata={"description": "what to put in the command (a seat, an id, an object...)"})


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
        metadata={"description": "with no params: post it as is to /commands; else set each param's field first"},
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
    deadline = fields.Float(allow_none=True)
    free = fields.Boolean(required=True, metadata={"description": "true: may be answered any time; the game does not wait"})
    about = fields.Dict(
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
    you = fields.Integer(allow_none=True, metadata={"description": "your seat, or null for a spectator"})
    seats = fields.List(fields.Nested(SeatInfoOut), required=True)
    seats_total = fields.Integer(required=True)
    config = fields.Dict(required=True)
    prompts = fields.List(fields.Nested(PromptOut), required=True)
    table = fields.Dict(allow_none=True, metadata={"description": "the table as you may know it (null in the lobby)"})
    deadline = fields.Float(allow_none=True, metadata={"description": "when the open reaction window closes"})
    fairness = fields.Nested(FairnessOut, required=True)
    clocks = fields.List(
        fields.Nested(ClockOut), required=True, metadata={"description": "every running decision clock (turn_seconds)"}
    )
    expires_at = fields.Float(allow_none=True, metadata={"description": "a game in the lobby expires then unless started"})


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
    expires_at = fields.Float(allow_none=True, metadata={"description": "a game in the lobby expires then unless started"})
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
    seed = fields.String(required=True, metadata={"description": "the seed every shuffle was drawn from"})
    commitment = fields.String(allow_none=True, metadata={"description": "published before the game (none: rigged)"})
    server_secret = fields.String(allow_none=True, metadata={"description": "the server's secret, revealed at the end"})
    creator_seed = fields.String(allow_none=True, metadata={"description": "the creator's seed (mixed in, or exact)"})
    seat_entropy = fields.Dict(
        keys=fields.String(), values=fields.String(), required=True, metadata={"description": "each seat's entropy"}
    )
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
        metadata={"description": "1-40 visible characters, no '/'; unique among registered players (case does not count)"},
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
