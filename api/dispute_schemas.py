"""The bodies of the dispute routes (``api/disputes.py``), documented in the OpenAPI document with the others."""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, fields, validate

from aegis.api.schemas import PERSPECTIVE, AuditOut, Page, Strict
from aegis.projections.disputes import STATUSES
from aegis.service.dispute import MAJORITY, MAX_TEXT, MODERATOR, VERDICTS

VERDICT_WORDS = "; ".join(f"{name}: {means}" for name, means in VERDICTS.items())


def _text(description: str, **kwargs: Any) -> fields.String:
    """Free text of 1 to ``MAX_TEXT`` characters with at least one that is not blank."""
    return fields.String(
        validate=[validate.Length(1, MAX_TEXT), validate.Regexp(r"\s*\S", error="the text is blank")],
        metadata={"description": f"{description}: 1 to {MAX_TEXT} characters, not all blank", "pattern": r"\S"},
        **kwargs,
    )


# ----- in -----


class DisputeIn(Strict):
    step = fields.Integer(
        required=True,
        strict=True,
        validate=validate.Range(min=1),
        metadata={"description": "the step disputed: the event numbered so in the game's record (1 to its seq)"},
    )
    text = _text("what is disputed, in your own words (public to every reader of the dispute)", required=True)


class DisputeCommentIn(Strict):
    text = _text("the comment (public)", required=True)


class DisputeVerdictIn(Strict):
    verdict = fields.String(required=True, validate=validate.OneOf(list(VERDICTS)), metadata={"description": VERDICT_WORDS})
    text = _text("the reason (public)", required=True)


class DisputesQuery(Strict):
    status = fields.String(
        validate=validate.OneOf(STATUSES),
        metadata={"description": "only disputes in this status: open (no verdict yet) or settled (default: every one)"},
    )
    offset = fields.Integer(load_default=0, validate=validate.Range(min=0))
    limit = fields.Integer(load_default=20, validate=validate.Range(min=1, max=100))


class GameDisputesQuery(Strict):
    offset = fields.Integer(load_default=0, validate=validate.Range(min=0))
    limit = fields.Integer(load_default=100, validate=validate.Range(min=1, max=100))


# ----- out -----


class DisputeCommentOut(Schema):
    seat = fields.Integer(required=True)
    by = fields.String(required=True, metadata={"description": "the seat's name"})
    text = fields.String(required=True)
    at = fields.Float(required=True, metadata={"description": "server time (Unix seconds)"})


class DisputeVoteOut(DisputeCommentOut):
    verdict = fields.String(required=True, metadata={"enum": list(VERDICTS)})


class DisputeVerdictOut(Schema):
    verdict = fields.String(required=True, metadata={"enum": list(VERDICTS), "description": VERDICT_WORDS})
    text = fields.String(required=True, metadata={"description": "the reason (for a majority: how the seats voted)"})
    by = fields.String(required=True, metadata={"enum": [MODERATOR, MAJORITY], "description": "who recorded it"})
    at = fields.Float(required=True)


class DisputeOut(Schema):
    id = fields.String(required=True)
    game = fields.String(required=True, metadata={"description": "the game's id"})
    step = fields.Integer(required=True, metadata={"description": "the step disputed"})
    steps = fields.Integer(required=True, metadata={"description": "the events the game's record held when it was opened"})
    status = fields.String(required=True, metadata={"enum": list(STATUSES)})
    seat = fields.Integer(required=True, metadata={"description": "the seat that opened it"})
    by = fields.String(required=True, metadata={"description": "that seat's name"})
    text = fields.String(required=True)
    opened_at = fields.Float(required=True, metadata={"description": "server time (Unix seconds)"})
    as_ = fields.Raw(
        required=True,
        data_key="as",
        attribute="as",
        metadata={
            **PERSPECTIVE,
            "description": "whose knowledge the audit shows: until the game is over your seat's (with its seat token) "
            "or the spectator's; then omniscient",
        },
    )
    audit = fields.Nested(
        AuditOut,
        required=True,
        allow_none=True,
        metadata={
            "description": "the audit of the step as the record stood when the dispute was opened, as you may know it "
            "(null: nothing at that step for the rules to audit, e.g. no claim declared yet)"
        },
    )
    comments = fields.List(fields.Nested(DisputeCommentOut), required=True, metadata={"description": "oldest first"})
    votes = fields.List(
        fields.Nested(DisputeVoteOut), required=True, metadata={"description": "each seat's latest vote (no moderators)"}
    )
    verdict = fields.Nested(DisputeVerdictOut, required=True, allow_none=True, metadata={"description": "null while open"})
    settles_by = fields.String(
        required=True,
        metadata={
            "enum": [MODERATOR, MAJORITY],
            "description": "who records a verdict on this service: a moderator (AEGIS_MODERATOR_KEYS), or without any "
            "the players' majority",
        },
    )
    votes_needed = fields.Integer(
        required=True,
        allow_none=True,
        metadata={"description": "votes of one verdict that settle it: more than half the game's players (null: moderated)"},
    )


class DisputesOut(Page):
    disputes = fields.List(fields.Nested(DisputeOut), required=True)
