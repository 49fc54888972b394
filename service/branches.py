"""Branches: "what if I had called?" A branch is a new game whose record begins with another game's first events
(copied, so its position is exactly the one after that step, an open reaction window included), then the ruleset's
branch point (``Ruleset.branch``: the seats' names, the open clocks started again, for the deal "as_known" the cards
one seat could not name dealt again from a fresh secret) and the command given instead of what was played (or none,
to play on). Its seats are taken and it is started as any new game (``GameService.take_seat``, ``start``): the
record is written when it starts.

- Which games: a finished one, by anyone (its record is public); never one in play (409), not even its host's
  rigged position: a finished branch's record is public, so it would show the original's hidden cards and future
  draws while the original goes on.
- Which step: any step 0..steps of the record. A step inside what one decision caused (the events the rules record
  by themselves after a command, such as the draws that follow it, or the setup) is the same decision point as the
  last of those events: the branch starts there, and says so (``step``).
- Fairness: the original's seed is public once it is over, so a branch's draws are knowable: a branch is rigged
  (no commitment, never rated or counted), and every view says so.
- Links: the branch records where it comes from (``Game.BranchMade``), the original its branches (``Game.Branched``),
  saved together: both survive a restart.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from aegis.domain.kernel.errors import DomainError
from aegis.domain.kernel.ruleset import BRANCH_DEALS
from aegis.service import tokens
from aegis.service.aggregate import Game
from aegis.service.branch_opening import decision_point, opening, refusal
from aegis.service.errors import BadRequest, Conflict
from aegis.service.games import GameService, fill_seats_of_the_rules, status_words
from aegis.service.rulesets import ruleset_named


def create(
    service: GameService,
    game_id: UUID,
    *,
    step: Any,
    command: Any = None,
    deal: Any = "same",
    knower: Any = None,
) -> tuple[UUID, str, int]:
    """Make a branch of ``game_id`` from ``step``; returns its id, its host token (shown once) and the step it
    starts from (the decision point ``step`` leads to). Nothing is stored when it is refused."""
    if isinstance(step, bool) or not isinstance(step, int):
        raise BadRequest("'step' is the number of the step to branch from (0 to the game's steps)")
    if command is not None and not isinstance(command, dict):
        raise BadRequest("'command' is a command object (as a seat sends it, with its 'seat'), or null to play on")
    if deal not in BRANCH_DEALS:
        raise BadRequest(f"'deal' is one of {', '.join(BRANCH_DEALS)}, not {deal!r}")
    if deal == "as_known" and knower is None:
        raise BadRequest("the deal 'as_known' needs 'as': the seat whose knowledge the new deal keeps")
    new_token = tokens.new_token(tokens.PREFIX_HOST)
    made: list[Game] = []

    def change(original: Game, attempt: int) -> tuple[UUID, int]:
        _may_branch(original)
        rules = ruleset_named(original.ruleset)
        if not 0 <= step <= original.seq:
            raise BadRequest(f"step {step} is outside 0..{original.seq}")
        point = decision_point(service.store, original, step)
        log = service.store.payloads(original, 1, point)
        now = service.clock()
        branch = Game(
            original.ruleset,
            dict(original.spec),
            service.entropy(),  # the fresh secret the deal "as_known" shuffles with
            tokens.token_hash(new_token),
            None,
            now,
            seeding="branch",
            expires_at=now + service.settings.lobby_ttl,
        )
        names = [s["name"] for s in original.seats]  # a refusal's prompts are the position's: its players named
        try:  # the rules decide now whether they accept the deal and the command (they decide again at the start)
            opening(rules, branch.seed, (original.id, original.started_config), log, point, deal, knower, command, names, now)
        except DomainError as err:
            raise refusal(err) from None
        branch.made_as_branch(str(original.id), point, deal, knower, command)
        fill_seats_of_the_rules(branch)
        original.branched(str(branch.id), point)
        made[:] = [branch]
        return branch.id, point

    _, (branch_id, point) = service._change(game_id, change, also=made)
    return branch_id, new_token, point


def _may_branch(original: Game) -> None:
    """Only a finished game is branched. A game in play never is, by anyone, its host's rigged position included:
    a finished branch's record is public, so it would show everyone the position after that step (and, dealt the
    same, the draws to come) while the original goes on."""
    if original.status == "finished":
        return
    if original.status != "active":
        raise Conflict(f"the game is {status_words(original.status)}: it has no record to branch from")
    raise Conflict(
        "the game is in play: a branch of it would tell its hidden cards and future draws to whoever reads the branch, "
        "so branches are made once it is over"
        + (" (a teaching position can be set up again as a new rigged game with 'setup')" if original.rigged else ""),
        kind="branch-in-play",
    )
