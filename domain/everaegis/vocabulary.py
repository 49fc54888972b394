"""The vocabulary that card effects are written in, and the check of an effect written in it.

An effect is data: ``{"when": <moment>, "steps": [<step>, ...]}``. Each step is ``{"step": <name>, ...}``
with its parameters. The steps are declared in ``effect_steps.py``, each once with everything about it: its
parameters (written with the words below: ``WHO``, ``COUNT``, ``AMOUNT``...), what it does, and how the
interpreter (``effects.py``) runs it; nothing else knows a card's text. A catalog (``classic.py``) is
checked with ``check_effect``, whose messages name the step and the problem.

Moments (R92, R93, R26, R29):
- ``revealed``: a trigger estate, once, right after the card is fully revealed;
- ``begin`` / ``end``: a condition estate, in its possessor's Begin / End Phase while revealed;
- ``while revealed``: a condition estate in constant effect while revealed and possessed (only conditions);
- ``declared``: a leader's Laboratory or Library, with every choice made in the declaration (RULINGS:
  one declaration, one window);
- ``used``: a consumable item, when its holder uses it (R103);
- ``reaction``: a reactive consumable, used as an answer in the reaction window on an action (R104);
- ``while held``: a condition item in constant effect while possessed (only conditions, R102);
- ``draw``: a reactive consumable, used in another player's Draw Phase before they draw (R104, R118);
- ``estate revealed``: a leader's ability that acts whenever an estate card is fully revealed;
- ``conquest``: a leader's alternate win condition, checked in its player's own Conquest Phase (R9c);
- ``opponent item discarded``: a leader's ability that acts whenever an opponent's item is discarded (the
  step parameter ``"$discarded"`` names that item).

Who a step is about (``who``), R133-R138:
- ``self``: the card's possessor; ``any player``: one remaining player the possessor picks (themselves
  included); ``an opponent``: one remaining player other than the possessor, picked by the possessor;
  ``each opponent`` / ``all players``: every such remaining player, in turn order from the current player.
"""

from __future__ import annotations

from typing import Any

MOMENTS = (
    "revealed",
    "begin",
    "end",
    "while revealed",
    "declared",
    "opponent item discarded",
    "estate revealed",
    "used",
    "reaction",
    "draw",
    "while held",
    "conquest",
)
LEADER_MOMENTS = {
    "laboratory": ("declared",),
    "library": ("declared",),
    "ability": ("opponent item discarded", "estate revealed"),
    "win": ("conquest",),
}
COUNTS = ("soldiers", "unrevealed", "revealed", "items", "item kinds", "sacrifices")
WHO = ("self", "any player", "an opponent", "each opponent", "all players")
COUNT = ("count", int, 1, 8)
AMOUNT = ("amount", int, 1, 20)

CONDITIONS: dict[str, str] = {
    "no_war": "no player can go to war with another (Chapel's narrated effect, R93)",
    "keep_soldiers": "the holder loses no soldiers (a war's casualties, a discard, ...); gifts still go (E19)",
    "out_of_war": "the holder cannot be in a war with any other player (the TORCH)",
    "war_only_with_holder": "when players go to war, they must have war with the holder (the TARGET)",
    "out_of_war_with_leader": "the holder stays out of war with the player the named leader leads (the PENGUIN EFFIGY)",
    "no_calls": "the holder cannot call bluffs, and nobody can call the holder's bluffs (the SCALES)",
    "eliminated_at": "a player holding this many pieces of the item is eliminated (the BONES)",
}
# the parameters a condition takes, written like a step's (``check_param``); the others take none
CONDITION_PARAMS: dict[str, tuple[tuple[Any, ...], ...]] = {
    "out_of_war_with_leader": (("leader", str),),
    "eliminated_at": (("count", int, 1, 20),),
}


def effects_of(entry: dict[str, Any] | None) -> list[dict[str, Any]]:
    """A component's effects: an item may have several (the PENGUIN EFFIGY acts in the Begin Phase and keeps
    its holder out of a war), written as a list; one effect is written alone."""
    effect = (entry or {}).get("effect")
    if effect is None:
        return []
    return effect if isinstance(effect, list) else [effect]


class EffectError(ValueError):
    """An effect that is not written in the vocabulary; the message says where and why."""


def check_param(where: str, step: dict[str, Any], spec: tuple[Any, ...]) -> None:
    """Raise ``EffectError`` unless ``step`` gives the parameter ``spec``: (name, type, low, high), (name,
    choices), (name, list) for a non-empty list of names, (name, str) for a name, or (name, "steps") for 2 or
    more lists of steps (each checked in turn)."""
    name = spec[0]
    if name not in step:
        raise EffectError(f"{where}: '{name}' is missing")
    value = step[name]
    if spec[1] is list:
        if not isinstance(value, list) or not value or not all(isinstance(v, str) and v for v in value):
            raise EffectError(f"{where}: '{name}' must be a non-empty list of names")
        return
    if spec[1] == "steps":
        if not isinstance(value, list) or len(value) < 2 or not all(isinstance(o, list) and o for o in value):
            raise EffectError(f"{where}: '{name}' must list 2 or more non-empty lists of steps")
        for k, option in enumerate(value, start=1):
            _check_steps(option, where=f"{where} option {k}")
        return
    if spec[1] is str:
        if not isinstance(value, str) or not value.strip():
            raise EffectError(f"{where}: '{name}' must be a name")
        return
    if len(spec) == 2:
        if value not in spec[1] or isinstance(value, bool) != isinstance(spec[1][0], bool):
            raise EffectError(f"{where}: '{name}' must be one of {', '.join(map(str, spec[1]))}, not {value!r}")
        return
    _, kind, low, high = spec
    if isinstance(value, bool) or not isinstance(value, kind) or not low <= value <= high:
        raise EffectError(f"{where}: '{name}' must be a whole number from {low} to {high}, not {value!r}")


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
    _check_steps(steps, where="effect step")


def _check_steps(steps: list[Any], *, where: str) -> None:
    from domain.everaegis.effect_steps import STEP_KINDS  # the steps are written in this module's words: import late

    for i, step in enumerate(steps, start=1):
        here = f"{where} {i}"
        if not isinstance(step, dict) or not isinstance(step.get("step"), str):
            raise EffectError(f"{here}: each step is an object with a 'step' name")
        name = step["step"]
        if name not in STEP_KINDS:
            hint = " (a condition: use when 'while revealed')" if name in CONDITIONS else ""
            raise EffectError(f"{here}: unknown step {name!r}{hint}; steps: {', '.join(STEP_KINDS)}")
        STEP_KINDS[name].check(step, here)


def conditions(effect: dict[str, Any] | None) -> set[str]:
    """The conditions an effect holds while its card is revealed and possessed."""
    if not effect or effect.get("when") != "while revealed":
        return set()
    return {step["step"] for step in effect["steps"]}
