"""The vocabulary that card effects are written in, and the check of an effect written in it.

An effect is data: ``{"when": <moment>, "steps": [<step>, ...]}``. Each step is ``{"step": <name>, ...}``
with the parameters below. ``effects.py`` executes them; nothing else knows a card's text. A catalog
(``classic.py``) is checked with ``check_effect``, whose messages name the step and the problem.

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

# name -> (parameters: (name, type, low, high) or (name, choices), what it does)
STEPS: dict[str, tuple[tuple[tuple[Any, ...], ...], str]] = {
    "gain_soldiers": ((("who", WHO), AMOUNT), "each player it is about gains soldiers (R44)"),
    "lose_soldiers": ((("who", WHO), AMOUNT), "each player it is about discards soldiers they possess, as many as they have"),
    "discard_soldiers_in_play": (
        (AMOUNT, ("up_to", (True, False))),
        "the possessor discards soldiers in play, 1 at a time from players they pick ('up to': may stop)",
    ),
    "gain_card": ((("who", WHO), COUNT), "each player it is about gains cards from the deck (R94)"),
    "reveal": ((("who", WHO), COUNT), "each player it is about fully reveals unrevealed cards of their choice (R95)"),
    "discard_unrevealed": ((("who", WHO), COUNT), "each player it is about discards unrevealed cards of their choice (R96)"),
    "unreveal_any": ((COUNT,), "the possessor unreveals revealed cards in play, any player's (R95)"),
    "give_item": (
        (("items", list), ("who", WHO)),
        "the possessor gives 1 of the items (whichever is possible, R140) to a player: from the reserve, or taken "
        "from its holder (R105, R106); a player who already holds it gains nothing (R106)",
    ),
    "bomb_soldier": (
        (("may", (True, False)),),
        "the possessor adds or removes an unused soldier from the BOMB ('may': or leaves it)",
    ),
    "discard_item_in_play": ((COUNT,), "the possessor discards items in play, any player's (R47, R145)"),
    "war": (
        (("who", ("an opponent",)),),
        "the possessor goes to war, as the attacker, with an opponent they select (R78-R85); not while a war or "
        "another action is under way, nor while a condition forbids wars (R86)",
    ),
    "win_if": (
        (("count", COUNTS), ("at_least", int, 1, 99)),
        "an alternate win condition (R9c): the player wins if this count of theirs reaches the number",
    ),
    "sanction": (
        (("who", WHO),),
        "the possessor puts a SANCTION on an unsanctioned action of the player it is about, of the possessor's "
        "choice: from the reserve, or taken from another player's mat (R109, R105, A19)",
    ),
    "stop_draw": ((), "the player whose Draw Phase it is gains no card this Draw Phase (R27)"),
    "thwart_action": ((), "the action this reaction answers is thwarted (R74): it does not execute"),
    "discard_any_cards": ((COUNT,), "the possessor discards cards in play, any player's, revealed or not (R96, R145)"),
    "choose": (
        (("options", "steps"), ("may", (True, False))),
        "the possessor picks one list of steps, which then runs ('may': or none; R143 'or')",
    ),
    "sacrifice_to_leader": (
        (("leader", str), AMOUNT),
        "the possessor gives soldiers, as many as they have, as sacrifices to the player whose leader is named (R149)",
    ),
}
CONDITIONS: dict[str, str] = {
    "no_war": "no player can go to war with another (Chapel's narrated effect, R93)",
    "keep_soldiers": "the holder loses no soldiers (a war's casualties, a discard, ...); gifts still go (E19)",
}


class EffectError(ValueError):
    """An effect that is not written in the vocabulary; the message says where and why."""


def _check_param(where: str, step: dict[str, Any], spec: tuple[Any, ...]) -> None:
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
            if set(step) != {"step"}:
                raise EffectError(f"effect step {i}: the condition {name} takes no parameters")
        return
    _check_steps(steps, where="effect step")


def _check_steps(steps: list[Any], *, where: str) -> None:
    for i, step in enumerate(steps, start=1):
        here = f"{where} {i}"
        if not isinstance(step, dict) or not isinstance(step.get("step"), str):
            raise EffectError(f"{here}: each step is an object with a 'step' name")
        name = step["step"]
        if name not in STEPS:
            hint = " (a condition: use when 'while revealed')" if name in CONDITIONS else ""
            raise EffectError(f"{here}: unknown step {name!r}{hint}; steps: {', '.join(STEPS)}")
        params = STEPS[name][0]
        allowed = {"step"} | {p[0] for p in params}
        unknown = sorted(set(step) - allowed)
        if unknown:
            raise EffectError(f"{here} ({name}): unknown parameter(s) {', '.join(unknown)}")
        for spec in params:
            _check_param(f"{here} ({name})", step, spec)


def conditions(effect: dict[str, Any] | None) -> set[str]:
    """The conditions an effect holds while its card is revealed and possessed."""
    if not effect or effect.get("when") != "while revealed":
        return set()
    return {step["step"] for step in effect["steps"]}
