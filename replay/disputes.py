"""Disputes on the record: a seat of a game disputes a step of it; the other seats comment; a moderator, or where
the service has none the table's majority, records a verdict. Each dispute is a ``service.dispute.Dispute``.

Who takes part: the seats of the game that people play, each by its seat token or by the player key of the registered
player who sat there (bots and seats the rules play have neither). A verdict: a moderator (a key of
``AEGIS_MODERATOR_KEYS``); without any, a strict majority of those seats voting the same way.

What a reader sees of the step's audit: a dispute keeps the audit (``records.audit_of``) as the record stood when it
was opened, once for every perspective someone could read it from (the spectator, each seat with a token,
everyone). Until the game is over a reader is shown the one of their perspective (``perspective.of_token``: their
seat for its token, else the spectator's); once it is over, everyone's. The dispute's own words (its text, comments,
votes, verdict) are public.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any
from uuid import UUID

from eventsourcing.application import project_aggregate
from eventsourcing.persistence import IntegrityError

from aegis.domain.kernel.redaction import OMNISCIENT, SPECTATOR, Perspective
from aegis.projections import disputes as projected
from aegis.projections.reads import ProjectedReads
from aegis.replay import perspective, records
from aegis.service.aggregate import Game
from aegis.service.dispute import MAX_COMMENTS, MODERATOR, SETTLED, Dispute, is_moderator, majority
from aegis.service.errors import BadRequest, Conflict, Forbidden, NotFound, ServiceError, Unauthorized, Unavailable
from aegis.service.games import SAVE_ATTEMPTS, GameService
from aegis.service.players import is_player_key

log = logging.getLogger(__name__)
Reader = tuple[Perspective, int]  # (the perspective a reader sees a game's disputes from, the seats that may vote)


class Disputes:
    def __init__(self, service: GameService, reads: ProjectedReads):
        self.service = service
        self.reads = reads
        self.moderators = service.settings.moderator_keys

    # ----- writes -----

    def open(self, game_id: UUID, credential: str | None, step: int, text: str) -> dict[str, Any]:
        """A seat of the game disputes ``step`` of its record; the dispute as its opener may read it."""

        def opening(game: Game) -> tuple[Game, int, list[dict[str, Any]], bool]:
            if game.config is None:
                state = "has not started" if game.status == "lobby" else f"was {game.status} before it started"
                raise Conflict(f"game {game.id} {state}: it has no record to dispute", kind="not-started")
            seat = self._seat_of(game, credential)
            return game, seat, self.service.store.payloads(game, 1, game.seq), game.finished_seq is not None

        game, seat, log_, finished = self.service.read(game_id, opening)
        if not 1 <= step <= len(log_):
            raise BadRequest(f"step {step} is outside the game's record: its steps are 1 to {len(log_)}")
        dispute = Dispute(
            game=str(game_id),
            step=step,
            steps=len(log_),
            seat=seat,
            by=game.seats[seat]["name"],
            text=text,
            at=self.service.clock(),
            audits=self._audits(game, log_, step, finished),
        )
        self.service.store.save(dispute)
        return self._shown(dispute, self._reader(game_id, credential))

    def comment(self, dispute_id: str, credential: str | None, text: str) -> dict[str, Any]:
        def act(dispute: Dispute, seat: int, name: str, voters: int) -> None:
            if len(dispute.comments) >= MAX_COMMENTS:
                raise Conflict(f"this dispute has {MAX_COMMENTS} comments, as many as one takes", kind="full")
            dispute.comment(seat, name, text, self.service.clock())

        return self._change(dispute_id, credential, act)

    def vote(self, dispute_id: str, credential: str | None, verdict: str, text: str) -> dict[str, Any]:
        """A seat's vote, where the table decides; the verdict is recorded with the vote that makes a majority."""

        def act(dispute: Dispute, seat: int, name: str, voters: int) -> None:
            dispute.vote(seat, name, verdict, text, self.service.clock(), voters)

        return self._change(dispute_id, credential, act, votes=True)

    def decide(self, dispute_id: str, credential: str | None, verdict: str, text: str) -> dict[str, Any]:
        """A moderator's verdict."""
        for _ in range(SAVE_ATTEMPTS):
            dispute = self._load(dispute_id)
            if not self.moderators:
                raise Forbidden(
                    "this service has no moderators (AEGIS_MODERATOR_KEYS): the players' seats vote on a verdict "
                    f"(POST /api/disputes/{dispute_id}/votes)",
                    kind="no-moderators",
                )
            if credential is None:
                raise Unauthorized("a verdict needs a moderator key (Authorization: Bearer <moderator key>)")
            if not is_moderator(credential, self.moderators):
                raise Forbidden("only a moderator (a key of AEGIS_MODERATOR_KEYS) records a verdict", kind="not-moderator")
            _still_open(dispute)
            dispute.decide(verdict, text, self.service.clock())
            if self._saved(dispute):
                return self._shown(dispute, self._reader(UUID(dispute.game), credential))
        raise _busy(dispute_id)

    def _change(
        self, dispute_id: str, credential: str | None, act: Callable[[Dispute, int, str, int], None], votes: bool = False
    ) -> dict[str, Any]:
        """``act(dispute, seat, its name, the seats that may vote)`` for a seat of the dispute's game, on the dispute
        as stored now, and save; again when another process saved the dispute first."""
        for _ in range(SAVE_ATTEMPTS):
            dispute = self._load(dispute_id)
            if votes and self.moderators:
                raise Forbidden(
                    "this service has moderators (AEGIS_MODERATOR_KEYS): only a moderator records a verdict "
                    f"(POST /api/disputes/{dispute_id}/verdict); the seats comment",
                    kind="moderated",
                )

            def actor(game: Game) -> tuple[int, str, int, Reader]:
                seat = self._seat_of(game, credential)
                return seat, game.seats[seat]["name"], len(_people(game)), _reader_of(game, credential)

            seat, name, voters, reader = self.service.read(UUID(dispute.game), actor)
            _still_open(dispute)
            act(dispute, seat, name, voters)
            if self._saved(dispute):
                return self._shown(dispute, reader)
        raise _busy(dispute_id)

    def _saved(self, dispute: Dispute) -> bool:
        """Save the dispute's new events; False when another process saved it first (then work on it afresh)."""
        try:
            self.service.store.save(dispute)
        except IntegrityError:
            return False
        return True

    # ----- reads -----

    def one(self, dispute_id: str, credential: str | None) -> dict[str, Any]:
        dispute = self._load(dispute_id)
        return self._shown(dispute, self._reader(UUID(dispute.game), credential))

    def of_game(self, game_id: UUID, credential: str | None, offset: int, limit: int) -> tuple[list[dict[str, Any]], int]:
        """A page of the game's disputes, oldest first, and how many it has."""
        reader = self._reader(game_id, credential)  # also: no such game, 404
        ids, total = self._page(projected.of_game(str(game_id)), offset, limit)
        return [self._shown(self._load(did), reader) for did in ids], total

    def listed(self, status: str | None, credential: str | None, offset: int, limit: int) -> tuple[list[dict[str, Any]], int]:
        """A page of every dispute (or those in ``status``), newest first, and how many there are."""
        ids, total = self._page(projected.by_status(status), offset, limit)
        found = [self._load(did) for did in ids]
        readers = {game: self._reader(UUID(game), credential) for game in {d.game for d in found}}
        return [self._shown(d, readers[d.game]) for d in found], total

    def _page(self, key: str, offset: int, limit: int) -> tuple[list[str], int]:
        try:
            if self.reads.fresh():
                return self.reads.store.consistent(lambda index: projected.page(index, key, offset, limit))
        except Exception as err:  # Redis away or moving on during every try: the same answer as the lobby's
            log.warning("projected dispute list failed: %s", err)
        raise Unavailable("the dispute lists are projected (in Redis, with REDIS_URL), which does not answer now; try again")

    def _load(self, dispute_id: str) -> Dispute:
        """The dispute as stored now, read from its events (disputes are small; none is cached)."""
        try:
            did = UUID(dispute_id)
        except ValueError:
            raise NotFound(f"no dispute {dispute_id!r}") from None
        events = list(self.service.store.events.get(did))
        if not events or not isinstance(events[0], Dispute.Opened):
            raise NotFound(f"no dispute {dispute_id}")
        dispute = project_aggregate(None, events)
        assert isinstance(dispute, Dispute)
        return dispute

    def _reader(self, game_id: UUID, credential: str | None) -> Reader:
        return self.service.read(game_id, lambda game: _reader_of(game, credential))

    def _shown(self, dispute: Dispute, reader: Reader) -> dict[str, Any]:
        """The dispute as the reader may see it: its audit from the reader's perspective (everyone's once the game
        is over), as the record stood when it was opened."""
        who, voters = reader
        audits = dispute.audits
        audit = None if audits is None else audits.get(str(who), audits.get(SPECTATOR))
        return {
            "id": str(dispute.id),
            "game": dispute.game,
            "step": dispute.step,
            "steps": dispute.steps,
            "status": dispute.status,
            "seat": dispute.seat,
            "by": dispute.by,
            "text": dispute.text,
            "opened_at": dispute.opened_at,
            "as": who,
            "audit": audit,
            "comments": dispute.comments,
            "votes": dispute.votes,
            "verdict": dispute.verdict,
            "settles_by": MODERATOR if self.moderators else "majority",
            "votes_needed": None if self.moderators else majority(voters),
        }

    # ----- who -----

    def _seat_of(self, game: Game, credential: str | None) -> int:
        """The seat of ``game`` that ``credential`` is: its seat token, or the key of the registered player who sat
        there; 401 without one, 403 for anyone else."""
        if not credential:
            raise Unauthorized("this needs your seat token or your player key (Authorization: Bearer <token>)")
        if is_player_key(credential):
            player = self.service.players.by_key(credential).name
            seat = next((s["seat"] for s in game.seats if s.get("player") == player), None)
            if seat is None:
                raise Forbidden(f"{player} did not play game {game.id}: only its players take part in its disputes")
            return int(seat)
        who = perspective.of_token(game, credential)
        if who == SPECTATOR:
            raise Forbidden(f"this token is not a seat of game {game.id}: only its players take part in its disputes")
        return int(who)

    def _audits(self, game: Game, log_: list[dict[str, Any]], step: int, finished: bool) -> dict[str, Any] | None:
        """The audit of ``step`` of ``log_`` (the record as it stands) from every perspective a reader could have
        until the game ends, keyed by it (``"spectator"``, each seat with a token, ``"omniscient"``); once over,
        everyone's only. None when the ruleset finds nothing at that step to audit."""
        seats = [s["seat"] for s in game.seats if s["token_hash"]]
        perspectives: list[Perspective] = [OMNISCIENT] if finished else [SPECTATOR, *seats, OMNISCIENT]
        try:
            return {str(who): records.audit_of(self.service, game, log_, step, who) for who in perspectives}
        except NotFound:  # the step is in the record (checked): nothing there to audit (Ever Aegis: no claim yet)
            return None


def _reader_of(game: Game, credential: str | None) -> Reader:
    """(who a reader of the game's disputes is, the seats that may vote on them)."""
    return perspective.now(game, perspective.of_token(game, credential)), len(_people(game))


def _people(game: Game) -> list[int]:
    """The seats people play, who take part in disputes: each has a seat token or a registered player."""
    return [s["seat"] for s in game.seats if not s["bot"] and (s["token_hash"] or s.get("player"))]


def _still_open(dispute: Dispute) -> None:
    if dispute.status == SETTLED:
        verdict = dispute.verdict or {}
        raise Conflict(
            f"this dispute is settled ({verdict.get('verdict')}, by {verdict.get('by')}): it takes no more", kind="settled"
        )


def _busy(dispute_id: str) -> ServiceError:
    return Conflict(f"dispute {dispute_id} is too busy: {SAVE_ATTEMPTS} attempts to save lost a race; try again")
