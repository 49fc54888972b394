"""Branches: "what if I had called?" A branch is a new game whose record begins with another game's first events
(copied, so its position is exactly the one after that step, an open reaction window included), then the ruleset's
branch point (``Ruleset.branch``: the seats' names, the open clocks started again, for the deal "as_known" the cards
one seat could not name dealt again from a fresh secret) and the command given instead of what was played (or none,
to play on). Its seats are taken and it is started as any new game (``GameService.take_seat``, ``start``): the
record is written when it starts.

- Which games: a finished one, by anyone (its record is public); a rigged one during play, by its host (the
  position is theirs); never a fair game in play (409): its record would tell the future.
- Which step: any step 0..steps of the record. A step inside what one decision caused (the events the rules record
  by themselves after a command, such as the draws that follow it, or the setup) is the same decision point as the
  last of those events: the branch starts there, and says so (``step``).
- Fairness: the original's seed is public once it is over, so a branch's draws are knowable: a branch is rigged
  (no commitment, never rated or counted), and every view says so.
- Links: the branch records where it comes from (``Game.BranchMade``), the original its branches (``Game.Branched``),
  saved together: both survive a restart.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any
from uuid import UUID

from aegis.domain.kernel.errors import DomainError, NotYourTurn
from aegis.domain.kernel.events import Event, event_from_dict
from aegis.domain.kernel.ruleset import Ruleset
from aegis.service import tokens
from aegis.service.aggregate import Game
from aegis.service.errors import BadRequest, Conflict, Forbidden, Illegal, NotFound, ServiceError, from_domain
from aegis.service.rulesets import ruleset_named

if TYPE_CHECKING:
    from aegis.service.games import GameService, GameStore

DEALS = ("same", "as_known")
BY_BRANCH = "branch"  # ``CommandAccepted.by`` of the command a branch was made with


def create(
    service: GameService,
    game_id: UUID,
    host_token: str | None,
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
    if deal not in DEALS:
        raise BadRequest(f"'deal' is one of {', '.join(DEALS)}, not {deal!r}")
    if deal == "as_known" and knower is None:
        raise BadRequest("the deal 'as_known' needs 'as': the seat whose knowledge the new deal keeps")
    new_token = tokens.new_token(tokens.PREFIX_HOST)
    made: list[Game] = []

    def change(original: Game, attempt: int) -> tuple[UUID, int]:
        _may_branch(original, host_token)
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
        names = [f"Seat {i}" for i in range(original.spec["seats"])]
        try:  # the rules decide now whether they accept the deal and the command (they decide again at the start)
            opening(rules, branch.seed, original, log, point, deal, knower, command, names, now)
        except DomainError as err:
            raise _refusal(err) from None
        branch.made_as_branch(str(original.id), point, deal, knower, command)
        from aegis.service.games import _fill_seats_of_the_rules

        _fill_seats_of_the_rules(branch)
        original.branched(str(branch.id), point)
        made[:] = [branch]
        return branch.id, point

    _, (branch_id, point) = service._change(game_id, change, also=made)
    return branch_id, new_token, point


def _may_branch(original: Game, host_token: str | None) -> None:
    if original.status == "finished":
        return
    if original.status != "active":
        raise Conflict(f"the game is {original.status}: it has no record to branch from")
    if not original.rigged:
        raise Conflict(
            "the game is in play: a branch of it would tell the future (its draws), so branches are made once it is "
            "over (or, of a rigged game, by its host)",
            kind="branch-in-play",
        )
    if not tokens.matches(host_token, original.host_token_hash):
        raise Forbidden("during play only the host of a rigged game may branch it (Authorization: Bearer <host_token>)")


def decision_point(store: GameStore, game: Game, step: int) -> int:
    """The first step at or after ``step`` where the game waited for a decision: the last event of the setup or of
    what one command caused (the events before each accepted command), or the record's last event."""
    for e in store.events.get(game.id):
        if isinstance(e, Game.CommandAccepted) and e.first_seq - 1 >= step:
            return e.first_seq - 1
    return game.seq


def opening(
    rules: Ruleset,
    seed: str,
    original: Game,
    log: list[dict[str, Any]],
    point: int,
    deal: str,
    knower: Any,
    command: dict[str, Any] | None,
    names: list[str],
    at: float,
) -> tuple[Any, list[Event], list[Event] | None]:
    """The branch's state after its opening, with the events of its branch point and of its command (None: none).
    Raises the rules' ``DomainError`` for what they refuse."""
    config = rules.make_config(original.started_config)
    copied = [event_from_dict(e) for e in log]
    state = rules.fold(config, copied)
    marks = rules.branch(
        state, log, game=str(original.id), step=point, deal=deal, knower=knower, names=names, seed=seed, at=at
    )
    for e in marks:
        rules.apply(state, e)
    played = None
    if command is not None:
        if command.get("type") in rules.system_commands:
            raise BadRequest(f"{command['type']!r} is a command of the server itself; a branch cannot be made with it")
        played = rules.push(state, {**command, "at": at})
    return state, marks, played


def _refusal(err: DomainError) -> ServiceError:
    """The rules' refusal of a branch: as for a command, but no seat sent it (so not a 403 for the wrong seat)."""
    if isinstance(err, NotYourTurn):
        return Illegal(err.message, rule=err.rule, prompts=err.prompts)
    return from_domain(err)


def begin(store: GameStore, game: Game, now: float) -> None:
    """Write a branch's opening at its start: the original's events up to the branch point, the branch point, and
    the command it was made with (accepted as the branch's, ``by`` "branch")."""
    assert game.branch_of is not None
    rules = ruleset_named(game.ruleset)
    original = store.repository.get(UUID(game.branch_of["game"]))
    if not isinstance(original, Game):  # pragma: no cover - the store holds only games
        raise NotFound(f"the game {game.branch_of['game']} this branch starts from is not in this store")
    point = game.branch_of["step"]
    log = store.payloads(original, 1, point)
    command = game.branch_of["command"]
    try:
        _, marks, _ = opening(
            rules, game.seed, original, log, point, game.branch_of["deal"], game.branch_of["knower"], None,
            [s["name"] for s in game.seats], now,
        )
    except DomainError as err:  # pragma: no cover - accepted when the branch was made, the same position now
        raise _refusal(err) from None
    game.append([event_from_dict(e) for e in log])
    game.append(marks)
    if command is not None:
        played = {**command, "at": now}
        game.accept(command.get("seat"), BY_BRANCH, played, None, now)
        try:
            game.append(rules.decide(game.state, played))
        except DomainError as err:  # pragma: no cover - accepted when the branch was made
            raise _refusal(err) from None
