"""A dispute about a step of a game's record: one ``Dispute`` aggregate, stored beside the games in their store.

Its events read like the dispute: ``Opened`` (by a seat of the game, pinned to a step, with the audit of that step as
the record stood then), ``Commented``, ``Voted`` (a seat's verdict, where the table decides) and ``VerdictRecorded``,
which settles it. Who may do what, and which audit a reader is shown, is ``replay.disputes``'s; this module holds the
record and the rules of a verdict, which need no game.
"""

from __future__ import annotations

import hmac
from typing import Any

from eventsourcing.domain import Aggregate

from aegis.service import tokens

VERDICTS = {
    "upheld": "the complaint is right: the record, or how the rules were applied at that step, was wrong",
    "dismissed": "the complaint is not borne out: the record stands",
}
MAX_TEXT = 2000  # characters of a dispute's text, a comment or a verdict's reason
MAX_COMMENTS = 200  # comments a dispute takes (then 409): a dispute's record stays small
OPEN, SETTLED = "open", "settled"
MODERATOR, MAJORITY = "moderator", "majority"  # who recorded a verdict


class Dispute(Aggregate):
    class Opened(Aggregate.Created):
        game: str
        step: int  # the step disputed (the event numbered so)
        steps: int  # the events the game's record held when the dispute was opened
        seat: int  # the seat that opened it
        by: str  # that seat's name
        text: str
        at: float
        audits: dict[str, Any] | None  # perspective -> the audit of the step then (None: nothing at it to audit)

    class Commented(Aggregate.Event):
        seat: int
        by: str
        text: str
        at: float

        def apply(self, aggregate: Dispute) -> None:
            aggregate.comments.append({"seat": self.seat, "by": self.by, "text": self.text, "at": self.at})

    class Voted(Aggregate.Event):
        """A seat's verdict, where the table decides (no moderator): a later vote of the seat replaces its earlier."""

        seat: int
        by: str
        verdict: str
        text: str
        at: float

        def apply(self, aggregate: Dispute) -> None:
            vote = {"seat": self.seat, "by": self.by, "verdict": self.verdict, "text": self.text, "at": self.at}
            aggregate.votes = [v for v in aggregate.votes if v["seat"] != self.seat] + [vote]

    class VerdictRecorded(Aggregate.Event):
        verdict: str
        text: str
        by: str  # "moderator" or "majority"
        at: float

        def apply(self, aggregate: Dispute) -> None:
            aggregate.verdict = {"verdict": self.verdict, "text": self.text, "by": self.by, "at": self.at}

    def __init__(self, game: str, step: int, steps: int, seat: int, by: str, text: str, at: float, audits: dict[str, Any] | None):
        self.game = game
        self.step = step
        self.steps = steps
        self.seat = seat
        self.by = by
        self.text = text
        self.opened_at = at
        self.audits = audits
        self.comments: list[dict[str, Any]] = []
        self.votes: list[dict[str, Any]] = []
        self.verdict: dict[str, Any] | None = None

    @property
    def status(self) -> str:
        return OPEN if self.verdict is None else SETTLED

    def comment(self, seat: int, by: str, text: str, at: float) -> None:
        self.trigger_event(self.Commented, seat=seat, by=by, text=text, at=at)

    def vote(self, seat: int, by: str, verdict: str, text: str, at: float, voters: int) -> None:
        """Record a seat's vote; when a strict majority of the ``voters`` (the game's human seats) voted one verdict,
        record it too."""
        self.trigger_event(self.Voted, seat=seat, by=by, verdict=verdict, text=text, at=at)
        agreeing = sum(1 for v in self.votes if v["verdict"] == verdict)
        if agreeing >= majority(voters):
            reason = f"{agreeing} of the {voters} players' seats voted {verdict}"
            self.trigger_event(self.VerdictRecorded, verdict=verdict, text=reason, by=MAJORITY, at=at)

    def decide(self, verdict: str, text: str, at: float) -> None:
        self.trigger_event(self.VerdictRecorded, verdict=verdict, text=text, by=MODERATOR, at=at)


def majority(voters: int) -> int:
    """Votes of one verdict that settle a dispute among ``voters`` seats: more than half of them."""
    return voters // 2 + 1


def is_moderator(credential: str | None, keys: tuple[str, ...]) -> bool:
    """Is ``credential`` one of the moderator keys (``AEGIS_MODERATOR_KEYS``)? Compared in constant time."""
    if not credential:
        return False
    presented = tokens.token_hash(credential)
    found = False
    for key in keys:
        found |= hmac.compare_digest(presented, tokens.token_hash(key))
    return found
