"""The check of an effect written in the vocabulary (``vocabulary.py``) with the declared steps
(``effect_steps.py``): what a catalog (``classic.py``) runs on every card, item and leader text it holds. Apart from
both because it needs both: the steps are declared in the vocabulary's words."""

from __future__ import annotations

from typing import Any

from aegis.domain.everaegis.effect_steps import check_steps
from aegis.domain.everaegis.vocabulary import CONDITION_PARAMS, CONDITIONS, LEADER_MOMENTS, MOMENTS, EffectError, check_param


def check_effect(effect: Any, *, estate_type: str | None = None, item: bool = False, leader: str | None = None) -> None:
    """Raise ``EffectError`` unless ``effect`` is written in the vocabulary (and fits the estate's type; an
    item's effect acts at its holder's Begin or End Phase, R102, R114-R117)."""
    if not isinstance(effect, dict):
        raise EffectError("effect must be an object with 'when' and 'steps'")
    extra = sorted(set(effect) - {"when", "steps"})
    if extra:
        raise EffectError(f"effect has unknown field(s) {', '.join(extra)}")
    when = effect.get("when")
    if when not in MOMENTS:
        raise EffectError(f"effect 'when' must be one of {', '.join(MOMENTS)}, not {when!r}")
    steps_named = [st.get("step") for st in effect.get("steps") or [] if isinstance(st, dict)]
    if (leader == "win") != ("win_if" in steps_named) or (leader == "win" and set(steps_named) != {"win_if"}):
        raise EffectError("a leader's win condition is made of win_if steps, and win_if is only for it (R9c)")
    if leader is not None and when not in LEADER_MOMENTS[leader]:
        raise EffectError(f"a leader's {leader} acts when {' or '.join(LEADER_MOMENTS[leader])}, not {when!r}")
    if leader is None and when in ("declared", "opponent item discarded", "estate revealed", "conquest"):
        raise EffectError(f"'when': {when!r} is for a leader's actions and ability")
    if item and when not in ("begin", "end", "used", "reaction", "draw", "while held"):
        raise EffectError("an item acts: begin, end, used, reaction, draw or while held")
    if not item and when == "while held":
        raise EffectError("'while held' is for items (R102)")
    reactive_step = {"reaction": "thwart_action", "draw": "stop_draw"}.get(when)
    if reactive_step and [st.get("step") if isinstance(st, dict) else None for st in effect.get("steps") or []] != [
        reactive_step
    ]:
        raise EffectError(f"a reactive item used {when!r} has the one step {reactive_step}")
    if estate_type == "trigger" and when != "revealed":
        raise EffectError("a trigger estate acts when revealed (R92): 'when' must be 'revealed'")
    if estate_type == "condition" and when == "revealed":
        raise EffectError("a condition estate acts while revealed (R93): 'when' cannot be 'revealed'")
    steps = effect.get("steps")
    if not isinstance(steps, list) or not steps:
        raise EffectError("effect 'steps' must be a non-empty list")
    if when in ("while revealed", "while held"):
        for i, step in enumerate(steps, start=1):
            name = step.get("step") if isinstance(step, dict) else None
            if name not in CONDITIONS:
                raise EffectError(f"effect step {i}: unknown condition {name!r}; conditions: {', '.join(CONDITIONS)}")
            params = CONDITION_PARAMS.get(name, ())
            if set(step) != {"step", *(p[0] for p in params)}:
                words = ", ".join(p[0] for p in params) or "no parameters"
                raise EffectError(f"effect step {i}: the condition {name} takes {words}")
            for spec in params:
                check_param(f"effect step {i}", step, spec)
        return
    check_steps(steps, where="effect step")
