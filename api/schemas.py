"""Every body in and out of the API, as marshmallow schemas. The OpenAPI document is generated from them.

Where the service or the ruleset enforces a constraint with its own words (and rule), the schema states it in
``metadata`` (``minimum``, ``enum``, ...) so that the document shows it and the refusal keeps its reason; where
only the schema enforces it, ``validate=`` does both."""

from __future__ import annotations

import functools
from typing import Any, TypeVar

from marshmallow import INCLUDE, RAISE, Schema, ValidationError, fields, validate, validates_schema

from aegis.domain.kernel.ruleset import BRANCH_DEALS
from aegis.service import rulesets
from aegis.service.games import MAX_CONTRIBUTION, MAX_TIMEOUTS_TO_FORFEIT
from aegis.service.names import MAX_NAME
from aegis.service.rulesets import BOT_NAMES, RULESETS
from aegis.service.settings import MAX_CLOCK, MIN_CLOCK

STATUSES = ("lobby", "active", "finished", "cancelled", "expired")
CLOCK = f"0 (no clock) or {MIN_CLOCK:g} to {MAX_CLOCK:g} seconds"
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

class CreateGameIn(Schema):
    """The service's own fields of a game's creation. Every other field is the ruleset's: checked against the
    ruleset's declared shape (``Ruleset.shapes.creation``, in ``api/ruleset_schemas.py``), documented beside these."""

    class Meta:
        unknown = INCLUDE

    ruleset = fields.String(
        load_default=lambda: rulesets.DEFAULT,  # None when several are hosted: a game names its own
        metadata={"description": "the ruleset"},  # the document lists the hosted ones (openapi.document)
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
            "description": f"the clock of every other decision, {CLOCK}: when it runs out the server's stand-in bot "
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

    bot = fields.String(required=True, metadata={"enum": BOT_NAMES, "description": "the bot that plays the seat"})


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


class BranchIn(Strict):
    """A branch of a game's record (``POST /api/games/{id}/branches``, ``service/branches.py``)."""

    step = fields.Integer(
        required=True,
        strict=True,
        metadata={"description": "branch from the position after this step (0 to the game's steps)", "example": 42},
    )
    command = fields.Dict(
        load_default=None,
        allow_none=True,
        metadata={
            "description": "played there instead of what was played, as its seat would send it (with 'seat'); "
            "null or absent: play on from there",
            "example": {"type": "react", "seat": 2, "window": 7, "answer": "call"},
        },
    )
    deal = fields.String(
        load_default="same",
        validate=validate.OneOf(BRANCH_DEALS),
        metadata={
            "description": "same: the original's seed goes on (its draws); as_known: the cards the seat 'as' could "
            "not name there are dealt again at random, with a fresh secret seed"
        },
    )
    as_ = fields.Integer(
        data_key="as",
        strict=True,
        load_default=None,
        allow_none=True,
        metadata={"description": "with the deal as_known: the seat whose knowledge the new deal keeps"},
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
            "description": "a seat number, 'spectator' or 'omniscient' (after the game); default: the seat of the "
            "token sent, else 'spectator'",
        },
    )


class TimelineAfterQuery(TimelineQuery):
    after = fields.Integer(
        load_default=0,
        validate=validate.Range(min=0),
        metadata={"description": "only the events after this seq (default 0: every event); a client that narrates as "
        "the game goes on asks for what it has not printed yet"},
    )


class ReplayQuery(TimelineQuery):
    step = fields.Integer(validate=validate.Range(min=0), metadata={"description": "events applied (default: all)"})


class ReviewQuery(TimelineQuery):
    """``as``: whose knowledge the odds are counted with (any perspective once the game is over)."""


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
            "entropy, revealed when the game ends (null: a game created with exact_seed, whose creator chose its seed)"
        },
    )


class BranchOut(Schema):
    id = fields.String(required=True, metadata={"description": "the branch: a new game in the lobby"})
    host_token = fields.String(required=True, metadata={"description": "shown once; starts or cancels the branch"})
    step = fields.Integer(
        required=True,
        metadata={"description": "the step it starts from: the one asked, or the decision point that step leads to"},
    )


class BranchOfOut(Schema):
    game = fields.String(required=True, metadata={"description": "the game this one is a branch of"})
    step = fields.Integer(required=True, metadata={"description": "after which of its steps"})


class BranchLinkOut(Schema):
    id = fields.String(required=True, metadata={"description": "a branch of this game"})
    step = fields.Integer(required=True, metadata={"description": "the step of this game it starts from"})


BRANCH_OF = {"description": "for a branch: the game and step it starts from (null: not a branch)"}


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
            "description": "what to put in the command: a seat number, a card id, a name, or an object such as "
            "{seat, action}",
            "examples": [2, "c754b3d4a", {"seat": 1, "action": "recruit"}],
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
    mob = fields.Boolean(
        metadata={"description": "true: a seat the rules play themselves (nobody takes it; the server never moves for it)"}
    )
    player = fields.String(allow_none=True, metadata={"description": "the registered player sitting here"})
    guest = fields.Boolean(metadata={"description": "true: a person without a registered name (never counted in records)"})
    autoplayed = fields.Boolean(
        metadata={"description": "true: the server plays this seat now (it resigned, or ran out of time too often)"}
    )


class FairnessOut(Schema):
    seeding = fields.String(
        required=True,
        metadata={
            "description": "mixed (the server's secret with every contribution), exact (rigged) or branch (a branch of "
            "another game's record: rigged)"
        },
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
    branch_of = fields.Nested(BranchOfOut, required=True, allow_none=True, metadata=BRANCH_OF)


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
    rule = fields.String(
        metadata={"description": "the catalog id of the rule that refused (docs/rulings.md); absent when no rule did"}
    )
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


class OddsOut(Schema):
    """The odds of the claim a step makes (a finished game only): exact counting over the cards the perspective could
    not place (README, "Odds and the review")."""

    claimant = fields.Integer(required=True, metadata={"description": "the seat that claims"})
    claim = fields.String(required=True, metadata={"description": "the claimed building, as the view names it"})
    about = fields.String(
        required=True, validate=validate.OneOf(["action", "guard"]), metadata={"description": "an action's claim or a guard's"}
    )
    probability = fields.Float(
        required=True,
        validate=validate.Range(min=0, max=1),
        metadata={"description": "P(the claimant held the claimed card), as the perspective knew it at this step"},
    )
    as_ = fields.Raw(required=True, data_key="as", attribute="as", metadata=PERSPECTIVE)
    held = fields.Boolean(required=True, metadata={"description": "whether the claimant truly held it"})


class ReplayOut(Schema):
    id = fields.String(required=True)
    step = fields.Integer(required=True)
    steps = fields.Integer(required=True)
    as_ = fields.Raw(required=True, data_key="as", attribute="as", metadata=PERSPECTIVE)
    seats = fields.List(
        fields.Nested(SeatInfoOut),
        required=True,
        metadata={"description": "this game's seats (a branch's own players, also at its copied steps: see 'copied')"},
    )
    rigged = fields.Boolean(required=True)
    copied = fields.Boolean(
        required=True,
        metadata={
            "description": "true for a branch's steps up to its point (step 0 too): they are its original's, played by the "
            "original's players, whose names the table and the event give"
        },
    )
    table = Documented(
        "TableOut", required=True, metadata={"description": "the table after this step, as the perspective knew it"}
    )
    event = Documented(
        "NarratedEventOut",
        allow_none=True,
        metadata={"description": "the event of this step, as the perspective may see it, with its 'text' and 'undone' (an undo "
            "made it void, as the timeline says; null at step 0)"},
    )
    odds = fields.Nested(
        OddsOut,
        allow_none=True,
        metadata={"description": "a finished game's claim at this step with its odds as the perspective knew them; else null"},
    )
    prompts = fields.List(
        fields.Nested(PromptOut),
        required=True,
        metadata={
            "description": "the decisions the perspective's seat faced after this step, as its view listed them "
            "(empty for a spectator and the omniscient)"
        },
    )
    branch_of = fields.Nested(BranchOfOut, required=True, allow_none=True, metadata=BRANCH_OF)
    branches = fields.List(
        fields.Nested(BranchLinkOut), required=True, metadata={"description": "the branches made of this game, oldest first"}
    )


REVIEW_EXAMPLE = {
    "id": "5b0c9c1e-8f5e-4f0e-9a51-0f0d1c2b3a40",
    "as": 1,
    "steps": 212,
    "players": [
        {
            "seat": 0,
            "name": "Fred",
            "moves": [
                {
                    "step": 31,
                    "kind": "claim",
                    "claimant": 0,
                    "claim": "Treasury",
                    "about": "action",
                    "claim_step": 31,
                    "means": None,
                    "probability": 0.5,
                    "held": False,
                    "outcome": "exposed",
                    "against_odds": None,
                    "bluff_through": False,
                    "undone": False,
                }
            ],
            "summary": {
                "claims": 1,
                "bluffs": 1,
                "bluffs_through": 0,
                "calls": 0,
                "calls_right": 0,
                "calls_against_odds": 0,
                "passes": 0,
                "guards": 0,
            },
            "calibration": {"calls": 0, "mean_probability": None, "held_rate": None, "brier": None},
        },
        {
            "seat": 1,
            "name": "Sally",
            "moves": [
                {
                    "step": 33,
                    "kind": "call",
                    "claimant": 0,
                    "claim": "Treasury",
                    "about": "action",
                    "claim_step": 31,
                    "means": None,
                    "probability": 0.5,
                    "held": False,
                    "outcome": "right",
                    "against_odds": True,
                    "bluff_through": None,
                    "undone": False,
                }
            ],
            "summary": {
                "claims": 0,
                "bluffs": 0,
                "bluffs_through": 0,
                "calls": 1,
                "calls_right": 1,
                "calls_against_odds": 1,
                "passes": 0,
                "guards": 0,
            },
            "calibration": {"calls": 1, "mean_probability": 0.5, "held_rate": 0.0, "brier": 0.25},
        },
    ],
}


class ReviewMoveOut(Schema):
    step = fields.Integer(required=True, metadata={"description": "the step of the claim, or of the answer"})
    kind = fields.String(
        required=True,
        validate=validate.OneOf(["claim", "call", "pass", "guard", "use"]),
        metadata={"description": "claim: the player claimed; else the player's answer to another's claim"},
    )
    claimant = fields.Integer(required=True)
    claim = fields.String(required=True, metadata={"description": "the claimed building"})
    about = fields.String(required=True, validate=validate.OneOf(["action", "guard"]))
    claim_step = fields.Integer(required=True, metadata={"description": "the step of the claim answered"})
    means = fields.String(allow_none=True, metadata={"description": "a guard's or an item's means (card, wall, the item)"})
    probability = fields.Float(
        required=True,
        validate=validate.Range(min=0, max=1),
        metadata={"description": "P(the claim was held), exactly, as the perspective knew it at the claim"},
    )
    held = fields.Boolean(required=True, metadata={"description": "what was true"})
    outcome = fields.String(
        required=True,
        validate=validate.OneOf(["not called", "no window", "proven", "exposed", "right", "wrong", "void", "unsettled"]),
        metadata={
            "description": "a call: right, wrong, void (a later caller's, ignored) or unsettled (the game ended); "
            "a claim and any other answer: what became of the claim (not called, proven, exposed; no window: no "
            "reaction window opened on it, so nobody could call it)"
        },
    )
    against_odds = fields.Boolean(
        allow_none=True, metadata={"description": "a call made when the probability was 1/2 or more (null: no call)"}
    )
    bluff_through = fields.Boolean(
        allow_none=True, metadata={"description": "a claim not held that nobody called (null: no claim)"}
    )
    undone = fields.Boolean(required=True, metadata={"description": "an undo made it void (counted nowhere)"})


class ReviewSummaryOut(Schema):
    claims = fields.Integer(required=True)
    bluffs = fields.Integer(required=True, metadata={"description": "claims not held"})
    bluffs_through = fields.Integer(required=True, metadata={"description": "bluffs nobody called"})
    calls = fields.Integer(required=True)
    calls_right = fields.Integer(required=True)
    calls_against_odds = fields.Integer(required=True, metadata={"description": "calls made at a probability of 1/2 or more"})
    passes = fields.Integer(required=True)
    guards = fields.Integer(required=True)


class CalibrationOut(Schema):
    """How well the odds (as the perspective knew them) matched the player's calls."""

    calls = fields.Integer(required=True)
    mean_probability = fields.Float(
        required=True, allow_none=True, metadata={"description": "the mean probability that a called claim was held"}
    )
    held_rate = fields.Float(required=True, allow_none=True, metadata={"description": "the fraction of called claims held"})
    brier = fields.Float(
        required=True, allow_none=True, metadata={"description": "mean of (probability - held)^2: 0 is perfect, 0.25 a coin's"}
    )


class ReviewPlayerOut(Schema):
    seat = fields.Integer(required=True)
    name = fields.String(required=True)
    moves = fields.List(fields.Nested(ReviewMoveOut), required=True, metadata={"description": "in the order of the record"})
    summary = fields.Nested(ReviewSummaryOut, required=True)
    calibration = fields.Nested(CalibrationOut, required=True)


class ReviewOut(Schema):
    """A finished game's claims, calls, guards and passes, seat by seat, with the odds as the perspective knew them
    (README, "Odds and the review")."""

    id = fields.String(required=True)
    as_ = fields.Raw(required=True, data_key="as", attribute="as", metadata=PERSPECTIVE)
    steps = fields.Integer(required=True)
    players = fields.List(fields.Nested(ReviewPlayerOut), required=True)


class TimelineItemOut(Schema):
    seq = fields.Integer(required=True)
    type = fields.String(required=True)
    text = fields.String(required=True)
    undone = fields.Boolean(required=True, metadata={"description": "true for events an undo made void (kept, not deleted)"})


class TimelineOut(Schema):
    id = fields.String(required=True)
    as_ = fields.Raw(required=True, data_key="as", attribute="as", metadata=PERSPECTIVE)
    steps = fields.Integer(required=True)
    events = fields.List(fields.Nested(TimelineItemOut), required=True)


class RulesVersionOut(Schema):
    version = fields.Integer(
        required=True, allow_none=True, metadata={"description": "the rules version (null: rules from before versions)"}
    )
    from_seq = fields.Integer(required=True, metadata={"description": "the first event decided under it"})


class VerifyRulesOut(Schema):
    played_under = fields.List(
        fields.Nested(RulesVersionOut),
        required=True,
        metadata={"description": "the rules versions the game was decided under, in order (an upgrade mid-game adds one)"},
    )
    server = fields.Integer(required=True, metadata={"description": "the rules version this server re-decides the record with"})


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
    notes = fields.List(
        fields.String(),
        metadata={"description": "what the check could not cover (a branch whose original is not in this store)"},
    )
    first_difference = fields.Dict(required=True, allow_none=True)
    rules = fields.Nested(VerifyRulesOut, required=True)


class AuditOut(Schema):
    class Meta:
        unknown = INCLUDE

    id = fields.String(required=True)
    step = fields.Integer(required=True)
    as_ = fields.Raw(required=True, data_key="as", attribute="as", metadata=PERSPECTIVE)
    finished = fields.Boolean(required=True)
    declared = fields.Dict(required=True, metadata={"description": "the claim's event: an action declared, or a guard"})
    about = fields.String(
        validate=validate.OneOf(["action", "guard"]),
        metadata={"description": "action: the declarer's claim; guard: a guard's claim of the action's building (R65)"},
    )
    undone = fields.Boolean(
        metadata={"description": "true: an undo made this claim void (a claim is audited so only when asked at its step)"}
    )
    claimant = fields.Dict(required=True)
    claim = fields.String(allow_none=True)
    claimant_held = fields.Dict(allow_none=True, metadata={"description": "what the claimant held (when the reader may know)"})
    others_knew = fields.Dict(required=True, metadata={"description": "per player: the claimant's cards that player knew"})
    answers = fields.List(
        fields.Dict(),
        required=True,
        metadata={
            "description": "every answer in the action's windows: window, seat, name, answer, means, at (its time), step, "
            "undone (an undo made it void; the answers of the window an undo closes again stand); an undo's late call "
            "has by_undo"
        },
    )
    windows = fields.List(
        fields.Dict(),
        metadata={
            "description": "each reaction window of the claim: window, about, claimant, asked, opened_step, opened_at, "
            "deadline, closed_step, closed_at, closed_by, no_answer_from (times: the server's, in Unix seconds)"
        },
    )
    undo = fields.Dict(required=True)
    followed = fields.List(fields.Dict(), required=True)


class HealthOut(Schema):
    status = fields.String(required=True)
    store = fields.String()
    redis = fields.String()
    projections = fields.String(
        metadata={"description": "with AEGIS_PROJECTOR=worker: why the projections are going stale (status degraded)"}
    )


STATISTICS = {name: text for rules in RULESETS.values() for name, text in rules.shapes.statistics.items()}


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
