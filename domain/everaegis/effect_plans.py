"""The plans of an effect declared with all its choices (a leader's Laboratory or Library; RULINGS: one
declaration, one window), and what it would do: found by running the effect on copies of the state.
"""

from __future__ import annotations

from typing import Any

from aegis.domain.everaegis.context import Ctx
from aegis.domain.everaegis.effect_steps import STEP_KINDS
from aegis.domain.everaegis.effect_work import queue_effect
from aegis.domain.everaegis.effects import decision, effect_step
from aegis.domain.everaegis.state import GameState


def _trial(s: GameState, owner: int, source: str, steps: list[dict[str, Any]], choices: list[Any]) -> Ctx:
    """A copy of the game with only this effect queued, to run with the given choices."""
    ctx = Ctx(s.clone())
    ctx.state.pending.effects = []
    queue_effect(ctx, owner, source, steps, plan=list(choices))
    return ctx


def run_dry(s: GameState, owner: int, source: str, steps: list[dict[str, Any]], choices: list[Any]) -> GameState | None:
    """The state after the effect runs with ``choices`` (None if it would wait for more choices)."""
    ctx = _trial(s, owner, source, steps, choices)
    for _ in range(1000):
        if not ctx.state.pending.effects or ctx.state.pending.effects[0].source != source:
            return ctx.state
        if ctx.state.play.draw_queue:
            return ctx.state
        if not effect_step(ctx):
            return None
    raise AssertionError("an effect did not settle")  # pragma: no cover


def plans(
    s: GameState, owner: int, source: str, steps: list[dict[str, Any]], limit: int = 400, only: list[Any] | None = None
) -> list[tuple[list[Any], str]]:
    """Every full set of choices the effect can be declared with (RULINGS: the coherent declaration), with
    a label; found by running it on copies of the state and branching at each choice. With ``only``, just the
    plan of those choices (none if they are not one)."""
    out: list[tuple[list[Any], str]] = []

    def walk(choices: list[Any], labels: list[tuple[str, bool]]) -> None:
        """``labels``: each choice's words, and whether what follows says it better (then left out)."""
        if len(out) >= limit:
            return
        ctx = _trial(s, owner, source, steps, choices)
        for _ in range(1000):
            st = ctx.state
            if not st.pending.effects or st.pending.effects[0].source != source or st.play.draw_queue:
                said = [text for i, (text, later) in enumerate(labels) if not (later and i < len(labels) - 1)]
                out.append((choices, "; ".join(said)))
                return
            p = st.pending.effects[0]
            if p.plan:
                effect_step(ctx)
                continue
            d = decision(st)
            if d is None:
                effect_step(ctx)
                continue
            # a choice between lists of steps, or of the player before the item, is said by what follows
            said_later = p.index < len(p.steps) and STEP_KINDS[p.steps[p.index]["step"]].said_by_what_follows(p)
            for label, value in d.options:
                if only is None or (len(choices) < len(only) and only[len(choices)] == value):
                    walk([*choices, value], [*labels, (label, said_later)])
            return

    walk([], [])
    return out


def declared_label(s: GameState, owner: int, source: str, steps: list[dict[str, Any]], choices: list[Any]) -> str | None:
    """What an effect declared with ``choices`` does, in the words its declarer chose it by ("Give Fred the
    CALTROPS"); None if the choices are not a plan of it (any more)."""
    found = plans(s, owner, source, steps, limit=1, only=choices)
    return found[0][1] if found and found[0][0] == choices else None


def affected_by(s: GameState, owner: int, source: str, steps: list[dict[str, Any]], choices: list[Any]) -> set[int]:
    """The players (other than the owner) whose soldiers, cards or items the declared effect would change."""
    after = run_dry(s, owner, source, steps, choices)
    if after is None:
        return set()
    out = set()
    for before, now in zip(s.players, after.players, strict=True):
        if before.seat == owner:
            continue
        if before.soldiers != now.soldiers or before.cards != now.cards or s.items_of(before.seat) != after.items_of(now.seat):
            out.add(before.seat)
        walls = (s.items.wall == before.seat, after.items.wall == now.seat)
        if (before.brigs, walls[0], before.sanctions) != (now.brigs, walls[1], now.sanctions):
            out.add(before.seat)
    if s.items.item_soldiers != after.items.item_soldiers:
        out.update(seat for seat in s.items.held.get("BOMB", {}) if seat != owner)
    return out
