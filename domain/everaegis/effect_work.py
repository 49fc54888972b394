"""What every step of a running effect shares: the choice it waits for (``Decision``), who it is about, and its
progress (``work``) — the players it is about and how many are left.

A step about players (``who``) starts by setting its progress; when it is about one of several (``any
player``, ``an opponent``) its possessor first picks that player (R133-R138; a standing guard keeps a player
out, R66). The steps of ``effect_steps.py`` use these parts; none has a copy of them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from aegis.domain.everaegis import events as ev
from aegis.domain.everaegis.context import Ctx
from aegis.domain.everaegis.state import GameState, Pending
from aegis.domain.everaegis.war_bans import war_targets

PICK_ONE = ("any player", "an opponent")

Step = dict[str, Any]


@dataclass(frozen=True)
class Decision:
    """What the running effect waits for: who chooses, and the choices as (label, value)."""

    seat: int
    options: tuple[tuple[str, Any], ...]
    text: str
    kind: str = "choice"  # or "order": which of several waiting effects runs first (R131)


def players(s: GameState, p: Pending, who: str) -> list[int]:
    remaining = s.remaining()
    if who == "self":
        return [p.owner]
    if who in ("each opponent", "an opponent"):
        # R138, R163: allies are not opponents
        return s.in_turn_order([seat for seat in remaining if seat != p.owner and not s.variant.allied(p.owner, seat)])
    return s.in_turn_order(remaining)  # any player, all players


def out_of_reach(s: GameState, p: Pending, seat: int) -> bool:
    """Whether the running effect may not touch ``seat`` (their cards, items or soldiers): a standing guard keeps a
    player out (R66), and the TREATY's parties "cannot affect each other with any abilities, actions, or
    consumable items" (R107): an effect of a leader's action or ability, or of an item, never reaches the
    possessor's TREATY partner (an estate card's effect is none of those). Never the possessor themselves."""
    if seat == p.owner:
        return False
    return seat in p.guarded or (seat == s.partner(p.owner) and s.estate(p.source) is None)


def targets(s: GameState, p: Pending, step: Step) -> list[int]:
    """The players a step may be about: none out of reach (``out_of_reach``); a war is only with a player the
    possessor may be in a war with (``war_bans``)."""
    about = [t for t in players(s, p, step["who"]) if not out_of_reach(s, p, t)]
    if step["step"] == "war":
        allowed = war_targets(s, p.owner)
        about = [t for t in about if t in allowed]
    return about


def how_many(step: Step) -> int:
    """How many times a step acts on each player it is about (its count or amount; once if it has neither)."""
    for key in ("count", "amount"):
        if key in step:
            return int(step[key])
    return 1


def start_work(s: GameState, p: Pending, step: Step) -> dict[str, Any] | None:
    """The progress a step starts with, or None if the possessor must first pick the player."""
    left = how_many(step)
    if "who" not in step:
        return {"targets": [], "left": left}
    about = targets(s, p, step)
    if step["who"] in PICK_ONE and len(about) > 1:
        return None
    return {"targets": about[:1] if step["who"] in PICK_ONE else about, "left": left}


def work_of(p: Pending) -> dict[str, Any]:
    """The progress of a step that has started it."""
    assert p.work is not None
    return p.work


def queue_effect(ctx: Ctx, owner: int, source: str, steps: list[Step], reason: str = "", **more: Any) -> None:
    """An effect of ``source`` is to run for ``owner``: the next effect's number, its steps and why (``more``: the
    other fields of ``EffectQueued``: the card, a declared plan, the guards standing, whether an action runs it)."""
    number = ctx.state.pending.effects_queued + 1
    ctx.emit(ev.EffectQueued(id=number, source=source, owner=owner, steps=list(steps), reason=reason, **more))


def progress(ctx: Ctx, p: Pending, index: int, work: dict[str, Any] | None) -> None:
    ctx.emit(ev.EffectProgressed(id=p.id, index=index, work=work))


def next_target(ctx: Ctx, p: Pending, step: Step, work: dict[str, Any]) -> None:
    """The step is done with its first player: on to the next, or to the next step."""
    rest = work["targets"][1:]
    if rest:
        progress(ctx, p, p.index, {"targets": rest, "left": how_many(step)})
    else:
        progress(ctx, p, p.index + 1, None)


# ----- the start of a step about players: the possessor picks the player first -----


def pick_first(
    s: GameState, p: Pending, step: Step, label: Callable[[GameState, Step, int], str], said: str
) -> Decision | None:
    """The possessor's pick of the player a step is about, when it is about one of several (else None: the step
    starts by itself). ``label``: how the step offers a player; ``said``: the step in words ("give a player the
    ANKH or the SCARAB")."""
    if start_work(s, p, step) is not None:
        return None
    opts = tuple((label(s, step, t), t) for t in targets(s, p, step))
    return Decision(p.owner, opts, f"{p.source}: {said}: choose the player")


def start(ctx: Ctx, p: Pending, step: Step) -> None:
    """Start a step whose players need no pick."""
    work = start_work(ctx.state, p, step)
    assert work is not None
    progress(ctx, p, p.index, work)


def picked(ctx: Ctx, p: Pending, step: Step, seat: int) -> None:
    """Start a step with the player its possessor picked."""
    progress(ctx, p, p.index, {"targets": [seat], "left": how_many(step)})
